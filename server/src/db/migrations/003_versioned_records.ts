// Versioned records: every Patient, Coverage, Observation and AllergyIntolerance row carries
// `version_id` (1, 2, ... one step per real change) and `last_updated` (ISO 8601 UTC with
// milliseconds, the instant of its last change). Partners see them as FHIR
// `meta: { versionId, lastUpdated }`; incremental sync orders by (last_updated, id), which
// the new index serves per facility. Existing rows become version 1 as of their creation.
import type { Knex } from 'knex';
import { nowIso } from '../clock.js';

export const VERSIONED_TABLES = ['residents', 'coverage', 'observations', 'allergies'] as const;

/** The column that best tells when an existing row was written, for the backfill. */
const CREATED_COLUMN: Record<(typeof VERSIONED_TABLES)[number], string | null> = {
  residents: 'created_at',
  coverage: 'created_at',
  observations: 'effective_at',
  allergies: null,
};

export async function up(db: Knex): Promise<void> {
  const now = nowIso();
  for (const table of VERSIONED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.integer('version_id').notNullable().defaultTo(1);
      t.string('last_updated', 32).notNullable().defaultTo('1970-01-01T00:00:00.000Z');
    });
    const created = CREATED_COLUMN[table];
    await db(table).update({ last_updated: created ? db.ref(created) : now });
    await db.schema.alterTable(table, (t) => {
      t.index(['facility_id', 'last_updated', 'id'], `${table}_facility_last_updated`);
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of VERSIONED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex(['facility_id', 'last_updated', 'id'], `${table}_facility_last_updated`);
      t.dropColumn('last_updated');
      t.dropColumn('version_id');
    });
  }
}
