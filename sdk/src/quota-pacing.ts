// Slowing down before the credential's quota refuses a request. Every answer of an
// authenticated operation says where the credential's quota stands, in the IETF fields
// (draft-ietf-httpapi-ratelimit-headers) under the policy named "client":
//   RateLimit-Policy: "client";q=1000;w=20   the burst, and the seconds to refill it
//   RateLimit: "client";r=968;t=1            units left, seconds until the bucket is full
// When the last answer left no more than `reserve` units, the next request waits until the
// bucket has refilled enough for it (at the policy's rate, q per w seconds; without a
// policy, until the reset t), at most `maxWaitMs`, cancellable by the caller's signal.
// Requests sent meanwhile are counted against what is left (one unit each, the least a
// request costs), so concurrent calls queue behind the refill instead of all going at once.
// The token endpoint's own per-address limit (policy "token") is not paced here: the client
// asks for a token rarely, and a 429 there is retried after its Retry-After.
import type { Runtime } from './runtime.js';

/** The policy the service names a credential's request quota by. */
export const CLIENT_QUOTA_POLICY = 'client';

export interface QuotaPacingOptions {
  /** Units to keep in hand: at or below this many left, the next request waits. */
  reserve: number;
  /** The longest one request waits for the refill; then it is sent anyway. */
  maxWaitMs: number;
}

interface QuotaState {
  /** Units left when `at` (after debiting the requests sent since the answer). */
  remaining: number;
  at: number;
  /** When the bucket is full again, by the last answer (epoch ms). */
  resetAt: number;
  /** Units per millisecond, when the answer named the policy. */
  ratePerMs: number | undefined;
  /** The burst (the policy's q), when named. */
  quota: number | undefined;
}

/** The parameters of the item named `name` in a structured-field list such as `"client";r=5;t=1`. */
export function rateLimitItem(field: string | null, name: string): Record<string, number> | undefined {
  if (field === null) return undefined;
  for (const item of field.split(',')) {
    const [label, ...params] = item.trim().split(';');
    if (label?.trim() !== `"${name}"`) continue;
    const values: Record<string, number> = {};
    for (const param of params) {
      const [key, value] = param.split('=');
      const number = Number(value);
      if (key && value !== undefined && /^\s*\d+\s*$/.test(value) && Number.isSafeInteger(number)) values[key.trim()] = number;
    }
    return values;
  }
  return undefined;
}

export class QuotaPacer {
  private state: QuotaState | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: QuotaPacingOptions,
  ) {}

  /** Notes what an answer says of the credential's quota (answers without the fields change nothing). */
  observe(headers: Headers): void {
    const limit = rateLimitItem(headers.get('ratelimit'), CLIENT_QUOTA_POLICY);
    if (limit?.r === undefined || limit.t === undefined) return;
    const policy = rateLimitItem(headers.get('ratelimit-policy'), CLIENT_QUOTA_POLICY);
    const now = this.runtime.now();
    const known = policy?.q !== undefined && policy.w !== undefined && policy.q > 0 && policy.w > 0;
    this.state = {
      remaining: limit.r,
      at: now,
      resetAt: now + limit.t * 1000,
      ratePerMs: known ? policy.q! / (policy.w! * 1000) : undefined,
      quota: known ? policy.q : undefined,
    };
  }

  /** How long the next request should wait now, in ms (0: send it). */
  waitMs(): number {
    const state = this.state;
    if (!state) return 0;
    const now = this.runtime.now();
    if (now >= state.resetAt) return 0;
    const needed = this.options.reserve + 1 - this.remainingAt(state, now);
    if (needed <= 0) return 0;
    const refill = state.ratePerMs === undefined ? state.resetAt - now : Math.ceil(needed / state.ratePerMs);
    return Math.max(0, Math.min(refill, state.resetAt - now, this.options.maxWaitMs));
  }

  /**
   * Waits for the refill when the quota is spent (rejecting with the signal's reason if the
   * caller aborts first), then counts the request about to be sent.
   */
  async beforeSend(signal?: AbortSignal): Promise<void> {
    const wait = this.waitMs();
    if (wait > 0) await this.runtime.sleep(wait, signal);
    const state = this.state;
    if (!state) return;
    const now = this.runtime.now();
    state.remaining = this.remainingAt(state, now) - 1;
    state.at = now;
  }

  /** Units left at `now`: what the answer said, refilled since at the policy's rate. */
  private remainingAt(state: QuotaState, now: number): number {
    if (state.ratePerMs === undefined) return state.remaining;
    return Math.min(state.quota!, state.remaining + (now - state.at) * state.ratePerMs);
  }
}
