// Bearer tokens: opaque random strings, stored only as SHA-256. A token carries the
// credential's organization, scopes and facilities at issue time; each request also checks
// the credential is still active and still holds those facilities, and reads its access policy. Lookups are cached for a
// short TTL (at most 5 s) so the hot path costs no database round trip, and so a revocation
// or a facility removed from a grant bites within that TTL on every instance.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import type { ClientRecord } from './clients.js';
import type { Principal } from './principal.js';
import { randomToken, sha256Hex } from './random-token.js';
import { parseScopes } from '../tenancy/scopes.js';
import { formatGrant } from '../tenancy/scope-grants.js';
import { parseRestrictions, serializeRestrictions } from './granular-scopes.js';
import type { GranularRestrictions } from '../tenancy/granular-restrictions.js';
import { policyOfRow } from '../tenancy/access-policy.js';
import { quotaOfRow } from './clients.js';

export const TOKEN_LIFETIME_SECONDS = 3600;
const CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry {
  principal: Principal | null;
  loadedAt: number;
}

export class AccessTokens {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly db: Knex,
    private readonly cacheTtlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** `granted`: API scopes and halves of read scopes (tenancy/scope-grants.ts); `restrictions`: its granular scopes' (auth/granular-scopes.ts). */
  async issue(client: ClientRecord, granted: readonly string[], restrictions: GranularRestrictions | null = null): Promise<{ token: string; scope: string; expiresIn: number }> {
    const token = randomToken('ofx_at_');
    const scope = formatGrant(granted);
    await this.db('access_tokens').insert({
      token_hash: sha256Hex(token),
      client_pk: client.id,
      scopes: scope,
      restrictions: serializeRestrictions(restrictions),
      facility_ids: JSON.stringify(client.facility_ids),
      expires_at: this.now() + TOKEN_LIFETIME_SECONDS * 1000,
      created_at: nowIso(this.now()),
    });
    return { token, scope, expiresIn: TOKEN_LIFETIME_SECONDS };
  }

  /** The principal of a token, or null when it is unknown, expired or its credential revoked. */
  async resolve(token: string): Promise<Principal | null> {
    const hash = sha256Hex(token);
    const now = this.now();
    let entry = this.cache.get(hash);
    if (!entry || now - entry.loadedAt > this.cacheTtlMs) {
      entry = { principal: await this.load(hash), loadedAt: now };
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.delete(hash);
      this.cache.set(hash, entry);
    }
    const principal = entry.principal;
    return principal && principal.expiresAt > now ? principal : null;
  }

  private async load(hash: string): Promise<Principal | null> {
    const row = await this.db('access_tokens as t')
      .join('clients as c', 'c.id', 't.client_pk')
      .where('t.token_hash', hash)
      .first('t.client_pk', 't.scopes', 't.restrictions', 't.facility_ids', 't.expires_at', 'c.client_id', 'c.org_id', 'c.status', 'c.purpose', 'c.payers', 'c.sensitive', 'c.quota_rate', 'c.quota_burst');
    if (!row || row.status !== 'active') return null;
    const granted = new Set<string>(
      await this.db('client_facilities').where({ client_pk: row.client_pk }).pluck('facility_id'),
    );
    const tokenFacilities = JSON.parse(row.facility_ids as string) as string[];
    return {
      clientPk: row.client_pk,
      clientId: row.client_id,
      orgId: row.org_id,
      scopes: new Set(parseScopes(row.scopes)),
      facilityIds: new Set(tokenFacilities.filter((id) => granted.has(id))),
      expiresAt: Number(row.expires_at),
      policy: policyOfRow(row),
      restrictions: parseRestrictions(row.restrictions),
      quota: quotaOfRow(row),
    };
  }

  /** Drops tokens that expired more than an hour ago. */
  async deleteExpired(): Promise<number> {
    return this.db('access_tokens').where('expires_at', '<', this.now() - 3_600_000).delete();
  }
}
