// Events enter here: from applyChangeSet (ingest/apply-change-set.ts), inside the transaction
// that writes the change, and from `ops event emit` (manual). The event row and one delivery
// row per matching subscription are written in ONE transaction (transactional outbox): once
// the event is accepted, its deliveries exist and survive any crash. Each delivery's body is
// serialized here, once. On PostgreSQL the transaction also NOTIFYs, so the workers of
// every instance wake at commit.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { isUuid, timeOrderedUuid } from '../db/uuid.js';
import { isPostgres, rawRows } from '../db/database.js';
import { isEventType, type EventType } from '../db/event-types.js';
import { serializeDeliveryBody, type OrderType } from './event-envelope.js';
import { deliveriesQueuedNotice, insertAndNotifyDeliveriesQueued, notifyDeliveriesQueued } from './delivery-wakeup.js';
import { insertAll, InsertBatch } from '../db/insert-batch.js';
import { statementTemplate } from '../db/statement-template.js';
import { transactionRowsOf } from '../db/transaction-statements.js';
import { lockOrganizationWrites, lockOrganizationWritesWith } from '../ingest/ingest-clock.js';
import type { SubscriptionRow } from './subscriptions.js';
import { policyOfRow } from '../tenancy/access-policy.js';
import { RecordFilter, type OrganizationFlags } from '../tenancy/record-visibility.js';
import { eventNotification, FHIR_KIND, type FhirColumns } from './fhir/fhir-notifications.js';

/**
 * The columns of a matching subscription the outbox uses (never its secrets), with its
 * registering credential's access policy columns. Named, not `s.*`: on PostgreSQL the HL7
 * path reads them with the ingest clock's tick, a statement prepared once only when its text
 * names its columns (db/transaction-statements.ts); with `s.*` it was parsed and planned
 * again at every message, a third of the database's CPU for it.
 */
export type MatchedSubscription = Pick<SubscriptionRow, 'seq' | 'id' | 'org_id' | 'client_pk' | 'event_types'> &
  FhirColumns & { purpose: string; payers: string | null; sensitive: number; org_restricted_records: unknown; org_consent_denials: unknown };
// kind, facility_id, fhir_settings: a FHIR Subscription's (fhir/fhir-notifications.ts).
const MATCHED_COLUMNS = ['s.seq', 's.id', 's.org_id', 's.client_pk', 's.event_types', 's.kind', 's.facility_id', 's.fhir_settings'];

export interface EventInput {
  orgId: string;
  facilityId: string;
  type: string;
  residentId: string;
  /** ISO 8601; defaults to now. */
  occurredAt?: string | undefined;
}

export interface EmittedEvent {
  event_id: string;
  /** How many subscriptions the event was queued for. */
  deliveries: number;
}

/** The input names something that does not exist or is malformed. */
export class InvalidEvent extends Error {}

function validated(input: EventInput): EventInput & { type: EventType; occurredAt: string } {
  for (const [name, value] of [['org', input.orgId], ['facility', input.facilityId], ['resident', input.residentId]] as const) {
    if (!isUuid(value)) throw new InvalidEvent(`${name} must be a UUID, got "${String(value)}"`);
  }
  if (!isEventType(input.type)) throw new InvalidEvent(`unknown event type "${input.type}"`);
  let occurredAt = nowIso();
  if (input.occurredAt !== undefined) {
    const at = Date.parse(input.occurredAt);
    if (Number.isNaN(at)) throw new InvalidEvent(`occurred-at must be an ISO 8601 time, got "${input.occurredAt}"`);
    occurredAt = nowIso(at);
  }
  return {
    orgId: input.orgId.toLowerCase(),
    facilityId: input.facilityId.toLowerCase(),
    residentId: input.residentId.toLowerCase(),
    type: input.type,
    occurredAt,
  };
}

/**
 * Active subscriptions of the organization that list the type and whose registering
 * credential is still active and still granted the facility. Whether that credential may
 * see the event's resident is checked per event (visibleTo below).
 */
