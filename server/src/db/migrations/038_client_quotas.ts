// Per-credential request quotas (issue 43, docs/quotas.md).
// clients.quota_rate / quota_burst: the credential's own limits (units a second, units at
// most), set by `ops client update`; null takes CLIENT_QUOTA_RATE / CLIENT_QUOTA_BURST.
// client_quota_usage (PostgreSQL instances only): what each instance admitted per client,
// a running total the other instances read about once a second to share one quota; written
// once per interval per active client, never per request. Times are the database's clock
// in epoch milliseconds.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('clients', (t) => {
    t.double('quota_rate').nullable();
    t.integer('quota_burst').nullable();
  });
  await db.schema.createTable('client_quota_usage', (t) => {
    t.uuid('instance_id').notNullable();
    t.uuid('client_pk').notNullable();
    t.bigInteger('consumed').notNullable();
    t.bigInteger('first_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['instance_id', 'client_pk']);
    t.index(['updated_at'], 'client_quota_usage_updated');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('client_quota_usage');
  await db.schema.alterTable('clients', (t) => {
    t.dropColumn('quota_rate');
    t.dropColumn('quota_burst');
  });
}
