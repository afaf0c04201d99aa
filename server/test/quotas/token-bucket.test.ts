// The bucket's arithmetic: what it admits, when, and what it tells the client.
import { expect } from 'chai';
import { TokenBucket } from '../../src/quotas/token-bucket.js';

describe('a token bucket', () => {
  const limits = { rate: 10, burst: 20 };

  it('admits a full burst at once, then refuses with Retry-After for the missing units', () => {
    const bucket = new TokenBucket(limits, 0);
    for (let i = 0; i < 20; i++) expect(bucket.take(1, 0).allowed, `request ${i + 1}`).to.equal(true);
    const refused = bucket.take(1, 0);
    expect(refused).to.deep.equal({ allowed: false, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 });
    // A weight of 4 needs 0.4 s of refill: Retry-After is rounded up to whole seconds.
    expect(bucket.take(4, 0).retryAfterSeconds).to.equal(1);
    expect(bucket.take(15, 0).retryAfterSeconds).to.equal(2);
  });

  it('refills continuously at its rate and never holds more than its burst', () => {
    const bucket = new TokenBucket(limits, 0);
    expect(bucket.take(20, 0).allowed).to.equal(true);
    expect(bucket.level(250)).to.be.closeTo(2.5, 1e-9);
    expect(bucket.take(3, 250).allowed).to.equal(false);
    expect(bucket.take(2, 250)).to.include({ allowed: true });
    expect(bucket.level(250)).to.be.closeTo(0.5, 1e-9);
    expect(bucket.level(60_000)).to.equal(20);
  });

  it('reports what is left and the seconds until it is full again', () => {
    const bucket = new TokenBucket(limits, 0);
    const verdict = bucket.take(5, 0);
    expect(verdict).to.deep.equal({ allowed: true, remaining: 15, resetSeconds: 0.5, retryAfterSeconds: 0 });
  });

  it('admits over a long spell no more than burst + rate x time', () => {
    const bucket = new TokenBucket(limits, 0);
    let admitted = 0;
    // A request every millisecond for 10 s.
    for (let t = 0; t <= 10_000; t++) if (bucket.take(1, t).allowed) admitted++;
    expect(admitted).to.be.at.most(20 + 10 * 10);
    expect(admitted).to.be.at.least(20 + 10 * 10 - 1);
  });

  it('admits a request heavier than the burst once the bucket is full, for the burst', () => {
    const bucket = new TokenBucket(limits, 0);
    expect(bucket.take(50, 0)).to.include({ allowed: true, remaining: 0 });
    expect(bucket.take(50, 1000)).to.include({ allowed: false, retryAfterSeconds: 1 });
    expect(bucket.take(50, 2000).allowed).to.equal(true);
  });

  it('takes units spent elsewhere into debt, repaid by the refill before anything more is admitted', () => {
    const bucket = new TokenBucket(limits, 0);
    bucket.debit(30, 0);
    expect(bucket.level(0)).to.equal(-10);
    const refused = bucket.take(1, 0);
    expect(refused).to.include({ allowed: false, remaining: 0, retryAfterSeconds: 2 });
    expect(refused.resetSeconds).to.equal(2);
    expect(bucket.take(1, 1000).allowed).to.equal(false);
    expect(bucket.take(1, 1100).allowed).to.equal(true);
  });

  it('keeps what it holds when its limits change: a larger burst adds its headroom, a smaller one caps', () => {
    const bucket = new TokenBucket(limits, 0);
    bucket.take(15, 0);
    bucket.setLimits({ rate: 10, burst: 100 }, 0);
    expect(bucket.level(0)).to.equal(85);
    bucket.setLimits({ rate: 1, burst: 10 }, 0);
    expect(bucket.level(0)).to.equal(10);
    expect(bucket.level(5000)).to.equal(10);
    bucket.take(10, 5000);
    expect(bucket.level(7000)).to.equal(2);
  });

  it('is full, and forgettable, only when it holds its whole burst', () => {
    const bucket = new TokenBucket(limits, 0);
    expect(bucket.isFull(0)).to.equal(true);
    bucket.take(1, 0);
    expect(bucket.isFull(0)).to.equal(false);
    expect(bucket.isFull(100)).to.equal(true);
  });
});
