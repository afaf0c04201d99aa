// Inserts gathered while a transaction works out its writes, then written together. On
// PostgreSQL every statement is a round trip (about 0.3 ms on this machine), and applying one
// new resident wrote five in a row (the resident, its identifiers, its names, its ingest
// audit, its event): a sender that waits for each HL7 ACK waited for each of them. Gathered,
// they are one statement of data-modifying CTEs (`with w0 as (insert ...), ... insert ...`):
// PostgreSQL runs every part exactly once, in one snapshot, and checks foreign keys at the
// end of the statement, so rows may reference rows of an earlier part. On SQLite (in the
// process, no round trip) each insert runs in the order added, on the transaction's own
// connection as a statement prepared once (knex prepared each again: five per HL7 message).
import type { Knex } from 'knex';
import { isPostgres } from './database.js';
import { transactionRows, transactionRowsOf } from './transaction-statements.js';
import type { CompiledStatement } from './statement-template.js';
import { keptStatement, sqliteValue, type Connection as SqliteConnection } from './sqlite-client.js';
import { insertStatement } from './insert-statement.js';

/** Bound parameters in one statement: well under PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;

type Rows = ReadonlyArray<object>;

/**
 * Rows per multi-row INSERT, as many as the limits allow: bound parameters (SQLite 32,766;
 * PostgreSQL 65,535) and, on SQLite, 500 rows (knex writes them as one compound SELECT, which
 * SQLite caps at 500 terms).
 */
const rowsPerInsert = (rows: Rows) => Math.max(1, Math.min(500, Math.floor(MAX_PARAMETERS / Object.keys(rows[0]!).length)));

/** Multi-row INSERTs through knex, as few as the limits allow. */
export async function insertAll(trx: Knex | Knex.Transaction, table: string, rows: Rows): Promise<void> {
  if (rows.length === 0) return;
  const perInsert = rowsPerInsert(rows);
  for (let i = 0; i < rows.length; i += perInsert) await trx(table).insert(rows.slice(i, i + perInsert));
}

export class InsertBatch {
  private pending: Array<{ table: string; rows: Rows }> = [];

  constructor(private readonly trx: Knex.Transaction) {}

  add(table: string, rows: Rows): void {
    if (rows.length > 0) this.pending.push({ table, rows });
  }

  /**
   * Writes what was added, in that order (one statement on PostgreSQL when it fits). A
   * `then` statement (a read that needs none of these rows, compiled: db/statement-template.ts)
   * runs after them, on PostgreSQL as the same statement's primary query: its rows are returned.
   */
  async flush(then?: CompiledStatement): Promise<unknown[] | undefined> {
    const pending = this.pending;
    this.pending = [];
    const rows = pending.length > 0 ? await this.write(pending, then) : undefined;
    return rows ?? (then ? await transactionRowsOf(this.trx, then) : undefined);
  }

  /** Writes `pending`; the rows of `then` when they came with the write, else undefined. */
  private async write(pending: Array<{ table: string; rows: Rows }>, then: CompiledStatement | undefined): Promise<unknown[] | undefined> {
    if (!isPostgres(this.trx as unknown as Knex)) {
      // The transaction's connection (knex hands it to its transaction alone).
      const connection = (await this.trx.client.acquireConnection()) as SqliteConnection;
      for (const { table, rows } of pending) {
        const perInsert = rowsPerInsert(rows);
        for (let i = 0; i < rows.length; i += perInsert) {
          const { sql, bindings } = insertStatement(this.trx, table, rows.slice(i, i + perInsert));
          keptStatement(connection, sql).run(bindings.map(sqliteValue));
        }
      }
      return undefined;
    }
    const parameters = pending.reduce((n, p) => n + p.rows.length * Object.keys(p.rows[0]!).length, 0);
    if (pending.length + (then ? 1 : 0) < 2 || parameters > MAX_PARAMETERS) {
      for (const { table, rows } of pending) await insertAll(this.trx, table, rows);
      return undefined;
    }
    const inserts = pending.map(({ table, rows }) => insertStatement(this.trx, table, rows));
    const primary = then ?? inserts.pop()!;
    const ctes = inserts.map((statement, i) => `w${i} as (${statement.sql})`).join(', ');
    // A message's batch has the same text as the previous message's of its kind: named once it recurs.
    const rows = await transactionRows(this.trx, `with ${ctes} ${primary.sql}`, [...inserts.flatMap((s) => s.bindings), ...primary.bindings]);
    return then ? rows : undefined;
  }
}
