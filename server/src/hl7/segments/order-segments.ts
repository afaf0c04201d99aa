// ORC with OBR -> FHIR R4 ServiceRequest, ORC with RXE/RXO -> MedicationRequest (the
// v2-to-FHIR IG's ORC, OBR, RXO and RXE maps): code OBR-4 (universal service id), RXE-2 (give
// code) else RXO-1 (requested give code); status from ORC-1 (order control) and ORC-5 (order
// status, table 0038); intent `order`; authoredOn ORC-9. Identified across messages by the
// placer order number (ORC-2, else OBR-2) or else the filler's (ORC-3, else OBR-3): a later
// message for the same order updates it (ORC-1 CA cancels it: a status change, no new event).
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier } from '../../ingest/change-set.js';
import { fieldError } from '../hl7-failure.js';
import { codeableConcept, component, hl7DateTime } from '../hl7-fields.js';
import type { Hl7Reading } from '../hl7-reading.js';
import type { MappedRecord } from './in1-segment.js';

type Kind = 'ServiceRequest' | 'MedicationRequest';

/** ORC-1 order control codes that decide the status themselves (table 0119). */
const CONTROL_STATUS: Record<string, Record<Kind, string>> = {
  CA: { ServiceRequest: 'revoked', MedicationRequest: 'cancelled' },
  OC: { ServiceRequest: 'revoked', MedicationRequest: 'cancelled' },
  CR: { ServiceRequest: 'revoked', MedicationRequest: 'cancelled' },
  DC: { ServiceRequest: 'revoked', MedicationRequest: 'stopped' },
  OD: { ServiceRequest: 'revoked', MedicationRequest: 'stopped' },
  DR: { ServiceRequest: 'revoked', MedicationRequest: 'stopped' },
  HD: { ServiceRequest: 'on-hold', MedicationRequest: 'on-hold' },
  OH: { ServiceRequest: 'on-hold', MedicationRequest: 'on-hold' },
};
/** ORC-5 order status (table 0038). */
const ORDER_STATUS: Record<string, Record<Kind, string>> = {
  CA: { ServiceRequest: 'revoked', MedicationRequest: 'cancelled' },
  DC: { ServiceRequest: 'revoked', MedicationRequest: 'stopped' },
  CM: { ServiceRequest: 'completed', MedicationRequest: 'completed' },
  ER: { ServiceRequest: 'entered-in-error', MedicationRequest: 'entered-in-error' },
  HD: { ServiceRequest: 'on-hold', MedicationRequest: 'on-hold' },
  RP: { ServiceRequest: 'revoked', MedicationRequest: 'stopped' },
  IP: { ServiceRequest: 'active', MedicationRequest: 'active' },
  SC: { ServiceRequest: 'active', MedicationRequest: 'active' },
  A: { ServiceRequest: 'active', MedicationRequest: 'active' },
};

/** The order numbers: placer (ORC-2, else OBR-2) and filler (ORC-3, else OBR-3), as identifiers. */
export function orderIdentifiers(orc: Hl7Segment | undefined, detail: Hl7Segment | undefined, reading: Hl7Reading): BusinessIdentifier[] {
  const identifiers: BusinessIdentifier[] = [];
  for (const [kind, field] of [['placer-order', 2], ['filler-order', 3]] as const) {
    const source = orc && component(orc, field, 1) ? orc : detail?.name === 'OBR' && component(detail, field, 1) ? detail : undefined;
    if (!source) continue;
    const value = component(source, field, 1);
    const namespace = component(source, field, 2) || component(source, field, 3);
    if (value.length > 300) throw fieldError('data_type_error', source.name, field, `${source.name}-${field} is longer than 300 characters`);
    identifiers.push({ system: namespace ? `urn:ofctx:hl7v2:${kind}:${encodeURIComponent(namespace)}` : reading.systemOf(kind), value });
  }
  return identifiers;
}

export function orderOf(kind: Kind, orc: Hl7Segment | undefined, detail: Hl7Segment, resident: string, reading: Hl7Reading): MappedRecord {
  const identifiers = orderIdentifiers(orc, detail, reading);
  if (identifiers.length === 0) throw fieldError('required_field_missing', 'ORC', 2, 'an order needs its placer (ORC-2) or filler (ORC-3) order number');
  const field = detail.name === 'OBR' ? 4 : detail.name === 'RXE' ? 2 : 1;
  const code = codeableConcept(detail, field, reading.sendingApplication);
  if (!code?.coding?.length) throw fieldError('required_field_missing', detail.name, field, `${detail.name}-${field} (what is ordered) needs a code`);
  const control = orc ? component(orc, 1, 1).toUpperCase() : '';
  const orderStatus = orc ? component(orc, 5, 1).toUpperCase() : '';
  const status = CONTROL_STATUS[control]?.[kind] ?? ORDER_STATUS[orderStatus]?.[kind] ?? 'active';
  const when = orc ? component(orc, 9, 1) : '';
  // Not a key: a malformed ORC-9 is left out with a warning, the order kept.
  const authoredOn = when && orc ? reading.leaveOut(orc, () => hl7DateTime(when, 'ORC', 9, reading.offset)) : undefined;
  const common = { identifier: identifiers, status, intent: 'order', subject: { reference: resident }, ...(authoredOn ? { authoredOn } : {}) };
  return {
    identifier: identifiers[0]!,
    resource: kind === 'ServiceRequest' ? { resourceType: 'ServiceRequest', ...common, code } : { resourceType: 'MedicationRequest', ...common, medicationCodeableConcept: code },
  };
}
