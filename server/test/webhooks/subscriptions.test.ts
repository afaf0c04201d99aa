// Subscription management through the API, every answer checked against the contract:
// register, list, event types, revoke, test, the limit, scope and tenancy.
import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import { assertDeliveryMatchesContract } from '../../../test/support/contract.js';
import { call } from '../../../test/support/http.js';
import { EVENT_TYPES } from '../../src/db/event-types.js';
import { MAX_ACTIVE_SUBSCRIPTIONS } from '../../src/webhooks/subscriptions.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from './support/webhook-service.js';

describe('webhook subscription management', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  let tenant: Tenant;
  const path = (t: Tenant, rest = '') => `/api/v1/ofctx/${t.orgId}/webhooks${rest}`;

  before(async () => {
    service = await startWebhookService();
    receiver = await startReceiver();
    tenant = await service.tenant();
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  describe('register', () => {
    it('answers 201 with the active subscription and its signing secret, shown only this once', async () => {
      const answer = await service.register(tenant, { callback_url: receiver.url, event_types: ['resident.admitted', 'coverage.updated'], description: 'Eligibility sync' });
      expect(answer.status).to.equal(201);
      const created = answer.body.data;
      expect(created).to.include({ callback_url: receiver.url, description: 'Eligibility sync', signature_header: 'X-Service-Signature', status: 'active', revoked_at: null });
      expect(created.event_types).to.deep.equal(['resident.admitted', 'coverage.updated']);
      expect(created.signing_secret).to.match(/^ofx_whs_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(created.signing_secret.slice(8), 'base64url')).to.have.length(32);

      const listed = await call(service.baseUrl, 'GET', path(tenant), { token: tenant.token });
      const again = listed.body.data.find((s: { id: string }) => s.id === created.id);
      expect(again).to.not.have.property('signing_secret');
      expect(JSON.stringify(listed.body)).to.not.include(created.signing_secret);
      expect(created.standard_webhooks_secret).to.equal(`whsec_${Buffer.from(created.signing_secret).toString('base64')}`);
      expect(JSON.stringify(listed.body)).to.not.include(created.standard_webhooks_secret);
      const { signing_secret: _secret, standard_webhooks_secret: _whsec, ...withoutSecret } = created;
      expect(again).to.deep.equal(withoutSecret);
    });

    it('gives every subscription its own secret and a null description when none is sent', async () => {
      const a = await service.register(tenant, { callback_url: receiver.url, event_types: ['resident.discharged'] });
      const b = await service.register(tenant, { callback_url: receiver.url, event_types: ['resident.discharged'] });
      expect(a.body.data.description).to.equal(null);
      expect(a.body.data.signing_secret).to.not.equal(b.body.data.signing_secret);
      expect(a.headers.get('location')).to.equal(path(tenant));
    });

    const invalid: Array<[string, Record<string, unknown>, string]> = [
      ['no event types', { callback_url: 'https://partner.example/hook', event_types: [] }, 'body.event_types'],
      ['an unknown event type', { callback_url: 'https://partner.example/hook', event_types: ['resident.deleted'] }, 'body.event_types'],
      ['a repeated event type', { callback_url: 'https://partner.example/hook', event_types: ['coverage.updated', 'coverage.updated'] }, 'body.event_types'],
      ['no callback_url', { event_types: ['coverage.updated'] }, 'body'],
      ['a relative callback_url', { callback_url: '/hooks', event_types: ['coverage.updated'] }, 'body.callback_url'],
      ['an unknown field', { callback_url: 'https://partner.example/hook', event_types: ['coverage.updated'], secret: 'mine' }, 'body'],
    ];
    for (const [what, body, field] of invalid) {
      it(`refuses ${what} with 400 invalid_body`, async () => {
        const answer = await service.register(tenant, body);
        expect(answer.status).to.equal(400);
        expect(answer.body.error.code).to.equal('invalid_body');
        expect(answer.body.error.details.map((d: { field: string }) => d.field).join(' ')).to.include(field);
      });
    }

    it('refuses a non-http(s) scheme and credentials in the URL with 400 callback_url_not_allowed', async () => {
      for (const url of ['ftp://partner.example/hook', 'https://user:pass@partner.example/hook']) {
        const answer = await service.register(tenant, { callback_url: url, event_types: ['coverage.updated'] });
        expect(answer.status, url).to.equal(400);
        expect(answer.body.error.code).to.equal('callback_url_not_allowed');
        expect(answer.body.error.details[0].field).to.equal('body.callback_url');
      }
    });

    it(`allows ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions per organization, then answers 409 subscription_limit_reached`, async () => {
      const full = await service.tenant();
      const ids: string[] = [];
      for (let i = 0; i < MAX_ACTIVE_SUBSCRIPTIONS; i++) ids.push((await service.subscribe(full, receiver.url)).id);
      const refused = await service.register(full, { callback_url: receiver.url, event_types: ['resident.admitted'] });
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('subscription_limit_reached');
      // Revoked ones do not count.
      expect((await call(service.baseUrl, 'DELETE', path(full, `/${ids[0]}`), { token: full.token })).status).to.equal(200);
      expect((await service.register(full, { callback_url: receiver.url, event_types: ['resident.admitted'] })).status).to.equal(201);
      // The limit is per organization.
      expect((await service.register(tenant, { callback_url: receiver.url, event_types: ['resident.admitted'] })).status).to.equal(201);
    });
  });

  describe('list', () => {
    it('pages through the organization subscriptions, oldest first, revoked ones included', async () => {
      const own = await service.tenant();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await service.subscribe(own, receiver.url)).id);
      await call(service.baseUrl, 'DELETE', path(own, `/${ids[1]}`), { token: own.token });
      const all = await call(service.baseUrl, 'GET', path(own), { token: own.token });
      expect(all.status).to.equal(200);
      expect(all.body.data.map((s: { id: string }) => s.id)).to.deep.equal(ids);
      expect(all.body.data.map((s: { status: string }) => s.status)).to.deep.equal(['active', 'revoked', 'active']);
      expect(all.body.meta.page).to.deep.equal({ page: 1, page_size: 50, total: 3 });
      const second = await call(service.baseUrl, 'GET', path(own, '?page=2&page_size=2'), { token: own.token });
      expect(second.body.data.map((s: { id: string }) => s.id)).to.deep.equal([ids[2]]);
      expect(second.body.meta.page).to.deep.equal({ page: 2, page_size: 2, total: 3 });
    });
  });

  describe('event types', () => {
    it('lists every event type with its envelope version', async () => {
      const answer = await call(service.baseUrl, 'GET', path(tenant, '/event-types'), { token: tenant.token });
      expect(answer.status).to.equal(200);
      expect(answer.body.data.map((t: { event_type: string }) => t.event_type)).to.deep.equal([
        'resident.admitted',
        'resident.discharged',
        'resident.transferred',
        'resident.merged',
        'coverage.updated',
        'clinical.condition.created',
        'clinical.order.created',
        'clinical.result.created',
      ]);
      expect(answer.body.data.every((t: { api_version: string }) => t.api_version === 'v1')).to.equal(true);
      expect(answer.body.meta.page).to.deep.equal({ page: 1, page_size: EVENT_TYPES.length, total: EVENT_TYPES.length });
    });
  });

  describe('revoke', () => {
    it('revokes, and revoking again answers 200 with the same record', async () => {
      const { id } = await service.subscribe(tenant, receiver.url);
      const first = await call(service.baseUrl, 'DELETE', path(tenant, `/${id}`), { token: tenant.token });
      expect(first.status).to.equal(200);
      expect(first.body.data).to.include({ id, status: 'revoked' });
      expect(first.body.data.revoked_at).to.be.a('string');
      expect(first.body.data).to.not.have.property('signing_secret');
      const second = await call(service.baseUrl, 'DELETE', path(tenant, `/${id}`), { token: tenant.token });
      expect(second.status).to.equal(200);
      expect(second.body).to.deep.equal(first.body);
    });

    it("answers 404 for an unknown id and for another organization's subscription", async () => {
      const other = await service.tenant();
      const theirs = await service.subscribe(other, receiver.url);
      for (const id of [randomUUID(), theirs.id]) {
        const answer = await call(service.baseUrl, 'DELETE', path(tenant, `/${id}`), { token: tenant.token });
        expect(answer.status).to.equal(404);
        expect(answer.body.error.code).to.equal('not_found');
      }
      const list = await call(service.baseUrl, 'GET', path(other), { token: other.token });
      expect(list.body.data[0]).to.include({ id: theirs.id, status: 'active' });
    });
  });

  describe('test delivery', () => {
    it('returns the exact bytes, signature and headers of a delivery, verifiable with a plain HMAC, and sends and stores nothing', async () => {
      const { id, signing_secret: secret } = await service.subscribe(tenant, receiver.url, ['clinical.order.created']);
      const db = service.running.app.db;
      const count = async (table: string) => Number((await db(table).count({ n: '*' }).first())?.n);
      const [events, deliveries, received] = [await count('webhook_events'), await count('webhook_deliveries'), receiver.received.length];

      const answer = await call(service.baseUrl, 'POST', path(tenant, `/${id}/test`), { token: tenant.token, json: { event_type: 'resident.transferred' } });
      expect(answer.status).to.equal(200);
      const test = answer.body.data;
      const signature = createHmac('sha256', secret).update(Buffer.from(test.body, 'utf8')).digest('hex');
      expect(test.signature).to.equal(signature);
      expect(test.signature_header).to.equal('X-Service-Signature');
      const body = JSON.parse(test.body);
      expect(Object.keys(body)).to.deep.equal(['api_version', 'event_type', 'event_id', 'delivery_id', 'occurred_at', 'data']);
      expect(body).to.include({ api_version: 'v1', event_type: 'resident.transferred' });
      expect(body.data).to.include({ org_id: tenant.orgId, facility_id: tenant.facilityId });
      expect(test.headers).to.deep.equal({
        'Content-Type': 'application/json',
        'X-Service-Signature': signature,
        'X-Service-Delivery-Id': body.delivery_id,
        'X-Service-Event-Type': 'resident.transferred',
        'X-Service-Attempt': '1',
        'X-Service-Timestamp': test.headers['X-Service-Timestamp'],
        'webhook-id': body.delivery_id,
        'webhook-timestamp': test.headers['X-Service-Timestamp'],
        'webhook-signature': `v1,${createHmac('sha256', secret).update(`${body.delivery_id}.${test.headers['X-Service-Timestamp']}.${test.body}`).digest('base64')}`,
      });
      expect(Number(test.headers['X-Service-Timestamp'])).to.be.closeTo(Date.now() / 1000, 10);

      const again = (await call(service.baseUrl, 'POST', path(tenant, `/${id}/test`), { token: tenant.token, json: { event_type: 'resident.transferred' } })).body.data;
      expect(JSON.parse(again.body).delivery_id).to.not.equal(body.delivery_id);
      expect([await count('webhook_events'), await count('webhook_deliveries'), receiver.received.length]).to.deep.equal([events, deliveries, received]);
    });

    it('a test clinical.order.created names a kind of order, as a real one does; other types carry ids only', async () => {
      const { id } = await service.subscribe(tenant, receiver.url, ['clinical.order.created']);
      const test = async (eventType: string) => {
        const answer = await call(service.baseUrl, 'POST', path(tenant, `/${id}/test`), { token: tenant.token, json: { event_type: eventType } });
        const body = JSON.parse(answer.body.data.body);
        await assertDeliveryMatchesContract(body);
        return body.data;
      };
      const order = await test('clinical.order.created');
      expect(Object.keys(order)).to.deep.equal(['org_id', 'facility_id', 'resident_id', 'order_type']);
      expect(order.order_type).to.equal('MedicationRequest');
      expect(Object.keys(await test('clinical.condition.created'))).to.deep.equal(['org_id', 'facility_id', 'resident_id']);
    });

    it('answers 409 subscription_not_active for a revoked subscription, 404 for unknown or foreign ones, 400 for an unknown type', async () => {
      const { id } = await service.subscribe(tenant, receiver.url);
      await call(service.baseUrl, 'DELETE', path(tenant, `/${id}`), { token: tenant.token });
      const revoked = await call(service.baseUrl, 'POST', path(tenant, `/${id}/test`), { token: tenant.token, json: { event_type: 'resident.admitted' } });
      expect(revoked.status).to.equal(409);
      expect(revoked.body.error.code).to.equal('subscription_not_active');

      const other = await service.tenant();
      const theirs = await service.subscribe(other, receiver.url);
      for (const unknown of [randomUUID(), theirs.id]) {
        const answer = await call(service.baseUrl, 'POST', path(tenant, `/${unknown}/test`), { token: tenant.token, json: { event_type: 'resident.admitted' } });
        expect(answer.status).to.equal(404);
      }
      const active = await service.subscribe(tenant, receiver.url);
      const badType = await call(service.baseUrl, 'POST', path(tenant, `/${active.id}/test`), { token: tenant.token, json: { event_type: 'resident.deleted' } });
      expect(badType.status).to.equal(400);
      expect(badType.body.error.code).to.equal('invalid_body');
    });
  });

  describe('scope and tenancy', () => {
    it('needs webhooks.manage for every webhook operation: 403 insufficient_scope', async () => {
      const reader = await service.tenant(['residents.read', 'coverage.read']);
      const id = randomUUID();
      const operations: Array<[string, string, unknown]> = [
        ['POST', path(reader), { callback_url: receiver.url, event_types: ['resident.admitted'] }],
        ['GET', path(reader), undefined],
        ['GET', path(reader, '/event-types'), undefined],
        ['DELETE', path(reader, `/${id}`), undefined],
        ['POST', path(reader, `/${id}/test`), { event_type: 'resident.admitted' }],
      ];
      for (const [method, url, json] of operations) {
        const answer = await call(service.baseUrl, method, url, { token: reader.token, json });
        expect(answer.status, `${method} ${url}`).to.equal(403);
        expect(answer.body.error.code).to.equal('insufficient_scope');
        expect(answer.headers.get('www-authenticate')).to.include('scope="webhooks.manage"');
      }
    });

    it("refuses another organization's path with 403 organization_forbidden", async () => {
      const other = await service.tenant();
      const theirs = await service.subscribe(other, receiver.url);
      const foreign = { ...tenant, orgId: other.orgId };
      const operations: Array<[string, string, unknown]> = [
        ['POST', path(foreign), { callback_url: receiver.url, event_types: ['resident.admitted'] }],
        ['GET', path(foreign), undefined],
        ['GET', path(foreign, '/event-types'), undefined],
        ['DELETE', path(foreign, `/${theirs.id}`), undefined],
        ['POST', path(foreign, `/${theirs.id}/test`), { event_type: 'resident.admitted' }],
      ];
      for (const [method, url, json] of operations) {
        const answer = await call(service.baseUrl, method, url, { token: tenant.token, json });
        expect(answer.status, `${method} ${url}`).to.equal(403);
        expect(answer.body.error.code).to.equal('organization_forbidden');
      }
      const list = await call(service.baseUrl, 'GET', path(other), { token: other.token });
      expect(list.body.data.map((s: { status: string }) => s.status)).to.deep.equal(['active']);
    });

    it('records webhook operations in the audit trail, with the subscription id', async () => {
      const own = await service.tenant();
      const { id } = await service.subscribe(own, receiver.url);
      await call(service.baseUrl, 'DELETE', path(own, `/${id}`), { token: own.token });
      const rows = await service.running.app.db('audit_events').where({ org_id: own.orgId }).orderBy('seq').select('operation', 'status', 'resource_ids');
      expect(rows.map((r: { operation: string; status: number }) => [r.operation, Number(r.status)])).to.deep.equal([
        ['registerWebhook', 201],
        ['revokeWebhook', 200],
      ]);
      expect(JSON.parse(rows[0].resource_ids)).to.deep.equal([id]);
    });
  });
});
