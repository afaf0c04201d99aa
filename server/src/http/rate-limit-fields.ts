// The IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers), for
// every limit the service answers with: the token endpoint's per-address window and each
// credential's request quota. A client reads where it stands on every answer and can slow
// down before it is refused, instead of learning the limit from a 429.

export interface RateLimitPolicy {
  /** The policy's name in both fields (a quoted string item): `token`, `client`. */
  name: string;
  /** Quota units the policy allows per window... */
  quota: number;
  /** ...and the window, in seconds. */
  windowSeconds: number;
}

export function rateLimitFields(policy: RateLimitPolicy, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${Math.max(0, Math.floor(remaining))};t=${Math.max(0, Math.ceil(resetSeconds))}`,
  };
}
