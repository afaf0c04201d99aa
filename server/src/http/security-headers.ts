// Answers of the API carry patient data: no shared or browser cache may keep them, and
// clients must not sniff their type. (The token endpoint sets no-store itself, per RFC 6749.)
// The operators' console is HTML for a browser: its pages, errors included, also get a
// Content-Security-Policy that allows no script at all, no frame, no other origin, and
// stylesheets from this service only; no referrer to another origin (its URLs name residents
// and messages; same-origin, not no-referrer: with no-referrer a browser sends `Origin: null`
// on the forms' POSTs, and the origin check needs the real one).
import type { Context } from 'koa';
import { isConsolePath } from './error-format.js';

export const CONSOLE_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function setSecurityHeaders(ctx: Context): void {
  // On Node's response: Koa's set only adds its own checks for values that are plain strings.
  const res = ctx.res;
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (ctx.path.startsWith('/api/')) res.setHeader('Cache-Control', 'no-store');
  else if (isConsolePath(ctx.path)) {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  }
}
