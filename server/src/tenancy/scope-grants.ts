// What an access token grants, as stored in access_tokens.scopes: API scopes in full, or one
// half of a read scope. SMART separates reading by id (`r`) from searching (`s`); a token asked
// with only one of them holds `<scope>:read` or `<scope>:search`. A bare API scope keeps
// meaning both, so tokens issued before the halves existed keep working, and an instance
// that does not know the halves grants nothing for them (it fails closed).
import { SCOPES } from './scopes.js';

/** The API scopes that read records, the ones SMART's `r` and `s` split. */
export const READ_SCOPES = ['residents.read', 'coverage.read', 'clinical.read'] as const;

/** What a request does with a read scope: read one record by id, or search (lists, searches, exports, the event log). */
export type Interaction = 'read' | 'search';
export const INTERACTIONS: readonly Interaction[] = ['read', 'search'];

export function isReadScope(scope: string): boolean {
  return (READ_SCOPES as readonly string[]).includes(scope);
}

/** The half of a read scope that allows one interaction only. */
export function halfOf(scope: string, interaction: Interaction): string {
  return `${scope}:${interaction}`;
}

/** True when `granted` lets its holder do `interaction` with `scope`. */
export function allows(granted: ReadonlySet<string>, scope: string, interaction: Interaction): boolean {
  return granted.has(scope) || granted.has(halfOf(scope, interaction));
}

/**
 * A grant as stored: canonical order, each read scope whole when both halves are granted,
 * unknown entries dropped.
 */
export function formatGrant(entries: Iterable<string>): string {
  const granted = new Set(entries);
  return SCOPES.flatMap((scope) => {
    if (!isReadScope(scope)) return granted.has(scope) ? [scope] : [];
    const halves = INTERACTIONS.filter((interaction) => allows(granted, scope, interaction));
    if (halves.length === INTERACTIONS.length) return [scope];
    return halves.map((interaction) => halfOf(scope, interaction));
  }).join(' ');
}
