// Statements prepared once, for the hot paths only (the list page, its count, the audit
// rows); knex stays for migrations and everything else. knex prepares every statement
// again on every call and builds its SQL each time: that was about half the CPU time of a
// list request (docs/benchmarks.md).
//
// SQLite: the very connection knex pools (one, better-sqlite3, synchronous), so both see one
// database, `:memory:` included. A synchronous statement cannot interleave with another
// statement, but it can land inside a transaction knex has open on that connection; then
// it goes through knex instead, which queues it behind the transaction.
// PostgreSQL: a connection borrowed from knex's pool and a named statement, which pg
// prepares once per connection.
import type { Knex } from 'knex';
import { isPostgres } from './database.js';
import { recentlyUsed } from './recently-used.js';
import { statementName } from './statement-names.js';
import { inPgTransaction, onPgConnection, type PgSession } from './pooled-connection.js';

export type Row = Record<string, unknown>;

/** Written in the same transaction before insertRows' rows (the audit rows' texts). */
export interface LeadingWrite {
  /** SQLite (and knex's path): a statement run once for each of `rows`. */
  sqlite: { sql: string; rows: unknown[][] };
  /** PostgreSQL: a WITH clause put in front of the first INSERT, and its parameters (none: nothing to write). */
  postgres: { with: string; params: unknown[] };
}

interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  raw(on: boolean): SqliteStatement;
  columns(): { name: string }[];
  reader: boolean;
}

/** A read statement that returns arrays: better-sqlite3 makes row objects in C++ far slower than JS does. */
interface SqliteReader {
  statement: SqliteStatement;
  columns: string[];
}

interface PgStatement {
  name: string;
  text: string;
  /** Known after its first result. */
  columns?: string[];
}

interface SqliteConnection {
  open: boolean;
  inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  transaction<T>(fn: () => T): () => T;
}

interface PgConnection {
  query(config: { name?: string; text: string; values: unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[][]; fields: { name: string }[] }>;
}

/** Rows as arrays of values, with their column names. */
interface Arrays {
  columns: string[];
  arrays: unknown[][];
}

/** Row objects from arrays, columns `from` onwards. */
function objectsOf({ columns, arrays }: Arrays, from = 0): Row[] {
  const rows: Row[] = new Array(arrays.length);
  for (let r = 0; r < arrays.length; r++) {
    const values = arrays[r]!;
    const row: Row = {};
    for (let c = from; c < columns.length; c++) row[columns[c]!] = values[c];
    rows[r] = row;
  }
  return rows;
}

/** Rows from knex (objects) as arrays, the columns those of the first row. */
function arraysOf(objects: Row[]): Arrays {
  return { columns: Object.keys(objects[0] ?? {}), arrays: objects.map((row) => Object.values(row)) };
}

/** The first `leading` columns once, from the first row (undefined when there is none), and the rest as the rows. */
function withLeading(arrays: Arrays, leading: number): { leading: Row | undefined; rows: Row[] } {
  const first = arrays.arrays[0];
  let head: Row | undefined;
  if (first) {
    head = {};
    for (let c = 0; c < leading; c++) head[arrays.columns[c]!] = first[c];
  }
  return { leading: head, rows: objectsOf(arrays, leading) };
}

/** The most rows in one PostgreSQL insert statement (one prepared statement per size up to it). */
const MAX_ROWS_PER_INSERT = 32;

/** `?` placeholders -> `$1, $2, ...` (our hot SQL has no literal question marks). */
function numbered(sql: string): string {
  let text = numberedTexts.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    // The audit rows' INSERTs, one per batch size, come back request after request.
    if (numberedTexts.size >= NUMBERED_TEXTS_KEPT) numberedTexts.clear();
    numberedTexts.set(sql, text);
  }
  return text;
}
const numberedTexts = new Map<string, string>();
const NUMBERED_TEXTS_KEPT = 256;

/** How many varying statements (allVarying) SQLite keeps prepared. */
const VARYING_STATEMENTS = 256;