export function subscriptionsQuery(db: Knex, orgId: string, facilityId: string): Knex.QueryBuilder {
  return db('webhook_subscriptions as s')
    .join('clients as c', 'c.id', 's.client_pk')
    .join('client_facilities as g', function () {
      this.on('g.client_pk', '=', 's.client_pk').andOn('g.facility_id', '=', db.raw('?', [facilityId]));
    })
    .where({ 's.org_id': orgId, 's.status': 'active', 'c.status': 'active' })
    .orderBy('s.seq')
    .modify((q) => {
      // Ending a subscription waits for this transaction (and its cancel then sees these
      // deliveries), or this waits for the ending and no longer matches it.
      if (isPostgres(db)) q.forShare('s');
    })
    // The organization's flags ride along (one statement instead of two per event type).
    .join('organizations as o', 'o.id', 's.org_id')
    .select(...MATCHED_COLUMNS, 'c.purpose', 'c.payers', 'c.sensitive', 'o.restricted_records as org_restricted_records', 'o.consent_denials as org_consent_denials');
}

/** subscriptionsQuery's text compiled once (db/statement-template.ts): it rides with the HL7 path's tick at every message. */
export const subscriptionsStatement = statementTemplate(subscriptionsQuery);

/**
 * A facility's subscriptions read earlier in the transaction (on PostgreSQL, with the ingest
 * clock's tick: ingest/apply-change-set.ts), and the organization's flags as this transaction
 * leaves them (the caller adds what it writes itself: the flags are never cleared).
 */
export interface KnownSubscriptions {
  orgId: string;
  facilityId: string;
  rows: MatchedSubscription[];
  flags: OrganizationFlags;
}

/** The organization's flags as the subscriptions' rows carry them (none without a row: no delivery needs them). */
export function flagsOfSubscriptions(rows: readonly MatchedSubscription[]): OrganizationFlags {
  const row = rows[0];
  return { restrictedRecords: Number(row?.org_restricted_records ?? 0) === 1, consentDenials: Number(row?.org_consent_denials ?? 0) === 1 };
}

const listingType = (rows: MatchedSubscription[], type: EventType) => rows.filter((row) => (JSON.parse(row.event_types) as string[]).includes(type));

async function matchingSubscriptions(trx: Knex.Transaction, orgId: string, facilityId: string, type: EventType): Promise<MatchedSubscription[]> {
  return listingType(await transactionRowsOf<MatchedSubscription>(trx, subscriptionsStatement(trx, orgId, facilityId)), type);
}

/**
 * The event log (events/event-log.ts) pages an organization's events by `seq` and resumes
 * after the last one a partner saw, so within an organization a later commit must never
 * hold a smaller `seq`. SQLite commits one transaction at a time. On PostgreSQL a sequence
 * value is taken at insert and transactions commit in any order, so event-writing
 * transactions of one organization are serialized from before their insert to their
 * commit on the organization's ingest_clock row (ingest/ingest-clock.ts), the lock ingest
 * transactions already hold; taking it again in the same transaction costs nothing.
 */
async function lockEventLogs(trx: Knex.Transaction, events: readonly QueuedEvent[]): Promise<void> {
  if (!isPostgres(trx)) return;
  for (const orgId of [...new Set(events.map((e) => e.orgId))].sort()) await lockOrganizationWrites(trx, orgId);
}

/** An event as it is queued: already checked, its ids in lower case. */
export interface QueuedEvent {
  orgId: string;
  facilityId: string;
  type: EventType;
  residentId: string;
  occurredAt: string;
  /** clinical.order.created: which kind of order (the delivery's `data.order_type`). */
  orderType?: OrderType;
  /** resident.merged: the prior resident, merged into `residentId` (`data.merged_resident_id`). */
  mergedResidentId?: string;
  /** clinical.result.created: the DiagnosticReport and its status (`data.diagnostic_report_id`, `data.diagnostic_report_status`). */
  diagnosticReportId?: string;
  diagnosticReportStatus?: string;
  /** The record the event is about carries a restricted security label (only --sensitive credentials receive it). */
  restricted?: boolean;
}

