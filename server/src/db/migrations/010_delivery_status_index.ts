// Every status change of a delivery (claimed, delivered, retried) rewrote its entries in two
// indexes that both begin with its status: (status, due_at) from 002 and the claim index
// (subscription_id, status, due_at, seq) from 009. The queries that used the first (the
// earliest due time, the queue gauges) now go through the claim index, one range per
// subscription (webhooks/delivery-claims.ts nextDueAt, metrics/service-metrics.ts), so the
// first is dropped: one index fewer to write at each step of every delivery.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropIndex(['status', 'due_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.index(['status', 'due_at']);
  });
}
