// The delivery claim probes each active subscription for its oldest due delivery, counts
// its deliveries in flight and takes its oldest due ones in order (due_at, then seq)
// (webhooks/delivery-claims.ts): all ranges of this index, read in order, so a claim costs
// the same with ten or a hundred thousand deliveries queued. It replaces the
// (subscription_id, status) index, its prefix.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.index(['subscription_id', 'status', 'due_at', 'seq'], 'webhook_deliveries_claim');
    t.dropIndex(['subscription_id', 'status']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.index(['subscription_id', 'status']);
    t.dropIndex(['subscription_id', 'status', 'due_at', 'seq'], 'webhook_deliveries_claim');
  });
}
