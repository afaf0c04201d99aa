// Where an organization's 270s go: its clearinghouse (or payer) connections, set by operators
// with `ops clearinghouse set`. A connection either names the payer ids it serves, or is the
// organization's default for every payer no other connection names; a payer id is named by
// one connection at most, so routing is never ambiguous. The password is encrypted at rest
// with the webhook key (AES-256-GCM bound to the connection's id, rotated by `ops keys rotate`)
// and never printed again. The URL is vetted like a webhook callback (https and public
// addresses only, unless WEBHOOK_ALLOW_PRIVATE_TARGETS), here and again at every exchange.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';
import { vetCallbackTarget, type TargetPolicy } from '../webhooks/ssrf-guard.js';
import type { CoreProtocol } from './core-envelope.js';

export interface ClearinghouseConnection {
  id: string;
  org_id: string;
  url: string;
  protocol: CoreProtocol;
  username: string;
  sender_id: string;
  receiver_id: string;
  /** The payer ids it serves; null: the organization's default. */
  payers: string[] | null;
  concurrency: number;
  /** ISA15: P production, T test. */
  usage: 'P' | 'T';
  failures: number;
  paused_until: string | null;
  created_at: string;
  updated_at: string;
}

/** A connection with its stored (encrypted) password, for the exchange only. */
export interface ConnectionWithSecret extends ClearinghouseConnection {
  password_encrypted: string;
}

export interface ConnectionSettings {
  orgId: string;
  url: string;
  protocol: CoreProtocol;
  username: string;
  password: string;
  senderId: string;
  receiverId: string;
  payers: string[] | null;
  concurrency: number;
  usage: 'P' | 'T';
}

/** A setting an operator must correct; the message says how. */
export class ConnectionProblem extends Error {}

/** ISA06/ISA08: up to 15 characters of the X12 basic character set, no delimiters. */
const INTERCHANGE_ID = /^[A-Za-z0-9 .,\-()/&'+]{1,15}$/;
/** NM109 of a payer (qualifier PI): letters, digits and a few marks. */
const PAYER_ID = /^[A-Za-z0-9.\-_]{1,80}$/;
export const MAX_CONNECTION_CONCURRENCY = 64;

/** The columns a connection is read from, for a statement that reads them beside others (eligibility-inquiry.ts). */
export const CONNECTION_COLUMNS = ['id', 'org_id', 'url', 'protocol', 'username', 'password_encrypted', 'sender_id', 'receiver_id', 'payers', 'concurrency', 'usage', 'failures', 'paused_until', 'created_at', 'updated_at'] as const;

/** A connection from its row; `prefix`: the row names its columns so (`ch_id`, `ch_url`...). */
export function connectionOf(row: Record<string, unknown>, prefix = ''): ConnectionWithSecret {
  const col = (name: (typeof CONNECTION_COLUMNS)[number]) => row[prefix + name];
  const payers = col('payers');
  return {
    id: col('id') as string,
    org_id: col('org_id') as string,
    url: col('url') as string,
    protocol: col('protocol') as CoreProtocol,
    username: col('username') as string,
    password_encrypted: col('password_encrypted') as string,
    sender_id: col('sender_id') as string,
    receiver_id: col('receiver_id') as string,
    payers: payers ? (JSON.parse(payers as string) as string[]) : null,
    concurrency: Number(col('concurrency')),
    usage: col('usage') as 'P' | 'T',
    failures: Number(col('failures')),
    paused_until: (col('paused_until') as string | null) ?? null,
    created_at: col('created_at') as string,
    updated_at: col('updated_at') as string,
  };
}

/** What may be shown: everything but the password. */
export function shownConnection(connection: ConnectionWithSecret | ClearinghouseConnection): ClearinghouseConnection {
  const { password_encrypted: _hidden, ...shown } = connection as ConnectionWithSecret;
  return shown;
}

export async function listConnections(db: Knex, orgId: string): Promise<ConnectionWithSecret[]> {
  const rows = (await db('clearinghouse_connections').where({ org_id: orgId }).orderBy('seq')) as Array<Record<string, unknown>>;
  return rows.map((row) => connectionOf(row));
}

export async function findConnection(db: Knex, id: string): Promise<ConnectionWithSecret | undefined> {
  const row = (await db('clearinghouse_connections').where({ id }).first()) as Record<string, unknown> | undefined;
  return row ? connectionOf(row) : undefined;
}

/** The connection a payer id is asked through: the one naming it, else the default; undefined when none. */
export function routeFor<T extends Pick<ClearinghouseConnection, 'payers'>>(connections: T[], payerId: string): T | undefined {
  const key = payerId.toUpperCase();
  return connections.find((c) => c.payers?.some((p) => p.toUpperCase() === key)) ?? connections.find((c) => c.payers === null);
}

function checkSettings(settings: ConnectionSettings): void {
  if (!['soap', 'mime'].includes(settings.protocol)) throw new ConnectionProblem(`--protocol must be soap or mime (the two envelopes of the CORE Connectivity Rule), got "${settings.protocol}"`);
  if (!settings.username || settings.username.length > 200) throw new ConnectionProblem('--username is required (at most 200 characters)');
  if (!settings.password || settings.password.length > 1024) throw new ConnectionProblem('--password is required (at most 1024 characters)');
  for (const [name, value] of [['--sender-id', settings.senderId], ['--receiver-id', settings.receiverId]] as const) {
    if (!INTERCHANGE_ID.test(value) || value.trim() !== value) throw new ConnectionProblem(`${name} must be 1 to 15 letters, digits or spaces (ISA06/ISA08, as the clearinghouse assigned it), got "${value}"`);
  }
  if (settings.payers !== null) {
    if (settings.payers.length === 0) throw new ConnectionProblem('--payers lists no payer id; leave it out for the default connection');
    const bad = settings.payers.filter((p) => !PAYER_ID.test(p));
    if (bad.length) throw new ConnectionProblem(`--payers must be payer ids (letters, digits, . - _), got ${bad.map((b) => JSON.stringify(b)).join(', ')}`);
  }
  if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1 || settings.concurrency > MAX_CONNECTION_CONCURRENCY) {
    throw new ConnectionProblem(`--concurrency must be an integer from 1 to ${MAX_CONNECTION_CONCURRENCY}`);
  }
}

