// knex's better-sqlite3 client, with each SQL text prepared once per connection.
//
// WHY: knex prepares every statement it runs again (better-sqlite3's prepare parses and plans
// the SQL each time): in an HL7 message's transaction on SQLite, a tenth of the CPU went to
// preparing the same few texts. Statements are kept per connection, the least recently used
// dropped past a bound, in a cache of their own: the statements other code prepares
// (prepared-statements.ts) switch modes such as `raw`, which must not leak into knex's.
import type { Knex } from 'knex';
import { createRequire } from 'node:module';
import { recentlyUsed } from './recently-used.js';
import { sqliteDriver } from './sqlite-driver.js';

const require = createRequire(import.meta.url);
/** knex's own client class (knex exports no type for it). */
const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3/index.js') as new (config: Knex.Config) => Knex.Client;

export interface Statement {
  reader: boolean;
  safeIntegers(on: boolean): Statement;
  all(bindings: unknown[]): unknown[];
  run(bindings: unknown[]): { lastInsertRowid: number | bigint; changes: number };
}
export interface Connection {
  prepare(sql: string): Statement;
}
interface QueryObject {
  sql: string;
  bindings?: unknown[];
  options?: unknown;
  response?: unknown;
  context?: unknown;
}

/** Texts kept per connection: the service's own statements number in the low hundreds. */
const KEPT_STATEMENTS = 512;
const statementsOf = new WeakMap<Connection, Map<string, Statement>>();

/** `sql` prepared on `connection`, once while it stays among the connection's KEPT_STATEMENTS. */
export function keptStatement(connection: Connection, sql: string): Statement {
  let statements = statementsOf.get(connection);
  if (!statements) statementsOf.set(connection, (statements = new Map()));
  return recentlyUsed(statements, sql, KEPT_STATEMENTS, () => connection.prepare(sql));
}

/** A value as better-sqlite3 binds it (knex's own conversion: dates as milliseconds, booleans as 0/1). */
export const sqliteValue = (value: unknown) => (value instanceof Date ? value.valueOf() : typeof value === 'boolean' ? Number(value) : value);

export class PreparingSqliteClient extends BetterSqlite3Client {
  /** The driver for this Node.js (sqlite-driver.ts), not knex's `require('better-sqlite3')`. */
  _driver(): unknown {
    return sqliteDriver();
  }

  async _query(connection: Connection, obj: QueryObject): Promise<QueryObject> {
    if (!obj.sql) throw new Error('The query is empty');
    if (!connection) throw new Error('No connection provided');
    const knexClient = this as unknown as { _formatBindings(b: unknown[] | undefined): unknown[]; _optSafeIntegers(options: unknown): boolean | undefined };
    // A query asking for safe integers gets a statement of its own (the mode would stick to a kept one).
    const safeIntegers = knexClient._optSafeIntegers(obj.options);
    const statement = safeIntegers === undefined ? keptStatement(connection, obj.sql) : connection.prepare(obj.sql).safeIntegers(safeIntegers);
    const bindings = knexClient._formatBindings(obj.bindings);
    if (statement.reader) {
      obj.response = statement.all(bindings);
      return obj;
    }
    const response = statement.run(bindings);
    obj.response = response;
    obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return obj;
  }
}
