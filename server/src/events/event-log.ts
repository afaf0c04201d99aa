// The event log: an organization's events in commit order (`seq`; event-outbox.ts keeps a
// later commit's seq greater within an organization), each as the `data` its deliveries
// carried. Read through tenancy/event-visibility.ts, which restricts the SQL itself, so a
// page is always full when more visible events follow.
import type { Knex } from 'knex';
import type { components } from '@ofctx/sdk/contract';
import { ApiError } from '../errors/api-error.js';
import type { Principal } from '../auth/principal.js';
import { restrictToVisibleEvents, type EventLogFilter } from '../tenancy/event-visibility.js';
import { visibilityOf } from '../tenancy/authorize.js';
import { API_VERSION, type EventType } from '../db/event-types.js';
import { eventData, type OrderType } from '../webhooks/event-envelope.js';
// The tenancy rules read granular scopes' types through it (tenancy/restrictable-types.ts).
import '../resources/r4/search/restrictable-r4-types.js';

export type Event = components['schemas']['Event'];

const COLUMNS = ['seq', 'id', 'org_id', 'facility_id', 'resident_id', 'event_type', 'order_type', 'merged_resident_id', 'diagnostic_report_id', 'diagnostic_report_status', 'occurred_at', 'created_at'];

interface EventRow {
  seq: number;
  id: string;
  org_id: string;
  facility_id: string;
  resident_id: string;
  event_type: EventType;
  order_type: OrderType | null;
  merged_resident_id: string | null;
  diagnostic_report_id: string | null;
  diagnostic_report_status: string | null;
  occurred_at: string;
  created_at: string;
}

function toEvent(row: EventRow): Event {
  return {
    id: row.id,
    type: row.event_type,
    api_version: API_VERSION,
    created_at: row.created_at,
    occurred_at: row.occurred_at,
    facility_id: row.facility_id,
    data: eventData({ orgId: row.org_id, facilityId: row.facility_id, residentId: row.resident_id, orderType: row.order_type ?? undefined, mergedResidentId: row.merged_resident_id ?? undefined, diagnosticReportId: row.diagnostic_report_id ?? undefined, diagnosticReportStatus: row.diagnostic_report_status ?? undefined }),
  };
}

export interface EventPage {
  events: Event[];
  /** The `after` of the following page when more visible events follow. */
  next: string | null;
}

export async function listEventPage(db: Knex, principal: Principal, filter: EventLogFilter & { after?: string | undefined; pageSize: number }): Promise<EventPage> {
  let afterSeq = 0;
  if (filter.after !== undefined) {
    // Any event of the organization is a position, visible or not: its id says nothing more.
    const row = await db('webhook_events').where({ id: filter.after, org_id: principal.orgId }).first('seq');
    if (!row) {
      throw new ApiError('invalid_parameter', undefined, [
        { field: 'query.after', issue: 'names no event of this organization (events are kept EVENT_RETENTION_DAYS); start again without after' },
      ]);
    }
    afterSeq = Number(row.seq);
  }
  const rows = (await restrictToVisibleEvents(db('webhook_events'), principal, await visibilityOf(db, principal), filter)
    .andWhere('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(filter.pageSize + 1)
    .select(COLUMNS)) as EventRow[];
  const more = rows.length > filter.pageSize;
  const events = rows.slice(0, filter.pageSize).map(toEvent);
  return { events, next: more ? events[events.length - 1]!.id : null };
}

export async function findEvent(db: Knex, principal: Principal, id: string): Promise<Event | undefined> {
  const row = (await restrictToVisibleEvents(db('webhook_events'), principal, await visibilityOf(db, principal)).andWhere({ id }).first(COLUMNS)) as EventRow | undefined;
  return row ? toEvent(row) : undefined;
}
