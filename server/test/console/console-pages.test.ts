// The console over HTTP, every answer checked against the contract: signed in by a link
// once; a bearer token, a second use of the link, a forged CSRF token or another origin get
// nothing; deliveries are redelivered, recovered and their subscription enabled through the
// webhook module's own operations; clients and a resident's disclosures are shown without a
// secret; every view and action is in the audit trail; sign-out ends the session.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { call } from '../../../test/support/http.js';
import { consoleLinkToken, signInToConsole, type ConsoleBrowser } from '../../../test/support/console.js';
import { findDelivery } from '../../src/webhooks/delivery-store.js';
import { endSubscription } from '../../src/webhooks/subscriptions.js';
import { createClient, findClient, revokeClient } from '../../src/auth/clients.js';
import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../src/http/security-headers.js';
import { loadOpenApiDocument } from '../../src/openapi/openapi-document.js';
import { startReceiver, waitFor, type Receiver } from '../webhooks/support/receiver.js';
import { ALL_SCOPES, startWebhookService, type Tenant, type WebhookTestService } from '../webhooks/support/webhook-service.js';

describe('the operators\' console over HTTP', function () {
  this.timeout(60_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  let tenant: Tenant;
  let console_: ConsoleBrowser;

  before(async () => {
    service = await startWebhookService({ env: { WEBHOOK_RETRY_SCHEDULE: '0' } });
    receiver = await startReceiver(() => ({ status: 500 }));
    tenant = await service.tenant();
    console_ = await signInToConsole(service.baseUrl, await consoleLinkToken(service.running.app.db, tenant.orgId, 'Ana Operator'));
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  const db = () => service.running.app.db;
  const settled = (id: string, status: string) => waitFor(`delivery ${id} to be ${status}`, async () => ((await findDelivery(db(), id))?.status === status ? true : undefined));
  async function failedDelivery(subscriptionId: string): Promise<string> {
    receiver.respond(() => ({ status: 500 }));
    const { event_id } = await service.emit(tenant);
    const id = await waitFor('the delivery', async () => (await db()('webhook_deliveries').where({ event_id, subscription_id: subscriptionId }).first('id'))?.id as string | undefined);
    await settled(id, 'failed');
    return id;
  }

  it('signs in by a link once: the cookie is HttpOnly and SameSite=Strict, a second use is refused', async () => {
    const token = await consoleLinkToken(db(), tenant.orgId);
    const page = await call<string>(service.baseUrl, 'GET', `/console/sign-in?token=${token}`, { headers: { accept: 'text/html' } });
    expect(page.status).to.equal(200);
    expect(page.body).to.include('Sign in to the console');
    const first = await call<string>(service.baseUrl, 'POST', '/console/sign-in', { form: { token }, redirect: 'manual' });
    expect(first.status).to.equal(303);
    expect(first.headers.get('location')).to.equal('/console');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).to.match(/^ofctx_console=[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}; /);
    expect(cookie).to.include('HttpOnly').and.include('SameSite=Strict').and.include('Path=/console');
    // The test service listens on 127.0.0.1 over plain HTTP: the one case without Secure.
    expect(cookie).not.to.include('Secure');
    const second = await call<string>(service.baseUrl, 'POST', '/console/sign-in', { form: { token }, redirect: 'manual' });
    expect(second.status).to.equal(401);
    expect(second.headers.get('content-type')).to.match(/^text\/html/);
    expect(second.body).to.include('used already or has expired');
    expect(second.headers.get('set-cookie')).to.equal(null);
  });

  it('gives a partner bearer token nothing from any console page or form', async () => {
    const { document } = loadOpenApiDocument() as unknown as { document: { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> } };
    const guarded = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.security?.some((s) => 'consoleSession' in s))
        .map(([method]) => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, randomUUID())] as const),
    );
    expect(guarded.length).to.be.at.least(8);
    for (const [method, path] of guarded) {
      const answer = await call<string>(service.baseUrl, method, path, { token: tenant.token, redirect: 'manual', ...(method === 'POST' ? { form: { csrf_token: 'x', since: '2026-01-01T00:00' } } : {}) });
      expect(answer.status, `${method} ${path}`).to.equal(401);
      expect(answer.body).to.include('Sign in to the console');
      expect(answer.body).not.to.include(tenant.orgId);
    }
  });

  it('serves every page with the strict Content-Security-Policy and no-store, errors included', async () => {
    for (const path of ['/console', '/console/deliveries', '/console/clients', '/console/disclosures', `/console/deliveries/${randomUUID()}`, '/console/no-such-page']) {
      const answer = await console_.get(path);
      expect(answer.headers.get('content-security-policy'), path).to.equal(CONSOLE_CONTENT_SECURITY_POLICY);
      expect(answer.headers.get('cache-control'), path).to.equal('no-store');
      expect(answer.headers.get('content-type'), path).to.match(/^text\/html/);
      expect(answer.body, path).not.to.match(/<script|style=/i);
    }
    expect(CONSOLE_CONTENT_SECURITY_POLICY).to.include("default-src 'none'").and.not.include('unsafe');
  });

  it('redelivers a failed delivery from its page, and refuses a forged CSRF token or another origin', async () => {
    const subscription = await service.subscribe(tenant, receiver.url);
    const id = await failedDelivery(subscription.id);
    const page = await console_.get(`/console/deliveries/${id}`);
    expect(page.status).to.equal(200);
    expect(page.body).to.include('Redeliver').and.include('http_status');
    const forged = await console_.post(`/console/deliveries/${id}/redeliver`, { csrf_token: 'forged' + (await console_.csrfToken()).slice(6) });
    expect(forged.status).to.equal(403);
    expect(forged.body).to.include('Form refused');
    const crossSite = await call<string>(service.baseUrl, 'POST', `/console/deliveries/${id}/redeliver`, {
      form: { csrf_token: await console_.csrfToken() },
      headers: { cookie: console_.cookie, origin: 'https://evil.example' },
      redirect: 'manual',
    });
    expect(crossSite.status).to.equal(403);
    expect((await findDelivery(db(), id))!.status).to.equal('failed');
    receiver.respond(() => ({ status: 204 }));
    const done = await console_.post(`/console/deliveries/${id}/redeliver`);
    expect(done.status).to.equal(303);
    expect(done.headers.get('location')).to.equal(`/console/deliveries/${id}`);
    await settled(id, 'delivered');
    const after = await console_.get(`/console/deliveries/${id}`);
    expect(after.body).to.include(`Delivery ${id} is queued again`);
    // The outcome is shown once.
    expect((await console_.get(`/console/deliveries/${id}`)).body).not.to.include('is queued again');
    expect(receiver.deliveriesOf(id).length).to.equal(3);
  });

  it('enables a disabled subscription and recovers its failed deliveries', async () => {
    const subscription = await service.subscribe(tenant, receiver.url);
    const id = await failedDelivery(subscription.id);
    await endSubscription(db(), subscription.id, 'disabled', { reason: 'failing' });
    const listed = await console_.get(`/console/deliveries?subscription=${subscription.id}`);
    expect(listed.body).to.include('Enable').and.include(id);
    const since = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
    const refused = await console_.post(`/console/subscriptions/${subscription.id}/recover`, { since });
    expect(refused.status).to.equal(303);
    expect((await console_.get(refused.headers.get('location')!)).body).to.include('enable it first');
    expect((await console_.post(`/console/subscriptions/${subscription.id}/enable`)).status).to.equal(303);
    expect((await db()('webhook_subscriptions').where({ id: subscription.id }).first('status')).status).to.equal('active');
    receiver.respond(() => ({ status: 204 }));
    const recovered = await console_.post(`/console/subscriptions/${subscription.id}/recover`, { since });
    expect(recovered.status).to.equal(303);
    expect((await console_.get(recovered.headers.get('location')!)).body).to.match(/1 failed or cancelled deliveries since .* are queued again/);
    await settled(id, 'delivered');
    const bad = await console_.post(`/console/subscriptions/${subscription.id}/recover`, { since: 'yesterday' });
    expect(bad.status).to.equal(400);
  });

  it('does not enable a subscription whose credential was revoked, saying which credential can take it over', async () => {
    const db_ = db();
    const owner = await createClient(db_, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name: 'rotated away' });
    const ownerToken = (await service.running.app.tokens.issue((await findClient(db_, owner.client_id))!, ALL_SCOPES)).token;
    const registered = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks`, { token: ownerToken, json: { callback_url: receiver.url, event_types: ['resident.admitted'] } });
    const id = registered.body.data.id as string;
    await revokeClient(db_, owner.client_id);
    const refused = await console_.post(`/console/subscriptions/${id}/enable`);
    expect(refused.status).to.equal(303);
    expect((await console_.get(refused.headers.get('location')!)).body).to.include('the credential that owns it was revoked');
    expect((await db_('webhook_subscriptions').where({ id }).first('status', 'disabled_reason'))).to.deep.equal({ status: 'disabled', disabled_reason: 'credential_revoked' });
  });

  it("answers 404 for another organization's delivery or subscription", async () => {
    const other = await service.tenant();
    const subscription = await service.subscribe(other, receiver.url);
    receiver.respond(() => ({ status: 204 }));
    const { event_id } = await service.emit(other);
    const id = await waitFor('the delivery', async () => (await db()('webhook_deliveries').where({ event_id }).first('id'))?.id as string | undefined);
    expect((await console_.get(`/console/deliveries/${id}`)).status).to.equal(404);
    expect((await console_.post(`/console/deliveries/${id}/redeliver`)).status).to.equal(404);
    expect((await console_.post(`/console/subscriptions/${subscription.id}/enable`)).status).to.equal(404);
    expect((await console_.get('/console/deliveries')).body).not.to.include(id);
  });

  it('lists clients and their policies without a secret, and a resident\'s disclosures', async () => {
    const clients = await console_.get('/console/clients');
    expect(clients.body).to.include(tenant.client.client_id).and.include('HOPERAT').and.include('Granted Facility');
    expect(clients.body).not.to.include(tenant.client.client_secret);
    const residentId = randomUUID();
    await service.seed.data({ orgId: tenant.orgId, facilityId: tenant.facilityId, residents: 1 });
    const resident = (await db()('residents').where({ facility_id: tenant.facilityId }).first('id')) as { id: string };
    const read = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/residents/${resident.id}`, { token: tenant.token });
    expect(read.status).to.equal(200);
    const disclosures = await console_.get(`/console/disclosures?resident=${resident.id}`);
    expect(disclosures.status).to.equal(200);
    expect(disclosures.body).to.include(tenant.client.client_id).and.include('getResident');
    expect((await console_.get(`/console/disclosures?resident=${residentId}`)).body).to.include('No disclosure');
    expect((await console_.get('/console/disclosures?resident=not-a-uuid')).status).to.equal(400);
  });

  it('records every view and action in the audit trail under the console session, and signs out for good', async () => {
    const browser = await signInToConsole(service.baseUrl, await consoleLinkToken(db(), tenant.orgId));
    await browser.get('/console/clients');
    const forged = await browser.post('/console/sign-out', { csrf_token: 'forged' });
    expect(forged.status).to.equal(403);
    const out = await browser.post('/console/sign-out');
    expect(out.status).to.equal(303);
    expect(out.headers.get('set-cookie')).to.match(/^ofctx_console=; Max-Age=0; Path=\/console/);
    expect((await browser.get('/console')).status).to.equal(401);
    const sessionId = browser.cookie.slice('ofctx_console='.length, 'ofctx_console='.length + 36);
    // Group-committed before each answer: all there.
    const rows = await db()('audit_events').where({ client_id: `console:${sessionId}` }).orderBy('seq').select('operation', 'status', 'org_id');
    expect(rows.map((r: { operation: string; status: number }) => `${r.operation} ${r.status}`)).to.deep.equal([
      'consoleSignIn 303',
      'consoleClients 200',
      'consoleSignOut 403',
      'consoleOverview 200',
      'consoleSignOut 303',
    ]);
    expect(rows.every((r: { org_id: string }) => r.org_id === tenant.orgId)).to.equal(true);
  });
});
