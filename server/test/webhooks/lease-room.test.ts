// A claim is sent only while its lease can still hold a whole attempt. One that waited (a
// slow claim transaction, a stalled event loop) would otherwise still be in flight when
// another worker takes the expired lease and sends the same delivery at the same time.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import knex from 'knex';
import { call } from '../../../test/support/http.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { attemptsOf } from '../../src/webhooks/delivery-store.js';
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig, sqlitePath } from '../../src/config/config.js';
import { sqliteDriverPath } from '../../src/db/sqlite-driver.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { FAST_WEBHOOK_ENV, startWebhookService, type WebhookTestService } from './support/webhook-service.js';

const HOLD_MS = 1500;

/**
 * Holds the database's write lock for `ms`, from another process on SQLite (the worker's
 * synchronous claim waits on it, stalling this process as a loaded machine would) and from
 * another connection on PostgreSQL. Resolves once the lock is held, with the promise of its release.
 */
async function holdWriteLock(databaseUrl: string, ms: number): Promise<{ released: Promise<void> }> {
  const file = sqlitePath(databaseUrl);
  if (file) {
    const child = spawn(process.execPath, ['-e', `
      const db = new (require(process.argv[2]))(process.argv[1]);
      db.exec('BEGIN IMMEDIATE');
      process.stdout.write('held\\n');
      setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`, file, sqliteDriverPath()], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
    });
    return { released: new Promise<void>((resolve) => child.once('exit', () => resolve())) };
  }
  const holder = knex({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
  const trx = await holder.transaction();
  // The claim locks subscription rows FOR UPDATE (SKIP LOCKED skips rows, not a table lock).
  await trx.raw('LOCK TABLE webhook_subscriptions IN EXCLUSIVE MODE');
  const released = (async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await trx.commit();
    await holder.destroy();
  })();
  return { released };
}

describe('a delivery claim whose lease has no room left for an attempt', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  let worker: DeliveryWorker | undefined;

  before(async () => {
    // The service's own worker is off: the worker here starts while the database is held.
    service = await startWebhookService({ env: { WEBHOOK_WORKER: '0', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_MS: '3000' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await worker?.stop();
    await receiver?.close();
    await service?.close();
  });

  it('goes back unsent (recorded as released) after a claim transaction that waited; the next claim, with a whole lease, sends it', async () => {
    const { db } = service.running.app;
    const webhooks = service.running.webhooks;
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const { event_id } = await service.emit(tenant, { residentId: randomUUID() });
    const delivery = await db('webhook_deliveries').where({ event_id }).first('id');

    // Another writer holds the database for 1.5 s of the 3 s lease: the worker's claim waits
    // for it, and is granted with 1.5 s left, less than its 2 s timeout.
    const held = await holdWriteLock(service.database.url, HOLD_MS);
    worker = new DeliveryWorker({ db, config: webhooks.config.webhooks, cipher: webhooks.cipher, resolve: webhooks.resolveHost, logger: createLogger('silent') });
    worker.start();
    await held.released;
    await waitFor('the delivery to be recorded', async () => (await db('webhook_deliveries').where({ id: delivery.id }).first('status')).status === 'delivered', 10_000, 20);

    const attempts = await attemptsOf(db, delivery.id);
    expect(attempts.map((a) => [a.attempt, a.error_class, a.response_status])).to.deep.equal([[1, 'aborted', null], [2, null, 200]]);
    expect(receiver.received, 'sent once, by the claim with a whole lease').to.have.length(1);
    expect(receiver.received[0]!.headers['x-service-attempt']).to.equal('2');
    // The partner sees both attempts, the unsent one as `interrupted`, as at a shutdown (the answer is contract-checked).
    const listed = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}/deliveries`, { token: tenant.token });
    expect(listed.status).to.equal(200);
    expect(listed.body.data[0].attempts.map((a: { status_code: number | null; error: string | null }) => [a.status_code, a.error])).to.deep.equal([[null, 'interrupted'], [200, null]]);
  });

  it('is refused by the configuration: a lease must exceed the request timeout by 500 ms', () => {
    const env = { ...FAST_WEBHOOK_ENV };
    expect(() => loadConfig({ ...env, WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_MS: '2400' })).to.throw(/WEBHOOK_LEASE_MS \(2400\) must be at least WEBHOOK_TIMEOUT_MS \(2000\) \+ 500 ms/);
    expect(loadConfig({ ...env, WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_LEASE_MS: '2500' }).webhooks.leaseMs).to.equal(2500);
  });
});
