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
// Granular scopes (`system/Observation.rs?category=...`, auth/granular-scopes.ts) grant their
// type restricted to what that search matches, and are exact: a type is seen whole when a
// plain scope names it (itself, `*`, or its API scope: the plain one wins over a granular
// one), restricted when only granular scopes name it (several are an OR), seen whole when
// another plain scope of its group brings it (as above), and not at all when only a granular
// scope of another type of its group brings it.
import { isScope } from '../tenancy/scopes.js';
import { halfOf, INTERACTIONS, READ_SCOPES, type Interaction } from '../tenancy/scope-grants.js';
import { readRestriction } from './granular-scopes.js';
import type { GranularRestrictions, Restriction } from '../tenancy/granular-restrictions.js';
import { OBSERVATION_CATEGORY } from '../resources/r4/observation-codes.js';
import type { R4Type } from '../resources/r4/r4-types.js';

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
  /** A granular scope's restriction, and its query as the client wrote it. */
  restriction?: { query: string; matches: Restriction };
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
  let granular: SmartScope['restriction'];
  if (restriction !== undefined) {
    if (type === '*') return { refused: `${scope}: a granular scope names one type; ask system/<Type>.${permissions}${restriction} for each type, or system/*.${permissions}` };
    const matches = readRestriction(scope, type as R4Type['type'], restriction.slice(1));
    if ('refused' in matches) return matches;
    granular = { query: restriction, matches };
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
  return { type: type!, version, interactions, ...(granular ? { restriction: granular } : {}) };
}

/** A SMART scope's permissions as granted, in its own version's syntax. */
function spelled(scope: SmartScope): string {
  if (scope.version === 1) return 'read';
  return scope.interactions.map((interaction) => (interaction === 'read' ? 'r' : 's')).join('');
}

function typesOf(apiScope: string): string[] {
  return TYPES.filter((type) => SMART_TYPE_SCOPES[type] === apiScope);
}

/** A scope as read: an API scope, a SMART scope of a type, or a FHIR Subscription scope. */
type ReadEntry = { scope: string; smart: SmartScope } | string | { subscription: string };

export type ScopeGrant =
  | { ok: true; granted: string[]; stated: string; restrictions: GranularRestrictions | null }
  | { ok: false; problem: 'invalid' | 'exceeds'; reason: string };

/**
 * What a token asked with `asked` grants a client holding `held`: its entries (API scopes or
 * their halves, tenancy/scope-grants.ts), what it sees of the types granular scopes restrict
 * (null: nothing restricted), and the scope stated in the answer, in the order asked.
 */
export function grantOf(asked: readonly string[], held: readonly string[]): ScopeGrant {
  const refused: string[] = [];
  const unknown: string[] = [];
  const beyond: string[] = [];
  const granted: string[] = [];
  const stated: string[] = [];
  const read: ReadEntry[] = [];
  for (const scope of asked) {
    if (isScope(scope)) read.push(scope);
    else if (SUBSCRIPTION_SCOPES.has(scope)) read.push({ subscription: scope });
    else if (scope.startsWith('system/Subscription.')) refused.push(`${scope}: Subscriptions are managed whole (webhooks.manage); ask system/Subscription.cruds (or .* in SMART v1)`);
    else if (!isSmartScope(scope)) unknown.push(scope);
    else {
      const smart = readSmartScope(scope);
      if ('refused' in smart) refused.push(smart.refused);
      else read.push({ scope, smart });
    }
  }
  if (unknown.length > 0) refused.unshift(`unknown scopes: ${unknown.join(' ')}`);
  if (refused.length > 0) return { ok: false, problem: 'invalid', reason: refused.join('; ') };
  // Which types plain scopes name (wholly seen), and which only granular ones restrict.
  const named = new Set<string>();
  for (const entry of read) {
    if (typeof entry === 'string') typesOf(entry).forEach((type) => named.add(type));
    else if ('subscription' in entry) continue;
    else if (entry.smart.type === '*') TYPES.forEach((type) => named.add(type));
    else if (!entry.smart.restriction) named.add(entry.smart.type);
  }
  const restricted = new Map<string, Restriction[]>();
  const brought = new Set<string>();
  for (const entry of read) {
    if (typeof entry === 'string') {
      if (!held.includes(entry)) beyond.push(entry);
      granted.push(entry);
      stated.push(entry);
      continue;
    }
    if ('subscription' in entry) {
      // FHIR Subscriptions are managed as ofctx's webhooks are (webhooks/fhir/).
      if (!held.includes('webhooks.manage')) beyond.push(entry.subscription);
      granted.push('webhooks.manage');
      stated.push(entry.subscription);
      continue;
    }
    const { scope, smart } = entry;
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
      if (smart.restriction) {
        // Seen whole when a plain scope names the type: the granular one is then void.
        if (!named.has(smart.type)) {
          restricted.set(smart.type, [...(restricted.get(smart.type) ?? []), smart.restriction.matches]);
          stated.push(`system/${smart.type}.${permission}${smart.restriction.query}`);
        } else stated.push(`system/${smart.type}.${permission}`);
      } else {
        const group = typesOf(apiScopes[0]!).filter((type) => type === smart.type || !isRestricted(read, type, named));
        group.forEach((type) => brought.add(type));
        stated.push(...group.map((type) => `system/${type}.${permission}`));
      }
    }
    granted.push(...apiScopes.flatMap((apiScope) => smart.interactions.map((interaction) => halfOf(apiScope, interaction))));
  }
  if (beyond.length > 0) return { ok: false, problem: 'exceeds', reason: `this client does not hold ${beyond.join(' ')}` };
  let restrictions: Record<string, Restriction[]> | null = null;
  if (restricted.size > 0) {
    restrictions = Object.fromEntries(restricted);
    // The other types of a granular scope's group that no plain scope brings: not seen.
    for (const type of new Set([...restricted.keys()].flatMap((t) => typesOf(SMART_TYPE_SCOPES[t]!)))) {
      if (!named.has(type) && !brought.has(type) && !restricted.has(type)) restrictions[type] = [];
    }
  }
  return { ok: true, granted: [...new Set(granted)], stated: [...new Set(stated)].join(' '), restrictions };
}

/** True when `type` is restricted by a granular scope and named by no plain one. */
function isRestricted(read: readonly ReadEntry[], type: string, named: ReadonlySet<string>): boolean {
  return !named.has(type) && read.some((entry) => typeof entry !== 'string' && 'smart' in entry && entry.smart.type === type && entry.smart.restriction !== undefined);
}

/** The SMART scopes listed in the SMART configuration: each read form, per type and for all. */
export function supportedScopes(apiScopes: readonly string[]): string[] {
  // Granular scopes take any token parameter (granular-scopes.ts); these are the usual ones.
  const granular = [
    `system/Observation.rs?category=${OBSERVATION_CATEGORY}|vital-signs`,
    `system/Observation.rs?category=${OBSERVATION_CATEGORY}|laboratory`,
    'system/Condition.rs?category=http://terminology.hl7.org/CodeSystem/condition-category|problem-list-item',
    'system/Condition.rs?category=http://terminology.hl7.org/CodeSystem/condition-category|encounter-diagnosis',
    'system/DiagnosticReport.rs?category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB',
  ];
  return [...['*', ...TYPES].flatMap((type) => ['rs', 'r', 's', 'read'].map((permission) => `system/${type}.${permission}`)), ...granular, ...(apiScopes.includes('webhooks.manage') ? SUBSCRIPTION_SCOPES : []), ...apiScopes];
}