export class PreparedStatements {
  private sqlite: SqliteConnection | undefined;
  private readonly sqliteStatements = new Map<string, SqliteStatement>();
  private readonly sqliteReaders = new Map<string, SqliteReader>();
  /** The statements of allVarying, the most recently used last (recently-used.ts). */
  private readonly varyingReaders = new Map<string, SqliteReader>();
  private readonly pgNames = new Map<string, PgStatement>();
  /** allVarying's named statements on PostgreSQL: at most VARYING_STATEMENTS, never dropped (pg keeps them per connection). */
  private readonly pgVarying = new Map<string, PgStatement>();
  /** Varying texts renamed so far (after a migration changed their columns). */
  private pgVaryingRenames = 0;
  private readonly postgres: boolean;
  /** allShared's reads not yet sent, by text and parameters. */
  private readonly sharedReads = new Map<string, Promise<Row[]>>();

  constructor(private readonly db: Knex) {
    this.postgres = isPostgres(db);
  }

  /** Borrows knex's SQLite connection once; until then (or if it closes) statements go through knex. */
  async ready(): Promise<this> {
    if (this.postgres) return this;
    const connection = (await this.db.client.acquireConnection()) as SqliteConnection;
    this.db.client.releaseConnection(connection);
    this.sqlite = connection;
    this.sqliteStatements.clear();
    this.sqliteReaders.clear();
    this.varyingReaders.clear();
    return this;
  }

  /** The rows of a query written with `?` placeholders. */
  async all(sql: string, params: unknown[]): Promise<Row[]> {
    const arrays = await this.arrays(sql, params);
    return arrays ? objectsOf(arrays) : ((await this.db.raw(sql, params as Knex.RawBinding[])) as Row[]);
  }

