// One knex instance per process, selected by DATABASE_URL: `sqlite:PATH` (better-sqlite3,
// the embedded default) or `postgres://...` (pg, for production and several instances).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { sqlitePath } from '../config/config.js';
import { createPrivateFile } from './private-files.js';
import { PreparingSqliteClient } from './sqlite-client.js';

// int8 (count(*), bigint columns) arrives as a string from pg; our values fit a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Knex;

export function isPostgres(db: Knex): boolean {
  return db.client.config.client === 'pg';
}

/**
 * Work in one PostgreSQL transaction that JIT never compiles: a table without statistics yet
 * (a queue or index after a bulk load) is costed as millions of rows, and compiling would take
 * longer than running (the disclosures report: 250 ms of 300 in EXPLAIN ANALYZE at 10^6 rows).
 */
export function withoutJit<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('SET LOCAL jit = off');
    return work(trx);
  });
}

/** The rows of a `db.raw(...)` result: an array on better-sqlite3, `{ rows }` on pg. */
export function rawRows<Row>(result: unknown): Row[] {
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}

// compileSqlOnError: false: a failed statement's error names its SQL with placeholders, where
// knex would write the statement out with its values (patient data) into the message (SQLite's
// `?`; PostgreSQL's statements are numbered before, and so were never written out), which may
// reach a log or an operator's terminal. Drivers quote values in messages of their own too
// (PostgreSQL's `invalid input syntax for type uuid: "..."`): logs never carry messages
// (logging/logger.ts).
export function openDatabase(databaseUrl: string): Knex {
  const file = sqlitePath(databaseUrl);
  if (file !== null) {
    if (file !== ':memory:') {
      mkdirSync(dirname(file), { recursive: true });
      // Patient data: a new database (and so its -wal and -shm) is readable by its owner only.
      createPrivateFile(file);
    }
    return knexFactory({
      client: PreparingSqliteClient as unknown as typeof Knex.Client,
      connection: { filename: file },
      useNullAsDefault: true,
      compileSqlOnError: false,
      pool: {
        min: 1,
        max: 1,
        // WAL lets readers run beside the writer; busy_timeout waits out a second process
        // (the ops CLI) instead of failing with SQLITE_BUSY.
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = NORMAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          // A log that grew in a burst is cut back to 64 MB when it starts again (db/wal-checkpointer.ts).
          conn.pragma('journal_size_limit = 67108864');
          // A statement's undo pages (its statement journal) stay in memory: past 64 KiB SQLite
          // spilled them to a temporary file in /var/tmp, which an ORU^R01 did at every message
          // (some 200 writes of resource pages, outside the data directory, per message).
          conn.pragma('temp_store = MEMORY');
          // A 64 MB page cache instead of SQLite's 2 MB: an ORU^R01 writes some 130 pages over
          // 40 B-trees, which pushed out the index pages the next message reads (33 reads from
          // the file a message, 6 with this cache); pages are kept only as they are read.
          conn.pragma('cache_size = -65536');
          done(null, conn);
        },
      },
    });
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 10 }, compileSqlOnError: false });
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl.split(':')[0]}:..."`);
}
