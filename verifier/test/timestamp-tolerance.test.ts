import { expect } from 'chai';
import {
  InvalidTimestampError,
  TimestampOutsideToleranceError,
  verifyDelivery,
  verifyDeliveryAsync,
  type VerifyDeliveryOptions,
} from '../src/index.js';
import { secret, signedDelivery } from './support/signed-delivery.js';

const sentAt = Date.UTC(2026, 10, 22, 10, 0, 0);
const clockAt = (ms: number) => () => ms;

function verifyAt(nowMs: number, options: VerifyDeliveryOptions, headerOverrides: Record<string, string | undefined> = {}) {
  const { body, headers } = signedDelivery({ sentAt });
  const merged = Object.fromEntries(Object.entries({ ...headers, ...headerOverrides }).filter(([, v]) => v !== undefined));
  return verifyDelivery(body, merged, secret, { now: clockAt(nowMs), ...options });
}

describe('toleranceSeconds (X-Service-Timestamp)', () => {
  it('is off by default: any timestamp, or none, is accepted', () => {
    expect(verifyAt(sentAt + 86_400_000, {})).to.have.property('delivery_id');
    expect(verifyAt(sentAt, {}, { 'X-Service-Timestamp': undefined })).to.have.property('delivery_id');
  });

  it('accepts an attempt up to toleranceSeconds in the past or the future, inclusive', () => {
    expect(verifyAt(sentAt + 300_000, { toleranceSeconds: 300 })).to.have.property('delivery_id');
    expect(verifyAt(sentAt - 300_000, { toleranceSeconds: 300 })).to.have.property('delivery_id');
  });

  it('rejects an attempt one second too old or too far ahead, saying which', () => {
    const now = sentAt + 301_000;
    let error: unknown;
    try {
      verifyAt(now, { toleranceSeconds: 300 });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TimestampOutsideToleranceError);
    expect(error).to.include({ code: 'timestamp_outside_tolerance', status: 400, timestamp: sentAt / 1000, now: now / 1000 });
    expect((error as Error).message).to.match(/301 s in the past, outside the 300 s tolerance/);
    expect(() => verifyAt(sentAt - 301_000, { toleranceSeconds: 300 })).to.throw(TimestampOutsideToleranceError, /in the future/);
  });

  it('rejects a missing or malformed timestamp when checking is on', () => {
    expect(() => verifyAt(sentAt, { toleranceSeconds: 300 }, { 'X-Service-Timestamp': undefined })).to.throw(InvalidTimestampError, /missing/);
    for (const bad of ['', 'yesterday', '1795341600.5', '-1795341600', `${sentAt}000000`]) {
      expect(() => verifyAt(sentAt, { toleranceSeconds: 300 }, { 'X-Service-Timestamp': bad }), bad).to.throw(InvalidTimestampError);
    }
  });

  it('checks the timestamp only after the signature, so a forged request is reported as such', () => {
    const { body, headers } = signedDelivery({ sentAt: 0 });
    expect(() => verifyDelivery(`${body} `, headers, secret, { toleranceSeconds: 300 })).to.throw(/does not match/);
  });

  it('throws a TypeError for a negative or non-numeric tolerance', () => {
    expect(() => verifyAt(sentAt, { toleranceSeconds: -1 })).to.throw(TypeError, /toleranceSeconds/);
    expect(() => verifyAt(sentAt, { toleranceSeconds: Number.NaN })).to.throw(TypeError, /toleranceSeconds/);
  });

  it('applies in the async API too', async () => {
    const { body, headers } = signedDelivery({ sentAt });
    const options = { toleranceSeconds: 60, now: clockAt(sentAt + 61_000), crypto: 'web' as const };
    let error: unknown;
    try {
      await verifyDeliveryAsync(body, headers, secret, options);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TimestampOutsideToleranceError);
  });
});
