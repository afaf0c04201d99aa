// A fresh, empty database for one test suite: a temporary SQLite file, or (when the test
// runner selected PostgreSQL) a new database named with the run's prefix, which the runner
// drops at the end of the run. On PostgreSQL a suite that only needs the latest schema gets a
// copy of the run's migrated template (TEST_PG_TEMPLATE, made once by scripts/run-tests.mjs):
// running every migration for each of a hundred suites cost more than a second each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Knex } from 'knex';
import { openDatabase } from '../../server/src/db/database.js';

export interface TestDatabase {
  url: string;
  kind: 'sqlite' | 'postgres';
  drop(): Promise<void>;
}

export const testDatabaseKind: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A fresh database: empty, or with `migrated`, at the latest schema on PostgreSQL when the
 * runner made a template (the service migrates it at start otherwise, as it does on SQLite).
 * A test of the migrations themselves asks for an empty one.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  if (testDatabaseKind === 'postgres') {
    const adminUrl = process.env.TEST_PG_ADMIN_URL!;
    const name = `${process.env.TEST_PG_PREFIX ?? 'ofctx_test_'}${randomBytes(5).toString('hex')}`;
    const template = options.migrated ? process.env.TEST_PG_TEMPLATE : undefined;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      kind: 'postgres',
      async drop() {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-test-'));
  return {
    url: `sqlite:${join(dir, 'ofctx.db')}`,
    kind: 'sqlite',
    async drop() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh database opened with knex for the enclosing mocha suite (no migrations): opened in
 * `before`, closed and dropped in `after`. Call it in the `describe` body; `setUp` runs once
 * the database is open. The returned function gives the knex instance.
 */
export function freshKnexForSuite(setUp?: (db: Knex) => Promise<void>): () => Knex {
  let database: TestDatabase | undefined;
  let db: Knex | undefined;
  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await setUp?.(db);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });
  return () => db!;
}
