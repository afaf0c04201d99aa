// bulk_export_jobs: FHIR Bulk Data `$export` jobs (server/src/bulk/). A job is a durable row:
// what was asked (types, _since, the request URL), whose it is (client), where it is (progress:
// the type, the R4 view's page cursor and the bytes written so far, so a job a killed instance
// held is resumed by another without a line lost or repeated), its lease (the instance running
// it and until when), and what it produced (outputs, the manifest's output[] and error[]).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('bulk_export_jobs', (t) => {
    t.uuid('id').primary();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.uuid('facility_id').notNullable().references('id').inTable('facilities');
    t.string('client_id', 64).notNullable();
    /** queued, running, completed, failed */
    t.string('status', 16).notNullable();
    t.text('request_url').notNullable();
    t.text('types').notNullable();
    t.string('since', 32).nullable();
    t.string('transaction_time', 32).notNullable();
    t.text('ignored').nullable();
    t.text('progress').notNullable();
    t.text('outputs').notNullable();
    t.text('failure').nullable();
    t.string('lease_owner', 64).nullable();
    t.string('lease_until', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('completed_at', 32).nullable();
    t.string('expires_at', 32).notNullable();
    t.index(['status', 'lease_until']);
    t.index(['client_id', 'status']);
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('bulk_export_jobs');
}
