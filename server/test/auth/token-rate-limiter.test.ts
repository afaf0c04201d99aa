// The token endpoint's per-address limit (auth/token-rate-limiter.ts) on PostgreSQL, where
// its counters are rows of one shared table. Migration 051 makes that table. Instances that
// start together open the limiter without any DDL: they used to race on the library's own
// CREATE TABLE, and one failed to start. They count one limit together, and a database where
// the library had already made the table keeps it and its counters.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { createTestDatabase, testDatabaseKind } from '../../../test/support/database.js';
import { migrationsUpTo } from '../../../test/support/migrations-up-to.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { TokenRateLimiter } from '../../src/auth/token-rate-limiter.js';

describe('the token rate limiter on PostgreSQL (skipped on SQLite, which counts in memory)', function () {
  this.timeout(60_000);

  beforeEach(function () {
    if (testDatabaseKind !== 'postgres') this.skip();
  });

  it('is opened by instances starting together without creating its table (migration 051 made it), and they share one limit', async () => {
    const database = await createTestDatabase();
    const instances = [0, 1, 2].map(() => openDatabase(database.url));
    try {
      await migrateToLatest(instances[0]!);
      const statements: string[] = [];
      for (const db of instances) db.on('query', (query: { sql: string }) => statements.push(query.sql));
      const limiters = await Promise.all(instances.map((db) => TokenRateLimiter.create(db, 2, 60)));
      expect(statements.filter((sql) => /\bcreate\b/i.test(sql))).to.deep.equal([]);
      const allowed: boolean[] = [];
      for (const limiter of limiters) allowed.push((await limiter.consume('192.0.2.7')).allowed);
      expect(allowed).to.deep.equal([true, true, false]);
    } finally {
      await Promise.all(instances.map((db) => db.destroy()));
      await database.drop();
    }
  });

  it('keeps the table and counters the library made before migration 051', async () => {
    const database = await createTestDatabase();
    const db = openDatabase(database.url);
    try {
      await db.migrate.latest({ migrationSource: migrationsUpTo('050_disclosure_texts') });
      // What the service before migration 051 did at each start.
      const before = await new Promise<RateLimiterPostgres>((resolve, reject) => {
        const made: RateLimiterPostgres = new RateLimiterPostgres(
          { keyPrefix: 'token', points: 2, duration: 60, storeClient: db, storeType: 'knex', tableName: 'token_rate_limits', clearExpiredByTimeout: false },
          (error?: Error) => (error ? reject(error) : resolve(made)),
        );
      });
      await before.consume('192.0.2.8');
      await migrateToLatest(db);
      const limiter = await TokenRateLimiter.create(db, 2, 60);
      expect((await limiter.consume('192.0.2.8')).allowed).to.equal(true);
      expect((await limiter.consume('192.0.2.8')).allowed).to.equal(false);
    } finally {
      await (db as Knex).destroy();
      await database.drop();
    }
  });
});
