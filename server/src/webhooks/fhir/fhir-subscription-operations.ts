// The FHIR Subscription operations of the R4 view (R5 Backport IG, R4): create, read, search,
// update (its status among the rest), delete, $status and $events on each Subscription, and
// the topics as R4 Basic resources. Scope webhooks.manage (SMART: system/Subscription.cruds);
// a Subscription belongs to the facility whose base it was created under, and to the
// organization, whose limit it counts in. Errors are OperationOutcomes (the contract's
// x-ofctx-error-format).
import { ApiError } from '../../errors/api-error.js';
import type { OperationHandler, OperationRequest } from '../../app-context.js';
import { fhirBase, FHIR_JSON_UTF8 } from '../../resources/r4/r4-operations.js';
import { SubscriptionLimitReached, MAX_ACTIVE_SUBSCRIPTIONS } from '../subscriptions.js';
import { vetRegistration } from '../webhook-operations.js';
import { readSubscription, toR4Subscription, type FhirSubscriptionSettings } from './backport-subscription.js';
import { decryptHeaders, headerNames } from './fhir-channel.js';
import {
  createFhirSubscription,
  deleteFhirSubscription,
  findFhirSubscription,
  fhirStatusOf,
  listFhirSubscriptions,
  updateFhirSubscription,
  type FhirSubscriptionRow,
} from './fhir-subscription-store.js';
import { eventsOfNotification, notificationBundle, statusSearchset } from './notification-bundle.js';
import { SUBSCRIPTION_TOPICS, topicById } from './subscription-topics.js';
import { toR4TopicBasic } from './topic-basic.js';
import { eventDisclosures } from '../../audit/disclosures.js';
import { visibilityOf } from '../../tenancy/authorize.js';
import { isUuid } from '../../db/uuid.js';
import { restrictToVisibleResidents } from '../../tenancy/event-visibility.js';

const FHIR_HEADERS = { 'Content-Type': FHIR_JSON_UTF8 };

function limitReached(): ApiError {
  return new ApiError('subscription_limit_reached', `The organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions (webhooks and FHIR Subscriptions together); delete or turn one off before adding another.`);
}

async function subscriptionOf(request: OperationRequest): Promise<FhirSubscriptionRow> {
  const { app, params } = request;
  // Any FHIR id is a valid path; only a UUID can name one of ours (and reach a uuid column).
  const id = params.id!.toLowerCase();
  const row = isUuid(id) ? await findFhirSubscription(app.db, params.org_id!, params.facility_id!, id) : undefined;
  if (!row) throw new ApiError('not_found', `Subscription/${params.id} is not known in this facility.`);
  return row;
}

async function rendered(request: OperationRequest, row: FhirSubscriptionRow) {
  const { status, error } = await fhirStatusOf(request.app.db, row);
  const settings = JSON.parse(row.fhir_settings) as FhirSubscriptionSettings;
  return toR4Subscription({
    id: row.id,
    endpoint: row.callback_url,
    settings,
    status,
    error,
    headerNames: headerNames(request.app.webhooks.cipher, row.id, row.channel_headers_encrypted),
    lastUpdated: row.created_at,
  });
}

function maxTimeoutSeconds(request: OperationRequest): number {
  return Math.max(1, Math.floor(request.app.webhooks.config.webhooks.requestTimeoutMs / 1000));
}

const createFhirSubscriptionOperation: OperationHandler = async (request) => {
  const { app, params, principal, koa, body } = request;
  const asked = readSubscription(body, maxTimeoutSeconds(request));
  if (asked.status === 'off') throw new ApiError('invalid_body', 'Create a Subscription with status requested; off is for turning an existing one off (PUT).', [{ field: 'body.status', issue: 'must be requested' }]);
  await vetRegistration(app.webhooks, asked.endpoint, 'body.channel.endpoint');
  try {
    const row = await createFhirSubscription(app.db, app.webhooks.cipher, { orgId: params.org_id!, facilityId: params.facility_id!, clientPk: principal.clientPk, base: fhirBase(koa, params), request: asked });
    app.webhooks.wake();
    app.logger.info({ subscription_id: row.id, host: new URL(row.callback_url).host, topic: asked.topic.id }, 'FHIR subscription created; handshake queued');
    const base = fhirBase(koa, params);
    return { status: 201, body: await rendered(request, row), headers: { ...FHIR_HEADERS, Location: `${base}/Subscription/${row.id}` }, audit: { resourceIds: [row.id] } };
  } catch (error) {
    if (error instanceof SubscriptionLimitReached) throw limitReached();
    throw error;
  }
};

