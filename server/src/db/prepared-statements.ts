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

export type Row = Record<string, unknown>;

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

interface SqliteConnection {
  open: boolean;
  inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  transaction<T>(fn: () => T): () => T;
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

/** `?` placeholders -> `$1, $2, ...` (our hot SQL has no literal question marks). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export class PreparedStatements {
  private sqlite: SqliteConnection | undefined;
  private readonly sqliteStatements = new Map<string, SqliteStatement>();
  private readonly sqliteReaders = new Map<string, SqliteReader>();
  private readonly pgNames = new Map<string, { name: string; text: string }>();
  private readonly postgres: boolean;

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
    return this;
  }

  /** The rows of a query written with `?` placeholders. */
  async all(sql: string, params: unknown[]): Promise<Row[]> {
    const connection = this.usableSqlite();
    if (connection) return this.sqliteRows(connection, sql, params);
    if (this.postgres) return this.pgQuery(sql, params);
    return (await this.db.raw(sql, params as Knex.RawBinding[])) as Row[];
  }

  /**
   * Inserts rows into a table in one transaction: one commit (one WAL append, one fsync on
   * PostgreSQL) for all of them. On PostgreSQL it is one statement whatever the number of
   * rows (columns passed as arrays to unnest), so one round trip; `pgTypes` are the column
   * types for the arrays.
   */
  async insertRows(table: string, columns: readonly string[], pgTypes: readonly string[], rows: unknown[][]): Promise<void> {
    const insert = `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    const connection = this.usableSqlite();
    if (connection) {
      const statement = this.sqliteStatement(connection, insert);
      connection.transaction(() => {
        for (const row of rows) statement.run(...row);
      })();
      return;
    }
    if (this.postgres) {
      const unnest = `insert into ${table} (${columns.join(', ')}) select * from unnest(${pgTypes.map((type) => `?::${type}[]`).join(', ')})`;
      await this.pgQuery(unnest, columns.map((_, i) => rows.map((row) => row[i])));
      return;
    }
    await this.db.transaction(async (trx) => {
      for (const row of rows) await trx.raw(insert, row as Knex.RawBinding[]);
    });
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

  private sqliteRows(connection: SqliteConnection, sql: string, params: unknown[]): Row[] {
    let reader = this.sqliteReaders.get(sql);
    if (!reader) {
      const statement = connection.prepare(sql).raw(true);
      reader = { statement, columns: statement.columns().map((column) => column.name) };
      this.sqliteReaders.set(sql, reader);
    }
    const { columns } = reader;
    const arrays = reader.statement.all(...params) as unknown[][];
    const rows: Row[] = new Array(arrays.length);
    for (let r = 0; r < arrays.length; r++) {
      const values = arrays[r]!;
      const row: Row = {};
      for (let c = 0; c < columns.length; c++) row[columns[c]!] = values[c];
      rows[r] = row;
    }
    return rows;
  }

  private sqliteStatement(connection: SqliteConnection, sql: string): SqliteStatement {
    let statement = this.sqliteStatements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      this.sqliteStatements.set(sql, statement);
    }
    return statement;
  }

  private pgStatement(sql: string): { name: string; text: string } {
    let prepared = this.pgNames.get(sql);
    if (!prepared) {
      prepared = { name: `ofctx_hot_${this.pgNames.size + 1}`, text: numbered(sql) };
      this.pgNames.set(sql, prepared);
    }
    return prepared;
  }

  private async pgQuery(sql: string, params: unknown[]): Promise<Row[]> {
    const prepared = this.pgStatement(sql);
    const connection = (await this.db.client.acquireConnection()) as PgConnection;
    try {
      return (await connection.query({ ...prepared, values: params })).rows;
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
