// The payer predicate of a payer-scoped credential (tenancy/record-visibility.ts):
// `lower(payor_name) in (...) or lower(payor_id) in (...)`. The OR defeats a plain index on
// either column, so a payer's coverage list counted its total by reading every Coverage row
// of the facility, and each resident's membership probe read that resident's Coverage rows.
// Indexes holding both expressions answer both from the index alone (covering): the count
// walks the facility's index entries, the probe a resident's.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('create index coverage_facility_payer on coverage (facility_id, lower(payor_name), lower(payor_id))');
  await db.raw('create index coverage_resident_payer on coverage (resident_id, lower(payor_name), lower(payor_id))');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists coverage_resident_payer');
  await db.raw('drop index if exists coverage_facility_payer');
}
