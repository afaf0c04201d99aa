// Credential stuffing from one address is throttled (429 + Retry-After), whatever the guesses
// and whatever X-Forwarded-For claims, while a legitimate client on another address keeps
// getting tokens. Runs with the production limit (TOKEN_RATE_LIMIT 30 per 60 s).
import { expect } from 'chai';
import fc from 'fast-check';
import type { TestService } from '../support/service.js';
import type { IssuedClient } from '../../server/src/auth/clients.js';
import { figures } from './support/figures.js';
import { seedClient, sendOk, suiteService, TOKEN_PATH, tokenForm } from './support/suite.js';

const ATTACKER = '127.0.0.2';
const LEGITIMATE = '127.0.0.3';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('credential stuffing against the token endpoint', function () {
  this.timeout(120_000);
  let service: TestService;
  let victim: IssuedClient;
  let legitimate: IssuedClient;

  before(async () => {
    service = await suiteService();
    const org = await service.seed.org('Stuffing target');
    const facility = await service.seed.facility(org.id);
    victim = await seedClient(service, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'] });
    legitimate = await seedClient(service, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'] });
  });

  it('throttles one address with 429 and Retry-After while a client on another address still gets tokens', async () => {
    const limit = service.config.tokenRateLimitPoints;
    const window = service.config.tokenRateLimitWindowSeconds;
    // The attacker's guesses: the victim's id or made-up ids, random secrets, in the body or
    // with HTTP Basic, each claiming another origin in X-Forwarded-For.
    const guesses = fc.sample(
      fc.record({
        clientId: fc.oneof(fc.constant(victim.client_id), fc.stringMatching(/^ofx_ci_[0-9a-f]{24}$/)),
        secret: fc.stringMatching(/^ofx_cs_[A-Za-z0-9_-]{43}$/),
        basic: fc.boolean(),
        forwardedFor: fc.ipV4(),
      }),
      { seed: 4242, numRuns: limit + 20 },
    );
    const statuses: number[] = [];
    const legitimateStatuses: number[] = [];
    const retryAfters: number[] = [];
    for (const [i, guess] of guesses.entries()) {
      const headers: Record<string, string> = { ...FORM, 'x-forwarded-for': guess.forwardedFor };
      let body = tokenForm({ client_id: guess.clientId, client_secret: guess.secret });
      if (guess.basic) {
        headers.authorization = `Basic ${Buffer.from(`${guess.clientId}:${guess.secret}`).toString('base64')}`;
        body = 'grant_type=client_credentials';
      }
      const res = await sendOk(service, { method: 'POST', target: TOKEN_PATH, headers, body, localAddress: ATTACKER });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).to.deep.include({ error: 'rate_limited' });
        retryAfters.push(Number(res.headers.get('retry-after')));
      } else {
        expect(res.status, `attempt ${i + 1}`).to.equal(401);
        expect(res.body.error).to.equal('invalid_client');
      }
      if (i % 5 === 4) {
        const ok = await sendOk(service, { method: 'POST', target: TOKEN_PATH, headers: FORM, body: tokenForm(legitimate), localAddress: LEGITIMATE });
        legitimateStatuses.push(ok.status);
      }
    }
    // Even the right secret does not get through from the throttled address.
    const right = await sendOk(service, { method: 'POST', target: TOKEN_PATH, headers: FORM, body: tokenForm(victim), localAddress: ATTACKER });
    statuses.push(right.status);
    figures.token.stuffingAttempts += statuses.length + legitimateStatuses.length;
    figures.token.throttled += statuses.filter((s) => s === 429).length;
    console.log(`      ${statuses.length} attempts from ${ATTACKER}: ${statuses.filter((s) => s === 401).length}×401 then ${statuses.filter((s) => s === 429).length}×429 (Retry-After ${Math.min(...retryAfters)}-${Math.max(...retryAfters)} s); ${legitimateStatuses.length} legitimate requests from ${LEGITIMATE}: ${legitimateStatuses.join(' ')}`);

    expect(statuses.slice(0, limit).every((s) => s === 401), `the first ${limit} are answered`).to.equal(true);
    expect(statuses.slice(limit).every((s) => s === 429), 'then every one is throttled').to.equal(true);
    for (const seconds of retryAfters) expect(seconds).to.be.within(1, window);
    expect(legitimateStatuses.length).to.be.greaterThan(0);
    expect(legitimateStatuses.every((s) => s === 200), 'the legitimate client is never throttled').to.equal(true);
  });
});
