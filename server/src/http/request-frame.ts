// What every request goes through around its operation, in one middleware: counted in flight
// (stopping waits for it), given its id and its security headers, its headers' size checked,
// the token endpoint's rate limit, anything thrown answered (the error envelope), then its
// metrics and its access-log line once the answer is final. One frame instead of seven nested
// middlewares: in Koa each is a closure, a bound dispatch and two promises per request, and
// together they were a fifth of a /healthz request's CPU time (paired A/B, 2026-11-27). Each
// step is its own file.
import type { Context, Middleware } from 'koa';
import type { InFlightRequests } from './in-flight-requests.js';
import { assignRequestId } from './request-id.js';
import type { ErrorAnswer } from './error-answer.js';
import { setSecurityHeaders } from './security-headers.js';
import { closeIfBodyUnread } from './unread-request-body.js';
import { refuseOversizeHeaders } from './header-size.js';
import type { RequestMetrics } from '../metrics/request-metrics.js';
import type { AccessLog } from './access-log.js';

/** Counts a token request against its address's limit (refused: throws); other requests pass (auth/token-rate-limit.ts). */
export type TokenRateLimit = (ctx: Context) => Promise<void> | undefined;

export interface RequestFrameSteps {
  inFlight: InFlightRequests;
  tokenRateLimit: TokenRateLimit;
  answerError: ErrorAnswer;
  countRequest: RequestMetrics;
  logRequest: AccessLog;
}

export function requestFrame(steps: RequestFrameSteps): Middleware {
  const { inFlight, tokenRateLimit, answerError, countRequest, logRequest } = steps;
  return async (ctx, next) => {
    const started = performance.now();
    inFlight.enter();
    try {
      assignRequestId(ctx);
      // Before the operation: a 200 is written as soon as it is ready (http/dispatch.ts).
      setSecurityHeaders(ctx);
      try {
        refuseOversizeHeaders(ctx);
        const limited = tokenRateLimit(ctx);
        if (limited) await limited;
        await next();
      } catch (thrown) {
        answerError(ctx, thrown);
      }
      // Whatever the answer: one sent before the body was read whole ends its connection.
      closeIfBodyUnread(ctx);
    } finally {
      try {
        countRequest(ctx, started);
        logRequest(ctx, started);
      } finally {
        inFlight.leave();
      }
    }
  };
}
