// SMART system scopes (App Launch 2.0 section 3.5 and its v1 form), read as grants of the
// API's scopes (spec section 5 stays the truth):
//   v1  system/<Type|*>.<read|write|*>      read and `*` grant reading and searching
//   v2  system/<Type|*>.<c?r?u?d?s?>        `r` reading by id, `s` searching, in that order
// ofctx is read-only: `c`, `u`, `d` and `write` are dropped from what is granted, and a
// scope that asks nothing else is refused. An API scope covers every R4 type of its group
// (clinical.read: Observation, AllergyIntolerance, Condition, ServiceRequest,
// MedicationRequest, DiagnosticReport; coverage.read: Coverage and CoverageEligibilityResponse), so a SMART
// scope of one type grants its whole group. That is never silent: the token answer's
// `scope` names every type granted, in the client's own syntax (RFC 6749 section 3.3: a
// granted scope that differs from the one asked is stated). `system/*` grants the read
// scopes the client holds, and is stated as `system/*` only when that is all of them.
// Granular scopes (`...?category=...`) are refused until every read path enforces them.
import { isScope } from './scopes.js';
import { halfOf, INTERACTIONS, READ_SCOPES, type Interaction } from './scope-grants.js';

/** The API scope each R4 type is read with (a test holds this table to resources/r4/r4-types.ts). */
export const SMART_TYPE_SCOPES: Readonly<Record<string, string>> = {
  Patient: 'residents.read',
  Coverage: 'coverage.read',
  CoverageEligibilityResponse: 'coverage.read',
  Observation: 'clinical.read',
  AllergyIntolerance: 'clinical.read',
  Condition: 'clinical.read',
  ServiceRequest: 'clinical.read',
  MedicationRequest: 'clinical.read',
  DiagnosticReport: 'clinical.read',
};
const TYPES = Object.keys(SMART_TYPE_SCOPES);

const SMART_SCOPE = /^(system|patient|user)\/([^.?]*)\.([^?]*)(\?.*)?$/;
const V2_PERMISSIONS = /^c?r?u?d?s?$/;

/**
 * Managing FHIR Subscriptions is webhooks.manage (create, read, update, delete and search
 * together): asked whole, as `system/Subscription.cruds` (v2) or `system/Subscription.*` (v1).
 */
const SUBSCRIPTION_SCOPES: ReadonlySet<string> = new Set(['system/Subscription.cruds', 'system/Subscription.*']);

/** True for anything written as a SMART scope (`<context>/<Type>.<permissions>`), valid or not. */
export function isSmartScope(scope: string): boolean {
  return SMART_SCOPE.test(scope);
}

interface SmartScope {
  /** A type's name, or `*`. */
  type: string;
  /** SMART v1 (`read`, `write`, `*`) or v2 (letters of `cruds`). */
  version: 1 | 2;
  /** What ofctx grants of the permissions asked. */
  interactions: Interaction[];
}

/** One SMART scope read, or why it is refused (said so the client can fix its ask). */
function readSmartScope(scope: string): SmartScope | { refused: string } {
  const [, context, type, permissions, restriction] = SMART_SCOPE.exec(scope)!;
  if (context !== 'system') {
    return { refused: `${scope}: ofctx serves SMART Backend Services, which ask system/ scopes; ask system/${type}.${permissions}` };
  }
  if (type !== '*' && !TYPES.includes(type!)) {
    return { refused: `${scope}: ${type} is not a type ofctx serves; the types are ${TYPES.join(', ')}, or * for all of them` };
  }
  if (restriction !== undefined) {
    return { refused: `${scope}: granular scopes (restricted by a search such as ?category=...) are not supported yet; ask system/${type}.${permissions} without the restriction` };
  }
  let version: 1 | 2;
  let interactions: Interaction[];
  if (permissions === 'read' || permissions === '*') [version, interactions] = [1, [...INTERACTIONS]];
  else if (permissions === 'write') [version, interactions] = [1, []];
  else if (permissions !== '' && V2_PERMISSIONS.test(permissions!)) {
    version = 2;
    interactions = INTERACTIONS.filter((interaction) => permissions!.includes(interaction === 'read' ? 'r' : 's'));
  } else {
    return { refused: `${scope}: ${permissions} is not a SMART permission; use read (v1) or letters of cruds in that order, such as rs (v2)` };
  }
  if (interactions.length === 0) {
    return { refused: `${scope}: ofctx grants only reading and searching, and this scope asks neither; ask system/${type}.rs (or .read)` };
  }
  return { type: type!, version, interactions };
}

