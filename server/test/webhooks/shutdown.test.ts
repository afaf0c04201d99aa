// Stopping the service: in-flight attempts get a grace period to finish and be recorded;
// what is still in flight after it is aborted and released (due at once, not after its
// lease), so another instance takes it over immediately. All before the database closes.
// Every attempt in flight listens on the worker's one stop signal, up to its concurrency,
// without Node's "possible memory leak" warning.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { openDatabase } from '../../src/db/database.js';
import { attemptsOf, findDelivery, listDeliveries } from '../../src/webhooks/delivery-store.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from './support/webhook-service.js';

describe('stopping the delivery worker', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let receiver: Receiver;
  let db: Knex;
  const services: WebhookTestService[] = [];

  before(async () => {
    database = await createTestDatabase();
    receiver = await startReceiver();
  });
  after(async () => {
    for (const service of services) await service.close();
    await db?.destroy();
    await receiver?.close();
    await database?.drop();
  });

  async function start(env: Record<string, string>): Promise<WebhookTestService> {
    // A long lease: only a release (not a lease expiry) can hand a delivery over quickly.
    const service = await startWebhookService({ database, env: { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '20000', ...env } });
    services.push(service);
    return service;
  }

  it('aborts and releases what outlives the grace period; another instance delivers it at once', async () => {
    const first = await start({ WEBHOOK_SHUTDOWN_GRACE_MS: '100' });
    const tenant: Tenant = await first.tenant();
    await first.subscribe(tenant, receiver.url);
    receiver.respond(() => ({ status: 200, delayMs: 3000 }));
    await first.emit(tenant);
    await waitFor('the attempt in flight', () => receiver.received.length === 1);

    const stopping = Date.now();
    await first.close();
    expect(Date.now() - stopping).to.be.below(2000);
    db = openDatabase(database.url);
    const [delivery] = await listDeliveries(db, { orgId: tenant.orgId });
    expect(delivery).to.include({ status: 'pending', attempts: 1, last_error: 'aborted' });
    expect((await attemptsOf(db, delivery!.id)).map((a) => [a.attempt, a.error_class])).to.deep.equal([[1, 'aborted']]);

    receiver.respond(() => ({ status: 200 }));
    const second = await start({});
    const handedOver = Date.now();
    await waitFor('the delivery by the second instance', () => receiver.deliveriesOf(delivery!.id).length === 2);
    expect(Date.now() - handedOver).to.be.below(5000); // not the 20 s lease
    const [aborted, resent] = receiver.deliveriesOf(delivery!.id);
    expect(resent!.headers['x-service-attempt']).to.equal('2');
    expect(resent!.body.equals(aborted!.body)).to.equal(true);

    // Within the grace period an attempt finishes and is recorded before the stop returns.
    receiver.respond(() => ({ status: 200, delayMs: 300 }));
    const emitted = await second.running.webhooks.emitEvent({ orgId: tenant.orgId, facilityId: tenant.facilityId, type: 'resident.admitted', residentId: randomUUID() });
    const [last] = await listDeliveries(db, { orgId: tenant.orgId });
    expect(JSON.parse((await db('webhook_deliveries').where({ id: last!.id }).first('body')).body).event_id).to.equal(emitted.event_id);
    await waitFor('the attempt in flight', () => receiver.deliveriesOf(last!.id).length === 1);
    await second.close();
    expect(await findDelivery(db, last!.id)).to.include({ status: 'delivered', attempts: 1 });
  });

  it('holds 24 attempts in flight on its stop signal without a leak warning, and a stop aborts them all', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const service = await start({ WEBHOOK_SHUTDOWN_GRACE_MS: '100', WEBHOOK_CONCURRENCY: '32', WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY: '8' });
      const tenant: Tenant = await service.tenant();
      for (let i = 0; i < 3; i++) await service.subscribe(tenant, receiver.url);
      receiver.respond(() => ({ status: 200, delayMs: 4000 }));
      const before = receiver.received.length;
      for (let i = 0; i < 8; i++) await service.emit(tenant);
      await waitFor('24 attempts in flight', () => receiver.received.length - before === 24);
      await service.close();
      db ??= openDatabase(database.url);
      const deliveries = await listDeliveries(db, { orgId: tenant.orgId });
      expect(deliveries).to.have.length(24);
      for (const delivery of deliveries) expect((await attemptsOf(db, delivery.id)).map((a) => a.error_class)).to.deep.equal(['aborted']);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).to.deep.equal([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
