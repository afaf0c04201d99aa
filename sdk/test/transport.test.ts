import { expect } from 'chai';
import nock from 'nock';
import { createClient, createClientWithRuntime, type ClientOptions } from '../src/client.js';
import { ConnectionError, RateLimitError, RequestAbortedError, ServerError } from '../src/errors.js';
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
  readBody,
  rejectionOf,
  subscription,
  uuid,
  WEBHOOKS_PATH,
  useNock,
} from './fixtures/api.js';

const RESIDENTS = `${FACILITY_PATH}/residents`;
const unavailable = () => errorEnvelope('service_unavailable', 'The service is restarting; retry shortly.');
const residentsPage = () => listBody([patient(1)], 1, 50, 1);

describe('retries, timeouts and aborts', () => {
  useNock();
  let runtime: ManualRuntime;
  beforeEach(() => {
    runtime = new ManualRuntime();
    mockToken();
  });
  const client = (options: Partial<ClientOptions> = {}) =>
    createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options }, runtime);
  const residents = (options: Partial<ClientOptions> = {}) => client(options).facility(ORG_ID, FACILITY_ID).residents;

  for (const status of [408, 429, 502, 503, 504]) {
    it(`retries a GET answered ${status}, then succeeds`, async () => {
      nock(BASE_URL).get(RESIDENTS).twice().reply(status, status === 429 ? errorEnvelope('rate_limited', 'Slow down.') : unavailable(), API_HEADERS);
      nock(BASE_URL).get(RESIDENTS).reply(200, residentsPage(), API_HEADERS);
      const page = await residents().list();
      expect(page.data[0]!.id).to.equal(uuid(1));
      expect(runtime.sleeps).to.have.length(2);
    });
  }

  it('does not retry a 500 (internal_error is not transient)', async () => {
    nock(BASE_URL).get(RESIDENTS).once().reply(500, errorEnvelope('internal_error', 'An unexpected error occurred.'), API_HEADERS);
    const error = await rejectionOf(residents().list());
    expect(error).to.be.instanceOf(ServerError);
    expect(runtime.sleeps).to.deep.equal([]);
  });

  it('waits with exponential back-off and full jitter between attempts', async () => {
    nock(BASE_URL).get(RESIDENTS).times(3).reply(503, unavailable(), API_HEADERS);
    nock(BASE_URL).get(RESIDENTS).reply(200, residentsPage(), API_HEADERS);
    await residents().list();
    // random() is 0.5: half of 500, 1000 and 2000 ms.
    expect(runtime.sleeps).to.deep.equal([250, 500, 1000]);
  });

  it('gives up after maxRetries and surfaces the last answer as a typed error', async () => {
    nock(BASE_URL).get(RESIDENTS).times(3).reply(503, unavailable(), API_HEADERS);
    const error = await rejectionOf(residents({ maxRetries: 2 }).list());
    expect(error).to.be.instanceOf(ServerError);
    expect(error).to.include({ status: 503, code: 'service_unavailable' });
    expect(runtime.sleeps).to.have.length(2);
  });

  it('honours Retry-After in seconds', async () => {
    nock(BASE_URL).get(RESIDENTS).reply(429, errorEnvelope('rate_limited', 'Slow down.'), { ...API_HEADERS, 'Retry-After': '3' });
    nock(BASE_URL).get(RESIDENTS).reply(200, residentsPage(), API_HEADERS);
    await residents().list();
    expect(runtime.sleeps).to.deep.equal([3000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const at = new Date(runtime.nowMs + 5000).toUTCString();
    nock(BASE_URL).get(RESIDENTS).reply(503, unavailable(), { ...API_HEADERS, 'Retry-After': at });
    nock(BASE_URL).get(RESIDENTS).reply(200, residentsPage(), API_HEADERS);
    await residents().list();
    expect(runtime.sleeps).to.deep.equal([5000]);
  });

  it('stops retrying when the wait would exceed maxRetryWaitMs, reporting retryAfterMs', async () => {
    nock(BASE_URL).get(RESIDENTS).reply(429, errorEnvelope('rate_limited', 'Slow down.'), { ...API_HEADERS, 'Retry-After': '120' });
    const error = await rejectionOf(residents({ maxRetryWaitMs: 60_000 }).list());
    expect(error).to.be.instanceOf(RateLimitError);
    expect(error).to.include({ retryAfterMs: 120_000 });
    expect(runtime.sleeps).to.deep.equal([]);
  });

  it('bounds the total wait across retries', async () => {
    nock(BASE_URL).get(RESIDENTS).times(2).reply(503, unavailable(), { ...API_HEADERS, 'Retry-After': '4' });
    const error = await rejectionOf(residents({ maxRetryWaitMs: 5_000 }).list());
    expect(error).to.be.instanceOf(ServerError);
    expect(runtime.sleeps).to.deep.equal([4000]);
  });

  it('retries a network error, then succeeds', async () => {
    nock(BASE_URL).get(RESIDENTS).replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    nock(BASE_URL).get(RESIDENTS).reply(200, residentsPage(), API_HEADERS);
    expect((await residents().list()).data).to.have.length(1);
  });

  it('surfaces a network error as a ConnectionError with its cause once retries are exhausted', async () => {
    nock(BASE_URL).get(RESIDENTS).times(4).replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const error = await rejectionOf(residents().list());
    expect(error).to.be.instanceOf(ConnectionError);
    expect(error).to.include({ timedOut: false, code: 'connection_error', status: undefined });
    expect((error as ConnectionError).message).to.contain('socket hang up');
    expect((error as ConnectionError).cause).to.deep.include({ code: 'ECONNRESET' });
  });

  it('never retries registerWebhook, whatever the answer', async () => {
    nock(BASE_URL).post(WEBHOOKS_PATH).once().reply(503, unavailable(), API_HEADERS);
    const error = await rejectionOf(
      client().webhooks(ORG_ID).register({ callbackUrl: 'https://partner.example/hooks/ofctx', eventTypes: ['resident.admitted'] }),
    );
    expect(error).to.be.instanceOf(ServerError);
    expect(runtime.sleeps).to.deep.equal([]);
  });

  it('sends registerWebhook again after a 429 quota_exceeded, once Retry-After has passed: the server did nothing with it', async () => {
    const quota = { ...API_HEADERS, 'Retry-After': '2', 'RateLimit-Policy': '"client";q=1000;w=20', RateLimit: '"client";r=0;t=20' };
    nock(BASE_URL).post(WEBHOOKS_PATH).once().reply(429, errorEnvelope('quota_exceeded', 'This credential has used its request quota.'), quota);
    nock(BASE_URL).post(WEBHOOKS_PATH).once().reply(201, readBody(subscription(3, 'active')), API_HEADERS);
    const created = await client().webhooks(ORG_ID).register({ callbackUrl: 'https://partner.example/hooks/ofctx', eventTypes: ['resident.admitted'] });
    expect(created.id).to.equal(uuid(3));
    expect(runtime.sleeps).to.deep.equal([2000]);
  });

  it('backs off on quota_exceeded answers Retry-After by Retry-After, then surfaces a RateLimitError once maxRetries is spent', async () => {
    const quota = (seconds: string) => ({ ...API_HEADERS, 'Retry-After': seconds, 'RateLimit-Policy': '"client";q=10;w=10', RateLimit: '"client";r=0;t=10' });
    nock(BASE_URL).get(RESIDENTS).reply(429, errorEnvelope('quota_exceeded', 'This credential has used its request quota.'), quota('1'));
    nock(BASE_URL).get(RESIDENTS).reply(429, errorEnvelope('quota_exceeded', 'This credential has used its request quota.'), quota('3'));
    nock(BASE_URL).get(RESIDENTS).reply(429, errorEnvelope('quota_exceeded', 'This credential has used its request quota.'), quota('4'));
    const error = await rejectionOf(residents({ maxRetries: 2 }).list());
    expect(error).to.be.instanceOf(RateLimitError);
    expect(error).to.include({ status: 429, code: 'quota_exceeded', retryAfterMs: 4000 });
    expect(runtime.sleeps).to.deep.equal([1000, 3000]);
  });

  it('never retries registerWebhook after a network error', async () => {
    nock(BASE_URL).post(WEBHOOKS_PATH).once().replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
    const error = await rejectionOf(
      client().webhooks(ORG_ID).register({ callbackUrl: 'https://partner.example/hooks/ofctx', eventTypes: ['resident.admitted'] }),
    );
    expect(error).to.be.instanceOf(ConnectionError);
  });

  it('retries the other webhook operations (revoke answered 502)', async () => {
    nock(BASE_URL).delete(`${WEBHOOKS_PATH}/${uuid(7)}`).reply(502, errorEnvelope('internal_error', 'Bad gateway.'), API_HEADERS);
    nock(BASE_URL).delete(`${WEBHOOKS_PATH}/${uuid(7)}`).reply(200, readBody(subscription(7, 'revoked')), API_HEADERS);
    expect((await client().webhooks(ORG_ID).revoke(uuid(7))).status).to.equal('revoked');
  });

  describe('with real timers', () => {
    it('times an attempt out as a ConnectionError (timedOut)', async () => {
      nock(BASE_URL).get(RESIDENTS).delay(2_000).reply(200, residentsPage(), API_HEADERS);
      const started = Date.now();
      const error = await rejectionOf(
        createClient({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, timeoutMs: 50, maxRetries: 0 }).facility(ORG_ID, FACILITY_ID).residents.list(),
      );
      expect(error).to.be.instanceOf(ConnectionError);
      expect(error).to.include({ timedOut: true, code: 'timeout' });
      expect(Date.now() - started).to.be.lessThan(1_000);
    });

    it('retries a timed-out GET', async () => {
      nock(BASE_URL).get(RESIDENTS).delay(3_000).reply(200, residentsPage(), API_HEADERS);
      nock(BASE_URL).get(RESIDENTS).reply(200, residentsPage(), API_HEADERS);
      // Room for the retry's own answer: with 50 ms, a loaded machine (a CI run) timed the
      // retry out too, and the third attempt found no answer left.
      const page = await createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, timeoutMs: 500 }, runtime)
        .facility(ORG_ID, FACILITY_ID)
        .residents.list();
      expect(page.data).to.have.length(1);
    });

    it('aborts a call in flight with RequestAbortedError carrying the reason', async () => {
      const inFlight = nock(BASE_URL).get(RESIDENTS).delay(2_000).reply(200, residentsPage(), API_HEADERS);
      const controller = new AbortController();
      const reason = new Error('user navigated away');
      // Aborted once the request has reached the server (a fixed delay from the start could
      // fire before it was even sent, on a loaded machine, and nothing would be in flight).
      let started = 0;
      inFlight.once('request', () => setTimeout(() => ((started = Date.now()), controller.abort(reason)), 30));
      const error = await rejectionOf(residents().list({ signal: controller.signal }));
      expect(error).to.be.instanceOf(RequestAbortedError);
      expect((error as RequestAbortedError).cause).to.equal(reason);
      expect(Date.now() - started).to.be.lessThan(1_000);
      expect(runtime.sleeps, 'an abort is not retried').to.deep.equal([]);
    });

    it('aborts during a back-off wait', async () => {
      const answered = nock(BASE_URL).get(RESIDENTS).reply(503, unavailable(), { ...API_HEADERS, 'Retry-After': '30' });
      const controller = new AbortController();
      // Aborted once the 503 is in and the client waits out its Retry-After (a fixed delay
      // from the start could fire before the request was even sent, on a loaded machine).
      let started = 0;
      answered.once('replied', () => setTimeout(() => ((started = Date.now()), controller.abort()), 30));
      const error = await rejectionOf(
        createClient({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }).facility(ORG_ID, FACILITY_ID).residents.list({ signal: controller.signal }),
      );
      expect(error).to.be.instanceOf(RequestAbortedError);
      expect(started, 'aborted during the wait').to.be.greaterThan(0);
      expect(Date.now() - started, 'the wait ends at the abort, not after 30 s').to.be.lessThan(1_000);
    });
  });

  it('sends nothing when the signal is already aborted', async () => {
    nock.cleanAll();
    const error = await rejectionOf(residents().list({ signal: AbortSignal.abort() }));
    expect(error).to.be.instanceOf(RequestAbortedError);
  });
});
