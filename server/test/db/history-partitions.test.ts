// The history tables partitioned by time on PostgreSQL (migration 039): partitions created
// ahead, by several instances at once; the DEFAULT partition as the safety net; retention by
// dropping whole partitions (and batch deletes where a partition straddles the cut-off); the
// readers' plans reading only the partitions of the time they name. SQLite keeps its tables.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { openDatabase, isPostgres, rawRows } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { HISTORY_TABLES, historyTable } from '../../src/db/history-tables.js';
import { boundOf, defaultPartitionName, dropPartition, ensurePartitions, isPartitioned, listPartitions, nextPeriod, partitionName, periodStart } from '../../src/db/history-partitions.js';
import { purgeExpired } from '../../src/retention/purge-expired.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { disclosuresOfResident } from '../../src/audit/disclosures.js';
import { indexAllQueuedDisclosures } from '../../src/audit/disclosure-index.js';
import { exchangesSince, listExchanges } from '../../src/eligibility/exchange-log.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { attemptsOf } from '../../src/webhooks/delivery-store.js';
import { findSubscriptionDelivery, listSubscriptionDeliveries } from '../../src/webhooks/partner-deliveries.js';
import { EVERY_DELIVERY } from '../../src/webhooks/delivery-view.js';
import { disableFailingSubscriptions } from '../../src/webhooks/subscription-health.js';

const audit = historyTable('audit_events')!;
const exchanges = historyTable('eligibility_exchanges')!;
const attempts = historyTable('webhook_delivery_attempts')!;

