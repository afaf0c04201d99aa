// PostgreSQL parses and plans an unnamed statement again at every execution. For the
// statements every ingest transaction sends (the clock tick with its riders, the identifier
// match, the insert batch of data-modifying CTEs) planning cost as much as executing: the
// HL7 tick planned in 0.5-0.6 ms and executed in 0.46-0.6 ms (EXPLAIN ANALYZE, busy machine,
// 2026-11-26), and a sender waiting for each ACK waits for both. So a text seen a second time
// becomes a named statement on the transaction's own connection: parsed once per connection,
// and planned once when PostgreSQL's generic plan serves (it decides after five executions).
// pg keeps every named statement on its connection for the connection's life, so at most
// NAMED_TEXTS texts per process are named, and only recurring ones: one-off shapes (a batch
// of unusual size) run unnamed, as knex runs them. A text whose columns come from a `*` is
// never named: once a migration (another instance's, during a rolling upgrade) adds a column,
// PostgreSQL refuses to run a prepared statement whose result type would change ("cached
// plan must not change result type"). A text whose best plan depends on its values can be
// kept unnamed (`planEachTime`): after five executions PostgreSQL may keep one generic plan
// for good, costed from the statistics of that moment (a fresh or growing table has none
// worth the name until autovacuum analyzes it). The identifier match of an NDJSON chunk
// (`org_id = $1 and value in (...500 values)`) had read every identifier of the organization
// under such a plan, 83-154 ms a chunk at 5,300-6,800 identifiers; better, a statement can
// be written so that one plan serves every value, as that match now is (identifier-rows.ts).
// On SQLite (no round trip, no planning to save) the cost was knex's own: its raw query and
// runner around a statement already prepared, so a statement runs on the transaction's
// connection directly (sqliteTransactionRows below).
// knex's query events are emitted as for its own statements, so whoever watches the
// statements (tests, tracing) still sees them.
import type { Knex } from 'knex';
import { isPostgres, rawRows } from './database.js';
import { statementName } from './statement-names.js';
import type { CompiledStatement } from './statement-template.js';
import { keptStatement, sqliteValue, type Connection as SqliteConnection } from './sqlite-client.js';

/** How many texts one process names (each becomes a prepared statement on every connection that runs it). */
const NAMED_TEXTS = 64;
/** How many not-yet-named texts are remembered as seen once. */
const SEEN_TEXTS = 512;

interface PgConnection {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** knex's client as an emitter of its query events (`query`, `query-response`, `query-error`). */
interface QueryEvents {
  emit(event: string, ...args: unknown[]): boolean;
}

interface PgClient extends QueryEvents {
  positionBindings(sql: string): string;
  prepBindings(bindings: readonly unknown[]): unknown[];
}

const named = new Map<string, string>();
/**
 * The positioned text and name of each named text, by its text as knex writes it (`?`):
 * positioning the 20,000 bindings of an NDJSON chunk's insert batch again at every chunk
 * cost 7 ms of the event loop (408 ms of a 30,000-resource stream's). At most NAMED_TEXTS.
 */
const namedByKnexText = new Map<string, { text: string; name: string }>();
const seenOnce = new Set<string>();
let statementSeq = 0;

/** A `*` standing for columns (`s.*`, `select *`, `returning *`), not `count(*)`. */
const STAR_COLUMNS = /(?<!\()\*(?!\))/;

/** The name of a recurring text, or undefined while it is new (or the budget is spent, or its columns are a `*`). */
function nameOf(text: string): string | undefined {
  const name = named.get(text);
  if (name !== undefined || named.size >= NAMED_TEXTS || STAR_COLUMNS.test(text)) return name;
  if (!seenOnce.has(text)) {
    if (seenOnce.size >= SEEN_TEXTS) seenOnce.clear();
    seenOnce.add(text);
    return undefined;
  }
  seenOnce.delete(text);
  const given = statementName('ofctx_trx', text);
  named.set(text, given);
  return given;
}

export interface StatementOptions {
  /**
   * Planned with its values at every execution, never named (PostgreSQL): for a statement
   * whose best plan depends on them, such as a list of values looked up in a growing table.
   */
  planEachTime?: boolean;
}

/**
 * SQLite: the statement run on the transaction's own connection, prepared once per connection
 * (sqlite-client.ts's statements), without knex's raw query and runner around it. The
 * statements of one HL7 result message's transaction cost about a tenth of the service's CPU
 * a message in that machinery, more than SQLite took to run them (V8 profile, 2026-11-29).
 * Each is awaited before the next is made, so running at once keeps the transaction's order.
 */
async function sqliteTransactionRows<Row>(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  const client = trx.client as unknown as QueryEvents;
  const query = { sql, bindings, method: 'raw', __knexQueryUid: `ofctx-trx-${++statementSeq}` };
  client.emit('query', query);
  const connection = (await trx.client.acquireConnection()) as SqliteConnection;
  try {
    // knex refuses an undefined binding (a caller's bug); better-sqlite3 would bind NULL.
    const missing = bindings.findIndex((value) => value === undefined);
    if (missing >= 0) throw new Error(`Undefined binding(s) detected for keys [${missing}] when compiling RAW query: ${sql}`);
    const statement = keptStatement(connection, sql);
    const values = bindings.map(sqliteValue);
    const rows = statement.reader ? (statement.all(values) as Row[]) : (statement.run(values), []);
    client.emit('query-response', rows, query);
    return rows;
  } catch (error) {
    client.emit('query-error', error, query);
    throw error;
  }
}

/**
 * The rows of a statement run inside a transaction (`?` placeholders, as knex writes them).
 * On PostgreSQL a recurring text runs as a named statement on the transaction's connection
 * (unless `planEachTime`); on SQLite each text is prepared once per connection and run on the
 * transaction's connection directly (a statement that returns no rows gives none).
 */
export async function transactionRows<Row = Record<string, unknown>>(trx: Knex.Transaction, sql: string, bindings: readonly unknown[], options: StatementOptions = {}): Promise<Row[]> {
  // A finished transaction is knex's to refuse (its statement must not run outside it).
  if (!trx.isTransaction || trx.isCompleted()) return rawRows<Row>(await trx.raw(sql, bindings as Knex.RawBinding[]));
  if (!isPostgres(trx as unknown as Knex)) return sqliteTransactionRows<Row>(trx, sql, bindings);
  const client = trx.client as unknown as PgClient;
  const known = options.planEachTime ? undefined : namedByKnexText.get(sql);
  const text = known?.text ?? client.positionBindings(sql);
  const values = client.prepBindings(bindings);
  const name = known?.name ?? (options.planEachTime ? undefined : nameOf(text));
  if (name !== undefined && known === undefined && namedByKnexText.size < NAMED_TEXTS) namedByKnexText.set(sql, { text, name });
  const query = { sql: text, bindings: values, method: 'raw', __knexQueryUid: `ofctx-trx-${++statementSeq}` };
  client.emit('query', query);
  const connection = (await trx.client.acquireConnection()) as PgConnection;
  try {
    const result = await connection.query(name === undefined ? { text, values } : { name, text, values });
    client.emit('query-response', result, query);
    return result.rows as Row[];
  } catch (error) {
    client.emit('query-error', error, query);
    throw error;
  }
}

/** transactionRows of a compiled statement (db/statement-template.ts). */
export function transactionRowsOf<Row = Record<string, unknown>>(trx: Knex.Transaction, statement: CompiledStatement, options: StatementOptions = {}): Promise<Row[]> {
  return transactionRows<Row>(trx, statement.sql, statement.bindings, options);
}
