// FHIR R4 MedicationRequest -> medication_requests row, kept for its event
// (clinical.order.created) and the audit trail; partners do not read it.
import type { EventType } from '../../webhooks/event-types.js';
import { bounded, firstCoding, issue, mapped, object, requiredText, text, type Columns, type ResourceMapping } from './resource-mapping.js';

function medication(resource: Record<string, unknown>): { code_system: string; code: string; display: string } {
  if (resource.medicationCodeableConcept !== undefined) return firstCoding(resource.medicationCodeableConcept, 'MedicationRequest.medicationCodeableConcept');
  const display = text(object(resource.medicationReference)?.display);
  if (!display) issue('required', 'MedicationRequest needs medicationCodeableConcept or a medicationReference with a display', 'MedicationRequest.medication[x]');
  return { code_system: 'urn:ofctx:medication-display', code: display.slice(0, 64), display };
}

export const medicationRequestMapping: ResourceMapping = {
  type: 'MedicationRequest',
  table: 'medication_requests',
  residentElement: 'subject',
  toColumns: (resource) =>
    mapped(() => {
      const code = medication(resource);
      return {
        code_system: bounded(code.code_system, 200, 'MedicationRequest.medication[x]'),
        code: bounded(code.code, 64, 'MedicationRequest.medication[x]'),
        display: bounded(code.display, 200, 'MedicationRequest.medication[x]'),
        status: bounded(requiredText(resource, 'status', 'MedicationRequest'), 32, 'MedicationRequest.status'),
        intent: bounded(requiredText(resource, 'intent', 'MedicationRequest'), 32, 'MedicationRequest.intent'),
        authored_on: text(resource.authoredOn) ? bounded(resource.authoredOn as string, 32, 'MedicationRequest.authoredOn') : null,
      };
    }),
  events: (before: Columns | undefined): EventType[] => (before ? [] : ['clinical.order.created']),
};
