// Subscriptions whose owning credential was revoked become `disabled` (reason
// `credential_revoked`), as revoking a credential now does (auth/clients.ts revokeClient).
//
// WHY: what a subscription is sent follows its owner's facility grants and access policy, and
// the outbox matches only subscriptions of an active credential (webhooks/event-outbox.ts). A
// subscription whose owner had been revoked therefore still said `active` and was sent
// nothing, silently: a partner that rotated its credential (a new one issued, the old one
// revoked) lost its webhooks without a sign. Disabled, it says why, and a credential of the
// organization that enables it takes it over. What was still queued for it is cancelled, as
// when any subscription is disabled (recoverable once it is enabled).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  const orphaned = (await db('webhook_subscriptions as s')
    .join('clients as c', 'c.id', 's.client_pk')
    .where({ 's.status': 'active' })
    .whereNot({ 'c.status': 'active' })
    .select('s.id', 'c.revoked_at')) as Array<{ id: string; revoked_at: string | null }>;
  const at = new Date().toISOString();
  for (const { id, revoked_at } of orphaned) {
    await db('webhook_subscriptions').where({ id, status: 'active' }).update({ status: 'disabled', disabled_reason: 'credential_revoked', revoked_at: revoked_at ?? at });
    await db('webhook_deliveries').where({ subscription_id: id }).whereIn('status', ['pending', 'sending']).update({ status: 'cancelled', due_at: null, claim_token: null, completed_at: at });
  }
}

export async function down(db: Knex): Promise<void> {
  // The code before this migration knows no such reason: the subscriptions go back to active
  // (and, as they were then, are sent nothing while their owner is revoked).
  await db('webhook_subscriptions').where({ status: 'disabled', disabled_reason: 'credential_revoked' }).update({ status: 'active', disabled_reason: null, revoked_at: null });
}
