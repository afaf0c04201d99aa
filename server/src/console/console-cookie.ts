// The console's session cookie: HttpOnly (no script reads it), SameSite=Strict (no other
// site's page sends it), Path=/console (the API never sees it), and Secure unless the browser
// reached the service over plain HTTP on loopback (a developer's machine: Secure would make
// the browser drop it). Behind a TLS proxy on the same host, the Host header names the public
// name, so the cookie is Secure there too.
import { parse, serialize } from 'cookie';
import { isIP } from 'node:net';

export const SESSION_COOKIE = 'ofctx_console';
export const CONSOLE_PATH = '/console';

/** What decides Secure, from the request. */
export interface RequestOrigin {
  /** http or https, as Koa reads it (X-Forwarded-Proto only with TRUST_PROXY). */
  protocol: string;
  /** The Host header's name, without the port. */
  hostname: string;
  /** The TCP peer. */
  remoteAddress: string | undefined;
}

function isLoopbackName(name: string): boolean {
  const bare = name.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '::ffff:127.0.0.1';
}

export function onLoopback(origin: RequestOrigin): boolean {
  return origin.protocol === 'http' && isLoopbackName(origin.hostname) && origin.remoteAddress !== undefined && isLoopbackName(origin.remoteAddress.replace(/^::ffff:(?=127\.)/, ''));
}

export function sessionCookie(value: string, maxAgeSeconds: number, origin: RequestOrigin): string {
  return serialize(SESSION_COOKIE, value, { httpOnly: true, sameSite: 'strict', path: CONSOLE_PATH, maxAge: Math.max(0, Math.floor(maxAgeSeconds)), secure: !onLoopback(origin) });
}

/** Sent at sign-out: the browser forgets the cookie. */
export function clearedSessionCookie(origin: RequestOrigin): string {
  return serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', path: CONSOLE_PATH, maxAge: 0, secure: !onLoopback(origin) });
}

export function sessionCookieOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return parse(cookieHeader)[SESSION_COOKIE] || undefined;
}
