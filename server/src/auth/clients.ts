// Machine credentials (OAuth clients). Issued by operators through the ops CLI; each is
// bound to one organization, a set of scopes and a set of facilities of that organization.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { decoyHash, hashSecret, verifySecret } from './secret-hash.js';
import { formatScopes, INGEST_SCOPE, isScope, parseScopes } from './scopes.js';
import { randomToken } from './random-token.js';

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
}

export interface IssuedClient {
  client_id: string;
  client_secret: string;
  org_id: string;
  facility_ids: string[];
  scopes: string[];
}

async function checkFacilitiesOfOrg(db: Knex, orgId: string, facilityIds: string[]): Promise<void> {
  if (facilityIds.length === 0) throw new Error('a client needs at least one facility');
  const found = await db('facilities').whereIn('id', facilityIds).andWhere({ org_id: orgId }).pluck('id');
  const missing = facilityIds.filter((id) => !found.includes(id));
  if (missing.length) throw new Error(`not facilities of organization ${orgId}: ${missing.join(', ')}`);
}

export async function createClient(
  db: Knex,
  input: { orgId: string; facilityIds: string[]; scopes: string[]; name: string; kind?: ClientKind },
): Promise<IssuedClient> {
  const kind = input.kind ?? 'partner';
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
  const clientSecret = randomToken('ofx_cs_');
  const row = {
    id: randomUUID(),
    client_id: `ofx_ci_${randomBytes(12).toString('hex')}`,
    org_id: input.orgId,
    kind,
    name: input.name,
    secret_hash: await hashSecret(clientSecret),
    scopes: formatScopes(input.scopes),
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
    client_secret: clientSecret,
    org_id: row.org_id,
    facility_ids: facilityIds,
    scopes: parseScopes(row.scopes),
  };
}

async function facilityIdsOf(db: Knex, clientPk: string): Promise<string[]> {
  return db('client_facilities').where({ client_pk: clientPk }).orderBy('facility_id').pluck('facility_id');
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
  };
}

export async function findClient(db: Knex, clientId: string): Promise<ClientRecord | undefined> {
  const row = await db('clients').where({ client_id: clientId }).first();
  return row ? toRecord(row, await facilityIdsOf(db, row.id)) : undefined;
}

export async function listClients(db: Knex, orgId: string, kind?: ClientKind): Promise<ClientRecord[]> {
  const rows = await db('clients').where({ org_id: orgId, ...(kind ? { kind } : {}) }).orderBy('created_at').orderBy('id');
  return Promise.all(rows.map(async (row) => toRecord(row, await facilityIdsOf(db, row.id))));
}

/** Revoking also invalidates every token of the client (checked on each request). */
export async function revokeClient(db: Knex, clientId: string): Promise<ClientRecord | undefined> {
  await db('clients').where({ client_id: clientId, status: 'active' }).update({ status: 'revoked', revoked_at: nowIso() });
  return findClient(db, clientId);
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
 * Checks a client's credentials. Always runs one scrypt verification, against a decoy hash
 * when the client is unknown or revoked, so the answer time does not tell which check failed.
 */
export async function authenticateClient(db: Knex, clientId: string, secret: string): Promise<ClientRecord | null> {
  const row = clientId.length <= 64 ? await db('clients').where({ client_id: clientId }).first() : undefined;
  const usable = row && row.status === 'active';
  const ok = await verifySecret(secret, usable ? (row.secret_hash as string) : await decoyHash());
  if (!usable || !ok) return null;
  return toRecord(row, await facilityIdsOf(db, row.id));
}
