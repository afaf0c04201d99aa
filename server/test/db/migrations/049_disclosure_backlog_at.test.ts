// Migration 049 (PostgreSQL): each queued audit row carries its instant, so the disclosure
// catch-up finds it in its month's partition alone, however many months the audit trail keeps.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../../test/support/database.js';
import { migrationsUpTo } from '../../../../test/support/migrations-up-to.js';
import { rawRows } from '../../../src/db/database.js';
import { AuditTrail, type AuditEntry } from '../../../src/audit/audit-trail.js';
import { POSTGRES_BATCH, indexAllQueuedDisclosures } from '../../../src/audit/disclosure-index.js';
import { disclosuresOfResident } from '../../../src/audit/disclosures.js';
import { ensurePartitions, listPartitions } from '../../../src/db/history-partitions.js';
import { historyTable } from '../../../src/db/history-tables.js';
import * as disclosureBacklogAt from '../../../src/db/migrations/049_disclosure_backlog_at.js';
import * as disclosureTexts from '../../../src/db/migrations/050_disclosure_texts.js';

interface PlanNode {
  'Relation Name'?: string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

describe('queued audit rows with their instant (PostgreSQL, migration 049)', function () {
  this.timeout(120_000);
  before(function () {
    if (testDatabaseKind !== 'postgres') this.skip();
  });
  // A database as the version before 049 left it.
  const knex = freshKnexForSuite(async (db) => {
    await db.migrate.latest({ migrationSource: migrationsUpTo('048_hl7_former_result_keys') });
  });
  let db: Knex;
  let trail: AuditTrail;
  const orgId = randomUUID();
  const resident = randomUUID();
  let n = 0;
  const entry = (): AuditEntry => {
    const id = randomUUID();
    return {
      requestId: `request-${++n}`, clientId: 'client-a', orgId, facilityId: null, operation: 'listCoverage', status: 200,
      resourceIds: [id], purpose: 'HPAYMT', disclosures: [{ residentId: resident, resourceType: 'Coverage', resourceIds: [id] }],
    };
  };
  const queued = async () => (await db('audit_disclosure_backlog').orderBy('seq').select('*')) as Array<{ seq: string; at?: string | null }>;

  before(() => {
    db = knex();
    trail = new AuditTrail(db);
  });

  it('gives the rows queued before it their instant, drops one whose audit row is gone, and queues every later row with its own', async () => {
    for (let i = 0; i < 3; i++) await trail.record(entry());
    const orphan = Number((await db('audit_events').max({ seq: 'seq' }).first())!.seq) + 1_000;
    await db('audit_disclosure_backlog').insert({ seq: orphan });
    expect(await queued()).to.have.length(4);

    await disclosureBacklogAt.up(db);
    // This version's catch-up writes migration 050's tables.
    await disclosureTexts.up(db);
    const instants = new Map((await db('audit_events').select('seq', 'at')).map((r: { seq: string; at: string }) => [Number(r.seq), r.at]));
    const before = await queued();
    expect(before.map((r) => Number(r.seq))).to.not.include(orphan);
    expect(before).to.have.length(3);
    for (const row of before) expect(row.at).to.equal(instants.get(Number(row.seq)));
    await trail.record(entry());
    const after = await queued();
    expect(after).to.have.length(4);
    expect(after[3]!.at).to.be.a('string').and.equal((await db('audit_events').where({ seq: after[3]!.seq }).first('at'))!.at);
    // The schema holds it: a row without its instant is refused.
    let refused: Error | undefined;
    try {
      await db('audit_disclosure_backlog').insert({ seq: orphan });
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).to.match(/null value in column "at"/);

    // The report reads the queued rows by key and instant; the catch-up indexes all four.
    expect(await disclosuresOfResident(db, { orgId, residentId: resident })).to.have.length(4);
    expect(await indexAllQueuedDisclosures(db)).to.equal(4);
    expect(await disclosuresOfResident(db, { orgId, residentId: resident })).to.have.length(4);

    // Down: the column and the instant in the trigger go; rows are queued by seq as before.
    await disclosureBacklogAt.down(db);
    expect(await db('audit_disclosure_backlog').columnInfo()).to.not.have.property('at');
    await trail.record(entry());
    expect(await queued()).to.have.length(1);
    await disclosureBacklogAt.up(db);
    expect((await queued())[0]!.at).to.be.a('string');
    expect(await indexAllQueuedDisclosures(db)).to.equal(1);
  });

  it('looks each queued row up in its own month\'s partition alone, among six years of monthly partitions', async () => {
    const now = Date.now();
    await ensurePartitions(db, historyTable('audit_events')!, now, now - 6 * 365 * 86_400_000);
    const months = (await listPartitions(db, 'audit_events')).length;
    expect(months).to.be.greaterThan(72);
    await indexAllQueuedDisclosures(db);
    for (let i = 0; i < 5; i++) await trail.record(entry());

    // The catch-up's batch as it runs (EXPLAIN ANALYZE runs it: rolled back).
    const trx = await db.transaction();
    let plan: PlanNode;
    try {
      plan = rawRows<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(await trx.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${POSTGRES_BATCH}`, [0, 1_024]))[0]!['QUERY PLAN'][0]!.Plan;
    } finally {
      await trx.rollback();
    }
    const executed = new Set<string>();
    const walk = (node: PlanNode) => {
      if (node['Relation Name']?.startsWith('audit_events_') && (node['Actual Loops'] ?? 0) > 0) executed.add(node['Relation Name']);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan);
    // Looked up by seq alone, each row probed every month before its own (73 here).
    expect([...executed]).to.have.length(1);
    expect(await indexAllQueuedDisclosures(db)).to.equal(5);
  });
});
