// Webhook subscriptions: organization-scoped, created active, revoked through the API (for
// good), or disabled by a 410 answer, after WEBHOOK_DISABLE_AFTER_HOURS of failures
// (subscription-health.ts) or when their owning credential is revoked, and then enabled
// again by a credential of the organization, which becomes their owner. Revoking or disabling
// cancels every delivery still queued for the subscription, in the same transaction (they
// stay recoverable: partner-deliveries.ts).
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { components } from '@ofctx/sdk/contract';
import { nowIso } from '../db/clock.js';
import { isPostgres } from '../db/database.js';
import type { EventType } from '../db/event-types.js';
import { SIGNATURE_HEADER, standardWebhooksSecret } from './delivery-signer.js';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';
import { newSigningSecret } from './signing-secret.js';

export type WebhookSubscription = components['schemas']['WebhookSubscription'];
export type WebhookSubscriptionCreated = components['schemas']['WebhookSubscriptionCreated'];
export type SubscriptionStatus = components['schemas']['WebhookSubscriptionStatus'];
export type DisabledReason = NonNullable<components['schemas']['WebhookDisabledReason']>;

/** Active subscriptions an organization may have at once (the contract's limit). */
export const MAX_ACTIVE_SUBSCRIPTIONS = 50;

export interface SubscriptionRow {
  seq: number;
  id: string;
  org_id: string;
  client_pk: string;
  callback_url: string;
  event_types: string;
  description: string | null;
  signing_secret_encrypted: string;
  /** The secret a rotation replaced, kept for the overlap (secret-rotation.ts). */
  previous_signing_secret_encrypted?: string | null;
  previous_secret_expires_at?: string | null;
  status: SubscriptionStatus;
  created_at: string;
  revoked_at: string | null;
  disabled_reason?: DisabledReason | null;
  failing_since?: string | null;
}

export class SubscriptionLimitReached extends Error {}

/** The public view: never the secret, never the registering credential. */
export function toSubscription(row: SubscriptionRow): WebhookSubscription {
  return {
    id: row.id,
    callback_url: row.callback_url,
    event_types: JSON.parse(row.event_types) as EventType[],
    description: row.description ?? null,
    signature_header: SIGNATURE_HEADER,
    status: row.status,
    created_at: row.created_at,
    revoked_at: row.revoked_at ?? null,
    disabled_reason: row.status === 'disabled' ? (row.disabled_reason ?? null) : null,
    failing_since: row.failing_since ?? null,
  };
}

