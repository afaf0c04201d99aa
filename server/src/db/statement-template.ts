// knex compiles a query builder to SQL text at every call. On the HL7 path one message is a
// handful of statements of fixed shape, and compiling them was a tenth of the service's CPU
// time per message (V8 profile of one MLLP sender on PostgreSQL, 2026-11-27). A template
// compiles its builder once per dialect and number of values, with stand-ins for the values,
// and each call then only puts its values where the stand-ins went. The builder must not
// look at its values (only pass them on as bindings): the text may not depend on them.
import type { Knex } from 'knex';
import { isPostgres } from './database.js';

type Scalar = string | number | boolean | null;

export interface CompiledStatement {
  /** knex's text, `?` placeholders. */
  sql: string;
  bindings: readonly unknown[];
}

/** Where each binding comes from: a value's position, or a constant of the builder's own. */
type Slot = { value: number } | { constant: unknown };

const standIn = (i: number) => `\u0000ofctx-value-${i}\u0000`;
const standInPosition = /^\u0000ofctx-value-(\d+)\u0000$/;

function compile<V extends Scalar[]>(db: Knex, arity: number, build: (db: Knex, ...values: V) => Knex.QueryBuilder | Knex.Raw): { sql: string; slots: Slot[] } {
  const standIns = Array.from({ length: arity }, (_, i) => standIn(i)) as V;
  const { sql, bindings } = build(db, ...standIns).toSQL();
  const slots = (bindings as unknown[]).map((binding): Slot => {
    const position = typeof binding === 'string' ? standInPosition.exec(binding) : null;
    return position ? { value: Number(position[1]) } : { constant: binding };
  });
  const used = new Set(slots.flatMap((slot) => ('value' in slot ? [slot.value] : [])));
  if (used.size !== arity || sql.includes('\u0000')) throw new Error('a statement template must bind each of its values, and only as bindings');
  return { sql, slots };
}

/** Values beyond this many (a long IN list) are compiled by knex at each call: their texts are not kept. */
const KEPT_ARITY = 64;

/** The builder's text compiled once per dialect and arity; each call binds its own values. */
export function statementTemplate<V extends Scalar[]>(build: (db: Knex, ...values: V) => Knex.QueryBuilder | Knex.Raw): (db: Knex, ...values: V) => CompiledStatement {
  const compiled = new Map<string, { sql: string; slots: Slot[] }>();
  return (db, ...values) => {
    if (values.length > KEPT_ARITY) {
      const { sql, bindings } = build(db, ...values).toSQL();
      return { sql, bindings };
    }
    const key = `${isPostgres(db) ? 'pg' : 'sqlite'}:${values.length}`;
    let template = compiled.get(key);
    if (template === undefined) compiled.set(key, (template = compile(db, values.length, build)));
    const bindings = new Array<unknown>(template.slots.length);
    for (let i = 0; i < bindings.length; i++) {
      const slot = template.slots[i]!;
      bindings[i] = 'value' in slot ? values[slot.value] : slot.constant;
    }
    return { sql: template.sql, bindings };
  };
}
