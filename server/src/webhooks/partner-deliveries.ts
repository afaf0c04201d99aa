// A subscription's deliveries as its owner sees them through the API (the operator's view
// is delivery-store.ts), and recovery. What is shown of an attempt is when, the status
// code, how long and a short error class: never an answer's body, a header or a secret.
// A recovery re-queues deliveries like a redelivery (delivery-store.ts): the same row, so
// the same body bytes and delivery id, due now with a fresh retry schedule.
import type { Knex } from 'knex';
import type { components } from '@ofctx/sdk/contract';
import { nowIso } from '../db/clock.js';
import { notifyDeliveriesQueued } from './delivery-wakeup.js';
import type { EventType } from '../db/event-types.js';
import { restrictToDeliveryView, showsEveryDelivery, type DeliveryView } from './delivery-view.js';

export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type PublicDeliveryStatus = components['schemas']['WebhookDeliveryStatus'];
type AttemptError = components['schemas']['WebhookAttemptError'];

const PUBLIC_ERRORS: ReadonlySet<string> = new Set([
  'timeout', 'connection_refused', 'connection_reset', 'dns', 'tls', 'network', 'ssrf_refused', 'redirect', 'http_status', 'interrupted', 'internal',
]);

/** The worker's error classes (delivery-sender.ts) in the contract's words. */
export function publicAttemptError(errorClass: string | null): AttemptError {
  if (errorClass === null) return null;
  if (errorClass === 'ssrf_blocked' || errorClass === 'invalid_url') return 'ssrf_refused';
  if (errorClass === 'aborted') return 'interrupted';
  return (PUBLIC_ERRORS.has(errorClass) ? errorClass : 'network') as AttemptError;
}

/** `sending` (an attempt under way) is still `pending` to the partner. */
function storedStatuses(status: PublicDeliveryStatus): string[] {
  return status === 'pending' ? ['pending', 'sending'] : [status];
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: EventType;
  facility_id: string;
  status: string;
  due_at: string | null;
  created_at: string;
  completed_at: string | null;
}

const COLUMNS = ['d.id', 'd.event_id', 'd.event_type', 'e.facility_id', 'd.status', 'd.due_at', 'd.created_at', 'd.completed_at'];

/**
 * How long before its delivery's creation an attempt may be recorded as started: none is
 * (a delivery is claimed after it is queued), but instances' clocks may disagree a little.
 */
const CLOCK_SKEW_ALLOWANCE_MS = 86_400_000;

async function withAttempts(db: Knex, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const attempts = new Map<string, WebhookDelivery['attempts']>(rows.map((r) => [r.id, []]));
  if (rows.length > 0) {
    // Named in the query, the time reads only the weeks of attempts since the oldest delivery
    // on the page (PostgreSQL's time partitions), not every week kept.
    const since = nowIso(Math.min(...rows.map((r) => Date.parse(r.created_at))) - CLOCK_SKEW_ALLOWANCE_MS);
    const found = (await db('webhook_delivery_attempts')
      .whereIn('delivery_id', rows.map((r) => r.id))
      .andWhere('started_at', '>=', since)
      .orderBy(['delivery_id', 'attempt'])
      .select('delivery_id', 'started_at', 'duration_ms', 'response_status', 'error_class')) as Array<Record<string, unknown>>;
    for (const a of found) {
      attempts.get(a.delivery_id as string)!.push({
        at: a.started_at as string,
        status_code: a.response_status === null ? null : Number(a.response_status),
        duration_ms: a.duration_ms === null ? null : Number(a.duration_ms),
        error: publicAttemptError((a.error_class as string | null) ?? null),
      });
    }
  }
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    facility_id: row.facility_id,
    status: (row.status === 'sending' ? 'pending' : row.status) as PublicDeliveryStatus,
    created_at: row.created_at,
    delivered_at: row.status === 'delivered' ? row.completed_at : null,
    next_attempt_at: row.status === 'pending' ? row.due_at : null,
    attempts: attempts.get(row.id)!,
  }));
}

/** The subscription's deliveries of events that `view` shows. */
function deliveriesOf(db: Knex, subscriptionId: string, view: DeliveryView) {
  return restrictToDeliveryView(db('webhook_deliveries as d').join('webhook_events as e', 'e.id', 'd.event_id').where('d.subscription_id', subscriptionId), view, 'e');
}

/**
 * Only the deliveries `view` shows: where it may hide one, each delivery's event is looked up
 * (by key) and checked; where it hides none, the events are not read.
 */
function onlyShown(db: Knex, query: Knex.QueryBuilder, view: DeliveryView, deliveries: string): Knex.QueryBuilder {
  if (showsEveryDelivery(view)) return query;
  return query.whereExists(restrictToDeliveryView(db('webhook_events as e').whereRaw(`e.id = ${deliveries}.event_id`).select(db.raw('1')), view, 'e'));
}

/** A page of the subscription's deliveries that `view` shows, newest first. */
export async function listSubscriptionDeliveries(
  db: Knex,
  subscriptionId: string,
  view: DeliveryView,
  options: { status?: PublicDeliveryStatus | undefined; page: number; pageSize: number },
): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
  const filtered = (q: Knex.QueryBuilder) => (options.status ? q.whereIn('d.status', storedStatuses(options.status)) : q);
  const [rows, counted] = await Promise.all([
    filtered(deliveriesOf(db, subscriptionId, view)).orderBy('d.seq', 'desc').offset((options.page - 1) * options.pageSize).limit(options.pageSize).select(COLUMNS) as Promise<DeliveryRow[]>,
    // Events' deliveries only, as listed (a FHIR Subscription's handshakes and heartbeats belong to no event).
    onlyShown(db, filtered(db('webhook_deliveries as d').where('d.subscription_id', subscriptionId).whereNotNull('d.event_id')), view, 'd').count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
  ]);
  return { deliveries: await withAttempts(db, rows), total: Number(counted?.n ?? 0) };
}

/** One of the subscription's deliveries, if `view` shows it. */
export async function findSubscriptionDelivery(db: Knex, subscriptionId: string, deliveryId: string, view: DeliveryView): Promise<WebhookDelivery | undefined> {
  const row = (await deliveriesOf(db, subscriptionId, view).andWhere('d.id', deliveryId).first(COLUMNS)) as DeliveryRow | undefined;
  return row ? (await withAttempts(db, [row]))[0] : undefined;
}

/**
 * Re-queues every failed or cancelled delivery of the subscription created at or after
 * `since` that `view` shows, in one statement; the caller has checked the subscription is
 * active (and it is re-checked in the statement). Returns how many.
 */
export async function recoverDeliveries(db: Knex, subscriptionId: string, since: string, view: DeliveryView): Promise<number> {
  return db.transaction(async (trx) => {
    const active = trx('webhook_subscriptions').where({ id: subscriptionId, status: 'active' }).select('id');
    const recoverable = trx('webhook_deliveries')
      .where({ subscription_id: subscriptionId })
      .whereIn('subscription_id', active)
      .whereIn('status', ['failed', 'cancelled'])
      .whereNotNull('event_id')
      .andWhere('created_at', '>=', since);
    const queued = await onlyShown(trx, recoverable, view, 'webhook_deliveries').update({ status: 'pending', due_at: nowIso(), series_start: trx.ref('attempts'), claim_token: null, completed_at: null });
    if (queued > 0) await notifyDeliveriesQueued(trx);
    return queued;
  });
}
