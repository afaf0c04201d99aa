// A partner sees and recovers its own deliveries through the API: every attempt with its
// status code, duration and error class; one delivery sent again, or every failed and
// cancelled one since a time, with the same bytes and a new signature; another
// organization's ids are 404, and so are deliveries of events in a facility the credential is
// not granted; a subscription failing for the whole window, or whose credential is revoked,
// is disabled, says why, and is enabled again.
import { expect } from 'chai';
import { call } from '../../../test/support/http.js';
import { findDelivery } from '../../src/webhooks/delivery-store.js';
import { createClient, findClient, revokeClient } from '../../src/auth/clients.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { ALL_SCOPES, startWebhookService, type Tenant, type WebhookTestService } from './support/webhook-service.js';

describe('a partner\'s own deliveries', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;

  before(async () => {
    // One retry, immediate: a receiver answering 500 leaves a failed delivery of 2 attempts.
    service = await startWebhookService({ env: { WEBHOOK_RETRY_SCHEDULE: '0' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  const path = (tenant: Tenant, rest = '') => `/api/v1/ofctx/${tenant.orgId}/webhooks${rest}`;
  const settled = (id: string, status: string) =>
    waitFor(`delivery ${id} to be ${status}`, async () => ((await findDelivery(service.running.app.db, id))?.status === status ? true : undefined));

  async function failedDelivery(tenant: Tenant, subscriptionId: string): Promise<any> {
    receiver.respond(() => ({ status: 500 }));
    const { event_id } = await service.emit(tenant);
    const id = await waitFor('the delivery', async () => (await service.running.app.db('webhook_deliveries').where({ event_id }).first('id'))?.id as string | undefined);
    await settled(id, 'failed');
    const list = await call(service.baseUrl, 'GET', path(tenant, `/${subscriptionId}/deliveries?status=failed`), { token: tenant.token });
    return list.body.data.find((d: { id: string }) => d.id === id);
  }

  it('lists each delivery newest first with every attempt: status code, duration and error class, nothing of the answer', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const failed = await failedDelivery(tenant, subscription.id);
    expect(failed).to.include({ status: 'failed', event_type: 'resident.admitted', facility_id: tenant.facilityId, delivered_at: null, next_attempt_at: null });
    expect(failed.attempts.map((a: any) => [a.status_code, a.error])).to.deep.equal([
      [500, 'http_status'],
      [500, 'http_status'],
    ]);
    for (const attempt of failed.attempts) {
      expect(Object.keys(attempt).sort()).to.deep.equal(['at', 'duration_ms', 'error', 'status_code']);
      expect(attempt.duration_ms).to.be.a('number').and.at.least(0);
    }
    receiver.respond(() => ({ status: 204 }));
    const { event_id } = await service.emit(tenant);
    const deliveredId = await waitFor('the second delivery', async () => (await service.running.app.db('webhook_deliveries').where({ event_id }).first('id'))?.id as string | undefined);
    await settled(deliveredId, 'delivered');
    const all = await call(service.baseUrl, 'GET', path(tenant, `/${subscription.id}/deliveries`), { token: tenant.token });
    expect(all.status).to.equal(200);
    expect(all.body.meta.page).to.include({ page: 1, total: 2 });
    expect(all.body.data.map((d: any) => d.id)).to.deep.equal([deliveredId, failed.id]);
    expect(all.body.data[0].delivered_at).to.be.a('string');
    expect(all.body.data[0].attempts.map((a: any) => [a.status_code, a.error])).to.deep.equal([[204, null]]);
    const onlyDelivered = await call(service.baseUrl, 'GET', path(tenant, `/${subscription.id}/deliveries?status=delivered`), { token: tenant.token });
    expect(onlyDelivered.body.data.map((d: any) => d.id)).to.deep.equal([deliveredId]);
  });

  it('redelivers one delivery with the same bytes and delivery id and a new signature, once', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const failed = await failedDelivery(tenant, subscription.id);
    const [first] = receiver.deliveriesOf(failed.id);
    receiver.respond(() => ({ status: 200 }));
    const answer = await call(service.baseUrl, 'POST', path(tenant, `/${subscription.id}/deliveries/${failed.id}/redeliver`), { token: tenant.token });
    expect(answer.status).to.equal(202);
    expect(answer.body.data).to.include({ id: failed.id, event_id: failed.event_id });
    await settled(failed.id, 'delivered');
    const sent = receiver.deliveriesOf(failed.id);
    expect(sent).to.have.length(3);
    expect(sent[2]!.body.equals(first!.body)).to.equal(true);
    expect(sent[2]!.headers['x-service-attempt']).to.equal('3');
    expect(sent[2]!.headers['webhook-signature']).to.be.a('string');
    // Already delivered: sending it again is allowed; while queued it is refused.
    const again = await call(service.baseUrl, 'POST', path(tenant, `/${subscription.id}/deliveries/${failed.id}/redeliver`), { token: tenant.token });
    expect(again.status).to.equal(202);
    const queued = await call(service.baseUrl, 'POST', path(tenant, `/${subscription.id}/deliveries/${failed.id}/redeliver`), { token: tenant.token });
    if (queued.status === 409) expect(queued.body.error.code).to.equal('delivery_already_queued');
    else expect(queued.status).to.equal(202); // the worker was faster than this request
    await settled(failed.id, 'delivered');
  });

  it('recovers every failed or cancelled delivery since a time, each exactly once more', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const old = await failedDelivery(tenant, subscription.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date().toISOString();
    const a = await failedDelivery(tenant, subscription.id);
    const b = await failedDelivery(tenant, subscription.id);
    receiver.respond(() => ({ status: 200 }));
    const answer = await call(service.baseUrl, 'POST', path(tenant, `/${subscription.id}/recover`), { token: tenant.token, json: { since } });
    expect(answer.status).to.equal(202);
    expect(answer.body.data).to.deep.equal({ queued: 2, since });
    await settled(a.id, 'delivered');
    await settled(b.id, 'delivered');
    expect(receiver.deliveriesOf(a.id)).to.have.length(3);
    expect(receiver.deliveriesOf(b.id)).to.have.length(3);
    expect(receiver.deliveriesOf(old.id)).to.have.length(2);
    expect((await findDelivery(service.running.app.db, old.id))!.status).to.equal('failed');
    // Nothing left to recover.
    const nothing = await call(service.baseUrl, 'POST', path(tenant, `/${subscription.id}/recover`), { token: tenant.token, json: { since } });
    expect(nothing.body.data.queued).to.equal(0);
    const bad = await call(service.baseUrl, 'POST', path(tenant, `/${subscription.id}/recover`), { token: tenant.token, json: { since: 'yesterday' } });
    expect(bad.status).to.equal(400);
  });

  it('answers 404 for another organization\'s subscription and deliveries, and 403 without webhooks.manage', async () => {
    const mine = await service.tenant();
    const theirs = await service.tenant();
    const subscription = await service.subscribe(theirs, receiver.url);
    const failed = await failedDelivery(theirs, subscription.id);
    for (const [method, rest, json] of [
      ['GET', `/${subscription.id}`, undefined],
      ['GET', `/${subscription.id}/deliveries`, undefined],
      ['POST', `/${subscription.id}/deliveries/${failed.id}/redeliver`, undefined],
      ['POST', `/${subscription.id}/recover`, { since: '2020-01-01T00:00:00Z' }],
      ['POST', `/${subscription.id}/enable`, undefined],
    ] as const) {
      const answer = await call(service.baseUrl, method, path(mine, rest), { token: mine.token, json });
      expect(answer.status, `${method} ${rest}`).to.equal(404);
    }
    // Their delivery under my own subscription is not found either.
    const own = await service.subscribe(mine, receiver.url);
    const crossed = await call(service.baseUrl, 'POST', path(mine, `/${own.id}/deliveries/${failed.id}/redeliver`), { token: mine.token });
    expect(crossed.status).to.equal(404);
    const reader = await service.tenant(['residents.read']);
    const refused = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${reader.orgId}/webhooks/${subscription.id}/deliveries`, { token: reader.token });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('insufficient_scope');
  });

  it("shows another credential of the organization only the deliveries of events in its facilities: another facility's are not found, nor recovered", async () => {
    const tenant = await service.tenant();
    const db = service.running.app.db;
    // The subscription is registered by a credential granted both facilities, and delivered events of both.
    const wide = await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId, tenant.otherFacilityId], scopes: ALL_SCOPES, name: 'both facilities' });
    const wideToken = (await service.running.app.tokens.issue((await findClient(db, wide.client_id))!, ALL_SCOPES)).token;
    const registered = await call(service.baseUrl, 'POST', path(tenant), { token: wideToken, json: { callback_url: receiver.url, event_types: ['resident.admitted'] } });
    expect(registered.status).to.equal(201);
    const subscriptionId = registered.body.data.id as string;
    const since = new Date().toISOString();
    const here = await failedDelivery(tenant, subscriptionId);
    const { event_id } = await service.emit(tenant, { facilityId: tenant.otherFacilityId });
    const there = await waitFor('the other facility\'s delivery', async () => (await db('webhook_deliveries').where({ event_id }).first('id'))?.id as string | undefined);
    await settled(there, 'failed');
    const listed = await call(service.baseUrl, 'GET', path(tenant, `/${subscriptionId}/deliveries`), { token: tenant.token });
    expect(listed.body.data.map((d: { id: string }) => d.id)).to.deep.equal([here.id]);
    expect(listed.body.meta.page.total).to.equal(1);
    const seenByWide = await call(service.baseUrl, 'GET', path(tenant, `/${subscriptionId}/deliveries`), { token: wideToken });
    expect(seenByWide.body.data.map((d: { id: string }) => d.id)).to.deep.equal([there, here.id]);
    const redelivered = await call(service.baseUrl, 'POST', path(tenant, `/${subscriptionId}/deliveries/${there}/redeliver`), { token: tenant.token });
    expect(redelivered.status).to.equal(404);
    receiver.respond(() => ({ status: 200 }));
    const recovered = await call(service.baseUrl, 'POST', path(tenant, `/${subscriptionId}/recover`), { token: tenant.token, json: { since } });
    expect(recovered.body.data.queued).to.equal(1);
    await settled(here.id, 'delivered');
    expect((await findDelivery(db, there))!.status).to.equal('failed');
  });

  it('is disabled when the credential that registered it is revoked, says so, and is taken over by the credential of the organization that enables it', async () => {
    const tenant = await service.tenant();
    const db = service.running.app.db;
    receiver.respond(() => ({ status: 200 }));
    const subscription = await service.subscribe(tenant, receiver.url);
    // The partner rotates its credential: a new one issued, the old one revoked.
    const successor = await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name: 'successor' });
    const successorToken = (await service.running.app.tokens.issue((await findClient(db, successor.client_id))!, ALL_SCOPES)).token;
    await revokeClient(db, tenant.client.client_id);
    const read = await call(service.baseUrl, 'GET', path(tenant, `/${subscription.id}`), { token: successorToken });
    expect(read.body.data).to.include({ status: 'disabled', disabled_reason: 'credential_revoked' });
    // Nothing is sent to it meanwhile, and it says why: not active and silent.
    expect((await service.emit(tenant)).deliveries).to.equal(0);
    const enabled = await call(service.baseUrl, 'POST', path(tenant, `/${subscription.id}/enable`), { token: successorToken });
    expect(enabled.status).to.equal(200);
    expect(enabled.body.data).to.include({ status: 'active', disabled_reason: null });
    const { event_id, deliveries } = await service.emit(tenant);
    expect(deliveries).to.equal(1);
    const id = await waitFor('the delivery', async () => (await db('webhook_deliveries').where({ event_id, subscription_id: subscription.id }).first('id'))?.id as string | undefined);
    await settled(id, 'delivered');
  });

  it('refuses to redeliver or recover for a revoked subscription, and never enables it', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const failed = await failedDelivery(tenant, subscription.id);
    await call(service.baseUrl, 'DELETE', path(tenant, `/${subscription.id}`), { token: tenant.token });
    for (const [rest, json] of [[`/${subscription.id}/deliveries/${failed.id}/redeliver`, undefined], [`/${subscription.id}/recover`, { since: '2020-01-01T00:00:00Z' }], [`/${subscription.id}/enable`, undefined]] as const) {
      const answer = await call(service.baseUrl, 'POST', path(tenant, rest), { token: tenant.token, json });
      expect(answer.status, rest).to.equal(409);
      expect(answer.body.error.code).to.equal('subscription_not_active');
    }
  });
});

describe('a subscription failing for the whole window', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;

  before(async () => {
    // A window of 1.8 s, retries every 0.2 s: the receiver fails longer than the window.
    service = await startWebhookService({ env: { WEBHOOK_DISABLE_AFTER_HOURS: '0.0005', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2' } });
    receiver = await startReceiver(() => ({ status: 500 }));
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('is disabled with reason failing, keeps its backlog recoverable, and is enabled again', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    const { event_id } = await service.emit(tenant);
    const read = () => call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}`, { token: tenant.token });
    const failing = await waitFor('failing_since to be noted', async () => ((await read()).body.data.failing_since ? true : undefined), 10_000, 100);
    expect(failing).to.equal(true);
    const disabled = await waitFor('the subscription to be disabled', async () => {
      const answer = await read();
      return answer.body.data.status === 'disabled' ? answer.body.data : undefined;
    }, 15_000, 100);
    expect(disabled).to.include({ status: 'disabled', disabled_reason: 'failing' });
    expect(disabled.revoked_at).to.be.a('string');
    expect(Date.parse(disabled.revoked_at) - Date.parse(disabled.failing_since)).to.be.at.least(1800);
    expect(service.logs()).to.include('webhook subscription disabled: every attempt failed for the whole window');
    const deliveries = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}/deliveries`, { token: tenant.token });
    const [delivery] = deliveries.body.data;
    expect(delivery).to.include({ event_id, status: 'cancelled' });
    expect(delivery.attempts.length).to.be.at.least(2);

    receiver.respond(() => ({ status: 200 }));
    const enabled = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}/enable`, { token: tenant.token });
    expect(enabled.status).to.equal(200);
    expect(enabled.body.data).to.include({ status: 'active', disabled_reason: null, failing_since: null, revoked_at: null });
    const recovered = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}/recover`, { token: tenant.token, json: { since: '2020-01-01T00:00:00Z' } });
    expect(recovered.body.data.queued).to.equal(1);
    await waitFor('the recovered delivery', async () => ((await findDelivery(service.running.app.db, delivery.id))?.status === 'delivered' ? true : undefined));
    // Enabling an active subscription answers it unchanged.
    const again = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}/enable`, { token: tenant.token });
    expect(again.body.data.status).to.equal('active');
  });

  it('is not disabled while attempts keep succeeding now and then', async () => {
    const tenant = await service.tenant();
    const subscription = await service.subscribe(tenant, receiver.url);
    receiver.respond(() => ({ status: 200 }));
    const { event_id } = await service.emit(tenant);
    await waitFor('a success', async () => ((await service.running.app.db('webhook_deliveries').where({ event_id }).first('status'))?.status === 'delivered' ? true : undefined));
    // A stale note (as another instance's failure might leave) with a success after it:
    // the sweep repairs the note instead of disabling.
    await service.running.app.db('webhook_subscriptions').where({ id: subscription.id }).update({ failing_since: '2000-01-01T00:00:00.000Z' });
    expect(await service.running.webhooks.disableFailingSubscriptions()).to.not.include(subscription.id);
    const read = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks/${subscription.id}`, { token: tenant.token });
    expect(read.body.data).to.include({ status: 'active', failing_since: null });
  });
});
