// SQLite: the identifier index by system holds (organization, type, system, record id), without
// the value (migration 025 had added the value and the record id). An HL7 result's identifier is a
// digest of the result's key (ingest/business-identifiers.ts), so each result landed at a
// random place of an index ordered by value within its system: an ORU^R01's ten results
// dirtied about 25 pages of that index a message, a fifth of what its commit writes (a map of
// the write-ahead log's frames by B-tree, 2026-11-28). Ordered by record id within the system,
// a system's new entries go after its last ones: records other than residents have
// time-ordered ids (ingest/change-chunk.ts).
// Every search that names a value is served by the lookup index (organization, value, type,
// system, record id; migration 026), which seeks all four columns and covers the record id:
// SQLite, which has no statistics, prefers the index with more equal columns
// (search-query.test.ts holds the plan). This index is left with the one search that names no
// value, `identifier=system|` (every record with an identifier of that system), and still
// covers it: without the record id SQLite preferred scanning the organization's whole range of
// the covering lookup index.
// PostgreSQL keeps the five columns: without statistics (a new or growing table), it chose the
// narrower index for a search by system and value and filtered the values, reading every
// identifier of the system, which is what migration 025 ended.
import type { Knex } from 'knex';
import { isPostgres } from '../database.js';

export async function up(db: Knex): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.alterTable('resource_identifiers', (t) => t.dropIndex([], 'resource_identifiers_system'));
  await db.schema.alterTable('resource_identifiers', (t) => t.index(['org_id', 'resource_type', 'system', 'resource_id'], 'resource_identifiers_system'));
}

export async function down(db: Knex): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.alterTable('resource_identifiers', (t) => t.dropIndex([], 'resource_identifiers_system'));
  await db.schema.alterTable('resource_identifiers', (t) => t.index(['org_id', 'resource_type', 'system', 'value', 'resource_id'], 'resource_identifiers_system'));
}
