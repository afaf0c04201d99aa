// The operators' console (issue 42, server/src/console/):
// - console_links: one-time sign-in links printed by `ops console link`. Only the SHA-256 of
//   the link's token is kept (the token is 32 random bytes: a plain hash is a safe key, as for
//   access tokens); used_at is set by the one statement that redeems it, so a second use, or
//   two at once, find it used.
// - console_sessions: a signed-in browser. The cookie holds the session id and a secret; only
//   the secret's SHA-256 is kept. A session ends at expires_at (absolute), after
//   CONSOLE_IDLE_MINUTES without a request (last_seen_at), or at sign-out (ended_at). flash is
//   the outcome of the last action, shown once by the page it redirects to (POST, then GET).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('console_links', (t) => {
    t.uuid('id').primary();
    t.string('token_hash', 64).notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    /** Who asked for the link (`--operator`, else the system user who ran the CLI). */
    t.string('operator', 128).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32).nullable();
  });
  await db.schema.createTable('console_sessions', (t) => {
    t.uuid('id').primary();
    t.string('secret_hash', 64).notNullable();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.uuid('link_id').notNullable();
    t.string('operator', 128).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('last_seen_at', 32).notNullable();
    t.string('ended_at', 32).nullable();
    t.text('flash').nullable();
    t.index(['expires_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('console_sessions');
  await db.schema.dropTableIfExists('console_links');
}
