// A connection taken from knex's own pool for a short unit of work written in SQL, with
// statements prepared once per connection: the delivery worker's claims and outcomes, which
// knex would otherwise compile and prepare again on every call (the larger part of the
// worker's CPU time). Taking the connection from the pool keeps knex's guarantees: nothing
// else runs on it meanwhile (on SQLite, with its single pooled connection, that means the
// work waits for any knex transaction and excludes all other statements).
//
// SQLite: the work is synchronous, in one BEGIN IMMEDIATE transaction (which waits out
// another process's writer, as busy_timeout says, instead of failing when it first writes).
// PostgreSQL: named statements (pg prepares each once per connection), `$1` placeholders.
import type { Knex } from 'knex';

export type Row = Record<string, unknown>;

/** What the work sees of a SQLite connection: statements with `?` placeholders. */
export interface SqliteSession {
  all(sql: string, params: readonly unknown[]): Row[];
  /** Runs a write; the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): number;
}

/** What the work sees of a PostgreSQL connection. */
export interface PgSession {
  query(sql: string, params: readonly unknown[]): Promise<Row[]>;
}

interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
}

interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  transaction<T>(fn: () => T): { immediate(): T };
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
  query(text: string): Promise<unknown>;
}

const sqliteStatements = new WeakMap<object, Map<string, SqliteStatement>>();
/** Statement names are per process: pg prepares a name once per connection and refuses another text under it. */
const pgNames = new Map<string, string>();

async function withPooled<C, T>(db: Knex, work: (connection: C) => Promise<T>): Promise<T> {
  const connection = (await db.client.acquireConnection()) as C;
  try {
    return await work(connection);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/** Runs synchronous `work` in one immediate transaction on knex's SQLite connection. */
export function inSqliteTransaction<T>(db: Knex, work: (session: SqliteSession) => T): Promise<T> {
  return withPooled<SqliteConnection, T>(db, async (connection) => {
    let cache = sqliteStatements.get(connection);
    if (!cache) sqliteStatements.set(connection, (cache = new Map()));
    const statement = (sql: string) => {
      let prepared = cache.get(sql);
      if (!prepared) cache.set(sql, (prepared = connection.prepare(sql)));
      return prepared;
    };
    const session: SqliteSession = {
      all: (sql, params) => statement(sql).all(...params) as Row[],
      run: (sql, params) => statement(sql).run(...params).changes,
    };
    return connection.transaction(() => work(session)).immediate();
  });
}

function pgSession(connection: PgConnection): PgSession {
  return {
    async query(sql, params) {
      let name = pgNames.get(sql);
      if (!name) pgNames.set(sql, (name = `ofctx_pooled_${pgNames.size + 1}`));
      return (await connection.query({ name, text: sql, values: params as unknown[] })).rows;
    },
  };
}

/** Runs `work` on one PostgreSQL connection, without a transaction (each statement commits). */
export function onPgConnection<T>(db: Knex, work: (session: PgSession) => Promise<T>): Promise<T> {
  return withPooled<PgConnection, T>(db, (connection) => work(pgSession(connection)));
}

// The transaction begins with its settings in the same round trip (a simple query may hold
// several statements). Generic plans: the work's named statements are the same every time,
// and PostgreSQL would otherwise plan a custom plan at each execution of a complex one (about
// 1 ms for the delivery worker's record-and-lock statement: docs/benchmarks.md).
const BEGIN = 'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan';

/** Runs `work` in one transaction on one PostgreSQL connection; rolled back if it throws. */
export function inPgTransaction<T>(db: Knex, work: (session: PgSession) => Promise<T>): Promise<T> {
  return withPooled<PgConnection, T>(db, async (connection) => {
    await connection.query(BEGIN);
    try {
      const result = await work(pgSession(connection));
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      await connection.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
