// A check survives a crash: the real server process is SIGKILLed while its 270 waits for the
// clearinghouse's answer; after a restart the check's lease runs out, it is taken again and
// completes (the payer was asked twice: at-least-once, as the lost answer requires), and the
// log holds the one exchange that finished.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { byMrn, coverage, patient } from '../../../test/support/fhir-resources.js';
import { startClearinghouseDouble, type ClearinghouseDouble, type DoubleAnswer } from '../../../test/support/clearinghouse-double.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import { createFacility, createOrganization, setFacilityNpi } from '../../src/organizations/organizations.js';
import { setConnection } from '../../src/eligibility/clearinghouse-connections.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { systemResolver } from '../../src/webhooks/ssrf-guard.js';
import { waitFor } from '../webhooks/support/receiver.js';
import { spawnServer, type ServerProcess } from '../webhooks/support/processes.js';
import { TEST_ENCRYPTION_KEY } from '../webhooks/support/webhook-service.js';

describe('an eligibility check survives a server crash (SIGKILL)', function () {
  this.timeout(90_000);
  let database: TestDatabase;
  let db: Knex;
  let double: ClearinghouseDouble;
  let server: ServerProcess | undefined;
  let answer: DoubleAnswer = { kind: 'slow', ms: 5000, then: { kind: 'active' } };

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    double = await startClearinghouseDouble({ username: 'u', password: 'p', answer: () => answer });
  });
  after(async () => {
    await server?.kill('SIGKILL');
    await double?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('completes after the restart, once the dead process\'s lease has run out', async () => {
    const orgId = (await createOrganization(db, 'Crash Org')).id;
    const facilityId = (await createFacility(db, orgId, 'Crash Home')).id;
    await setFacilityNpi(db, facilityId, '1245319599');
    await setConnection(db, new SigningSecretCipher(Buffer.from(TEST_ENCRYPTION_KEY, 'base64')), { allowPrivateTargets: true, resolve: systemResolver }, { orgId, url: double.url, protocol: 'mime', username: 'u', password: 'p', senderId: 'CRASHSENDER', receiverId: 'CH', payers: null, concurrency: 2, usage: 'P' });
    const written = await applyChangeSet(db, { orgId, facilityId, mode: 'transaction', actor: 'test', emitEvents: true, changes: [{ resource: patient('CRASH-1'), at: 'p' }, { resource: coverage(byMrn('CRASH-1'), 'CRASH-COV', { payor: [{ identifier: { value: 'CMS' }, display: 'Medicare' }], subscriberId: 'CRASH-MEMBER' }), at: 'c' }] });
    const coverageId = (written.outcomes[1] as { id: string }).id;
    const env = {
      DATABASE_URL: database.url,
      WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      ELIGIBILITY_POLL_INTERVAL_MS: '50',
      ELIGIBILITY_TIMEOUT_MS: '8000',
      ELIGIBILITY_LEASE_MS: '9000',
    };
    server = await spawnServer(env);
    await waitFor('the 270 at the clearinghouse', () => (double.received.length === 1 ? true : undefined), 20_000);
    await server.kill('SIGKILL');
    const claimed = await db('eligibility_checks').where({ coverage_id: coverageId }).first();
    expect(claimed.lease_owner, 'the dead process still holds the check').to.be.a('string');
    expect(await db('eligibility_exchanges').where({ coverage_id: coverageId })).to.deep.equal([]);
    answer = { kind: 'active' };
    server = await spawnServer(env);
    const exchange = await waitFor('the check completed after the restart', async () => (await db('eligibility_exchanges').where({ coverage_id: coverageId }))[0], 30_000);
    expect(exchange).to.include({ outcome: 'active', trigger: 'admission' });
    expect(double.received).to.have.length(2);
    expect(double.received.map((r) => r.inquiry.trace)).to.deep.equal([coverageId, coverageId]);
    // Two interchanges, two control numbers: a clearinghouse never sees one repeated.
    expect(new Set(double.received.map((r) => r.inquiry.controlNumber)).size).to.equal(2);
    expect(await db('eligibility_checks').where({ coverage_id: coverageId }).first()).to.include({ lease_owner: null, last_outcome: 'active' });
  });
});