/**
 * Whether the subscription's credential may see the event without reading anything: a
 * restricted event only if --sensitive; an unrestricted credential everything; undefined
 * when its resident must be checked through the visibility restriction.
 */
function visibleWithoutReading(subscription: MatchedSubscription, flags: OrganizationFlags, event: QueuedEvent): boolean | undefined {
  const filter = new RecordFilter(policyOfRow(subscription), flags);
  if (event.restricted && !filter.policy.sensitive) return false;
  return filter.isEmpty ? true : undefined;
}

/**
 * Whether the subscription's credential may see the event: its resident through the one
 * visibility restriction (tenancy/record-visibility.ts), read inside this transaction (so the
 * change that caused the event, consents and labels included, is already seen), and a
 * restricted event only if --sensitive. Test deliveries do not come here.
 */
async function visibleTo(trx: Knex.Transaction, subscription: MatchedSubscription, flags: OrganizationFlags, event: QueuedEvent, seen: Map<string, boolean>): Promise<boolean> {
  const known = visibleWithoutReading(subscription, flags, event);
  if (known !== undefined) return known;
  const key = `${subscription.client_pk}|${event.residentId}`;
  let visible = seen.get(key);
  if (visible === undefined) {
    const { sql, bindings } = new RecordFilter(policyOfRow(subscription), flags).rows('residents', 'r');
    visible = (await trx('residents as r').where('r.id', event.residentId).whereRaw(sql, bindings).first('r.id')) !== undefined;
    seen.set(key, visible);
  }
  return visible;
}

type EventRow = { id: string; created_at: string };

/** One delivery of an event to a subscription; its body serialized here, once (a FHIR Subscription's: fhirDeliveryRow). */
function deliveryRow(event: QueuedEvent, eventRow: EventRow, subscription: MatchedSubscription): Record<string, unknown> {
  const deliveryId = timeOrderedUuid();
  return {
    id: deliveryId,
    event_id: eventRow.id,
    subscription_id: subscription.id,
    org_id: event.orgId,
    event_type: event.type,
    body: serializeDeliveryBody({
      eventType: event.type,
      eventId: eventRow.id,
      deliveryId,
      occurredAt: event.occurredAt,
      orgId: event.orgId,
      facilityId: event.facilityId,
      residentId: event.residentId,
      orderType: event.orderType,
      mergedResidentId: event.mergedResidentId,
      diagnosticReportId: event.diagnosticReportId,
      diagnosticReportStatus: event.diagnosticReportStatus,
    }),
    status: 'pending',
    purpose: subscription.purpose,
    attempts: 0,
    series_start: 0,
    due_at: eventRow.created_at,
    created_at: eventRow.created_at,
  };
}

/**
 * One notification of an event to a FHIR Subscription (its filters asked, its event number
 * taken, its Bundle rendered in this transaction), or none when the subscription does not
 * want this event.
 */
async function fhirDeliveryRow(trx: Knex.Transaction, event: QueuedEvent, eventRow: EventRow, subscription: MatchedSubscription, flags: OrganizationFlags): Promise<Record<string, unknown> | undefined> {
  const notification = await eventNotification(trx, subscription, event, eventRow, new RecordFilter(policyOfRow(subscription), flags));
  if (!notification) return undefined;
  return {
    id: notification.deliveryId,
    event_id: eventRow.id,
    subscription_id: subscription.id,
    org_id: event.orgId,
    event_type: event.type,
    body: notification.body,
    status: 'pending',
    purpose: subscription.purpose,
    attempts: 0,
    series_start: 0,
    due_at: eventRow.created_at,
    created_at: eventRow.created_at,
    notification_type: 'event-notification',
    event_number: notification.eventNumber,
  };
}

/**
 * The deliveries of events whose subscriptions are known and whose every visibility is
 * decided without reading; undefined when one must read the resident (after the writes).
 */