  /**
   * `all`, with the reads asked in the same turn of the event loop with the same text and
   * parameters sharing one statement (a polled list's flags and stamp: many requests of a
   * poll phase ask the same; on PostgreSQL each made a round trip, on SQLite each began a
   * read transaction of its own in the write-ahead log). The statement runs only after that
   * turn, so each read sees every write committed before it was asked, as its own statement
   * would; a read asked once it runs gets a statement of its own. Callers share the rows:
   * read them, never change them.
   */
  allShared(sql: string, params: readonly string[]): Promise<Row[]> {
    const key = `${sql}\u0000${params.join('\u0000')}`;
    let shared = this.sharedReads.get(key);
    if (shared === undefined) {
      shared = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.sharedReads.delete(key);
        return this.all(sql, [...params]);
      });
      this.sharedReads.set(key, shared);
    }
    return shared;
  }

  /**
   * The rows of a statement whose SQL varies with the request (R4 searches: one text per
   * shape of search, listing its parameters but not their values). It is prepared once: on
   * SQLite kept among the last VARYING_STATEMENTS texts, so a repeated search skips SQLite's
   * prepare (an eighth of a search's CPU); on PostgreSQL the first VARYING_STATEMENTS texts
   * are named statements (parsed once per pooled connection, and planned once when the
   * generic plan serves), later ones run unnamed, so the statements kept on each connection
   * stay bounded.
   */
  async allVarying(sql: string, params: unknown[]): Promise<Row[]> {
    const arrays = await this.varyingArrays(sql, params);
    if (arrays) return objectsOf(arrays);
    return (await this.db.raw(sql, params as Knex.RawBinding[])) as Row[];
  }

  /** allVarying with allWithLeading's leading columns (a search's total beside its page). */
  async allVaryingWithLeading(sql: string, params: unknown[], leading: number): Promise<{ leading: Row | undefined; rows: Row[] }> {
    const arrays = (await this.varyingArrays(sql, params)) ?? arraysOf((await this.db.raw(sql, params as Knex.RawBinding[])) as Row[]);
    return withLeading(arrays, leading);
  }

  /** The rows of a query built with knex, run as allVarying runs its SQL. */
  async allOfQuery(query: Knex.QueryBuilder): Promise<Row[]> {
    const { sql, bindings } = query.toSQL();
    return this.allVarying(sql, bindings as unknown[]);
  }

  /** A varying statement's rows as arrays, or undefined when only knex can run it now (a SQLite transaction is open). */
  private async varyingArrays(sql: string, params: unknown[]): Promise<Arrays | undefined> {
    const connection = this.usableSqlite();
    if (connection) {
      const reader = recentlyUsed(this.varyingReaders, sql, VARYING_STATEMENTS, () => {
        const statement = connection.prepare(sql).raw(true);
        return { statement, columns: statement.columns().map((column) => column.name) };
      });
      const arrays = reader.statement.all(...params) as unknown[][];
      // SQLite prepares a statement again after a migration changed its table; a `t.*` then
      // has more columns than were read at its first prepare.
      if (arrays.length > 0 && arrays[0]!.length !== reader.columns.length) reader.columns = reader.statement.columns().map((column) => column.name);
      return { columns: reader.columns, arrays };
    }
    if (!this.postgres) return undefined;
    let prepared = this.pgVarying.get(sql);
    if (!prepared && this.pgVarying.size < VARYING_STATEMENTS) {
      prepared = { name: statementName('ofctx_varying', sql), text: numbered(sql) };
      this.pgVarying.set(sql, prepared);
    }
    try {
      return await this.pgRun(prepared ?? { text: numbered(sql) }, params);
    } catch (error) {
      // A migration (another instance's, during a rolling upgrade) changed the columns of a
      // `t.*`: PostgreSQL refuses the prepared statement on every connection that has it
      // ("cached plan must not change result type", 0A000). The text gets a new name, which
      // each connection prepares afresh; the read is retried once (it runs in no transaction).
      if (!prepared || (error as { code?: string }).code !== '0A000') throw error;
      const renamed = { name: statementName(`ofctx_varying_r${++this.pgVaryingRenames}`, sql), text: prepared.text };
      this.pgVarying.set(sql, renamed);
      return this.pgRun(renamed, params);
    }
  }

  /**
   * The rows of a query whose first `leading` columns hold the same values on every row
   * (uncorrelated scalar subqueries, such as a list's count read along with its page, to
   * save a round trip): those columns once, from the first row (undefined when there is
   * none), and the rest as the rows.
   */
  async allWithLeading(sql: string, params: unknown[], leading: number): Promise<{ leading: Row | undefined; rows: Row[] }> {
    const arrays = (await this.arrays(sql, params)) ?? arraysOf((await this.db.raw(sql, params as Knex.RawBinding[])) as Row[]);
    return withLeading(arrays, leading);
  }

  /**
   * Inserts rows into a table in one transaction: one commit (one WAL append, one fsync on
   * PostgreSQL) for all of them. On PostgreSQL up to MAX_ROWS_PER_INSERT rows are one
   * statement, one round trip; `pgTypes` are the column types.
   */
  async insertRows(table: string, columns: readonly string[], pgTypes: readonly string[], rows: unknown[][], first?: LeadingWrite): Promise<void> {
    const insert = `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    const connection = this.usableSqlite();
    if (connection) {
      const statement = this.sqliteStatement(connection, insert);
      const leading = first && first.sqlite.rows.length > 0 ? this.sqliteStatement(connection, first.sqlite.sql) : undefined;
      connection.transaction(() => {
        if (leading) for (const row of first!.sqlite.rows) leading.run(...row);
        for (const row of rows) statement.run(...row);
      })();
      return;
    }
    if (this.postgres) {
      // A multi-row VALUES statement per batch size (named by pooled-connection.ts, so
      // prepared once per size and connection), in one transaction when the batch needs
      // several: plain parameters, no arrays to encode (pg escapes every element as text).
      const chunks: unknown[][][] = [];
      for (let i = 0; i < rows.length; i += MAX_ROWS_PER_INSERT) chunks.push(rows.slice(i, i + MAX_ROWS_PER_INSERT));
      const statements = chunks.map((chunk, i) => {
        const leading = i === 0 && first !== undefined && first.postgres.params.length > 0 ? first.postgres : undefined;
        return { sql: this.pgInsertText(table, columns, pgTypes, chunk.length, leading?.with), params: leading ? [...leading.params, ...chunk.flat()] : chunk.flat() };
      });
      const write = async (session: PgSession) => {
        for (const { sql, params } of statements) await session.query(numbered(sql), params);
      };
      await (statements.length > 1 ? inPgTransaction(this.db, write) : onPgConnection(this.db, write));
      return;
    }
    await this.db.transaction(async (trx) => {
      for (const row of first?.sqlite.rows ?? []) await trx.raw(first!.sqlite.sql, row as Knex.RawBinding[]);
      for (const row of rows) await trx.raw(insert, row as Knex.RawBinding[]);
    });
  }

  // The text of a multi-row INSERT, built once per table, columns, leading clause and batch
  // size (a group commit's batch sizes recur; building it was 1% of a polled PostgreSQL list's
  // CPU). Looked up by the very strings and array a caller passes again (their hashes kept by
  // V8), not by a key made per call.
  private readonly pgInsertTexts = new WeakMap<readonly string[], Map<string, Map<string, string[]>>>();

  private pgInsertText(table: string, columns: readonly string[], pgTypes: readonly string[], rowCount: number, leading: string | undefined): string {
    let byTable = this.pgInsertTexts.get(columns);
    if (byTable === undefined) this.pgInsertTexts.set(columns, (byTable = new Map()));
    let byLeading = byTable.get(table);
    if (byLeading === undefined) byTable.set(table, (byLeading = new Map()));
    let bySize = byLeading.get(leading ?? '');
    if (bySize === undefined) byLeading.set(leading ?? '', (bySize = []));
    let text = bySize[rowCount];
    if (text === undefined) {
      const row = `(${pgTypes.map((type) => `?::${type}`).join(', ')})`;
      text = `${leading ? `${leading} ` : ''}insert into ${table} (${columns.join(', ')}) values ${new Array<string>(rowCount).fill(row).join(', ')}`;
      bySize[rowCount] = text;
    }
    return text;
  }

  private usableSqlite(): SqliteConnection | undefined {
    const connection = this.sqlite;
    if (!connection) return undefined;
    if (!connection.open) {
      // The pool replaced its connection: borrow the new one for later calls.
      this.sqlite = undefined;
      this.ready().catch(() => undefined);
      return undefined;
    }
    return connection.inTransaction ? undefined : connection;
  }

  /** Rows as arrays from a prepared statement, or undefined when only knex can run it now. */
  private async arrays(sql: string, params: unknown[]): Promise<Arrays | undefined> {
    const connection = this.usableSqlite();
    if (connection) return this.sqliteArrays(connection, sql, params);
    if (this.postgres) return this.pgArrays(sql, params);
    return undefined;
  }

  private sqliteArrays(connection: SqliteConnection, sql: string, params: unknown[]): Arrays {
    let reader = this.sqliteReaders.get(sql);
    if (!reader) {
      const statement = connection.prepare(sql).raw(true);
      reader = { statement, columns: statement.columns().map((column) => column.name) };
      this.sqliteReaders.set(sql, reader);
    }
    return { columns: reader.columns, arrays: reader.statement.all(...params) as unknown[][] };
  }

  private sqliteStatement(connection: SqliteConnection, sql: string): SqliteStatement {
    let statement = this.sqliteStatements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      this.sqliteStatements.set(sql, statement);
    }
    return statement;
  }

  private pgStatement(sql: string): PgStatement {
    let prepared = this.pgNames.get(sql);
    if (!prepared) {
      prepared = { name: statementName('ofctx_hot', sql), text: numbered(sql) };
      this.pgNames.set(sql, prepared);
    }
    return prepared;
  }

  /** A named statement in array row mode: pg builds no row objects, objectsOf does (faster, and it can skip columns). */
  private pgArrays(sql: string, params: unknown[]): Promise<Arrays> {
    return this.pgRun(this.pgStatement(sql), params);
  }

  /** A statement in array row mode, named (prepared once per connection) or not. */
  private async pgRun(prepared: { name?: string; text: string; columns?: string[] }, params: unknown[]): Promise<Arrays> {
    const connection = (await this.db.client.acquireConnection()) as PgConnection;
    try {
      const result = await connection.query({ ...(prepared.name ? { name: prepared.name } : {}), text: prepared.text, values: params, rowMode: 'array' });
      // The columns read once, unless the statement's width changed since (a migration).
      const columns = prepared.columns?.length === result.fields.length ? prepared.columns : result.fields.map((field) => field.name);
      if (prepared.name) prepared.columns = columns;
      return { columns, arrays: result.rows };
    } finally {
      this.db.client.releaseConnection(connection);
    }
  }
}

const perDatabase = new WeakMap<Knex, PreparedStatements>();

/** The prepared statements of a knex instance, made on first use (knex serves until they are ready). */
export function preparedStatements(db: Knex): PreparedStatements {
  let statements = perDatabase.get(db);
  if (!statements) {
    statements = new PreparedStatements(db);
    perDatabase.set(db, statements);
    statements.ready().catch(() => undefined);
  }
  return statements;
}
