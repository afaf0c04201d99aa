// eligibility_responses: the R4 CoverageEligibilityResponse of every applied (or rejected) X12
// 271 subscriber loop, for the Coverage it matched (ingest/mapping/coverage-eligibility-response.ts).
// Read by the R4 view (scope coverage.read) and by $export.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('eligibility_responses', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.uuid('facility_id').notNullable().references('id').inTable('facilities');
    t.uuid('resident_id').notNullable().references('id').inTable('residents');
    t.uuid('coverage_id').notNullable().references('id').inTable('coverage');
    t.string('created', 10).notNullable();
    t.string('outcome', 16).notNullable();
    t.string('disposition', 1000).nullable();
    t.boolean('inforce').nullable();
    t.text('insurer').notNullable();
    t.text('request').notNullable();
    t.text('items').nullable();
    t.text('errors').nullable();
    t.integer('version_id').notNullable();
    t.string('last_updated', 32).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['facility_id', 'last_updated', 'id']);
    t.index(['resident_id']);
    t.index(['coverage_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('eligibility_responses');
}
