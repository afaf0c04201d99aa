// Answers of the API carry patient data: no shared or browser cache may keep them, and
// clients must not sniff their type. (The token endpoint sets no-store itself, per RFC 6749.)
import type { Context } from 'koa';

export function setSecurityHeaders(ctx: Context): void {
  const response = ctx.response;
  response.set('X-Content-Type-Options', 'nosniff');
  if (ctx.request.path.startsWith('/api/')) response.set('Cache-Control', 'no-store');
}