/**
 * Creates the connection, or updates the organization's one that serves the same payers (the
 * default when `payers` is null): `set` twice with a new password rotates it. Refuses a payer
 * id another connection of the organization already names.
 */
export async function setConnection(db: Knex, cipher: SigningSecretCipher, policy: TargetPolicy, settings: ConnectionSettings, now = Date.now()): Promise<{ connection: ClearinghouseConnection; created: boolean }> {
  checkSettings(settings);
  const verdict = await vetCallbackTarget(settings.url, policy);
  if (!verdict.allowed) throw new ConnectionProblem(`--url ${verdict.reason}: a clearinghouse is reached over https at a public address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows http and private addresses, for development only)`);
  const payers = settings.payers === null ? null : [...new Set(settings.payers.map((p) => p.toUpperCase()))].sort();
  return db.transaction(async (trx) => {
    const existing = (await listConnections(trx, settings.orgId)).filter((c) => c.org_id === settings.orgId);
    const same = existing.find((c) => (c.payers === null && payers === null) || (c.payers !== null && payers !== null && c.payers.join(',') === payers.join(',')));
    if (payers !== null) {
      for (const other of existing) {
        if (other === same || other.payers === null) continue;
        const shared = other.payers.filter((p) => payers.includes(p));
        if (shared.length) throw new ConnectionProblem(`payer id(s) ${shared.join(', ')} are served by connection ${other.id} already; remove them there first (ops clearinghouse remove ${other.id}, or set it again without them)`);
      }
    }
    const id = same?.id ?? randomUUID();
    const row = {
      url: verdict.url.toString(),
      protocol: settings.protocol,
      username: settings.username,
      password_encrypted: cipher.encrypt(settings.password, id),
      sender_id: settings.senderId,
      receiver_id: settings.receiverId,
      payers: payers === null ? null : JSON.stringify(payers),
      concurrency: settings.concurrency,
      usage: settings.usage,
      failures: 0,
      paused_until: null,
      updated_at: nowIso(now),
    };
    if (same) await trx('clearinghouse_connections').where({ id }).update(row);
    else await trx('clearinghouse_connections').insert({ id, org_id: settings.orgId, ...row, created_at: nowIso(now) });
    const stored = (await findConnection(trx, id))!;
    return { connection: shownConnection(stored), created: !same };
  });
}

export async function removeConnection(db: Knex, id: string): Promise<ClearinghouseConnection | undefined> {
  const found = await findConnection(db, id);
  if (!found) return undefined;
  await db('clearinghouse_connections').where({ id }).delete();
  return shownConnection(found);
}
