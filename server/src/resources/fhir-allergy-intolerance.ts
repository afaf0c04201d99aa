// Allergy row -> FHIR R4-aligned AllergyIntolerance (clinicalStatus as a plain code).
import type { components } from '@ofctx/sdk/contract';

export type AllergyIntolerance = components['schemas']['AllergyIntolerance'];

export interface AllergyRow {
  /** Insertion order: the stable order of lists. */
  seq: number;
  id: string;
  resident_id: string;
  code_system: string;
  code: string;
  display: string;
  clinical_status: AllergyIntolerance['clinicalStatus'];
}

export function toAllergyIntolerance(row: AllergyRow): AllergyIntolerance {
  return {
    resourceType: 'AllergyIntolerance',
    id: row.id,
    patient: { reference: `Patient/${row.resident_id}` },
    code: { system: row.code_system, code: row.code, display: row.display },
    clinicalStatus: row.clinical_status,
  };
}
