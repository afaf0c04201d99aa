// The subqueries a selective R4 search starts from (resources/r4/search/search-query.ts) read
// their index alone: `identifier=system|value` found its rows by (org, type, system), every
// identifier of that system (all of a facility's MRNs), then read each row; a name prefix
// read each search_strings row for its resource_id. With value and resource_id in the index,
// an identifier is one index probe and a name prefix one index range. A search that starts
// from another index (a birth date) probes each row's names instead: (resource_id, param,
// norm) answers that probe, and still every lookup by resource_id the plain index served.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('resource_identifiers', (t) => t.dropIndex([], 'resource_identifiers_system'));
  await db.schema.alterTable('resource_identifiers', (t) => t.index(['org_id', 'resource_type', 'system', 'value', 'resource_id'], 'resource_identifiers_system'));
  await db.schema.alterTable('search_strings', (t) => t.dropIndex([], 'search_strings_lookup'));
  await db.schema.alterTable('search_strings', (t) => t.index(['org_id', 'resource_type', 'param', 'norm', 'resource_id'], 'search_strings_lookup'));
  await db.schema.alterTable('search_strings', (t) => t.dropIndex(['resource_id']));
  await db.schema.alterTable('search_strings', (t) => t.index(['resource_id', 'param', 'norm'], 'search_strings_resource_names'));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('search_strings', (t) => t.dropIndex([], 'search_strings_resource_names'));
  await db.schema.alterTable('search_strings', (t) => t.index(['resource_id']));
  await db.schema.alterTable('search_strings', (t) => t.dropIndex([], 'search_strings_lookup'));
  await db.schema.alterTable('search_strings', (t) => t.index(['org_id', 'resource_type', 'param', 'norm'], 'search_strings_lookup'));
  await db.schema.alterTable('resource_identifiers', (t) => t.dropIndex([], 'resource_identifiers_system'));
  await db.schema.alterTable('resource_identifiers', (t) => t.index(['org_id', 'resource_type', 'system'], 'resource_identifiers_system'));
}
