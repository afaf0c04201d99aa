// The scopes of the API (spec section 5), in their canonical order, and the one scope of the
// system of record. Partner and ingest credentials never share a scope (auth/clients.ts).
export const PARTNER_SCOPES = ['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage'] as const;
export const INGEST_SCOPE = 'ingest.write';
export const SCOPES = [...PARTNER_SCOPES, INGEST_SCOPE] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Space-delimited scopes, in canonical order, without repeats. */
export function formatScopes(scopes: Iterable<string>): string {
  const set = new Set(scopes);
  return SCOPES.filter((scope) => set.has(scope)).join(' ');
}

export function parseScopes(value: string): string[] {
  return value.split(' ').filter((s) => s.length > 0);
}
