// The console's operations (the `Console` tag of the contract). Every action reuses the
// service's own operations on its records: redelivery, recovery and enabling are the webhook
// module's (server/src/webhooks), the accounting of disclosures the audit module's, the
// clients' list the auth module's; each is asked with the session's organization.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ApiError } from '../errors/api-error.js';
import type { PublicOperationHandler } from '../app-context.js';
import { nowIso } from '../db/clock.js';
import { findDelivery, attemptsOf, listDeliveries, redeliver, RedeliveryRefused, type DeliveryStatus } from '../webhooks/delivery-store.js';
import { recoverDeliveries } from '../webhooks/partner-deliveries.js';
import { EVERY_DELIVERY } from '../webhooks/delivery-view.js';
import { enableSubscription, EnableRefused, findSubscription, MAX_ACTIVE_SUBSCRIPTIONS } from '../webhooks/subscriptions.js';
import { listClients } from '../auth/clients.js';
import { listFacilities } from '../organizations/organizations.js';
import { disclosuresOfResident } from '../audit/disclosures.js';
import { consoleOperations, type ConsoleHandler } from './console-requests.js';
import { eligibilityFigures, feedFigures, runningExports, subscriptionFigures } from './console-overview.js';
import { CONSOLE_STYLESHEET } from './console-stylesheet.js';
import { consoleSignOut, signInOperations } from './console-sign-in.js';
import { consoleMessageHandlers } from './console-message-operations.js';
import { csrfTokenOf } from './console-csrf.js';
import { OverviewContent } from './views/overview-page.js';
import { DeliveriesContent, DeliveryContent } from './views/deliveries-page.js';
import { ClientsContent } from './views/clients-page.js';
import { DisclosuresContent } from './views/disclosures-page.js';

const require = createRequire(import.meta.url);
let pico: string | undefined;

/** How many deliveries the list shows, newest first (the CLI's `--limit` is for more). */
export const DELIVERIES_SHOWN = 200;

const consoleOverview: ConsoleHandler = async ({ app, session }) => {
  const [subscriptions, exports, eligibility, feedRows] = await Promise.all([
    subscriptionFigures(app.db, session.orgId),
    runningExports(app.db, session.orgId),
    eligibilityFigures(app.db, session.orgId),
    feedFigures(app.db, session.orgId),
  ]);
  const connections = app.mllpConnections?.();
  const openBySource = new Map((connections ?? []).map((c) => [c.source, c.open]));
  // An MLLP feed's open connections on this instance: its peer's, matched by address.
  const feeds = feedRows.map((f) => ({ ...f, openConnections: f.road === 'mllp' && f.peer !== null ? (openBySource.get(f.peer) ?? 0) : null }));
  const figures = { subscriptions, exports, eligibility, connections };
  return {
    page: { title: 'Overview', nav: 'overview', content: <OverviewContent figures={figures} feeds={feeds} /> },
    resourceIds: [...subscriptions.map((s) => s.id), ...exports.map((e) => e.id)],
  };
};

/** A query parameter a form sent empty (its "any") is no filter. */
function given(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const consoleDeliveries: ConsoleHandler = async ({ app, session, query }) => {
  const filter = { status: given(query.status) as DeliveryStatus | undefined, subscription: given(query.subscription) };
  const [subscriptions, deliveries] = await Promise.all([
    subscriptionFigures(app.db, session.orgId),
    listDeliveries(app.db, { orgId: session.orgId, status: filter.status, subscriptionId: filter.subscription, limit: DELIVERIES_SHOWN }),
  ]);
  const csrfToken = csrfOf(session);
  return {
    page: { title: 'Deliveries', nav: 'deliveries', content: <DeliveriesContent subscriptions={subscriptions} deliveries={deliveries} filter={filter} csrfToken={csrfToken} limit={DELIVERIES_SHOWN} /> },
    resourceIds: deliveries.map((d) => d.id),
  };
};

const consoleDelivery: ConsoleHandler = async ({ app, session, params }) => {
  const delivery = await findDelivery(app.db, params.delivery_id!, session.orgId);
  if (!delivery) throw new ApiError('not_found', 'No such delivery in this organization.');
  const [attempts, subscription] = await Promise.all([attemptsOf(app.db, delivery.id), findSubscription(app.db, session.orgId, delivery.subscription_id)]);
  return {
    page: { title: `Delivery of ${delivery.event_type}`, nav: 'deliveries', content: <DeliveryContent delivery={delivery} attempts={attempts} callbackUrl={subscription?.callback_url ?? delivery.subscription_id} csrfToken={csrfOf(session)} /> },
    resourceIds: [delivery.id],
  };
};

const consoleRedeliver: ConsoleHandler = async ({ app, session, params }) => {
  const delivery = await findDelivery(app.db, params.delivery_id!, session.orgId);
  if (!delivery) throw new ApiError('not_found', 'No such delivery in this organization.');
  const back = `/console/deliveries/${delivery.id}`;
  try {
    const queued = await redeliver(app.db, delivery.id);
    app.webhooks.wake();
    app.logger.info({ delivery_id: delivery.id, console_session: session.id }, 'webhook delivery queued again from the console');
    return { redirect: back, flash: `Delivery ${delivery.id} is queued again, due ${queued.next_attempt_at ?? 'now'}.`, resourceIds: [delivery.id] };
  } catch (error) {
    if (!(error instanceof RedeliveryRefused)) throw error;
    return { redirect: back, flash: `Not queued: ${error.message}.`, resourceIds: [delivery.id] };
  }
};

/** A `datetime-local` value (no zone: read as UTC, as the label says) or an RFC 3339 date-time. */
export function sinceOf(raw: unknown): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const at = local ? Date.parse(`${text}Z`) : /(Z|[+-]\d{2}:\d{2})$/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw new ApiError('invalid_body', 'Give the time to recover from as a date and time (UTC).', [{ field: 'body.since', issue: 'must be a date-time' }]);
  return nowIso(at);
}

