// PostgreSQL plans with the statistics autovacuum gathers, a minute or so after a bulk load at
// the soonest. Until then a freshly filled table looks nearly empty: PostgreSQL planned the
// coverage list's first page as a bitmap scan of every Coverage of the facility and a sort
// (2.4 ms against 0.3 ms for the 50-row index scan it takes with statistics, 2026-11-26), and
// the service's named statements keep such a plan until statistics arrive. So a bulk load
// from the ops CLI (import, seed) ends by analyzing what ingestion fills; the service's cached
// plans are planned again from them. SQLite is left as it is: its plans here are fixed by the
// indexes (migrations 024-027) and were chosen without statistics; an ANALYZE could move them.
import type { Knex } from 'knex';
import { isPostgres } from '../db/database.js';
import { MAPPINGS } from './mapping/index.js';

/** What ingestion writes: each type's table, the identifiers, names and counters, the write log, the events. */
export const BULK_LOADED_TABLES: readonly string[] = [
  ...new Set([
    ...Object.values(MAPPINGS).map((mapping) => mapping.table),
    'resource_identifiers',
    'ingest_writes',
    'facility_resource_counts',
    'coverage_payer_counts',
    'webhook_events',
    'webhook_deliveries',
  ]),
];

/** Analyzes the tables a bulk load filled (PostgreSQL; ANALYZE blocks neither reads nor writes). Answers whether it did. */
export async function analyzeAfterBulkLoad(db: Knex): Promise<boolean> {
  if (!isPostgres(db)) return false;
  const present = (await db('pg_tables').where({ schemaname: db.raw('current_schema()') }).whereIn('tablename', BULK_LOADED_TABLES).pluck('tablename')) as string[];
  if (present.length > 0) await db.raw(`analyze ${present.map((table) => `"${table}"`).join(', ')}`);
  return present.length > 0;
}
