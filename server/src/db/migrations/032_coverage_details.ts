// What an X12 270 eligibility inquiry needs of a Coverage beside its payer and member id, as
// every feed sends it (FHIR Coverage, HL7 v2 IN1/IN2) and the R4 view serves it. All nullable:
// rows written before this migration, and sources that send none of it, hold null.
// - coverage_type: Coverage.type, the R4 CodeableConcept as JSON ({coding?: [{system?, code?,
//   display?}], text?}); from IN1-15 (plan type, HL7 table 0086).
// - classes: Coverage.class[] as JSON [{type, value, name?}], `type` a code of
//   http://terminology.hl7.org/CodeSystem/coverage-class (group, subgroup, plan, subplan,
//   class, subclass, sequence, rxbin, rxpcn, rxid, rxgroup); the group goes in a 270's REF*6P.
// - relationship: Coverage.relationship, a code of
//   http://terminology.hl7.org/CodeSystem/subscriber-relationship (self, spouse, child,
//   parent, common, other, injured). A resident who is not `self` is asked in loop 2000D.
// - subscriber_name, subscriber_birth_date, subscriber_gender: the subscriber when it is not
//   the beneficiary (2000C's name, birth date, gender): {family, given[]} as JSON, YYYY-MM-DD,
//   male|female|other|unknown. Null when the resident is the subscriber.
// The Coverage's own identifiers are not columns: they are resource_identifiers (004).
import type { Knex } from 'knex';

export const COVERAGE_DETAIL_COLUMNS = ['coverage_type', 'classes', 'relationship', 'subscriber_name', 'subscriber_birth_date', 'subscriber_gender'] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('coverage', (t) => {
    for (const column of COVERAGE_DETAIL_COLUMNS) t.text(column).nullable();
  });
}

// A plain DROP COLUMN on both databases (SQLite 3.35+): knex's SQLite dropColumn copies the
// table, which would drop the triggers of migrations 027 and 030 on coverage.
export async function down(db: Knex): Promise<void> {
  if (db.client.config.client === 'pg') {
    await db.raw(`ALTER TABLE coverage ${COVERAGE_DETAIL_COLUMNS.map((c) => `DROP COLUMN ${c}`).join(', ')}`);
  } else {
    for (const column of [...COVERAGE_DETAIL_COLUMNS].reverse()) await db.raw(`ALTER TABLE coverage DROP COLUMN ${column}`);
  }
}
