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
  all(...params: unknown[]): Row[];
  run(...params: unknown[]): unknown;
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
    return this;
  }

  /** The rows of a query written with `?` placeholders. */
  async all(sql: string, params: unknown[]): Promise<Row[]> {
    const connection = this.usableSqlite();
    if (connection) return this.sqliteStatement(connection, sql).all(...params);
    if (this.postgres) return this.pgQuery(sql, params);
    return (await this.db.raw(sql, params as Knex.RawBinding[])) as Row[];
  }

  /**
   * Runs one write statement once per parameter list, all in one transaction: one commit
   * (one WAL append, one fsync on PostgreSQL) for all of them.
   */
  async runBatch(sql: string, paramLists: unknown[][]): Promise<void> {
    const connection = this.usableSqlite();
    if (connection) {
      const statement = this.sqliteStatement(connection, sql);
      connection.transaction(() => {
        for (const params of paramLists) statement.run(...params);
      })();
      return;
    }
    if (this.postgres) {
      if (paramLists.length === 1) {
        await this.pgQuery(sql, paramLists[0]!);
        return;
      }
      await this.pgTransaction(sql, paramLists);
      return;
    }
    await this.db.transaction(async (trx) => {
      for (const params of paramLists) await trx.raw(sql, params as Knex.RawBinding[]);
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

  private async pgTransaction(sql: string, paramLists: unknown[][]): Promise<void> {
    const prepared = this.pgStatement(sql);
    const connection = (await this.db.client.acquireConnection()) as PgConnection & { query(text: string): Promise<unknown> };
    try {
      await connection.query('BEGIN');
      try {
        for (const values of paramLists) await connection.query({ ...prepared, values });
        await connection.query('COMMIT');
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
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
