import { expect } from 'chai';
import nock from 'nock';
import { createClient, type ClientOptions } from '../src/client.js';
import { errorFromResponse, NotFoundError } from '../src/errors.js';
import {
  API_HEADERS,
  BASE_URL,
  CLIENT_ID,
  CLIENT_SECRET,
  errorEnvelope,
  FACILITY_ID,
  FACILITY_PATH,
  listBody,
  mockToken,
  ORG_ID,
  patient,
  TOKEN_HEADERS,
  tokenBody,
  uuid,
  useNock,
} from './fixtures/api.js';

const options: ClientOptions = { baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };

describe('createClient', () => {
  useNock();

  describe('options', () => {
    for (const [label, override, message] of [
      ['a relative baseUrl', { baseUrl: '/api' }, 'absolute URL'],
      ['a non-http baseUrl', { baseUrl: 'ftp://api.ofctx.test' }, 'https'],
      ['plain http to a remote host', { baseUrl: 'http://api.ofctx.test' }, 'allowInsecureHttp'],
      ['a baseUrl with a query', { baseUrl: 'https://api.ofctx.test/?x=1' }, 'query'],
      ['an empty clientId', { clientId: '' }, 'clientId'],
      ['a missing clientSecret', { clientSecret: undefined as unknown as string }, 'clientSecret'],
      ['a negative maxRetries', { maxRetries: -1 }, 'maxRetries'],
      ['a fractional maxRetries', { maxRetries: 1.5 }, 'maxRetries'],
      ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs'],
      ['a timeout setTimeout cannot hold', { timeoutMs: 2 ** 31 }, 'timeoutMs'],
      ['a NaN maxRetryWaitMs', { maxRetryWaitMs: Number.NaN }, 'maxRetryWaitMs'],
    ] as const) {
      it(`rejects ${label}`, () => {
        expect(() => createClient({ ...options, ...override })).to.throw(TypeError, message);
      });
    }

    it('accepts plain http on loopback (local development) and with allowInsecureHttp', () => {
      expect(() => createClient({ ...options, baseUrl: 'http://127.0.0.1:8080' })).not.to.throw();
      expect(() => createClient({ ...options, baseUrl: 'http://localhost:8080' })).not.to.throw();
      expect(() => createClient({ ...options, baseUrl: 'http://ofctx.internal', allowInsecureHttp: true })).not.to.throw();
    });
  });

  it('uses the global fetch in place at call time, not at creation (nock set up afterwards still intercepts)', async () => {
    const client = createClient(options);
    mockToken();
    nock(BASE_URL).get(`${FACILITY_PATH}/residents`).reply(200, listBody([patient(1)], 1, 50, 1), API_HEADERS);
    expect((await client.facility(ORG_ID, FACILITY_ID).residents.list()).data).to.have.length(1);
  });

  it('sends every request through the fetch option when given', async () => {
    const seen: string[] = [];
    const client = createClient({
      ...options,
      fetch: async (request) => {
        seen.push(`${request.method} ${new URL(request.url).pathname}`);
        return request.url.endsWith('/oauth/token')
          ? Response.json(tokenBody(), { headers: TOKEN_HEADERS })
          : Response.json(listBody([], 1, 50, 0), { headers: API_HEADERS });
      },
    });
    await client.facility(ORG_ID, FACILITY_ID).residents.list();
    expect(seen).to.deep.equal(['POST /api/v1/oauth/token', `GET ${FACILITY_PATH}/residents`]);
  });

  it('keeps a base path of baseUrl for the token and the API', async () => {
    nock(BASE_URL).post('/gateway/ofctx/api/v1/oauth/token').reply(200, tokenBody(), TOKEN_HEADERS);
    nock(BASE_URL).get(`/gateway/ofctx${FACILITY_PATH}/residents`).reply(200, listBody([], 1, 50, 0), API_HEADERS);
    const client = createClient({ ...options, baseUrl: `${BASE_URL}/gateway/ofctx/` });
    expect(client.baseUrl).to.equal(`${BASE_URL}/gateway/ofctx`);
    await client.facility(ORG_ID, FACILITY_ID).residents.list();
  });

  it('raw: the typed openapi-fetch client, authenticated, answering { data, error, response }', async () => {
    mockToken('ofx_at_raw');
    nock(BASE_URL, { reqheaders: { authorization: 'Bearer ofx_at_raw' } })
      .get('/api/v1/ofctx/' + ORG_ID + '/webhooks/event-types')
      .reply(200, listBody([{ event_type: 'resident.admitted', api_version: 'v1', description: 'A resident is admitted to a facility.' }], 1, 1, 1), API_HEADERS);
    nock(BASE_URL).get(`${FACILITY_PATH}/residents/${uuid(9)}`).reply(404, errorEnvelope('not_found', 'No such resource.'), API_HEADERS);
    const { raw } = createClient(options);

    const ok = await raw.GET('/api/v1/ofctx/{org_id}/webhooks/event-types', { params: { path: { org_id: ORG_ID } } });
    expect(ok.data?.data[0]?.event_type).to.equal('resident.admitted');

    const missing = await raw.GET('/api/v1/ofctx/{org_id}/{facility_id}/residents/{resident_id}', {
      params: { path: { org_id: ORG_ID, facility_id: FACILITY_ID, resident_id: uuid(9) } },
    });
    expect(missing.response.status).to.equal(404);
    expect(errorFromResponse(missing.response, missing.error)).to.be.instanceOf(NotFoundError);
  });

  it('webhooks() refuses an empty organization id', () => {
    expect(() => createClient(options).webhooks('')).to.throw(TypeError, 'orgId');
  });
});
