// What a partner does with its own deliveries: read them with their attempts, send one
// again, recover all since a time (Svix's resend and recover, Stripe's list of undelivered
// events). Scope and organization are checked (tenancy/authorize.ts); the subscription is
// looked up in the path's organization, so another organization's ids are a 404; and of its
// deliveries, a caller sees and acts on those of events it may see (delivery-view.ts).
import { ApiError } from '../errors/api-error.js';
import { list, single } from '../http/envelope.js';
import type { OperationHandler } from '../app-context.js';
import { pageOf } from '../resources/pagination.js';
import { nowIso } from '../db/clock.js';
import { redeliver, RedeliveryRefused } from './delivery-store.js';
import { findSubscriptionDelivery, listSubscriptionDeliveries, recoverDeliveries, type PublicDeliveryStatus } from './partner-deliveries.js';
import { findSubscription, type SubscriptionRow } from './subscriptions.js';
import { deliveryViewOf } from './delivery-view.js';

async function subscriptionOf(request: Parameters<OperationHandler>[0]): Promise<SubscriptionRow> {
  const row = await findSubscription(request.app.db, request.params.org_id!, request.params.id!);
  if (!row) throw new ApiError('not_found', 'No such webhook subscription in this organization.');
  return row;
}

function mustBeActive(row: SubscriptionRow): void {
  if (row.status === 'active') return;
  const how = row.status === 'disabled' ? 'enable it first (POST .../enable)' : 'register a new one';
  throw new ApiError('subscription_not_active', `The subscription is ${row.status}; nothing is delivered to it: ${how}.`);
}

const listWebhookDeliveries: OperationHandler = async (request) => {
  const row = await subscriptionOf(request);
  const { page, pageSize } = pageOf(request.query);
  const status = request.query.status as PublicDeliveryStatus | undefined;
  const view = await deliveryViewOf(request.app.db, request.principal);
  const { deliveries, total } = await listSubscriptionDeliveries(request.app.db, row.id, view, { status, page, pageSize });
  return { body: list(deliveries, { page, page_size: pageSize, total }), audit: { resourceIds: [row.id, ...deliveries.map((d) => d.id)] } };
};

const redeliverWebhookDelivery: OperationHandler = async (request) => {
  const { app, params } = request;
  const row = await subscriptionOf(request);
  const view = await deliveryViewOf(app.db, request.principal);
  const before = await findSubscriptionDelivery(app.db, row.id, params.delivery_id!, view);
  if (!before) throw new ApiError('not_found', 'No such delivery of this subscription.');
  mustBeActive(row);
  if (before.status === 'pending') throw new ApiError('delivery_already_queued', 'The delivery is still queued; it will be attempted without being asked again.');
  try {
    await redeliver(app.db, before.id);
  } catch (error) {
    if (!(error instanceof RedeliveryRefused)) throw error;
    // Lost a race: queued meanwhile, or the subscription ended meanwhile.
    const now = await subscriptionOf(request);
    mustBeActive(now);
    throw new ApiError('delivery_already_queued', 'The delivery is still queued; it will be attempted without being asked again.');
  }
  app.webhooks.wake();
  app.logger.info({ subscription_id: row.id, delivery_id: before.id }, 'webhook delivery queued again by its subscription\'s owner');
  const after = (await findSubscriptionDelivery(app.db, row.id, before.id, view))!;
  return { status: 202, body: single(after), audit: { resourceIds: [row.id, after.id] } };
};

const recoverWebhookDeliveries: OperationHandler = async (request) => {
  const { app, body } = request;
  const row = await subscriptionOf(request);
  mustBeActive(row);
  const raw = (body as { since: string }).since;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) throw new ApiError('invalid_body', undefined, [{ field: 'body.since', issue: 'must be an RFC 3339 date-time' }]);
  const since = nowIso(at);
  const queued = await recoverDeliveries(app.db, row.id, since, await deliveryViewOf(app.db, request.principal));
  if (queued === 0) {
    // Nothing re-queued: either nothing to recover, or the subscription ended meanwhile.
    mustBeActive((await subscriptionOf(request)));
  }
  app.webhooks.wake();
  app.logger.info({ subscription_id: row.id, since, queued }, 'webhook deliveries recovered by their subscription\'s owner');
  return { status: 202, body: single({ queued, since }), audit: { resourceIds: [row.id] } };
};

export const deliveryOperations: Record<string, OperationHandler> = { listWebhookDeliveries, redeliverWebhookDelivery, recoverWebhookDeliveries };
