import { expect } from 'chai';
import nock from 'nock';
import { createClient, createClientWithRuntime } from '../src/client.js';
import { AuthenticationError, OfctxError } from '../src/errors.js';
import { SDK_VERSION } from '../src/version.js';
import {
  API_HEADERS,
  BASE_URL,
  CLIENT_ID,
  CLIENT_SECRET,
  errorEnvelope,
  FACILITY_ID,
  FACILITY_PATH,
  listBody,
  ManualRuntime,
  mockToken,
  ORG_ID,
  patient,
  rejectionOf,
  useNock,
} from './fixtures/api.js';

const RESIDENTS = `${FACILITY_PATH}/residents`;
const invalidToken = () => errorEnvelope('invalid_token', 'The access token is invalid or expired; request a new one at /api/v1/oauth/token.');
const challenge = { ...API_HEADERS, 'WWW-Authenticate': 'Bearer realm="ofctx", error="invalid_token"' };

describe('authenticated requests', () => {
  useNock();
  const options = { baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
  const client = () => createClientWithRuntime(options, new ManualRuntime());

  it('sends the bearer token, Accept and the SDK User-Agent', async () => {
    mockToken('ofx_at_first');
    nock(BASE_URL, {
      reqheaders: {
        authorization: 'Bearer ofx_at_first',
        accept: 'application/json',
        'user-agent': `ofctx-sdk-node/${SDK_VERSION} (node ${process.version}) acme-eligibility/2.3`,
      },
    })
      .get(RESIDENTS)
      .reply(200, listBody([patient(1)], 1, 50, 1), API_HEADERS);
    await createClient({ ...options, userAgent: 'acme-eligibility/2.3' }).facility(ORG_ID, FACILITY_ID).residents.list();
  });

  it('sends the User-Agent on the token request too', async () => {
    nock(BASE_URL, { reqheaders: { 'user-agent': `ofctx-sdk-node/${SDK_VERSION} (node ${process.version})` } })
      .post('/api/v1/oauth/token')
      .reply(200, { access_token: 'ofx_at_first', token_type: 'Bearer', expires_in: 3600, scope: 'residents.read' });
    nock(BASE_URL).get(RESIDENTS).reply(200, listBody([], 1, 50, 0), API_HEADERS);
    await client().facility(ORG_ID, FACILITY_ID).residents.list();
  });

  it('on 401, fetches a fresh token and retries once', async () => {
    mockToken('ofx_at_revoked');
    mockToken('ofx_at_fresh');
    nock(BASE_URL, { reqheaders: { authorization: 'Bearer ofx_at_revoked' } }).get(RESIDENTS).reply(401, invalidToken(), challenge);
    nock(BASE_URL, { reqheaders: { authorization: 'Bearer ofx_at_fresh' } }).get(RESIDENTS).reply(200, listBody([patient(1)], 1, 50, 1), API_HEADERS);
    expect((await client().facility(ORG_ID, FACILITY_ID).residents.list()).data).to.have.length(1);
  });

  it('surfaces a second 401 as an AuthenticationError', async () => {
    mockToken('ofx_at_first');
    mockToken('ofx_at_second');
    nock(BASE_URL).get(RESIDENTS).twice().reply(401, invalidToken(), challenge);
    const error = await rejectionOf(client().facility(ORG_ID, FACILITY_ID).residents.list());
    expect(error).to.be.instanceOf(AuthenticationError);
    expect(error).to.include({ status: 401, code: 'invalid_token' });
  });

  it('renews the token on 401 even for registerWebhook (nothing ran), with the same body', async () => {
    mockToken('ofx_at_revoked');
    mockToken('ofx_at_fresh');
    const bodies: unknown[] = [];
    nock(BASE_URL)
      .post(`/api/v1/ofctx/${ORG_ID}/webhooks`, (body) => {
        bodies.push(body);
        return true;
      })
      .reply(401, invalidToken(), challenge);
    nock(BASE_URL, { reqheaders: { authorization: 'Bearer ofx_at_fresh' } })
      .post(`/api/v1/ofctx/${ORG_ID}/webhooks`, (body) => {
        bodies.push(body);
        return true;
      })
      .reply(
        201,
        {
          data: {
            id: '2f1e0d9c-8b7a-4f6e-9d5c-4b3a2f1e0d9c',
            callback_url: 'https://partner.example/hooks/ofctx',
            event_types: ['resident.admitted'],
            description: null,
            signature_header: 'X-Service-Signature',
            status: 'active',
            created_at: '2026-11-22T10:00:00.000Z',
            revoked_at: null,
            signing_secret: 'ofx_whs_Q2hhbmdlTWVUaGlzSXNBbkV4YW1wbGVTZWNyZXQxMjM0NQ',
          },
          meta: null,
          error: null,
        },
        API_HEADERS,
      );
    const created = await client().webhooks(ORG_ID).register({ callbackUrl: 'https://partner.example/hooks/ofctx', eventTypes: ['resident.admitted'] });
    expect(created.signing_secret).to.match(/^ofx_whs_/);
    expect(bodies).to.deep.equal([
      { callback_url: 'https://partner.example/hooks/ofctx', event_types: ['resident.admitted'] },
      { callback_url: 'https://partner.example/hooks/ofctx', event_types: ['resident.admitted'] },
    ]);
  });

  it('refuses to send the token to another origin through the raw client', async () => {
    const elsewhere = nock('https://evil.test').get(RESIDENTS).reply(200, {});
    const error = await rejectionOf(
      client().raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/residents', {
        baseUrl: 'https://evil.test',
        params: { path: { org_id: ORG_ID, facility_id: FACILITY_ID } },
      }),
    );
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.contain('https://evil.test');
    expect(elsewhere.isDone(), 'nothing reached the other origin').to.equal(false);
    nock.cleanAll();
  });

  it('does not follow a redirect (to another origin or anywhere)', async () => {
    mockToken();
    nock(BASE_URL).get(RESIDENTS).reply(302, '', { Location: 'https://evil.test/collect' });
    const elsewhere = nock('https://evil.test').get('/collect').reply(200, {});
    const error = await rejectionOf(client().facility(ORG_ID, FACILITY_ID).residents.list());
    expect(error).to.be.instanceOf(OfctxError);
    expect(error).to.include({ status: 302 });
    expect(elsewhere.isDone(), 'the redirect target was not requested').to.equal(false);
    nock.cleanAll();
  });
});
