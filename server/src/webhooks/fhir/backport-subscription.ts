// A FHIR R4 Subscription with the R5 Backport IG's profile (STU 1.1), read into the settings
// ofctx keeps (a webhook_subscriptions row of kind `fhir-rest-hook`) and rendered back. What
// is accepted, and how each element is honoured, is written in the contract (Subscription
// operations) and docs/fhir-subscriptions.md:
// - criteria: one of ofctx's topic canonicals (subscription-topics.ts); `_criteria` its filters.
// - channel.type `rest-hook`; channel.endpoint vetted as webhook callbacks are.
// - channel.payload `application/fhir+json`, content `empty`, `id-only` (default) or
//   `full-resource`; channel.header sent with every notification, never shown back in clear.
// - heartbeatPeriod (seconds), timeout (seconds, at most the server's request timeout),
//   maxCount (every notification carries one event, which any maxCount allows).
import { ApiError } from '../../errors/api-error.js';
import { topicByUrl, type SubscriptionTopic } from './subscription-topics.js';

export const BACKPORT = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';
export const SUBSCRIPTION_PROFILE = `${BACKPORT}/backport-subscription`;
export const FILTER_CRITERIA = `${BACKPORT}/backport-filter-criteria`;
export const HEARTBEAT_PERIOD = `${BACKPORT}/backport-heartbeat-period`;
export const TIMEOUT = `${BACKPORT}/backport-timeout`;
export const MAX_COUNT = `${BACKPORT}/backport-max-count`;
export const PAYLOAD_CONTENT = `${BACKPORT}/backport-payload-content`;
export const TOPIC_CANONICAL_EXTENSION = `${BACKPORT}/capabilitystatement-subscriptiontopic-canonical`;

export const PAYLOAD_CONTENTS = ['empty', 'id-only', 'full-resource'] as const;
export type PayloadContent = (typeof PAYLOAD_CONTENTS)[number];
export const FHIR_JSON = 'application/fhir+json';

/** The longest heartbeat period accepted (a day), in seconds. */
export const MAX_HEARTBEAT_SECONDS = 86_400;
/** At most this many channel headers, each at most this long. */
const MAX_HEADERS = 10;
const MAX_HEADER_LENGTH = 4096;

export interface SubscriptionFilter {
  /** As the client wrote it, given back on read. */
  text: string;
  resource: 'Patient' | 'Observation' | 'DiagnosticReport';
  parameter: string;
  system: string | null;
  value: string;
}

/** What ofctx keeps of a Subscription (webhook_subscriptions.fhir_settings); the headers apart, encrypted. */
export interface FhirSubscriptionSettings {
  /** The R4 base the Subscription was created under: notifications' references are absolute under it. */
  base: string;
  topic: string;
  filters: SubscriptionFilter[];
  content: PayloadContent;
  reason: string;
  end: string | null;
  heartbeatPeriod: number | null;
  /** Seconds, as honoured (capped at the server's request timeout). */
  timeout: number;
  maxCount: number | null;
}

/** A Subscription as read from a request: its settings, its headers, the status asked. */
export interface SubscriptionRequest {
  settings: Omit<FhirSubscriptionSettings, 'base'>;
  headers: string[];
  status: 'requested' | 'off';
  endpoint: string;
  topic: SubscriptionTopic;
}

type Json = Record<string, unknown>;

function refused(field: string, issue: string, message?: string): ApiError {
  return new ApiError('invalid_body', message ?? `The Subscription is not one ofctx can serve: ${field} ${issue}.`, [{ field: `body.${field}`, issue }]);
}

function extensionsOf(element: unknown, field: string): Json[] {
  if (element === undefined || element === null) return [];
  if (typeof element !== 'object') throw refused(field, 'must be an element (an object with extensions)');
  const extension = (element as Json).extension;
  if (extension === undefined) return [];
  if (!Array.isArray(extension) || extension.some((e) => !e || typeof e !== 'object')) throw refused(`${field}.extension`, 'must be an array of extensions');
  return extension as Json[];
}

function one(extensions: Json[], url: string): Json | undefined {
  return extensions.find((e) => e.url === url);
}

function whole(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw refused(field, `must be a whole number from ${min} to ${max}`);
  return value;
}

