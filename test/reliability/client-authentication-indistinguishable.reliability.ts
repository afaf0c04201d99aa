// An unknown client and a wrong secret are indistinguishable at the token endpoint: same
// status, same body, same headers, and the same time (within noise). The timing assertion is
// one of the very few allowed, because it is a security property; it is made robust to a noisy
// shared machine: warm-up, attempts interleaved in pairs of random order, medians, a generous
// bound (25% of the median) and one retry of the whole measurement before failing.
import { expect } from 'chai';
import fc from 'fast-check';
import type { TestService } from '../support/service.js';
import type { IssuedClient } from '../../server/src/auth/clients.js';
import { revokeClient } from '../../server/src/auth/clients.js';
import { figures } from './support/figures.js';
import { AddressPool, type RawResponse } from './support/raw-http.js';
import { seedClient, sendOk, suiteService, TOKEN_PATH, tokenForm } from './support/suite.js';

const ATTEMPTS = Number(process.env.TIMING_ATTEMPTS ?? 60);
const WARM_UP = 8;
const BOUND = 0.25;

/** Two-sided Mann-Whitney U test, normal approximation with tie correction. */
export function mannWhitney(a: number[], b: number[]): { u: number; z: number; p: number } {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const r1 = all.reduce((sum, x, i) => (x.g === 0 ? sum + ranks[i]! : sum), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = sigma === 0 ? 0 : (u - (n1 * n2) / 2) / sigma;
  // Two-sided p from the standard normal (Abramowitz-Stegun 7.1.26 erf approximation).
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - (((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t) * Math.exp(-x * x);
  return { u, z, p: 1 - erf };
}

function median(values: number[]): number {
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The headers a client can compare, without the per-request ones. */
function comparableHeaders(res: RawResponse): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    // RateLimit counts what the source address sent before (a per-address budget), not who the client is.
    if (!['x-request-id', 'date', 'connection', 'keep-alive', 'ratelimit'].includes(name)) out[name] = value;
  });
  return out;
}

describe('an unknown client and a wrong secret at the token endpoint', function () {
  this.timeout(240_000);
  let service: TestService;
  let client: IssuedClient;
  let revoked: IssuedClient;
  // Up to 20 attempts per loopback address: the rate limit (30 per address) never answers instead.
  const addresses = new AddressPool(5, 20);

  before(async () => {
    service = await suiteService();
    const org = await service.seed.org('Timing target');
    const facility = await service.seed.facility(org.id);
    client = await seedClient(service, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'] });
    revoked = await seedClient(service, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'] });
    await revokeClient(service.running.app.db, revoked.client_id);
  });

  const unknownId = () => `ofx_ci_${[...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const attempt = (kind: 'unknown' | 'wrong' | 'revoked', basic = false) => {
    const clientId = kind === 'unknown' ? unknownId() : kind === 'revoked' ? revoked.client_id : client.client_id;
    const secret = kind === 'revoked' ? revoked.client_secret : `${client.client_secret.slice(0, -4)}AAAA`;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    let body = tokenForm({ client_id: clientId, client_secret: secret });
    if (basic) {
      headers.authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
      body = 'grant_type=client_credentials';
    }
    return sendOk(service, { method: 'POST', target: TOKEN_PATH, headers, body, localAddress: addresses.take() });
  };

  it('answers both, and a revoked client, with the same status, body and headers, in the body or with HTTP Basic', async () => {
    for (const basic of [false, true]) {
      const [unknown, wrong, revokedAnswer] = [await attempt('unknown', basic), await attempt('wrong', basic), await attempt('revoked', basic)];
      figures.token.timingAttempts += 3;
      for (const res of [unknown, wrong, revokedAnswer]) expect(res.status).to.equal(401);
      expect(wrong.body).to.deep.equal(unknown.body);
      expect(revokedAnswer.body).to.deep.equal(unknown.body);
      expect(comparableHeaders(wrong)).to.deep.equal(comparableHeaders(unknown));
      expect(comparableHeaders(revokedAnswer)).to.deep.equal(comparableHeaders(unknown));
    }
  });

  it(`takes as long for an unknown client as for a wrong secret (medians of ${ATTEMPTS} interleaved attempts each within ${BOUND * 100}%)`, async () => {
    const measure = async (round: number) => {
      for (let i = 0; i < WARM_UP; i++) await attempt(i % 2 ? 'wrong' : 'unknown');
      // Interleaved in adjacent pairs, each pair in an order fast-check draws (fixed seed per
      // round): both kinds are spread evenly over time, so drift in the machine's load falls on
      // both alike, and each pair's difference is measured under the same load.
      const firsts = fc.sample(fc.array(fc.boolean(), { minLength: ATTEMPTS, maxLength: ATTEMPTS }), { seed: 77 + round, numRuns: 1 })[0]!;
      const times = { unknown: [] as number[], wrong: [] as number[] };
      const pairDifferences: number[] = [];
      for (const unknownFirst of firsts) {
        const pair: Record<'unknown' | 'wrong', number> = { unknown: 0, wrong: 0 };
        for (const kind of unknownFirst ? (['unknown', 'wrong'] as const) : (['wrong', 'unknown'] as const)) pair[kind] = (await attempt(kind)).ms;
        times.unknown.push(pair.unknown);
        times.wrong.push(pair.wrong);
        pairDifferences.push(pair.unknown - pair.wrong);
      }
      figures.token.timingAttempts += WARM_UP + 2 * ATTEMPTS;
      const mu = median(times.unknown);
      const mw = median(times.wrong);
      const ratio = Math.abs(mu - mw) / Math.max(mu, mw);
      const test = mannWhitney(times.unknown, times.wrong);
      return { mu, mw, ratio, pairedMedian: median(pairDifferences), ...test };
    };
    const show = (r: Awaited<ReturnType<typeof measure>>) =>
      console.log(`      medians: unknown client ${r.mu.toFixed(1)} ms, wrong secret ${r.mw.toFixed(1)} ms, difference ${(r.ratio * 100).toFixed(1)}% (median paired difference ${r.pairedMedian.toFixed(1)} ms; Mann-Whitney z ${r.z.toFixed(2)}, p ${r.p.toFixed(3)})`);
    let result = await measure(1);
    show(result);
    if (result.ratio >= BOUND) {
      console.log('      beyond the bound: measuring once more (a noisy machine is not a timing leak, a repeated difference is)');
      result = await measure(2);
      show(result);
    }
    figures.token.timing = {
      medianUnknownMs: Math.round(result.mu * 10) / 10,
      medianWrongSecretMs: Math.round(result.mw * 10) / 10,
      differencePercent: Math.round(result.ratio * 1000) / 10,
      medianPairedDifferenceMs: Math.round(result.pairedMedian * 10) / 10,
      mannWhitneyP: Math.round(result.p * 1000) / 1000,
    };
    expect(result.ratio).to.be.lessThan(BOUND);
  });
});
