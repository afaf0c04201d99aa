// Retention: the indexes its purges walk, so each small batch finds its oldest rows without
// scanning tables that grow with every request and every delivery.
import type { Knex } from 'knex';

const INDEXES: Array<[table: string, columns: string[], name: string]> = [
  ['audit_events', ['at'], 'audit_events_at_retention'],
  ['webhook_delivery_attempts', ['started_at'], 'webhook_delivery_attempts_started_at_retention'],
  ['webhook_deliveries', ['completed_at'], 'webhook_deliveries_completed_at_retention'],
  ['webhook_deliveries', ['event_id'], 'webhook_deliveries_event_id_retention'],
  ['webhook_events', ['created_at'], 'webhook_events_created_at_retention'],
];

export async function up(db: Knex): Promise<void> {
  for (const [table, columns, name] of INDEXES) await db.schema.alterTable(table, (t) => void t.index(columns, name));
}

export async function down(db: Knex): Promise<void> {
  for (const [table, columns, name] of INDEXES) await db.schema.alterTable(table, (t) => void t.dropIndex(columns, name));
}
