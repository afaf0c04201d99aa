// FHIR Subscriptions as rows of webhook_subscriptions (kind `fhir-rest-hook`): created
// active in the webhook sense (the worker sends to it) with a handshake queued in the same
// transaction; the organization's limit counts webhooks and FHIR Subscriptions together.
// The IG's status is read from the row and its handshake (fhirStatusOf):
//   requested  the handshake is not delivered yet and no attempt of it has failed
//   active     the handshake was delivered and the last attempts succeeded
//   error      the handshake or the latest notifications are failing (retries go on)
//   off        set off by its owner, disabled by a 410 answer or after failing for the whole
//              WEBHOOK_DISABLE_AFTER_HOURS window (as webhooks are); `requested` again turns it on
// Deleting revokes it for good (its deliveries stay listed, as a revoked webhook's do).
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../../db/clock.js';
import { isPostgres } from '../../db/database.js';
import type { SigningSecretCipher } from '../../db/signing-secret-crypto.js';
import { newSigningSecret } from '../signing-secret.js';
import { cancelQueuedDeliveries, endSubscription, MAX_ACTIVE_SUBSCRIPTIONS, SubscriptionLimitReached, type SubscriptionRow } from '../subscriptions.js';
import { notifyDeliveriesQueued } from '../delivery-wakeup.js';
import type { FhirSubscriptionSettings, FhirSubscriptionStatus, SubscriptionRequest } from './backport-subscription.js';
import { encryptHeaders } from './fhir-channel.js';
import { FHIR_KIND, queueLifecycleNotification } from './fhir-notifications.js';

export interface FhirSubscriptionRow extends SubscriptionRow {
  kind: string;
  facility_id: string | null;
  fhir_settings: string;
  channel_headers_encrypted: string | null;
  events_since_start: number | string;
}

async function purposeOf(trx: Knex, clientPk: string): Promise<string> {
  return ((await trx('clients').where({ id: clientPk }).first('purpose')) as { purpose: string }).purpose;
}

async function activeCount(trx: Knex, orgId: string): Promise<number> {
  // Serializes the organization's registrations, so two at once cannot both pass the limit.
  if (isPostgres(trx)) await trx('organizations').where({ id: orgId }).forUpdate().first('id');
  const counted = await trx('webhook_subscriptions').where({ org_id: orgId, status: 'active' }).count({ n: '*' }).first();
  return Number(counted?.n ?? 0);
}

export async function findFhirSubscription(db: Knex, orgId: string, facilityId: string, id: string): Promise<FhirSubscriptionRow | undefined> {
  return db('webhook_subscriptions').where({ id, org_id: orgId, facility_id: facilityId, kind: FHIR_KIND }).whereNot({ status: 'revoked' }).first();
}

