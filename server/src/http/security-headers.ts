// Answers of the API carry patient data: no shared or browser cache may keep them, and
// clients must not sniff their type. (The token endpoint sets no-store itself, per RFC 6749.)
import type { Context } from 'koa';

export function setSecurityHeaders(ctx: Context): void {
  // On Node's response: Koa's set only adds its own checks for values that are plain strings.
  const res = ctx.res;
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (ctx.path.startsWith('/api/')) res.setHeader('Cache-Control', 'no-store');
}
