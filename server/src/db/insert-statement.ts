// knex compiles an INSERT anew at every call, quoting every column name again: one HL7
// message's rows (resident, identifiers, names, audit, event, deliveries) were compiled at
// every message, part of the tenth of its CPU time that went to knex's compiler (V8 profile,
// 2026-11-27). Rows of one shape (the same columns in the same order, no value undefined,
// none raw SQL) have one text: knex compiles it once per dialect, table, columns and row
// count, and later calls only list their values in that text's order. The first compile
// checks that order against knex's own bindings; a shape whose bindings differ is compiled
// by knex every time.
import type { Knex } from 'knex';
import { isPostgres } from './database.js';
import { recentlyUsed } from './recently-used.js';
import type { CompiledStatement } from './statement-template.js';

/** Shapes kept: a process writes a few dozen (tables x row counts). */
const KEPT_SHAPES = 512;
/** Larger inserts (bulk ingestion's) are compiled by knex each time: their long texts are not kept, and their compile is a small part of their rows' work. */
const KEPT_ROWS = 32;
const texts = new Map<string, { sql: string; columns: string[] } | null>();

type Row = Record<string, unknown>;

/** Whether knex binds the value as it is (not undefined, which it writes as DEFAULT; not raw SQL or a subquery). */
const boundAsIs = (value: unknown) => value !== undefined && !(typeof value === 'object' && value !== null && typeof (value as { toSQL?: unknown }).toSQL === 'function');

/** The keys of every row when all rows have the same keys in the same order and every value is bound as is; else undefined. */
function sharedKeys(rows: readonly Row[]): string[] | undefined {
  const keys = Object.keys(rows[0]!);
  for (const row of rows) {
    let i = 0;
    for (const key in row) {
      if (key !== keys[i++] || !boundAsIs(row[key])) return undefined;
    }
    if (i !== keys.length) return undefined;
  }
  return keys;
}

function valuesOf(rows: readonly Row[], columns: readonly string[]): unknown[] {
  const bindings = new Array<unknown>(rows.length * columns.length);
  let n = 0;
  for (const row of rows) for (const column of columns) bindings[n++] = row[column];
  return bindings;
}

function knexInsert(db: Knex, table: string, rows: readonly object[]): CompiledStatement {
  const { sql, bindings } = db(table).insert(rows as object[]).toSQL();
  return { sql, bindings };
}

/** `insert into table (...) values ...` of these rows, as knex writes it. */
export function insertStatement(db: Knex, table: string, rows: readonly object[]): CompiledStatement {
  const typed = rows as readonly Row[];
  const keys = rows.length <= KEPT_ROWS ? sharedKeys(typed) : undefined;
  if (keys === undefined) return knexInsert(db, table, rows);
  const key = `${isPostgres(db) ? 'pg' : 'sqlite'}\u0000${table}\u0000${rows.length}\u0000${keys.join('\u0000')}`;
  let compiledNow: CompiledStatement | undefined;
  const text = recentlyUsed(texts, key, KEPT_SHAPES, () => {
    compiledNow = knexInsert(db, table, rows);
    // knex lists a row's values by column name, sorted.
    const columns = [...keys].sort();
    const ours = valuesOf(typed, columns);
    const same = ours.length === compiledNow.bindings.length && ours.every((value, i) => value === compiledNow!.bindings[i]);
    return same ? { sql: compiledNow.sql, columns } : null;
  });
  if (compiledNow) return compiledNow;
  if (text === null) return knexInsert(db, table, rows);
  return { sql: text.sql, bindings: valuesOf(typed, text.columns) };
}
