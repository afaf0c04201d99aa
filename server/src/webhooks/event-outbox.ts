// Events enter here (ops CLI, in-process callers). The event row and one delivery row per
// matching subscription are written in ONE transaction (transactional outbox): once the
// event is accepted, its deliveries exist and survive any crash. Each delivery's body is
// serialized here, once. On PostgreSQL the transaction also NOTIFYs, so the workers of
// every instance wake at commit.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { isUuid } from '../db/uuid.js';
import { isPostgres } from '../db/database.js';
import { isEventType, type EventType } from './event-types.js';
import { serializeDeliveryBody } from './event-envelope.js';
import { notifyDeliveriesQueued } from './delivery-wakeup.js';
import type { SubscriptionRow } from './subscriptions.js';

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
 * credential is still active and still granted the facility.
 */
async function matchingSubscriptions(trx: Knex.Transaction, orgId: string, facilityId: string, type: EventType): Promise<SubscriptionRow[]> {
  const rows = (await trx('webhook_subscriptions as s')
    .join('clients as c', 'c.id', 's.client_pk')
    .join('client_facilities as g', function () {
      this.on('g.client_pk', '=', 's.client_pk').andOn('g.facility_id', '=', trx.raw('?', [facilityId]));
    })
    .where({ 's.org_id': orgId, 's.status': 'active', 'c.status': 'active' })
    .orderBy('s.seq')
    .modify((q) => {
      // Ending a subscription waits for this transaction (and its cancel then sees these
      // deliveries), or this waits for the ending and no longer matches it.
      if (isPostgres(trx)) q.forShare('s');
    })
    .select('s.*')) as SubscriptionRow[];
  return rows.filter((row) => (JSON.parse(row.event_types) as string[]).includes(type));
}

export async function emitEvent(db: Knex, input: EventInput): Promise<EmittedEvent> {
  const event = validated(input);
  const facility = await db('facilities').where({ id: event.facilityId }).first('org_id');
  if (!(await db('organizations').where({ id: event.orgId }).first('id'))) throw new InvalidEvent(`no organization ${event.orgId}`);
  if (!facility || facility.org_id !== event.orgId) throw new InvalidEvent(`no facility ${event.facilityId} in organization ${event.orgId}`);
  const eventId = randomUUID();
  const createdAt = nowIso();
  const deliveries = await db.transaction(async (trx) => {
    await trx('webhook_events').insert({
      id: eventId,
      org_id: event.orgId,
      facility_id: event.facilityId,
      resident_id: event.residentId,
      event_type: event.type,
      occurred_at: event.occurredAt,
      created_at: createdAt,
    });
    const subscriptions = await matchingSubscriptions(trx, event.orgId, event.facilityId, event.type);
    if (subscriptions.length === 0) return 0;
    await trx('webhook_deliveries').insert(
      subscriptions.map((subscription) => {
        const deliveryId = randomUUID();
        return {
          id: deliveryId,
          event_id: eventId,
          subscription_id: subscription.id,
          org_id: event.orgId,
          event_type: event.type,
          body: serializeDeliveryBody({
            eventType: event.type,
            eventId,
            deliveryId,
            occurredAt: event.occurredAt,
            orgId: event.orgId,
            facilityId: event.facilityId,
            residentId: event.residentId,
          }),
          status: 'pending',
          attempts: 0,
          series_start: 0,
          due_at: createdAt,
          created_at: createdAt,
        };
      }),
    );
    await notifyDeliveriesQueued(trx);
    return subscriptions.length;
  });
  return { event_id: eventId, deliveries };
}
