// A browser signed in to the console. Its cookie holds `<session id>.<secret>`; only the
// secret's SHA-256 is stored (console_sessions, migration 040), compared in constant time. A
// session is of one organization (the link's), and ends at its absolute expiry
// (CONSOLE_SESSION_HOURS), after CONSOLE_IDLE_MINUTES without a request, or at sign-out.
// The CSRF token of its forms is derived from the secret (console-csrf.ts): nothing more to store.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { sha256Hex } from '../auth/random-token.js';
import { isUuid } from '../db/uuid.js';
import type { ConsoleConfig } from '../config/config.js';
import type { RedeemedLink } from './console-links.js';

export interface ConsoleSession {
  id: string;
  orgId: string;
  operator: string;
  /** The secret the cookie carried (never stored): the CSRF token is derived from it. */
  secret: string;
  expiresAt: string;
}

/** How often last_seen_at is written: a page view a minute is enough for the idle timeout. */
const TOUCH_EVERY_MS = 60_000;

export function cookieValueOf(session: Pick<ConsoleSession, 'id' | 'secret'>): string {
  return `${session.id}.${session.secret}`;
}

export async function openConsoleSession(trx: Knex.Transaction, link: RedeemedLink, config: ConsoleConfig, now = Date.now()): Promise<ConsoleSession> {
  const session: ConsoleSession = { id: randomUUID(), orgId: link.orgId, operator: link.operator, secret: randomBytes(32).toString('base64url'), expiresAt: nowIso(now + config.sessionHours * 3_600_000) };
  await trx('console_sessions').insert({
    id: session.id,
    secret_hash: sha256Hex(session.secret),
    org_id: session.orgId,
    link_id: link.id,
    operator: session.operator,
    created_at: nowIso(now),
    expires_at: session.expiresAt,
    last_seen_at: nowIso(now),
    ended_at: null,
    flash: null,
  });
  return session;
}

interface SessionRow {
  id: string;
  secret_hash: string;
  org_id: string;
  operator: string;
  expires_at: string;
  last_seen_at: string;
  ended_at: string | null;
}

/** The live session a cookie value names, or undefined (unknown, wrong secret, ended, expired or idle). */
export async function findConsoleSession(db: Knex, cookieValue: string | undefined, config: ConsoleConfig, now = Date.now()): Promise<ConsoleSession | undefined> {
  if (cookieValue === undefined) return undefined;
  const dot = cookieValue.indexOf('.');
  const id = cookieValue.slice(0, dot);
  const secret = cookieValue.slice(dot + 1);
  if (dot < 0 || !isUuid(id) || secret.length === 0 || secret.length > 100) return undefined;
  const row = (await db('console_sessions').where({ id: id.toLowerCase() }).first('id', 'secret_hash', 'org_id', 'operator', 'expires_at', 'last_seen_at', 'ended_at')) as SessionRow | undefined;
  if (!row) return undefined;
  if (!timingSafeEqual(Buffer.from(sha256Hex(secret)), Buffer.from(row.secret_hash))) return undefined;
  const at = nowIso(now);
  if (row.ended_at !== null || row.expires_at <= at || Date.parse(row.last_seen_at) + config.idleMinutes * 60_000 <= now) return undefined;
  if (Date.parse(row.last_seen_at) + TOUCH_EVERY_MS <= now) await db('console_sessions').where({ id: row.id }).update({ last_seen_at: at });
  return { id: row.id, orgId: row.org_id, operator: row.operator, secret, expiresAt: row.expires_at };
}

export async function endConsoleSession(db: Knex, id: string, now = Date.now()): Promise<void> {
  await db('console_sessions').where({ id }).whereNull('ended_at').update({ ended_at: nowIso(now), flash: null });
}

/** The outcome of an action, for the page the browser is sent to next (POST, redirect, GET). */
export async function setFlash(db: Knex, id: string, text: string): Promise<void> {
  await db('console_sessions').where({ id }).update({ flash: text.slice(0, 4000) });
}

/** The outcome left by the last action, once: read and cleared. */
export async function takeFlash(db: Knex, id: string): Promise<string | undefined> {
  const row = (await db('console_sessions').where({ id }).first('flash')) as { flash: string | null } | undefined;
  if (!row?.flash) return undefined;
  await db('console_sessions').where({ id, flash: row.flash }).update({ flash: null });
  return row.flash;
}

/** Links and sessions ended more than a day ago are of no use: removed when a link is made. */
export async function deleteStaleConsoleRows(db: Knex, now = Date.now()): Promise<void> {
  const before = nowIso(now - 86_400_000);
  await db('console_sessions').where('expires_at', '<', before).del();
  await db('console_links').where('expires_at', '<', before).whereNotIn('id', db('console_sessions').select('link_id')).del();
}
