// One credential's token bucket: `burst` units at most, refilled continuously at `rate` units
// a second. A request of weight w is admitted when the bucket holds w units, and takes them.
// Other instances' consumption, learned late (quota-reconciler.ts), is debited without a
// check and may leave the bucket in debt: the debt is repaid by the refill before anything
// more is admitted, so together the instances keep to the rate (docs/quotas.md).

export interface QuotaLimits {
  /** Units refilled per second. */
  rate: number;
  /** Units the bucket holds at most: what a client may spend at once after a quiet spell. */
  burst: number;
}

export interface BucketVerdict {
  allowed: boolean;
  /** Units left after this request (0 when refused or in debt). */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Refused: seconds until the bucket holds this request's weight (at least 1). */
  retryAfterSeconds: number;
}

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private limits: QuotaLimits,
    now: number,
  ) {
    this.tokens = limits.burst;
    this.updatedAt = now;
  }

  /**
   * New limits (an operator changed the credential's quota): a larger burst adds its extra
   * headroom at once, a smaller one caps what is held; debt stays debt.
   */
  setLimits(limits: QuotaLimits, now: number): void {
    if (limits.rate === this.limits.rate && limits.burst === this.limits.burst) return;
    this.refill(now);
    this.tokens = Math.min(limits.burst, this.tokens + Math.max(0, limits.burst - this.limits.burst));
    this.limits = limits;
  }

  /** Units held now: at most `burst`, below 0 while in debt. */
  level(now: number): number {
    this.refill(now);
    return this.tokens;
  }

  /** Admits a request of `weight` units if the bucket holds them. */
  take(weight: number, now: number): BucketVerdict {
    this.refill(now);
    const { rate, burst } = this.limits;
    // A weight above the burst could never be admitted: it waits for a full bucket instead.
    const needed = Math.min(weight, burst);
    if (this.tokens >= needed) {
      this.tokens -= needed;
      return { allowed: true, remaining: this.tokens, resetSeconds: (burst - this.tokens) / rate, retryAfterSeconds: 0 };
    }
    const wait = Math.max(1, Math.ceil((needed - this.tokens) / rate));
    return { allowed: false, remaining: 0, resetSeconds: (burst - Math.max(0, this.tokens)) / rate, retryAfterSeconds: wait };
  }

  /** Units spent elsewhere (another instance): taken unconditionally, debt allowed. */
  debit(units: number, now: number): void {
    this.refill(now);
    this.tokens -= units;
  }

  /** Whether the bucket is full and could be forgotten without changing any answer. */
  isFull(now: number): boolean {
    return this.level(now) >= this.limits.burst;
  }

  private refill(now: number): void {
    const elapsed = (now - this.updatedAt) / 1000;
    if (elapsed > 0) {
      this.tokens = Math.min(this.limits.burst, this.tokens + elapsed * this.limits.rate);
      this.updatedAt = now;
    }
  }
}
