// The R4 shapes of topic-based notifications (R5 Backport IG STU 1.1, R4): the
// SubscriptionStatus as a Parameters resource (profile backport-subscription-status-r4), and
// the notification Bundle of type `history` whose first entry is that status. The same
// builder answers $status (a searchset of one status) and $events (a history Bundle of type
// query-event). Pure: the caller gives what was read.
import { randomUUID } from 'node:crypto';
import { BACKPORT, type FhirSubscriptionStatus, type PayloadContent } from './backport-subscription.js';

export const STATUS_PROFILE = `${BACKPORT}/backport-subscription-status-r4`;
export const NOTIFICATION_PROFILE = `${BACKPORT}/backport-subscription-notification-r4`;

export type NotificationType = 'handshake' | 'heartbeat' | 'event-notification' | 'query-status' | 'query-event';

export interface NotificationEvent {
  eventNumber: number;
  /** When the event occurred. */
  timestamp: string;
  /** `Patient/<id>` or `DiagnosticReport/<id>`: relative to the base. */
  focus: string;
  /** The focus as the subscription's owner may see it (full-resource only). */
  resource?: { resourceType: string; id: string } | undefined;
}

export interface StatusInput {
  /** The R4 base the Subscription lives under. */
  base: string;
  subscriptionId: string;
  topic: string;
  status: FhirSubscriptionStatus;
  type: NotificationType;
  eventsSinceStart: number;
  content: PayloadContent;
  events?: readonly NotificationEvent[];
  /** Why the subscription is in error, in words. */
  error?: string | null;
}

type Parameter = { name: string; [value: string]: unknown };

/** The SubscriptionStatus (R4: Parameters). */
export function subscriptionStatus(input: StatusInput) {
  const parameter: Parameter[] = [
    { name: 'subscription', valueReference: { reference: `${input.base}/Subscription/${input.subscriptionId}` } },
    // SHOULD NOT be present with empty payloads (the IG).
    ...(input.content === 'empty' ? [] : [{ name: 'topic', valueCanonical: input.topic }]),
    { name: 'status', valueCode: input.status },
    { name: 'type', valueCode: input.type },
    // Not incremented by handshakes and heartbeats; R4 has no integer64, so a string.
    { name: 'events-since-subscription-start', valueString: String(input.eventsSinceStart) },
  ];
  for (const event of input.events ?? []) {
    parameter.push({
      name: 'notification-event',
      part: [
        { name: 'event-number', valueString: String(event.eventNumber) },
        { name: 'timestamp', valueInstant: event.timestamp },
        ...(input.content === 'empty' ? [] : [{ name: 'focus', valueReference: { reference: `${input.base}/${event.focus}` } }]),
      ],
    });
  }
  if (input.error) parameter.push({ name: 'error', valueCodeableConcept: { text: input.error } });
  return { resourceType: 'Parameters' as const, id: randomUUID(), meta: { profile: [STATUS_PROFILE] }, parameter };
}

/**
 * A notification (handshake, heartbeat, event-notification) or the answer of $events
 * (query-event): a `history` Bundle, its first entry the status, then with full-resource the
 * focus of each event.
 */
export function notificationBundle(input: StatusInput & { timestamp: string }) {
  const status = subscriptionStatus(input);
  const entry: Array<Record<string, unknown>> = [
    {
      fullUrl: `urn:uuid:${status.id}`,
      resource: status,
      request: { method: 'GET', url: `${input.base}/Subscription/${input.subscriptionId}/$status` },
      response: { status: '200' },
    },
  ];
  if (input.content === 'full-resource') {
    const seen = new Set<string>();
    for (const event of input.events ?? []) {
      if (!event.resource || seen.has(event.focus)) continue;
      seen.add(event.focus);
      entry.push({ fullUrl: `${input.base}/${event.focus}`, resource: event.resource, request: { method: 'PUT', url: event.focus }, response: { status: '200' } });
    }
  }
  return { resourceType: 'Bundle' as const, id: randomUUID(), meta: { profile: [NOTIFICATION_PROFILE] }, type: 'history' as const, timestamp: input.timestamp, entry };
}

/** $status: a searchset Bundle of the subscription's status (type query-status). */
export function statusSearchset(input: Omit<StatusInput, 'type' | 'events'>) {
  const status = subscriptionStatus({ ...input, type: 'query-status' });
  return {
    resourceType: 'Bundle' as const,
    type: 'searchset' as const,
    total: 1,
    entry: [{ fullUrl: `urn:uuid:${status.id}`, resource: status, search: { mode: 'match' } }],
  };
}

/** The events a stored notification carries (for $events), read back from its Bundle. */
export function eventsOfNotification(body: string, base: string): NotificationEvent[] {
  const bundle = JSON.parse(body) as { entry?: Array<{ fullUrl?: string; resource?: { resourceType: string; id: string; parameter?: Parameter[] } }> };
  const [status, ...rest] = bundle.entry ?? [];
  const resources = new Map(rest.filter((e) => e.resource && e.fullUrl).map((e) => [e.fullUrl!.slice(base.length + 1), e.resource!]));
  const events: NotificationEvent[] = [];
  for (const p of status?.resource?.parameter ?? []) {
    if (p.name !== 'notification-event') continue;
    const parts = p.part as Parameter[];
    const part = (name: string) => parts.find((x) => x.name === name);
    const reference = (part('focus')?.valueReference as { reference?: string } | undefined)?.reference;
    const focus = reference ? reference.slice(base.length + 1) : '';
    events.push({ eventNumber: Number(part('event-number')?.valueString), timestamp: String(part('timestamp')?.valueInstant), focus, resource: resources.get(focus) });
  }
  return events;
}
