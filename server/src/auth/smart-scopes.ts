// SMART v2 system scopes as aliases of the API's scopes (spec section 5 stays the truth).
// An API scope covers every R4 type of its group (clinical.read: Observation,
// AllergyIntolerance, Condition, ServiceRequest, MedicationRequest, DiagnosticReport; coverage.read: Coverage
// and CoverageEligibilityResponse), so a SMART scope of one type grants its whole group. That
// is never silent: the token answer's `scope` names every type of each group granted (RFC 6749
// section 3.3: a granted scope that differs from the one asked is stated), so a client asking
// `system/Observation.rs` reads in the answer that it may also read Conditions and orders.
// Tokens carry API scopes; every R4 type's alias maps to the scope the R4 view checks for it
// (a test holds this table to resources/r4/r4-types.ts).
import { isScope } from './scopes.js';

export const SMART_SCOPE_ALIASES: Readonly<Record<string, string>> = {
  'system/Patient.rs': 'residents.read',
  'system/Coverage.rs': 'coverage.read',
  'system/CoverageEligibilityResponse.rs': 'coverage.read',
  'system/Observation.rs': 'clinical.read',
  'system/AllergyIntolerance.rs': 'clinical.read',
  'system/Condition.rs': 'clinical.read',
  'system/ServiceRequest.rs': 'clinical.read',
  'system/MedicationRequest.rs': 'clinical.read',
  'system/DiagnosticReport.rs': 'clinical.read',
};

export function isSmartScope(scope: string): boolean {
  return scope in SMART_SCOPE_ALIASES;
}

export type ScopeReading = { ok: true; scopes: string[] } | { ok: false; unknown: string[]; reason: string };

/** Maps asked scopes (API names, SMART aliases, or both) to API scopes. */
export function readRequestedScopes(asked: string[]): ScopeReading {
  const unknown = asked.filter((scope) => !isScope(scope) && !(scope in SMART_SCOPE_ALIASES));
  if (unknown.length > 0) return { ok: false, unknown, reason: `unknown scopes: ${unknown.join(' ')}` };
  return { ok: true, scopes: [...new Set(asked.map((scope) => SMART_SCOPE_ALIASES[scope] ?? scope))] };
}

/** The SMART scopes that mean one API scope, in the table's order. */
function groupOf(apiScope: string): string[] {
  return Object.keys(SMART_SCOPE_ALIASES).filter((smart) => SMART_SCOPE_ALIASES[smart] === apiScope);
}

/**
 * The scope stated in the token answer: the scopes asked, in the order asked, each SMART
 * scope standing with every other SMART scope of its group (what the token grants), once each.
 */
export function echoedScope(asked: string[]): string {
  return [...new Set(asked.flatMap((scope) => (isSmartScope(scope) ? groupOf(SMART_SCOPE_ALIASES[scope]!) : [scope])))].join(' ');
}

/** Every scope string the token endpoint understands, for the SMART configuration. */
export function supportedScopes(apiScopes: readonly string[]): string[] {
  return [...Object.keys(SMART_SCOPE_ALIASES), ...apiScopes];
}
