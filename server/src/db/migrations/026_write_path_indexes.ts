// Two indexes every ingested message pays for, made right:
// - Ingestion matches incoming identifiers by value (apply-change-set.ts: `org_id = ? and
//   value in (...)`, reading type, system and resource id). Once migration 025 made
//   resource_identifiers_system cover those columns, SQLite (which has no statistics) chose it
//   over the (org_id, value) index because it needs no row lookup, and walked every identifier
//   of the organization: one HL7 message's match cost 150 µs at 5,000 residents and grew with
//   the organization. With the same columns the value index both seeks and covers.
// - webhook_deliveries (event_id) existed twice (006's retention index, 019's for the
//   disclosures report): every delivery wrote both. One serves both.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('resource_identifiers', (t) => t.dropIndex([], 'resource_identifiers_lookup'));
  await db.schema.alterTable('resource_identifiers', (t) => t.index(['org_id', 'value', 'resource_type', 'system', 'resource_id'], 'resource_identifiers_lookup'));
  await db.schema.alterTable('webhook_deliveries', (t) => t.dropIndex([], 'webhook_deliveries_event'));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => t.index(['event_id'], 'webhook_deliveries_event'));
  await db.schema.alterTable('resource_identifiers', (t) => t.dropIndex([], 'resource_identifiers_lookup'));
  await db.schema.alterTable('resource_identifiers', (t) => t.index(['org_id', 'value'], 'resource_identifiers_lookup'));
}
