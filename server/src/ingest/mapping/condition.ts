// FHIR R4 Condition -> conditions row, kept for its event (clinical.condition.created) and
// the audit trail, and read through the FHIR R4 view.
import type { EventType } from '../../db/event-types.js';
import { statusCode } from './allergy-intolerance.js';
import { bounded, categoryColumns, firstCoding, mapped, text, type Columns, type ResourceMapping } from './resource-mapping.js';

export const conditionMapping: ResourceMapping = {
  type: 'Condition',
  table: 'conditions',
  residentElement: 'subject',
  toColumns: (resource) =>
    mapped(() => {
      const code = firstCoding(resource.code, 'Condition.code');
      const status = statusCode(resource.clinicalStatus);
      return {
        ...categoryColumns(resource, 'Condition'),
        code_system: bounded(code.code_system, 200, 'Condition.code.coding[0].system'),
        code: bounded(code.code, 64, 'Condition.code.coding[0].code'),
        display: bounded(code.display, 200, 'Condition.code.coding[0].display'),
        clinical_status: typeof status === 'string' ? bounded(status, 32, 'Condition.clinicalStatus') : null,
        onset: text(resource.onsetDateTime) ? bounded(resource.onsetDateTime as string, 32, 'Condition.onsetDateTime') : null,
      };
    }),
  events: (before: Columns | undefined): EventType[] => (before ? [] : ['clinical.condition.created']),
};
