// Machine credentials (OAuth clients). Issued by operators through the ops CLI; each is
// bound to one organization, a set of scopes and a set of facilities of that organization.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { decoyHash, hashSecret, verifySecret } from './secret-hash.js';
import { formatScopes, INGEST_SCOPE, isScope, parseScopes } from '../tenancy/scopes.js';
import { randomToken } from './random-token.js';
import { DEFAULT_POLICY, policyColumns, policyOfRow, type AccessPolicy } from '../tenancy/access-policy.js';
import type { QuotaOverride } from '../quotas/client-quotas.js';
import { disableSubscriptionsOf } from '../webhooks/subscriptions.js';

/**
 * `partner`: reads and webhooks, never `ingest.write`. `ingest`: the facility's system of
 * record, `ingest.write` only, so it can never read the partner endpoints.
 */
export type ClientKind = 'partner' | 'ingest';

export interface ClientRecord {
  id: string;
  client_id: string;
  org_id: string;
  kind: ClientKind;
  name: string;
  scopes: string[];
  facility_ids: string[];
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
  /** How the credential may authenticate at the token endpoint. */
  auth_methods: AuthMethod[];
  /** Who it may see: purpose of use, payers, sensitive records (tenancy/access-policy.ts). */
  policy: AccessPolicy;
  /** Its own request quota (units a second, burst), or null: the service's default. */
  quota: QuotaOverride | null;
}

export type AuthMethod = 'client_secret' | 'private_key_jwt';

export interface IssuedClient {
  client_id: string;
  client_secret: string;
  org_id: string;
  facility_ids: string[];
  scopes: string[];
  /** How the credential may authenticate at the token endpoint. */
  auth_methods: AuthMethod[];
  policy: AccessPolicy;
}

/** A credential that authenticates with its keys only (private_key_jwt): it has no secret. */
export type IssuedKeyOnlyClient = Omit<IssuedClient, 'client_secret'> & { client_secret: null };

export interface ClientInput {
  orgId: string;
  facilityIds: string[];
  scopes: string[];
  name: string;
  keys?: ClientPublicKeys;
  withoutSecret?: boolean;
  /** Defaults to partner. */
  kind?: ClientKind;
  /** Defaults to DEFAULT_POLICY (HOPERAT, every resident, no restricted records). */
  policy?: AccessPolicy;
}

/** Public keys for private_key_jwt: a JWKS document (checked by parsePublicJwks) or its URL. */
export interface ClientPublicKeys {
  jwks: string | null;
  jwks_url: string | null;
}

/** Stored in `secret_hash` for a credential without a secret: not a scrypt hash, so nothing matches it. */
const NO_SECRET = 'none';

async function checkFacilitiesOfOrg(db: Knex, orgId: string, facilityIds: string[]): Promise<void> {
  if (facilityIds.length === 0) throw new Error('a client needs at least one facility');
  const found = await db('facilities').whereIn('id', facilityIds).andWhere({ org_id: orgId }).pluck('id');
  const missing = facilityIds.filter((id) => !found.includes(id));
  if (missing.length) throw new Error(`not facilities of organization ${orgId}: ${missing.join(', ')}`);
}