/** An organization with a facility and one webhook subscription, for deliveries to name. */
async function seedSubscriber(db: Knex): Promise<{ orgId: string; facilityId: string; subscriptionId: string }> {
  const [orgId, facilityId, clientPk, subscriptionId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const at = new Date().toISOString();
  await db('organizations').insert({ id: orgId, name: 'partitions test', created_at: at });
  await db('facilities').insert({ id: facilityId, org_id: orgId, name: 'partitions test facility', created_at: at });
  await db('clients').insert({ id: clientPk, client_id: `partitions-${clientPk}`, org_id: orgId, name: 'partitions test', secret_hash: 'x', scopes: 'system/*.read', status: 'active', created_at: at });
  await db('webhook_subscriptions').insert({
    id: subscriptionId, org_id: orgId, client_pk: clientPk, callback_url: 'https://receiver.example/hook', event_types: '["resident.admitted"]', signing_secret_encrypted: 'x', status: 'active', created_at: at,
  });
  return { orgId, facilityId, subscriptionId };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every relation a plan reads, with how. */
function scansOf(plan: PlanNode, into: Array<{ relation: string; how: string }> = []): Array<{ relation: string; how: string }> {
  if (plan['Relation Name']) into.push({ relation: plan['Relation Name'], how: plan['Node Type'] });
  for (const child of plan.Plans ?? []) scansOf(child, into);
  return into;
}

describe('history partitioned by time', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('keeps plain tables on SQLite', async function () {
    if (isPostgres(db)) this.skip();
    for (const spec of HISTORY_TABLES) expect(await db.schema.hasTable(spec.table), spec.table).to.equal(!spec.postgresOnly);
  });

  it('partitions every history table by its interval, with a DEFAULT partition and partitions ahead (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    for (const spec of HISTORY_TABLES) {
      expect(await isPartitioned(db, spec.table), spec.table).to.equal(true);
      const names = (await listPartitions(db, spec.table)).map((p) => p.name);
      expect(names).to.include(defaultPartitionName(spec.table));
      let from = periodStart(Date.now(), spec.interval);
      for (let ahead = 0; ahead <= 1; ahead++, from = nextPeriod(from, spec.interval)) expect(names, spec.table).to.include(partitionName(spec.table, from));
    }
    // The key of a partitioned table holds its time column; the serial key is 64-bit.
    const key = rawRows<{ def: string }>(await db.raw(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'audit_events'::regclass AND contype = 'p'`));
    expect(key[0]!.def).to.equal('PRIMARY KEY (seq, at)');
    const seqType = rawRows<{ type: string }>(await db.raw(`SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = 'audit_events'::regclass AND attname = 'seq'`));
    expect(seqType[0]!.type).to.equal('bigint');
  });

  it('`ops partitions` lists each table\'s partitions on PostgreSQL, and says SQLite has none', async () => {
    const run = await runOps(['partitions', '--json'], { DATABASE_URL: database.url });
    if (!isPostgres(db)) {
      expect(run.code).to.equal(1);
      expect(run.stderr).to.contain('PostgreSQL only');
      return;
    }
    const report = jsonOf(run);
    expect(report.moves_pending).to.deep.equal([]);
    const auditReport = report.tables.find((t: { table: string }) => t.table === 'audit_events');
    expect(auditReport).to.include({ column: 'at', interval: 'month', partitioned: true });
    expect(auditReport.partitions.map((p: { name: string }) => p.name)).to.include.members(['audit_events_default', partitionName('audit_events', periodStart(Date.now(), 'month'))]);
  });

  it('creates each partition once when several instances create them ahead at once (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    const later = Date.parse('2031-06-10T00:00:00.000Z');
    const instances = [openDatabase(database.url), openDatabase(database.url), openDatabase(database.url)];
    try {
      const created = await Promise.all(instances.map((instance) => ensurePartitions(instance, audit, later, Date.parse('2030-01-15T00:00:00.000Z'))));
      const all = created.flat();
      // 2030-01 to 2031-06 and a month ahead: 19 months, each created by one instance.
      expect(all).to.have.length(19);
      expect(new Set(all).size).to.equal(19);
      const months = (await listPartitions(db, 'audit_events')).filter((p) => p.from !== null && p.from >= '2030-01' && p.from < '2031-08');
      expect(months.map((p) => p.name)).to.deep.equal([...new Set(all)].sort());
      // Contiguous: each ends where the next begins.
      for (let i = 1; i < months.length; i++) expect(months[i]!.from).to.equal(months[i - 1]!.to);
      // And again: nothing left to create.
      expect(await ensurePartitions(db, audit, later, Date.parse('2030-01-15T00:00:00.000Z'))).to.deep.equal([]);
    } finally {
      await Promise.all(instances.map((instance) => instance.destroy()));
    }
  });

  it('writes a row whose month has no partition to the DEFAULT one, and moves it out when its partition is created (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    const at = '2040-03-05T10:00:00.000Z';
    const requestId = randomUUID();
    await db('audit_events').insert({ at, request_id: requestId, operation: 'listResidents', status: 200, result_count: 0 });
    const inDefault = async () => Number(rawRows<{ n: number }>(await db.raw(`SELECT count(*)::int AS n FROM audit_events_default WHERE request_id = ?`, [requestId]))[0]!.n);
    expect(await inDefault()).to.equal(1);
    const created = await ensurePartitions(db, audit, Date.parse('2040-03-10T00:00:00.000Z'));
    expect(created).to.include('audit_events_p20400301');
    expect(await inDefault()).to.equal(0);
    const moved = rawRows<{ n: number }>(await db.raw(`SELECT count(*)::int AS n FROM audit_events_p20400301 WHERE request_id = ?`, [requestId]));
    expect(moved[0]!.n).to.equal(1);
    expect(await db('audit_events').where({ request_id: requestId }).first('at')).to.deep.equal({ at });
  });

  it('purges by dropping the partitions wholly past the cut-off, and in batches only in the one that straddles it (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    const orgId = randomUUID();
    const resident = randomUUID();
    await ensurePartitions(db, audit, Date.now(), Date.parse('2021-01-01T00:00:00.000Z'));
    const row = (at: string, discloses = false) => ({
      at,
      request_id: randomUUID(),
      org_id: orgId,
      client_id: 'purge-client',
      operation: 'listResidents',
      status: 200,
      result_count: discloses ? 1 : 0,
      ...(discloses ? { resource_ids: JSON.stringify([resident]), purpose: 'TREAT', disclosures: JSON.stringify({ Patient: { [resident]: [0] } }) } : {}),
    });
    // Cut-off: 2021-03-07 (100 days before 2021-06-15).
    await db('audit_events').insert([
      row('2021-01-10T00:00:00.000Z', true),
      row('2021-02-10T00:00:00.000Z'),
      row('2021-02-20T00:00:00.000Z'),
      row('2021-03-02T00:00:00.000Z'),
      row('2021-03-20T00:00:00.000Z', true),
      row('2021-04-10T00:00:00.000Z'),
    ]);
    await indexAllQueuedDisclosures(db);
    expect(await disclosuresOfResident(db, { orgId, residentId: resident })).to.have.length(2);
    const report = await purgeExpired(db, { auditDays: 100, deliveryDays: 30, batchSize: 2 }, { now: Date.parse('2021-06-15T00:00:00.000Z') });
    expect(report.cutoffs.audit_events).to.equal('2021-03-07T00:00:00.000Z');
    const dropped = report.partitions_dropped.filter((p) => p.table === 'audit_events').map((p) => p.partition);
    expect(dropped).to.deep.equal(['audit_events_p20210101', 'audit_events_p20210201']);
    // Older partitions of other tests went too (their rows were past the cut-off); the straddling one lost its early row by batch.
    expect(report.removed.audit_events).to.equal(1);
    const left = (await db('audit_events').where({ org_id: orgId }).orderBy('at').pluck('at')) as string[];
    expect(left).to.deep.equal(['2021-03-20T00:00:00.000Z', '2021-04-10T00:00:00.000Z']);
    const names = (await listPartitions(db, 'audit_events')).map((p) => p.name);
    expect(names).to.not.include('audit_events_p20210101');
    expect(names).to.include('audit_events_p20210301');
    // The accounting of disclosures went with the dropped rows: the report names the one left.
    const reads = await disclosuresOfResident(db, { orgId, residentId: resident });
    expect(reads.map((r) => r.at)).to.deep.equal(['2021-03-20T00:00:00.000Z']);
  });

  it('drops a partition after its detach has committed, and at the next purge one whose drop did not happen (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    const tables = async () => rawRows<{ name: string }>(await db.raw(`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname LIKE 'audit\\_events\\_p2020%' ORDER BY relname`)).map((r) => r.name);
    await ensurePartitions(db, audit, Date.now(), Date.parse('2020-01-01T00:00:00.000Z'));
    // A purge that stopped between a detach and its drop left this (a detached, renamed month).
    await db.raw(`ALTER TABLE audit_events DETACH PARTITION audit_events_p20200101`);
    await db.raw(`ALTER TABLE audit_events_p20200101 RENAME TO audit_events_p20200101_dropping`);
    // A table an operator made that only looks like a partition is not taken for one.
    await db.raw(`CREATE TABLE audit_events_p20200101_kept (LIKE audit_events)`);
    try {
      const report = await purgeExpired(db, { auditDays: 100, deliveryDays: 30, batchSize: 500 }, { now: Date.parse('2020-06-15T00:00:00.000Z') });
      expect(report.partitions_dropped.filter((p) => p.table === 'audit_events').map((p) => p.partition)).to.include('audit_events_p20200201');
      // Nothing detached is left behind, the leftover included; the operator's table stays.
      const left = await tables();
      expect(left.filter((name) => name.endsWith('_dropping'))).to.deep.equal([]);
      expect(left).to.include('audit_events_p20200101_kept');
      expect(left).to.not.include('audit_events_p20200201');
    } finally {
      await db.raw('DROP TABLE IF EXISTS audit_events_p20200101_kept');
    }
  });

  it('a detach waiting for a writer holds the table\'s later writers up for its short wait only, and is done once the writer ends (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    await ensurePartitions(db, audit, Date.now(), Date.parse('2019-01-01T00:00:00.000Z'));
    // A writer in the middle of its transaction: the detach's ACCESS EXCLUSIVE lock must wait for it.
    const holder = await db.transaction();
    await holder.raw('LOCK TABLE audit_events IN ROW EXCLUSIVE MODE');
    const dropping = dropPartition(db, 'audit_events', 'audit_events_p20190101');
    // Meanwhile each request writes its audit row (flushed or not: only the lock is timed).
    const waits: number[] = [];
    const until = Date.now() + 1_200;
    let n = 0;
    while (Date.now() < until) {
      const started = performance.now();
      await db.transaction(async (trx) => {
        await trx.raw('SET LOCAL synchronous_commit = off');
        await trx('audit_events').insert({ at: new Date().toISOString(), request_id: `held-${n++}`, operation: 'listCoverage', status: 200, result_count: 0 });
      });
      waits.push(performance.now() - started);
    }
    await holder.commit();
    expect(await dropping).to.equal(true);
    expect((await listPartitions(db, 'audit_events')).map((p) => p.name)).to.not.include('audit_events_p20190101');
    // Each try of the detach queues the writers behind it for its lock wait (25 ms), then lets
    // them through; with the 500 ms wait it had, a request waited about that long.
    expect(waits.length).to.be.greaterThan(3);
    expect(Math.max(...waits)).to.be.lessThan(250);
  });

  it('purges delivery attempts by dropping the weeks wholly past the cut-off, and in batches in the week that straddles it (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    const { orgId, subscriptionId } = await seedSubscriber(db);
    await ensurePartitions(db, attempts, Date.now(), Date.parse('2026-05-01T00:00:00.000Z'));
    // Still queued, so the deliveries themselves stay: only their attempts are history.
    const deliveryId = randomUUID();
    await db('webhook_deliveries').insert({ id: deliveryId, subscription_id: subscriptionId, org_id: orgId, event_type: 'resident.admitted', body: '{}', status: 'pending', attempts: 5, due_at: '2026-06-20T00:00:00.000Z', created_at: '2026-04-30T00:00:00.000Z' });
    const startedAt = ['2026-05-01T00:00:00.000Z', '2026-05-06T00:00:00.000Z', '2026-05-12T00:00:00.000Z', '2026-05-17T00:00:00.000Z', '2026-05-20T00:00:00.000Z'];
    await db('webhook_delivery_attempts').insert(startedAt.map((at, i) => ({ delivery_id: deliveryId, attempt: i + 1, started_at: at, duration_ms: 5, response_status: 500, error_class: 'http_status' })));
    // Cut-off: 2026-05-16 (30 days before 2026-06-15), a Saturday: the week of 2026-05-11 straddles it.
    const report = await purgeExpired(db, { auditDays: 100_000, deliveryDays: 30, batchSize: 2 }, { now: Date.parse('2026-06-15T00:00:00.000Z') });
    expect(report.cutoffs.webhook_history).to.equal('2026-05-16T00:00:00.000Z');
    const dropped = report.partitions_dropped.filter((p) => p.table === 'webhook_delivery_attempts').map((p) => p.partition);
    expect(dropped).to.deep.equal(['webhook_delivery_attempts_p20260427', 'webhook_delivery_attempts_p20260504']);
    expect(report.removed.webhook_delivery_attempts).to.equal(1);
    expect(await db('webhook_delivery_attempts').where({ delivery_id: deliveryId }).orderBy('attempt').pluck('started_at')).to.deep.equal(startedAt.slice(3));
    expect(await db('webhook_deliveries').where({ id: deliveryId }).first('status')).to.deep.equal({ status: 'pending' });
    const names = (await listPartitions(db, 'webhook_delivery_attempts')).map((p) => p.name);
    expect(names).to.not.include('webhook_delivery_attempts_p20260504');
    expect(names).to.include('webhook_delivery_attempts_p20260511');
  });

  it('upserts an attempt on (delivery_id, attempt, started_at): the outcome recorded after its interrupted record replaces it, in its week (PostgreSQL)', async function () {
    if (!isPostgres(db)) this.skip();
    const { orgId, subscriptionId } = await seedSubscriber(db);
    const deliveryId = randomUUID();
    const claimedAt = new Date().toISOString();
    await db('webhook_deliveries').insert({ id: deliveryId, subscription_id: subscriptionId, org_id: orgId, event_type: 'resident.admitted', body: '{}', status: 'pending', attempts: 1, due_at: claimedAt, created_at: claimedAt });
    // As the claim taking over an expired lease records it, then as its own worker does, late.
    await db('webhook_delivery_attempts').insert({ delivery_id: deliveryId, attempt: 1, started_at: claimedAt, error_class: 'interrupted' }).onConflict(['delivery_id', 'attempt', 'started_at']).ignore();
    await db('webhook_delivery_attempts')
      .insert({ delivery_id: deliveryId, attempt: 1, started_at: claimedAt, duration_ms: 12, response_status: 200, error_class: null, worker_id: 'w1' })
      .onConflict(['delivery_id', 'attempt', 'started_at'])
      .merge(['duration_ms', 'response_status', 'error_class', 'worker_id']);
    expect(await attemptsOf(db, deliveryId)).to.deep.equal([{ attempt: 1, started_at: claimedAt, duration_ms: 12, response_status: 200, error_class: null, worker_id: 'w1' }]);
    const week = partitionName('webhook_delivery_attempts', periodStart(Date.parse(claimedAt), 'week'));
    expect(rawRows<{ n: number }>(await db.raw(`SELECT count(*)::int AS n FROM "${week}" WHERE delivery_id = ?`, [deliveryId]))[0]!.n).to.equal(1);
  });

  describe('the readers that name a time read only its partitions (PostgreSQL)', () => {
    const orgId = randomUUID();
    const resident = randomUUID();
    const since = '2026-09-15T00:00:00.000Z';

    before(async function () {
      if (!isPostgres(db)) this.skip();
      // Two years of monthly partitions, and rows in each.
      await ensurePartitions(db, audit, Date.now(), Date.parse('2024-12-01T00:00:00.000Z'));
      await ensurePartitions(db, exchanges, Date.now(), Date.parse('2024-12-01T00:00:00.000Z'));
      // The accounting of disclosures' index, by the same months (migrations 045, 050).
      for (const table of ['audit_disclosure_texts', 'audit_disclosure_index']) await ensurePartitions(db, historyTable(table)!, Date.now(), Date.parse('2024-12-01T00:00:00.000Z'));
      // Each an answer about one resident (encoded as db/disclosure-encoding.ts writes it);
      // one in a hundred about `resident`.
      await db.raw(
        `INSERT INTO audit_events (at, request_id, client_id, org_id, operation, status, resource_ids, result_count, purpose, disclosures)
         SELECT to_char(timestamp '2024-12-01' + (n * interval '1 hour'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'plan-' || n, 'plan-client', ?, 'listCoverage', 200,
           '["' || r || '"]', 1, 'HPAYMT', '{"Patient":{"' || r || '":[0]}}'
         FROM (SELECT n, CASE WHEN n % 100 = 0 THEN ?::uuid ELSE gen_random_uuid() END AS r FROM generate_series(1, 17000) AS n) g`,
        [orgId, resident],
      );
      await indexAllQueuedDisclosures(db);
      await db.raw('ANALYZE audit_events');
      await db.raw('ANALYZE audit_disclosure_texts');
      await db.raw('ANALYZE audit_disclosure_index');

      // Six months of deliveries to one subscription, one every 4 minutes, each with two
      // attempts (a 503, then a 200) a minute apart: weekly partitions of 5,000 attempts.
      subscriber = await seedSubscriber(db);
      await ensurePartitions(db, attempts, Date.now(), Date.parse('2026-06-01T00:00:00.000Z'));
      await db.raw(
        `INSERT INTO webhook_events (id, org_id, facility_id, resident_id, event_type, occurred_at, created_at)
         SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, ?, ?, gen_random_uuid(), 'resident.admitted', t, t
         FROM (SELECT n, to_char(timestamp '2026-06-01' + (n * interval '4 minutes'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t FROM generate_series(1, 60000) AS n) g`,
        [subscriber.orgId, subscriber.facilityId],
      );
      await db.raw(
        `INSERT INTO webhook_deliveries (id, event_id, subscription_id, org_id, event_type, body, status, attempts, created_at, completed_at, last_attempt_at)
         SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(n), 12, '0'))::uuid, ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, ?, ?, 'resident.admitted', '{}', 'delivered', 2, t, t, t
         FROM (SELECT n, to_char(timestamp '2026-06-01' + (n * interval '4 minutes'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t FROM generate_series(1, 60000) AS n) g`,
        [subscriber.subscriptionId, subscriber.orgId],
      );
      await db.raw(
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error_class)
         SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(n), 12, '0'))::uuid, a,
           to_char(timestamp '2026-06-01' + (n * interval '4 minutes') + (a * interval '1 minute'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 20,
           CASE WHEN a = 1 THEN 503 ELSE 200 END, CASE WHEN a = 1 THEN 'http_status' END
         FROM generate_series(1, 60000) AS n CROSS JOIN generate_series(1, 2) AS a`,
      );
      await db.raw('ANALYZE webhook_events');
      await db.raw('ANALYZE webhook_deliveries');
      await db.raw('ANALYZE webhook_delivery_attempts');
    });
    let subscriber: { orgId: string; facilityId: string; subscriptionId: string };

    /** Asserts the plans of `read` probe the partitions of `table` holding rows by key, never scan one. */
    async function expectProbed(table: string, read: () => Promise<unknown>, minRows = 100): Promise<void> {
      const holding = new Set(
        rawRows<{ name: string }>(await db.raw(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ?::regclass AND c.reltuples > ?`, [table, minRows])).map((r) => r.name),
      );
      expect(holding.size).to.be.greaterThan(20);
      const scans = (await plansOf(table, read)).flatMap((p) => scansOf(p)).filter((s) => holding.has(s.relation));
      expect(scans).to.not.be.empty;
      expect(scans.filter((s) => s.how === 'Seq Scan'), 'partitions holding rows scanned').to.deep.equal([]);
    }

    /** The statements `read` sends that name `table`, each explained with its own bindings. */
    async function plansOf(table: string, read: () => Promise<unknown>): Promise<PlanNode[]> {
      const sent: Array<{ sql: string; bindings: unknown[] }> = [];
      const listener = (q: { sql: string; bindings?: unknown[] }) => {
        if (q.sql.includes(table) && !/^\s*(set|explain)/i.test(q.sql)) sent.push({ sql: q.sql, bindings: q.bindings ?? [] });
      };
      db.on('query', listener);
      try {
        await read();
      } finally {
        db.off('query', listener);
      }
      expect(sent, `statements naming ${table}`).to.not.be.empty;
      const plans: PlanNode[] = [];
      for (const { sql, bindings } of sent) {
        // pg's numbered parameters back to knex's positional ones, in the order they appear.
        const positional: unknown[] = [];
        const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
          positional.push(bindings[Number(n) - 1]);
          return '?';
        });
        const result = await db.raw(`EXPLAIN (FORMAT JSON) ${text}`, positional as Knex.RawBinding[]);
        plans.push((rawRows<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(result)[0]!['QUERY PLAN'])[0]!.Plan);
      }
      return plans;
    }

    /** Asserts no plan reads a partition of `table` wholly before `from`, nor all of them. */
    async function expectPruned(table: string, from: string, read: () => Promise<unknown>): Promise<void> {
      const partitions = (await listPartitions(db, table)).filter((p) => p.from !== null);
      const before = new Set(partitions.filter((p) => p.to! <= from).map((p) => p.name));
      expect(before.size).to.be.greaterThan(10);
      for (const plan of await plansOf(table, read)) {
        const read = scansOf(plan).filter((s) => s.relation.startsWith(`${table}_`)).map((s) => s.relation);
        expect(read.filter((name) => before.has(name)), 'partitions before the time named').to.deep.equal([]);
        expect(new Set(read).size).to.be.lessThan(partitions.length);
      }
    }

    it('`ops audit --since`', async () => {
      await expectPruned('audit_events', since, () => new AuditTrail(db).query({ orgId, since }));
    });

    it('the disclosures report bounded by --from and --to', async () => {
      await expectPruned('audit_events', since, () => disclosuresOfResident(db, { orgId, residentId: resident, from: since, to: '2026-10-15T00:00:00.000Z' }));
      // The resident's index rows of those months only (from the month holding --from).
      await expectPruned('audit_disclosure_index', boundOf(periodStart(Date.parse(since), 'month')), () => disclosuresOfResident(db, { orgId, residentId: resident, from: since, to: '2026-10-15T00:00:00.000Z' }));
      const bounded = await disclosuresOfResident(db, { orgId, residentId: resident, from: since, to: '2026-10-15T00:00:00.000Z' });
      expect(bounded.length).to.be.greaterThan(0);
      expect(bounded.every((r) => r.at >= since && r.at < '2026-10-15T00:00:00.000Z')).to.equal(true);
    });

    it('the eligibility log since a time, and the exchanges the CLI waits for', async () => {
      await expectPruned('eligibility_exchanges', since, () => listExchanges(db, { orgId, since, limit: 10 }));
      await expectPruned('eligibility_exchanges', since, () => exchangesSince(db, [randomUUID()], since));
    });

    it('the retention batches', async () => {
      const cutoff = boundOf(Date.parse('2025-06-10T00:00:00.000Z'));
      const plans = await plansOf('audit_events', () => db('audit_events').select('seq').where('at', '<', cutoff).orderBy('at').limit(2));
      const read = plans.flatMap((p) => scansOf(p)).map((s) => s.relation).filter((r) => r.startsWith('audit_events_'));
      expect(read.every((name) => name === 'audit_events_default' || name < partitionName('audit_events', Date.parse('2025-07-01T00:00:00.000Z')))).to.equal(true);
    });

    it('a delivery\'s attempts (`ops deliveries show`, the console\'s delivery page), without a time, probe each week by key', async () => {
      const deliveryId = '00000000-0000-4000-9000-000000000100';
      await expectProbed('webhook_delivery_attempts', () => attemptsOf(db, deliveryId));
      expect((await attemptsOf(db, deliveryId)).map((a) => a.attempt)).to.deep.equal([1, 2]);
    });

    it('the partner\'s page of deliveries and one delivery read their attempts only in the weeks since the oldest of them', async () => {
      const page = await listSubscriptionDeliveries(db, subscriber.subscriptionId, EVERY_DELIVERY, { page: 3, pageSize: 50 });
      expect(page.deliveries).to.have.length(50);
      expect(page.deliveries.every((d) => d.attempts.length === 2)).to.equal(true);
      // The deliveries' creation, less the day allowed for instances' clocks (partner-deliveries.ts).
      const from = boundOf(Date.parse(page.deliveries.at(-1)!.created_at) - 86_400_000);
      await expectPruned('webhook_delivery_attempts', from, () => listSubscriptionDeliveries(db, subscriber.subscriptionId, EVERY_DELIVERY, { page: 3, pageSize: 50 }));
      const one = page.deliveries[7]!;
      await expectPruned('webhook_delivery_attempts', boundOf(Date.parse(one.created_at) - 86_400_000), () => findSubscriptionDelivery(db, subscriber.subscriptionId, one.id, EVERY_DELIVERY));
      expect((await findSubscriptionDelivery(db, subscriber.subscriptionId, one.id, EVERY_DELIVERY))!.attempts.map((a) => a.status_code)).to.deep.equal([503, 200]);
    });

    it('the retention batches of attempts read only the weeks before the cut-off; those of deliveries probe attempts by key', async () => {
      const cutoff = '2026-07-01T00:00:00.000Z';
      const plans = await plansOf('webhook_delivery_attempts', () => db('webhook_delivery_attempts').select('seq').where('started_at', '<', cutoff).orderBy('started_at').limit(2));
      const read = plans.flatMap((p) => scansOf(p)).map((s) => s.relation).filter((r) => r.startsWith('webhook_delivery_attempts_'));
      expect(read).to.not.be.empty;
      expect(read.every((name) => name === 'webhook_delivery_attempts_default' || name < partitionName('webhook_delivery_attempts', Date.parse(cutoff)))).to.equal(true);
      // A batch of finished deliveries takes its attempts with it (none of these exist: nothing deleted).
      await expectProbed('webhook_delivery_attempts', () => db('webhook_delivery_attempts').whereIn('delivery_id', [randomUUID(), randomUUID()]).del());
    });

    it('the auto-disable\'s look for a success since a subscription began failing reads only the weeks since', async () => {
      const failingSince = '2026-10-01T00:00:00.000Z';
      await db('webhook_subscriptions').where({ id: subscriber.subscriptionId }).update({ failing_since: failingSince });
      await expectPruned('webhook_delivery_attempts', failingSince, () => disableFailingSubscriptions(db, 1));
      // A success since: not disabled, its failing run starts at the first failure after it.
      expect(await db('webhook_subscriptions').where({ id: subscriber.subscriptionId }).first('status')).to.deep.equal({ status: 'active' });
    });

    it('the disclosures report over every month, without a time, probes each partition by key, never scans one', async () => {
      const plans = await plansOf('audit_events', () => disclosuresOfResident(db, { orgId, residentId: resident }));
      // A partition of a page or none costs nothing to scan, and the planner rightly scans it;
      // the ones holding a month of rows are probed by key.
      const holding = new Set(rawRows<{ name: string }>(await db.raw(`SELECT relname AS name FROM pg_class WHERE relname LIKE 'audit\\_events\\_p%' AND reltuples > 100`)).map((r) => r.name));
      expect(holding.size).to.be.greaterThan(20);
      const scans = plans.flatMap((p) => scansOf(p)).filter((s) => holding.has(s.relation));
      expect(scans).to.not.be.empty;
      expect(scans.filter((s) => s.how === 'Seq Scan')).to.deep.equal([]);
      const reads = await disclosuresOfResident(db, { orgId, residentId: resident });
      expect(reads).to.have.length(170);
      // The index's monthly partitions are probed by key too (migration 045).
      // (A month of a few pages, the current one here, is rightly scanned: 500 index rows are about 7 pages.)
      await expectProbed('audit_disclosure_index', () => disclosuresOfResident(db, { orgId, residentId: resident }), 500);
    });
  });
});
