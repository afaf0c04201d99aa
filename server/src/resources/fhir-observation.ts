// Observation row -> FHIR R4-aligned Observation: valueString always, plus valueQuantity for
// single-value vitals or component[] for blood pressure (systolic and diastolic).
import type { components } from '@ofctx/sdk/contract';
import { fhirMeta, type VersionedRow } from './fhir-meta.js';

export type Observation = components['schemas']['Observation'];

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
  if (row.value_quantity) observation.valueQuantity = JSON.parse(row.value_quantity) as Observation['valueQuantity'];
  if (row.components) observation.component = JSON.parse(row.components) as Observation['component'];
  return observation;
}
