// Core tables: tenants, credentials, tokens, the four FHIR resources and the audit trail.
// Runs unchanged on SQLite and PostgreSQL. Resources carry an integer `seq` (their
// insertion order) so lists have a stable order and keyset-friendly indexes, and a public
// UUID `id`. Timestamps are ISO 8601 UTC text so both databases sort and return them alike.
import type { Knex } from 'knex';
import { createResourceCounters, dropResourceCounters } from './resource-counters.js';

function resourceTable(t: Knex.CreateTableBuilder): void {
  t.increments('seq').primary();
  t.uuid('id').notNullable().unique();
  t.uuid('org_id').notNullable().references('id').inTable('organizations');
  t.uuid('facility_id').notNullable().references('id').inTable('facilities');
}

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organizations', (t) => {
    t.uuid('id').primary();
    t.string('name', 200).notNullable();
    t.string('created_at', 32).notNullable();
  });
  await db.schema.createTable('facilities', (t) => {
    t.uuid('id').primary();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.string('name', 200).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['org_id']);
  });
  await db.schema.createTable('clients', (t) => {
    t.uuid('id').primary();
    t.string('client_id', 64).notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.string('name', 200).notNullable();
    t.string('secret_hash', 255).notNullable();
    t.string('scopes', 500).notNullable();
    t.string('status', 16).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('revoked_at', 32).nullable();
    t.index(['org_id']);
  });
  await db.schema.createTable('client_facilities', (t) => {
    t.uuid('client_pk').notNullable().references('id').inTable('clients');
    t.uuid('facility_id').notNullable().references('id').inTable('facilities');
    t.primary(['client_pk', 'facility_id']);
  });
  await db.schema.createTable('access_tokens', (t) => {
    // SHA-256 of the token: the token itself is never stored.
    t.string('token_hash', 64).primary();
    t.uuid('client_pk').notNullable().references('id').inTable('clients');
    t.string('scopes', 500).notNullable();
    t.text('facility_ids').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['expires_at']);
  });
  await db.schema.createTable('residents', (t) => {
    resourceTable(t);
    t.text('identifiers').notNullable();
    t.string('family_name', 200).notNullable();
    t.text('given_names').notNullable();
    t.string('gender', 16).notNullable();
    t.string('birth_date', 10).notNullable();
    t.boolean('active').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['facility_id', 'seq']);
  });
  await db.schema.createTable('coverage', (t) => {
    resourceTable(t);
    t.uuid('resident_id').notNullable().references('id').inTable('residents');
    t.string('status', 32).notNullable();
    t.string('payor_name', 200).notNullable();
    t.string('subscriber_id', 64).notNullable();
    t.string('period_start', 10).notNullable();
    t.integer('coverage_order').notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['facility_id', 'seq']);
    t.index(['facility_id', 'resident_id', 'seq']);
  });
  await db.schema.createTable('observations', (t) => {
    resourceTable(t);
    t.uuid('resident_id').notNullable().references('id').inTable('residents');
    t.string('status', 32).notNullable();
    t.string('code_system', 200).notNullable();
    t.string('code', 64).notNullable();
    t.string('display', 200).notNullable();
    t.string('effective_at', 32).notNullable();
    t.string('value_string', 200).notNullable();
    t.text('value_quantity').nullable();
    t.text('components').nullable();
    t.index(['facility_id', 'seq']);
    t.index(['facility_id', 'resident_id', 'seq']);
  });
  await db.schema.createTable('allergies', (t) => {
    resourceTable(t);
    t.uuid('resident_id').notNullable().references('id').inTable('residents');
    t.string('code_system', 200).notNullable();
    t.string('code', 64).notNullable();
    t.string('display', 200).notNullable();
    t.string('clinical_status', 16).notNullable();
    t.index(['facility_id', 'seq']);
    t.index(['facility_id', 'resident_id', 'seq']);
  });
  await db.schema.createTable('audit_events', (t) => {
    t.increments('seq').primary();
    t.string('at', 32).notNullable();
    t.string('request_id', 64).notNullable();
    t.string('client_id', 64).nullable();
    t.uuid('org_id').nullable();
    t.uuid('facility_id').nullable();
    t.string('operation', 64).notNullable();
    t.integer('status').notNullable();
    // JSON array of the resource ids returned (never their contents), or null.
    t.text('resource_ids').nullable();
    t.integer('result_count').notNullable();
    t.index(['org_id', 'seq']);
    t.index(['client_id', 'seq']);
  });
  await createResourceCounters(db);
}

export async function down(db: Knex): Promise<void> {
  await dropResourceCounters(db);
  for (const table of ['audit_events', 'allergies', 'observations', 'coverage', 'residents', 'access_tokens', 'client_facilities', 'clients', 'facilities', 'organizations']) {
    await db.schema.dropTableIfExists(table);
  }
}
