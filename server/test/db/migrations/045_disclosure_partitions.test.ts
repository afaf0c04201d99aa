// Migration 045 (PostgreSQL): the accounting of disclosures' index partitioned by the audit
// rows' months, a resident indexed once a month per text. An upgraded database keeps the rows
// indexed before it (renamed, reported, purged as before, then dropped); the rollback queues
// the rows indexed since again, so no disclosure is lost either way.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../../test/support/database.js';
import { migrationsUpTo } from '../../../../test/support/migrations-up-to.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { isPartitioned, listPartitions } from '../../../src/db/history-partitions.js';
import { AuditTrail, type AuditEntry } from '../../../src/audit/audit-trail.js';
import { indexAllQueuedDisclosures } from '../../../src/audit/disclosure-index.js';
import { disclosuresOfResident } from '../../../src/audit/disclosures.js';
import { purgeExpired } from '../../../src/retention/purge-expired.js';
import * as disclosurePartitions from '../../../src/db/migrations/045_disclosure_partitions.js';
import * as disclosureBacklogAt from '../../../src/db/migrations/049_disclosure_backlog_at.js';
import * as disclosureTexts from '../../../src/db/migrations/050_disclosure_texts.js';
import { BEFORE_045 } from '../../../src/db/disclosure-index-before-045.js';

const exists = (db: Knex, table: string) => db.schema.hasTable(table);
const count = async (db: Knex, table: string) => Number((await db(table).count({ n: '*' }).first())!.n);

