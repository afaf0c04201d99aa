// An answer sent before its request's body was read whole (a 413 on its Content-Length or cut
// off past a limit, an error before the handler read it) closes the connection after it,
// rather than leave the rest of the body in the socket (RFC 9110 §15.5.14, RFC 9112 §9.6).
// Kept open, Node neither reads that rest nor counts the connection idle, so it stayed until the
// keep-alive timeout (65 s): a graceful stop waited that long behind it.
import type { Context } from 'koa';

export function closeIfBodyUnread(ctx: Context): void {
  if (!ctx.req.complete && !ctx.headerSent) ctx.set('Connection', 'close');
}
