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
}

// A plain DROP COLUMN on both databases (SQLite 3.35+): knex's SQLite dropColumn copies the
// table, which would drop the triggers of migrations 027 and 030 on observations.
export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS observations_category');
  if (db.client.config.client === 'pg') {
    await db.raw(`ALTER TABLE observations ${OBSERVATION_LAB_COLUMNS.map((c) => `DROP COLUMN ${c}`).join(', ')}`);
  } else {
    for (const column of [...OBSERVATION_LAB_COLUMNS].reverse()) await db.raw(`ALTER TABLE observations DROP COLUMN ${column}`);
  }
}
