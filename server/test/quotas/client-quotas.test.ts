// One bucket per credential in an instance: what it reports to the others, what it is
// debited, and how long a refusal is held for a client asking again before its Retry-After.
import { expect } from 'chai';
import { ClientQuotas, REFUSAL_HOLD_MAX_MS } from '../../src/quotas/client-quotas.js';

describe("an instance's client quotas", () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('keeps one bucket per client, with its own limits or the defaults', () => {
    const quotas = new ClientQuotas({ rate: 1, burst: 2 }, clock);
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).allowed).to.equal(true);
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).allowed).to.equal(true);
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).allowed).to.equal(false);
    expect(quotas.admit('b', 'ofx_ci_b', null, 1).allowed).to.equal(true);
    const own = quotas.admit('c', 'ofx_ci_c', { rate: null, burst: 5 }, 5);
    expect(own).to.include({ allowed: true });
    expect(own.limits).to.deep.equal({ rate: 1, burst: 5 });
  });

  it('reports what it admitted once, keeps a report given back, and names the refused clients', () => {
    const quotas = new ClientQuotas({ rate: 1, burst: 3 }, clock);
    quotas.admit('a', 'ofx_ci_a', null, 2);
    quotas.admit('a', 'ofx_ci_a', null, 2);
    quotas.admit('b', 'ofx_ci_b', null, 1);
    const report = quotas.takeUnreported();
    expect([...report]).to.deep.equal([['a', 2], ['b', 1]]);
    expect(quotas.takeUnreported().size).to.equal(0);
    quotas.restoreUnreported(report);
    quotas.admit('b', 'ofx_ci_b', null, 1);
    expect([...quotas.takeUnreported()]).to.deep.equal([['a', 2], ['b', 2]]);
    expect(quotas.takeRefused()).to.deep.equal([{ clientId: 'ofx_ci_a', refused: 1 }]);
    expect(quotas.takeRefused()).to.deep.equal([]);
  });

  it("debits another instance's admissions, even for a client it has not seen yet", () => {
    const quotas = new ClientQuotas({ rate: 1, burst: 3 }, clock);
    quotas.debit('a', 3);
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).allowed).to.equal(false);
    now += 1000;
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).allowed).to.equal(true);
  });

  it('answers a first refusal at once, and holds the next ones 0.5 to 1 s at random, never past the Retry-After given', () => {
    let random = 1;
    const quotas = new ClientQuotas({ rate: 0.1, burst: 1 }, clock, () => random);
    quotas.admit('a', 'ofx_ci_a', null, 1);
    const first = quotas.admit('a', 'ofx_ci_a', null, 1);
    expect(first).to.include({ allowed: false, retryAfterSeconds: 10, holdMs: 0 });
    now += 300;
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).holdMs).to.equal(REFUSAL_HOLD_MAX_MS);
    random = 0;
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).holdMs).to.equal(REFUSAL_HOLD_MAX_MS / 2);
    random = 0.5;
    expect(quotas.admit('a', 'ofx_ci_a', null, 1).holdMs).to.equal(750);
    // A client that waited its Retry-After is answered at once.
    now += 10_000;
    expect(quotas.admit('a', 'ofx_ci_a', null, 1)).to.include({ allowed: true, holdMs: 0 });
    random = 1;
    const quick = new ClientQuotas({ rate: 1, burst: 1 }, clock, () => random);
    quick.admit('b', 'ofx_ci_b', null, 1);
    expect(quick.admit('b', 'ofx_ci_b', null, 1)).to.include({ retryAfterSeconds: 1, holdMs: 0 });
    now += 600;
    expect(quick.admit('b', 'ofx_ci_b', null, 1).holdMs).to.equal(400);
  });

  it('forgets full buckets with nothing to report, and kept refusals once their time has passed', () => {
    const quotas = new ClientQuotas({ rate: 10, burst: 10 }, clock);
    quotas.admit('a', 'ofx_ci_a', null, 10);
    quotas.takeUnreported();
    quotas.forgetIdle();
    expect(quotas.size).to.equal(1);
    now += 1000;
    quotas.forgetIdle();
    expect(quotas.size).to.equal(0);
  });
});
