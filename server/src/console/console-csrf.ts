// CSRF tokens of the console's forms: an HMAC of the session id under the session's secret
// (which only the cookie holds: the database keeps its hash). Every form carries it in a
// hidden field; every POST is refused unless it matches, compared in constant time. With
// SameSite=Strict cookies and the Origin check (console-requests.ts), a cross-site form
// cannot act in the operator's name.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ConsoleSession } from './console-sessions.js';

export const CSRF_FIELD = 'csrf_token';

export function csrfTokenOf(session: Pick<ConsoleSession, 'id' | 'secret'>): string {
  return createHmac('sha256', session.secret).update(`ofctx-console-csrf:${session.id}`).digest('base64url');
}

export function csrfTokenMatches(session: Pick<ConsoleSession, 'id' | 'secret'>, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfTokenOf(session));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
