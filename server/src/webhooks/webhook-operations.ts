// The webhook-management operations of the contract (deliveries: delivery-operations.ts). Scope (webhooks.manage) and the
// path's organization are already checked (tenancy/authorize.ts); every query is also
// filtered by the organization, so another organization's subscription is a 404.
import { randomUUID } from 'node:crypto';
import type { components } from '@ofctx/sdk/contract';
import { ApiError } from '../errors/api-error.js';
import { list, single } from '../http/envelope.js';
import type { OperationHandler } from '../app-context.js';
import { fetchPage } from '../resources/pagination.js';
import { nowIso } from '../db/clock.js';
import { EVENT_TYPES, isEventType, type EventType } from '../db/event-types.js';
import { serializeDeliveryBody } from './event-envelope.js';
import { SIGNATURE_HEADER, signDelivery } from './delivery-signer.js';
import { checkCallbackUrl, vetCallbackTarget } from './ssrf-guard.js';
import { encryptedSecretsOf, rotateSigningSecret, signingSecretsAt } from './secret-rotation.js';
import {
  createSubscription,
  EnableRefused,
  enableSubscription,
  findSubscription,
  MAX_ACTIVE_SUBSCRIPTIONS,
  revokeSubscription,
  SubscriptionLimitReached,
  toSubscription,
  type SubscriptionRow,
} from './subscriptions.js';
import type { Webhooks } from './webhooks.js';
import { FHIR_KIND } from './fhir/fhir-notifications.js';

type WebhookRegistration = components['schemas']['WebhookRegistration'];
type WebhookTestDelivery = components['schemas']['WebhookTestDelivery'];

/** Registration does not wait longer than this for DNS. */
const REGISTRATION_DNS_TIMEOUT_MS = 5000;

function callbackRefused(reason: string, field: string): ApiError {
  return new ApiError('callback_url_not_allowed', `The callback URL ${reason}.`, [{ field, issue: reason }]);
}

/**
 * https only, no credentials, and every address of the host public. With
 * WEBHOOK_ALLOW_PRIVATE_TARGETS (development) http and private hosts are accepted and
 * nothing is resolved. Deliveries check again at every attempt.
 */
export async function vetRegistration(webhooks: Webhooks, callbackUrl: string, field = 'body.callback_url'): Promise<void> {
  const { allowPrivateTargets } = webhooks.config.webhooks;
  if (allowPrivateTargets) {
    const checked = checkCallbackUrl(callbackUrl, true);
    if (!('ok' in checked)) throw callbackRefused(checked.reason, field);
    return;
  }
  const resolve = (host: string) =>
    Promise.race([
      webhooks.resolveHost(host),
      new Promise<never>((_, reject) => setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), REGISTRATION_DNS_TIMEOUT_MS).unref()),
    ]);
  const verdict = await vetCallbackTarget(callbackUrl, { allowPrivateTargets, resolve });
  if (!verdict.allowed) throw callbackRefused(verdict.reason, field);
}

function checkEventTypes(eventTypes: unknown): EventType[] {
  // The contract's schema already rejects these; kept so the handler never trusts its input.
  if (!Array.isArray(eventTypes) || eventTypes.length === 0) {
    throw new ApiError('invalid_body', undefined, [{ field: 'body.event_types', issue: 'must name at least one event type' }]);
  }
  const unknown = eventTypes.filter((t) => !isEventType(t));
  if (unknown.length > 0) throw new ApiError('invalid_body', undefined, [{ field: 'body.event_types', issue: `unknown event types: ${unknown.join(', ')}` }]);
  if (new Set(eventTypes).size !== eventTypes.length) throw new ApiError('invalid_body', undefined, [{ field: 'body.event_types', issue: 'must not repeat an event type' }]);
  return eventTypes as EventType[];
}

/** A FHIR Subscription is managed on the R4 view (fhir/fhir-subscription-operations.ts); here only its deliveries. */
function foundOrNotFound(row: SubscriptionRow | undefined): SubscriptionRow {
  if (!row || (row as { kind?: string }).kind === FHIR_KIND) throw new ApiError('not_found', 'No such webhook subscription in this organization.');
  return row;
}

const registerWebhook: OperationHandler = async ({ app, principal, params, body }) => {
  const input = body as WebhookRegistration;
  const eventTypes = checkEventTypes(input.event_types);
  await vetRegistration(app.webhooks, input.callback_url);
  try {
    const created = await createSubscription(app.db, app.webhooks.cipher, {
      orgId: params.org_id!,
      clientPk: principal.clientPk,
      callbackUrl: input.callback_url,
      eventTypes,
      description: input.description,
    });
    app.logger.info({ subscription_id: created.id, host: new URL(created.callback_url).host, event_types: created.event_types }, 'webhook subscription registered');
    return {
      status: 201,
      body: single(created),
      headers: { Location: `/api/v1/ofctx/${params.org_id}/webhooks` },
      audit: { resourceIds: [created.id] },
    };
  } catch (error) {
    if (error instanceof SubscriptionLimitReached) {
      throw new ApiError('subscription_limit_reached', `The organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions; revoke one before registering another.`);
    }
    throw error;
  }
};

