// Strong locks on tables the service writes to wait briefly and are tried again (PostgreSQL):
// a short lock_timeout set for one step of a migration stays with that step, and the move to
// partitions gets its trigger's lock once a long writer lets go.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { openDatabase, rawRows } from '../../src/db/database.js';
import { retryOnLockTimeout, withLockTimeout } from '../../src/db/lock-timeout.js';
import { beginMove, pendingMoves, MOVES_TABLE } from '../../src/db/history-table-move.js';
import type { HistoryTable } from '../../src/db/history-tables.js';

async function lockTimeoutOf(db: Knex): Promise<string> {
  return rawRows<{ value: string }>(await db.raw(`SELECT current_setting('lock_timeout') AS value`))[0]!.value;
}

describe('waiting for a table lock briefly and trying again (PostgreSQL)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;

  before(async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await db.raw('CREATE TABLE busy (id serial PRIMARY KEY, at text NOT NULL)');
    await db.raw(`CREATE TABLE ${MOVES_TABLE} (table_name varchar(64) PRIMARY KEY, copy_through bigint NOT NULL, copied_through bigint NOT NULL, started_at varchar(32) NOT NULL, swapped_at varchar(32))`);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('a step of a longer transaction (a migration) keeps its short timeout to itself, committed or rolled back', async () => {
    await db.transaction(async (migration) => {
      expect(await lockTimeoutOf(migration)).to.equal('0');
      await withLockTimeout(migration, '500ms', async (step) => {
        expect(await lockTimeoutOf(step)).to.equal('500ms');
      });
      expect(await lockTimeoutOf(migration)).to.equal('0');
      await withLockTimeout(migration, '500ms', async () => {
        throw Object.assign(new Error('lock not had'), { code: '55P03' });
      }).catch(() => undefined);
      expect(await lockTimeoutOf(migration)).to.equal('0');
    });
  });

  it('tries again until a writer holding the table lets go, and says so when none of the tries got it', async () => {
    const holder = openDatabase(database.url);
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const writer = holder.transaction(async (trx) => {
        await trx('busy').insert({ at: new Date().toISOString() });
        holding();
        await released;
      });
      await held;
      // Two short tries fail while the writer's transaction is open.
      const failed = await retryOnLockTimeout(db, { timeout: '100ms', attempts: 2, pauseMs: 10 }, (trx) => trx.raw('LOCK TABLE busy IN SHARE ROW EXCLUSIVE MODE'));
      expect(failed).to.equal(undefined);
      // The writer ends during the pauses; a later try gets the lock.
      setTimeout(release, 300);
      const tries: number[] = [];
      const got = await retryOnLockTimeout(db, { timeout: '100ms', attempts: 20, pauseMs: 20 }, async (trx) => {
        tries.push(tries.length + 1);
        await trx.raw('LOCK TABLE busy IN SHARE ROW EXCLUSIVE MODE');
        return 'locked';
      });
      await writer;
      expect(got).to.deep.equal({ value: 'locked' });
      expect(tries.length).to.be.greaterThan(1);
    } finally {
      await holder.destroy();
    }
  });

  it('the move to partitions adds its mirror trigger once a writer holding the table for longer than one try lets go, inside a migration', async () => {
    const spec: HistoryTable = { table: 'busy', column: 'at', key: 'id', interval: 'month' };
    const holder = openDatabase(database.url);
    try {
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      // Longer than one try (2 s) of the trigger's lock.
      const writer = holder.transaction(async (trx) => {
        await trx('busy').insert({ at: new Date().toISOString() });
        holding();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      });
      await held;
      await db.transaction(async (migration) => {
        expect(await beginMove(migration, spec)).to.equal(true);
        expect(await lockTimeoutOf(migration)).to.equal('0');
      });
      await writer;
      expect((await pendingMoves(db)).map((m) => m.table_name)).to.deep.equal(['busy']);
      const triggers = rawRows<{ name: string }>(await db.raw(`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'busy'::regclass AND NOT tgisinternal`));
      expect(triggers.map((t) => t.name)).to.deep.equal(['busy_mirror_to_partitioned']);
    } finally {
      await holder.destroy();
    }
  });
});