const consoleRecoverDeliveries: ConsoleHandler = async ({ app, session, params, form }) => {
  const subscription = await findSubscription(app.db, session.orgId, params.subscription_id!);
  if (!subscription) throw new ApiError('not_found', 'No such webhook subscription in this organization.');
  const since = sinceOf(form.since);
  const back = `/console/deliveries?subscription=${subscription.id}`;
  if (subscription.status !== 'active') {
    return { redirect: back, flash: `Nothing recovered: the subscription is ${subscription.status}${subscription.status === 'disabled' ? '; enable it first' : ''}.`, resourceIds: [subscription.id] };
  }
  const queued = await recoverDeliveries(app.db, subscription.id, since, EVERY_DELIVERY);
  app.webhooks.wake();
  app.logger.info({ subscription_id: subscription.id, since, queued, console_session: session.id }, 'webhook deliveries recovered from the console');
  return { redirect: back, flash: `${queued} failed or cancelled deliveries since ${since} are queued again.`, resourceIds: [subscription.id] };
};

const consoleEnableSubscription: ConsoleHandler = async ({ app, session, params }) => {
  const back = `/console/deliveries?subscription=${params.subscription_id}`;
  try {
    const enabled = await enableSubscription(app.db, session.orgId, params.subscription_id!);
    if (!enabled) throw new ApiError('not_found', 'No such webhook subscription in this organization.');
    app.logger.info({ subscription_id: enabled.id, console_session: session.id }, 'webhook subscription enabled from the console');
    return { redirect: back, flash: `The subscription to ${enabled.callback_url} is active. Its backlog stays cancelled until you recover it.`, resourceIds: [enabled.id] };
  } catch (error) {
    if (!(error instanceof EnableRefused)) throw error;
    const why =
      error.reason === 'revoked'
        ? 'it was revoked by its owner, for good'
        : error.reason === 'owner_revoked'
          ? 'the credential that owns it was revoked, so nothing would reach it; a credential of the organization takes it over by enabling it (POST /api/v1/ofctx/{org_id}/webhooks/{id}/enable, or PUT status requested for a FHIR Subscription)'
          : `the organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions`;
    return { redirect: back, flash: `Not enabled: ${why}.`, resourceIds: [params.subscription_id!] };
  }
};

const consoleClients: ConsoleHandler = async ({ app, session }) => {
  const [clients, facilities] = await Promise.all([listClients(app.db, session.orgId), listFacilities(app.db, session.orgId)]);
  return {
    page: { title: 'Clients and their policies', nav: 'clients', content: <ClientsContent clients={clients} facilityNames={new Map(facilities.map((f) => [f.id, f.name]))} /> },
    resourceIds: clients.map((c) => c.client_id),
  };
};

const consoleDisclosures: ConsoleHandler = async ({ app, session, query }) => {
  const resident = given(query.resident);
  const from = given(query.from);
  const to = given(query.to);
  const disclosures =
    resident === undefined
      ? undefined
      : await disclosuresOfResident(app.db, {
          orgId: session.orgId,
          residentId: resident,
          from: from === undefined ? undefined : `${from}T00:00:00.000Z`,
          // The day given is included.
          to: to === undefined ? undefined : nowIso(Date.parse(`${to}T00:00:00Z`) + 86_400_000),
        });
  return {
    page: { title: 'Accounting of disclosures', nav: 'disclosures', content: <DisclosuresContent query={{ resident, from, to }} disclosures={disclosures} /> },
    resourceIds: resident === undefined ? [] : [resident],
  };
};

function csrfOf(session: Parameters<ConsoleHandler>[0]['session']): string {
  return csrfTokenOf(session);
}

const consoleAsset: PublicOperationHandler = async ({ params }) => {
  const headers = { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600' };
  if (params.name === 'console.css') return { body: CONSOLE_STYLESHEET, headers };
  pico ??= readFileSync(require.resolve('@picocss/pico/css/pico.min.css'), 'utf8');
  return { body: pico, headers };
};

export const consoleOperationHandlers: Record<string, PublicOperationHandler> = {
  ...consoleOperations({ consoleOverview, consoleDeliveries, consoleDelivery, consoleRedeliver, consoleRecoverDeliveries, consoleEnableSubscription, consoleClients, consoleDisclosures, consoleSignOut, ...consoleMessageHandlers }),
  ...signInOperations,
  consoleAsset,
};
