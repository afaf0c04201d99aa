// FHIR R4 ServiceRequest (a lab test, imaging, therapy, a referral...) -> service_requests row,
// kept for its event (clinical.order.created, like MedicationRequest) and the audit trail;
// read through the FHIR R4 view. R4 makes `code` optional; ofctx needs it to know what was ordered,
// as it needs Condition.code. status and intent are R4 required bindings, checked here
// because the validator does not check value sets.
import type { EventType } from '../../db/event-types.js';
import { bounded, categoryColumns, firstCoding, mapped, oneOf, text, type Columns, type ResourceMapping } from './resource-mapping.js';

/** http://hl7.org/fhir/R4/valueset-request-status.html */
const STATUSES = ['draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error', 'unknown'] as const;
/** http://hl7.org/fhir/R4/valueset-request-intent.html */
const INTENTS = ['proposal', 'plan', 'directive', 'order', 'original-order', 'reflex-order', 'filler-order', 'instance-order', 'option'] as const;

export const serviceRequestMapping: ResourceMapping = {
  type: 'ServiceRequest',
  table: 'service_requests',
  residentElement: 'subject',
  toColumns: (resource) =>
    mapped(() => {
      const code = firstCoding(resource.code, 'ServiceRequest.code');
      return {
        ...categoryColumns(resource, 'ServiceRequest'),
        code_system: bounded(code.code_system, 200, 'ServiceRequest.code.coding[0].system'),
        code: bounded(code.code, 64, 'ServiceRequest.code.coding[0].code'),
        display: bounded(code.display, 200, 'ServiceRequest.code.coding[0].display'),
        status: oneOf(resource.status, STATUSES, 'ServiceRequest.status'),
        intent: oneOf(resource.intent, INTENTS, 'ServiceRequest.intent'),
        authored_on: text(resource.authoredOn) ? bounded(resource.authoredOn as string, 32, 'ServiceRequest.authoredOn') : null,
      };
    }),
  events: (before: Columns | undefined): EventType[] => (before ? [] : ['clinical.order.created']),
};
