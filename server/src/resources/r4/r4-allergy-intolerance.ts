// Allergy row -> FHIR R4 AllergyIntolerance: clinicalStatus as a CodeableConcept of the HL7
// allergyintolerance-clinical CodeSystem, code as a CodeableConcept of the allergen's system;
// category, criticality and reactions when the source gave them; the identifiers it was sent with.
import type { AllergyRow } from '../fhir-allergy-intolerance.js';
import { fhirMeta } from '../fhir-meta.js';
import { identifierElement, type Identifier } from './r4-identifiers.js';

const CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const CLINICAL_DISPLAY: Record<string, string> = { active: 'Active', inactive: 'Inactive', resolved: 'Resolved' };

type StoredReaction = { manifestation: Array<Record<string, unknown>>; severity?: string };

export function toR4AllergyIntolerance(row: AllergyRow & { version_id: number | string; last_updated: string; category?: string | null; criticality?: string | null; reactions?: string | null; identifiers?: Identifier[] }) {
  const status = String(row.clinical_status);
  return {
    resourceType: 'AllergyIntolerance' as const,
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    clinicalStatus: { coding: [{ system: CLINICAL, code: status, display: CLINICAL_DISPLAY[status] ?? status }] },
    ...(row.category ? { category: [row.category] } : {}),
    ...(row.criticality ? { criticality: row.criticality } : {}),
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    patient: { reference: `Patient/${row.resident_id}` },
    ...(row.reactions ? { reaction: JSON.parse(row.reactions) as StoredReaction[] } : {}),
  };
}
