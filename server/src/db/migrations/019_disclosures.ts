// The accounting of disclosures (HIPAA 164.528, `ops audit disclosures`): what the report
// reads, indexed by resident so one resident is found among millions of audit rows.
// - audit_disclosures: one row per (answered request, resident whose records it returned),
//   written with the request's audit_events row, before the request is answered: when, which credential and
//   its purpose, the operation, the resource type and the ids of that resident's records.
// - webhook_events (org_id, resident_id): the events about a resident, whose deliveries the
//   report lists beside the reads.
// - webhook_deliveries.purpose: the purpose of use of the subscription's credential when the
//   delivery was queued (a later policy change does not rewrite history); null before 019.
// - webhook_deliveries (event_id): an event's deliveries, for the report.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audit_disclosures', (t) => {
    t.increments('seq').primary();
    t.uuid('org_id').notNullable();
    t.uuid('resident_id').notNullable();
    t.string('at', 32).notNullable();
    t.string('request_id', 64).notNullable();
    t.string('client_id', 64).notNullable();
    t.string('purpose', 32).notNullable();
    t.string('operation', 64).notNullable();
    t.string('resource_type', 32).notNullable();
    t.text('resource_ids').notNullable();
    t.index(['org_id', 'resident_id', 'at'], 'audit_disclosures_resident');
    t.index(['at'], 'audit_disclosures_at');
  });
  await db.schema.alterTable('webhook_events', (t) => {
    t.index(['org_id', 'resident_id'], 'webhook_events_resident');
  });
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.string('purpose', 32).nullable();
    t.index(['event_id'], 'webhook_deliveries_event');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropIndex(['event_id'], 'webhook_deliveries_event');
    t.dropColumn('purpose');
  });
  await db.schema.alterTable('webhook_events', (t) => t.dropIndex(['org_id', 'resident_id'], 'webhook_events_resident'));
  await db.schema.dropTableIfExists('audit_disclosures');
}
