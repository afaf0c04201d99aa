// The one place where a caller's grant is checked against what it asks for:
// the operation's scope (and, for a read scope, whether the token may read by id or search:
// SMART's r and s, tenancy/scope-grants.ts), the path's organization and the path's facility.
// Resource queries then also filter by organization and facility, so a resource of another
// tenant is simply not found (404), indistinguishable from an unknown id; and by the
// credential's access policy and the token's granular scopes (visibilityOf below), so a record
// it may not see is not found either.
import type { Knex } from 'knex';
import { ApiError } from '../errors/api-error.js';
import { recordFilterAndStampOf, recordFilterOf, type RecordFilter } from './record-visibility.js';
import { policyOfRow } from './access-policy.js';
import type { Caller } from './caller.js';
import { REALM } from '../errors/bearer-realm.js';
import { allows, halfOf, INTERACTIONS, type Interaction } from './scope-grants.js';
import { GranularRestriction } from './granular-restriction.js';
import type { GranularRestrictions } from './granular-restrictions.js';
import { isPostgres } from '../db/database.js';

/** Operations the contract lets in with any one of several scope sets (the event log: any read scope). */
export interface ScopeAlternatives {
  anyOf: ReadonlyArray<readonly string[]>;
}

function missingScopes(principal: Caller, required: readonly string[] | ScopeAlternatives, interaction: Interaction): { missing: string[]; oneOf: boolean } {
  const lacks = (scope: string) => !allows(principal.scopes, scope, interaction);
  if (!('anyOf' in required)) return { missing: required.filter(lacks), oneOf: false };
  if (required.anyOf.some((set) => !set.some(lacks))) return { missing: [], oneOf: true };
  return { missing: [...new Set(required.anyOf.flat())], oneOf: true };
}

const DOING: Record<Interaction, string> = { read: 'reads a record by id', search: 'searches or lists records' };
const SMART_LETTER: Record<Interaction, string> = { read: 'r', search: 's' };

/** Why a token holding only the other half of `scope` may not do `interaction`, and the fix. */
function halfMessage(scope: string, interaction: Interaction): string {
  const other = INTERACTIONS.find((i) => i !== interaction)!;
  return `This operation ${DOING[interaction]}, which needs the scope ${scope} with ${interaction} (SMART ${SMART_LETTER[interaction]}); ` +
    `the access token was granted only ${halfOf(scope, other)} (SMART ${SMART_LETTER[other]}). Ask for a token with ${scope}, or the SMART scope with rs.`;
}

/**
 * Throws unless `principal` may do `interaction` (read by id, or search: the operation's
 * `x-ofctx-interaction`) with the operation's scopes, in the path's organization and facility.
 */
export function authorize(principal: Caller, requiredScopes: readonly string[] | ScopeAlternatives, params: Record<string, string>, interaction: Interaction): void {
  const { missing, oneOf } = missingScopes(principal, requiredScopes, interaction);
  if (missing.length > 0) {
    const scope = missing.join(' ');
    const onlyOtherHalf = !oneOf && missing.length === 1 && INTERACTIONS.some((i) => principal.scopes.has(halfOf(scope, i)));
    throw new ApiError(
      'insufficient_scope',
      oneOf
        ? `This operation needs one of the scopes ${missing.join(', ')}${interaction === 'search' ? ' with search (SMART s)' : ''}, and the access token carries none of them.`
        : onlyOtherHalf
          ? halfMessage(scope, interaction)
          : `This operation needs the scope ${scope}, which the access token does not carry.`,
      [{ field: 'scope', issue: oneOf ? `requires one of ${missing.join(', ')}` : `requires ${scope}${onlyOtherHalf ? ` (${interaction})` : ''}` }],
      { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
    );
  }
  if (params.org_id !== undefined && params.org_id !== principal.orgId) {
    throw new ApiError('organization_forbidden', undefined, [{ field: 'path.org_id', issue: 'is not the organization of this credential' }]);
  }
  if (params.facility_id !== undefined && !principal.facilityIds.has(params.facility_id)) {
    throw new ApiError('facility_forbidden', undefined, [{ field: 'path.facility_id', issue: 'is not granted to this credential' }]);
  }
}

/**
 * The second half of the one authorization point: which rows of the authorized facility the
 * caller may see, as the restriction every read path puts inside its query
 * (tenancy/record-visibility.ts). A row it hides is not found, exactly like an unknown id.
 */
export function visibilityOf(db: Knex, principal: Caller): Promise<RecordFilter> {
  return recordFilterOf(db, principal.orgId, principal.policy, granularOf(db, principal.orgId, principal.restrictions));
}

/** A token's granular scopes as the restriction the filter applies (none: undefined). */
function granularOf(db: Knex, orgId: string, restrictions: GranularRestrictions | null): GranularRestriction | undefined {
  return restrictions === null ? undefined : new GranularRestriction(restrictions, orgId, isPostgres(db));
}

/**
 * visibilityOf for a list, with the stamp of the facility's rows of `table`
 * (db/facility-stamp.ts) read in the same statement.
 */
export function visibilityAndStampOf(db: Knex, principal: Caller, table: string, facilityId: string): Promise<{ filter: RecordFilter; stamp: string }> {
  return recordFilterAndStampOf(db, principal.orgId, principal.policy, table, facilityId, granularOf(db, principal.orgId, principal.restrictions));
}

/**
 * The same filter for work a credential started and the service finishes later (a Bulk Data
 * export's pages): its policy as it stands now, read from the credential. A credential
 * revoked since may see nothing more: the work fails. `restrictions`: the granular scopes of
 * the token that started it, kept with the work.
 */
export async function visibilityOfClient(db: Knex, orgId: string, clientId: string, restrictions: GranularRestrictions | null = null): Promise<RecordFilter> {
  const row = (await db('clients').where({ client_id: clientId, org_id: orgId }).first('purpose', 'payers', 'sensitive', 'status')) as Record<string, unknown> | undefined;
  if (!row || row.status !== 'active') throw new Error('the credential that started this work is no longer active');
  return recordFilterOf(db, orgId, policyOfRow(row), granularOf(db, orgId, restrictions));
}
