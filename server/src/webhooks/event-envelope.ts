// The delivery body. Serialized exactly once, when a delivery is queued (or when the test
// operation builds one); the resulting string's UTF-8 bytes are what is signed and sent on
// every attempt. Key order is fixed by the contract's `webhooks` section. Ids only: never
// names, birth dates or other protected health information; clinical.order.created adds
// the kind of order (a FHIR resource type), which partners cannot read through the API.
import type { components } from '@ofctx/sdk/contract';
import { API_VERSION, type EventType } from '../db/event-types.js';

/** `data.order_type` of clinical.order.created: the FHIR resource type of the new order. */
export type OrderType = NonNullable<components['schemas']['EventData']['order_type']>;

export interface EnvelopeFields {
  eventType: EventType;
  eventId: string;
  deliveryId: string;
  occurredAt: string;
  orgId: string;
  facilityId: string;
  residentId: string;
  /** clinical.order.created from ingestion only; absent elsewhere. */
  orderType?: OrderType | undefined;
  /** resident.merged only: the prior resident. */
  mergedResidentId?: string | undefined;
  /** clinical.result.created only: the DiagnosticReport and its status. */
  diagnosticReportId?: string | undefined;
  diagnosticReportStatus?: string | undefined;
}

export type EventData = components['schemas']['EventData'];

/**
 * The `data` of an event: what every delivery of it carries and what the event log answers
 * (events/event-log.ts), built in this one place so the two are always the same.
 */
export function eventData(f: Pick<EnvelopeFields, 'orgId' | 'facilityId' | 'residentId' | 'orderType' | 'mergedResidentId' | 'diagnosticReportId' | 'diagnosticReportStatus'>): EventData {
  return {
    org_id: f.orgId,
    facility_id: f.facilityId,
    resident_id: f.residentId,
    ...(f.orderType ? { order_type: f.orderType } : {}),
    ...(f.mergedResidentId ? { merged_resident_id: f.mergedResidentId } : {}),
    ...(f.diagnosticReportId ? { diagnostic_report_id: f.diagnosticReportId } : {}),
    ...(f.diagnosticReportStatus ? { diagnostic_report_status: f.diagnosticReportStatus as NonNullable<EventData['diagnostic_report_status']> } : {}),
  };
}

export function serializeDeliveryBody(f: EnvelopeFields): string {
  // Built as a literal so the key order is the contract's, whatever the input's order.
  return JSON.stringify({
    api_version: API_VERSION,
    event_type: f.eventType,
    event_id: f.eventId,
    delivery_id: f.deliveryId,
    occurred_at: f.occurredAt,
    data: eventData(f),
  });
}
