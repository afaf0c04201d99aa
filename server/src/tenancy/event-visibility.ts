// Which events of the log a caller may read, as one SQL restriction (so pages stay full):
// its organization, the facilities its credential is granted, and the event types whose
// read scope its token carries with search (an event is about a resident, a coverage or a
// clinical record, and tells what the matching read would; a feed of them is a search, so
// SMART's `r` alone does not open it). Explicit filters narrow it; asking
// for what the grant excludes is refused as the resource endpoints refuse it. The
// credential's access policy (issue 23) adds its restriction here: only events about a
// resident the credential may see (tenancy/record-visibility.ts), and events about a record
// carrying a restricted security label only for --sensitive credentials. A token's granular
// scopes (issue 45) add theirs per event type, by the record type the event is about
// (eventRecordCondition below): a token that sees no record of that type, or not the one the
// event names, does not see the event.
import type { Knex } from 'knex';
import { ApiError } from '../errors/api-error.js';
import type { Caller } from './caller.js';
import { REALM } from '../errors/bearer-realm.js';
import { EVENT_TYPES, type EventType } from '../db/event-types.js';
import type { RecordFilter } from './record-visibility.js';
import type { SqlFragment } from './sql-fragment.js';
import { restrictableTypes } from './restrictable-types.js';
import type { GranularRestriction } from './granular-restriction.js';
import { allows } from './scope-grants.js';

/** The read scope an event's type needs: the scope of the record the event is about. */
export const READ_SCOPE_OF_EVENT_TYPE: Record<EventType, string> = {
  'resident.admitted': 'residents.read',
  'resident.discharged': 'residents.read',
  'resident.transferred': 'residents.read',
  'resident.merged': 'residents.read',
  'coverage.updated': 'coverage.read',
  'clinical.condition.created': 'clinical.read',
  'clinical.order.created': 'clinical.read',
  'clinical.result.created': 'clinical.read',
};

export interface EventLogFilter {
  /** Only these types (already known to be event types). */
  types?: readonly EventType[] | undefined;
  /** Only this facility. */
  facilityId?: string | undefined;
}

/**
 * Restricts `query` (over `webhook_events`, or an alias of it) to the events `principal` may
 * read, narrowed by `filter`. Throws 403 when the filter names a facility or a type outside
 * the grant.
 */
export function restrictToVisibleEvents<Q extends Knex.QueryBuilder>(
  query: Q,
  principal: Caller,
  visibility: RecordFilter,
  filter: EventLogFilter = {},
  alias = 'webhook_events',
): Q {
  const readable = EVENT_TYPES.map((t) => t.event_type).filter((type) => allows(principal.scopes, READ_SCOPE_OF_EVENT_TYPE[type], 'search'));
  let types = readable;
  if (filter.types !== undefined) {
    const refused = filter.types.filter((type) => !readable.includes(type));
    if (refused.length > 0) {
      const scope = [...new Set(refused.map((type) => READ_SCOPE_OF_EVENT_TYPE[type]))].join(' ');
      throw new ApiError(
        'insufficient_scope',
        `Events of type ${refused.join(', ')} need the scope ${scope} with search (SMART s), which the access token does not carry.`,
        [{ field: 'query.types', issue: `requires ${scope}` }],
        { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
      );
    }
    types = readable.filter((type) => filter.types!.includes(type));
  }
  let facilities = [...principal.facilityIds];
  if (filter.facilityId !== undefined) {
    if (!principal.facilityIds.has(filter.facilityId)) {
      throw new ApiError('facility_forbidden', undefined, [{ field: 'query.facility_id', issue: 'is not granted to this credential' }]);
    }
    facilities = [filter.facilityId];
  }
  const column = (name: string) => `${alias}.${name}`;
  query.where(column('org_id'), principal.orgId);
  if (types.length === 0 || facilities.length === 0) return query.whereRaw('1 = 0') as Q;
  query.whereIn(column('facility_id'), facilities);
  if (types.length < EVENT_TYPES.length) query.whereIn(column('event_type'), types);
  restrictToVisibleResidents(query, visibility, alias);
  if (visibility.granular) {
    for (const type of types) {
      const condition = eventRecordCondition(visibility.granular, type, alias);
      if (condition) query.whereRaw(`(${column('event_type')} <> ? or (${condition.sql}))`, [type, ...condition.bindings]);
    }
  }
  return query;
}

/**
 * The record an event of `type` is about, as granular scopes see it: a resident.* event its
 * Patient; clinical.result.created its DiagnosticReport (data.diagnostic_report_id);
 * clinical.order.created its order's type (data.order_type) and coverage.updated and
 * clinical.condition.created, which name no record, a record of their type of the event's
 * resident that the token sees. Undefined when the granular scopes restrict none of them.
 */
function eventRecordCondition(granular: GranularRestriction, type: EventType, alias: string): SqlFragment | undefined {
  const of = (r4Type: string, key: string, column: string): SqlFragment | undefined => {
    const restriction = granular.rowsOf(r4Type, 'vis_g');
    if (!restriction) return undefined;
    return { sql: `exists (select 1 from ${restrictableTypes().tableOf(r4Type)!} vis_g where vis_g.${key} = ${alias}.${column} and ${restriction.sql})`, bindings: restriction.bindings };
  };
  switch (type) {
    case 'resident.admitted':
    case 'resident.discharged':
    case 'resident.transferred':
    case 'resident.merged':
      return of('Patient', 'id', 'resident_id');
    case 'coverage.updated':
      return of('Coverage', 'resident_id', 'resident_id');
    case 'clinical.condition.created':
      return of('Condition', 'resident_id', 'resident_id');
    case 'clinical.result.created':
      return of('DiagnosticReport', 'id', 'diagnostic_report_id');
    case 'clinical.order.created': {
      const orders = (['ServiceRequest', 'MedicationRequest'] as const).map((order) => [order, of(order, 'resident_id', 'resident_id')] as const);
      if (orders.every(([, condition]) => !condition)) return undefined;
      const bindings: SqlFragment['bindings'] = [];
      const sql = orders
        .map(([order, condition]) => {
          bindings.push(order, ...(condition?.bindings ?? []));
          return `(${alias}.order_type = ? and ${condition ? `(${condition.sql})` : '1 = 1'})`;
        })
        .join(' or ');
      return { sql, bindings };
    }
  }
}

/** Events about a resident the policy lets the caller see, and restricted ones only if it may see those. */
export function restrictToVisibleResidents<Q extends Knex.QueryBuilder>(query: Q, visibility: RecordFilter, alias = 'webhook_events'): Q {
  if (visibility.isEmpty) return query;
  if (!visibility.policy.sensitive && visibility.flags.restrictedRecords) query.where(`${alias}.restricted`, 0);
  const { sql, bindings } = visibility.resident(`${alias}.resident_id`);
  return query.whereRaw(sql, bindings) as Q;
}
