import { expect } from 'chai';
import nock from 'nock';
import { createClient, createClientWithRuntime, type ClientOptions } from '../src/client.js';
import { RequestAbortedError } from '../src/errors.js';
import { rateLimitItem } from '../src/quota-pacing.js';
import { API_HEADERS, BASE_URL, CLIENT_ID, CLIENT_SECRET, FACILITY_ID, FACILITY_PATH, listBody, ManualRuntime, mockToken, ORG_ID, patient, rejectionOf, useNock } from './fixtures/api.js';

const RESIDENTS = `${FACILITY_PATH}/residents`;
const page = () => listBody([patient(1)], 1, 50, 1);
/** An answer's quota fields as the service writes them (server/src/http/rate-limit-fields.ts). */
const quota = (remaining: number, resetSeconds: number, policy: string | null = '"client";q=1000;w=20') => ({
  ...API_HEADERS,
  RateLimit: `"client";r=${remaining};t=${resetSeconds}`,
  ...(policy === null ? {} : { 'RateLimit-Policy': policy }),
});

describe('pacing by the credential\'s quota (the RateLimit fields)', () => {
  useNock();
  let runtime: ManualRuntime;
  beforeEach(() => {
    runtime = new ManualRuntime();
    mockToken();
  });
  const residents = (options: Partial<ClientOptions> = {}) =>
    createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...options }, runtime).facility(ORG_ID, FACILITY_ID).residents;

  it('waits before the next request once an answer says the quota is spent, for the refill of one unit at the policy\'s rate', async () => {
    nock(BASE_URL).get(RESIDENTS).reply(200, page(), quota(0, 20));
    nock(BASE_URL).get(RESIDENTS).reply(200, page(), quota(0, 20));
    const client = residents();
    await client.list();
    expect(runtime.sleeps).to.deep.equal([]);
    await client.list();
    // 1000 units per 20 s: one unit in 20 ms. Sent after the wait, never refused.
    expect(runtime.sleeps).to.deep.equal([20]);
  });

  it('does not wait while units are left, and counts the requests it sends against them', async () => {
    nock(BASE_URL).get(RESIDENTS).reply(200, page(), quota(2, 1));
    nock(BASE_URL).get(RESIDENTS).times(3).reply(200, page(), quota(2, 1));
    const client = residents();
    await client.list();
    // Three at once on two units left: two go now, the third waits for a unit.
    await Promise.all([client.list(), client.list(), client.list()]);
    expect(runtime.sleeps).to.deep.equal([20]);
  });

  it('keeps the reserve asked for', async () => {
    nock(BASE_URL).get(RESIDENTS).twice().reply(200, page(), quota(5, 1));
    const client = residents({ quotaReserve: 10 });
    await client.list();
    await client.list();
    // Short of 6 units at 50 a second: 120 ms.
    expect(runtime.sleeps).to.deep.equal([120]);
  });

  it('without a policy, waits until the reset the answer gave, at most maxQuotaWaitMs', async () => {
    nock(BASE_URL).get(RESIDENTS).reply(200, page(), quota(0, 3, null));
    nock(BASE_URL).get(RESIDENTS).reply(200, page(), quota(0, 120, null));
    nock(BASE_URL).get(RESIDENTS).reply(200, page(), API_HEADERS);
    const client = residents({ maxQuotaWaitMs: 5_000 });
    await client.list();
    await client.list();
    await client.list();
    expect(runtime.sleeps).to.deep.equal([3_000, 5_000]);
  });

  it('is off with quotaReserve: false', async () => {
    nock(BASE_URL).get(RESIDENTS).twice().reply(200, page(), quota(0, 20));
    const client = residents({ quotaReserve: false });
    await client.list();
    await client.list();
    expect(runtime.sleeps).to.deep.equal([]);
  });

  it('ends the wait when the caller aborts, without sending the request', async () => {
    nock(BASE_URL).get(RESIDENTS).reply(200, page(), quota(0, 60, null));
    const client = createClient({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, maxRetries: 0 }).facility(ORG_ID, FACILITY_ID).residents;
    await client.list();
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('the caller gave up')), 50);
    const error = await rejectionOf(client.list({ signal: controller.signal }));
    expect(error).to.be.instanceOf(RequestAbortedError);
    expect(Date.now() - started).to.be.lessThan(2_000);
    // Nothing was sent: a second request would have met no interceptor (a ConnectionError, not retried).
  });
});

describe('reading the RateLimit fields', () => {
  it('reads the item of the "client" policy only (the token endpoint\'s is "token"), and only whole numbers', () => {
    expect(rateLimitItem('"token";r=0;t=60', 'client')).to.equal(undefined);
    expect(rateLimitItem('"token";r=0;t=60, "client";r=7;t=2', 'client')).to.deep.equal({ r: 7, t: 2 });
    expect(rateLimitItem('"client";r=-1;t=x', 'client')).to.deep.equal({});
  });
});
