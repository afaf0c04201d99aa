// An audit row's long texts stored once (migration 031, audit/audit-texts.ts): a polled page's
// rows name the same stored texts; the query, the report and the catch-up read them as if they
// were in the row; a writer stores a text again after a day; retention removes a text only
// when no row left can name it; a rollback writes every text back into its rows.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { isPostgres } from '../../src/db/database.js';
import { AuditTrail, type AuditEntry } from '../../src/audit/audit-trail.js';
import { INTERNED_FROM, InternedTexts, TEXT_CONFIRMED_FOR_MS, TEXT_RETAINED_BEYOND_MS, TextsToStore } from '../../src/audit/audit-texts.js';
import { encodeDisclosures, type Disclosure } from '../../src/db/disclosure-encoding.js';
import { indexAllQueuedDisclosures } from '../../src/audit/disclosure-index.js';
import { disclosuresOfResident } from '../../src/audit/disclosures.js';
import { purgeExpired } from '../../src/retention/purge-expired.js';
import { nowIso } from '../../src/db/clock.js';
import * as auditTexts from '../../src/db/migrations/031_audit_texts.js';
import * as disclosureBacklogAt from '../../src/db/migrations/049_disclosure_backlog_at.js';

const DAY_MS = 86_400_000;

describe('the audit rows\' long texts, stored once', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let trail: AuditTrail;
  const orgId = randomUUID();
  let requestNumber = 0;

  before(() => {
    db = knex();
    trail = new AuditTrail(db);
  });

  const count = async (table: string) => Number((await db(table).count({ n: '*' }).first())!.n);
  const rowOf = async (entry: AuditEntry) => (await db('audit_events').where({ request_id: entry.requestId }).first()) as Record<string, string | null>;

  /** A page of Coverages, one of each resident given (50: both texts long), as a payer's list answers. */
  function pageOf(residents: string[]): { resourceIds: string[]; disclosures: Disclosure[] } {
    const disclosures: Disclosure[] = residents.map((residentId, i) => ({ residentId, resourceType: 'Coverage', resourceIds: [randomUUID()], positions: [i] }));
    return { resourceIds: disclosures.flatMap((d) => d.resourceIds), disclosures };
  }
  const entryOf = (page: { resourceIds: string[]; disclosures: Disclosure[] }): AuditEntry => ({
    requestId: `texts-${++requestNumber}`,
    clientId: 'client-texts',
    orgId,
    facilityId: null,
    operation: 'listCoverage',
    status: 200,
    resourceIds: page.resourceIds,
    purpose: 'HPAYMT',
    disclosures: page.disclosures,
  });

  it('stores a polled page\'s two long texts once, its rows naming them by digest; short texts stay in their row', async () => {
    const residents = Array.from({ length: 50 }, () => randomUUID());
    const page = pageOf(residents);
    const idsText = JSON.stringify(page.resourceIds);
    const disclosuresText = encodeDisclosures(page.disclosures, page.resourceIds)!;
    expect(idsText.length).to.be.at.least(INTERNED_FROM);
    expect(disclosuresText.length).to.be.at.least(INTERNED_FROM);
    const textsBefore = await count('audit_texts');

    // Two batches (two commits), and several rows of one batch.
    const first = entryOf(page);
    await trail.record(first);
    const polled = Array.from({ length: 5 }, () => entryOf(page));
    await Promise.all(polled.map((e) => trail.record(e)));
    expect(await count('audit_texts')).to.equal(textsBefore + 2);

    for (const entry of [first, ...polled]) {
      const row = await rowOf(entry);
      expect(row.resource_ids).to.equal(null);
      expect(row.disclosures).to.equal(null);
      expect((await db('audit_texts').where({ digest: row.resource_ids_digest }).first('text'))!.text).to.equal(idsText);
      expect((await db('audit_texts').where({ digest: row.disclosures_digest }).first('text'))!.text).to.equal(disclosuresText);
    }
    // A read of one record: both texts short, in the row.
    const read = { ...entryOf(pageOf([residents[0]!])), operation: 'getCoverage' };
    await trail.record(read);
    const readRow = await rowOf(read);
    expect(readRow.resource_ids).to.equal(JSON.stringify(read.resourceIds));
    expect(readRow.disclosures).to.not.equal(null);
    expect(readRow.resource_ids_digest).to.equal(null);
    expect(readRow.disclosures_digest).to.equal(null);
    expect(await count('audit_texts')).to.equal(textsBefore + 2);

    // The trail's own query reads the ids wherever they are.
    const queried = await trail.query({ orgId, clientId: 'client-texts' });
    expect(queried.find((e) => e.request_id === first.requestId)!.resource_ids).to.deep.equal(page.resourceIds);
    expect(queried.find((e) => e.request_id === read.requestId)!.resource_ids).to.deep.equal(read.resourceIds);
  });

  it('reports and indexes disclosures whose text is stored apart, queued or indexed alike, one group (PostgreSQL: one text of the month) for a polled text', async () => {
    const residents = Array.from({ length: 50 }, () => randomUUID());
    const page = pageOf(residents);
    await indexAllQueuedDisclosures(db);
    const entries = [entryOf(page), entryOf(page), entryOf(page)];
    for (const entry of entries) await trail.record(entry);
    const queued = await disclosuresOfResident(db, { orgId, residentId: residents[7]! });
    expect(queued.map((r) => [r.operation, r.resource_types, r.resource_ids])).to.deep.equal(entries.map(() => ['listCoverage', ['Coverage'], page.disclosures[7]!.resourceIds]));

    const groups = isPostgres(db) ? 'audit_disclosure_texts' : 'audit_disclosure_groups';
    const groupsBefore = await count(groups);
    await indexAllQueuedDisclosures(db);
    expect(await count(groups)).to.equal(groupsBefore + 1);
    const indexed = await db('audit_disclosure_index').where({ org_id: orgId }).whereIn('resident_id', residents).count({ n: '*' }).first();
    expect(Number(indexed!.n)).to.equal(50);
    expect(await disclosuresOfResident(db, { orgId, residentId: residents[7]! })).to.deep.equal(queued);
    expect(await disclosuresOfResident(db, { orgId, residentId: randomUUID() })).to.deep.equal([]);
  });

  it('a writer names a text it stored without writing it again for a day, then stores it again', () => {
    const texts = new InternedTexts();
    const text = 'x'.repeat(INTERNED_FROM);
    const now = Date.parse('2026-11-26T12:00:00Z');
    const first = new TextsToStore();
    const digest = texts.digestOf(text, now, first);
    expect(digest).to.match(/^[0-9a-f]{64}$/);
    expect(first.digests).to.deep.equal([digest]);
    // Named twice in one batch: stored once.
    texts.digestOf(text, now, first);
    expect(first.size).to.equal(1);
    // Not yet known stored (its commit has not said so): stored again by the next batch.
    const beforeCommit = new TextsToStore();
    texts.digestOf(text, now, beforeCommit);
    expect(beforeCommit.size).to.equal(1);
    texts.stored(first, now);
    const within = new TextsToStore();
    expect(texts.digestOf(text, now + TEXT_CONFIRMED_FOR_MS - 1, within)).to.equal(digest);
    expect(within.size).to.equal(0);
    const after = new TextsToStore();
    expect(texts.digestOf(text, now + TEXT_CONFIRMED_FOR_MS, after)).to.equal(digest);
    expect(after.digests).to.deep.equal([digest]);
  });

  it('two writers (two instances) storing the same texts at once both commit, the texts stored once, their used_at only moving forward', async () => {
    const page = pageOf(Array.from({ length: 50 }, () => randomUUID()));
    const other = new AuditTrail(db);
    const before = await count('audit_texts');
    const entries = Array.from({ length: 8 }, () => entryOf(page));
    await Promise.all(entries.map((entry, i) => (i % 2 === 0 ? trail : other).record(entry)));
    expect(await count('audit_texts')).to.equal(before + 2);
    const rows = await db('audit_events').whereIn('request_id', entries.map((e) => e.requestId)).select('resource_ids_digest', 'disclosures_digest');
    expect(new Set(rows.map((r: { resource_ids_digest: string }) => r.resource_ids_digest)).size).to.equal(1);
    expect(new Set(rows.map((r: { disclosures_digest: string }) => r.disclosures_digest)).size).to.equal(1);
    // Stored again by a writer whose clock is behind another's: used_at only moves forward.
    const digests = [rows[0].resource_ids_digest as string, rows[0].disclosures_digest as string];
    const ahead = nowIso(Date.now() + DAY_MS);
    await db('audit_texts').whereIn('digest', digests).update({ used_at: ahead });
    await new AuditTrail(db).record(entryOf(page));
    expect(await db('audit_texts').whereIn('digest', digests).pluck('used_at')).to.deep.equal([ahead, ahead]);
    await db('audit_texts').whereIn('digest', digests).update({ used_at: nowIso() });
    await new AuditTrail(db).record(entryOf(page));
    for (const usedAt of await db('audit_texts').whereIn('digest', digests).pluck('used_at')) expect(usedAt < ahead).to.equal(true);
  });

  it('retention removes a text only once no row left can name it: used_at older than the audit cut-off by more than a writer trusts it', async () => {
    const config = { auditDays: 30, deliveryDays: 30, batchSize: 100 };
    const now = Date.now();
    const cutoff = now - config.auditDays * DAY_MS;
    const stale = { digest: 'a'.repeat(64), text: '["stale"]', used_at: nowIso(cutoff - TEXT_RETAINED_BEYOND_MS - 60_000) };
    const trusted = { digest: 'b'.repeat(64), text: '["still trusted"]', used_at: nowIso(cutoff - TEXT_RETAINED_BEYOND_MS + 60_000) };
    await db('audit_texts').insert([stale, trusted]);
    const report = await purgeExpired(db, config, { now });
    expect(report.removed.audit_texts).to.equal(1);
    expect(await db('audit_texts').whereIn('digest', [stale.digest, trusted.digest]).pluck('digest')).to.deep.equal([trusted.digest]);
    // Texts in use now are kept.
    const inUse = (await db('audit_events').whereNotNull('resource_ids_digest').first('resource_ids_digest'))!.resource_ids_digest as string;
    expect(await db('audit_texts').where({ digest: inUse }).first()).to.not.equal(undefined);
    await db('audit_texts').where({ digest: trusted.digest }).del();
  });

  it('migration 031\'s rollback writes every text back into its rows (the report unchanged), and up again stores new ones apart', async () => {
    const residents = Array.from({ length: 50 }, () => randomUUID());
    const page = pageOf(residents);
    const entry = entryOf(page);
    await trail.record(entry);
    const report = await disclosuresOfResident(db, { orgId, residentId: residents[3]! });
    expect(report).to.have.length(1);

    // Rolled back in order: migration 049 replaced 031's trigger function (the queue's instants).
    await disclosureBacklogAt.down(db);
    await auditTexts.down(db);
    try {
      expect(await db.schema.hasTable('audit_texts')).to.equal(false);
      const row = await rowOf(entry);
      expect(JSON.parse(row.resource_ids!)).to.deep.equal(page.resourceIds);
      expect(row.disclosures).to.equal(encodeDisclosures(page.disclosures, page.resourceIds));
      expect(row).to.not.have.property('disclosures_digest');
    } finally {
      await auditTexts.up(db);
      await disclosureBacklogAt.up(db);
    }
    expect(await disclosuresOfResident(db, { orgId, residentId: residents[3]! })).to.deep.equal(report);
    // A fresh writer (the texts it knew are gone with the table) stores them again, and the
    // trigger queues its rows for the index again.
    const fresh = new AuditTrail(db);
    const again = entryOf(page);
    await fresh.record(again);
    expect((await rowOf(again)).disclosures_digest).to.not.equal(null);
    expect(await count('audit_texts')).to.equal(2);
    const seq = (await rowOf(again)).seq;
    expect(await db('audit_disclosure_backlog').where({ seq }).first()).to.not.equal(undefined);
  });
});
