// The event types of the API (spec section 6.1, the contract's EventType enum) and the
// version of their delivery envelope.
import type { components } from '@ofctx/sdk/contract';

export type EventType = components['schemas']['EventType'];
export type EventTypeInfo = components['schemas']['EventTypeInfo'];

/** Version of the delivery envelope, `api_version` in every body. */
export const API_VERSION = 'v1';

export const EVENT_TYPES: readonly EventTypeInfo[] = [
  { event_type: 'resident.admitted', api_version: API_VERSION, description: 'A resident is admitted to a facility.' },
  { event_type: 'resident.discharged', api_version: API_VERSION, description: 'A resident is discharged.' },
  { event_type: 'resident.transferred', api_version: API_VERSION, description: 'A resident is transferred between facilities; facility_id is the facility the resident now belongs to.' },
  { event_type: 'resident.merged', api_version: API_VERSION, description: 'Two records of one resident are merged; resident_id is the surviving resident, merged_resident_id the prior one (now inactive, its records moved).' },
  { event_type: 'coverage.updated', api_version: API_VERSION, description: "A resident's payer coverage changes." },
  { event_type: 'clinical.condition.created', api_version: API_VERSION, description: 'A new diagnosis is recorded for a resident.' },
  { event_type: 'clinical.order.created', api_version: API_VERSION, description: 'A new order (for example a medication) is created for a resident.' },
  { event_type: 'clinical.result.created', api_version: API_VERSION, description: "A resident's results arrive as a new DiagnosticReport, or a report's status changes (a preliminary report made final, a corrected one); data names the report and its status." },
];

const NAMES: ReadonlySet<string> = new Set(EVENT_TYPES.map((t) => t.event_type));

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && NAMES.has(value);
}
