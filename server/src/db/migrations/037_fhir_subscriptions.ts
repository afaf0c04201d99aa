// FHIR Subscriptions (R5 Backport IG on R4, issue 45) ride the webhook tables: one
// subscription table, one outbox, one worker, one deliveries list.
// webhook_subscriptions:
// - kind: `webhook` (the ofctx API's own) or `fhir-rest-hook` (a backport Subscription).
// - facility_id: the facility whose R4 base the Subscription was created under (events of that
//   facility only); null for webhooks (every facility their credential is granted).
// - fhir_settings: the Subscription's settings as JSON (topic, filters, content, heartbeat
//   period, timeout, max count, reason, end); null for webhooks.
// - channel_headers_encrypted: Subscription.channel.header (may carry a receiver's credential),
//   encrypted like the signing secrets; null when none.
// - events_since_start: the subscription's event counter (eventsSinceSubscriptionStart), taken
//   in the transaction that queues each event's notification.
// webhook_deliveries:
// - notification_type: null for webhook deliveries; `handshake`, `heartbeat` or
//   `event-notification` for FHIR Subscriptions.
// - event_number: an event notification's number in its subscription ($events replays by it).
// - event_id becomes nullable: handshakes and heartbeats belong to no event.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_subscriptions', (t) => {
    t.string('kind', 16).notNullable().defaultTo('webhook');
    t.uuid('facility_id').nullable();
    t.text('fhir_settings').nullable();
    t.text('channel_headers_encrypted').nullable();
    t.integer('events_since_start').notNullable().defaultTo(0);
  });
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.string('notification_type', 24).nullable();
    t.integer('event_number').nullable();
  });
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.setNullable('event_id');
  });
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.index(['subscription_id', 'event_number'], 'webhook_deliveries_event_number');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropIndex(['subscription_id', 'event_number'], 'webhook_deliveries_event_number');
    t.dropColumn('notification_type');
    t.dropColumn('event_number');
  });
  await db.schema.alterTable('webhook_subscriptions', (t) => {
    for (const column of ['kind', 'facility_id', 'fhir_settings', 'channel_headers_encrypted', 'events_since_start']) t.dropColumn(column);
  });
}
