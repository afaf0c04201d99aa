// Allergy row -> FHIR R4-aligned AllergyIntolerance (clinicalStatus as a plain code).
import type { components } from '@ofctx/sdk/contract';
import { fhirMeta, type VersionedRow } from './fhir-meta.js';

export type AllergyIntolerance = components['schemas']['AllergyIntolerance'];

export interface AllergyRow extends VersionedRow {
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
    meta: fhirMeta(row),
    patient: { reference: `Patient/${row.resident_id}` },
    code: { system: row.code_system, code: row.code, display: row.display },
    clinicalStatus: row.clinical_status,
  };
}
