// What the outbox (event-outbox.ts) queues for a FHIR Subscription: inside the transaction
// that writes the change and its event, the subscription's `_criteria` filters are asked
// (what that transaction sees), its event counter is taken (the event's number, and
// eventsSinceSubscriptionStart), and the notification Bundle is rendered, once: its bytes are
// what every attempt sends, like a webhook delivery's body. With full-resource, the focus is
// read through the subscription owner's access policy (tenancy/record-visibility.ts), so a
// notification carries what that credential may read and nothing more. Handshakes and
// heartbeats are deliveries of no event.
import type { Knex } from 'knex';
import { nowIso } from '../../db/clock.js';
import { timeOrderedUuid } from '../../db/uuid.js';
import { readRow } from '../../resources/resource-rows.js';
import type { ResourceRow } from '../../db/resource-row.js';
import { R4_TYPES, withRelated } from '../../resources/r4/r4-types.js';
import { withDiagnosticReportReferences, type R4DiagnosticReportRow } from '../../resources/r4/r4-diagnostic-report.js';
import type { RecordFilter } from '../../tenancy/record-visibility.js';
import type { FhirSubscriptionSettings, SubscriptionFilter } from './backport-subscription.js';
import { notificationBundle, type NotificationEvent, type NotificationType } from './notification-bundle.js';
import { topicByUrl } from './subscription-topics.js';

/** webhook_subscriptions.kind of a FHIR Subscription. */
export const FHIR_KIND = 'fhir-rest-hook';

/** The columns of a matched FHIR Subscription the outbox reads beside a webhook's. */
export interface FhirColumns {
  kind: string;
  facility_id: string | null;
  fhir_settings: string | null;
}

/** The event as the outbox queues it (the fields a notification needs). */
export interface NotifiedEvent {
  orgId: string;
  facilityId: string;
  residentId: string;
  type: string;
  occurredAt: string;
  diagnosticReportId?: string | undefined;
}

export function settingsOf(row: { fhir_settings: string | null }): FhirSubscriptionSettings {
  return JSON.parse(row.fhir_settings ?? 'null') as FhirSubscriptionSettings;
}

async function diagnosticReport(trx: Knex, event: NotifiedEvent): Promise<R4DiagnosticReportRow | undefined> {
  if (!event.diagnosticReportId) return undefined;
  return (await trx('diagnostic_reports').where({ id: event.diagnosticReportId, org_id: event.orgId }).first()) as R4DiagnosticReportRow | undefined;
}

const matchesCode = (system: string | null, code: string | null | undefined, filter: SubscriptionFilter) =>
  code === filter.value && (filter.system === null || system === filter.system);

/** One `_criteria` filter asked of the event, as this transaction sees the records. */
async function passes(trx: Knex, filter: SubscriptionFilter, event: NotifiedEvent): Promise<boolean> {
  if (filter.resource === 'Patient' && filter.parameter === '_id') return filter.value.toLowerCase() === event.residentId;
  if (filter.resource === 'Patient' && filter.parameter === 'identifier') {
    let query = trx('resource_identifiers').where({ org_id: event.orgId, resource_type: 'Patient', resource_id: event.residentId, value: filter.value });
    if (filter.system !== null) query = query.andWhere({ system: filter.system });
    return (await query.first('resource_id')) !== undefined;
  }
  const report = await diagnosticReport(trx, event);
  if (!report) return false;
  if (filter.resource === 'DiagnosticReport') return matchesCode((report as unknown as Record<string, string | null>).category_system ?? null, (report as unknown as Record<string, string | null>).category_code, filter);
  // Observation?category: a category one of the report's results carries.
  await withDiagnosticReportReferences(trx, event.orgId, [report]);
  const ids = report.resultIds ?? [];
  if (ids.length === 0) return false;
  const rows = (await trx('observations').where({ org_id: event.orgId }).whereIn('id', ids).select('category_system', 'category_code')) as Array<{ category_system: string | null; category_code: string | null }>;
  return rows.some((row) => matchesCode(row.category_system, row.category_code, filter));
}