/** `Type?parameter=[system|]value`, one parameter, among the topic's filters. */
export function readFilter(text: unknown, topic: SubscriptionTopic, field: string): SubscriptionFilter {
  if (typeof text !== 'string') throw refused(field, 'must be a string such as Patient?identifier=SYSTEM|VALUE');
  const match = /^(\w+)\?([\w-]+)=([^&]+)$/.exec(text.trim());
  const allowed = topic.filters.map((f) => `${f.resource}?${f.parameter}=`).join(', ');
  if (!match) throw refused(field, `must be one search parameter of one type, such as Patient?identifier=SYSTEM|VALUE (this topic accepts ${allowed})`);
  const [, resource, parameter, raw] = match;
  if (!topic.filters.some((f) => f.resource === resource && f.parameter === parameter)) throw refused(field, `${resource}?${parameter} is not a filter of ${topic.url}; it accepts ${allowed}`);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw!);
  } catch {
    throw refused(field, 'is not correctly URL-encoded');
  }
  const bar = decoded.indexOf('|');
  const system = bar >= 0 ? decoded.slice(0, bar) || null : null;
  const value = bar >= 0 ? decoded.slice(bar + 1) : decoded;
  if (value === '') throw refused(field, 'must name a value');
  return { text: text.trim(), resource: resource as SubscriptionFilter['resource'], parameter: parameter!, system, value };
}

/** `Name: value`, a header token and a value without line breaks. */
function readHeader(header: unknown, field: string): string {
  if (typeof header !== 'string' || header.length > MAX_HEADER_LENGTH || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*$/.test(header)) {
    throw refused(field, 'must be an HTTP header written Name: value, without line breaks');
  }
  const name = header.slice(0, header.indexOf(':')).toLowerCase();
  if (['content-type', 'content-length', 'host', 'user-agent', 'connection', 'transfer-encoding'].includes(name)) throw refused(field, `${name} is set by ofctx and cannot be replaced`);
  return header;
}

/**
 * Reads a Subscription from a create or an update. Refuses (400, the field named) what ofctx
 * cannot honour; `maxTimeoutSeconds` is the server's request timeout.
 */