export async function createSubscription(
  db: Knex,
  cipher: SigningSecretCipher,
  input: { orgId: string; clientPk: string; callbackUrl: string; eventTypes: EventType[]; description?: string | undefined },
): Promise<WebhookSubscriptionCreated> {
  const id = randomUUID();
  const signingSecret = newSigningSecret();
  const row = {
    id,
    org_id: input.orgId,
    client_pk: input.clientPk,
    callback_url: input.callbackUrl,
    event_types: JSON.stringify(input.eventTypes),
    description: input.description ?? null,
    signing_secret_encrypted: cipher.encrypt(signingSecret, id),
    status: 'active' as const,
    created_at: nowIso(),
    revoked_at: null,
  };
  await db.transaction(async (trx) => {
    // Serializes registrations of one organization, so two at once cannot both pass the
    // limit. SQLite transactions are already serialized by its single writer.
    if (isPostgres(trx)) await trx('organizations').where({ id: input.orgId }).forUpdate().first('id');
    const counted = await trx('webhook_subscriptions').where({ org_id: input.orgId, status: 'active' }).count({ n: '*' }).first();
    if (Number(counted?.n ?? 0) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new SubscriptionLimitReached();
    await trx('webhook_subscriptions').insert(row);
  });
  const created = (await db('webhook_subscriptions').where({ id }).first()) as SubscriptionRow;
  return { ...toSubscription(created), signing_secret: signingSecret, standard_webhooks_secret: standardWebhooksSecret(signingSecret) };
}

export async function findSubscription(db: Knex, orgId: string, id: string): Promise<SubscriptionRow | undefined> {
  return db('webhook_subscriptions').where({ id, org_id: orgId }).first();
}

/** Cancels what is still queued for a subscription (pending, or claimed and in flight). */
export async function cancelQueuedDeliveries(trx: Knex.Transaction | Knex, subscriptionId: string, at: string, exceptDeliveryId?: string): Promise<number> {
  let query = trx('webhook_deliveries').where({ subscription_id: subscriptionId }).whereIn('status', ['pending', 'sending']);
  if (exceptDeliveryId) query = query.whereNot({ id: exceptDeliveryId });
  return query.update({ status: 'cancelled', due_at: null, claim_token: null, completed_at: at });
}

/** Ends an active subscription: `revoked` by its owner, `disabled` (with its reason) after a 410 answer or too long failing. */
export async function endSubscription(
  db: Knex | Knex.Transaction,
  subscriptionId: string,
  status: 'revoked' | 'disabled',
  options: { exceptDeliveryId?: string; reason?: DisabledReason; failingSince?: string } = {},
): Promise<boolean> {
  const at = nowIso();
  const run = async (trx: Knex.Transaction) => {
    let ending = trx('webhook_subscriptions').where({ id: subscriptionId, status: 'active' });
    // The failure sweep disables only if nothing cleared or restarted the run of failures meanwhile.
    if (options.failingSince !== undefined) ending = ending.andWhere({ failing_since: options.failingSince });
    const ended = await ending.update({ status, revoked_at: at, disabled_reason: status === 'disabled' ? (options.reason ?? null) : null });
    if (ended > 0) await cancelQueuedDeliveries(trx, subscriptionId, at, options.exceptDeliveryId);
    return ended > 0;
  };
  return db.isTransaction ? run(db as Knex.Transaction) : db.transaction(run);
}

/** Revokes; revoking an ended subscription changes nothing. Undefined when unknown in this org. */
export async function revokeSubscription(db: Knex, orgId: string, id: string): Promise<SubscriptionRow | undefined> {
  const found = await findSubscription(db, orgId, id);
  if (!found) return undefined;
  if (found.status === 'active') await endSubscription(db, id, 'revoked');
  return findSubscription(db, orgId, id);
}

/**
 * Disables every active subscription a credential owns (reason `credential_revoked`), in the
 * caller's transaction: the credential is being revoked, and what a subscription is sent
 * follows its owner's grants and policy, so nothing more would reach it; disabled, it says
 * so, and another credential of the organization that enables it takes it over. Returns how
 * many.
 */
export async function disableSubscriptionsOf(trx: Knex.Transaction, clientPk: string): Promise<number> {
  const owned: string[] = await trx('webhook_subscriptions').where({ client_pk: clientPk, status: 'active' }).pluck('id');
  let disabled = 0;
  for (const id of owned) if (await endSubscription(trx, id, 'disabled', { reason: 'credential_revoked' })) disabled++;
  return disabled;
}

/** Why enabling was refused. */
export class EnableRefused extends Error {
  constructor(readonly reason: 'revoked' | 'limit' | 'owner_revoked') {
    super(reason);
  }
}

/**
 * Turns a disabled subscription active again, with a clean failure record (a new window).
 * Active stays active; revoked is refused, and so is going over the organization's limit.
 * `owner`: the credential enabling it (its clients.id), which becomes its owner, so what it is
 * sent from then on follows that credential's grants and policy; without one (the operators'
 * console) the owner stays, and a subscription whose owner was revoked is refused, since
 * nothing would reach it. Undefined when unknown in this org.
 */
export async function enableSubscription(db: Knex, orgId: string, id: string, owner?: string): Promise<SubscriptionRow | undefined> {
  const found = await findSubscription(db, orgId, id);
  if (!found) return undefined;
  if (found.status === 'revoked') throw new EnableRefused('revoked');
  if (found.status === 'disabled') {
    await db.transaction(async (trx) => {
      // As registration: serialized per organization, so the limit holds.
      if (isPostgres(trx)) await trx('organizations').where({ id: orgId }).forUpdate().first('id');
      if (owner === undefined) {
        const current = await trx('clients').where({ id: found.client_pk }).first('status');
        if (current?.status !== 'active') throw new EnableRefused('owner_revoked');
      }
      const counted = await trx('webhook_subscriptions').where({ org_id: orgId, status: 'active' }).count({ n: '*' }).first();
      if (Number(counted?.n ?? 0) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new EnableRefused('limit');
      await trx('webhook_subscriptions')
        .where({ id, org_id: orgId, status: 'disabled' })
        .update({ status: 'active', revoked_at: null, disabled_reason: null, failing_since: null, ...(owner === undefined ? {} : { client_pk: owner }) });
    });
  }
  return findSubscription(db, orgId, id);
}
