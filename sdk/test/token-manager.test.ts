import { expect } from 'chai';
import nock from 'nock';
import { createClientWithRuntime } from '../src/client.js';
import { AuthenticationError, OAuthError, OfctxError, RequestAbortedError } from '../src/errors.js';
import {
  API_HEADERS,
  BASE_URL,
  CLIENT_ID,
  CLIENT_SECRET,
  FACILITY_ID,
  FACILITY_PATH,
  listBody,
  ManualRuntime,
  mockToken,
  oauthErrorBody,
  ORG_ID,
  patient,
  rejectionOf,
  TOKEN_HEADERS,
  TOKEN_PATH,
  tokenBody,
  useNock,
} from './fixtures/api.js';

describe('access token', () => {
  useNock();
  let runtime: ManualRuntime;
  beforeEach(() => {
    runtime = new ManualRuntime();
  });
  const residents = (options: { scopes?: string[] } = {}) =>
    createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options }, runtime).facility(ORG_ID, FACILITY_ID).residents;
  const residentsReply = () => listBody([patient(1)], 1, 50, 1);

  it('is requested with the RFC 6749 client credentials form body', async () => {
    let form: URLSearchParams | undefined;
    let contentType: string | undefined;
    nock(BASE_URL)
      .post(TOKEN_PATH, (body: string) => {
        form = new URLSearchParams(body);
        return true;
      })
      .reply(function () {
        contentType = String(this.req.headers['content-type']);
        return [200, tokenBody(), TOKEN_HEADERS];
      });
    nock(BASE_URL).get(`${FACILITY_PATH}/residents`).reply(200, residentsReply(), API_HEADERS);
    await residents({ scopes: ['residents.read', 'coverage.read'] }).list();
    expect(contentType).to.equal('application/x-www-form-urlencoded');
    expect(Object.fromEntries(form!)).to.deep.equal({
      grant_type: 'client_credentials',
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      scope: 'residents.read coverage.read',
    });
  });

  it('omits scope when no scopes are configured (every granted scope)', async () => {
    let form: URLSearchParams | undefined;
    nock(BASE_URL)
      .post(TOKEN_PATH, (body: string) => {
        form = new URLSearchParams(body);
        return true;
      })
      .reply(200, tokenBody(), TOKEN_HEADERS);
    nock(BASE_URL).get(`${FACILITY_PATH}/residents`).reply(200, residentsReply(), API_HEADERS);
    await residents().list();
    expect(form!.has('scope')).to.equal(false);
  });

  it('is not requested before the first call', async () => {
    const token = mockToken();
    residents();
    expect(token.isDone()).to.equal(false);
    nock.cleanAll();
  });

  it('is requested once and reused for later calls', async () => {
    mockToken('ofx_at_cached');
    const api = nock(BASE_URL, { reqheaders: { authorization: 'Bearer ofx_at_cached' } })
      .get(`${FACILITY_PATH}/residents`)
      .times(5)
      .reply(200, residentsReply(), API_HEADERS);
    const collection = residents();
    for (let i = 0; i < 5; i += 1) await collection.list();
    expect(api.isDone()).to.equal(true);
  });

  it('is requested once for concurrent first calls (single flight)', async () => {
    nock(BASE_URL).post(TOKEN_PATH).delay(30).reply(200, tokenBody('ofx_at_shared'), TOKEN_HEADERS);
    nock(BASE_URL, { reqheaders: { authorization: 'Bearer ofx_at_shared' } })
      .get(`${FACILITY_PATH}/residents`)
      .times(10)
      .reply(200, residentsReply(), API_HEADERS);
    const collection = residents();
    const pages = await Promise.all(Array.from({ length: 10 }, () => collection.list()));
    expect(pages).to.have.length(10);
  });

  it("is still delivered to other callers when one caller aborts its wait", async () => {
    nock(BASE_URL).post(TOKEN_PATH).delay(50).reply(200, tokenBody('ofx_at_shared'), TOKEN_HEADERS);
    nock(BASE_URL, { reqheaders: { authorization: 'Bearer ofx_at_shared' } }).get(`${FACILITY_PATH}/residents`).reply(200, residentsReply(), API_HEADERS);
    const collection = residents();
    const controller = new AbortController();
    const aborted = collection.list({ signal: controller.signal });
    const waiting = collection.list();
    setTimeout(() => controller.abort(), 10);
    expect(await rejectionOf(aborted)).to.be.instanceOf(RequestAbortedError);
    expect((await waiting).data).to.have.length(1);
  });

  it('is renewed 60 s before it expires, not after', async () => {
    mockToken('ofx_at_first');
    mockToken('ofx_at_second');
    const seen: string[] = [];
    nock(BASE_URL)
      .get(`${FACILITY_PATH}/residents`)
      .times(3)
      .reply(function () {
        seen.push(String(this.req.headers.authorization));
        return [200, residentsReply(), API_HEADERS];
      });
    const collection = residents();
    await collection.list();
    runtime.nowMs += (3600 - 61) * 1000;
    await collection.list();
    runtime.nowMs += 2 * 1000;
    await collection.list();
    expect(seen).to.deep.equal(['Bearer ofx_at_first', 'Bearer ofx_at_first', 'Bearer ofx_at_second']);
  });

  it('surfaces invalid_client as an AuthenticationError without calling the API', async () => {
    nock(BASE_URL).post(TOKEN_PATH).reply(401, oauthErrorBody('invalid_client', 'Client authentication failed.'), TOKEN_HEADERS);
    const error = await rejectionOf(residents().list());
    expect(error).to.be.instanceOf(AuthenticationError);
    expect(error).to.include({ code: 'invalid_client', status: 401, message: 'Client authentication failed.' });
  });

  it('surfaces invalid_scope as an OAuthError', async () => {
    nock(BASE_URL)
      .post(TOKEN_PATH)
      .reply(400, oauthErrorBody('invalid_scope', 'The requested scope exceeds the scopes granted to this client.'), TOKEN_HEADERS);
    const error = await rejectionOf(residents({ scopes: ['webhooks.manage'] }).list());
    expect(error).to.be.instanceOf(OAuthError);
    expect(error).to.include({ code: 'invalid_scope', requestId: TOKEN_HEADERS['X-Request-Id'] });
  });

  it('retries a rate-limited token request after Retry-After', async () => {
    nock(BASE_URL)
      .post(TOKEN_PATH)
      .reply(429, oauthErrorBody('rate_limited', 'Too many token requests from this address; retry after 2 seconds.'), { ...TOKEN_HEADERS, 'Retry-After': '2' });
    mockToken();
    nock(BASE_URL).get(`${FACILITY_PATH}/residents`).reply(200, residentsReply(), API_HEADERS);
    await residents().list();
    expect(runtime.sleeps).to.deep.equal([2000]);
  });

  it('surfaces rate_limited as an OAuthError once retries are exhausted', async () => {
    nock(BASE_URL)
      .post(TOKEN_PATH)
      .times(4)
      .reply(429, oauthErrorBody('rate_limited', 'Too many token requests from this address; retry after 1 seconds.'), { ...TOKEN_HEADERS, 'Retry-After': '1' });
    const error = await rejectionOf(residents().list());
    expect(error).to.be.instanceOf(OAuthError);
    expect(error).to.include({ code: 'rate_limited', retryAfterMs: 1000 });
    expect(runtime.sleeps).to.deep.equal([1000, 1000, 1000]);
  });

  it('does not cache a failed token request: the next call asks again', async () => {
    nock(BASE_URL).post(TOKEN_PATH).reply(401, oauthErrorBody('invalid_client', 'Client authentication failed.'), TOKEN_HEADERS);
    mockToken();
    nock(BASE_URL).get(`${FACILITY_PATH}/residents`).reply(200, residentsReply(), API_HEADERS);
    const collection = residents();
    await rejectionOf(collection.list());
    expect((await collection.list()).data).to.have.length(1);
  });

  it('rejects a 200 answer without an access token', async () => {
    nock(BASE_URL).post(TOKEN_PATH).reply(200, { token_type: 'Bearer' }, TOKEN_HEADERS);
    const error = await rejectionOf(residents().list());
    expect(error).to.be.instanceOf(OfctxError);
    expect(error).to.include({ code: 'unexpected_response' });
  });
});
