// The event log's two operations. The contract lets any of the three read scopes in; what
// each credential then sees is restricted in tenancy/event-visibility.ts.
import { ApiError } from '../errors/api-error.js';
import { single } from '../http/envelope.js';
import type { OperationHandler } from '../app-context.js';
import { pageOf } from '../resources/pagination.js';
import { isEventType, type EventType } from '../db/event-types.js';
import { findEvent, listEventPage } from './event-log.js';
import { eventDisclosures } from '../audit/disclosures.js';

function typesOf(raw: unknown): EventType[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const names = raw.split(',');
  const unknown = names.filter((name) => !isEventType(name));
  if (unknown.length > 0) throw new ApiError('invalid_parameter', undefined, [{ field: 'query.types', issue: `unknown event types: ${unknown.join(', ')}` }]);
  return [...new Set(names)] as EventType[];
}

const listEvents: OperationHandler = async ({ app, principal, query }) => {
  const { pageSize } = pageOf(query);
  const page = await listEventPage(app.db, principal, {
    types: typesOf(query.types),
    facilityId: typeof query.facility_id === 'string' ? query.facility_id : undefined,
    after: typeof query.after === 'string' ? query.after : undefined,
    pageSize,
  });
  return {
    body: { data: page.events, meta: { page: { page_size: pageSize, next: page.next } }, error: null },
    audit: { resourceIds: page.events.map((e) => e.id), disclosures: eventDisclosures(page.events.map((e) => e.data.resident_id)) },
  };
};

const getEvent: OperationHandler = async ({ app, principal, params }) => {
  const event = await findEvent(app.db, principal, params.event_id!);
  if (!event) throw new ApiError('not_found', 'No such event visible to this credential.');
  return { body: single(event), audit: { resourceIds: [event.id], disclosures: eventDisclosures([event.data.resident_id]) } };
};

export const eventOperations: Record<string, OperationHandler> = { listEvents, getEvent };