export async function createClient(db: Knex, input: ClientInput & { withoutSecret: true }): Promise<IssuedKeyOnlyClient>;
export async function createClient(db: Knex, input: ClientInput & { withoutSecret?: false }): Promise<IssuedClient>;
export async function createClient(db: Knex, input: ClientInput): Promise<IssuedClient | IssuedKeyOnlyClient>;
export async function createClient(db: Knex, input: ClientInput): Promise<IssuedClient | IssuedKeyOnlyClient> {
  const kind = input.kind ?? 'partner';
  const keys = input.keys ?? { jwks: null, jwks_url: null };
  if (input.withoutSecret && !keys.jwks && !keys.jwks_url) throw new Error('a credential without a secret needs public keys (a JWKS or a JWKS URL)');
  const unknown = input.scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new Error(`unknown scopes: ${unknown.join(', ')}`);
  if (input.scopes.length === 0) throw new Error('a client needs at least one scope');
  if (kind === 'partner' && input.scopes.includes(INGEST_SCOPE)) {
    throw new Error(`a partner credential cannot hold ${INGEST_SCOPE}; issue an ingest credential with "source create"`);
  }
  if (kind === 'ingest' && input.scopes.some((s) => s !== INGEST_SCOPE)) {
    throw new Error(`an ingest credential holds ${INGEST_SCOPE} only`);
  }
  const facilityIds = [...new Set(input.facilityIds)];
  await checkFacilitiesOfOrg(db, input.orgId, facilityIds);
  const clientSecret = input.withoutSecret ? null : randomToken('ofx_cs_');
  const row = {
    id: randomUUID(),
    client_id: `ofx_ci_${randomBytes(12).toString('hex')}`,
    org_id: input.orgId,
    kind,
    name: input.name,
    secret_hash: clientSecret === null ? NO_SECRET : await hashSecret(clientSecret),
    jwks: keys.jwks,
    jwks_url: keys.jwks_url,
    scopes: formatScopes(input.scopes),
    ...policyColumns(input.policy ?? DEFAULT_POLICY),
    status: 'active',
    created_at: nowIso(),
    revoked_at: null,
  };
  await db.transaction(async (trx) => {
    await trx('clients').insert(row);
    await trx('client_facilities').insert(facilityIds.map((facility_id) => ({ client_pk: row.id, facility_id })));
  });
  return {
    client_id: row.client_id,
    client_secret: clientSecret as string,
    org_id: row.org_id,
    facility_ids: facilityIds,
    scopes: parseScopes(row.scopes),
    auth_methods: authMethodsOf(row),
    policy: policyOfRow(row),
  };
}

async function facilityIdsOf(db: Knex, clientPk: string): Promise<string[]> {
  return db('client_facilities').where({ client_pk: clientPk }).orderBy('facility_id').pluck('facility_id');
}

function authMethodsOf(row: Record<string, unknown>): AuthMethod[] {
  return [...(row.secret_hash === NO_SECRET ? [] : ['client_secret' as const]), ...(row.jwks || row.jwks_url ? ['private_key_jwt' as const] : [])];
}

function toRecord(row: Record<string, unknown>, facilityIds: string[]): ClientRecord {
  return {
    id: row.id as string,
    client_id: row.client_id as string,
    org_id: row.org_id as string,
    kind: ((row.kind as string | undefined) ?? 'partner') as ClientKind,
    name: row.name as string,
    scopes: parseScopes(row.scopes as string),
    facility_ids: facilityIds,
    status: row.status as ClientRecord['status'],
    created_at: row.created_at as string,
    revoked_at: (row.revoked_at as string | null) ?? null,
    auth_methods: authMethodsOf(row),
    policy: policyOfRow(row),
    quota: quotaOfRow(row),
  };
}

/** The quota override of a `clients` row; null when it has none (the default applies). */
export function quotaOfRow(row: { quota_rate?: unknown; quota_burst?: unknown }): QuotaOverride | null {
  const rate = row.quota_rate === null || row.quota_rate === undefined ? null : Number(row.quota_rate);
  const burst = row.quota_burst === null || row.quota_burst === undefined ? null : Number(row.quota_burst);
  return rate === null && burst === null ? null : { rate, burst };
}

export async function findClient(db: Knex, clientId: string): Promise<ClientRecord | undefined> {
  const row = await db('clients').where({ client_id: clientId }).first();
  return row ? toRecord(row, await facilityIdsOf(db, row.id)) : undefined;
}

export async function listClients(db: Knex, orgId: string, kind?: ClientKind): Promise<ClientRecord[]> {
  const rows = await db('clients').where({ org_id: orgId, ...(kind ? { kind } : {}) }).orderBy('created_at').orderBy('id');
  return Promise.all(rows.map(async (row) => toRecord(row, await facilityIdsOf(db, row.id))));
}

