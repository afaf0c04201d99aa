// An exchange recorded and its check settled together, against a real database (one statement
// on PostgreSQL, one transaction on SQLite): completed, completed while a new ask was requested,
// retried, and by a worker that lost its lease.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { byMrn, coverage, patient } from '../../../test/support/fhir-resources.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { claimChecks, type ClaimedCheck } from '../../src/eligibility/check-queue.js';
import type { ExchangeRecord } from '../../src/eligibility/exchange-log.js';
import { recordAndSettle } from '../../src/eligibility/exchange-settlement.js';

const DAY = 86_400_000;

describe('an eligibility exchange recorded and its check settled', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let orgId: string;
  let facilityId: string;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    orgId = (await createOrganization(db, 'Settlement Org')).id;
    facilityId = (await createFacility(db, orgId, 'Settlement Home')).id;
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const coverageIdentifier = (key: string) => ({ system: 'https://ehr.example/fhir/sid/coverage', value: key });
  async function claimedCheck(mrn: string, worker: string): Promise<ClaimedCheck> {
    const written = await applyChangeSet(db, { orgId, facilityId, mode: 'transaction', actor: 'test', emitEvents: true, changes: [{ resource: patient(mrn), at: 'p' }, { resource: coverage(byMrn(mrn), `${mrn}-COV`, { payor: [{ identifier: { value: 'CMS' }, display: 'Medicare' }] }), match: { identifier: coverageIdentifier(`${mrn}-COV`) }, at: 'c' }] });
    const coverageId = (written.outcomes[1] as { id: string }).id;
    const [check] = await claimChecks(db, worker, 60_000, 1, { facilityIds: [facilityId], coverageIds: [coverageId] });
    return check!;
  }
  const exchange = (check: ClaimedCheck, outcome: ExchangeRecord['outcome'], retrying = false): ExchangeRecord => ({
    orgId,
    facilityId,
    coverageId: check.coverage_id,
    trigger: check.trigger,
    connectionId: null,
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: 51,
    outcome,
    retrying,
    coverageStatus: 'active',
    detail: `${outcome} (test)`,
    codes: retrying ? { error_class: 'timeout' } : {},
    requestX12: 'ISA*00*...~',
  });
  const checkOf = (coverageId: string) => db('eligibility_checks').where({ coverage_id: coverageId }).first();
  const exchangesOf = (coverageId: string) => db('eligibility_exchanges').where({ coverage_id: coverageId }).select('outcome', 'retrying', 'detail', 'codes', 'request_x12');

  it('records the exchange and completes the check: next ask at the recheck, as a recheck', async () => {
    const check = await claimedCheck('S-1', 'worker-s');
    const next = Date.now() + 30 * DAY;
    await recordAndSettle(db, exchange(check, 'active'), check, 'worker-s', { complete: { outcome: 'active', next } });
    const logged = await exchangesOf(check.coverage_id);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.include({ outcome: 'active', detail: 'active (test)', codes: null, request_x12: 'ISA*00*...~' });
    const row = await checkOf(check.coverage_id);
    expect(row).to.include({ lease_owner: null, lease_until: null, last_outcome: 'active', trigger: 'recheck', due_at: new Date(next).toISOString() });
    expect(Number(row.attempts)).to.equal(0);
  });

  it('leaves an ask requested while the exchange ran due, as it was requested', async () => {
    const check = await claimedCheck('S-2', 'worker-s');
    const requestedAt = new Date(Date.now() - 1000).toISOString();
    await db('eligibility_checks').where({ coverage_id: check.coverage_id }).update({ requested_at: requestedAt, due_at: requestedAt, trigger: 'change' });
    await recordAndSettle(db, exchange(check, 'inactive'), check, 'worker-s', { complete: { outcome: 'inactive', next: null } });
    expect(await checkOf(check.coverage_id)).to.include({ lease_owner: null, last_outcome: 'inactive', trigger: 'change', due_at: requestedAt, requested_at: requestedAt });
    expect(await exchangesOf(check.coverage_id)).to.have.length(1);
  });

  it('retries: the exchange recorded as retrying, the check due again at the retry time with one attempt more', async () => {
    const check = await claimedCheck('S-3', 'worker-s');
    const at = Date.now() + 60_000;
    await recordAndSettle(db, exchange(check, 'error', true), check, 'worker-s', { retry: { at } });
    const [logged] = await exchangesOf(check.coverage_id);
    expect(Boolean(logged.retrying)).to.equal(true);
    expect(JSON.parse(logged.codes)).to.deep.equal({ error_class: 'timeout' });
    const row = await checkOf(check.coverage_id);
    expect(row).to.include({ lease_owner: null, due_at: new Date(at).toISOString() });
    expect(Number(row.attempts)).to.equal(check.attempts + 1);
  });

  it('a worker that lost its lease records what it asked, and leaves the check to the worker holding it', async () => {
    const check = await claimedCheck('S-4', 'worker-s');
    await db('eligibility_checks').where({ coverage_id: check.coverage_id }).update({ lease_owner: 'worker-t' });
    await recordAndSettle(db, exchange(check, 'active'), check, 'worker-s', { complete: { outcome: 'active', next: Date.now() + DAY } });
    expect(await exchangesOf(check.coverage_id)).to.have.length(1);
    expect(await checkOf(check.coverage_id)).to.include({ lease_owner: 'worker-t', last_outcome: null });
  });
});