export async function createFhirSubscription(
  db: Knex,
  cipher: SigningSecretCipher,
  input: { orgId: string; facilityId: string; clientPk: string; base: string; request: SubscriptionRequest },
): Promise<FhirSubscriptionRow> {
  const id = randomUUID();
  const settings: FhirSubscriptionSettings = { base: input.base, ...input.request.settings };
  await db.transaction(async (trx) => {
    if ((await activeCount(trx, input.orgId)) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new SubscriptionLimitReached();
    const row = {
      id,
      org_id: input.orgId,
      client_pk: input.clientPk,
      callback_url: input.request.endpoint,
      event_types: JSON.stringify([input.request.topic.eventType]),
      description: input.request.settings.reason.slice(0, 500),
      // Never used to sign (FHIR notifications are not signed); the column holds a secret for every row.
      signing_secret_encrypted: cipher.encrypt(newSigningSecret(), id),
      status: 'active',
      created_at: nowIso(),
      revoked_at: null,
      kind: FHIR_KIND,
      facility_id: input.facilityId,
      fhir_settings: JSON.stringify(settings),
      channel_headers_encrypted: encryptHeaders(cipher, id, input.request.headers),
      events_since_start: 0,
    };
    await trx('webhook_subscriptions').insert(row);
    await queueLifecycleNotification(trx, { ...row, facility_id: input.facilityId }, 'handshake', await purposeOf(trx, input.clientPk));
    await notifyDeliveriesQueued(trx);
  });
  return (await db('webhook_subscriptions').where({ id }).first()) as FhirSubscriptionRow;
}

/** Why a status change was refused. */
export class StatusChangeRefused extends Error {}

/**
 * An update (PUT): the settings replaced as a whole (the event counter kept), and the status
 * asked: `off` disables it (what is queued is cancelled); `requested` turns an `off` one on
 * again within the limit, and sends a new handshake when it was off, in error, or its endpoint
 * changed. The credential updating it (`clientPk`) becomes its registering credential: what is
 * notified from then on follows that credential's facility grants and access policy, so a
 * credential of the organization that may see less cannot point another's Subscription at its
 * own endpoint and be sent what it may not see.
 */
export async function updateFhirSubscription(
  db: Knex,
  cipher: SigningSecretCipher,
  row: FhirSubscriptionRow,
  request: SubscriptionRequest,
  handshakeNeeded: boolean,
  clientPk: string,
): Promise<FhirSubscriptionRow> {
  const base = (JSON.parse(row.fhir_settings) as FhirSubscriptionSettings).base;
  const settings: FhirSubscriptionSettings = { base, ...request.settings };
  await db.transaction(async (trx) => {
    const changes = {
      client_pk: clientPk,
      callback_url: request.endpoint,
      event_types: JSON.stringify([request.topic.eventType]),
      description: request.settings.reason.slice(0, 500),
      fhir_settings: JSON.stringify(settings),
      channel_headers_encrypted: encryptHeaders(cipher, row.id, request.headers),
    };
    if (request.status === 'off') {
      await trx('webhook_subscriptions').where({ id: row.id }).update(changes);
      if (row.status === 'active') await endSubscription(trx, row.id, 'disabled', { reason: 'turned_off' });
      return;
    }
    if (row.status === 'disabled' && (await activeCount(trx, row.org_id)) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new SubscriptionLimitReached();
    const turningOn = row.status === 'disabled';
    await trx('webhook_subscriptions')
      .where({ id: row.id })
      .update({ ...changes, ...(turningOn ? { status: 'active', revoked_at: null, disabled_reason: null, failing_since: null } : {}) });
    if (turningOn || handshakeNeeded) {
      // A new handshake replaces one still queued.
      await trx('webhook_deliveries').where({ subscription_id: row.id, notification_type: 'handshake' }).whereIn('status', ['pending', 'sending']).update({ status: 'cancelled', due_at: null, claim_token: null, completed_at: nowIso() });
      const fresh = (await trx('webhook_subscriptions').where({ id: row.id }).first()) as FhirSubscriptionRow;
      await queueLifecycleNotification(trx, fresh, 'handshake', await purposeOf(trx, clientPk));
      await notifyDeliveriesQueued(trx);
    }
  });
  return (await db('webhook_subscriptions').where({ id: row.id }).first()) as FhirSubscriptionRow;
}

/** Deletes: revoked for good, what is queued cancelled. */
export async function deleteFhirSubscription(db: Knex, row: FhirSubscriptionRow): Promise<void> {
  await db.transaction(async (trx) => {
    const at = nowIso();
    await trx('webhook_subscriptions').where({ id: row.id }).whereNot({ status: 'revoked' }).update({ status: 'revoked', revoked_at: at, disabled_reason: null });
    await cancelQueuedDeliveries(trx, row.id, at);
  });
}

/** The IG's status of a row, and why when error or off (see the top of this file). */
export async function fhirStatusOf(db: Knex, row: FhirSubscriptionRow): Promise<{ status: FhirSubscriptionStatus; error: string | null }> {
  if (row.status === 'revoked') return { status: 'off', error: null };
  if (row.status === 'disabled') {
    const why =
      row.disabled_reason === 'endpoint_gone'
        ? 'the endpoint answered 410 Gone'
        : row.disabled_reason === 'failing'
          ? 'every notification failed for the whole retry window'
          : row.disabled_reason === 'credential_revoked'
            ? 'the credential that owned it was revoked; a PUT with status requested by another credential of the organization takes it over'
            : null;
    return { status: 'off', error: why };
  }
  const handshake = (await db('webhook_deliveries').where({ subscription_id: row.id, notification_type: 'handshake' }).orderBy('seq', 'desc').first('status', 'attempts', 'last_status', 'last_error')) as
    | { status: string; attempts: number | string; last_status: number | null; last_error: string | null }
    | undefined;
  const failure = (h: { last_status: number | null; last_error: string | null }) => (h.last_status !== null ? `the endpoint answered ${h.last_status}` : `the endpoint could not be reached (${h.last_error ?? 'network'})`);
  if (handshake && handshake.status !== 'delivered') {
    // `attempts` counts the attempt under way while sending: a failure is one finished before it.
    const failedBefore = Number(handshake.attempts) > (handshake.status === 'sending' ? 1 : 0);
    if (failedBefore) return { status: 'error', error: `the handshake failed: ${failure(handshake)}; it is retried` };
    return { status: 'requested', error: null };
  }
  if (row.failing_since) {
    const last = (await db('webhook_deliveries').where({ subscription_id: row.id }).whereNotNull('last_error').orderBy('last_attempt_at', 'desc').first('last_status', 'last_error')) as
      | { last_status: number | null; last_error: string | null }
      | undefined;
    return { status: 'error', error: `notifications are failing since ${row.failing_since}${last ? `: ${failure(last)}` : ''}; they are retried` };
  }
  return { status: 'active', error: null };
}

/** The subscriptions of the facility a credential may manage, oldest first (search). */
export async function listFhirSubscriptions(db: Knex, orgId: string, facilityId: string, filter: { status?: string | undefined; url?: string | undefined }): Promise<FhirSubscriptionRow[]> {
  let query = db('webhook_subscriptions').where({ org_id: orgId, facility_id: facilityId, kind: FHIR_KIND }).whereNot({ status: 'revoked' });
  if (filter.url) query = query.andWhere({ callback_url: filter.url });
  const rows = (await query.orderBy('seq').limit(1000)) as FhirSubscriptionRow[];
  if (!filter.status) return rows;
  const wanted = new Set(filter.status.split(','));
  const statuses = await Promise.all(rows.map((row) => fhirStatusOf(db, row)));
  return rows.filter((_, i) => wanted.has(statuses[i]!.status));
}
