// examples/webhook-receiver against a live service: a real delivery, emitted through the
// service's webhooks and signed by its worker, is accepted and logged with its event type;
// a repeat is answered 2xx but not processed again; tampered or unsigned requests are refused.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createClient } from '@ofctx/sdk';
import { sign } from '@ofctx/verifier';
import { findDelivery } from '../../server/src/webhooks/delivery-store.js';
import { contractCheckingFetch } from '../support/contract.js';
import { startTestService, type TestService } from '../support/service.js';
import { freePort, startExample, type RunningExample } from './support/example-process.js';

describe('examples/webhook-receiver', function () {
  this.timeout(20_000);
  let service: TestService;
  let receiver: RunningExample | undefined;
  let receiverUrl: string;
  let signingSecret: string;
  let tenant: { orgId: string; facilityId: string };

  before(async () => {
    service = await startTestService();
    const org = await service.seed.org('Receiver Org');
    const facility = await service.seed.facility(org.id, 'Receiver Facility');
    tenant = { orgId: org.id, facilityId: facility.id };
    const client = await service.seed.client({ orgId: org.id, facilityIds: [facility.id], scopes: ['webhooks.manage'] });
    // The receiver's URL must be registered (to get the secret) before the receiver can start.
    receiverUrl = `http://127.0.0.1:${await freePort()}/hooks/ofctx`;
    const ofctx = createClient({ baseUrl: service.baseUrl, clientId: client.client_id, clientSecret: client.client_secret, fetch: contractCheckingFetch });
    const subscription = await ofctx.webhooks(org.id).register({ callbackUrl: receiverUrl, eventTypes: ['resident.admitted', 'coverage.updated'] });
    signingSecret = subscription.signing_secret;
    receiver = startExample('webhook-receiver', { OFCTX_SIGNING_SECRET: signingSecret, PORT: new URL(receiverUrl).port, HOST: '127.0.0.1' });
    await receiver.waitForLine(/webhook-receiver listening on/);
  });
  after(async () => {
    await receiver?.stop();
    await service?.close();
  });

  /** A delivery signed with the subscription's secret, as the service would build it. */
  function signedDelivery(eventType = 'resident.admitted') {
    const deliveryId = randomUUID();
    const body = JSON.stringify({
      api_version: 'v1',
      event_type: eventType,
      event_id: randomUUID(),
      delivery_id: deliveryId,
      occurred_at: new Date().toISOString(),
      data: { org_id: tenant.orgId, facility_id: tenant.facilityId, resident_id: randomUUID() },
    });
    const headers = {
      'Content-Type': 'application/json',
      'X-Service-Signature': sign(body, signingSecret),
      'X-Service-Delivery-Id': deliveryId,
      'X-Service-Event-Type': eventType,
      'X-Service-Attempt': '1',
      'X-Service-Timestamp': String(Math.floor(Date.now() / 1000)),
    };
    return { deliveryId, body, headers };
  }

  // The receiver is not the service: its answers are not the contract's.
  const post = (body: string, headers: Record<string, string>) => fetch(receiverUrl, { method: 'POST', body, headers }).then((r) => r.status);

  it('accepts a real delivery emitted through the service, logs its event type, and the service records it delivered', async () => {
    const residentId = randomUUID();
    const emitted = await service.running.webhooks.emitEvent({ orgId: tenant.orgId, facilityId: tenant.facilityId, type: 'coverage.updated', residentId });
    expect(emitted.deliveries).to.equal(1);
    const [line] = await receiver!.waitForLine(new RegExp(`accepted coverage\\.updated delivery=([0-9a-f-]{36}) event=${emitted.event_id} resident=${residentId}`));
    const deliveryId = line.match(/delivery=([0-9a-f-]{36})/)![1]!;
    // The receiver answered 204, which the worker records (a moment after the answer).
    const deadline = Date.now() + 5000;
    let record = await findDelivery(service.running.app.db, deliveryId);
    while (record?.status !== 'delivered' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      record = await findDelivery(service.running.app.db, deliveryId);
    }
    expect(record).to.include({ status: 'delivered', last_status: 204, attempts: 1 });
  });

  it('answers a repeated delivery 200 without processing it again', async () => {
    const { deliveryId, body, headers } = signedDelivery();
    expect(await post(body, headers)).to.equal(204);
    expect(await post(body, headers)).to.equal(200);
    await receiver!.waitForLine(new RegExp(`duplicate resident\\.admitted delivery=${deliveryId}`));
    expect(receiver!.output().match(new RegExp(`accepted resident\\.admitted delivery=${deliveryId}`, 'g'))).to.have.length(1);
  });

  it('refuses a tampered body, a wrong or missing signature with 401, and a signed non-delivery with 400, processing none', async () => {
    const { deliveryId, body, headers } = signedDelivery();
    const tampered = body.replace(/"resident_id":"[0-9a-f-]+"/, `"resident_id":"${randomUUID()}"`);
    expect(await post(tampered, headers)).to.equal(401);
    expect(await post(body, { ...headers, 'X-Service-Signature': sign(body, `${signingSecret}x`) })).to.equal(401);
    const { 'X-Service-Signature': _signature, ...unsigned } = headers;
    expect(await post(body, unsigned)).to.equal(401);
    // Correctly signed, but not a v1 delivery envelope.
    const notDelivery = JSON.stringify({ hello: 'world' });
    expect(await post(notDelivery, { ...headers, 'X-Service-Signature': sign(notDelivery, signingSecret) })).to.equal(400);

    await receiver!.waitForLine(/rejected 400 invalid_envelope/);
    expect(receiver!.output()).to.match(/rejected 401 signature_mismatch/);
    expect(receiver!.output()).to.match(/rejected 401 missing_signature/);
    expect(receiver!.output()).not.to.include(deliveryId);
  });

  it('logs the totals by event type when stopped', async () => {
    expect(await receiver!.stop()).to.equal(0);
    expect(receiver!.output()).to.match(/accepted by event type: coverage\.updated 1, resident\.admitted 1/);
  });
});
