// FHIR R4 MedicationRequest -> medication_requests row, kept for its event
// (clinical.order.created) and the audit trail, and read through the FHIR R4 view. status and intent
// are R4 required bindings, checked here because the validator does not check value sets.
import type { EventType } from '../../db/event-types.js';
import { bounded, categoryColumns, firstCoding, issue, mapped, object, oneOf, requiredText, text, type Columns, type ResourceMapping } from './resource-mapping.js';

/** http://hl7.org/fhir/R4/valueset-medicationrequest-status.html */
const STATUSES = ['active', 'on-hold', 'cancelled', 'completed', 'entered-in-error', 'stopped', 'draft', 'unknown'] as const;
/** http://hl7.org/fhir/R4/valueset-medicationrequest-intent.html */
const INTENTS = ['proposal', 'plan', 'order', 'original-order', 'reflex-order', 'filler-order', 'instance-order', 'option'] as const;

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
        ...categoryColumns(resource, 'MedicationRequest'),
        code_system: bounded(code.code_system, 200, 'MedicationRequest.medication[x]'),
        code: bounded(code.code, 64, 'MedicationRequest.medication[x]'),
        display: bounded(code.display, 200, 'MedicationRequest.medication[x]'),
        status: oneOf(requiredText(resource, 'status', 'MedicationRequest'), STATUSES, 'MedicationRequest.status'),
        intent: oneOf(requiredText(resource, 'intent', 'MedicationRequest'), INTENTS, 'MedicationRequest.intent'),
        authored_on: text(resource.authoredOn) ? bounded(resource.authoredOn as string, 32, 'MedicationRequest.authoredOn') : null,
      };
    }),
  events: (before: Columns | undefined): EventType[] => (before ? [] : ['clinical.order.created']),
};
