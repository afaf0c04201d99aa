import { expect } from 'chai';
import nock from 'nock';
import { createHmac } from 'node:crypto';
import { createClientWithRuntime } from '../src/client.js';
import { ConflictError, ValidationError } from '../src/errors.js';
import type { components } from '../src/generated/openapi.js';
import {
  API_HEADERS,
  BASE_URL,
  CLIENT_ID,
  CLIENT_SECRET,
  errorEnvelope,
  listBody,
  ManualRuntime,
  mockToken,
  ORG_ID,
  readBody,
  rejectionOf,
  subscription,
  uuid,
  WEBHOOKS_PATH,
  useNock,
} from './fixtures/api.js';

const SIGNING_SECRET = 'ofx_whs_Q2hhbmdlTWVUaGlzSXNBbkV4YW1wbGVTZWNyZXQxMjM0NQ';

function createdSubscription(): components['schemas']['WebhookSubscriptionCreated'] {
  return { ...subscription(1), description: null, event_types: ['resident.admitted'], signing_secret: SIGNING_SECRET, standard_webhooks_secret: `whsec_${Buffer.from(SIGNING_SECRET).toString('base64')}` };
}

function testDelivery(): components['schemas']['WebhookTestDelivery'] {
  const body = JSON.stringify({
    api_version: 'v1',
    event_type: 'resident.admitted',
    event_id: uuid(11),
    delivery_id: uuid(12),
    occurred_at: '2026-11-22T10:00:00.000Z',
    data: { org_id: ORG_ID, facility_id: uuid(2), resident_id: uuid(3) },
  });
  const signature = createHmac('sha256', SIGNING_SECRET).update(body, 'utf8').digest('hex');
  return {
    body,
    signature,
    signature_header: 'X-Service-Signature',
    headers: {
      'Content-Type': 'application/json',
      'X-Service-Signature': signature,
      'X-Service-Delivery-Id': uuid(12),
      'X-Service-Event-Type': 'resident.admitted',
      'X-Service-Attempt': '1',
      'X-Service-Timestamp': '1795341600',
      'webhook-id': uuid(12),
      'webhook-timestamp': '1795341600',
      'webhook-signature': `v1,${createHmac('sha256', SIGNING_SECRET).update(`${uuid(12)}.1795341600.${body}`, 'utf8').digest('base64')}`,
    },
  };
}

describe('webhook management', () => {
  useNock();
  beforeEach(() => mockToken());
  const webhooks = () =>
    createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, new ManualRuntime()).webhooks(ORG_ID);

  it('register() sends the contract body and answers the subscription with its signing secret', async () => {
    nock(BASE_URL, { reqheaders: { 'content-type': 'application/json' } })
      .post(WEBHOOKS_PATH, {
        callback_url: 'https://partner.example/hooks/ofctx',
        event_types: ['resident.admitted', 'coverage.updated'],
        description: 'Eligibility sync',
      })
      .reply(201, readBody(createdSubscription()), { ...API_HEADERS, Location: WEBHOOKS_PATH });
    const created = await webhooks().register({
      callbackUrl: 'https://partner.example/hooks/ofctx',
      eventTypes: ['resident.admitted', 'coverage.updated'],
      description: 'Eligibility sync',
    });
    expect(created).to.deep.equal(createdSubscription());
    expect(created.signing_secret).to.equal(SIGNING_SECRET);
  });

  it('register() of a non-public callback URL is a ValidationError', async () => {
    nock(BASE_URL)
      .post(WEBHOOKS_PATH)
      .reply(
        400,
        errorEnvelope('callback_url_not_allowed', 'The callback URL must be https and resolve to public addresses.', [{ field: 'body.callback_url', issue: 'resolves to a private address' }]),
        API_HEADERS,
      );
    const error = await rejectionOf(webhooks().register({ callbackUrl: 'https://10.0.0.1/hook', eventTypes: ['resident.admitted'] }));
    expect(error).to.be.instanceOf(ValidationError);
    expect(error).to.include({ code: 'callback_url_not_allowed' });
  });

  it('register() past the subscription limit is a ConflictError', async () => {
    nock(BASE_URL)
      .post(WEBHOOKS_PATH)
      .reply(409, errorEnvelope('subscription_limit_reached', 'The organization already has 50 active subscriptions.'), API_HEADERS);
    const error = await rejectionOf(webhooks().register({ callbackUrl: 'https://partner.example/hook', eventTypes: ['resident.admitted'] }));
    expect(error).to.be.instanceOf(ConflictError);
  });

  it('list() answers a page of subscriptions; all() walks every page', async () => {
    nock(BASE_URL).get(WEBHOOKS_PATH).query({ page: '1', page_size: '1' }).twice().reply(200, listBody([subscription(1)], 1, 1, 2), API_HEADERS);
    nock(BASE_URL).get(WEBHOOKS_PATH).query({ page: '2', page_size: '1' }).reply(200, listBody([subscription(2, 'revoked')], 2, 1, 2), API_HEADERS);
    const client = webhooks();
    expect((await client.list({ page: 1, pageSize: 1 })).page).to.deep.equal({ page: 1, pageSize: 1, total: 2 });
    const statuses: string[] = [];
    for await (const s of client.all({ pageSize: 1 })) statuses.push(s.status);
    expect(statuses).to.deep.equal(['active', 'revoked']);
  });

  it('eventTypes() answers the event types', async () => {
    const types: components['schemas']['EventTypeInfo'][] = [
      { event_type: 'resident.admitted', api_version: 'v1', description: 'A resident is admitted to a facility.' },
      { event_type: 'coverage.updated', api_version: 'v1', description: "A resident's payer coverage changes." },
    ];
    nock(BASE_URL).get(`${WEBHOOKS_PATH}/event-types`).reply(200, listBody(types, 1, 2, 2), API_HEADERS);
    expect(await webhooks().eventTypes()).to.deep.equal(types);
  });

  it('revoke() answers the revoked subscription', async () => {
    nock(BASE_URL).delete(`${WEBHOOKS_PATH}/${uuid(1)}`).reply(200, readBody(subscription(1, 'revoked')), API_HEADERS);
    const revoked = await webhooks().revoke(uuid(1));
    expect(revoked).to.include({ id: uuid(1), status: 'revoked' });
  });

  it('test() answers the signed delivery: exact body, signature and headers', async () => {
    nock(BASE_URL).post(`${WEBHOOKS_PATH}/${uuid(1)}/test`, { event_type: 'resident.admitted' }).reply(200, readBody(testDelivery()), API_HEADERS);
    const delivery = await webhooks().test(uuid(1), 'resident.admitted');
    const expected = testDelivery();
    expect(delivery).to.deep.equal({ body: expected.body, signature: expected.signature, signatureHeader: 'X-Service-Signature', headers: expected.headers });
    expect(createHmac('sha256', SIGNING_SECRET).update(delivery.body, 'utf8').digest('hex')).to.equal(delivery.headers[delivery.signatureHeader]);
  });

  it('test() of a revoked subscription is a ConflictError', async () => {
    nock(BASE_URL).post(`${WEBHOOKS_PATH}/${uuid(1)}/test`).reply(409, errorEnvelope('subscription_not_active', 'The subscription is revoked; register a new one.'), API_HEADERS);
    const error = await rejectionOf(webhooks().test(uuid(1), 'resident.admitted'));
    expect(error).to.be.instanceOf(ConflictError);
    expect(error).to.include({ code: 'subscription_not_active' });
  });
});
