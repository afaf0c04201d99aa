// Migration 050 (PostgreSQL): the accounting of disclosures finds a text's audit rows of a
// month through an index on the audit rows, and keeps one row per (organization, month, text)
// where it kept a group of seqs per catch-up pass. An upgraded database reports the same; the
// index is built partition by partition without holding the writers, and a run stopped half
// way is taken up; the rollback queues the indexed rows again, so nothing is lost either way.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../../test/support/database.js';
import { migrationsUpTo } from '../../../../test/support/migrations-up-to.js';
import { openDatabase, rawRows } from '../../../src/db/database.js';
import { ensurePartitions, isPartitioned, listPartitions } from '../../../src/db/history-partitions.js';
import { historyTable } from '../../../src/db/history-tables.js';
import { DISCLOSURE_TEXT_INDEX, DISCLOSURE_TEXT_INDEX_BODY } from '../../../src/db/disclosure-text-key.js';
import { AuditTrail, type AuditEntry } from '../../../src/audit/audit-trail.js';
import { indexAllQueuedDisclosures } from '../../../src/audit/disclosure-index.js';
import { disclosuresOfResident } from '../../../src/audit/disclosures.js';
import * as disclosureTexts from '../../../src/db/migrations/050_disclosure_texts.js';
import { INLINE_ROWS } from '../../../src/db/migrations/039_history_partitions.js';
import { buildIndexOnline, isIndexPending } from '../../../src/db/online-index.js';
import { ONLINE_INDEXES } from '../../../src/db/online-indexes.js';
import { keepHistoryPartitions } from '../../../src/db/history-partition-keeper.js';
import { jsonOf, runOps } from '../../../../test/support/ops-cli.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

// The catch-up of the version before (migrations 045, 049): a group of seqs per text a batch found.
const BATCH_BEFORE_050 = `WITH batch AS (
    DELETE FROM audit_disclosure_backlog
    WHERE seq = ANY(ARRAY(SELECT seq FROM audit_disclosure_backlog WHERE seq >= ? ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED))
    RETURNING seq, at
  ), batch_rows AS (
    SELECT a.seq, a.at, a.org_id, a.disclosures, a.disclosures_digest, substr(a.at, 1, 7) || '-01T00:00:00.000Z' AS month,
      coalesce(a.disclosures_digest, md5(a.disclosures)) AS text_key
    FROM batch CROSS JOIN LATERAL (SELECT e.seq, e.at, e.org_id, e.disclosures, e.disclosures_digest FROM audit_events e WHERE e.seq = batch.seq AND e.at = batch.at LIMIT 1) a
  ), texts AS (
    SELECT org_id, month, text_key, min(disclosures) AS disclosures, min(disclosures_digest) AS digest,
      string_agg(seq::text, ',' ORDER BY seq) AS seqs, min(seq) AS first_seq, max(seq) AS last_seq, min(at) AS first_at, max(at) AS last_at
    FROM batch_rows GROUP BY org_id, month, text_key
  ), grouped AS (
    INSERT INTO audit_disclosure_groups (month, org_id, text_key, first_seq, last_seq, first_at, last_at, seqs)
    SELECT month, org_id, text_key, first_seq, last_seq, first_at, last_at, '[' || seqs || ']' FROM texts
  ), new_texts AS (
    SELECT x.org_id, x.month, x.text_key, x.disclosures, x.digest FROM texts x
    WHERE NOT EXISTS (SELECT 1 FROM audit_disclosure_groups g WHERE g.org_id = x.org_id AND g.text_key = x.text_key AND g.month = x.month)
  ), named AS (
    SELECT DISTINCT x.org_id, r.key::uuid AS resident_id, x.month, x.text_key
    FROM new_texts x LEFT JOIN audit_texts dt ON dt.digest = x.digest
    CROSS JOIN LATERAL jsonb_each(coalesce(x.disclosures, dt.text)::jsonb) t
    CROSS JOIN LATERAL jsonb_object_keys(t.value) r(key)
  ), indexed AS (
    INSERT INTO audit_disclosure_index (org_id, resident_id, month, text_key)
    SELECT org_id, resident_id, month, text_key FROM named ORDER BY org_id, resident_id, month, text_key
    ON CONFLICT DO NOTHING
  )
  SELECT count(*)::int AS rows, min(seq) AS first FROM batch`;

