// applyChangeSet against a real database: versions, the event table, idempotency,
// transfers, transactions, concurrency and the last_updated order incremental sync needs.
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { byMrn, condition, coverage, medicationRequest, MRN, observation, patient, allergy, serviceRequest } from '../../../test/support/fhir-resources.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import type { ChangeSet, ResourceChange } from '../../src/ingest/change-set.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';

describe('applyChangeSet', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let org: string;
  let f1: string;
  let f2: string;
  let otherOrg: string;
  let otherFacility: string;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    org = (await createOrganization(db, 'Ingest Org')).id;
    f1 = (await createFacility(db, org, 'F1')).id;
    f2 = (await createFacility(db, org, 'F2')).id;
    otherOrg = (await createOrganization(db, 'Other Org')).id;
    otherFacility = (await createFacility(db, otherOrg, 'O1')).id;
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const upsert = (resource: ResourceChange['resource'], at = 'entry'): ResourceChange => {
    const identifier = (resource.identifier as Array<{ system: string; value: string }>)[0]!;
    return { resource, match: { identifier }, at };
  };
  const apply = (changes: ResourceChange[], overrides: Partial<ChangeSet> = {}) =>
    applyChangeSet(db, { orgId: org, facilityId: f1, mode: 'batch', actor: 'test', emitEvents: true, changes, ...overrides });
  const eventsOf = async (residentId: string) => (await db('webhook_events').where({ resident_id: residentId }).orderBy('seq').pluck('event_type')) as string[];

  it('creates a new active Patient as version 1 and emits resident.admitted', async () => {
    const result = await apply([upsert(patient('A-1'))]);
    expect(result).to.include({ created: 1, updated: 0, unchanged: 0, rejected: 0, events: 1 });
    const outcome = result.outcomes[0]!;
    if (outcome.outcome === 'rejected') throw new Error('rejected');
    expect(outcome.versionId).to.equal(1);
    const row = await db('residents').where({ id: outcome.id }).first();
    expect(row).to.include({ facility_id: f1, family_name: 'Okafor', version_id: 1, last_updated: outcome.lastUpdated });
    expect(await eventsOf(outcome.id)).to.deep.equal(['resident.admitted']);
    const audit = await db('ingest_writes').where({ resource_id: outcome.id });
    expect(audit.map((a) => [a.actor, a.outcome, a.version_id])).to.deep.equal([['test', 'created', 1]]);
  });

  it('sending the same content again changes nothing: no version, no event, no audit write', async () => {
    const first = await apply([upsert(patient('A-2'))]);
    const id = (first.outcomes[0] as { id: string }).id;
    const before = await db('residents').where({ id }).first();
    const again = await apply([upsert(patient('A-2'))]);
    expect(again).to.include({ created: 0, updated: 0, unchanged: 1, events: 0 });
    expect(await db('residents').where({ id }).first()).to.deep.equal(before);
    expect(await eventsOf(id)).to.deep.equal(['resident.admitted']);
    expect(await db('ingest_writes').where({ resource_id: id }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
  });

  it('a real change bumps the version by exactly one and moves last_updated forward', async () => {
    const first = await apply([upsert(patient('A-3'))]);
    const { id, lastUpdated } = first.outcomes[0] as { id: string; lastUpdated: string };
    const changed = await apply([upsert(patient('A-3', { name: [{ use: 'official', family: 'Okafor-Bello', given: ['Adaeze'] }] }))]);
    expect(changed).to.include({ updated: 1, events: 0 });
    const row = await db('residents').where({ id }).first();
    expect(row.version_id).to.equal(2);
    expect(row.family_name).to.equal('Okafor-Bello');
    expect(row.last_updated > lastUpdated).to.equal(true);
  });

  it('active true -> false is resident.discharged, false -> true is resident.admitted again', async () => {
    const first = await apply([upsert(patient('A-4'))]);
    const id = (first.outcomes[0] as { id: string }).id;
    await apply([upsert(patient('A-4', { active: false }))]);
    await apply([upsert(patient('A-4', { active: true }))]);
    expect(await eventsOf(id)).to.deep.equal(['resident.admitted', 'resident.discharged', 'resident.admitted']);
  });

  it('a new inactive Patient emits nothing', async () => {
    const result = await apply([upsert(patient('A-5', { active: false }))]);
    expect(result).to.include({ created: 1, events: 0 });
  });

  it('the same Patient under another facility of the organization is one resident.transferred; its resources move with it', async () => {
    const first = await apply([upsert(patient('A-6')), upsert(coverage(byMrn('A-6'), 'C-6')), upsert(observation(byMrn('A-6'), 'O-6'))]);
    const id = (first.outcomes[0] as { id: string }).id;
    const moved = await apply([upsert(patient('A-6'))], { facilityId: f2 });
    expect(moved).to.include({ updated: 1, events: 1 });
    expect(await eventsOf(id)).to.deep.equal(['resident.admitted', 'coverage.updated', 'resident.transferred']);
    const transferred = await db('webhook_events').where({ resident_id: id, event_type: 'resident.transferred' }).first();
    expect(transferred.facility_id).to.equal(f2);
    expect((await db('residents').where({ id }).first()).facility_id).to.equal(f2);
    const coverageRow = await db('coverage').where({ resident_id: id }).first();
    expect(coverageRow).to.include({ facility_id: f2, version_id: 2 });
    expect((await db('observations').where({ resident_id: id }).first()).facility_id).to.equal(f2);
  });

  it('Coverage: created, and changed status, payor, period, subscriberId or order, is coverage.updated; other changes are not', async () => {
    const p = await apply([upsert(patient('A-7'))]);
    const id = (p.outcomes[0] as { id: string }).id;
    const base = coverage(byMrn('A-7'), 'C-7');
    const steps: Array<[Record<string, unknown>, number]> = [
      [{}, 1],
      [{ status: 'cancelled' }, 1],
      [{ status: 'cancelled', payor: [{ display: 'Aetna' }] }, 1],
      [{ status: 'cancelled', payor: [{ display: 'Aetna' }], period: { start: '2025-01-01' } }, 1],
      [{ status: 'cancelled', payor: [{ display: 'Aetna' }], period: { start: '2025-01-01' }, subscriberId: 'XXX9' }, 1],
      [{ status: 'cancelled', payor: [{ display: 'Aetna' }], period: { start: '2025-01-01' }, subscriberId: 'XXX9', order: 2 }, 1],
      [{ status: 'cancelled', payor: [{ display: 'Aetna' }], period: { start: '2025-01-01' }, subscriberId: 'XXX9', order: 2 }, 0],
    ];
    for (const [overrides, events] of steps) {
      const result = await apply([upsert({ ...base, ...overrides } as never)]);
      expect(result.events, JSON.stringify(overrides)).to.equal(events);
    }
    expect((await eventsOf(id)).filter((e) => e === 'coverage.updated')).to.have.length(6);
    expect((await db('coverage').where({ resident_id: id }).first()).version_id).to.equal(6);
  });

  it('a new Condition is clinical.condition.created and a new MedicationRequest clinical.order.created, once', async () => {
    const p = await apply([upsert(patient('A-8'))]);
    const id = (p.outcomes[0] as { id: string }).id;
    const set = [upsert(condition(byMrn('A-8'), 'D-8')), upsert(medicationRequest(byMrn('A-8'), 'M-8'))];
    expect(await apply(set)).to.include({ created: 2, events: 2 });
    expect(await apply(set)).to.include({ unchanged: 2, events: 0 });
    expect(await eventsOf(id)).to.deep.equal(['resident.admitted', 'clinical.condition.created', 'clinical.order.created']);
    expect(await db('conditions').where({ resident_id: id }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
  });

  it('a new ServiceRequest is clinical.order.created once: a re-send is unchanged, an update is versioned without an event', async () => {
    const p = await apply([upsert(patient('A-10'))]);
    const id = (p.outcomes[0] as { id: string }).id;
    const created = await apply([upsert(serviceRequest(byMrn('A-10'), 'S-10'))]);
    expect(created).to.include({ created: 1, events: 1 });
    const outcome = created.outcomes[0] as { id: string; resourceType: string; versionId: number; events: string[] };
    expect(outcome).to.deep.include({ resourceType: 'ServiceRequest', versionId: 1, events: ['clinical.order.created'] });
    expect(await db('service_requests').where({ id: outcome.id }).first()).to.include({
      resident_id: id,
      facility_id: f1,
      code_system: 'http://loinc.org',
      code: '24323-8',
      display: 'Comprehensive metabolic panel',
      status: 'active',
      intent: 'order',
      authored_on: '2026-11-20T09:30:00Z',
      version_id: 1,
    });
    expect(await apply([upsert(serviceRequest(byMrn('A-10'), 'S-10'))])).to.include({ unchanged: 1, events: 0 });
    const completed = await apply([upsert(serviceRequest(byMrn('A-10'), 'S-10', { status: 'completed' }))]);
    expect(completed).to.include({ updated: 1, events: 0 });
    expect((await db('service_requests').where({ id: outcome.id }).first()).version_id).to.equal(2);
    expect(await eventsOf(id)).to.deep.equal(['resident.admitted', 'clinical.order.created']);
    const audit = await db('ingest_writes').where({ resource_id: outcome.id }).orderBy('seq');
    expect(audit.map((a) => [a.resource_type, a.outcome, a.version_id])).to.deep.equal([['ServiceRequest', 'created', 1], ['ServiceRequest', 'updated', 2]]);
  });

  it('a MedicationRequest needs an R4 status and intent', async () => {
    const p = await apply([upsert(patient('A-14'))]);
    const id = (p.outcomes[0] as { id: string }).id;
    const refused = await apply([
      upsert({ ...medicationRequest(byMrn('A-14'), 'M-14a'), status: 'done' } as never),
      upsert({ ...medicationRequest(byMrn('A-14'), 'M-14b'), intent: 'wish' } as never),
    ]);
    expect(refused.outcomes.map((o) => (o.outcome === 'rejected' ? [o.issue.code, ...(o.issue.expression ?? [])] : o.outcome))).to.deep.equal([
      ['value', 'MedicationRequest.status'],
      ['value', 'MedicationRequest.intent'],
    ]);
    expect(await db('medication_requests').where({ resident_id: id }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
  });

  it('a ServiceRequest and a MedicationRequest with the same order number are two orders', async () => {
    await apply([upsert(patient('A-11'))]);
    const result = await apply([upsert(medicationRequest(byMrn('A-11'), 'ORD-11')), upsert(serviceRequest(byMrn('A-11'), 'ORD-11'))]);
    expect(result).to.include({ created: 2, events: 2 });
  });

  it('a ServiceRequest needs a coded order, an R4 status and intent, and a resident of this facility', async () => {
    const p = await apply([upsert(patient('A-12'))]);
    const id = (p.outcomes[0] as { id: string }).id;
    const where = (result: Awaited<ReturnType<typeof apply>>) => result.outcomes.map((o) => (o.outcome === 'rejected' ? [o.issue.code, ...(o.issue.expression ?? [])] : o.outcome));
    const refused = await apply([
      upsert(serviceRequest(byMrn('A-12'), 'S-12a', { code: { text: 'blood work' } })),
      upsert(serviceRequest(byMrn('A-12'), 'S-12b', { status: 'done' })),
      upsert(serviceRequest(byMrn('A-12'), 'S-12c', { intent: 'wish' })),
      upsert(serviceRequest(byMrn('nobody'), 'S-12d')),
    ]);
    expect(where(refused)).to.deep.equal([
      ['required', 'ServiceRequest.code.coding'],
      ['value', 'ServiceRequest.status'],
      ['value', 'ServiceRequest.intent'],
      ['not-found', 'ServiceRequest.subject'],
    ]);
    const elsewhere = await apply([upsert(serviceRequest({ reference: `Patient/${id}` }, 'S-12e'))], { facilityId: f2 });
    expect(where(elsewhere)).to.deep.equal([['forbidden', 'ServiceRequest.subject']]);
    const foreign = await apply([upsert(serviceRequest({ reference: `Patient/${id}` }, 'S-12f'))], { orgId: otherOrg, facilityId: otherFacility });
    expect(where(foreign)).to.deep.equal([['not-found', 'ServiceRequest.subject']]);
    expect(await db('service_requests').where({ resident_id: id }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
    expect(await eventsOf(id)).to.deep.equal(['resident.admitted']);
  });

  it('a transferred resident takes its ServiceRequests along', async () => {
    const first = await apply([upsert(patient('A-13')), upsert(serviceRequest(byMrn('A-13'), 'S-13'))]);
    const id = (first.outcomes[0] as { id: string }).id;
    await apply([upsert(patient('A-13'))], { facilityId: f2 });
    expect(await db('service_requests').where({ resident_id: id }).first()).to.include({ facility_id: f2, version_id: 2 });
  });

  it('Observation and AllergyIntolerance are versioned without events', async () => {
    await apply([upsert(patient('A-9'))]);
    const result = await apply([upsert(observation(byMrn('A-9'), 'O-9')), upsert(allergy(byMrn('A-9'), 'L-9'))]);
    expect(result).to.include({ created: 2, events: 0 });
    const changed = await apply([upsert(observation(byMrn('A-9'), 'O-9', { valueQuantity: { value: 80, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' } }))]);
    expect(changed).to.include({ updated: 1, events: 0 });
  });

  it('a transaction is all or nothing: one bad entry writes none of the others', async () => {
    const result = await apply(
      [
        { resource: patient('T-1'), match: { identifier: { system: MRN, value: 'T-1' } }, at: 'Bundle.entry[0]', fullUrl: 'urn:uuid:6b3c0f8e-0a56-4d57-9d3a-1a8e0f5c2b11' },
        { resource: coverage({ reference: 'urn:uuid:6b3c0f8e-0a56-4d57-9d3a-1a8e0f5c2b11' }, 'TC-1'), at: 'Bundle.entry[1]' },
        { resource: observation({ reference: 'Patient/00000000-0000-4000-8000-000000000000' }, 'TO-1'), at: 'Bundle.entry[2]' },
      ],
      { mode: 'transaction' },
    );
    expect(result.committed).to.equal(false);
    expect(result).to.include({ created: 0, rejected: 1, events: 0 });
    const rejected = result.outcomes[2]!;
    expect(rejected).to.deep.include({ at: 'Bundle.entry[2]', outcome: 'rejected' });
    expect((rejected as { issue: { code: string } }).issue.code).to.equal('not-found');
    expect(await db('resource_identifiers').where({ value: 'T-1' }).first()).to.equal(undefined);
  });

  it('a transaction resolves urn:uuid references between its entries', async () => {
    const url = 'urn:uuid:7b3c0f8e-0a56-4d57-9d3a-1a8e0f5c2b12';
    const result = await apply(
      [
        { resource: coverage({ reference: url }, 'TC-2'), at: 'Bundle.entry[0]' },
        { resource: patient('T-2'), match: { identifier: { system: MRN, value: 'T-2' } }, at: 'Bundle.entry[1]', fullUrl: url },
      ],
      { mode: 'transaction' },
    );
    expect(result).to.include({ created: 2, committed: true });
    const coverageRow = await db('coverage').where({ id: (result.outcomes[0] as { id: string }).id }).first();
    expect(coverageRow.resident_id).to.equal((result.outcomes[1] as { id: string }).id);
  });

  it('a batch applies the good changes and rejects the bad ones alone', async () => {
    const result = await apply([upsert(patient('B-1')), upsert(patient('B-2', { birthDate: '1941-02-30' })), upsert(coverage(byMrn('nobody'), 'BC-1')), upsert(patient('B-3'))]);
    expect(result).to.include({ created: 2, rejected: 2 });
    expect((result.outcomes[1] as { issue: { expression: string[] } }).issue.expression).to.deep.equal(['Patient.birthDate']);
  });

  it('never reaches into another organization or facility', async () => {
    const mine = await apply([upsert(patient('X-1')), upsert(patient('X-2'))]);
    const id = (mine.outcomes[0] as { id: string }).id;
    // Another organization cannot match or reference this organization's resident.
    const foreign = await apply([{ resource: patient('X-1'), match: { id }, at: 'e' }, upsert(coverage({ reference: `Patient/${id}` }, 'XC-1'))], { orgId: otherOrg, facilityId: otherFacility });
    expect(foreign.outcomes.map((o) => o.outcome)).to.deep.equal(['rejected', 'rejected']);
    // Another facility of the organization cannot attach resources to it.
    const elsewhere = await apply([upsert(coverage({ reference: `Patient/${id}` }, 'XC-2'))], { facilityId: f2 });
    expect((elsewhere.outcomes[0] as { issue: { code: string } }).issue.code).to.equal('forbidden');
  });

  it('emits nothing when emitEvents is false, but still versions', async () => {
    const result = await apply([upsert(patient('S-1'))], { emitEvents: false });
    expect(result).to.include({ created: 1, events: 0 });
    expect(await eventsOf((result.outcomes[0] as { id: string }).id)).to.deep.equal([]);
  });

  it('two importers updating one resident at once: both succeed, no lost update, one event per real change', async () => {
    const first = await apply([upsert(patient('K-1'))]);
    const id = (first.outcomes[0] as { id: string }).id;
    const results = await Promise.all([
      apply([upsert(patient('K-1', { active: false }))]),
      apply([upsert(patient('K-1', { active: false }))]),
    ]);
    expect(results.map((r) => r.updated + r.unchanged)).to.deep.equal([1, 1]);
    expect(results.reduce((n, r) => n + r.updated, 0)).to.equal(1);
    expect(await eventsOf(id)).to.deep.equal(['resident.admitted', 'resident.discharged']);
    expect((await db('residents').where({ id }).first()).version_id).to.equal(2);
  });

  it('on PostgreSQL, the identifier match is planned with its values at every chunk, never a named statement (its generic plan read the whole organization)', async function () {
    if (!database.url.startsWith('postgres')) return this.skip();
    // One connection, so the statements prepared on it are the ones applyChangeSet ran.
    const single = knexFactory({ ...db.client.config, pool: { min: 1, max: 1 } });
    try {
      for (let chunk = 0; chunk < 4; chunk++) {
        const changes = [0, 1, 2].map((k) => upsert(patient(`PLAN-${chunk}-${k}`)));
        const result = await applyChangeSet(single, { orgId: org, facilityId: f1, mode: 'batch', actor: 'test', emitEvents: false, changes });
        expect(result.created).to.equal(3);
      }
      const prepared = await single.raw(`select count(*)::int as n from pg_prepared_statements where statement like '%from "resource_identifiers" where%'`);
      expect((prepared as { rows: Array<{ n: number }> }).rows[0]!.n).to.equal(0);
    } finally {
      await single.destroy();
    }
  });

  describe('ifMatch (optimistic concurrency)', () => {
    const coverageOf = async (mrn: string, key: string) => {
      await apply([upsert(patient(mrn))]);
      const created = await apply([upsert(coverage(byMrn(mrn), key))]);
      return created.outcomes[0] as { id: string };
    };
    const issueOf = (outcome: unknown) => (outcome as { outcome: string; issue: { code: string; versionConflict?: boolean; diagnostics: string } }).issue;
    const coverageEvents = async (id: string) => {
      const row = await db('coverage').where({ id }).first();
      return (await eventsOf(row.resident_id)).filter((e) => e === 'coverage.updated').length;
    };

    it('applies a change at the current version, and rejects a stale version as a conflict that writes nothing', async () => {
      const { id } = await coverageOf('V-1', 'VC-1');
      const current = await apply([{ ...upsert(coverage(byMrn('V-1'), 'VC-1', { status: 'cancelled' })), ifMatch: 1 }]);
      expect(current).to.include({ updated: 1, rejected: 0, events: 1 });
      const stale = await apply([{ ...upsert(coverage(byMrn('V-1'), 'VC-1', { subscriberId: 'XXX1' })), ifMatch: 1 }]);
      expect(stale).to.include({ updated: 0, rejected: 1, events: 0 });
      expect(issueOf(stale.outcomes[0])).to.include({ code: 'conflict', versionConflict: true });
      expect(issueOf(stale.outcomes[0]).diagnostics).to.contain(`Coverage/${id} is at version 2`);
      expect(await db('coverage').where({ id }).first()).to.include({ version_id: 2, status: 'cancelled', subscriber_id: '*****1234A' });
      expect(await coverageEvents(id)).to.equal(2);
      expect(await db('ingest_writes').where({ resource_id: id }).count({ n: '*' }).first()).to.deep.equal({ n: 2 });
    });

    it('a record that does not exist cannot be at the version named: a conflict, and nothing is created', async () => {
      await apply([upsert(patient('V-2'))]);
      const byIdentifier = await apply([{ ...upsert(coverage(byMrn('V-2'), 'VC-2-NEW')), ifMatch: 1 }]);
      expect(issueOf(byIdentifier.outcomes[0])).to.include({ code: 'conflict', versionConflict: true });
      expect(await db('resource_identifiers').where({ value: 'VC-2-NEW' }).first()).to.equal(undefined);
      const byId = await apply([{ resource: coverage(byMrn('V-2'), 'VC-2-ID'), match: { id: '00000000-0000-4000-8000-0000000000f2' }, ifMatch: 3, at: 'e' }]);
      expect(issueOf(byId.outcomes[0])).to.include({ code: 'conflict', versionConflict: true });
    });

    it('in a batch a stale change is rejected alone; in a transaction it refuses the whole set', async () => {
      const { id } = await coverageOf('V-3', 'VC-3');
      await apply([upsert(coverage(byMrn('V-3'), 'VC-3', { order: 2 }))]);
      const batch = await apply([{ ...upsert(coverage(byMrn('V-3'), 'VC-3', { status: 'cancelled' })), ifMatch: 1 }, upsert(patient('V-3-B'))]);
      expect(batch.outcomes.map((o) => o.outcome)).to.deep.equal(['rejected', 'created']);
      const transaction = await apply([upsert(patient('V-3-T')), { ...upsert(coverage(byMrn('V-3'), 'VC-3', { status: 'cancelled' })), ifMatch: 1 }], { mode: 'transaction' });
      expect(transaction.committed).to.equal(false);
      expect(issueOf(transaction.outcomes[1])).to.include({ versionConflict: true });
      expect(await db('resource_identifiers').where({ value: 'V-3-T' }).first()).to.equal(undefined);
      expect(await db('coverage').where({ id }).first()).to.include({ version_id: 2, status: 'active' });
    });

    it('refuses an ifMatch that is not a version, or on a create-only change', async () => {
      await apply([upsert(patient('V-4'))]);
      const zero = await apply([{ ...upsert(coverage(byMrn('V-4'), 'VC-4')), ifMatch: 0 }]);
      expect(issueOf(zero.outcomes[0]).code).to.equal('value');
      const createOnly = await apply([{ ...upsert(coverage(byMrn('V-4'), 'VC-4')), createOnly: true, ifMatch: 1 }]);
      expect(issueOf(createOnly.outcomes[0]).code).to.equal('not-supported');
    });

    it('two writers sending the same ifMatch at once: exactly one wins, the other is a conflict; one version bump, one event', async () => {
      for (let round = 0; round < 5; round++) {
        const mrn = `V-5-${round}`;
        const { id } = await coverageOf(mrn, `VC-5-${round}`);
        const results = await Promise.all([
          apply([{ ...upsert(coverage(byMrn(mrn), `VC-5-${round}`, { status: 'cancelled' })), ifMatch: 1 }]),
          apply([{ ...upsert(coverage(byMrn(mrn), `VC-5-${round}`, { subscriberId: 'XXX5' })), ifMatch: 1 }]),
        ]);
        const outcomes = results.map((r) => r.outcomes[0]!.outcome).sort();
        expect(outcomes).to.deep.equal(['rejected', 'updated']);
        const loser = results.find((r) => r.rejected === 1)!;
        expect(issueOf(loser.outcomes[0])).to.include({ code: 'conflict', versionConflict: true });
        const row = await db('coverage').where({ id }).first();
        expect(row.version_id).to.equal(2);
        // The winner's change, and only it.
        const winner = results.indexOf(results.find((r) => r.updated === 1)!);
        expect([row.status, row.subscriber_id]).to.deep.equal(winner === 0 ? ['cancelled', '*****1234A'] : ['active', 'XXX5']);
        expect(await coverageEvents(id)).to.equal(2);
        expect(await db('ingest_writes').where({ resource_id: id, outcome: 'updated' }).count({ n: '*' }).first()).to.deep.equal({ n: 1 });
      }
    });
  });

  describe('requires (a change written with the one just before it)', () => {
    const issueOf = (outcome: unknown) => (outcome as { outcome: string; issue: { code: string; requires?: boolean; diagnostics: string } }).issue;

    it('is applied with the change it requires, and rejected with it, writing nothing, when that one is a conflict', async () => {
      await apply([upsert(patient('R-1'))]);
      const created = (await apply([upsert(coverage(byMrn('R-1'), 'RC-1'))])).outcomes[0] as { id: string };
      const applied = await apply([
        { ...upsert(coverage(byMrn('R-1'), 'RC-1', { status: 'cancelled' })), ifMatch: 1 },
        { ...upsert(observation(byMrn('R-1'), 'R-OBS-1')), requires: 0 },
      ]);
      expect(applied.outcomes.map((o) => o.outcome)).to.deep.equal(['updated', 'created']);
      const stale = await apply([
        { ...upsert(coverage(byMrn('R-1'), 'RC-1', { subscriberId: 'XXX9' })), ifMatch: 1 },
        { ...upsert(observation(byMrn('R-1'), 'R-OBS-2')), requires: 0, at: 'second' },
        upsert(observation(byMrn('R-1'), 'R-OBS-3')),
      ]);
      expect(stale.outcomes.map((o) => o.outcome)).to.deep.equal(['rejected', 'rejected', 'created']);
      expect(issueOf(stale.outcomes[1])).to.include({ code: 'conflict', requires: true });
      expect(issueOf(stale.outcomes[1]).diagnostics).to.contain('not applied: the change it goes with (entry) was not applied');
      expect(await db('resource_identifiers').where({ value: 'R-OBS-2' }).first()).to.equal(undefined);
      expect(await db('coverage').where({ id: created.id }).first()).to.include({ version_id: 2, subscriber_id: '*****1234A' });
    });

    it('is never cut from the change it requires by a chunk boundary', async () => {
      await apply([upsert(patient('R-2'))]);
      const changes = [upsert(observation(byMrn('R-2'), 'R-OBS-4')), upsert(observation(byMrn('R-2'), 'R-OBS-5')), { ...upsert(observation(byMrn('R-2'), 'R-OBS-6')), requires: 1 }];
      const result = await applyChangeSet(db, { orgId: org, facilityId: f1, mode: 'batch', actor: 'test', emitEvents: true, changes }, { chunkSize: 2 });
      expect(result.outcomes.map((o) => o.outcome)).to.deep.equal(['created', 'created', 'created']);
    });
  });

  it('last_updated only grows in commit order within a facility, whatever the wall clock does', async () => {
    const instants: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await apply([upsert(patient(`L-${i}`))]);
      instants.push((result.outcomes[0] as { lastUpdated: string }).lastUpdated);
    }
    expect([...instants].sort()).to.deep.equal(instants);
    expect(new Set(instants).size).to.equal(5);
  });

  it('after a wall clock set back, the next instant is one millisecond after the last one assigned', async () => {
    await apply([upsert(patient('CLOCK-BACK-0'))]);
    // As if the clock had run an hour ahead and was set back since.
    const ahead = new Date(Date.now() + 3_600_000);
    ahead.setUTCSeconds(59, 999);
    await db('ingest_clock').where({ org_id: org }).update({ last_updated: ahead.toISOString() });
    const next = (await apply([upsert(patient('CLOCK-BACK-1'))])).outcomes[0] as { lastUpdated: string };
    expect(next.lastUpdated).to.equal(new Date(ahead.getTime() + 1).toISOString());
    expect((await db('ingest_clock').where({ org_id: org }).first('last_updated')).last_updated).to.equal(next.lastUpdated);
  });
});
