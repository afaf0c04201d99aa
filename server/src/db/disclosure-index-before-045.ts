// The accounting of disclosures' index tables as they were before migration 045 (PostgreSQL):
// an upgraded database keeps the rows indexed then under these names, which the report reads
// and retention empties and drops (migrations/045_disclosure_partitions.ts).
import type { Knex } from 'knex';

export const BEFORE_045 = { index: 'audit_disclosure_index_before_045', groups: 'audit_disclosure_groups_before_045' } as const;

/** Whether the rows indexed before migration 045 are still kept. */
export function hasIndexBefore045(db: Knex): Promise<boolean> {
  return db.schema.hasTable(BEFORE_045.index);
}
