// Per-credential request quotas (issue 43, "many partners, fairly"): one token bucket per
// client in this instance's memory, so admitting a request costs no database round trip.
// On PostgreSQL several instances share each client's quota through the reconciler
// (quota-reconciler.ts): each instance reports what it admitted and debits what the others
// did, about once a second. docs/quotas.md gives the design and its error bounds.
import { randomUUID } from 'node:crypto';
import { TokenBucket, type BucketVerdict, type QuotaLimits } from './token-bucket.js';

/** A credential's own limits (`ops client update --quota-rate/--quota-burst`); null fields take the default. */
export interface QuotaOverride {
  rate: number | null;
  burst: number | null;
}

export interface QuotaDecision extends BucketVerdict {
  limits: QuotaLimits;
  /**
   * Refused: how long to hold the answer. A client asking again before the Retry-After it was
   * given is held half a second to a second, at random (never past that time), so a client
   * that ignores 429s cannot spin the service answering them. At random: held until one common
   * moment, its connections would all come back at once, and the units refilled meanwhile be
   * spent in one clump that every other client waits behind.
   */
  holdMs: number;
}

/** The longest a refusal is held (see QuotaDecision.holdMs); the shortest is half of it. */
export const REFUSAL_HOLD_MAX_MS = 1000;

/** A client refused at least once since the last report, and how often. */
export interface RefusedClient {
  clientId: string;
  refused: number;
}

export class ClientQuotas {
  /** This instance's id in the shared usage table. */
  readonly instanceId = randomUUID();
  private readonly buckets = new Map<string, TokenBucket>();
  /** Units admitted here and not yet reported to the other instances, by client. */
  private unreported = new Map<string, number>();
  private refused = new Map<string, RefusedClient>();
  /** When each refused client was told to come back (its last Retry-After), epoch ms. */
  private readonly retryAt = new Map<string, number>();

  constructor(
    readonly defaults: QuotaLimits,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  limitsOf(override: QuotaOverride | null | undefined): QuotaLimits {
    return { rate: override?.rate ?? this.defaults.rate, burst: override?.burst ?? this.defaults.burst };
  }

  /** Admits (and counts) a request of `weight` units from the client, or refuses it. */
  admit(clientPk: string, clientId: string, override: QuotaOverride | null | undefined, weight: number): QuotaDecision {
    const now = this.now();
    const limits = this.limitsOf(override);
    let bucket = this.buckets.get(clientPk);
    if (bucket) bucket.setLimits(limits, now);
    else this.buckets.set(clientPk, (bucket = new TokenBucket(limits, now)));
    const verdict = bucket.take(weight, now);
    if (verdict.allowed) {
      this.unreported.set(clientPk, (this.unreported.get(clientPk) ?? 0) + Math.min(weight, limits.burst));
      return { ...verdict, limits, holdMs: 0 };
    }
    const entry = this.refused.get(clientPk);
    if (entry) entry.refused += 1;
    else this.refused.set(clientPk, { clientId, refused: 1 });
    const told = this.retryAt.get(clientPk) ?? 0;
    const holdMs = told > now ? Math.round(Math.min(told - now, REFUSAL_HOLD_MAX_MS * (0.5 + 0.5 * this.random()))) : 0;
    this.retryAt.set(clientPk, Math.max(told, now + verdict.retryAfterSeconds * 1000));
    return { ...verdict, limits, holdMs };
  }

  /** What was admitted here since the last call, by client (the reconciler reports it). */
  takeUnreported(): Map<string, number> {
    const taken = this.unreported;
    this.unreported = new Map();
    return taken;
  }

  /** Gives back a report that could not be written, to be sent with the next one. */
  restoreUnreported(units: Map<string, number>): void {
    for (const [clientPk, n] of units) this.unreported.set(clientPk, (this.unreported.get(clientPk) ?? 0) + n);
  }

  /** Units another instance admitted for the client. */
  debit(clientPk: string, units: number): void {
    if (units <= 0) return;
    const now = this.now();
    let bucket = this.buckets.get(clientPk);
    // Not seen here yet: a bucket at the default limits, set to the client's own at its first request.
    if (!bucket) this.buckets.set(clientPk, (bucket = new TokenBucket(this.defaults, now)));
    bucket.debit(units, now);
  }

  /** The clients refused since the last call (for the operators' log line). */
  takeRefused(): RefusedClient[] {
    const taken = [...this.refused.values()];
    this.refused = new Map();
    return taken;
  }

  /** Forgets full buckets with nothing to report: a full bucket is what a new one would be. */
  forgetIdle(): void {
    const now = this.now();
    for (const [clientPk, bucket] of this.buckets) {
      if (!this.unreported.has(clientPk) && bucket.isFull(now)) this.buckets.delete(clientPk);
    }
    for (const [clientPk, at] of this.retryAt) if (at <= now) this.retryAt.delete(clientPk);
  }

  /** Buckets held (for tests and the metrics). */
  get size(): number {
    return this.buckets.size;
  }
}
