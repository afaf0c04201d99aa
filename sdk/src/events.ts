// The event log of an organization (any read scope): every event the credential may see, in
// the order they were committed, each with exactly the `data` its webhook deliveries
// carried. Poll it to reconcile when webhooks were missed, or rebuild state from it alone;
// de-duplicate with webhooks on the event id.
import type { Client } from 'openapi-fetch';
import { assertId } from './arguments.js';
import type { Event, EventType } from './contract-types.js';
import type { paths } from './generated/openapi.js';
import { type CallOptions, MAX_PAGE_SIZE } from './pagination.js';
import { dataOf, envelopeData } from './response-data.js';

export interface EventLogOptions extends CallOptions {
  /** Start after this event id (exclusive): the `after` a previous walk ended at. Default: the oldest event kept. */
  after?: string | undefined;
  /** Only these types (each needs its read scope: resident.* residents.read, coverage.updated coverage.read, clinical.* clinical.read). */
  types?: readonly EventType[] | undefined;
  /** Only this facility (one granted to the credential). */
  facilityId?: string | undefined;
  /** Events per request, 1 to 200. Default 200 (fewest requests). */
  pageSize?: number | undefined;
}

/** One page of the log: its events and, when more follow, the `after` of the next page. */
export interface EventPage {
  data: Event[];
  next: string | null;
}

/**
 * Every event after `after` up to now, oldest first, as an async iterable. `after` moves
 * with every event handed out: store it when done (or at any point) and resume with
 * `events.list({ after })`, which starts exactly after the last event handed out.
 */
export class EventLog implements AsyncIterable<Event> {
  #after: string | undefined;

  constructor(
    private readonly listPage: (after: string | undefined) => Promise<EventPage>,
    after: string | undefined,
  ) {
    this.#after = after;
  }

  /** The id of the last event handed out (or the `after` the walk started from). */
  get after(): string | undefined {
    return this.#after;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Event, void, undefined> {
    for (;;) {
      const page = await this.listPage(this.#after);
      for (const event of page.data) {
        this.#after = event.id;
        yield event;
      }
      if (page.next === null) return;
    }
  }
}

export class EventsClient {
  constructor(
    private readonly raw: Client<paths>,
    readonly orgId: string,
  ) {
    assertId(orgId, 'orgId');
  }

  /** One page of the log. */
  async page(options: EventLogOptions = {}): Promise<EventPage> {
    if (options.after !== undefined) assertId(options.after, 'after');
    if (options.facilityId !== undefined) assertId(options.facilityId, 'facilityId');
    const query = {
      ...(options.after === undefined ? {} : { after: options.after }),
      ...(options.types === undefined || options.types.length === 0 ? {} : { types: options.types.join(',') }),
      ...(options.facilityId === undefined ? {} : { facility_id: options.facilityId }),
      page_size: options.pageSize ?? MAX_PAGE_SIZE,
    };
    const body = await dataOf(this.raw.GET('/api/v1/ofctx/{org_id}/events', { params: { path: { org_id: this.orgId }, query }, signal: options.signal }));
    return { data: body.data, next: body.meta.page.next };
  }

  /** Every event after `after`, oldest first; the returned log's `after` is where to resume. */
  list(options: EventLogOptions = {}): EventLog {
    return new EventLog((after) => this.page({ ...options, after }), options.after);
  }

  /** One event (404 NotFoundError if the credential may not see it). */
  async get(eventId: string, options?: CallOptions): Promise<Event> {
    assertId(eventId, 'eventId');
    return envelopeData(this.raw.GET('/api/v1/ofctx/{org_id}/events/{event_id}', { params: { path: { org_id: this.orgId, event_id: eventId } }, signal: options?.signal }));
  }
}
