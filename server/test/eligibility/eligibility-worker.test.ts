// The eligibility worker against a real database and the clearinghouse double: it claims a
// quarter of its concurrency ahead, so a check starts as soon as an exchange ends, and never has
// more than ELIGIBILITY_CONCURRENCY exchanges under way.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { byMrn, coverage, MRN, patient } from '../../../test/support/fhir-resources.js';
import { startClearinghouseDouble, type ClearinghouseDouble } from '../../../test/support/clearinghouse-double.js';
import { loadConfig } from '../../src/config/config.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import { createFacility, createOrganization, setFacilityNpi } from '../../src/organizations/organizations.js';
import { setConnection } from '../../src/eligibility/clearinghouse-connections.js';
import { EligibilityWorker } from '../../src/eligibility/eligibility-worker.js';
import { systemResolver } from '../../src/webhooks/ssrf-guard.js';
import { waitFor } from '../webhooks/support/receiver.js';
import { TEST_ENCRYPTION_KEY } from '../webhooks/support/webhook-service.js';

describe('the eligibility worker', function () {
  this.timeout(60_000);
  let db: Knex;
  let double: ClearinghouseDouble;
  freshKnexForSuite(async (opened) => {
    db = opened;
    await migrateToLatest(db);
  });
  before(async () => {
    double = await startClearinghouseDouble({ username: 'u', password: 'p', latencyMs: 40 });
  });
  after(async () => {
    await double?.close();
  });

  it('has at most ELIGIBILITY_CONCURRENCY exchanges under way, however many checks it claimed ahead', async () => {
    const orgId = (await createOrganization(db, 'Worker Org')).id;
    const facilityId = (await createFacility(db, orgId, 'Worker Home')).id;
    await setFacilityNpi(db, facilityId, '1245319599');
    const cipher = new SigningSecretCipher(Buffer.from(TEST_ENCRYPTION_KEY, 'base64'));
    // The connection would allow more: the instance's concurrency is the limit here.
    await setConnection(db, cipher, { allowPrivateTargets: true, resolve: systemResolver }, { orgId, url: double.url, protocol: 'soap', username: 'u', password: 'p', senderId: 'WORKERSENDER', receiverId: 'CH', payers: null, concurrency: 32, usage: 'P' });
    const changes = [];
    for (let i = 0; i < 24; i++) {
      const mrn = `W-${i}`;
      changes.push({ resource: patient(mrn), match: { identifier: { system: MRN, value: mrn } }, at: `p${i}` });
      changes.push({ resource: coverage(byMrn(mrn), `W-COV-${i}`, { payor: [{ identifier: { value: 'CMS' }, display: 'Medicare' }], subscriberId: `MEMBER${i}` }), match: { identifier: { system: 'https://ehr.example/fhir/sid/coverage', value: `W-COV-${i}` } }, at: `c${i}` });
    }
    await applyChangeSet(db, { orgId, facilityId, mode: 'batch', actor: 'ehr', emitEvents: true, changes });
    const concurrency = 4;
    const claimed: number[] = [];
    const worker = new EligibilityWorker({
      db,
      config: { ...loadConfig({}).eligibility, concurrency, pollIntervalMs: 50 },
      allowPrivateTargets: true,
      cipher,
      resolve: systemResolver,
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const held: number[] = [];
    const sampler = setInterval(() => {
      claimed.push(worker.unanswered);
      held.push(worker.busy);
    }, 5);
    worker.start();
    try {
      await waitFor('24 exchanges recorded', async () => Number((await db('eligibility_exchanges').count({ n: '*' }).first())!.n) === 24 || undefined, 30_000);
    } finally {
      clearInterval(sampler);
      await worker.stop();
    }
    expect(double.mostInFlight).to.equal(concurrency);
    // Claimed ahead: more checks waiting for their answer than exchanges under way, a quarter of
    // the concurrency more at most; with the answers being applied, twice the concurrency and those.
    expect(Math.max(...claimed)).to.equal(concurrency + 1);
    expect(Math.max(...held)).to.be.within(concurrency + 1, 2 * concurrency + 1);
    expect(await db('eligibility_exchanges').distinct('outcome').pluck('outcome')).to.deep.equal(['active']);
    // Control numbers from one block (ELIGIBILITY_CONTROL_NUMBER_BLOCK, 32): the sender's row
    // advanced once, each exchange its own number.
    const numbers = (await db('eligibility_exchanges').pluck('control_number')).map(Number).sort((a, b) => a - b);
    expect(numbers).to.deep.equal(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(Number((await db('x12_control_numbers').where({ sender_id: 'WORKERSENDER' }).first('last_number'))!.last_number)).to.equal(32);
  });
});
