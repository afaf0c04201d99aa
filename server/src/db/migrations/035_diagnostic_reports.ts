// Lab results as labs send them (issue 41). All new columns are nullable: rows written before
// this migration, and results that carry none of it, hold null.
// observations:
// - category_system, category_code, category_display: the first category coding the source
//   gave (`laboratory` for an HL7 v2 OBX under an OBR); vital-signs stays derived from the code.
// - reference_range: Observation.referenceRange as JSON [{low?, high?, text?, type?}], low and
//   high Quantities in the result's unit (HL7 OBX-7).
// - interpretation: Observation.interpretation as JSON [CodeableConcept] (HL7 OBX-8, table 0078
//   as v3 ObservationInterpretation codes).
// - issued_at: Observation.issued, ISO 8601 UTC (HL7 OBX-19).
// - value_range, value_ratio: Observation.valueRange / valueRatio as JSON (HL7 SN `1-5`, `1:128`).
// value_quantity (011) may now hold a comparator, and a unit without a UCUM system or code.
// diagnostic_reports: FHIR R4 DiagnosticReports (US Core DiagnosticReport for Laboratory
// Results; HL7 v2 OBR with its OBX), read by the R4 view (scope clinical.read) and $export:
// status, category and code as (system, code, display) columns, effective and issued instants,
// conclusion and presented_form (the narrative report as text/plain); `results` and `based_on`
// the business identifiers ([{system, value}] as JSON) of its Observations and of the
// ServiceRequest it answers, resolved to references when read, so a result written in the same
// message, or an order ofctx learns of later, is found without a second write.
// webhook_events.diagnostic_report_id / diagnostic_report_status: clinical.result.created's data.
import type { Knex } from 'knex';

export const OBSERVATION_LAB_COLUMNS = ['category_system', 'category_code', 'category_display', 'reference_range', 'interpretation', 'issued_at', 'value_range', 'value_ratio'] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('observations', (t) => {
    t.string('category_system', 200).nullable();
    t.string('category_code', 64).nullable();
    t.string('category_display', 200).nullable();
    t.text('reference_range').nullable();
    t.text('interpretation').nullable();
    t.string('issued_at', 32).nullable();
    t.text('value_range').nullable();
    t.text('value_ratio').nullable();
    t.index(['facility_id', 'category_code'], 'observations_category');
  });
  await db.schema.createTable('diagnostic_reports', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.uuid('facility_id').notNullable().references('id').inTable('facilities');
    t.uuid('resident_id').notNullable().references('id').inTable('residents');
    t.string('status', 32).notNullable();
    t.string('category_system', 200).nullable();
    t.string('category_code', 64).nullable();
    t.string('category_display', 200).nullable();
    t.string('code_system', 200).notNullable();
    t.string('code', 64).notNullable();
    t.string('display', 200).notNullable();
    t.string('effective_at', 32).notNullable();
    t.string('issued_at', 32).nullable();
    t.text('results').nullable();
    t.text('based_on').nullable();
    t.text('conclusion').nullable();
    t.text('presented_form').nullable();
    t.text('security_labels').nullable();
    t.integer('restricted').notNullable().defaultTo(0);
    t.integer('version_id').notNullable();
    t.string('last_updated', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['facility_id', 'last_updated', 'id']);
    t.index(['resident_id', 'effective_at'], 'diagnostic_reports_resident_effective');
    t.index(['facility_id', 'code'], 'diagnostic_reports_code');
    t.index(['facility_id', 'category_code'], 'diagnostic_reports_category');
  });
  await db.schema.alterTable('webhook_events', (t) => {
    t.uuid('diagnostic_report_id').nullable();
    t.string('diagnostic_report_status', 32).nullable();
  });
}

// A plain DROP COLUMN on both databases (SQLite 3.35+): knex's SQLite dropColumn copies the
// table, which would drop the triggers of migrations 027 and 030 on observations.
export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE webhook_events DROP COLUMN diagnostic_report_status');
  await db.raw('ALTER TABLE webhook_events DROP COLUMN diagnostic_report_id');
  await db.schema.dropTableIfExists('diagnostic_reports');
  await db.raw('DROP INDEX IF EXISTS observations_category');
  if (db.client.config.client === 'pg') {
    await db.raw(`ALTER TABLE observations ${OBSERVATION_LAB_COLUMNS.map((c) => `DROP COLUMN ${c}`).join(', ')}`);
  } else {
    for (const column of [...OBSERVATION_LAB_COLUMNS].reverse()) await db.raw(`ALTER TABLE observations DROP COLUMN ${column}`);
  }
}
