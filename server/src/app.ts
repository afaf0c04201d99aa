// The Koa application: requests counted in flight (stopping waits for them), request id,
// access log, security headers, request metrics, error envelope, then the contract's router.
import Koa from 'koa';
import type { OpenAPIBackend } from 'openapi-backend';
import type { AppContext } from './app-context.js';
import { requestId } from './http/request-id.js';
import { errorHandler } from './http/error-handler.js';
import { accessLog } from './http/access-log.js';
import { dispatch } from './http/dispatch.js';
import { securityHeaders } from './http/security-headers.js';
import { requestMetrics } from './metrics/request-metrics.js';
import { tokenRateLimit } from './auth/token-rate-limit.js';

export function createKoaApp(app: AppContext, api: OpenAPIBackend): Koa {
  const koa = new Koa({ proxy: app.config.trustProxy });
  koa.silent = true; // errors are answered and logged by errorHandler
  koa.use(app.inFlight.middleware());
  koa.use(requestId());
  koa.use(accessLog(app.logger));
  koa.use(securityHeaders());
  koa.use(requestMetrics(app.metrics));
  koa.use(errorHandler(app.logger));
  koa.use(tokenRateLimit(app.tokenRateLimiter));
  koa.use(dispatch(api));
  return koa;
}
