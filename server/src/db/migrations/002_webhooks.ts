// Webhook tables: subscriptions, the event outbox, one delivery per (event, subscription)
// and every attempt of every delivery. Runs unchanged on SQLite and PostgreSQL; timestamps
// are ISO 8601 UTC text like the core tables, so `due_at <= now` compares as text.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_subscriptions', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    // The registering credential: events fan out only to the facilities it is granted.
    t.uuid('client_pk').notNullable().references('id').inTable('clients');
    t.string('callback_url', 2048).notNullable();
    // JSON array of event types.
    t.text('event_types').notNullable();
    t.string('description', 500).nullable();
    // AES-256-GCM, `v1:iv:tag:ciphertext` (db/signing-secret-crypto.ts); never the secret in clear.
    t.text('signing_secret_encrypted').notNullable();
    t.string('status', 16).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('revoked_at', 32).nullable();
    t.index(['org_id', 'status']);
  });
  await db.schema.createTable('webhook_events', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('org_id').notNullable().references('id').inTable('organizations');
    t.uuid('facility_id').notNullable().references('id').inTable('facilities');
    t.uuid('resident_id').notNullable();
    t.string('event_type', 64).notNullable();
    t.string('occurred_at', 32).notNullable();
    t.string('created_at', 32).notNullable();
  });
  await db.schema.createTable('webhook_deliveries', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.uuid('event_id').notNullable().references('id').inTable('webhook_events');
    t.uuid('subscription_id').notNullable().references('id').inTable('webhook_subscriptions');
    t.uuid('org_id').notNullable();
    t.string('event_type', 64).notNullable();
    // The exact body, serialized once at enqueue; every attempt signs and sends these bytes.
    t.text('body').notNullable();
    // pending | sending | delivered | failed | cancelled
    t.string('status', 16).notNullable();
    // Attempts made so far, and how many of them came before the current retry series
    // (a redelivery starts a fresh schedule but keeps counting X-Service-Attempt).
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('series_start').notNullable().defaultTo(0);
    // pending: when the next attempt is due. sending: when the claim's lease ends and the
    // delivery becomes claimable again (its worker died). Null once final.
    t.string('due_at', 32).nullable();
    // Set by each claim; only the holder of the current claim may record its outcome.
    t.string('claim_token', 64).nullable();
    t.string('last_attempt_at', 32).nullable();
    t.integer('last_status').nullable();
    t.string('last_error', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('completed_at', 32).nullable();
    t.index(['status', 'due_at']);
    t.index(['subscription_id', 'status']);
    t.index(['org_id', 'seq']);
  });
  await db.schema.createTable('webhook_delivery_attempts', (t) => {
    t.increments('seq').primary();
    t.uuid('delivery_id').notNullable().references('id').inTable('webhook_deliveries');
    t.integer('attempt').notNullable();
    t.string('started_at', 32).notNullable();
    t.integer('duration_ms').nullable();
    t.integer('response_status').nullable();
    // null on success; timeout, connection_refused, dns, redirect, http_status, ssrf_blocked...
    t.string('error_class', 32).nullable();
    t.string('worker_id', 100).nullable();
    t.unique(['delivery_id', 'attempt']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'webhook_events', 'webhook_subscriptions']) {
    await db.schema.dropTableIfExists(table);
  }
}
