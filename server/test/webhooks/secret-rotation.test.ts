// Standard Webhooks headers and secret rotation, end to end: real deliveries from the running
// service to a real receiver, checked by every kind of receiver a partner may run — spec 6.3
// (X-Service-Signature, one secret), the official `standardwebhooks` library, and
// @ofctx/verifier — before, during and after a rotation's overlap.
import { expect } from 'chai';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyDelivery } from '@ofctx/verifier';
import { call } from '../../../test/support/http.js';
import { findDelivery } from '../../src/webhooks/delivery-store.js';
import { startReceiver, waitFor, type Receiver, type ReceivedDelivery } from './support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from './support/webhook-service.js';

type Check = (delivery: ReceivedDelivery) => boolean;

/** A spec 6.3 receiver: one secret, one hex value compared in constant time. */
const spec63 = (secret: string): Check => (d) => {
  const expected = Buffer.from(createHmac('sha256', secret).update(d.body).digest('hex'));
  const got = Buffer.from(String(d.headers['x-service-signature'] ?? ''));
  return got.length === expected.length && timingSafeEqual(got, expected);
};

/** A receiver using only the official standardwebhooks library, given the whsec_ secret as is. */
const standardWebhooks = (whsec: string): Check => (d) => {
  try {
    new Webhook(whsec).verify(d.body.toString('utf8'), d.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

const ofctxVerifier = (secrets: string[]): Check => (d) => {
  try {
    verifyDelivery(d.body, d.headers, secrets);
    return true;
  } catch {
    return false;
  }
};

describe('webhook secret rotation and Standard Webhooks', function () {
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
  beforeEach(() => receiver.respond(() => ({ status: 200 })));

  const rotate = (tenant: Tenant, id: string, token = tenant.token) => call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${id}/rotate-secret`, { token });
  const testDelivery = async (tenant: Tenant, id: string): Promise<ReceivedDelivery> => {
    const answer = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${id}/test`, { token: tenant.token, json: { event_type: 'resident.admitted' } });
    expect(answer.status).to.equal(200);
    const headers = Object.fromEntries(Object.entries(answer.body.data.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    return { body: Buffer.from(answer.body.data.body, 'utf8'), headers, path: '', receivedAt: Date.now() };
  };
  async function deliver(tenant: Tenant, count: number): Promise<ReceivedDelivery[]> {
    const before = receiver.received.length;
    for (let i = 0; i < count; i++) await service.emit(tenant);
    await waitFor(`${count} deliveries`, () => receiver.received.length >= before + count);
    return receiver.received.slice(before, before + count);
  }
  // The overlap's end, brought forward instead of waiting a day: what time would do.
  const expireOverlap = async (id: string): Promise<void> => {
    await service.running.app.db('webhook_subscriptions').where({ id }).update({ previous_secret_expires_at: new Date(Date.now() - 1000).toISOString() });
  };

  it('a receiver using only the official standardwebhooks library verifies real deliveries with standard_webhooks_secret', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const { standard_webhooks_secret: whsec, signing_secret: secret } = subscription;
    expect(whsec).to.equal(`whsec_${Buffer.from(secret).toString('base64')}`);
    for (const delivery of await deliver(tenant, 3)) {
      expect(standardWebhooks(whsec)(delivery)).to.equal(true);
      expect(spec63(secret)(delivery)).to.equal(true);
      expect(delivery.headers['webhook-id']).to.equal(delivery.headers['x-service-delivery-id']);
      expect(delivery.headers['webhook-timestamp']).to.equal(delivery.headers['x-service-timestamp']);
      expect(String(delivery.headers['webhook-signature']).split(' ')).to.have.lengthOf(1);
    }
    // The test operation shows the same headers, and the library accepts them too.
    const sample = await testDelivery(tenant, subscription.id);
    expect(Object.keys(sample.headers)).to.include.members(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-service-signature']);
    expect(standardWebhooks(whsec)(sample)).to.equal(true);
  });

  it('after a rotation, receivers with the old secret and with the new one both verify every delivery of the overlap; afterwards only the new one', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const [oldSecret, oldWhsec] = [subscription.signing_secret, subscription.standard_webhooks_secret];

    const rotated = await rotate(tenant, subscription.id);
    expect(rotated.status).to.equal(200);
    const rotation = rotated.body.data as { signing_secret: string; standard_webhooks_secret: string; previous_secret_expires_at: string; rotated_at: string };
    expect(rotation.signing_secret).to.match(/^ofx_whs_[A-Za-z0-9_-]{43}$/).and.not.equal(oldSecret);
    // The default overlap: 24 hours.
    expect(Date.parse(rotation.previous_secret_expires_at) - Date.parse(rotation.rotated_at)).to.equal(86_400_000);
    const [newSecret, newWhsec] = [rotation.signing_secret, rotation.standard_webhooks_secret];

    // The replaced secret is kept encrypted, like the current one.
    const row = await service.running.app.db('webhook_subscriptions').where({ id: subscription.id }).first();
    expect(JSON.stringify(row)).to.not.include(oldSecret).and.not.include(newSecret);
    expect(service.running.app.webhooks.cipher.decrypt(row.previous_signing_secret_encrypted, subscription.id)).to.equal(oldSecret);

    const during: Record<string, Check> = {
      'spec 6.3 holding the old secret': spec63(oldSecret),
      'standardwebhooks with the old whsec': standardWebhooks(oldWhsec),
      'standardwebhooks with the new whsec': standardWebhooks(newWhsec),
      '@ofctx/verifier [new, old]': ofctxVerifier([newSecret, oldSecret]),
      '@ofctx/verifier [old]': ofctxVerifier([oldSecret]),
      '@ofctx/verifier [new]': ofctxVerifier([newSecret]),
      '@ofctx/verifier [new whsec]': ofctxVerifier([newWhsec]),
    };
    const overlap = [...(await deliver(tenant, 4)), await testDelivery(tenant, subscription.id)];
    for (const delivery of overlap) {
      expect(String(delivery.headers['webhook-signature']).split(' ')).to.have.lengthOf(2);
      for (const [receiverKind, verifies] of Object.entries(during)) expect(verifies(delivery), receiverKind).to.equal(true);
    }

    await expireOverlap(subscription.id);
    const afterwards = [...(await deliver(tenant, 2)), await testDelivery(tenant, subscription.id)];
    for (const delivery of afterwards) {
      expect(String(delivery.headers['webhook-signature']).split(' ')).to.have.lengthOf(1);
      expect(spec63(newSecret)(delivery), 'spec 6.3 holding the new secret').to.equal(true);
      expect(standardWebhooks(newWhsec)(delivery)).to.equal(true);
      expect(ofctxVerifier([newSecret, oldSecret])(delivery)).to.equal(true);
      expect(spec63(oldSecret)(delivery)).to.equal(false);
      expect(standardWebhooks(oldWhsec)(delivery)).to.equal(false);
      expect(ofctxVerifier([oldSecret])(delivery)).to.equal(false);
    }
  });

  it('a spec 6.3 receiver that swaps its one secret at the end of the overlap loses nothing: the rejected attempt is retried, re-signed', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const rotation = (await rotate(tenant, subscription.id)).body.data as { signing_secret: string };
    // This receiver already holds only the new secret and answers 401 to anything else;
    // its first 401 is the moment the overlap ends.
    let expiring: Promise<unknown> | undefined;
    receiver.respond((request) => {
      if (spec63(rotation.signing_secret)(request)) return { status: 200 };
      expiring ??= expireOverlap(subscription.id);
      return { status: 401, delayMs: 100 };
    });
    const before = receiver.received.length;
    await service.emit(tenant);
    const deliveryId = String((await waitFor('the first attempt', () => receiver.received[before])).headers['x-service-delivery-id']);
    const record = await waitFor('the delivery to be delivered', async () => {
      const found = await findDelivery(service.running.app.db, deliveryId);
      return found?.status === 'delivered' ? found : undefined;
    });
    const attempts = receiver.deliveriesOf(deliveryId);
    expect(record.attempts).to.equal(attempts.length).and.be.at.least(2);
    expect(spec63(rotation.signing_secret)(attempts.at(-1)!)).to.equal(true);
  });

  it('rotating again during an overlap drops the oldest secret; the new pair signs', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const second = (await rotate(tenant, subscription.id)).body.data as { standard_webhooks_secret: string };
    const third = (await rotate(tenant, subscription.id)).body.data as { standard_webhooks_secret: string };
    const sample = await testDelivery(tenant, subscription.id);
    expect(standardWebhooks(third.standard_webhooks_secret)(sample)).to.equal(true);
    expect(standardWebhooks(second.standard_webhooks_secret)(sample)).to.equal(true);
    expect(standardWebhooks(subscription.standard_webhooks_secret)(sample)).to.equal(false);
  });

  it('answers 404 for another organization or an unknown id, 409 for a revoked subscription, 403 without webhooks.manage', async () => {
    const tenant = await service.tenant();
    const stranger = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const strangerPath = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${stranger.orgId}/webhooks/${subscription.id}/rotate-secret`, { token: stranger.token });
    expect(strangerPath.status).to.equal(404);
    expect((await rotate(tenant, '00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    const readOnly = await service.tenant(['residents.read']);
    expect((await call(service.baseUrl, 'POST', `/api/v1/ofctx/${readOnly.orgId}/webhooks/${subscription.id}/rotate-secret`, { token: readOnly.token })).status).to.equal(403);
    await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}`, { token: tenant.token });
    const revoked = await rotate(tenant, subscription.id);
    expect(revoked.status).to.equal(409);
    expect(revoked.body.error.code).to.equal('subscription_not_active');
  });
});