/**
 * Revoking also invalidates every token of the client (checked on each request), and disables
 * the webhook and FHIR subscriptions it owns (`credential_revoked`), in one transaction.
 */
export async function revokeClient(db: Knex, clientId: string): Promise<{ client: ClientRecord; subscriptionsDisabled: number } | undefined> {
  const subscriptionsDisabled = await db.transaction(async (trx) => {
    const active = (await trx('clients').where({ client_id: clientId, status: 'active' }).first('id')) as { id: string } | undefined;
    if (!active) return 0;
    await trx('clients').where({ id: active.id }).update({ status: 'revoked', revoked_at: nowIso() });
    // Nothing more would reach the subscriptions it owns: disabled, they say so.
    return disableSubscriptionsOf(trx, active.id);
  });
  const client = await findClient(db, clientId);
  return client && { client, subscriptionsDisabled };
}

/** Replaces the facility grant. Tokens lose removed facilities at once (checked per request). */
export async function grantFacilities(db: Knex, clientId: string, facilityIds: string[]): Promise<ClientRecord> {
  const client = await findClient(db, clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  const unique = [...new Set(facilityIds)];
  await checkFacilitiesOfOrg(db, client.org_id, unique);
  await db.transaction(async (trx) => {
    await trx('client_facilities').where({ client_pk: client.id }).delete();
    await trx('client_facilities').insert(unique.map((facility_id) => ({ client_pk: client.id, facility_id })));
  });
  return (await findClient(db, clientId))!;
}

/**
 * Replaces what a partner credential's access policy says. Its tokens follow within the
 * token cache's TTL (at most 5 s), like a revocation.
 */
export async function updateClientPolicy(db: Knex, clientId: string, policy: AccessPolicy): Promise<ClientRecord> {
  const client = await findClient(db, clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  if (client.kind !== 'partner') throw new Error('an ingest credential reads nothing: it has no access policy');
  await db('clients').where({ id: client.id }).update(policyColumns(policy));
  return (await findClient(db, clientId))!;
}

/**
 * Sets a credential's own request quota (null fields: the default again). Its tokens follow
 * within the token cache's TTL (at most 5 s) on every instance.
 */
export async function updateClientQuota(db: Knex, clientId: string, quota: QuotaOverride): Promise<ClientRecord> {
  const client = await findClient(db, clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  if (quota.rate !== null && !(Number.isFinite(quota.rate) && quota.rate > 0)) throw new Error('a quota rate is a number of units a second above 0');
  if (quota.burst !== null && !(Number.isInteger(quota.burst) && quota.burst >= 1)) throw new Error('a quota burst is a whole number of units, 1 or more');
  await db('clients').where({ id: client.id }).update({ quota_rate: quota.rate, quota_burst: quota.burst });
  return (await findClient(db, clientId))!;
}

/**
 * Checks a client's credentials. Always runs one scrypt verification, against a decoy hash
 * when the client is unknown or revoked, so the answer time does not tell which check failed.
 */
export async function authenticateClient(db: Knex, clientId: string, secret: string): Promise<ClientRecord | null> {
  const row = clientId.length <= 64 ? await db('clients').where({ client_id: clientId }).first() : undefined;
  const usable = row && row.status === 'active' && row.secret_hash !== NO_SECRET;
  const ok = await verifySecret(secret, usable ? (row.secret_hash as string) : await decoyHash());
  if (!usable || !ok) return null;
  return toRecord(row, await facilityIdsOf(db, row.id));
}

/** An active credential registered with public keys, and those keys; undefined otherwise. */
export async function findActiveClientWithKeys(db: Knex, clientId: string): Promise<{ record: ClientRecord; keys: ClientPublicKeys } | undefined> {
  if (clientId.length > 64) return undefined;
  const row = await db('clients').where({ client_id: clientId, status: 'active' }).first();
  if (!row || (!row.jwks && !row.jwks_url)) return undefined;
  return { record: toRecord(row, await facilityIdsOf(db, row.id)), keys: { jwks: row.jwks ?? null, jwks_url: row.jwks_url ?? null } };
}
