// FHIR search over indexed columns (issue 27), never over JSON:
// - search_strings: the names a Patient is found by (family, each given), as held and
//   normalised (lower case, no accents: db/search-strings.ts), per organization. On
//   PostgreSQL `norm` and `value` use the "C" collation, so a prefix is a plain byte range the
//   B-tree answers (SQLite's default BINARY collation already is one).
// - identifiers are resource_identifiers (004); searching `system|` alone needs its system.
// - the columns searched or sorted without the resident's index: residents.birth_date,
//   observations' code and effective time.
// Existing residents are backfilled here, 1,000 at a time.
import type { Knex } from 'knex';
import { writeResidentSearchStrings } from '../search-strings.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('search_strings', (t) => {
    t.uuid('org_id').notNullable();
    t.string('resource_type', 32).notNullable();
    t.uuid('resource_id').notNullable();
    t.string('param', 32).notNullable();
    t.string('value', 200).notNullable();
    t.string('norm', 200).notNullable();
  });
  if (db.client.config.client === 'pg') {
    await db.raw('alter table search_strings alter column norm type varchar(200) collate "C", alter column value type varchar(200) collate "C"');
  }
  await db.schema.alterTable('search_strings', (t) => {
    t.index(['org_id', 'resource_type', 'param', 'norm'], 'search_strings_lookup');
    t.index(['resource_id']);
  });
  await db.schema.alterTable('resource_identifiers', (t) => {
    t.index(['org_id', 'resource_type', 'system'], 'resource_identifiers_system');
  });
  await db.schema.alterTable('residents', (t) => {
    t.index(['facility_id', 'birth_date'], 'residents_birth_date');
  });
  await db.schema.alterTable('observations', (t) => {
    t.index(['facility_id', 'code'], 'observations_code');
    t.index(['resident_id', 'effective_at'], 'observations_resident_effective');
  });
  let after = 0;
  for (;;) {
    const rows = (await db('residents').where('seq', '>', after).orderBy('seq').limit(1000).select('seq', 'id', 'org_id', 'family_name', 'given_names')) as Array<{
      seq: number;
      id: string;
      org_id: string;
      family_name: string;
      given_names: string;
    }>;
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1]!.seq);
    await writeResidentSearchStrings(db, rows, false);
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('observations', (t) => {
    t.dropIndex([], 'observations_resident_effective');
    t.dropIndex([], 'observations_code');
  });
  await db.schema.alterTable('residents', (t) => t.dropIndex([], 'residents_birth_date'));
  await db.schema.alterTable('resource_identifiers', (t) => t.dropIndex([], 'resource_identifiers_system'));
  await db.schema.dropTableIfExists('search_strings');
}
