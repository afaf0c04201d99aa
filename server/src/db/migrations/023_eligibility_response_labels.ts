// eligibility_responses (020) and the security labels of every resource table (018) were
// written side by side: the 271's CoverageEligibilityResponse rows get the same two columns,
// so the one visibility predicate (tenancy/record-visibility.ts) reads them like any record
// and applyChangeSet writes them like any record's.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('eligibility_responses', (t) => {
    t.text('security_labels').nullable();
    t.integer('restricted').notNullable().defaultTo(0);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('eligibility_responses', (t) => {
    t.dropColumn('restricted');
    t.dropColumn('security_labels');
  });
}