describe('the disclosure index partitioned by month (PostgreSQL, migration 045)', function () {
  this.timeout(120_000);
  before(function () {
    if (testDatabaseKind !== 'postgres') this.skip();
  });
  // A database as the version before 045 left it.
  const knex = freshKnexForSuite(async (db) => {
    await db.migrate.latest({ migrationSource: migrationsUpTo('044_delivery_attempt_partitions') });
  });
  let db: Knex;
  let trail: AuditTrail;
  const orgId = randomUUID();
  const resident = randomUUID();
  const other = randomUUID();
  let n = 0;

  const entry = (of: string[], resourceIds?: string[]): AuditEntry => {
    const ids = resourceIds ?? of.map(() => randomUUID());
    return {
      requestId: `request-${++n}`, clientId: 'client-a', orgId, facilityId: null, operation: 'listCoverage', status: 200,
      resourceIds: ids, purpose: 'HPAYMT', disclosures: of.map((residentId, i) => ({ residentId, resourceType: 'Coverage', resourceIds: [ids[i]!] })),
    };
  };
  const reportOf = (residentId: string) => disclosuresOfResident(db, { orgId, residentId });

  before(() => {
    db = knex();
    trail = new AuditTrail(db);
  });

  it('keeps the rows indexed before it in the report, indexes the queued ones by month and text, once a month per text, and retention drops both', async () => {
    // Four answers before the upgrade: two indexed as migration 029's catch-up indexed them (a
    // group per text, an index row per resident and group), two still queued.
    const answers = [entry([resident]), entry([resident, other]), entry([resident]), entry([other])];
    for (const e of answers) await trail.record(e);
    const seqs = (await db('audit_events').orderBy('seq').pluck('seq')).map(Number);
    await db('audit_disclosure_groups').insert([
      { first_seq: seqs[0], last_seq: seqs[0], seqs: `[${seqs[0]}]` },
      { first_seq: seqs[1], last_seq: seqs[1], seqs: `[${seqs[1]}]` },
    ]);
    await db('audit_disclosure_index').insert([
      { org_id: orgId, resident_id: resident, first_seq: seqs[0], last_seq: seqs[0], seqs: '[]' },
      { org_id: orgId, resident_id: resident, first_seq: seqs[1], last_seq: seqs[1], seqs: '[]' },
      { org_id: orgId, resident_id: other, first_seq: seqs[1], last_seq: seqs[1], seqs: '[]' },
    ]);
    await db('audit_disclosure_backlog').whereIn('seq', seqs.slice(0, 2)).delete();
    // What each answer disclosed of each of them (the report of the version before is that).
    const disclosedTo = (who: string) =>
      answers.flatMap((a) => a.disclosures!.filter((d) => d.residentId === who).map((d) => ({ operation: a.operation, purpose: a.purpose, resource_ids: d.resourceIds })));
    const shape = (records: Awaited<ReturnType<typeof reportOf>>) => records.map((r) => ({ operation: r.operation, purpose: r.purpose, resource_ids: r.resource_ids }));

    await migrateToLatest(db);
    expect(await exists(db, BEFORE_045.index)).to.equal(true);
    expect(await isPartitioned(db, 'audit_disclosure_index')).to.equal(true);
    // (Its groups went with migration 050: a text's rows are found by the text's key.)
    expect(await isPartitioned(db, 'audit_disclosure_texts')).to.equal(true);
    expect((await listPartitions(db, 'audit_disclosure_index')).length).to.be.greaterThan(2);
    const before = { resident: await reportOf(resident), other: await reportOf(other) };
    expect(shape(before.resident)).to.deep.equal(disclosedTo(resident));
    expect(shape(before.other)).to.deep.equal(disclosedTo(other));

    // The queued two go to the new tables; the report is the same.
    expect(await indexAllQueuedDisclosures(db)).to.equal(2);
    expect({ resident: await reportOf(resident), other: await reportOf(other) }).to.deep.equal(before);
    expect(await count(db, 'audit_disclosure_index')).to.equal(2);

    // A page polled again and again: its text and its residents' index rows once a month.
    const polled = entry([resident, other]);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 4; j++) await trail.record({ ...polled, requestId: `${polled.requestId}-${i}-${j}` });
      await indexAllQueuedDisclosures(db);
    }
    expect(await count(db, 'audit_disclosure_texts')).to.equal(2 + 1);
    expect(await count(db, 'audit_disclosure_index')).to.equal(2 + 2);
    expect(await reportOf(resident)).to.have.length(3 + 12);
    expect(await reportOf(other)).to.have.length(2 + 12);

    // Retention past every row: the months' partitions dropped, the rows indexed before the
    // upgrade deleted and their tables dropped; nothing reported.
    const report = await purgeExpired(db, { auditDays: 1, deliveryDays: 1, batchSize: 500 }, { now: Date.now() + 400 * 86_400_000 });
    const dropped = new Set(report.partitions_dropped.map((p) => p.table));
    expect(dropped).to.include.members(['audit_events', 'audit_disclosure_texts', 'audit_disclosure_index']);
    expect(await exists(db, BEFORE_045.index)).to.equal(false);
    expect(await exists(db, BEFORE_045.groups)).to.equal(false);
    expect(await reportOf(resident)).to.deep.equal([]);
  });

  it('rolls back by queuing again every audit row indexed since, and up again reports the same', async () => {
    for (let i = 0; i < 5; i++) await trail.record(entry([resident, other]));
    await indexAllQueuedDisclosures(db);
    const before = { resident: await reportOf(resident), other: await reportOf(other) };
    expect(before.resident).to.have.length(5);
    const indexed = (await db('audit_events').pluck('seq')).map(Number).sort((x, y) => x - y);

    // Rolled back in order: migrations 050 (no groups) and 049 (the queue's instants) first.
    await disclosureTexts.down(db);
    await disclosureBacklogAt.down(db);
    await disclosurePartitions.down(db);
    expect(await isPartitioned(db, 'audit_disclosure_index')).to.equal(false);
    expect((await db('audit_disclosure_index').columnInfo()).first_seq).to.not.equal(undefined);
    expect((await db('audit_disclosure_backlog').pluck('seq')).map(Number).sort((x, y) => x - y)).to.deep.equal(indexed);

    await disclosurePartitions.up(db);
    await disclosureBacklogAt.up(db);
    await disclosureTexts.up(db);
    expect(await isPartitioned(db, 'audit_disclosure_index')).to.equal(true);
    // Nothing was indexed the old way meanwhile: no tables kept from before.
    expect(await exists(db, BEFORE_045.index)).to.equal(false);
    expect({ resident: await reportOf(resident), other: await reportOf(other) }).to.deep.equal(before);
    expect(await indexAllQueuedDisclosures(db)).to.equal(5);
    expect({ resident: await reportOf(resident), other: await reportOf(other) }).to.deep.equal(before);
  });
});
