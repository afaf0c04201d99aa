// One service for the whole reliability run (per database): the fuzzer, the tenancy worlds
// and the token attacks all act on it, so the secrets-at-rest search at the end covers the
// suite's whole activity. It runs with the production token rate limit (30 per 60 s per
// address); tests spread their token traffic over loopback addresses of their own.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startTestService, type TestService } from '../../support/service.js';
import type { IssuedClient } from '../../../server/src/auth/clients.js';
import { answerFailures } from './answer-checks.js';
import { figures, publishFigures } from './figures.js';
import { AddressPool, send, type RawRequest, type RawResponse } from './raw-http.js';
import { harvestSecrets, rememberedSecrets, rememberSecret } from './secrets.js';
import { startMetricsScraper, type MetricsScraper } from './metrics-scraper.js';

export const TOKEN_PATH = '/api/v1/oauth/token';
/** The operator's metrics token of the suite's service: searched for at rest like every secret. */
export const SUITE_METRICS_TOKEN = `mt_${randomBytes(24).toString('hex')}`;

let shared: Promise<TestService> | undefined;
let scraper: MetricsScraper | undefined;

export function suiteService(): Promise<TestService> {
  // Request quotas out of the way: these worlds send thousands of faulty requests from one
  // credential to see each answered; quotas have their own tests (test/e2e/client-quotas*).
  shared ??= startTestService({ env: { CLIENT_QUOTA_RATE: '100000', CLIENT_QUOTA_BURST: '100000', TOKEN_RATE_LIMIT: '30', TOKEN_RATE_LIMIT_WINDOW: '60', METRICS_TOKEN: SUITE_METRICS_TOKEN, MLLP_PORT: '0', MLLP_MAX_MESSAGE_BYTES: '65536' } }).then((service) => {
    rememberSecret('metrics_token', SUITE_METRICS_TOKEN);
    scraper = startMetricsScraper(service.baseUrl, SUITE_METRICS_TOKEN, () => rememberedSecrets().map((s) => s.value));
    return service;
  });
  return shared;
}

/** Stops the scrapes of the suite's service and tells what they found. */
export async function stopMetricsScraper(): Promise<MetricsScraper | undefined> {
  await scraper?.stop();
  return scraper;
}

// Root hook: after every test file of the run, print the figures and close the service.
after(async function () {
  this.timeout(60_000);
  await stopMetricsScraper();
  publishFigures();
  if (shared) await (await shared).close();
});

/** Sends, checks the answer against every promise, harvests secrets, counts. */
export async function checkedSend(service: TestService, req: RawRequest): Promise<{ res: RawResponse; failures: string[] }> {
  const res = await send(service.baseUrl, req);
  figures.requests++;
  if (res.status >= 500) figures.responses5xx++;
  harvestSecrets(res.body);
  return { res, failures: await answerFailures(req, res) };
}

/** checkedSend that fails the test on any broken promise. */
export async function sendOk(service: TestService, req: RawRequest): Promise<RawResponse> {
  const { res, failures } = await checkedSend(service, req);
  expect(failures, `${req.method} ${req.target.slice(0, 200)}`).to.deep.equal([]);
  return res;
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** A JSON body with its content type, plus any other headers. */
export function jsonBody(value: unknown, headers: Record<string, string> = {}): { headers: Record<string, string>; body: string } {
  return { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

const tokenAddresses = new AddressPool(9, 20);

export function tokenForm(client: { client_id: string; client_secret: string }, scope?: string): string {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
  if (scope !== undefined) form.set('scope', scope);
  return form.toString();
}

/** A token for a client, from an address of its own so the rate limit never bites. */
export async function issueToken(service: TestService, client: { client_id: string; client_secret: string }, scope?: string): Promise<string> {
  const res = await sendOk(service, {
    method: 'POST',
    target: TOKEN_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm(client, scope),
    localAddress: tokenAddresses.take(),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
  return res.body.access_token as string;
}

/** A client through the service's seed helper; its secret is remembered for the at-rest search. */
export async function seedClient(service: TestService, o: { orgId: string; facilityIds: string[]; scopes: string[]; name?: string }): Promise<IssuedClient> {
  const client = await service.seed.client(o);
  rememberSecret('client_secret', client.client_secret);
  return client;
}
