// What happens when receivers misbehave: 410 disables, redirects fail and are not
// followed, Retry-After is honoured, timeouts and refused connections are classified,
// retries exhaust to `failed` (never dropped), and redelivery sends the same bytes again.
import { expect } from 'chai';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { call } from '../../../test/support/http.js';
import { attemptsOf, findDelivery, listDeliveries, redeliver, RedeliveryRefused, type DeliveryRecord } from '../../src/webhooks/delivery-store.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from './support/webhook-service.js';

describe('webhook delivery failures', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;

  before(async () => {
    // Two retries, immediate; a short timeout so a hanging receiver costs little.
    service = await startWebhookService({ env: { WEBHOOK_RETRY_SCHEDULE: '0,0', WEBHOOK_TIMEOUT_MS: '300', WEBHOOK_LEASE_MS: '1500' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  const db = () => service.running.app.db;

  async function onlyDelivery(tenant: Tenant): Promise<DeliveryRecord> {
    const [delivery] = await listDeliveries(db(), { orgId: tenant.orgId });
    return delivery!;
  }

  async function settled(id: string, status: string): Promise<DeliveryRecord> {
    return waitFor(`delivery ${id} to be ${status}`, async () => {
      const found = await findDelivery(db(), id);
      return found?.status === status ? found : undefined;
    });
  }

  it('disables the subscription on 410 Gone and cancels what is still queued for it', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    // The first delivery gets a slow 410 (within the 300 ms timeout); the second a 503 asking
    // for an hour, so it is
    // still queued (pending) when the 410 arrives.
    const start = receiver.received.length;
    receiver.respond((_r, index) => (index === start ? { status: 410, delayMs: 250 } : { status: 503, headers: { 'Retry-After': '3600' } }));
    await service.emit(tenant);
    await waitFor('the first attempt', () => receiver.received.length > start);
    const [gone] = await listDeliveries(db(), { orgId: tenant.orgId });
    await service.emit(tenant);
    const queued = (await listDeliveries(db(), { orgId: tenant.orgId })).find((d) => d.id !== gone!.id)!;
    await waitFor('the second delivery to wait for its retry', async () => (await findDelivery(db(), queued.id))?.last_status === 503);

    await settled(gone!.id, 'failed');
    expect(await findDelivery(db(), gone!.id)).to.include({ last_status: 410, last_error: 'http_status', attempts: 1 });
    expect(await findDelivery(db(), queued.id)).to.include({ status: 'cancelled' });
    const list = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks`, { token: tenant.token });
    expect(list.body.data[0]).to.include({ id: subscription.id, status: 'disabled' });
    expect(list.body.data[0].revoked_at).to.be.a('string');
    // Nothing more is queued for it, and a test delivery is refused.
    expect((await service.emit(tenant)).deliveries).to.equal(0);
    const test = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}/test`, { token: tenant.token, json: { event_type: 'resident.admitted' } });
    expect(test.status).to.equal(409);
    expect(test.body.error.code).to.equal('subscription_not_active');
    // Revoking a disabled subscription changes nothing.
    const revoke = await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}`, { token: tenant.token });
    expect(revoke.body.data).to.deep.equal(list.body.data[0]);
  });

  it('counts a redirect as a failure and never follows it', async () => {
    const target = await startReceiver();
    try {
      const tenant = await service.tenant();
      await service.subscribe(tenant, receiver.url);
      receiver.respond(() => ({ status: 302, headers: { Location: `http://127.0.0.1:${target.port}/internal/admin` } }));
      await service.emit(tenant);
      const delivery = await settled((await onlyDelivery(tenant)).id, 'failed');
      expect(delivery).to.include({ attempts: 3, last_status: 302, last_error: 'redirect' });
      const attempts = await attemptsOf(db(), delivery.id);
      expect(attempts.map((a) => [a.response_status, a.error_class])).to.deep.equal([
        [302, 'redirect'],
        [302, 'redirect'],
        [302, 'redirect'],
      ]);
      expect(target.received).to.have.length(0);
    } finally {
      await target.close();
    }
  });

  it('waits at least as long as Retry-After asks before the next attempt', async () => {
    const tenant = await service.tenant();
    await service.subscribe(tenant, receiver.url);
    const start = receiver.received.length;
    receiver.respond((_r, index) => (index === start ? { status: 503, headers: { 'Retry-After': '1' } } : { status: 200 }));
    await service.emit(tenant);
    const delivery = await onlyDelivery(tenant);
    await settled(delivery.id, 'delivered');
    const [first, second] = receiver.deliveriesOf(delivery.id);
    // The schedule says 0 s; the receiver asked for 1 s.
    expect(second!.receivedAt - first!.receivedAt).to.be.at.least(950).and.below(5000);
    const attempts = await attemptsOf(db(), delivery.id);
    expect(attempts.map((a) => [a.response_status, a.error_class])).to.deep.equal([
      [503, 'http_status'],
      [200, null],
    ]);
  });

  it('classifies timeouts and refused connections, and exhausts the schedule to failed', async () => {
    const tenant = await service.tenant();
    const hanging = await startReceiver(() => ({ status: 200, delayMs: 5000 }));
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    try {
      await service.subscribe(tenant, hanging.url);
      await service.subscribe(tenant, `http://127.0.0.1:${closed}/hooks`);
      await service.emit(tenant);
      const deliveries = await listDeliveries(db(), { orgId: tenant.orgId });
      expect(deliveries).to.have.length(2);
      const errors: string[] = [];
      for (const d of deliveries) {
        const done = await settled(d.id, 'failed');
        expect(done.attempts).to.equal(3);
        const attempts = await attemptsOf(db(), d.id);
        expect(new Set(attempts.map((a) => a.error_class)).size).to.equal(1);
        errors.push(attempts[0]!.error_class!);
        if (attempts[0]!.error_class === 'timeout') for (const a of attempts) expect(a.duration_ms).to.be.at.least(290).and.below(2000);
      }
      expect(errors.sort()).to.deep.equal(['connection_refused', 'timeout']);
      // Failed deliveries stay listed for operators.
      expect((await listDeliveries(db(), { orgId: tenant.orgId, status: 'failed' })).map((d) => d.id).sort()).to.deep.equal(deliveries.map((d) => d.id).sort());
    } finally {
      await hanging.close();
    }
  });

  it('redelivers a failed delivery: same id, same bytes, a fresh schedule, the attempt count going on', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    receiver.respond(() => ({ status: 500 }));
    await service.emit(tenant);
    const failed = await settled((await onlyDelivery(tenant)).id, 'failed');
    expect(failed.attempts).to.equal(3);

    receiver.respond(() => ({ status: 200 }));
    const requeued = await redeliver(db(), failed.id);
    expect(requeued).to.include({ id: failed.id, status: 'pending', attempts: 3 });
    service.running.webhooks.wake();
    const delivered = await settled(failed.id, 'delivered');
    expect(delivered.attempts).to.equal(4);
    const arrivals = receiver.deliveriesOf(failed.id);
    expect(arrivals.map((a) => a.headers['x-service-attempt'])).to.deep.equal(['1', '2', '3', '4']);
    expect(arrivals.every((a) => a.body.equals(arrivals[0]!.body))).to.equal(true);

    // A queued delivery cannot be re-queued; neither can one of a revoked subscription.
    await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}`, { token: tenant.token });
    let refusal: unknown;
    await redeliver(db(), failed.id).catch((error) => (refusal = error));
    expect(refusal).to.be.instanceOf(RedeliveryRefused);
    expect((refusal as Error).message).to.match(/revoked.*register a new subscription/);
  });
});