/** A SMART scope's permissions as granted, in its own version's syntax. */
function spelled(scope: SmartScope): string {
  if (scope.version === 1) return 'read';
  return scope.interactions.map((interaction) => (interaction === 'read' ? 'r' : 's')).join('');
}

function typesOf(apiScope: string): string[] {
  return TYPES.filter((type) => SMART_TYPE_SCOPES[type] === apiScope);
}

export type ScopeGrant =
  | { ok: true; granted: string[]; stated: string }
  | { ok: false; problem: 'invalid' | 'exceeds'; reason: string };

/**
 * What a token asked with `asked` grants a client holding `held`: its entries (API scopes or
 * their halves, auth/scope-grants.ts) and the scope stated in the answer, in the order asked.
 */
export function grantOf(asked: readonly string[], held: readonly string[]): ScopeGrant {
  const refused: string[] = [];
  const unknown: string[] = [];
  const beyond: string[] = [];
  const granted: string[] = [];
  const stated: string[] = [];
  for (const scope of asked) {
    if (isScope(scope)) {
      if (!held.includes(scope)) beyond.push(scope);
      granted.push(scope);
      stated.push(scope);
      continue;
    }
    if (!isSmartScope(scope)) {
      unknown.push(scope);
      continue;
    }
    if (SUBSCRIPTION_SCOPES.has(scope) || scope.startsWith('system/Subscription.')) {
      if (!SUBSCRIPTION_SCOPES.has(scope)) refused.push(`${scope}: Subscriptions are managed whole (webhooks.manage); ask system/Subscription.cruds (or .* in SMART v1)`);
      else {
        if (!held.includes('webhooks.manage')) beyond.push(scope);
        granted.push('webhooks.manage');
        stated.push(scope);
      }
      continue;
    }
    const smart = readSmartScope(scope);
    if ('refused' in smart) {
      refused.push(smart.refused);
      continue;
    }
    const permission = spelled(smart);
    let apiScopes: string[];
    if (smart.type === '*') {
      apiScopes = READ_SCOPES.filter((readScope) => held.includes(readScope));
      if (apiScopes.length === 0) beyond.push(scope);
      if (apiScopes.length === READ_SCOPES.length) stated.push(`system/*.${permission}`);
      else stated.push(...apiScopes.flatMap(typesOf).map((type) => `system/${type}.${permission}`));
    } else {
      apiScopes = [SMART_TYPE_SCOPES[smart.type]!];
      if (!held.includes(apiScopes[0]!)) beyond.push(scope);
      stated.push(...typesOf(apiScopes[0]!).map((type) => `system/${type}.${permission}`));
    }
    granted.push(...apiScopes.flatMap((apiScope) => smart.interactions.map((interaction) => halfOf(apiScope, interaction))));
  }
  if (unknown.length > 0) refused.unshift(`unknown scopes: ${unknown.join(' ')}`);
  if (refused.length > 0) return { ok: false, problem: 'invalid', reason: refused.join('; ') };
  if (beyond.length > 0) return { ok: false, problem: 'exceeds', reason: `this client does not hold ${beyond.join(' ')}` };
  return { ok: true, granted: [...new Set(granted)], stated: [...new Set(stated)].join(' ') };
}

/** The SMART scopes listed in the SMART configuration: each read form, per type and for all. */
export function supportedScopes(apiScopes: readonly string[]): string[] {
  return [...['*', ...TYPES].flatMap((type) => ['rs', 'r', 's', 'read'].map((permission) => `system/${type}.${permission}`)), ...(apiScopes.includes('webhooks.manage') ? SUBSCRIPTION_SCOPES : []), ...apiScopes];
}
