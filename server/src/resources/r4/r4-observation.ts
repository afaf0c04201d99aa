// Observation row -> FHIR R4 Observation: code as a CodeableConcept, `category: vital-signs`
// for the vital-sign LOINC codes, and exactly one value: component[] for blood pressure
// (no value on the panel itself, as the R4 vital-signs profile has it), else valueQuantity,
// else valueCodeableConcept, else valueString.
import type { ObservationRow } from '../fhir-observation.js';
import { fhirMeta } from '../fhir-meta.js';

const LOINC = 'http://loinc.org';
const VITAL_SIGNS = new Set(['85354-9', '8480-6', '8462-4', '8867-4', '9279-1', '8310-5', '29463-7', '59408-5', '2708-6', '8302-2', '39156-5', '9843-4']);
const VITAL_SIGNS_CATEGORY = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs', display: 'Vital Signs' }],
  text: 'Vital Signs',
};

type Quantity = { value: number; unit: string; system: string; code: string };
type StoredComponent = { code: { system: string; code: string; display: string }; valueQuantity: Quantity };

export function toR4Observation(row: ObservationRow & { version_id: number | string; last_updated: string; value_concept?: string | null }) {
  const components = row.components ? (JSON.parse(row.components) as StoredComponent[]) : null;
  const value = components
    ? { component: components.map((c) => ({ code: { coding: [c.code], text: c.code.display }, valueQuantity: c.valueQuantity })) }
    : row.value_quantity
      ? { valueQuantity: JSON.parse(row.value_quantity) as Quantity }
      : row.value_concept
        ? { valueCodeableConcept: JSON.parse(row.value_concept) as Record<string, unknown> }
        : { valueString: row.value_string };
  return {
    resourceType: 'Observation' as const,
    id: row.id,
    meta: fhirMeta(row),
    status: row.status,
    ...(row.code_system === LOINC && VITAL_SIGNS.has(row.code) ? { category: [VITAL_SIGNS_CATEGORY] } : {}),
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    subject: { reference: `Patient/${row.resident_id}` },
    effectiveDateTime: row.effective_at,
    ...value,
  };
}