const listWebhooks: OperationHandler = async ({ app, params, query }) => {
  const { rows, page } = await fetchPage<SubscriptionRow>(app.db, 'webhook_subscriptions', { org_id: params.org_id!, kind: 'webhook' }, query);
  return { body: list(rows.map(toSubscription), page), audit: { resourceIds: rows.map((r) => r.id) } };
};

const listWebhookEventTypes: OperationHandler = async () => {
  return { body: list([...EVENT_TYPES], { page: 1, page_size: EVENT_TYPES.length, total: EVENT_TYPES.length }) };
};

const getWebhook: OperationHandler = async ({ app, params }) => {
  const row = foundOrNotFound(await findSubscription(app.db, params.org_id!, params.id!));
  return { body: single(toSubscription(row)), audit: { resourceIds: [row.id] } };
};

/**
 * A disabled subscription active again, with a new failure window, owned from then on by the
 * credential enabling it; its backlog is recovered apart (recover).
 */
const enableWebhook: OperationHandler = async ({ app, params, principal }) => {
  try {
    const row = foundOrNotFound(await enableSubscription(app.db, params.org_id!, params.id!, principal.clientPk));
    app.logger.info({ subscription_id: row.id, status: row.status }, 'webhook subscription enabled');
    return { body: single(toSubscription(row)), audit: { resourceIds: [row.id] } };
  } catch (error) {
    if (!(error instanceof EnableRefused)) throw error;
    if (error.reason === 'revoked') throw new ApiError('subscription_not_active', 'The subscription was revoked, for good; register a new one.');
    throw new ApiError('subscription_limit_reached', `The organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions; revoke one before enabling another.`);
  }
};

const revokeWebhook: OperationHandler = async ({ app, params }) => {
  const row = foundOrNotFound(await revokeSubscription(app.db, params.org_id!, params.id!));
  app.logger.info({ subscription_id: row.id, status: row.status }, 'webhook subscription revoked');
  return { body: single(toSubscription(row)), audit: { resourceIds: [row.id] } };
};

/**
 * Builds the delivery a real event would produce, with sample ids, through the same
 * serializer and signer as real deliveries. Sends nothing, stores nothing.
 */
const testWebhook: OperationHandler = async ({ app, principal, params, body }) => {
  const row = foundOrNotFound(await findSubscription(app.db, params.org_id!, params.id!));
  if (row.status !== 'active') {
    throw new ApiError('subscription_not_active', `The subscription is ${row.status}; nothing is delivered to it. Register a new one.`);
  }
  const eventType = (body as { event_type: unknown }).event_type;
  if (!isEventType(eventType)) throw new ApiError('invalid_body', undefined, [{ field: 'body.event_type', issue: 'is not a known event type' }]);
  const at = Date.now();
  const deliveryId = randomUUID();
  const bodyText = serializeDeliveryBody({
    eventType,
    eventId: randomUUID(),
    deliveryId,
    occurredAt: nowIso(at),
    orgId: row.org_id,
    facilityId: [...principal.facilityIds].sort()[0] ?? randomUUID(),
    residentId: randomUUID(),
    // A real order event names its kind; the sample is a medication order.
    ...(eventType === 'clinical.order.created' ? { orderType: 'MedicationRequest' as const } : {}),
  });
  const secrets = signingSecretsAt(app.webhooks.cipher, encryptedSecretsOf(row), at);
  const signed = signDelivery({ body: bodyText, secrets, deliveryId, eventType, attempt: 1, at });
  const delivery: WebhookTestDelivery = { body: bodyText, signature: signed.signature, signature_header: SIGNATURE_HEADER, headers: signed.headers };
  return { body: single(delivery), audit: { resourceIds: [row.id] } };
};

/**
 * A new signing secret, shown once. The replaced one keeps signing (beside it) for the
 * configured overlap; see delivery-signer.ts for what each header carries meanwhile.
 */
const rotateWebhookSecret: OperationHandler = async ({ app, params }) => {
  // Two rotations at once: the loser re-reads and rotates again, so both answers were in force.
  for (let tries = 0; tries < 5; tries++) {
    const row = foundOrNotFound(await findSubscription(app.db, params.org_id!, params.id!));
    if (row.status !== 'active') {
      throw new ApiError('subscription_not_active', `The subscription is ${row.status}; nothing is delivered to it. Register a new one.`);
    }
    const rotation = await rotateSigningSecret(app.db, app.webhooks.cipher, row, app.webhooks.config.webhooks.secretOverlapSeconds);
    if (rotation) {
      app.logger.info({ subscription_id: row.id, previous_secret_expires_at: rotation.previous_secret_expires_at }, 'webhook signing secret rotated');
      return { body: single(rotation), audit: { resourceIds: [row.id] } };
    }
  }
  throw new ApiError('internal_error', 'The secret was rotated by several requests at once; retry.');
};

export const webhookOperations: Record<string, OperationHandler> = {
  registerWebhook,
  listWebhooks,
  listWebhookEventTypes,
  getWebhook,
  enableWebhook,
  revokeWebhook,
  testWebhook,
  rotateWebhookSecret,
};