/** The focus of an event of this topic, read as the owner may see it (full-resource). */
async function focusResource(trx: Knex, focus: string, event: NotifiedEvent, filter: RecordFilter): Promise<{ resourceType: string; id: string } | undefined> {
  const [type, id] = focus.split('/') as [string, string];
  const r4 = R4_TYPES.find((t) => t.type === type)!;
  const row = await readRow<ResourceRow>(trx, r4.table, { org_id: event.orgId, facility_id: event.facilityId }, id, filter);
  if (!row) return undefined;
  await withRelated(r4, trx, event.orgId, [row]);
  return r4.render(row);
}

/** The subscription's next event number, taken in this transaction. */
async function nextEventNumber(trx: Knex, subscriptionId: string): Promise<number> {
  await trx('webhook_subscriptions').where({ id: subscriptionId }).increment('events_since_start', 1);
  const row = (await trx('webhook_subscriptions').where({ id: subscriptionId }).first('events_since_start')) as { events_since_start: number | string };
  return Number(row.events_since_start);
}

/**
 * The notification of one event to one FHIR Subscription, its body rendered; undefined when
 * the subscription does not want it (another facility, past its end, a filter not met).
 * The caller has checked that the owner may see the event's resident.
 */
export async function eventNotification(
  trx: Knex,
  subscription: { id: string } & FhirColumns,
  event: NotifiedEvent,
  eventRow: { id: string; created_at: string },
  filter: RecordFilter,
): Promise<{ body: string; eventNumber: number; deliveryId: string } | undefined> {
  const settings = settingsOf(subscription);
  if (subscription.facility_id !== null && subscription.facility_id !== event.facilityId) return undefined;
  if (settings.end !== null && event.occurredAt > settings.end) return undefined;
  const topic = topicByUrl(settings.topic);
  if (!topic || topic.eventType !== event.type) return undefined;
  for (const f of settings.filters) if (!(await passes(trx, f, event))) return undefined;
  const focus = topic.focus === 'DiagnosticReport' && event.diagnosticReportId ? `DiagnosticReport/${event.diagnosticReportId}` : `Patient/${event.residentId}`;
  const eventNumber = await nextEventNumber(trx, subscription.id);
  const notified: NotificationEvent = {
    eventNumber,
    timestamp: event.occurredAt,
    focus,
    resource: settings.content === 'full-resource' ? await focusResource(trx, focus, event, filter) : undefined,
  };
  const body = JSON.stringify(
    notificationBundle({
      base: settings.base,
      subscriptionId: subscription.id,
      topic: settings.topic,
      status: 'active',
      type: 'event-notification',
      eventsSinceStart: eventNumber,
      content: settings.content,
      events: [notified],
      timestamp: eventRow.created_at,
    }),
  );
  return { body, eventNumber, deliveryId: timeOrderedUuid() };
}

/** A handshake or a heartbeat of a FHIR Subscription, queued due now (the caller's transaction). */
export async function queueLifecycleNotification(
  trx: Knex,
  subscription: { id: string; org_id: string; events_since_start: number | string } & FhirColumns,
  type: Extract<NotificationType, 'handshake' | 'heartbeat'>,
  purpose: string,
): Promise<string> {
  const settings = settingsOf(subscription);
  const at = nowIso();
  const id = timeOrderedUuid();
  const body = JSON.stringify(
    notificationBundle({
      base: settings.base,
      subscriptionId: subscription.id,
      topic: settings.topic,
      status: type === 'handshake' ? 'requested' : 'active',
      type,
      eventsSinceStart: Number(subscription.events_since_start),
      content: settings.content,
      timestamp: at,
    }),
  );
  await trx('webhook_deliveries').insert({
    id,
    event_id: null,
    subscription_id: subscription.id,
    org_id: subscription.org_id,
    event_type: type,
    body,
    status: 'pending',
    purpose,
    attempts: 0,
    series_start: 0,
    due_at: at,
    created_at: at,
    notification_type: type,
  });
  return id;
}
