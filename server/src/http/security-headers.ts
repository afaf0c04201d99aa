// Answers of the API carry patient data: no shared or browser cache may keep them, and
// clients must not sniff their type. (The token endpoint sets no-store itself, per RFC 6749.)
import type { Middleware } from 'koa';

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      ctx.set('X-Content-Type-Options', 'nosniff');
      if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    }
  };
}
