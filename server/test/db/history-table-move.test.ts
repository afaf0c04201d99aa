// An existing PostgreSQL database upgraded online (migration 039): its audit rows are moved to
// time partitions while writers go on inserting and retention goes on deleting; every
// acknowledged write is there once, every deleted row is gone, nothing is duplicated. And the
// delivery attempts (migration 044), moved while workers record and rewrite attempts.
// HISTORY_MOVE_ROWS audit rows: 100,000 in `npm test` (twice the rows a migration moves inline,
// five copy batches), a million in `npm run test:reliability` (a minute and a quarter here).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { migrationsUpTo } from '../../../test/support/migrations-up-to.js';
import { openDatabase, rawRows } from '../../src/db/database.js';
import { INLINE_ROWS } from '../../src/db/migrations/039_history_partitions.js';
import { isPartitioned, listPartitions } from '../../src/db/history-partitions.js';
import { copyBatch, MOVES_TABLE, pendingMoves, twinName } from '../../src/db/history-table-move.js';
import { historyTable } from '../../src/db/history-tables.js';
import { isDeadlock } from '../../src/db/lock-timeout.js';
import { keepHistoryPartitions } from '../../src/db/history-partition-keeper.js';

const ROWS = Number(process.env.HISTORY_MOVE_ROWS ?? 100_000);

/** A database migrated as before 039, holding `rows` audit rows (`old-<n>`) from `daysBack` days ago on, 31 s apart. */
async function auditRowsBefore039(db: Knex, rows: number, daysBack: number): Promise<void> {
  await db.migrate.latest({ migrationSource: migrationsUpTo('035_diagnostic_reports') });
  await db.raw(
    `INSERT INTO audit_events (at, request_id, client_id, org_id, operation, status, result_count)
     SELECT to_char(now() AT TIME ZONE 'UTC' - interval '${daysBack} days' + (n * interval '31 seconds'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'old-' || n, 'client-a', gen_random_uuid(), 'listCoverage', 200, 0
     FROM generate_series(1, ${rows}) AS n`,
  );
}

