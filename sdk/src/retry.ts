// When and how long to wait before sending a request again. The loop that uses these
// rules lives in transport.ts.
import type { paths } from './generated/openapi.js';

/** Statuses that say "the request was not handled, try again later". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

type PathWithPost = { [P in keyof paths]: paths[P] extends { post: object } ? P : never }[keyof paths];

/**
 * POST operations that are safe to send twice. Every other POST (registerWebhook, which
 * creates a subscription, redeliver and recover, whose retry after a lost answer would
 * answer 409 or `queued: 0` for work the first call did, and ingestFhir and ingestX12, the
 * system of record's writes that partners never call) is sent once: a retry after a
 * timeout could register a second subscription. Typed against the contract, so renaming a
 * path breaks the build instead of silently disabling retries.
 */
const RETRY_SAFE_POSTS: readonly PathWithPost[] = [
  '/api/v1/oauth/token', // issues a new token each time; nothing accumulates
  '/api/v1/ofctx/{org_id}/webhooks/{id}/test', // builds and returns a delivery, sends nothing
  '/api/v1/ofctx/{org_id}/webhooks/{id}/enable', // enabling an active subscription changes nothing
  // FHIR R4 POST [type]/_search: a search, reads only
  '/api/v1/fhir/R4/{org_id}/{facility_id}/Patient/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/Coverage/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/Observation/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/AllergyIntolerance/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/Condition/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/ServiceRequest/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/MedicationRequest/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/CoverageEligibilityResponse/_search',
  '/api/v1/fhir/R4/{org_id}/{facility_id}/DiagnosticReport/_search',
];

const RETRY_SAFE_POST_PATTERNS = RETRY_SAFE_POSTS.map(
  (path) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
);

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether a request may be sent again after a network error or a retryable status.
 * `path` is relative to the client's base URL (`/api/v1/...`).
 */
export function isRetrySafe(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  if (IDEMPOTENT_METHODS.has(upper)) return true;
  return upper === 'POST' && RETRY_SAFE_POST_PATTERNS.some((pattern) => pattern.test(path));
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delay-seconds or an HTTP date
 * (RFC 9110 section 10.2.3). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month (`Sun, 22 Nov 2026 10:00:07 GMT`); Date.parse
  // alone would also read strings such as '-3' as dates.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential back-off with full jitter: a random wait between 0 and
 * min(cap, base * 2^retry), so that clients failing together do not retry together.
 */
export function backoffDelay(retry: number, random: () => number, baseMs = 500, capMs = 8_000): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** retry));
}

/** Waits `ms`, rejecting with the signal's reason as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