const exists = async (db: Knex, table: string) => rawRows(await db.raw('SELECT 1 FROM pg_class WHERE oid = to_regclass(?)', [table])).length > 0;
const count = async (db: Knex, table: string) => Number((await db(table).count({ n: '*' }).first())!.n);

/** The partitions of audit_events and whether each has a valid index attached to the text index. */
async function indexedPartitions(db: Knex): Promise<Map<string, boolean>> {
  const rows = rawRows<{ partition: string; valid: boolean | null }>(
    await db.raw(
      `SELECT p.relname AS partition, (SELECT i.indisvalid FROM pg_inherits h JOIN pg_index i ON i.indexrelid = h.inhrelid
         WHERE h.inhparent = to_regclass(?) AND i.indrelid = p.oid) AS valid
       FROM pg_inherits ph JOIN pg_class p ON p.oid = ph.inhrelid WHERE ph.inhparent = 'audit_events'::regclass`,
      [DISCLOSURE_TEXT_INDEX],
    ),
  );
  return new Map(rows.map((r) => [r.partition, r.valid === true]));
}

describe('a text\'s audit rows found by their key, no groups (PostgreSQL, migration 050)', function () {
  this.timeout(120_000);
  before(function () {
    if (testDatabaseKind !== 'postgres') this.skip();
  });
  // A database as the version before 050 left it.
  let database: TestDatabase;
  let db: Knex;
  before(async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await db.migrate.latest({ migrationSource: migrationsUpTo('049_disclosure_backlog_at') });
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });
  let trail: AuditTrail;
  const orgId = randomUUID();
  const resident = randomUUID();
  const other = randomUUID();
  let n = 0;
  const entry = (of: string[]): AuditEntry => {
    const ids = of.map(() => randomUUID());
    return {
      requestId: `request-${++n}`, clientId: 'client-a', orgId, facilityId: null, operation: 'listCoverage', status: 200,
      resourceIds: ids, purpose: 'HPAYMT', disclosures: of.map((residentId, i) => ({ residentId, resourceType: 'Coverage', resourceIds: [ids[i]!] })),
    };
  };
  const reports = async () => ({
    resident: await disclosuresOfResident(db, { orgId, residentId: resident }),
    other: await disclosuresOfResident(db, { orgId, residentId: other }),
  });

  before(() => {
    trail = new AuditTrail(db);
  });

  it('keeps what the groups said was indexed, reports the same, drops the groups and indexes every partition', async () => {
    // A page polled in two passes, another answer, all indexed the old way; one answer still queued.
    const polled = entry([resident, other]);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < 3; i++) await trail.record({ ...polled, requestId: `${polled.requestId}-${pass}-${i}` });
      await db.raw(BATCH_BEFORE_050, [0, 1_000]);
    }
    await trail.record(entry([resident]));
    await db.raw(BATCH_BEFORE_050, [0, 1_000]);
    // (A text names residents and their records' positions: this one is new.)
    await trail.record(entry([other]));
    expect(await count(db, 'audit_disclosure_groups')).to.equal(3);
    const before = await reports();
    expect(before.resident).to.have.length(7);
    expect(before.other).to.have.length(7);

    await disclosureTexts.up(db);
    expect(await exists(db, 'audit_disclosure_groups')).to.equal(false);
    expect(await isPartitioned(db, 'audit_disclosure_texts')).to.equal(true);
    // The groups' two texts (the polled page's two passes are one text), once each.
    expect(await count(db, 'audit_disclosure_texts')).to.equal(2);
    const partitions = await indexedPartitions(db);
    expect(partitions.size).to.be.greaterThan(2);
    expect([...partitions].filter(([, valid]) => !valid)).to.deep.equal([]);
    expect(rawRows<{ valid: boolean }>(await db.raw('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass(?)', [DISCLOSURE_TEXT_INDEX]))).to.deep.equal([{ valid: true }]);
    expect(await reports()).to.deep.equal(before);

    // The polled page again: its text is indexed this month, so its rows are not queued and
    // the report finds them by the text's key; the queued answer is indexed.
    for (let i = 0; i < 3; i++) await trail.record({ ...polled, requestId: `${polled.requestId}-2-${i}` });
    expect(await count(db, 'audit_disclosure_backlog')).to.equal(1);
    const queued = await reports();
    expect(queued.resident).to.have.length(10);
    const indexRows = await count(db, 'audit_disclosure_index');
    expect(await indexAllQueuedDisclosures(db)).to.equal(1);
    expect(await count(db, 'audit_disclosure_texts')).to.equal(3);
    expect(await count(db, 'audit_disclosure_index')).to.equal(indexRows + 1);
    expect(await reports()).to.deep.equal(queued);
    // The same text in the next month is new there: queued, and indexed in that month.
    const next = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1, 0, 0, 1)).toISOString();
    await db.raw(
      `INSERT INTO audit_events (at, request_id, client_id, org_id, operation, status, resource_ids, result_count, purpose, disclosures)
       SELECT ?, 'next-month', client_id, org_id, operation, status, resource_ids, result_count, purpose, disclosures FROM audit_events WHERE request_id = ?`,
      [next, `${polled.requestId}-2-0`],
    );
    expect(await db('audit_disclosure_backlog').pluck('at')).to.deep.equal([next]);
    expect(await indexAllQueuedDisclosures(db)).to.equal(1);
    expect(Number((await db('audit_disclosure_texts').where('month', '>', new Date().toISOString()).count({ n: '*' }).first())!.n)).to.equal(1);
    await db('audit_events').where({ request_id: 'next-month' }).del();
    // A partition created after it has the index from the parent.
    const now = Date.now();
    await ensurePartitions(db, historyTable('audit_events')!, now + 400 * 86_400_000, now);
    expect([...(await indexedPartitions(db))].filter(([, valid]) => !valid)).to.deep.equal([]);
  });

  it('takes up a build stopped half way, and builds again a partition\'s index a failed concurrent build left invalid', async () => {
    await disclosureTexts.down(db);
    expect(await exists(db, DISCLOSURE_TEXT_INDEX)).to.equal(false);
    // The parent's index and one partition's attached; another's left invalid by a failed build.
    const [first, second] = (await listPartitions(db, 'audit_events')).filter((p) => p.from !== null);
    await db.raw(`CREATE INDEX "${DISCLOSURE_TEXT_INDEX}" ON ONLY audit_events (org_id)`);
    await db.raw(`CREATE INDEX "${first!.name}_disclosure_text" ON "${first!.name}" (org_id)`);
    await db.raw(`ALTER INDEX "${DISCLOSURE_TEXT_INDEX}" ATTACH PARTITION "${first!.name}_disclosure_text"`);
    await db.raw(`INSERT INTO "${second!.name}" (at, request_id, client_id, org_id, operation, status, result_count) VALUES (?, 'x-1', 'c', ?, 'op', 200, 0), (?, 'x-2', 'c', ?, 'op', 200, 0)`, [
      second!.from, orgId, second!.from, orgId,
    ]);
    let failed: Error | undefined;
    try {
      await db.raw(`CREATE UNIQUE INDEX CONCURRENTLY "${second!.name}_disclosure_text" ON "${second!.name}" (org_id)`);
    } catch (error) {
      failed = error as Error;
    }
    expect(failed?.message).to.match(/could not create unique index/);
    expect(rawRows<{ valid: boolean }>(await db.raw('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass(?)', [`${second!.name}_disclosure_text`]))).to.deep.equal([{ valid: false }]);

    // (The parent's half-built index is the stopped run's: up keeps it and completes it.)
    await db.raw(`DROP INDEX "${DISCLOSURE_TEXT_INDEX}"`);
    await db.raw(`CREATE INDEX "${DISCLOSURE_TEXT_INDEX}" ON ONLY audit_events ${DISCLOSURE_TEXT_INDEX_BODY}`);
    await db.raw(`CREATE INDEX "${first!.name}_disclosure_text" ON "${first!.name}" ${DISCLOSURE_TEXT_INDEX_BODY}`);
    await db.raw(`ALTER INDEX "${DISCLOSURE_TEXT_INDEX}" ATTACH PARTITION "${first!.name}_disclosure_text"`);
    await disclosureTexts.up(db);
    expect([...(await indexedPartitions(db))].filter(([, valid]) => !valid)).to.deep.equal([]);
    const definition = rawRows<{ def: string }>(await db.raw('SELECT pg_get_indexdef(to_regclass(?)) AS def', [`${second!.name}_disclosure_text`]))[0]!.def;
    expect(definition).to.match(/md5\(disclosures\)/).and.not.match(/UNIQUE/);
    await db('audit_events').whereIn('request_id', ['x-1', 'x-2']).del();
  });

  it('leaves a partition of more rows than a migration builds at once to the service\'s partition keeper, one builder at a time', async () => {
    await disclosureTexts.down(db);
    const [, , big] = (await listPartitions(db, 'audit_events')).filter((p) => p.from !== null);
    await db.raw(
      `INSERT INTO "${big!.name}" (at, request_id, client_id, org_id, operation, status, result_count, resource_ids, purpose, disclosures)
       SELECT ?, 'big-' || n, 'c', ?, 'listCoverage', 200, 1, '["x"]', 'HPAYMT', '{"Coverage":{"' || gen_random_uuid() || '":[0]}}' FROM generate_series(1, ?) n`,
      [big!.from, orgId, INLINE_ROWS + 1_000],
    );
    await db.raw(`ANALYZE "${big!.name}"`);
    // Indexed by the version before, as its rollback asks.
    while (rawRows<{ rows: number }>(await db.raw(BATCH_BEFORE_050, [0, 10_000]))[0]!.rows > 0);
    const before = await reports();

    await disclosureTexts.up(db);
    const index = ONLINE_INDEXES[0]!;
    expect(await isIndexPending(db, index)).to.equal(true);
    expect((await indexedPartitions(db)).get(big!.name)).to.equal(false);
    expect([...(await indexedPartitions(db))].filter(([name, valid]) => !valid && name !== big!.name)).to.deep.equal([]);
    // The report is the same meanwhile (that partition read without the index).
    expect(await reports()).to.deep.equal(before);
    const listed = jsonOf(await runOps(['partitions', '--json'], { DATABASE_URL: database.url }));
    expect(listed.indexes_pending).to.deep.equal([DISCLOSURE_TEXT_INDEX]);

    // Another builder holds the index: this one leaves it.
    const holder = await db.client.acquireConnection();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext('ofctx.online_index.${DISCLOSURE_TEXT_INDEX}'))`);
      expect(await buildIndexOnline(db, index)).to.equal('busy');
      await holder.query(`SELECT pg_advisory_unlock(hashtext('ofctx.online_index.${DISCLOSURE_TEXT_INDEX}'))`);
    } finally {
      await db.client.releaseConnection(holder);
    }
    const indexed: string[] = [];
    await keepHistoryPartitions(db, { indexed: (name) => indexed.push(name) });
    expect(indexed).to.deep.equal([DISCLOSURE_TEXT_INDEX]);
    expect(await isIndexPending(db, index)).to.equal(false);
    expect([...(await indexedPartitions(db))].filter(([, valid]) => !valid)).to.deep.equal([]);
    expect(await reports()).to.deep.equal(before);
    await db(big!.name).where('request_id', 'like', 'big-%').del();
  });

  it('reads a text\'s rows through the index on its key, a probe per partition, never the month\'s every row', async () => {
    // Six years of monthly partitions; a polled page's 300 reads in this month among 3,000 others.
    const now = Date.now();
    await ensurePartitions(db, historyTable('audit_events')!, now, now - 6 * 365 * 86_400_000);
    const polled = entry([resident]);
    for (let i = 0; i < 300; i++) await trail.record({ ...polled, requestId: `${polled.requestId}-plan-${i}` });
    await db.raw(
      `INSERT INTO audit_events (at, request_id, client_id, org_id, operation, status, resource_ids, result_count, purpose, disclosures)
       SELECT to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'plan-other-' || n, 'c', ?, 'listCoverage', 200, '["x"]', 1, 'HPAYMT',
         '{"Coverage":{"' || gen_random_uuid() || '":[0]}}'
       FROM generate_series(1, 3000) n`,
      [orgId],
    );
    await indexAllQueuedDisclosures(db);
    await db.raw('ANALYZE audit_events');
    const sent: Array<{ sql: string; bindings: unknown[] }> = [];
    const listener = (q: { sql: string; bindings?: unknown[] }) => {
      if (q.sql.includes('audit_disclosure_index') && !/^\s*(set|explain)/i.test(q.sql)) sent.push({ sql: q.sql, bindings: q.bindings ?? [] });
    };
    db.on('query', listener);
    let reads;
    try {
      reads = await disclosuresOfResident(db, { orgId, residentId: resident });
    } finally {
      db.off('query', listener);
    }
    expect(reads.length).to.be.at.least(300);
    expect(sent).to.have.length(1);
    // pg's numbered parameters back to knex's positional ones, in the order they appear.
    const positional: unknown[] = [];
    const text = sent[0]!.sql.replace(/\$(\d+)/g, (_, k: string) => {
      positional.push(sent[0]!.bindings[Number(k) - 1]);
      return '?';
    });
    const plan = rawRows<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(await db.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, positional as Knex.RawBinding[]))[0]!['QUERY PLAN'][0]!.Plan;
    const textIndexes = new Set(
      rawRows<{ name: string }>(await db.raw('SELECT c.relname AS name FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid WHERE h.inhparent = to_regclass(?)', [DISCLOSURE_TEXT_INDEX])).map((r) => r.name),
    );
    const executed: Array<{ relation: string; how: string; index?: string }> = [];
    const walk = (node: PlanNode) => {
      if (node['Relation Name']?.startsWith('audit_events_') && (node['Actual Loops'] ?? 0) > 0) {
        executed.push({ relation: node['Relation Name'], how: node['Node Type'], ...(node['Index Name'] ? { index: node['Index Name'] } : {}) });
      }
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan);
    // The partition holding rows probed by the text's key (the queue's lookups by seq and
    // instant aside), not its 3,300 rows read by their instants and filtered (the empty
    // partitions are rightly scanned: nothing to read).
    const month = `audit_events_p${new Date(now).toISOString().slice(0, 7).replace('-', '')}01`;
    const inMonth = executed.filter((s) => s.relation === month);
    expect(inMonth.filter((s) => s.index !== undefined && textIndexes.has(s.index))).to.have.length(1);
    expect(inMonth.filter((s) => !(s.index !== undefined && (textIndexes.has(s.index) || s.index.endsWith('_pkey'))))).to.deep.equal([]);
  });

  it('rolls back by queuing again the audit rows of every indexed text, and up again reports the same', async () => {
    await indexAllQueuedDisclosures(db);
    const before = await reports();
    const disclosing = (await db('audit_events').whereNotNull('disclosures').orWhereNotNull('disclosures_digest').pluck('seq')).map(Number).sort((x, y) => x - y);
    await disclosureTexts.down(db);
    expect(await exists(db, 'audit_disclosure_texts')).to.equal(false);
    expect(await isPartitioned(db, 'audit_disclosure_groups')).to.equal(true);
    expect((await db('audit_disclosure_backlog').pluck('seq')).map(Number).sort((x, y) => x - y)).to.deep.equal(disclosing);
    // The version before groups them its way: the same report.
    while (rawRows<{ rows: number }>(await db.raw(BATCH_BEFORE_050, [0, 1_000]))[0]!.rows > 0);
    await disclosureTexts.up(db);
    expect(await reports()).to.deep.equal(before);
  });
});
