// The delivery envelope (the contract's EventDelivery) and its validation, applied only to a
// body whose signature has been verified. Extra properties are ignored, so that a field
// added to v1 later does not break receivers; the version and event type must be known.
import { InvalidEnvelopeError, InvalidJsonError } from './errors.js';
import type { components } from './generated/openapi.js';

export type EventDelivery = components['schemas']['EventDelivery'];
export type EventType = components['schemas']['EventType'];

// A Record over EventType: the compiler fails here if the contract gains or loses a type.
const EVENT_TYPE_SET: Record<EventType, true> = {
  'resident.admitted': true,
  'resident.discharged': true,
  'resident.transferred': true,
  'resident.merged': true,
  'coverage.updated': true,
  'clinical.condition.created': true,
  'clinical.order.created': true,
  'clinical.result.created': true,
};

export const EVENT_TYPES = Object.keys(EVENT_TYPE_SET) as readonly EventType[];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The envelope in a verified body; InvalidJsonError or InvalidEnvelopeError otherwise. */
export function parseDeliveryEnvelope(body: Uint8Array): EventDelivery {
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    throw new InvalidJsonError('The body is not valid UTF-8, so it cannot be a delivery envelope.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidJsonError(`The body is not valid JSON (${(error as Error).message}).`);
  }
  const problems = envelopeProblems(value);
  if (problems.length > 0) throw new InvalidEnvelopeError(problems);
  return value as EventDelivery;
}

function envelopeProblems(value: unknown): string[] {
  if (!isObject(value)) return ['the body must be a JSON object'];
  const problems: string[] = [];
  if (value.api_version !== 'v1') problems.push(`api_version must be "v1", got ${JSON.stringify(value.api_version)}`);
  if (typeof value.event_type !== 'string' || !Object.hasOwn(EVENT_TYPE_SET, value.event_type)) {
    problems.push(`event_type must be one of ${EVENT_TYPES.join(', ')}, got ${JSON.stringify(value.event_type)}`);
  }
  for (const field of ['event_id', 'delivery_id'] as const) {
    if (!isUuid(value[field])) problems.push(`${field} must be a UUID`);
  }
  if (typeof value.occurred_at !== 'string' || !RFC3339_DATE_TIME.test(value.occurred_at) || Number.isNaN(Date.parse(value.occurred_at))) {
    problems.push('occurred_at must be an RFC 3339 date-time');
  }
  if (!isObject(value.data)) {
    problems.push('data must be an object');
  } else {
    for (const field of ['org_id', 'facility_id', 'resident_id'] as const) {
      if (!isUuid(value.data[field])) problems.push(`data.${field} must be a UUID`);
    }
  }
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUuid(value: unknown): boolean {
  return typeof value === 'string' && UUID.test(value);
}