function deliveriesDecided(events: readonly QueuedEvent[], eventRows: readonly EventRow[], known: KnownSubscriptions): { rows: Record<string, unknown>[]; emitted: EmittedEvent[] } | undefined {
  if (!events.every((event) => event.orgId === known.orgId && event.facilityId === known.facilityId)) return undefined;
  const rows: Record<string, unknown>[] = [];
  const emitted: EmittedEvent[] = [];
  for (const [index, event] of events.entries()) {
    let deliveries = 0;
    for (const subscription of listingType(known.rows, event.type)) {
      // A FHIR Subscription's filters and event counter are read and written: not decided here.
      if (subscription.kind === FHIR_KIND) return undefined;
      const visible = visibleWithoutReading(subscription, known.flags, event);
      if (visible === undefined) return undefined;
      if (!visible) continue;
      rows.push(deliveryRow(event, eventRows[index]!, subscription));
      deliveries++;
    }
    emitted.push({ event_id: eventRows[index]!.id, deliveries });
  }
  return { rows, emitted };
}

/**
 * Queues events inside the caller's transaction: the event rows and one delivery per
 * matching subscription commit (or roll back) with the caller's own writes. This is how a
 * change and its event stay one: applyChangeSet calls it in the transaction that writes the
 * rows. Returns, per event, its id and how many deliveries were queued.
 */
export async function queueEvents(trx: Knex.Transaction, events: readonly QueuedEvent[], batch?: InsertBatch, known?: KnownSubscriptions): Promise<EmittedEvent[]> {
  if (events.length === 0) return [];
  const createdAt = nowIso();
  const eventRows = events.map((event) => ({
    id: timeOrderedUuid(),
    org_id: event.orgId,
    facility_id: event.facilityId,
    resident_id: event.residentId,
    event_type: event.type,
    occurred_at: event.occurredAt,
    order_type: event.orderType ?? null,
    merged_resident_id: event.mergedResidentId ?? null,
    diagnostic_report_id: event.diagnosticReportId ?? null,
    diagnostic_report_status: event.diagnosticReportStatus ?? null,
    restricted: event.restricted ? 1 : 0,
    created_at: createdAt,
  }));
  await lockEventLogs(trx, events);
  // The event rows go first: on SQLite a transaction that reads before its first write
  // cannot wait for another process's writer lock (its snapshot would be stale, SQLITE_BUSY
  // at once); writing first makes it wait out the busy timeout like any writer. With the
  // caller's batch (applyChangeSet) they go with its other inserts, and when the events share
  // one (facility, type), that one subscription query is the batch's primary query: one
  // statement on PostgreSQL. Otherwise, one subscription query per (facility, type), whatever
  // the number of events.
  const subscriptionsOf = new Map<string, Promise<MatchedSubscription[]>>();
  const keyOf = (event: QueuedEvent) => `${event.orgId}|${event.facilityId}|${event.type}`;
  const first = events[0]!;
  const flagsOf = new Map<string, OrganizationFlags>();
  if (known) {
    flagsOf.set(known.orgId, known.flags);
    for (const event of events) if (event.orgId === known.orgId && event.facilityId === known.facilityId) subscriptionsOf.set(keyOf(event), Promise.resolve(listingType(known.rows, event.type)));
  }
  // Subscriptions known and every visibility decided without reading (no restricting policy):
  // the deliveries and their wake-up go with the batch, on PostgreSQL the same statement.
  const decided = batch && known ? deliveriesDecided(events, eventRows, known) : undefined;
  if (batch && decided) {
    batch.add('webhook_events', eventRows);
    batch.add('webhook_deliveries', decided.rows);
    const notice = decided.rows.length > 0 && isPostgres(trx as unknown as Knex) ? deliveriesQueuedNotice(trx).toSQL() : undefined;
    await batch.flush(notice);
    if (decided.rows.length > 0 && !notice) await notifyDeliveriesQueued(trx);
    return decided.emitted;
  }
  if (!batch) await insertAll(trx, 'webhook_events', eventRows);
  else {
    batch.add('webhook_events', eventRows);
    const oneKey = !subscriptionsOf.has(keyOf(first)) && events.every((event) => keyOf(event) === keyOf(first));
    const rows = await batch.flush(oneKey ? subscriptionsStatement(trx, first.orgId, first.facilityId) : undefined);
    if (oneKey) subscriptionsOf.set(keyOf(first), Promise.resolve(listingType(rows as MatchedSubscription[], first.type)));
  }
  const seen = new Map<string, boolean>();
  const emitted: EmittedEvent[] = [];
  const deliveryRows: Record<string, unknown>[] = [];
  for (const [index, event] of events.entries()) {
    const key = keyOf(event);
    if (!subscriptionsOf.has(key)) subscriptionsOf.set(key, matchingSubscriptions(trx, event.orgId, event.facilityId, event.type));
    const matched = await subscriptionsOf.get(key)!;
    // As this transaction sees them (an organization's flags are set in the transaction that writes what they flag).
    if (matched.length > 0 && !flagsOf.has(event.orgId)) flagsOf.set(event.orgId, flagsOfSubscriptions(matched));
    let deliveries = 0;
    for (const subscription of matched) {
      if (!(await visibleTo(trx, subscription, flagsOf.get(event.orgId)!, event, seen))) continue;
      const row = subscription.kind === FHIR_KIND ? await fhirDeliveryRow(trx, event, eventRows[index]!, subscription, flagsOf.get(event.orgId)!) : deliveryRow(event, eventRows[index]!, subscription);
      if (!row) continue;
      deliveryRows.push(row);
      deliveries++;
    }
    emitted.push({ event_id: eventRows[index]!.id, deliveries });
  }
  // A FHIR notification carries two columns more; one insert takes rows of one shape.
  if (deliveryRows.some((row) => row.notification_type !== undefined)) {
    for (const row of deliveryRows) {
      row.notification_type ??= null;
      row.event_number ??= null;
    }
  }
  for (let i = 0; i < deliveryRows.length; i += 50) {
    const rows = deliveryRows.slice(i, i + 50);
    // The last insert carries the wake-up (on PostgreSQL one statement, not two).
    if (i + 50 >= deliveryRows.length) await insertAndNotifyDeliveriesQueued(trx, trx('webhook_deliveries').insert(rows));
    else await trx('webhook_deliveries').insert(rows);
  }
  return emitted;
}

