// The Koa application: every request in one frame (counted in flight, request id, the token
// endpoint's rate limit, error answer, security headers, metrics, access log), then the
// contract's router.
import Koa from 'koa';
import type { OpenAPIBackend } from 'openapi-backend';
import type { AppContext } from './app-context.js';
import { requestFrame } from './http/request-frame.js';
import { errorAnswer } from './http/error-answer.js';
import { accessLog } from './http/access-log.js';
import { dispatch } from './http/dispatch.js';
import { requestMetrics } from './metrics/request-metrics.js';
import { tokenRateLimit } from './auth/token-rate-limit.js';
import { consoleErrorPage } from './console/console-error-page.js';

export function createKoaApp(app: AppContext, api: OpenAPIBackend): Koa {
  const koa = new Koa({ proxy: app.config.trustProxy });
  koa.silent = true; // errors are answered and logged by the frame's error answer
  koa.use(
    requestFrame({
      inFlight: app.inFlight,
      tokenRateLimit: tokenRateLimit(app.tokenRateLimiter),
      answerError: errorAnswer(app.logger, consoleErrorPage),
      countRequest: requestMetrics(app.metrics),
      logRequest: accessLog(app.logger),
    }),
  );
  koa.use(dispatch(api));
  return koa;
}
