// service_requests: FHIR R4 ServiceRequests (lab tests, imaging, therapy, referrals) written by
// the system of record, kept, like medication_requests (004_ingestion), as far as their event
// (clinical.order.created) and the audit trail need; partners do not read them. The same
// columns as medication_requests: what was ordered, its status and intent, when.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('service_requests', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.uuid('facility_id').notNullable().references('id').inTable('facilities');
    t.uuid('resident_id').notNullable().references('id').inTable('residents');
    t.string('code_system', 200).notNullable();
    t.string('code', 64).notNullable();
    t.string('display', 200).notNullable();
    t.string('status', 32).notNullable();
    t.string('intent', 32).notNullable();
    t.string('authored_on', 32).nullable();
    t.integer('version_id').notNullable();
    t.string('last_updated', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['facility_id', 'last_updated', 'id']);
    t.index(['resident_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('service_requests');
}