/**
 * `ops event emit` and in-process callers: one event, checked, in a transaction of its own.
 * On PostgreSQL, as on the ingest path, the organization's lock carries the subscriptions'
 * read and the event, its deliveries and their wake-up are one statement: four round trips
 * where there were eight, each waiting its turn on a loop busy with deliveries (the
 * delivery benchmark's events measured 6 ms a commit at the median, 30 at p99, 2026-11-27).
 */
export async function emitEvent(db: Knex, input: EventInput): Promise<EmittedEvent> {
  const event = validated(input);
  const [names] = rawRows<{ facility_org: string | null; org: string | null }>(
    await db.raw('SELECT (SELECT org_id FROM facilities WHERE id = ?) AS facility_org, (SELECT id FROM organizations WHERE id = ?) AS org', [event.facilityId, event.orgId]),
  );
  if (!names?.org) throw new InvalidEvent(`no organization ${event.orgId}`);
  if (names.facility_org !== event.orgId) throw new InvalidEvent(`no facility ${event.facilityId} in organization ${event.orgId}`);
  const [emitted] = await db.transaction(async (trx) => {
    if (!isPostgres(trx as unknown as Knex)) return queueEvents(trx, [event]);
    const reads = await lockOrganizationWritesWith(trx, event.orgId, { subscriptions: subscriptionsStatement(trx, event.orgId, event.facilityId) });
    const rows = reads.subscriptions as MatchedSubscription[];
    return queueEvents(trx, [event], new InsertBatch(trx), { orgId: event.orgId, facilityId: event.facilityId, rows, flags: flagsOfSubscriptions(rows) });
  });
  return emitted!;
}
