// FHIR R4 AllergyIntolerance -> allergies row: the first coding of the allergen and the
// clinical status as a plain code (R4's CodeableConcept, or a plain code, is accepted).
import { bounded, firstCoding, mapped, object, oneOf, type ResourceMapping } from './resource-mapping.js';

const CLINICAL_STATUSES = ['active', 'inactive', 'resolved'] as const;

export function statusCode(value: unknown): unknown {
  if (typeof value === 'string') return value;
  const codings = object(value)?.coding;
  return Array.isArray(codings) ? object(codings[0])?.code : undefined;
}

export const allergyIntoleranceMapping: ResourceMapping = {
  type: 'AllergyIntolerance',
  table: 'allergies',
  residentElement: 'patient',
  toColumns: (resource) =>
    mapped(() => {
      const code = firstCoding(resource.code, 'AllergyIntolerance.code');
      return {
        code_system: bounded(code.code_system, 200, 'AllergyIntolerance.code.coding[0].system'),
        code: bounded(code.code, 64, 'AllergyIntolerance.code.coding[0].code'),
        display: bounded(code.display, 200, 'AllergyIntolerance.code.coding[0].display'),
        // R4 requires clinicalStatus on a live allergy; absent, it is taken as active.
        clinical_status: resource.clinicalStatus === undefined ? 'active' : oneOf(statusCode(resource.clinicalStatus), CLINICAL_STATUSES, 'AllergyIntolerance.clinicalStatus'),
      };
    }),
  events: () => [],
};
