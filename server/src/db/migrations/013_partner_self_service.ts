// Partner self-service (issue 24): what a subscription's GET shows of its health, what the
// event log reads, and the indexes of the two new reads.
// - webhook_subscriptions.disabled_reason: why it was disabled (`endpoint_gone` after a
//   410, `failing` after WEBHOOK_DISABLE_AFTER_HOURS of failed attempts); null otherwise.
// - webhook_subscriptions.failing_since: when the first attempt of the current run of
//   failures began (null after a success); the disable sweep compares it with the window.
// - webhook_events.order_type: the one field of a delivery's `data` the event row lacked,
//   so the log answers exactly the `data` deliveries carried. Events recorded before this
//   migration have none (as deliveries of hand-made `ops event emit` events never had).
// - (org_id, seq) on events: the log reads one organization in commit order.
// - (subscription_id, seq) on deliveries: a subscription's deliveries, newest first.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_subscriptions', (t) => {
    t.string('disabled_reason', 32).nullable();
    t.string('failing_since', 32).nullable();
  });
  await db.schema.alterTable('webhook_events', (t) => {
    t.string('order_type', 32).nullable();
    t.index(['org_id', 'seq'], 'webhook_events_org_log');
  });
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.index(['subscription_id', 'seq'], 'webhook_deliveries_subscription_seq');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropIndex(['subscription_id', 'seq'], 'webhook_deliveries_subscription_seq');
  });
  await db.schema.alterTable('webhook_events', (t) => {
    t.dropIndex(['org_id', 'seq'], 'webhook_events_org_log');
    t.dropColumn('order_type');
  });
  await db.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropColumn('failing_since');
    t.dropColumn('disabled_reason');
  });
}
