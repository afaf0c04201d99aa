// Business identifiers as ingestion matches and indexes records by them (resource_identifiers,
// organization-wide): the key a chunk looks them up by, the `identifier=SYSTEM|VALUE` query a
// conditional reference carries, and the identifiers a written row is indexed under.
import type { BusinessIdentifier, ResourceChange } from './change-set.js';
import { identifiers as identifiersOf } from './mapping/resource-mapping.js';

export function identifierKey(type: string, identifier: BusinessIdentifier): string {
  return `${type}|${identifier.system}|${identifier.value}`;
}

/** `identifier=SYSTEM|VALUE` (FHIR token search), as used by conditional updates and references. */
export function parseIdentifierQuery(query: string): BusinessIdentifier | undefined {
  const match = /^identifier=([^|&]+)\|([^&]+)$/.exec(query);
  if (!match) return undefined;
  try {
    return { system: decodeURIComponent(match[1]!), value: decodeURIComponent(match[2]!) };
  } catch {
    return undefined;
  }
}

/** The identifiers a row is found by: its own, plus the one it was matched on. */
export function indexIdentifiers(change: ResourceChange): BusinessIdentifier[] {
  let own: BusinessIdentifier[] = [];
  try {
    own = identifiersOf(change.resource as Record<string, unknown>);
  } catch {
    own = [];
  }
  const match = change.match && 'identifier' in change.match ? [change.match.identifier] : [];
  const seen = new Set<string>();
  return [...own, ...match].filter((identifier) => {
    const key = `${identifier.system}|${identifier.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
