// What the whole record of a v2 feed (and the FHIR elements it maps to) needs beside the
// columns 001 and 004 kept:
// - coverage.period_end and coverage.payor_id: Coverage.period.end (IN1-13) and the payer's
//   identifier (IN1-3; Coverage.payor[0].identifier), which a 271 and payer-scoped partners
//   match on.
// - allergies.category, .criticality, .reactions: AllergyIntolerance.category (AL1-2),
//   .criticality (AL1-4) and reaction[] (AL1-5, with AL1-4's severity), as R4 codes / JSON.
// - observations.value_concept: Observation.valueCodeableConcept (OBX-2 CWE/CE), JSON; and
//   value_string becomes text on PostgreSQL (SQLite does not bound it): a narrative result
//   (OBX-2 TX/FT) runs to thousands of characters and is kept whole.
// - residents.links: Patient.link after a merge (ADT^A40): [{other, type}], JSON; written only
//   by a merge, never by a Patient update.
// - webhook_events.merged_resident_id: resident.merged's `data.merged_resident_id`.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('coverage', (t) => {
    t.string('period_end', 10).nullable();
    t.string('payor_id', 200).nullable();
  });
  await db.schema.alterTable('allergies', (t) => {
    t.string('category', 16).nullable();
    t.string('criticality', 16).nullable();
    t.text('reactions').nullable();
  });
  await db.schema.alterTable('observations', (t) => {
    t.text('value_concept').nullable();
  });
  if (db.client.config.client === 'pg') await db.raw('alter table observations alter column value_string type text');
  await db.schema.alterTable('residents', (t) => {
    t.text('links').nullable();
  });
  await db.schema.alterTable('webhook_events', (t) => {
    t.uuid('merged_resident_id').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_events', (t) => t.dropColumn('merged_resident_id'));
  await db.schema.alterTable('residents', (t) => t.dropColumn('links'));
  await db.schema.alterTable('observations', (t) => t.dropColumn('value_concept'));
  await db.schema.alterTable('allergies', (t) => {
    t.dropColumn('reactions');
    t.dropColumn('criticality');
    t.dropColumn('category');
  });
  await db.schema.alterTable('coverage', (t) => {
    t.dropColumn('payor_id');
    t.dropColumn('period_end');
  });
}
