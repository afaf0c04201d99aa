// Real deliveries to a real receiver: signature over the raw bytes, headers, latency when
// idle, identical bytes on every retry, fan-out rules, and revocation stopping everything.
import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import { call } from '../../../test/support/http.js';
import { revokeClient, grantFacilities } from '../../src/auth/clients.js';
import { attemptsOf, findDelivery, listDeliveries } from '../../src/webhooks/delivery-store.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type WebhookTestService } from './support/webhook-service.js';

// Any version: event and delivery ids are time-ordered (version 7), others random (version 4).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('webhook deliveries', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;

  before(async () => {
    service = await startWebhookService();
    receiver = await startReceiver();
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.respond(() => ({ status: 200 }));
  });

  it('arrives signed over the raw bytes, with the contract headers, within moments of the event', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url, ['resident.admitted', 'coverage.updated']);
    const latencies: number[] = [];
    let last: { event_id: string } | undefined;
    const residentId = randomUUID();
    for (let i = 0; i < 5; i++) {
      const before = receiver.received.length;
      const emittedAt = Date.now();
      last = await service.emit(tenant, { type: 'coverage.updated', residentId });
      const arrived = await waitFor('the delivery', () => receiver.received[before], 5000, 1);
      latencies.push(arrived.receivedAt - emittedAt);
    }
    latencies.sort((a, b) => a - b);
    console.log(`      idle delivery latency (emit -> received), 5 events: min ${latencies[0]} ms, median ${latencies[2]} ms, max ${latencies[4]} ms`);
    expect(latencies[2]).to.be.below(1000);

    const delivery = receiver.received.at(-1)!;
    const headers = delivery.headers;
    // A receiver that knows only the secret: plain HMAC-SHA256 over the bytes received.
    const expected = createHmac('sha256', subscription.signing_secret).update(delivery.body).digest('hex');
    expect(headers['x-service-signature']).to.equal(expected);
    expect(headers['content-type']).to.equal('application/json');
    expect(headers['user-agent']).to.equal('ofctx-webhooks/1.0');
    expect(headers['x-service-event-type']).to.equal('coverage.updated');
    expect(headers['x-service-attempt']).to.equal('1');
    expect(Number(headers['x-service-timestamp'])).to.be.closeTo(Date.now() / 1000, 10);
    expect(headers['x-service-delivery-id']).to.match(UUID);

    const text = delivery.body.toString('utf8');
    const body = JSON.parse(text);
    // Exactly the contract's keys, in the contract's order, ids only.
    expect(Object.keys(body)).to.deep.equal(['api_version', 'event_type', 'event_id', 'delivery_id', 'occurred_at', 'data']);
    expect(Object.keys(body.data)).to.deep.equal(['org_id', 'facility_id', 'resident_id']);
    expect(body).to.deep.include({ api_version: 'v1', event_type: 'coverage.updated', event_id: last!.event_id, delivery_id: headers['x-service-delivery-id'] });
    expect(body.data).to.deep.equal({ org_id: tenant.orgId, facility_id: tenant.facilityId, resident_id: residentId });
    expect(new Date(body.occurred_at).toISOString()).to.equal(body.occurred_at);

    const db = service.running.app.db;
    const record = await waitFor('the outcome to be recorded', async () => {
      const found = await findDelivery(db, body.delivery_id);
      return found?.status === 'delivered' ? found : undefined;
    });
    expect(record).to.include({ attempts: 1, last_status: 200, subscription_id: subscription.id });
  });

  it('sends the SAME bytes on every retry, with the same delivery id and attempts 1, 2, 3, and records each attempt', async () => {
    const tenant = await service.tenant();
    await service.subscribe(tenant, receiver.url);
    // 500 to the first two attempts of each delivery, 200 to the third.
    receiver.respond((request) => ({ status: receiver.deliveriesOf(request.headers['x-service-delivery-id'] as string).length <= 2 ? 500 : 200 }));
    const emitted = await service.emit(tenant);
    expect(emitted.deliveries).to.equal(1);
    const [record] = await listDeliveries(service.running.app.db, { orgId: tenant.orgId });
    const arrivals = await waitFor('three attempts', () => {
      const got = receiver.deliveriesOf(record!.id);
      return got.length >= 3 ? got : undefined;
    });
    expect(arrivals.map((a) => a.headers['x-service-attempt'])).to.deep.equal(['1', '2', '3']);
    expect(arrivals.every((a) => a.body.equals(arrivals[0]!.body))).to.equal(true);
    expect(arrivals.map((a) => a.headers['x-service-signature'])).to.satisfy((s: string[]) => new Set(s).size === 1);
    expect(JSON.parse(arrivals[0]!.body.toString()).delivery_id).to.equal(record!.id);

    const db = service.running.app.db;
    await waitFor('the delivery to be marked delivered', async () => (await findDelivery(db, record!.id))?.status === 'delivered');
    const attempts = await attemptsOf(db, record!.id);
    expect(attempts.map((a) => [a.attempt, a.response_status, a.error_class])).to.deep.equal([
      [1, 500, 'http_status'],
      [2, 500, 'http_status'],
      [3, 200, null],
    ]);
    expect(attempts.every((a) => a.duration_ms !== null && a.duration_ms >= 0 && a.started_at.endsWith('Z'))).to.equal(true);
    const delivered = await findDelivery(db, record!.id);
    expect(delivered).to.include({ status: 'delivered', attempts: 3, last_status: 200, last_error: null });
    // An attempt starts at its claim: the instant a worker taking over its lease would record
    // it by too, so (delivery_id, attempt, started_at) names it (delivery-claims.ts).
    expect(attempts[2]!.started_at).to.equal(delivered!.last_attempt_at);
  });

  it('fans out to active subscriptions that list the type, only for facilities their credential is granted', async () => {
    const tenant = await service.tenant();
    const wantsAdmitted = await service.subscribe(tenant, receiver.url, ['resident.admitted']);
    await service.subscribe(tenant, receiver.url, ['resident.discharged']);
    const db = service.running.app.db;

    expect((await service.emit(tenant, { type: 'resident.admitted' })).deliveries).to.equal(1);
    expect((await service.emit(tenant, { type: 'coverage.updated' })).deliveries).to.equal(0);
    // The facility the registering client is not granted: nothing.
    expect((await service.emit(tenant, { type: 'resident.admitted', facilityId: tenant.otherFacilityId })).deliveries).to.equal(0);
    // Grant it, and events there fan out too (the grant is read at fan-out time).
    await grantFacilities(db, tenant.client.client_id, [tenant.facilityId, tenant.otherFacilityId]);
    expect((await service.emit(tenant, { type: 'resident.admitted', facilityId: tenant.otherFacilityId })).deliveries).to.equal(1);
    // Another organization's events never reach this one's subscriptions.
    const stranger = await service.tenant();
    expect((await service.emit(stranger, { type: 'resident.admitted' })).deliveries).to.equal(0);
    // A revoked credential's subscriptions get nothing more.
    await revokeClient(db, tenant.client.client_id);
    expect((await service.emit(tenant, { type: 'resident.admitted' })).deliveries).to.equal(0);

    const deliveries = await listDeliveries(db, { orgId: tenant.orgId });
    expect(deliveries.map((d) => d.subscription_id)).to.deep.equal([wantsAdmitted.id, wantsAdmitted.id]);
  });

  it('stops delivering to a revoked subscription: its pending deliveries are cancelled', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    // Failing receiver, retries far apart: the delivery sits pending after its first attempt.
    receiver.respond(() => ({ status: 503, headers: { 'Retry-After': '3600' } }));
    const before = receiver.received.length;
    await service.emit(tenant);
    await waitFor('the first attempt', () => receiver.received.length > before);
    const db = service.running.app.db;
    const [record] = await listDeliveries(db, { orgId: tenant.orgId });
    await waitFor('the retry to be scheduled', async () => (await findDelivery(db, record!.id))?.status === 'pending');

    const revoked = await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}`, { token: tenant.token });
    expect(revoked.status).to.equal(200);
    expect(await findDelivery(db, record!.id)).to.include({ status: 'cancelled' });
    // Events after revocation queue nothing for it.
    receiver.respond(() => ({ status: 200 }));
    expect((await service.emit(tenant)).deliveries).to.equal(0);
    const count = receiver.received.length;
    service.running.webhooks.wake();
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.received.length).to.equal(count);
  });

  it('keeps delivering to healthy receivers while another receiver hangs', async () => {
    const slow = await startReceiver(() => ({ status: 200, delayMs: 1500 }));
    try {
      const tenant = await service.tenant();
      const hanging = await service.subscribe(tenant, slow.url);
      const fastTenant = await service.tenant();
      await service.subscribe(fastTenant, receiver.url);
      // Fill the slow endpoint's backlog well past its per-subscription cap.
      for (let i = 0; i < 12; i++) await service.emit(tenant);
      await waitFor('the slow receiver to hold its cap of attempts', () => slow.received.length >= service.config.webhooks.perSubscriptionConcurrency);
      const before = receiver.received.length;
      const emittedAt = Date.now();
      await service.emit(fastTenant);
      const arrived = await waitFor('the healthy receiver', () => receiver.received[before], 5000, 1);
      expect(arrived.receivedAt - emittedAt).to.be.below(1000);
      // The slow one never had more than its cap in flight.
      expect(slow.received.length).to.be.at.most(service.config.webhooks.perSubscriptionConcurrency);
      await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${tenant.orgId}/webhooks/${hanging.id}`, { token: tenant.token });
    } finally {
      await slow.close();
    }
  });
});