export function readSubscription(body: unknown, maxTimeoutSeconds: number): SubscriptionRequest {
  if (!body || typeof body !== 'object' || (body as Json).resourceType !== 'Subscription') throw refused('resourceType', 'must be Subscription');
  const s = body as Json;
  const status = s.status;
  // A Subscription read and sent back keeps its `active` or `error`: both are asked as `requested` (on).
  if (status !== 'requested' && status !== 'active' && status !== 'error' && status !== 'off') throw refused('status', 'must be requested (active and error are read as requested), or off');
  if (typeof s.reason !== 'string' || s.reason.trim() === '') throw refused('reason', 'is required by FHIR R4 (why the Subscription is made)');
  if (typeof s.criteria !== 'string') throw refused('criteria', 'must be a SubscriptionTopic canonical of this server (see the CapabilityStatement)');
  const topic = topicByUrl(s.criteria);
  if (!topic) throw refused('criteria', `is not a SubscriptionTopic of this server; ofctx's topics are listed in the CapabilityStatement and as Basic resources (GET [base]/Basic?code=SubscriptionTopic)`);
  const filters = extensionsOf(s._criteria, '_criteria').map((e, i) => {
    if (e.url !== FILTER_CRITERIA) throw refused(`_criteria.extension[${i}].url`, `must be ${FILTER_CRITERIA}`);
    return readFilter(e.valueString, topic, `_criteria.extension[${i}].valueString`);
  });
  let end: string | null = null;
  if (s.end !== undefined) {
    if (typeof s.end !== 'string' || Number.isNaN(Date.parse(s.end))) throw refused('end', 'must be a FHIR instant');
    end = new Date(Date.parse(s.end)).toISOString();
  }
  const channel = s.channel as Json | undefined;
  if (!channel || typeof channel !== 'object') throw refused('channel', 'is required');
  if (channel.type !== 'rest-hook') throw refused('channel.type', 'must be rest-hook (the only channel ofctx sends)');
  if (typeof channel.endpoint !== 'string' || channel.endpoint === '') throw refused('channel.endpoint', 'must be the https URL notifications are posted to');
  const payload = channel.payload ?? FHIR_JSON;
  if (payload !== FHIR_JSON) throw refused('channel.payload', `must be ${FHIR_JSON}`);
  const contentExtension = one(extensionsOf(channel._payload, 'channel._payload'), PAYLOAD_CONTENT);
  let content: PayloadContent = 'id-only';
  if (contentExtension) {
    if (!(PAYLOAD_CONTENTS as readonly unknown[]).includes(contentExtension.valueCode)) throw refused('channel._payload.extension.valueCode', `must be one of ${PAYLOAD_CONTENTS.join(', ')}`);
    content = contentExtension.valueCode as PayloadContent;
  }
  const channelExtensions = extensionsOf(channel, 'channel');
  const heartbeat = one(channelExtensions, HEARTBEAT_PERIOD);
  const timeout = one(channelExtensions, TIMEOUT);
  const maxCount = one(channelExtensions, MAX_COUNT);
  const headerList = channel.header ?? [];
  if (!Array.isArray(headerList) || headerList.length > MAX_HEADERS) throw refused('channel.header', `must be an array of at most ${MAX_HEADERS} headers`);
  return {
    topic,
    endpoint: channel.endpoint,
    status: status === 'off' ? 'off' : 'requested',
    headers: headerList.map((h, i) => readHeader(h, `channel.header[${i}]`)),
    settings: {
      topic: topic.url,
      filters,
      content,
      reason: s.reason.trim(),
      end,
      heartbeatPeriod: heartbeat ? whole(heartbeat.valueUnsignedInt ?? heartbeat.valueInteger, 'channel.extension(heartbeat-period).valueUnsignedInt', 1, MAX_HEARTBEAT_SECONDS) : null,
      // Longer than the server's own request timeout cannot be honoured: capped, and shown so.
      timeout: timeout ? Math.min(whole(timeout.valueUnsignedInt ?? timeout.valueInteger, 'channel.extension(timeout).valueUnsignedInt', 1, 3600), maxTimeoutSeconds) : maxTimeoutSeconds,
      maxCount: maxCount ? whole(maxCount.valuePositiveInt ?? maxCount.valueInteger, 'channel.extension(max-count).valuePositiveInt', 1, 1000) : null,
    },
  };
}

/** The IG's statuses: requested, active, error, off. */
export type FhirSubscriptionStatus = 'requested' | 'active' | 'error' | 'off';

export interface RenderedSubscriptionInput {
  id: string;
  endpoint: string;
  settings: FhirSubscriptionSettings;
  status: FhirSubscriptionStatus;
  /** Header names only: values may be credentials. */
  headerNames: string[];
  /** Why the status is error or off, in words. */
  error: string | null;
  lastUpdated: string;
}

/** The R4 Subscription as read back: the settings as honoured, the headers masked. */
export function toR4Subscription(input: RenderedSubscriptionInput) {
  const { settings } = input;
  const channelExtensions = [
    ...(settings.heartbeatPeriod !== null ? [{ url: HEARTBEAT_PERIOD, valueUnsignedInt: settings.heartbeatPeriod }] : []),
    { url: TIMEOUT, valueUnsignedInt: settings.timeout },
    ...(settings.maxCount !== null ? [{ url: MAX_COUNT, valuePositiveInt: settings.maxCount }] : []),
  ];
  return {
    resourceType: 'Subscription' as const,
    id: input.id,
    meta: { lastUpdated: input.lastUpdated, profile: [SUBSCRIPTION_PROFILE] },
    status: input.status,
    ...(settings.end ? { end: settings.end } : {}),
    reason: settings.reason,
    criteria: settings.topic,
    ...(settings.filters.length > 0 ? { _criteria: { extension: settings.filters.map((f) => ({ url: FILTER_CRITERIA, valueString: f.text })) } } : {}),
    ...(input.error ? { error: input.error } : {}),
    channel: {
      extension: channelExtensions,
      type: 'rest-hook' as const,
      endpoint: input.endpoint,
      payload: FHIR_JSON,
      _payload: { extension: [{ url: PAYLOAD_CONTENT, valueCode: settings.content }] },
      ...(input.headerNames.length > 0 ? { header: input.headerNames.map((name) => `${name}: ***`) } : {}),
    },
  };
}
