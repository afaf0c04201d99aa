// One-time sign-in links to the console, printed by `ops console link`. The link carries a
// random token; only its SHA-256 is stored (console_links, migration 040). Redeeming it is one
// conditional UPDATE (unused and unexpired), so a second use, even at the same instant, finds
// it used; the redeemed link opens a session (console-sessions.ts) in the same transaction.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { randomToken, sha256Hex } from '../auth/random-token.js';

/** Recognizable in a chat or a log scanner: ofctx console link. */
export const LINK_TOKEN_PREFIX = 'ocl_';
export const DEFAULT_LINK_TTL_MS = 15 * 60_000;
/** A link is for signing in now, not a standing credential. */
export const MAX_LINK_TTL_MS = 24 * 60 * 60_000;
/** The path a link opens: a page that signs in by a button (a POST), so a link preview fetching it uses nothing. */
export const SIGN_IN_PATH = '/console/sign-in';

export interface IssuedLink {
  id: string;
  orgId: string;
  token: string;
  expiresAt: string;
}

export async function createConsoleLink(db: Knex, input: { orgId: string; operator: string; ttlMs: number }, now = Date.now()): Promise<IssuedLink> {
  const id = randomUUID();
  const token = randomToken(LINK_TOKEN_PREFIX);
  const expiresAt = nowIso(now + input.ttlMs);
  await db('console_links').insert({ id, token_hash: sha256Hex(token), org_id: input.orgId, operator: input.operator, created_at: nowIso(now), expires_at: expiresAt, used_at: null });
  return { id, orgId: input.orgId, token, expiresAt };
}

export interface RedeemedLink {
  id: string;
  orgId: string;
  operator: string;
}

/** Marks the link used and returns it; undefined when unknown, used or expired (which one is not told). */
export async function redeemConsoleLink(trx: Knex.Transaction, token: string, now = Date.now()): Promise<RedeemedLink | undefined> {
  if (!token.startsWith(LINK_TOKEN_PREFIX) || token.length > 100) return undefined;
  const tokenHash = sha256Hex(token);
  const at = nowIso(now);
  const used = await trx('console_links').where({ token_hash: tokenHash }).whereNull('used_at').andWhere('expires_at', '>', at).update({ used_at: at });
  if (used !== 1) return undefined;
  const row = (await trx('console_links').where({ token_hash: tokenHash }).first('id', 'org_id', 'operator')) as { id: string; org_id: string; operator: string };
  return { id: row.id, orgId: row.org_id, operator: row.operator };
}

/** `--ttl 15m`: minutes (m), hours (h) or seconds (s). */
export function parseLinkTtl(text: string): number | undefined {
  const match = /^(\d+)\s*([smh])$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 's' | 'm' | 'h'];
  return ms > 0 && ms <= MAX_LINK_TTL_MS ? ms : undefined;
}
