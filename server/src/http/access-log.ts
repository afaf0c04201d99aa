// One structured line per request: method, route, status, duration, client and request id.
// No URLs (they carry resident ids), no query strings, no bodies, no headers.
import type { Middleware } from 'koa';
import type { Logger } from '../logging/logger.js';

export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          route: (ctx.state.routePath as string | undefined) ?? 'unmatched',
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  };
}
