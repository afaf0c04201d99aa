// Who may see which resident (issue 23): a credential's access policy, residents' consents
// and records' security labels.
// - clients.purpose (HL7 v3 PurposeOfUse, default HOPERAT), clients.payers (JSON array of
//   lower-cased payer values, null: every resident), clients.sensitive (0/1: may see records
//   carrying a restricted security label).
// - every resource table: security_labels (meta.security as sent, JSON, null when none) and
//   restricted (0/1: a label that needs --sensitive). Integers, not booleans, so the
//   visibility predicate reads the same on both databases.
// - consents: FHIR R4 Consent rows (ingested like the other types); the ones that deny a
//   purpose hide their resident from credentials of that purpose.
// - organizations.restricted_records / consent_denials: set (never cleared) once the
//   organization holds a restricted record or a denying consent. While both are 0 and a
//   credential is not payer-scoped, nothing can be hidden and lists keep their fast paths.
// - webhook_events.restricted: the event's record carries a restricted label.
// - coverage (resident_id): the payer-membership probe of the visibility predicate.
import type { Knex } from 'knex';

export const LABELLED_TABLES = ['residents', 'coverage', 'observations', 'allergies', 'conditions', 'medication_requests', 'service_requests'] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('clients', (t) => {
    t.string('purpose', 32).notNullable().defaultTo('HOPERAT');
    t.text('payers').nullable();
    t.integer('sensitive').notNullable().defaultTo(0);
  });
  for (const table of LABELLED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.text('security_labels').nullable();
      t.integer('restricted').notNullable().defaultTo(0);
    });
  }
  await db.schema.alterTable('coverage', (t) => {
    t.index(['resident_id'], 'coverage_resident');
  });
  await db.schema.createTable('consents', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.uuid('facility_id').notNullable().references('id').inTable('facilities');
    t.uuid('resident_id').notNullable().references('id').inTable('residents');
    t.string('status', 32).notNullable();
    t.string('scope_code', 64).notNullable();
    // deny | permit | null (a Consent without provision.type decides nothing)
    t.string('decision', 16).nullable();
    // ' CODE CODE ' (spaces around each, for an exact LIKE), or '*': every purpose but TREAT.
    t.string('purposes', 500).notNullable();
    t.string('period_start', 32).nullable();
    t.string('period_end', 32).nullable();
    t.text('security_labels').nullable();
    t.integer('restricted').notNullable().defaultTo(0);
    t.integer('version_id').notNullable();
    t.string('last_updated', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['resident_id']);
    t.index(['facility_id', 'last_updated', 'id']);
  });
  await db.schema.alterTable('organizations', (t) => {
    t.integer('restricted_records').notNullable().defaultTo(0);
    t.integer('consent_denials').notNullable().defaultTo(0);
  });
  await db.schema.alterTable('webhook_events', (t) => {
    t.integer('restricted').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_events', (t) => t.dropColumn('restricted'));
  await db.schema.alterTable('organizations', (t) => {
    t.dropColumn('consent_denials');
    t.dropColumn('restricted_records');
  });
  await db.schema.dropTableIfExists('consents');
  await db.schema.alterTable('coverage', (t) => t.dropIndex(['resident_id'], 'coverage_resident'));
  for (const table of LABELLED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('restricted');
      t.dropColumn('security_labels');
    });
  }
  await db.schema.alterTable('clients', (t) => {
    t.dropColumn('sensitive');
    t.dropColumn('payers');
    t.dropColumn('purpose');
  });
}
