// Resident row -> FHIR R4-aligned Patient. Identifier values are returned byte for byte.
import type { components } from '@ofctx/sdk/contract';
import { fhirMeta, type VersionedRow } from './fhir-meta.js';

export type Patient = components['schemas']['Patient'];

export interface ResidentRow extends VersionedRow {
  /** Insertion order: the stable order of lists. */
  seq: number;
  id: string;
  facility_id: string;
  identifiers: string;
  family_name: string;
  given_names: string;
  gender: Patient['gender'];
  /** Null when the system of record sent none that could be read. */
  birth_date: string | null;
  active: number | boolean;
}

export function toPatient(row: ResidentRow): Patient {
  return {
    resourceType: 'Patient',
    id: row.id,
    meta: fhirMeta(row),
    identifier: JSON.parse(row.identifiers) as Patient['identifier'],
    active: Boolean(row.active),
    name: [{ use: 'official', family: row.family_name, given: JSON.parse(row.given_names) as string[] }],
    gender: row.gender,
    ...(row.birth_date ? { birthDate: row.birth_date } : {}),
    managingOrganization: { reference: `Organization/${row.facility_id}` },
  };
}
