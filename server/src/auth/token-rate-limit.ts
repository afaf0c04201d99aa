// The token endpoint's per-IP limit, applied before anything else reads the request (its
// body included), so every answer of the endpoint, refusals of a bad body too, counts and
// tells the client where it stands: the IETF RateLimit-Policy and RateLimit fields
// (draft-ietf-httpapi-ratelimit-headers), and Retry-After on the 429. A client can slow
// down before it is refused instead of learning the limit from a 429.
import type { Context } from 'koa';
import { OAuthError } from '../errors/oauth-error.js';
import { TOKEN_OPERATION, TOKEN_PATH } from '../errors/token-endpoint.js';
import type { TokenRateLimiter, RateLimitVerdict } from './token-rate-limiter.js';
import { rateLimitFields as fieldsOf } from '../http/rate-limit-fields.js';
import type { TokenRateLimit } from '../http/request-frame.js';

export function rateLimitFields(limiter: Pick<TokenRateLimiter, 'points' | 'windowSeconds'>, verdict: RateLimitVerdict): Record<string, string> {
  return fieldsOf({ name: 'token', quota: limiter.points, windowSeconds: limiter.windowSeconds }, verdict.remaining, verdict.resetSeconds);
}

export function tokenRateLimit(limiter: TokenRateLimiter): TokenRateLimit {
  return (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== TOKEN_PATH) return undefined;
    return consumed(limiter, ctx);
  };
}

async function consumed(limiter: TokenRateLimiter, ctx: Context): Promise<void> {
  // Named before routing, so a 429 here is counted as the token operation's (metrics).
  ctx.state.operationId = TOKEN_OPERATION;
  const verdict = await limiter.consume(ctx.ip);
  const fields = rateLimitFields(limiter, verdict);
  if (!verdict.allowed) {
    throw new OAuthError('rate_limited', `Too many token requests from this address; retry after ${verdict.retryAfterSeconds} seconds.`, {
      'Cache-Control': 'no-store',
      'Retry-After': String(verdict.retryAfterSeconds),
      ...fields,
    });
  }
  // Set now: the error answer keeps them on whatever answer follows.
  ctx.set(fields);
}
