// Condition, ServiceRequest and MedicationRequest rows -> FHIR R4 (the records HL7 v2 DG1,
// ORC+OBR and ORC+RXE bring, and FHIR feeds write): code as a CodeableConcept of its system,
// the resident as subject, status and intent as the source gave them. A medication known only
// by its name (a FHIR medicationReference display) is a text-only CodeableConcept. Each carries
// the identifiers it was sent with (FHIR `identifier`, HL7 v2 placer and filler numbers).
import { fhirMeta, type VersionedRow } from '../fhir-meta.js';
import { identifierElement, type Identifier } from './r4-identifiers.js';

interface ClinicalRow extends VersionedRow {
  id: string;
  resident_id: string;
  code_system: string;
  code: string;
  display: string;
  category_system?: string | null;
  category_code?: string | null;
  category_display?: string | null;
  /** Set by the type's `related` (r4-types.ts): the identifiers it was sent with. */
  identifiers?: Identifier[];
}

const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
/** ingest/mapping/medication-request.ts's system for a medication named, not coded. */
const MEDICATION_DISPLAY = 'urn:ofctx:medication-display';

/** The category as the sender coded it (its first coding), when it gave one. */
const category = (row: ClinicalRow) =>
  row.category_system && row.category_code
    ? { category: [{ coding: [{ system: row.category_system, code: row.category_code, ...(row.category_display ? { display: row.category_display } : {}) }] }] }
    : {};

const concept = (row: ClinicalRow) => ({ coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display });

export function toR4Condition(row: ClinicalRow & { clinical_status: string | null; onset: string | null }) {
  return {
    resourceType: 'Condition' as const,
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    ...(row.clinical_status ? { clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: row.clinical_status }] } } : {}),
    ...category(row),
    code: concept(row),
    subject: { reference: `Patient/${row.resident_id}` },
    ...(row.onset ? { onsetDateTime: row.onset } : {}),
  };
}

export function toR4ServiceRequest(row: ClinicalRow & { status: string; intent: string; authored_on: string | null }) {
  return {
    resourceType: 'ServiceRequest' as const,
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    status: row.status,
    intent: row.intent,
    ...category(row),
    code: concept(row),
    subject: { reference: `Patient/${row.resident_id}` },
    ...(row.authored_on ? { authoredOn: row.authored_on } : {}),
  };
}

export function toR4MedicationRequest(row: ClinicalRow & { status: string; intent: string; authored_on: string | null }) {
  return {
    resourceType: 'MedicationRequest' as const,
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    status: row.status,
    intent: row.intent,
    ...category(row),
    medicationCodeableConcept: row.code_system === MEDICATION_DISPLAY ? { text: row.display } : concept(row),
    subject: { reference: `Patient/${row.resident_id}` },
    ...(row.authored_on ? { authoredOn: row.authored_on } : {}),
  };
}
