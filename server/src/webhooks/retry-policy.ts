// What happens after an attempt: delivered (2xx only), retried after the schedule's delay
// with ±20 % jitter (longer when the receiver asks with Retry-After, up to one hour),
// failed once the schedule is exhausted, or the subscription disabled on 410 Gone.

export const JITTER = 0.2;
/** Retry-After is honoured up to this long; the schedule's own delay is never shortened. */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

export type AttemptDecision =
  | { kind: 'delivered' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed' }
  | { kind: 'disable' };

export interface AttemptOutcome {
  /** The HTTP status answered, or null when no answer arrived. */
  status: number | null;
  /** The Retry-After header, raw, when answered. */
  retryAfter?: string | undefined;
}

export function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status <= 299;
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date. Undefined when unusable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, at - now);
}

/** The delay before the next attempt of a series, or null when the schedule is exhausted. */
export function retryDelayMs(
  attemptInSeries: number,
  schedule: readonly number[],
  retryAfter: string | undefined,
  now: number,
  random: () => number = Math.random,
): number | null {
  const step = schedule[attemptInSeries - 1];
  if (step === undefined) return null;
  const jittered = step * 1000 * (1 - JITTER + 2 * JITTER * random());
  const asked = parseRetryAfter(retryAfter, now);
  return Math.round(Math.max(jittered, Math.min(asked ?? 0, MAX_RETRY_AFTER_MS)));
}

export function decideAfterAttempt(
  outcome: AttemptOutcome,
  attemptInSeries: number,
  schedule: readonly number[],
  now: number,
  random: () => number = Math.random,
): AttemptDecision {
  if (isSuccessStatus(outcome.status)) return { kind: 'delivered' };
  if (outcome.status === 410) return { kind: 'disable' };
  const delayMs = retryDelayMs(attemptInSeries, schedule, outcome.retryAfter, now, random);
  return delayMs === null ? { kind: 'failed' } : { kind: 'retry', delayMs };
}