const readFhirSubscription: OperationHandler = async (request) => {
  const row = await subscriptionOf(request);
  return { body: await rendered(request, row), headers: FHIR_HEADERS, audit: { resourceIds: [row.id] } };
};

const searchFhirSubscription: OperationHandler = async (request) => {
  const { app, params, koa, query } = request;
  const rows = await listFhirSubscriptions(app.db, params.org_id!, params.facility_id!, { status: query.status as string | undefined, url: query.url as string | undefined });
  const base = fhirBase(koa, params);
  const entry = await Promise.all(rows.map(async (row) => ({ fullUrl: `${base}/Subscription/${row.id}`, resource: await rendered(request, row), search: { mode: 'match' } })));
  return { body: { resourceType: 'Bundle', type: 'searchset', total: rows.length, ...(entry.length > 0 ? { entry } : {}) }, headers: FHIR_HEADERS, audit: { resourceIds: rows.map((row) => row.id) } };
};

const updateFhirSubscriptionOperation: OperationHandler = async (request) => {
  const { app, body, params } = request;
  const row = await subscriptionOf(request);
  const asked = readSubscription(body, maxTimeoutSeconds(request));
  if ((body as { id?: unknown }).id !== undefined && String((body as { id?: unknown }).id).toLowerCase() !== row.id) {
    throw new ApiError('invalid_body', `The Subscription's id must be ${row.id}, the id in the path.`, [{ field: 'body.id', issue: `must be ${row.id}` }]);
  }
  // A header sent back as read (`Name: ***`) keeps its stored value.
  const stored = decryptHeaders(app.webhooks.cipher, row.id, row.channel_headers_encrypted);
  asked.headers = asked.headers.map((header) => {
    const [name, value] = [header.slice(0, header.indexOf(':')).trim(), header.slice(header.indexOf(':') + 1).trim()];
    if (value !== '***') return header;
    const kept = stored.find((h) => h.slice(0, h.indexOf(':')).trim().toLowerCase() === name.toLowerCase());
    if (!kept) throw new ApiError('invalid_body', `The header ${name} is masked (***) but the Subscription has no such header; send its value.`, [{ field: 'body.channel.header', issue: `${name}: *** names no stored header` }]);
    return kept;
  });
  if (asked.endpoint !== row.callback_url) await vetRegistration(app.webhooks, asked.endpoint, 'body.channel.endpoint');
  const { status } = await fhirStatusOf(app.db, row);
  try {
    const updated = await updateFhirSubscription(app.db, app.webhooks.cipher, row, asked, asked.endpoint !== row.callback_url || status === 'error', request.principal.clientPk);
    app.webhooks.wake();
    app.logger.info({ subscription_id: row.id, status: asked.status, org_id: params.org_id }, 'FHIR subscription updated');
    return { body: await rendered(request, updated), headers: FHIR_HEADERS, audit: { resourceIds: [row.id] } };
  } catch (error) {
    if (error instanceof SubscriptionLimitReached) throw limitReached();
    throw error;
  }
};