describe('moving a history table to time partitions online (PostgreSQL)', function () {
  this.timeout(600_000);
  let database: TestDatabase;
  let db: Knex;

  before(async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    database = await createTestDatabase();
    db = openDatabase(database.url);
    // A year of audit rows, as a deployment upgraded from before 039 holds them.
    await auditRowsBefore039(db, ROWS, 365);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it(`copies ${ROWS.toLocaleString('en')} rows in batches while writers insert and retention deletes, then swaps: nothing lost, nothing twice`, async () => {
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
    // Its rows are locked in its plan's order, the copier's in key order: PostgreSQL may abort
    // either to break a deadlock. The copier tries its batch again; the purge, like the
    // service's, deletes nothing that time and goes on (retention-purger.ts retries later).
    const purger = (async () => {
      while (purging) {
        try {
          const gone = (await db.raw(
            `DELETE FROM audit_events WHERE seq IN (SELECT seq FROM audit_events WHERE request_id LIKE 'old-%' ORDER BY at LIMIT 500) RETURNING request_id`,
          )) as { rows: Array<{ request_id: string }> };
          deleted.push(...gone.rows.map((r) => r.request_id));
        } catch (error) {
          if (!isDeadlock(error)) throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.migrate.latest({ migrationSource: migrationsUpTo('039_history_partitions') });
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

describe('moving the delivery attempts to weekly partitions online (PostgreSQL, migration 044)', function () {
  this.timeout(300_000);
  const ATTEMPTS = 80_000;
  let database: TestDatabase;
  let db: Knex;
  let subscriptionId: string;
  let orgId: string;

  before(async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await db.migrate.latest({ migrationSource: migrationsUpTo('042_resident_birth_date_optional') });
    [orgId, subscriptionId] = [randomUUID(), randomUUID()];
    const clientPk = randomUUID();
    const at = new Date().toISOString();
    await db('organizations').insert({ id: orgId, name: 'move test', created_at: at });
    await db('clients').insert({ id: clientPk, client_id: 'move-test', org_id: orgId, name: 'move test', secret_hash: 'x', scopes: 'system/*.read', status: 'active', created_at: at });
    await db('webhook_subscriptions').insert({ id: subscriptionId, org_id: orgId, client_pk: clientPk, callback_url: 'https://receiver.example/hook', event_types: '[]', signing_secret_encrypted: 'x', status: 'active', created_at: at });
    // Thirty days of deliveries, two attempts each, as a deployment upgraded from before 044 holds them.
    await db.raw(
      `INSERT INTO webhook_deliveries (id, subscription_id, org_id, event_type, body, status, attempts, created_at, completed_at)
       SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(n), 12, '0'))::uuid, ?, ?, 'resident.admitted', '{}', 'delivered', 2, t, t
       FROM (SELECT n, to_char(now() AT TIME ZONE 'UTC' - interval '30 days' + (n * interval '60 seconds'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t FROM generate_series(1, ${ATTEMPTS / 2}) AS n) g`,
      [subscriptionId, orgId],
    );
    await db.raw(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error_class, worker_id)
       SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(n), 12, '0'))::uuid, a,
         to_char(now() AT TIME ZONE 'UTC' - interval '30 days' + (n * interval '60 seconds') + (a * interval '1 second'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 20, 200, NULL, 'old-worker'
       FROM generate_series(1, ${ATTEMPTS / 2}) AS n CROSS JOIN generate_series(1, 2) AS a`,
    );
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('copies the attempts in batches while workers record outcomes (over interrupted records too), then swaps: each attempt once, as last recorded', async () => {
    expect(ATTEMPTS).to.be.greaterThan(INLINE_ROWS);
    await db.migrate.latest({ migrationSource: migrationsUpTo('044_delivery_attempt_partitions') });
    expect(await isPartitioned(db, 'webhook_delivery_attempts')).to.equal(false);
    expect((await pendingMoves(db)).map((m) => m.table_name)).to.deep.equal(['webhook_delivery_attempts']);

    // Workers as delivery-claims.ts records: an attempt first as interrupted (a lease taken
    // over), then its outcome by its own worker, late; and outcomes rewriting old attempts.
    const KEY = ['delivery_id', 'attempt', 'started_at'];
    const recorded = new Map<string, string>();
    const rewritten = new Map<string, string>();
    let writing = true;
    let n = 0;
    const worker = async (w: number) => {
      const own = openDatabase(database.url);
      try {
        while (writing) {
          const i = n++;
          const id = randomUUID();
          const startedAt = new Date().toISOString();
          await own('webhook_deliveries').insert({ id, subscription_id: subscriptionId, org_id: orgId, event_type: 'resident.admitted', body: '{}', status: 'sending', attempts: 1, created_at: startedAt });
          await own('webhook_delivery_attempts').insert({ delivery_id: id, attempt: 1, started_at: startedAt, error_class: 'interrupted' }).onConflict(KEY).ignore();
          await own('webhook_delivery_attempts')
            .insert({ delivery_id: id, attempt: 1, started_at: startedAt, duration_ms: 7, response_status: 200, error_class: null, worker_id: `w${w}` })
            .onConflict(KEY)
            .merge(['duration_ms', 'response_status', 'error_class', 'worker_id']);
          recorded.set(id, `w${w}`);
          // An old attempt's outcome recorded again (its row may be copied, or not yet).
          const old = `00000000-0000-4000-9000-${((i * 7919) % (ATTEMPTS / 2) + 1).toString(16).padStart(12, '0')}`;
          const row = await own('webhook_delivery_attempts').where({ delivery_id: old, attempt: 2 }).first('started_at');
          await own('webhook_delivery_attempts')
            .insert({ delivery_id: old, attempt: 2, started_at: row.started_at, duration_ms: 9, response_status: 200, error_class: null, worker_id: `again-${i}` })
            .onConflict(KEY)
            .merge(['duration_ms', 'response_status', 'error_class', 'worker_id']);
          rewritten.set(old, `again-${i}`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      } finally {
        await own.destroy();
      }
    };
    const workers = [worker(1), worker(2), worker(3)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    await keepHistoryPartitions(db, {}, () => true, 0);
    expect(await isPartitioned(db, 'webhook_delivery_attempts')).to.equal(true);
    expect(await pendingMoves(db)).to.deep.equal([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    writing = false;
    await Promise.all(workers);

    expect(recorded.size).to.be.greaterThan(50);
    const counts = rawRows<{ n: number; keys: number }>(
      await db.raw(`SELECT count(*)::int AS n, count(DISTINCT (delivery_id, attempt))::int AS keys FROM webhook_delivery_attempts`),
    )[0]!;
    expect(counts).to.deep.equal({ n: ATTEMPTS + recorded.size, keys: ATTEMPTS + recorded.size });
    const fresh = (await db('webhook_delivery_attempts').whereIn('delivery_id', [...recorded.keys()]).select('delivery_id', 'error_class', 'worker_id')) as Array<{ delivery_id: string; error_class: string | null; worker_id: string }>;
    expect(fresh.filter((a) => a.error_class !== null || a.worker_id !== recorded.get(a.delivery_id))).to.deep.equal([]);
    const again = (await db('webhook_delivery_attempts').whereIn('delivery_id', [...rewritten.keys()]).andWhere({ attempt: 2 }).select('delivery_id', 'worker_id')) as Array<{ delivery_id: string; worker_id: string }>;
    expect(again).to.have.length(rewritten.size);
    expect(again.filter((a) => a.worker_id !== rewritten.get(a.delivery_id))).to.deep.equal([]);
    // In their weeks, the DEFAULT partition empty; the key the upserts name is the table's.
    expect(rawRows<{ n: number }>(await db.raw('SELECT count(*)::int AS n FROM webhook_delivery_attempts_default'))[0]!.n).to.equal(0);
    expect((await listPartitions(db, 'webhook_delivery_attempts')).length).to.be.greaterThan(5);
    const keys = rawRows<{ def: string }>(await db.raw(`SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'webhook_delivery_attempts'::regclass AND indisunique`)).map((r) => r.def);
    expect(keys.some((def) => def.endsWith('(delivery_id, attempt, started_at)'))).to.equal(true);
  });
});

describe('a copy batch that deadlocks with retention (PostgreSQL)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: Knex;

  before(async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await auditRowsBefore039(db, INLINE_ROWS + 1, 30);
    await db.migrate.latest({ migrationSource: migrationsUpTo('039_history_partitions') });
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('is tried again: PostgreSQL aborts it to break the cycle, and the retry copies the batch whole', async () => {
    const spec = historyTable('audit_events')!;
    const [first, second] = rawRows<{ seq: number }>(await db.raw('SELECT seq FROM audit_events ORDER BY seq LIMIT 2')).map((r) => Number(r.seq)) as [number, number];
    // A deleter holds the batch's second row, then wants its first, which the copier (locking in
    // key order) holds by then: a cycle. The deleter checks for deadlocks later than the
    // copier, so the copier is the one aborted.
    const deleter = openDatabase(database.url);
    let deleterDone!: Promise<void>;
    try {
      const holding = new Promise<void>((held) => {
        deleterDone = deleter.transaction(async (trx) => {
          await trx.raw(`SET LOCAL deadlock_timeout = '20s'`);
          await trx.raw('SELECT 1 FROM audit_events WHERE seq = ? FOR UPDATE', [second]);
          held();
          await new Promise((resolve) => setTimeout(resolve, 500));
          await trx.raw('DELETE FROM audit_events WHERE seq IN (?, ?)', [first, second]);
        });
      });
      await holding;
      const copied = await copyBatch(db, spec, 10);
      await deleterDone;
      // The retry ran after the deleter committed: its two rows are gone from both tables.
      expect(copied).to.equal(8);
      expect(rawRows<{ n: number }>(await db.raw(`SELECT count(*)::int AS n FROM "${twinName('audit_events')}" WHERE seq <= ?`, [first + 9]))[0]!.n).to.equal(8);
      expect(Number((await db(MOVES_TABLE).where({ table_name: 'audit_events' }).first()).copied_through)).to.equal(first + 9);
    } finally {
      await deleterDone?.catch(() => undefined);
      await deleter.destroy();
    }
  });
});
