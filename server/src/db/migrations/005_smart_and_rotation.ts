// SMART Backend Services and webhook secret rotation.
// - clients: a credential may carry public keys for private_key_jwt (RFC 7523), as a JWKS
//   document or as the URL of one. A credential with keys only has `secret_hash` = 'none'
//   (not a scrypt hash, so no secret ever matches it).
// - client_assertion_jtis: every accepted assertion's (client, jti) until it expires. The
//   primary key makes the insert fail for a second use, on every instance at once.
// - webhook_subscriptions: the secret replaced by a rotation, encrypted like the current
//   one (db/signing-secret-crypto.ts), kept until `previous_secret_expires_at` so deliveries
//   are signed with both during the overlap.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('clients', (t) => {
    t.text('jwks').nullable();
    t.string('jwks_url', 2048).nullable();
  });
  await db.schema.createTable('client_assertion_jtis', (t) => {
    t.string('client_id', 64).notNullable();
    t.string('jti', 255).notNullable();
    // Unix milliseconds after which the assertion is expired anyway, and the row may go.
    t.bigInteger('expires_at').notNullable();
    t.primary(['client_id', 'jti']);
    t.index(['expires_at']);
  });
  await db.schema.alterTable('webhook_subscriptions', (t) => {
    t.text('previous_signing_secret_encrypted').nullable();
    t.string('previous_secret_expires_at', 32).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_subscriptions', (t) => {
    t.dropColumn('previous_secret_expires_at');
    t.dropColumn('previous_signing_secret_encrypted');
  });
  await db.schema.dropTable('client_assertion_jtis');
  await db.schema.alterTable('clients', (t) => {
    t.dropColumn('jwks_url');
    t.dropColumn('jwks');
  });
}
