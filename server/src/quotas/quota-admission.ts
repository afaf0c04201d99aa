// Asks the credential's quota about an authenticated request, once, after authentication and
// before validation (api-backend.ts, postSecurityHandler): a refused request costs no
// validation, no handler, no database round trip and no audit row. Every answer of an
// authenticated operation carries the RateLimit-Policy and RateLimit fields; a refusal is
// `429 quota_exceeded` with Retry-After (the envelope, or an OperationOutcome on the R4 view);
// a client asking again before its Retry-After has its refusal held 0.5 to 1 s (client-quotas.ts),
// so one that ignores 429s and loops on its connections gets about one answer per connection
// and second instead of costing the service a refusal per turn of its loop.
import type { Context } from 'koa';
import type { Operation } from 'openapi-backend';
import { ApiError } from '../errors/api-error.js';
import { rateLimitFields } from '../http/rate-limit-fields.js';
import type { Principal } from '../auth/principal.js';
import type { ClientQuotas, QuotaDecision } from './client-quotas.js';
import type { QuotaLimits } from './token-bucket.js';
import { baseWeightOf, requestWeight } from './request-weight.js';

/** The policy's name in the RateLimit fields. */
export const CLIENT_QUOTA_POLICY = 'client';

export function quotaFields(limits: QuotaLimits, decision: Pick<QuotaDecision, 'remaining' | 'resetSeconds'>): Record<string, string> {
  // A token bucket as the draft's quota per window: the burst, refilled in burst/rate seconds.
  return rateLimitFields({ name: CLIENT_QUOTA_POLICY, quota: limits.burst, windowSeconds: Math.max(1, Math.ceil(limits.burst / limits.rate)) }, decision.remaining, decision.resetSeconds);
}

/** Throws the refusal, or (a client asking again too soon) gives a promise that rejects with it once held. */
export type QuotaAdmission = (ctx: Context, principal: Principal, operation: Operation, query: Record<string, unknown> | undefined) => Promise<never> | undefined;

function refusal(decision: QuotaDecision, heldMs: number): ApiError {
  // What the client is told counts from when the answer leaves, after the hold.
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterSeconds - heldMs / 1000));
  const fields = quotaFields(decision.limits, { remaining: 0, resetSeconds: Math.max(0, decision.resetSeconds - heldMs / 1000) });
  return new ApiError(
    'quota_exceeded',
    `This credential has used its request quota (${decision.limits.rate} units a second, ${decision.limits.burst} at once); retry after ${retryAfter} seconds, and pace requests by the RateLimit header. An operator can raise the quota with "ops client update".`,
    [],
    { 'Retry-After': String(retryAfter), ...fields },
  );
}

export function quotaAdmission(quotas: ClientQuotas, onRefused: () => void): QuotaAdmission {
  const baseWeights = new WeakMap<Operation, number>();
  return (ctx, principal, operation, query) => {
    let base = baseWeights.get(operation);
    if (base === undefined) baseWeights.set(operation, (base = baseWeightOf(operation)));
    const decision = quotas.admit(principal.clientPk, principal.clientId, principal.quota, requestWeight(base, query));
    if (!decision.allowed) {
      onRefused();
      if (decision.holdMs === 0) throw refusal(decision, 0);
      const held = decision.holdMs;
      return new Promise<never>((_, reject) => setTimeout(() => reject(refusal(decision, held)), held));
    }
    // Kept on whatever answer follows, an error's too.
    ctx.set(quotaFields(decision.limits, decision));
    return undefined;
  };
}