const deleteFhirSubscriptionOperation: OperationHandler = async (request) => {
  const row = await subscriptionOf(request);
  await deleteFhirSubscription(request.app.db, row);
  request.app.logger.info({ subscription_id: row.id }, 'FHIR subscription deleted');
  return {
    body: { resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational', diagnostics: `Subscription/${row.id} deleted: nothing more is sent to it.` }] },
    headers: FHIR_HEADERS,
    audit: { resourceIds: [row.id] },
  };
};

const fhirSubscriptionStatus: OperationHandler = async (request) => {
  const row = await subscriptionOf(request);
  const settings = JSON.parse(row.fhir_settings) as FhirSubscriptionSettings;
  const { status, error } = await fhirStatusOf(request.app.db, row);
  const body = statusSearchset({ base: settings.base, subscriptionId: row.id, topic: settings.topic, status, eventsSinceStart: Number(row.events_since_start), content: settings.content, error });
  return { body, headers: FHIR_HEADERS, audit: { resourceIds: [row.id] } };
};

function eventNumber(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new ApiError('invalid_parameter', `${name} must be an event number (1 or more).`, [{ field: `query.${name}`, issue: 'must be a whole number, 1 or more' }]);
  return n;
}

/** At most this many events per $events answer (ask again from the next number). */
const MAX_REPLAYED = 100;

/**
 * $events: the subscription's events by number, from the notifications as they were queued
 * (the same content, read as the owner could read it then); a history Bundle of type
 * query-event. Events whose notifications were purged (retention) are no longer there, nor
 * are events about a resident the caller's access policy hides.
 */
const fhirSubscriptionEvents: OperationHandler = async (request) => {
  const { app, query } = request;
  const row = await subscriptionOf(request);
  const settings = JSON.parse(row.fhir_settings) as FhirSubscriptionSettings;
  const total = Number(row.events_since_start);
  const since = eventNumber(query.eventsSinceNumber, 'eventsSinceNumber') ?? Math.max(1, total - MAX_REPLAYED + 1);
  const until = Math.min(eventNumber(query.eventsUntilNumber, 'eventsUntilNumber') ?? total, since + MAX_REPLAYED - 1);
  // Only the events about residents the caller may see: the Subscription is the facility's,
  // and its notifications followed the policy of the credential that last set it, which may
  // see more than this one (their numbers are then skipped, as a purged event's are).
  const stored = (await restrictToVisibleResidents(
    app.db('webhook_deliveries as w')
      .leftJoin('webhook_events as e', 'e.id', 'w.event_id')
      .where({ 'w.subscription_id': row.id, 'w.notification_type': 'event-notification' })
      .andWhere('w.event_number', '>=', since)
      .andWhere('w.event_number', '<=', until),
    await visibilityOf(app.db, request.principal),
    'e',
  )
    .orderBy('w.event_number')
    .select('w.body', 'e.resident_id')) as Array<{ body: string; resident_id: string | null }>;
  const events = stored.flatMap((d) => eventsOfNotification(d.body, settings.base));
  const { status, error } = await fhirStatusOf(app.db, row);
  const body = notificationBundle({
    base: settings.base,
    subscriptionId: row.id,
    topic: settings.topic,
    status,
    type: 'query-event',
    eventsSinceStart: total,
    content: settings.content,
    events,
    error,
    timestamp: new Date().toISOString(),
  });
  // Replayed, the events disclose their residents again, as their deliveries did.
  const residents = stored.flatMap((d) => (d.resident_id ? [d.resident_id] : []));
  return { body, headers: FHIR_HEADERS, audit: { resourceIds: [row.id], disclosures: eventDisclosures(residents) } };
};

const searchFhirBasic: OperationHandler = async (request) => {
  const { koa, params, query } = request;
  const code = query.code as string | undefined;
  const topics = code === undefined || code === 'SubscriptionTopic' || code === 'http://hl7.org/fhir/fhir-types|SubscriptionTopic' ? SUBSCRIPTION_TOPICS : [];
  const base = fhirBase(koa, params);
  const entry = topics.map((topic) => ({ fullUrl: `${base}/Basic/${topic.id}`, resource: toR4TopicBasic(topic), search: { mode: 'match' } }));
  return { body: { resourceType: 'Bundle', type: 'searchset', total: entry.length, ...(entry.length > 0 ? { entry } : {}) }, headers: FHIR_HEADERS, audit: { resourceIds: [] } };
};

const readFhirBasic: OperationHandler = async (request) => {
  const topic = topicById(request.params.topic!);
  if (!topic) throw new ApiError('not_found', `Basic/${request.params.topic} is not known: the Basic resources of this server are its SubscriptionTopics.`);
  return { body: toR4TopicBasic(topic), headers: FHIR_HEADERS, audit: { resourceIds: [] } };
};

export const fhirSubscriptionOperations: Record<string, OperationHandler> = {
  createFhirSubscription: createFhirSubscriptionOperation,
  readFhirSubscription,
  searchFhirSubscription,
  updateFhirSubscription: updateFhirSubscriptionOperation,
  deleteFhirSubscription: deleteFhirSubscriptionOperation,
  fhirSubscriptionStatus,
  fhirSubscriptionEvents,
  searchFhirBasic,
  readFhirBasic,
};
