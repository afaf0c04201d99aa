// SMART granular scopes (issue 45): what a token sees of the types its granular scopes
// restrict, as JSON (auth/granular-scopes.ts GranularRestrictions); null: nothing restricted,
// as for every token issued before.
// - access_tokens.restrictions: the token's, read with it at each request.
// - bulk_export_jobs.restrictions: the kick-off token's, applied to every page of the job (the
//   credential's policy is read again at each run; the token's restriction is kept with the job).
// access_tokens.scopes keeps its 500 characters: it holds the API scopes granted (at most
// about 100 characters), never the scope text a client asked.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('access_tokens', (t) => t.text('restrictions').nullable());
  await db.schema.alterTable('bulk_export_jobs', (t) => t.text('restrictions').nullable());
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('bulk_export_jobs', (t) => t.dropColumn('restrictions'));
  await db.schema.alterTable('access_tokens', (t) => t.dropColumn('restrictions'));
}
