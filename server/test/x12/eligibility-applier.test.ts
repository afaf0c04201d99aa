// The X12 271 applier against a real database, with another importer writing the same
// Coverage between the applier's read and its write: the applier must keep both writes (read
// again and recompute), never overwrite the other one, and report a loop it could not get in.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { assertMatchesContract } from '../../../test/support/contract.js';
import { byMrn, coverage, MRN, patient } from '../../../test/support/fhir-resources.js';
import { interchange271 } from '../../../test/support/x12.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import { applyEligibility, CONFLICT_RETRIES } from '../../src/x12/eligibility-applier.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';

const COVERAGE_SYSTEM = 'https://ehr.example/fhir/sid/coverage';

/**
 * The database as the applier sees it, with `writeBefore` run ahead of each transaction the
 * applier opens, i.e. after it has read the Coverages: another importer's write landing in
 * between. The writes are real, through applyChangeSet on the same database.
 */
function withWritesBetweenReadAndWrite(db: Knex, writeBefore: (attempt: number) => Promise<void>): Knex {
  let attempt = 0;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver);
      return async (...args: unknown[]) => {
        await writeBefore(attempt++);
        return (target.transaction as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
}

describe('the X12 271 eligibility applier', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let org: string;
  let facility: string;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    org = (await createOrganization(db, 'Eligibility Org')).id;
    facility = (await createFacility(db, org, 'F1')).id;
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /** What the EHR's FHIR feed sends: the whole Coverage, upserted on its identifier. */
  const fhirWrite = (mrn: string, key: string, overrides: Record<string, unknown>) =>
    applyChangeSet(db, {
      orgId: org,
      facilityId: facility,
      mode: 'batch',
      actor: 'ehr',
      emitEvents: true,
      changes: [{ resource: coverage(byMrn(mrn), key, { payor: [{ display: 'MEDICARE PART A' }], ...overrides }), match: { identifier: { system: COVERAGE_SYSTEM, value: key } }, at: 'Bundle.entry[0]' }],
    });
  async function residentWithCoverage(mrn: string, key: string): Promise<{ coverageId: string; residentId: string }> {
    const resident = await applyChangeSet(db, { orgId: org, facilityId: facility, mode: 'batch', actor: 'ehr', emitEvents: true, changes: [{ resource: patient(mrn), match: { identifier: { system: MRN, value: mrn } }, at: 'e' }] });
    const created = await fhirWrite(mrn, key, {});
    return { coverageId: (created.outcomes[0] as { id: string }).id, residentId: (resident.outcomes[0] as { id: string }).id };
  }
  const coverageRow = (id: string) => db('coverage').where({ id }).first();
  const coverageUpdates = async (residentId: string) => Number((await db('webhook_events').where({ resident_id: residentId, event_type: 'coverage.updated' }).count({ n: '*' }).first())!.n);
  const target = () => ({ orgId: org, facilityId: facility, actor: 'clearinghouse', today: '2026-11-23' });

  it('a FHIR update landing between its read and its write is kept: the loop is read again and the Coverage ends with both changes', async () => {
    const { coverageId, residentId } = await residentWithCoverage('X-1', 'XC-1');
    const text = interchange271([{ trace: coverageId, memberId: 'M-1', eligibility: ['6'] }]);
    const applier = withWritesBetweenReadAndWrite(db, async (attempt) => {
      if (attempt === 0) await fhirWrite('X-1', 'XC-1', { subscriberId: '*****9999B', order: 2 });
    });
    const summary = await applyEligibility(applier, text, target());
    expect(summary).to.deep.equal({ matched: 1, updated: 1, unchanged: 0, unmatched: [], rejected: [], conflicts: [], events: 1, responses: 1 });
    // The 271's status and the FHIR feed's subscriber id and order, each written once.
    expect(await coverageRow(coverageId)).to.include({ status: 'cancelled', subscriber_id: '*****9999B', coverage_order: 2, payor_name: 'MEDICARE PART A', version_id: 3 });
    expect(await coverageUpdates(residentId)).to.equal(3);
    const writes = await db('ingest_writes').where({ resource_id: coverageId }).orderBy('version_id').select('actor', 'version_id');
    expect(writes.map((w) => [w.actor, Number(w.version_id)])).to.deep.equal([['ehr', 1], ['ehr', 2], ['clearinghouse', 3]]);
  });

  it(`lists a loop whose Coverage changes before every attempt in conflicts after ${CONFLICT_RETRIES} retries, writing nothing of it; the other loops apply`, async () => {
    const busy = await residentWithCoverage('X-2', 'XC-2');
    const calm = await residentWithCoverage('X-3', 'XC-3');
    const text = interchange271([
      { trace: busy.coverageId, memberId: 'M-2', eligibility: ['6'] },
      { trace: calm.coverageId, memberId: 'M-3', eligibility: ['6'] },
    ]);
    // Before each of the loop's attempts (not before the responses' transaction that follows).
    const applier = withWritesBetweenReadAndWrite(db, async (attempt) => {
      if (attempt <= CONFLICT_RETRIES) await fhirWrite('X-2', 'XC-2', { subscriberId: `*****000${attempt}B` });
    });
    const summary = await applyEligibility(applier, text, target());
    expect(summary).to.include({ matched: 1, updated: 1, unchanged: 0, events: 1 });
    expect(summary.rejected).to.deep.equal([]);
    expect(summary.conflicts).to.have.length(1);
    expect(summary.conflicts[0]).to.include({ at: '2000C loop HL*3', trace: busy.coverageId, member_id: 'M-2' });
    expect(summary.conflicts[0]!.issue).to.contain(`Coverage/${busy.coverageId}`).and.contain('send the 271 again');
    // Every FHIR write kept (the last one's subscriber id), the 271's status never written over them.
    expect(await coverageRow(busy.coverageId)).to.include({ status: 'active', subscriber_id: `*****000${CONFLICT_RETRIES}B`, version_id: CONFLICT_RETRIES + 2 });
    expect(await coverageRow(calm.coverageId)).to.include({ status: 'cancelled', version_id: 2 });
    expect(await db('ingest_writes').where({ resource_id: busy.coverageId, actor: 'clearinghouse' }).first()).to.equal(undefined);
    // Nor a CoverageEligibilityResponse of it; the calm loop's is kept.
    expect(await db('eligibility_responses').where({ coverage_id: busy.coverageId }).first()).to.equal(undefined);
    expect(await db('eligibility_responses').where({ coverage_id: calm.coverageId }).first()).to.include({ outcome: 'complete', disposition: 'Inactive coverage' });
    expect(summary.responses).to.equal(1);
    // The summary with a conflict is what ingestX12 answers, and the contract describes it.
    await assertMatchesContract('POST', `/api/v1/ingest/${org}/${facility}/x12`, 200, new Headers({ 'content-type': 'application/json', 'x-request-id': 'test' }), { data: summary, meta: null, error: null });
  });

  it('two loops answering one Coverage: the second is computed from what the first wrote, with no conflict between them', async () => {
    const { coverageId, residentId } = await residentWithCoverage('X-4', 'XC-4');
    const text = interchange271([
      { trace: coverageId, memberId: 'M-4', eligibility: ['1'], plan: ['20200101', '20301231'] },
      { trace: coverageId, memberId: 'M-4', eligibility: ['6'] },
    ]);
    const summary = await applyEligibility(db, text, target());
    expect(summary).to.deep.equal({ matched: 2, updated: 2, unchanged: 0, unmatched: [], rejected: [], conflicts: [], events: 2, responses: 2 });
    // The first loop's plan begin survives the second loop's cancellation.
    expect(await coverageRow(coverageId)).to.include({ status: 'cancelled', period_start: '2020-01-01', version_id: 3 });
    expect(await coverageUpdates(residentId)).to.equal(3);
  });

  it("applies a loop and keeps its response in one transaction, so a real-time check waits once for the organization's ingest lock; an AAA loop's response too", async () => {
    const { coverageId } = await residentWithCoverage('X-6', 'XC-6');
    let transactions = 0;
    const counting = withWritesBetweenReadAndWrite(db, async () => {
      transactions++;
    });
    const summary = await applyEligibility(counting, interchange271([{ trace: coverageId, memberId: 'M-6', eligibility: ['6'] }]), target());
    expect(summary).to.include({ matched: 1, updated: 1, responses: 1 });
    expect(transactions).to.equal(1);
    const [coverageWrite, responseWrite] = await Promise.all([
      db('coverage').where({ id: coverageId }).first('last_updated'),
      db('eligibility_responses').where({ coverage_id: coverageId }).first('last_updated'),
    ]);
    // One tick of the ingest clock for both rows.
    expect(responseWrite.last_updated).to.equal(coverageWrite.last_updated);

    transactions = 0;
    const rejection = await applyEligibility(counting, interchange271([{ trace: coverageId, memberId: 'M-6', reject: '72' }], 906), target());
    expect(rejection).to.include({ matched: 0, updated: 0, responses: 1 });
    expect(rejection.rejected).to.have.length(1);
    expect(transactions).to.equal(1);
  });

  it('keeps the details a 270 needs: a 271 that changes the status leaves type, class, relationship, subscriber and identifiers as they were', async () => {
    const { coverageId, residentId } = await residentWithCoverage('X-5', 'XC-5');
    const details = {
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0086', code: 'HMO' }], text: 'HMO' },
      class: [
        { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'group' }] }, value: 'GRP-100', name: 'Retirees' },
        { type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value: 'PLAN-B' },
      ],
      relationship: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship', code: 'spouse' }] },
      contained: [{ resourceType: 'RelatedPerson', id: 'sub', patient: byMrn('X-5'), name: [{ family: 'Okafor', given: ['Chidi'] }], birthDate: '1938-02-11', gender: 'male' }],
      subscriber: { reference: '#sub' },
    };
    expect((await fhirWrite('X-5', 'XC-5', details)).updated).to.equal(1);
    const before = await coverageRow(coverageId);
    const identifiers = async () => db('resource_identifiers').where({ resource_id: coverageId }).orderBy('value').select('system', 'value');
    const identifiersBefore = await identifiers();
    const events = await coverageUpdates(residentId);

    const summary = await applyEligibility(db, interchange271([{ trace: coverageId, memberId: 'M-5', eligibility: ['6'] }]), target());
    expect(summary).to.include({ matched: 1, updated: 1, events: 1 });
    const after = await coverageRow(coverageId);
    expect(after).to.include({ status: 'cancelled', version_id: Number(before.version_id) + 1 });
    for (const column of ['coverage_type', 'classes', 'relationship', 'subscriber_name', 'subscriber_birth_date', 'subscriber_gender']) {
      expect(after[column], column).to.equal(before[column]).and.to.not.equal(null);
    }
    expect(await identifiers()).to.deep.equal(identifiersBefore);
    expect(await coverageUpdates(residentId)).to.equal(events + 1);

    // A self-insured resident's relationship survives too, and the same 271 again changes nothing.
    await fhirWrite('X-5', 'XC-5', { ...details, contained: undefined, subscriber: byMrn('X-5'), relationship: undefined, status: 'active' });
    expect(await coverageRow(coverageId)).to.include({ relationship: 'self', subscriber_name: null });
    await applyEligibility(db, interchange271([{ trace: coverageId, memberId: 'M-5', eligibility: ['6'] }]), target());
    const selfAfter = await coverageRow(coverageId);
    expect(selfAfter).to.include({ status: 'cancelled', relationship: 'self', subscriber_name: null });
    expect(JSON.parse(selfAfter.classes)).to.have.length(2);
    const again = await applyEligibility(db, interchange271([{ trace: coverageId, memberId: 'M-5', eligibility: ['6'] }]), target());
    expect(again).to.include({ matched: 1, updated: 0, unchanged: 1, events: 0 });
  });
});
