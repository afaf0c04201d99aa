// An existing PostgreSQL database upgraded online (migration 039): a million audit rows are
// moved to time partitions while writers go on inserting and retention goes on deleting;
// every acknowledged write is there once, every deleted row is gone, nothing is duplicated.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { openDatabase, rawRows } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { INLINE_ROWS } from '../../src/db/migrations/039_history_partitions.js';
import { isPartitioned, listPartitions } from '../../src/db/history-partitions.js';
import { MOVES_TABLE, pendingMoves, twinName } from '../../src/db/history-table-move.js';
import { keepHistoryPartitions } from '../../src/db/history-partition-keeper.js';

const ROWS = 1_000_000;

function sourceUpTo(last: string): Knex.MigrationSource<string> {
  const listed = migrations.slice(0, migrations.findIndex(([name]) => name === last) + 1);
  return {
    getMigrations: async () => listed.map(([name]) => name),
    getMigrationName: (name) => name,
    getMigration: async (name) => listed.find(([candidate]) => candidate === name)![1],
  };
}

describe('moving a history table to time partitions online (PostgreSQL)', function () {
  this.timeout(600_000);
  let database: TestDatabase;
  let db: Knex;

  before(async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await db.migrate.latest({ migrationSource: sourceUpTo('035_diagnostic_reports') });
    // A year of audit rows, as a deployment upgraded from before 039 holds them.
    await db.raw(
      `INSERT INTO audit_events (at, request_id, client_id, org_id, operation, status, result_count)
       SELECT to_char(now() AT TIME ZONE 'UTC' - interval '365 days' + (n * interval '31 seconds'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'old-' || n, 'client-a', gen_random_uuid(), 'listCoverage', 200, 0
       FROM generate_series(1, ${ROWS}) AS n`,
    );
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('copies a million rows in batches while writers insert and retention deletes, then swaps: nothing lost, nothing twice', async () => {
    expect(ROWS).to.be.greaterThan(INLINE_ROWS);
    const acknowledged: string[] = [];
    let writing = true;
    let n = 0;
    // Three writers, as three instances' audit trails would be.
    const writer = async () => {
      const own = openDatabase(database.url);
      try {
        while (writing) {
          const ids = Array.from({ length: 20 }, () => `live-${n++}`);
          await own('audit_events').insert(ids.map((request_id) => ({ at: new Date().toISOString(), request_id, client_id: 'client-b', operation: 'listCoverage', status: 200, result_count: 0 })));
          acknowledged.push(...ids);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        await own.destroy();
      }
    };
    const writers = [writer(), writer(), writer()];
    // Retention meanwhile: the oldest rows, in batches, by key (as retention/purge-expired.ts).
    const deleted: string[] = [];
    let purging = true;
    const purger = (async () => {
      while (purging) {
        const gone = (await db.raw(
          `DELETE FROM audit_events WHERE seq IN (SELECT seq FROM audit_events WHERE request_id LIKE 'old-%' ORDER BY at LIMIT 500) RETURNING request_id`,
        )) as { rows: Array<{ request_id: string }> };
        deleted.push(...gone.rows.map((r) => r.request_id));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.migrate.latest({ migrationSource: sourceUpTo('039_history_partitions') });
    // The small tables moved in the migration; audit_events waits for the copier, mirrored.
    expect(await isPartitioned(db, 'eligibility_exchanges')).to.equal(true);
    expect(await isPartitioned(db, 'audit_events')).to.equal(false);
    expect((await pendingMoves(db)).map((m) => m.table_name)).to.deep.equal(['audit_events']);
    expect(await isPartitioned(db, twinName('audit_events'))).to.equal(true);

    // The service's keeper copies and swaps while everything above goes on.
    await keepHistoryPartitions(db, {}, () => true, 0);
    expect(await isPartitioned(db, 'audit_events')).to.equal(true);
    expect(await pendingMoves(db)).to.deep.equal([]);
    const state = await db(MOVES_TABLE).where({ table_name: 'audit_events' }).first();
    expect(state.swapped_at).to.be.a('string');

    // Writes after the swap go to the partitioned table.
    await new Promise((resolve) => setTimeout(resolve, 300));
    writing = false;
    purging = false;
    await Promise.all([...writers, purger]);

    expect(acknowledged.length).to.be.greaterThan(100);
    expect(deleted.length).to.be.greaterThan(0);
    const live = rawRows<{ n: number; distinct_ids: number }>(
      await db.raw(`SELECT count(*)::int AS n, count(DISTINCT request_id)::int AS distinct_ids FROM audit_events WHERE request_id LIKE 'live-%'`),
    )[0]!;
    expect(live).to.deep.equal({ n: acknowledged.length, distinct_ids: acknowledged.length });
    const old = rawRows<{ n: number; distinct_ids: number }>(
      await db.raw(`SELECT count(*)::int AS n, count(DISTINCT request_id)::int AS distinct_ids FROM audit_events WHERE request_id LIKE 'old-%'`),
    )[0]!;
    expect(old).to.deep.equal({ n: ROWS - deleted.length, distinct_ids: ROWS - deleted.length });
    const sample = deleted.filter((_, i) => i % 97 === 0);
    expect(Number((await db('audit_events').whereIn('request_id', sample).count({ n: '*' }).first())!.n)).to.equal(0);
    const keys = rawRows<{ n: number; seqs: number }>(await db.raw('SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM audit_events'))[0]!;
    expect(keys.seqs).to.equal(keys.n);
    // The rows are in their months' partitions, the DEFAULT one empty.
    expect(rawRows<{ n: number }>(await db.raw('SELECT count(*)::int AS n FROM audit_events_default'))[0]!.n).to.equal(0);
    expect((await listPartitions(db, 'audit_events')).length).to.be.greaterThan(13);
    // The old table, its mirror and its twin's name are gone; the disclosure trigger is on the new table.
    expect(rawRows(await db.raw(`SELECT 1 FROM pg_class WHERE relname = ?`, [twinName('audit_events')]))).to.have.length(0);
    const triggers = rawRows<{ name: string }>(await db.raw(`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'audit_events'::regclass AND NOT tgisinternal`));
    expect(triggers.map((t) => t.name)).to.deep.equal(['audit_events_disclosure_backlog']);
  });
});
