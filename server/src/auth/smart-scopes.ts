// SMART v2 system scopes as aliases of the API's scopes (spec section 5 stays the truth).
// clinical.read covers observations and allergies together, so its alias is the PAIR
// `system/Observation.rs system/AllergyIntolerance.rs`: one of the two alone would ask for
// less than any grant can give, and is refused rather than silently widened.
import { isScope } from './scopes.js';

export const SMART_SCOPE_ALIASES: Readonly<Record<string, string>> = {
  'system/Patient.rs': 'residents.read',
  'system/Coverage.rs': 'coverage.read',
  'system/Observation.rs': 'clinical.read',
  'system/AllergyIntolerance.rs': 'clinical.read',
};

export function isSmartScope(scope: string): boolean {
  return scope in SMART_SCOPE_ALIASES;
}

/** The SMART scopes that must be asked together to mean one API scope. */
const PAIRED = ['system/Observation.rs', 'system/AllergyIntolerance.rs'];

export type ScopeReading = { ok: true; scopes: string[] } | { ok: false; unknown: string[]; reason: string };

/** Maps asked scopes (API names, SMART aliases, or both) to API scopes. */
export function readRequestedScopes(asked: string[]): ScopeReading {
  const unknown = asked.filter((scope) => !isScope(scope) && !(scope in SMART_SCOPE_ALIASES));
  if (unknown.length > 0) return { ok: false, unknown, reason: `unknown scopes: ${unknown.join(' ')}` };
  const pairAsked = PAIRED.filter((scope) => asked.includes(scope));
  if (pairAsked.length === 1) {
    return { ok: false, unknown: pairAsked, reason: `${pairAsked[0]} is granted only together with ${PAIRED.find((s) => s !== pairAsked[0])} (both are clinical.read)` };
  }
  return { ok: true, scopes: [...new Set(asked.map((scope) => SMART_SCOPE_ALIASES[scope] ?? scope))] };
}

/** The asked form echoed in the token answer: the asked scopes, once each, in the order asked. */
export function echoedScope(asked: string[]): string {
  return [...new Set(asked)].join(' ');
}

/** Every scope string the token endpoint understands, for the SMART configuration. */
export function supportedScopes(apiScopes: readonly string[]): string[] {
  return [...Object.keys(SMART_SCOPE_ALIASES), ...apiScopes];
}
