// The eligibility queue against a real database: Coverage writes make their check due in the
// same transaction (new ones, and a new payer or member id; nothing for an identical re-send
// or another change), claims are exclusive and taken again after a lease runs out, an ask
// requested while one runs stays due, and rechecks are spread evenly over the period.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { byMrn, coverage, patient } from '../../../test/support/fhir-resources.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import type { ResourceChange } from '../../src/ingest/change-set.js';
import { createFacility, createOrganization, setFacilityNpi } from '../../src/organizations/organizations.js';
import { checkableFacilities, claimChecks, completeCheck, leaseCovers, nextRecheck, queueChecks, recheckPhaseMs, releaseCheck, renewLease } from '../../src/eligibility/check-queue.js';

const DAY = 86_400_000;

describe('the eligibility check queue', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let orgId: string;
  let facilityId: string;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    orgId = (await createOrganization(db, 'Queue Org')).id;
    facilityId = (await createFacility(db, orgId, 'Queue Home')).id;
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const write = (changes: ResourceChange[]) => applyChangeSet(db, { orgId, facilityId, mode: 'transaction', actor: 'test', emitEvents: true, changes });
  const payer = (id: string) => [{ identifier: { value: id }, display: `Payer ${id}` }];
  const checkOf = (coverageId: string) => db('eligibility_checks').where({ coverage_id: coverageId }).first();

  it('a new Coverage is due now, in the transaction that wrote it; an identical re-send and a change of period queue nothing', async () => {
    const written = await write([{ resource: patient('Q-1'), at: 'p' }, { resource: coverage(byMrn('Q-1'), 'Q-COV-1', { payor: payer('CMS') }), match: { identifier: { system: 'https://ehr.example/fhir/sid/coverage', value: 'Q-COV-1' } }, at: 'c' }]);
    const coverageId = (written.outcomes[1] as { id: string }).id;
    const queued = await checkOf(coverageId);
    expect(queued).to.include({ org_id: orgId, facility_id: facilityId, trigger: 'admission', lease_owner: null });
    expect(queued.due_at).to.equal(queued.requested_at);
    await db('eligibility_checks').where({ coverage_id: coverageId }).update({ due_at: null, requested_at: null, trigger: 'recheck' });
    const same = { resource: coverage(byMrn('Q-1'), 'Q-COV-1', { payor: payer('CMS') }), match: { identifier: { system: 'https://ehr.example/fhir/sid/coverage', value: 'Q-COV-1' } }, at: 'c' } as ResourceChange;
    await write([same]);
    await write([{ ...same, resource: { ...same.resource, period: { start: '2024-02-01' } } }]);
    expect((await checkOf(coverageId)).due_at).to.equal(null);
  });

  it('a new payer id or member id makes the check due again, as a change', async () => {
    const match = { identifier: { system: 'https://ehr.example/fhir/sid/coverage', value: 'Q-COV-2' } };
    const first = await write([{ resource: patient('Q-2'), at: 'p' }, { resource: coverage(byMrn('Q-2'), 'Q-COV-2', { payor: payer('CMS') }), match, at: 'c' }]);
    const coverageId = (first.outcomes[1] as { id: string }).id;
    await db('eligibility_checks').where({ coverage_id: coverageId }).update({ due_at: null, requested_at: null, trigger: 'recheck' });
    await write([{ resource: coverage(byMrn('Q-2'), 'Q-COV-2', { payor: payer('MCD-OH') }), match, at: 'c' }]);
    expect(await checkOf(coverageId)).to.include({ trigger: 'change' });
    await db('eligibility_checks').where({ coverage_id: coverageId }).update({ due_at: null, requested_at: null, trigger: 'recheck' });
    await write([{ resource: coverage(byMrn('Q-2'), 'Q-COV-2', { payor: payer('MCD-OH'), subscriberId: 'NEW-MEMBER' }), match, at: 'c' }]);
    const again = await checkOf(coverageId);
    expect(again.trigger).to.equal('change');
    expect(again.due_at).to.be.a('string');
  });

  it('claims only in facilities that can ask, never twice at once, and again once the lease runs out', async () => {
    const written = await write([{ resource: patient('Q-3'), at: 'p' }, { resource: coverage(byMrn('Q-3'), 'Q-COV-3', { payor: payer('CMS') }), at: 'c' }]);
    const coverageId = (written.outcomes[1] as { id: string }).id;
    expect(await checkableFacilities(db)).not.to.include(facilityId);
    await setFacilityNpi(db, facilityId, '1234567893');
    expect(await checkableFacilities(db), 'an NPI but no connection').not.to.include(facilityId);
    await db('clearinghouse_connections').insert({ id: '00000000-0000-4000-8000-000000000001', org_id: orgId, url: 'https://clearinghouse.example/core', protocol: 'soap', username: 'u', password_encrypted: 'v1:x:y:z', sender_id: 'S', receiver_id: 'R', payers: null, concurrency: 1, usage: 'P', failures: 0, paused_until: null, created_at: new Date().toISOString(), updated_at: new Date().toISOString() });
    const facilities = await checkableFacilities(db);
    expect(facilities).to.include(facilityId);
    const only = { facilityIds: facilities, coverageIds: [coverageId] };
    const [a] = await claimChecks(db, 'worker-a', 1000, 10, only);
    expect(a?.coverage_id).to.equal(coverageId);
    expect(await claimChecks(db, 'worker-b', 1000, 10, only)).to.deep.equal([]);
    // worker-a died: after its lease, worker-b takes the check; worker-a's late write is refused.
    const [b] = await claimChecks(db, 'worker-b', 1000, 10, { ...only, now: Date.now() + 1500 });
    expect(b?.coverage_id).to.equal(coverageId);
    expect(await completeCheck(db, a!, 'worker-a', { outcome: 'active', next: null })).to.equal(false);
    expect(await completeCheck(db, b!, 'worker-b', { outcome: 'active', next: Date.now() + DAY })).to.equal(true);
    expect(await checkOf(coverageId)).to.include({ last_outcome: 'active', lease_owner: null, trigger: 'recheck', requested_at: null });
  });

  it('workers claiming at once each take different checks, every due one once, each with the request time the claim took', async () => {
    const other = (await createFacility(db, orgId, 'Queue Home 2')).id;
    await setFacilityNpi(db, other, '1245319599');
    const changes: ResourceChange[] = [];
    for (let i = 0; i < 12; i++) changes.push({ resource: patient(`Q-M-${i}`), at: `p${i}` }, { resource: coverage(byMrn(`Q-M-${i}`), `Q-COV-M-${i}`, { payor: payer('CMS') }), at: `c${i}` });
    await applyChangeSet(db, { orgId, facilityId: other, mode: 'transaction', actor: 'test', emitEvents: true, changes });
    const requestedAt = '2026-11-30T01:02:03.000Z';
    await db('eligibility_checks').where({ facility_id: other }).update({ requested_at: requestedAt });
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimChecks(db, `worker-m${i}`, 60_000, 3, { facilityIds: [other] })));
    const all = claims.flat();
    expect(all.map((c) => c.coverage_id).sort()).to.deep.equal(((await db('eligibility_checks').where({ facility_id: other }).pluck('coverage_id')) as string[]).sort());
    expect(all.every((c) => c.requested_at === requestedAt && c.attempts === 0 && c.facility_id === other && c.org_id === orgId)).to.equal(true);
    for (const [i, mine] of claims.entries()) {
      expect(mine.length).to.be.at.most(3);
      expect(mine.map((c) => c.due_at)).to.deep.equal(mine.map((c) => c.due_at).sort());
      if (mine.length) expect(await db('eligibility_checks').whereIn('coverage_id', mine.map((c) => c.coverage_id)).distinct('lease_owner').pluck('lease_owner')).to.deep.equal([`worker-m${i}`]);
    }
    // The claim took the request: none is left on the rows.
    expect(Number((await db('eligibility_checks').where({ facility_id: other }).whereNotNull('requested_at').count({ n: '*' }).first())!.n)).to.equal(0);
  });

  it('an exchange starting soon after its claim needs no renewal of the lease; one that waited for its slot is renewed first', async () => {
    const written = await write([{ resource: patient('Q-L'), at: 'p' }, { resource: coverage(byMrn('Q-L'), 'Q-COV-L', { payor: payer('CMS') }), at: 'c' }]);
    const coverageId = (written.outcomes[1] as { id: string }).id;
    const claimedAt = Date.now();
    const [check] = await claimChecks(db, 'worker-l', 35_000, 1, { facilityIds: [facilityId], coverageIds: [coverageId], now: claimedAt });
    expect(check!.leaseEndsAt).to.equal(claimedAt + 35_000);
    // A 20 s timeout and a 35 s lease: the 20 s and half the 15 s beyond it must be left.
    expect(leaseCovers(check!, 20_000, 35_000, claimedAt + 7_500)).to.equal(true);
    expect(leaseCovers(check!, 20_000, 35_000, claimedAt + 7_501)).to.equal(false);
    const later = claimedAt + 10_000;
    expect(await renewLease(db, check!, 'worker-l', 35_000, later)).to.equal(true);
    expect(check!.leaseEndsAt).to.equal(later + 35_000);
    expect((await checkOf(coverageId)).lease_until).to.equal(new Date(later + 35_000).toISOString());
    expect(leaseCovers(check!, 20_000, 35_000, later)).to.equal(true);
    expect(await renewLease(db, check!, 'worker-other', 35_000)).to.equal(false);
    await releaseCheck(db, check!, 'worker-l');
  });

  it('an ask requested while one runs stays due when the running one finishes', async () => {
    const written = await write([{ resource: patient('Q-4'), at: 'p' }, { resource: coverage(byMrn('Q-4'), 'Q-COV-4', { payor: payer('CMS') }), at: 'c' }]);
    const coverageId = (written.outcomes[1] as { id: string }).id;
    await db('eligibility_checks').where({ coverage_id: coverageId }).update({ requested_at: new Date(Date.now() - 5000).toISOString(), due_at: new Date(Date.now() - 5000).toISOString() });
    const [claimed] = await claimChecks(db, 'worker-c', 10_000, 10, { facilityIds: [facilityId], coverageIds: [coverageId] });
    // A new member id arrives meanwhile: a new request while the claimed one runs.
    await write([{ resource: coverage(byMrn('Q-4'), 'Q-COV-4', { payor: payer('CMS'), subscriberId: 'MEMBER-4B' }), match: { identifier: { system: 'https://ehr.example/fhir/sid/coverage', value: 'Q-COV-4' } }, at: 'c' }]);
    expect(await completeCheck(db, claimed!, 'worker-c', { outcome: 'active', next: Date.now() + DAY })).to.equal(true);
    const row = await checkOf(coverageId);
    expect(row).to.include({ trigger: 'change', lease_owner: null, last_outcome: 'active' });
    expect(Date.parse(row.due_at)).to.be.lessThan(Date.now() + 1000);
    // And given back untouched: still due, claimable at once.
    const [again] = await claimChecks(db, 'worker-d', 10_000, 10, { facilityIds: [facilityId], coverageIds: [coverageId] });
    await releaseCheck(db, again!, 'worker-d');
    expect((await claimChecks(db, 'worker-e', 10_000, 10, { facilityIds: [facilityId], coverageIds: [coverageId] })).map((c) => c.coverage_id)).to.deep.equal([coverageId]);
  });

  it('an operator ask on a Coverage already queued keeps its first request time', async () => {
    const written = await write([{ resource: patient('Q-5'), at: 'p' }, { resource: coverage(byMrn('Q-5'), 'Q-COV-5', { payor: payer('CMS') }), at: 'c' }]);
    const coverageId = (written.outcomes[1] as { id: string }).id;
    const first = (await checkOf(coverageId)).requested_at as string;
    await db.transaction((trx) => queueChecks(trx, [{ coverageId, orgId, facilityId, trigger: 'operator' }], new Date(Date.parse(first) + 60_000).toISOString()));
    expect(await checkOf(coverageId)).to.include({ trigger: 'operator', requested_at: first });
  });

  it('rechecks of 10,000 Coverages are spread evenly over the period, each at least half a period and at most one and a half away', () => {
    const period = 30 * DAY;
    const now = Date.parse('2026-11-27T00:00:00Z');
    const buckets = new Array(30).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
      const next = nextRecheck(id, period, now);
      expect(next - now).to.be.within(period / 2, period * 1.5);
      expect(((next % period) + period) % period).to.equal(recheckPhaseMs(id, period));
      buckets[Math.floor(((next - now - period / 2) / period) * 30)]++;
    }
    // About 333 a day; no day above 1.3x or below 0.7x of that.
    for (const count of buckets) expect(count).to.be.within(233, 433);
    // The next one after that is exactly a period later.
    const id = '00000000-0000-4000-8000-000000000042';
    const first = nextRecheck(id, period, now);
    expect(nextRecheck(id, period, first)).to.equal(first + period);
  });
});
