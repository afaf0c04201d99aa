// The retry policy as a pure function: schedule with ±20 % jitter, Retry-After within
// bounds, exhaustion, 2xx-only success, 410.
import { expect } from 'chai';
import { DEFAULT_RETRY_SCHEDULE } from '../../src/config/config.js';
import { decideAfterAttempt, MAX_RETRY_AFTER_MS, parseRetryAfter, retryDelayMs } from '../../src/webhooks/retry-policy.js';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');
const low = () => 0;
const high = () => 0.999999;

describe('the retry policy', () => {
  it('follows the schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with ±20 % jitter, then fails', () => {
    DEFAULT_RETRY_SCHEDULE.forEach((seconds, i) => {
      expect(retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE, undefined, NOW, low)).to.equal(Math.round(seconds * 800));
      expect(retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE, undefined, NOW, high)).to.be.closeTo(seconds * 1200, seconds * 0.01 + 1);
      expect(retryDelayMs(i + 1, DEFAULT_RETRY_SCHEDULE, undefined, NOW, () => 0.5)).to.equal(seconds * 1000);
    });
    expect(DEFAULT_RETRY_SCHEDULE).to.deep.equal([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retryDelayMs(8, DEFAULT_RETRY_SCHEDULE, undefined, NOW)).to.equal(null);
    expect(decideAfterAttempt({ status: 500 }, 8, DEFAULT_RETRY_SCHEDULE, NOW)).to.deep.equal({ kind: 'failed' });
  });

  it('counts only 2xx as delivered; 3xx, 4xx, 5xx and no answer are retried; 410 disables', () => {
    for (const status of [200, 201, 204, 299]) expect(decideAfterAttempt({ status }, 1, [5], NOW).kind, String(status)).to.equal('delivered');
    for (const status of [null, 100, 301, 302, 304, 400, 404, 429, 500, 503]) expect(decideAfterAttempt({ status }, 1, [5], NOW).kind, String(status)).to.equal('retry');
    expect(decideAfterAttempt({ status: 410 }, 1, [5], NOW).kind).to.equal('disable');
    expect(decideAfterAttempt({ status: 410 }, 9, [5], NOW).kind).to.equal('disable');
  });

  it('waits longer when Retry-After asks (seconds or HTTP date), never shorter than the schedule, at most one hour', () => {
    const mid = () => 0.5;
    expect(retryDelayMs(1, [5], '120', NOW, mid)).to.equal(120_000);
    expect(retryDelayMs(1, [5], '1', NOW, mid)).to.equal(5_000);
    expect(retryDelayMs(1, [5], new Date(NOW + 90_000).toUTCString(), NOW, mid)).to.equal(90_000);
    expect(retryDelayMs(1, [5], '86400', NOW, mid)).to.equal(MAX_RETRY_AFTER_MS);
    expect(retryDelayMs(1, [36000], '60', NOW, mid)).to.equal(36_000_000);
    expect(retryDelayMs(1, [5], 'soon', NOW, mid)).to.equal(5_000);
  });

  it('parses Retry-After safely', () => {
    expect(parseRetryAfter('0', NOW)).to.equal(0);
    expect(parseRetryAfter(' 30 ', NOW)).to.equal(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:00 GMT', NOW)).to.equal(60_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', NOW)).to.equal(0);
    expect(parseRetryAfter('-5', NOW)).to.equal(undefined);
    expect(parseRetryAfter('1.5', NOW)).to.equal(undefined);
    expect(parseRetryAfter('12345678901234567890123', NOW)).to.be.a('number');
    expect(parseRetryAfter(undefined, NOW)).to.equal(undefined);
  });

  it('with a zero schedule retries at once (tests use WEBHOOK_RETRY_SCHEDULE=0,0,0)', () => {
    expect(retryDelayMs(1, [0, 0, 0], undefined, NOW, high)).to.equal(0);
    expect(retryDelayMs(4, [0, 0, 0], undefined, NOW)).to.equal(null);
  });
});
