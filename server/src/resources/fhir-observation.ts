// Observation row -> FHIR R4-aligned Observation: valueString always, plus valueQuantity for
// single-value vitals or component[] for blood pressure (systolic and diastolic). The spec
// fixes this shape: a quantity is added only when it is UCUM and exact (no comparator); lab
// results' ranges, flags and non-UCUM units are the R4 view's.
import type { components } from '@ofctx/sdk/contract';
import { fhirMeta, type VersionedRow } from './fhir-meta.js';

export type Observation = components['schemas']['Observation'];

const UCUM = 'http://unitsofmeasure.org' as const;

export interface ObservationRow extends VersionedRow {
  /** Insertion order: the stable order of lists. */
  seq: number;
  id: string;
  resident_id: string;
  status: Observation['status'];
  code_system: string;
  code: string;
  display: string;
  effective_at: string;
  value_string: string;
  value_quantity: string | null;
  components: string | null;
}

export function toObservation(row: ObservationRow): Observation {
  const observation: Observation = {
    resourceType: 'Observation',
    id: row.id,
    meta: fhirMeta(row),
    subject: { reference: `Patient/${row.resident_id}` },
    status: row.status,
    code: { system: row.code_system, code: row.code, display: row.display },
    effectiveDateTime: row.effective_at,
    valueString: row.value_string,
  };
  if (row.value_quantity) {
    const q = JSON.parse(row.value_quantity) as { value: number; comparator?: string; unit?: string; system?: string; code?: string };
    if (q.system === UCUM && q.code && !q.comparator) observation.valueQuantity = { value: q.value, unit: q.unit ?? q.code, system: UCUM, code: q.code };
  }
  if (row.components) observation.component = JSON.parse(row.components) as Observation['component'];
  return observation;
}
