// Per-credential request quotas end to end (issue 43, docs/quotas.md): the RateLimit fields on
// every authenticated answer, 429 quota_exceeded with Retry-After in the envelope and as an
// OperationOutcome on the R4 view, one credential's flood leaving another's quota whole, the
// operator's per-client override through the real ops CLI, and the SDK waiting Retry-After.
import { expect } from 'chai';
import { call, tokenFor } from '../support/http.js';
import { contractCheckingFetch } from '../support/contract.js';
import { jsonOf, runOps } from '../support/ops-cli.js';
import { ALL_SCOPES, startTestService, type TestService } from '../support/service.js';
import { createClient } from '../../sdk/src/index.js';

describe('per-credential request quotas', function () {
  this.timeout(120_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  const coverage = () => `/api/v1/ofctx/${orgId}/${facilityId}/coverage`;

  before(async () => {
    // A bucket that refills one unit every 10 s: what is left moves only with our requests.
    service = await startTestService({ env: { CLIENT_QUOTA_RATE: '0.1', CLIENT_QUOTA_BURST: '6' } });
    orgId = (await service.seed.org('Quota Homes')).id;
    facilityId = (await service.seed.facility(orgId, 'North')).id;
    await service.seed.data({ orgId, facilityId, residents: 3 });
  });
  after(() => service?.close());

  const partner = async () => tokenFor(service.baseUrl, await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES }));

  it('tells every answer where the credential stands, and answers 429 quota_exceeded with Retry-After once the burst is spent', async () => {
    const token = await partner();
    const first = await call(service.baseUrl, 'GET', coverage(), { token });
    expect(first.status).to.equal(200);
    expect(first.headers.get('ratelimit-policy')).to.equal('"client";q=6;w=60');
    expect(first.headers.get('ratelimit')).to.match(/^"client";r=5;t=1[0-9]$/);
    // A page of 200 rows costs 4 units.
    const big = await call(service.baseUrl, 'GET', `${coverage()}?page_size=200`, { token });
    expect(big.status).to.equal(200);
    expect(big.headers.get('ratelimit')).to.match(/^"client";r=1;/);
    // An error answer carries the fields too: the request was counted.
    const missing = await call(service.baseUrl, 'GET', `${coverage()}/00000000-0000-4000-8000-000000000000`, { token });
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('ratelimit')).to.match(/^"client";r=0;t=(5[0-9]|60)$/);

    const refused = await call(service.baseUrl, 'GET', coverage(), { token });
    expect(refused.status).to.equal(429);
    expect(refused.body.error.code).to.equal('quota_exceeded');
    expect(refused.body.error.message).to.contain('ops client update');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 10);
    expect(refused.headers.get('ratelimit-policy')).to.equal('"client";q=6;w=60');
    expect(refused.headers.get('ratelimit')).to.match(/^"client";r=0;t=(5[0-9]|60)$/);
    expect(refused.headers.get('x-request-id')).to.equal(refused.body.error.request_id);

    // Asking again before that Retry-After: refused too, the answer held 0.5 to 1 s.
    const sent = performance.now();
    const again = await call(service.baseUrl, 'GET', coverage(), { token });
    expect(again.status).to.equal(429);
    expect(performance.now() - sent).to.be.at.least(450);
    expect(Number(again.headers.get('retry-after'))).to.be.within(1, 10);
  });

  it('answers a refused FHIR R4 request with an OperationOutcome (throttled), and refuses an $export kick-off heavier than what is left', async () => {
    const token = await partner();
    const search = `/api/v1/fhir/R4/${orgId}/${facilityId}/Coverage`;
    for (let i = 0; i < 6; i++) expect((await call(service.baseUrl, 'GET', search, { token, headers: { accept: 'application/fhir+json' } })).status).to.equal(200);
    const refused = await call(service.baseUrl, 'GET', search, { token, headers: { accept: 'application/fhir+json' } });
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('content-type')).to.match(/^application\/fhir\+json/);
    expect(refused.body.resourceType).to.equal('OperationOutcome');
    expect(refused.body.issue[0]).to.include({ severity: 'error', code: 'throttled' });
    expect(refused.headers.get('retry-after')).to.match(/^[0-9]+$/);

    const fresh = await partner();
    const kickOff = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${orgId}/${facilityId}/$export`, { token: fresh, headers: { accept: 'application/fhir+json', prefer: 'respond-async' } });
    // 50 units against a burst of 6: it waits for a full bucket, which a fresh one is.
    expect(kickOff.status).to.equal(202);
    const again = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${orgId}/${facilityId}/$export`, { token: fresh, headers: { accept: 'application/fhir+json', prefer: 'respond-async' } });
    expect(again.status).to.equal(429);
    expect(again.body.issue[0].code).to.equal('throttled');
    // Six units at 0.1 a second: about 60 s (less what refilled while the kick-off ran).
    expect(Number(again.headers.get('retry-after'))).to.be.within(50, 60);
  });

  it("leaves another credential's quota whole while one is refused, and counts the refusals in /metrics", async () => {
    const flooder = await partner();
    const quiet = await partner();
    const before = (await service.running.app.metrics.clientQuotaRefusals.get()).values[0]?.value ?? 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(service.baseUrl, 'GET', coverage(), { token: flooder })));
    expect(answers.filter((a) => a.status === 200)).to.have.lengthOf(6);
    expect(answers.filter((a) => a.status === 429)).to.have.lengthOf(14);
    const answer = await call(service.baseUrl, 'GET', coverage(), { token: quiet });
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('ratelimit')).to.match(/^"client";r=5;/);
    const after = (await service.running.app.metrics.clientQuotaRefusals.get()).values[0]!.value;
    expect(after - before).to.equal(14);
  });

  it('takes a credential\'s own quota from "ops client update", and its default back with --default-quota', async () => {
    const issued = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
    // The CLI reports the effective quota with its environment's defaults: the service's here.
    const env = { DATABASE_URL: service.database.url, CLIENT_QUOTA_RATE: '0.1', CLIENT_QUOTA_BURST: '6' };
    const raised = jsonOf(await runOps(['client', 'update', issued.client_id, '--quota-rate', '0.5', '--quota-burst', '9', '--json'], env));
    expect(raised.quota).to.deep.equal({ rate: 0.5, burst: 9 });
    expect(raised.effective_quota).to.deep.equal({ rate: 0.5, burst: 9 });
    // The policy is untouched by a quota change.
    expect(raised.policy).to.deep.equal({ purpose: 'HOPERAT', payers: null, sensitive: false });
    const listed = await runOps(['client', 'list', '--org', orgId], env);
    expect(listed.stdout).to.contain(`${issued.client_id}`).and.to.contain('quota: 0.5 units/s, burst 9');

    const token = await tokenFor(service.baseUrl, issued);
    const first = await call(service.baseUrl, 'GET', coverage(), { token });
    expect(first.headers.get('ratelimit-policy')).to.equal('"client";q=9;w=18');
    for (let i = 0; i < 8; i++) expect((await call(service.baseUrl, 'GET', coverage(), { token })).status).to.equal(200);
    expect((await call(service.baseUrl, 'GET', coverage(), { token })).status).to.equal(429);

    const reset = jsonOf(await runOps(['client', 'update', issued.client_id, '--default-quota', '--json'], env));
    expect(reset.quota).to.equal(null);
    expect(reset.effective_quota).to.deep.equal({ rate: 0.1, burst: 6 });
    // Tokens follow within the token cache's TTL.
    await new Promise((resolve) => setTimeout(resolve, service.config.tokenCacheTtlMs + 100));
    expect((await call(service.baseUrl, 'GET', coverage(), { token })).headers.get('ratelimit-policy')).to.equal('"client";q=6;w=60');

    for (const bad of [['--quota-rate', '0'], ['--quota-rate', 'fast'], ['--quota-burst', '2.5'], ['--default-quota', '--quota-burst', '3']]) {
      const run = await runOps(['client', 'update', issued.client_id, ...bad], env);
      expect(run.code, bad.join(' ')).to.equal(2);
      expect(run.stderr).to.match(/quota/);
    }
  });

  it('the SDK slows down as the RateLimit field says the quota is spent, and is not refused; without pacing it waits Retry-After on the 429', async () => {
    for (const pacing of [true, false]) {
      const issued = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
      // One unit a second, two at once: the third list finds the quota spent for about a second.
      jsonOf(await runOps(['client', 'update', issued.client_id, '--quota-rate', '1', '--quota-burst', '2', '--json'], { DATABASE_URL: service.database.url }));
      const statuses: number[] = [];
      const counting = async (request: Request) => {
        const response = await contractCheckingFetch(request);
        if (!request.url.endsWith('/oauth/token')) statuses.push(response.status);
        return response;
      };
      const facility = createClient({ baseUrl: service.baseUrl, clientId: issued.client_id, clientSecret: issued.client_secret, fetch: counting, ...(pacing ? {} : { quotaReserve: false }) }).facility(orgId, facilityId);
      const started = performance.now();
      for (let i = 0; i < 3; i++) expect((await facility.coverage.list()).data).to.have.lengthOf.at.least(1);
      // The third waited about a second: before it was sent (paced), or after its 429 (Retry-After 1 s).
      expect(performance.now() - started, pacing ? 'paced' : 'not paced').to.be.at.least(900);
      expect(statuses, pacing ? 'paced' : 'not paced').to.deep.equal(pacing ? [200, 200, 200] : [200, 200, 429, 200]);
    }
  });
});
