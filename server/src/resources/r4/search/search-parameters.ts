// The FHIR R4 search parameters each type of the R4 view honours (issue 27: the US Core SHALL
// and SHOULD ones), with what each one compares in the database. search-request.ts reads them
// from a request, search-query.ts turns them into SQL; the CapabilityStatement and the
// contract list the same table, so what is announced is what is served.
import type { R4Type } from '../r4-types.js';
import { OBSERVATION_CATEGORY } from '../observation-codes.js';

const SP = 'http://hl7.org/fhir/SearchParameter/';

/** What a parameter compares, interpreted by search-query.ts (the one place SQL is built). */
export type Target =
  | { kind: 'id' }
  | { kind: 'lastUpdated' }
  | { kind: 'resident' }
  /** A (system, code) pair of columns; `system` a fixed system when the table holds codes of one. */
  | { kind: 'code'; column: string; systemColumn?: string; system?: string }
  | { kind: 'boolean'; column: string }
  /** resource_identifiers of this type. */
  | { kind: 'identifier' }
  /** search_strings of these params (`name` searches family and given). */
  | { kind: 'string'; params: string[] }
  /** A column holding a day (YYYY-MM-DD) or an instant (ISO 8601 UTC). */
  | { kind: 'date'; column: string; precision: 'day' | 'instant' }
  /** Observation.category as the renderer derives it: vital-signs for the vital-sign LOINC codes. */
  | { kind: 'observationCategory' };

export interface SearchParameter {
  name: string;
  type: 'token' | 'string' | 'date' | 'reference';
  definition: string;
  documentation: string;
  target: Target;
}

const TOKEN = 'A token: `code`, `system|code`, `system|` (any code of the system) or `|code`; several separated by commas match any.';
const DATE = 'A date or instant (`2026`, `2026-11`, `2026-11-20`, `2026-11-20T10:00:00Z`) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`; give it twice for a range.';
const STRING = 'Starts with the value, ignoring case and accents; `:exact` for the exact value, `:contains` for anywhere. Several separated by commas match any.';

const id: SearchParameter = { name: '_id', type: 'token', definition: `${SP}Resource-id`, documentation: 'One id, or several separated by commas (at most 200).', target: { kind: 'id' } };
const lastUpdated: SearchParameter = {
  name: '_lastUpdated',
  type: 'date',
  definition: `${SP}Resource-lastUpdated`,
  documentation: `${DATE} Without \`_sort\` the results are then in (lastUpdated, id) order.`,
  target: { kind: 'lastUpdated' },
};

function resident(name: string, definition: string): SearchParameter {
  return { name, type: 'reference', definition: `${SP}${definition}`, documentation: 'The resident: `Patient/<id>` or `<id>`; several separated by commas match any.', target: { kind: 'resident' } };
}

function code(name: string, definition: string, documentation: string, target: Target): SearchParameter {
  return { name, type: 'token', definition: `${SP}${definition}`, documentation: `${documentation} ${TOKEN}`, target };
}

const codeColumns: Target = { kind: 'code', column: 'code', systemColumn: 'code_system' };
const categoryColumns: Target = { kind: 'code', column: 'category_code', systemColumn: 'category_system' };

const BY_TYPE: Record<R4Type['type'], SearchParameter[]> = {
  Patient: [
    code('identifier', 'Patient-identifier', 'A business identifier (MRN, Medicare MBI, member id), matched exactly.', { kind: 'identifier' }),
    { name: 'name', type: 'string', definition: `${SP}Patient-name`, documentation: `Any part of the name (family or given). ${STRING}`, target: { kind: 'string', params: ['family', 'given'] } },
    { name: 'family', type: 'string', definition: `${SP}individual-family`, documentation: `The family name. ${STRING}`, target: { kind: 'string', params: ['family'] } },
    { name: 'given', type: 'string', definition: `${SP}individual-given`, documentation: `A given name. ${STRING}`, target: { kind: 'string', params: ['given'] } },
    { name: 'birthdate', type: 'date', definition: `${SP}individual-birthdate`, documentation: `The birth date. ${DATE}`, target: { kind: 'date', column: 'birth_date', precision: 'day' } },
    code('gender', 'individual-gender', 'male, female, other or unknown (http://hl7.org/fhir/administrative-gender).', { kind: 'code', column: 'gender', system: 'http://hl7.org/fhir/administrative-gender' }),
    code('active', 'Patient-active', 'true or false (a discharged resident is false).', { kind: 'boolean', column: 'active' }),
  ],
  Coverage: [
    resident('beneficiary', 'Coverage-beneficiary'),
    resident('patient', 'Coverage-patient'),
    code('identifier', 'Coverage-identifier', 'A business identifier of the coverage (a member or policy id), matched exactly.', { kind: 'identifier' }),
    code('status', 'Coverage-status', 'active, cancelled, draft or entered-in-error (http://hl7.org/fhir/fm-status).', { kind: 'code', column: 'status', system: 'http://hl7.org/fhir/fm-status' }),
  ],
  Observation: [
    resident('patient', 'clinical-patient'),
    resident('subject', 'Observation-subject'),
    code('category', 'Observation-category', `vital-signs (${OBSERVATION_CATEGORY}) for the vital signs; the category the source gave (laboratory for lab results).`, { kind: 'observationCategory' }),
    code('code', 'clinical-code', 'What was observed (LOINC for vital signs).', codeColumns),
    { name: 'date', type: 'date', definition: `${SP}clinical-date`, documentation: `When it was observed (effectiveDateTime). ${DATE}`, target: { kind: 'date', column: 'effective_at', precision: 'instant' } },
    code('status', 'Observation-status', 'registered, preliminary, final, amended, corrected, cancelled, entered-in-error or unknown.', { kind: 'code', column: 'status', system: 'http://hl7.org/fhir/observation-status' }),
  ],
  AllergyIntolerance: [
    resident('patient', 'clinical-patient'),
    code('clinical-status', 'AllergyIntolerance-clinical-status', 'active, inactive or resolved (http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical).', {
      kind: 'code',
      column: 'clinical_status',
      system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
    }),
    code('code', 'clinical-code', 'The allergen.', codeColumns),
  ],
  Condition: [
    resident('patient', 'clinical-patient'),
    resident('subject', 'Condition-subject'),
    code('category', 'Condition-category', 'The category the sender coded (problem-list-item, encounter-diagnosis...).', categoryColumns),
    code('clinical-status', 'Condition-clinical-status', 'active, recurrence, relapse, inactive, remission or resolved (http://terminology.hl7.org/CodeSystem/condition-clinical).', {
      kind: 'code',
      column: 'clinical_status',
      system: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
    }),
    code('code', 'clinical-code', 'The diagnosis.', codeColumns),
  ],
  ServiceRequest: [
    resident('patient', 'clinical-patient'),
    resident('subject', 'ServiceRequest-subject'),
    code('category', 'ServiceRequest-category', 'The category the sender coded.', categoryColumns),
    code('code', 'ServiceRequest-code', 'What was ordered.', codeColumns),
    code('status', 'ServiceRequest-status', 'The request status (http://hl7.org/fhir/request-status).', { kind: 'code', column: 'status', system: 'http://hl7.org/fhir/request-status' }),
    code('intent', 'ServiceRequest-intent', 'The request intent (http://hl7.org/fhir/request-intent).', { kind: 'code', column: 'intent', system: 'http://hl7.org/fhir/request-intent' }),
  ],
  MedicationRequest: [
    resident('patient', 'clinical-patient'),
    resident('subject', 'MedicationRequest-subject'),
    code('category', 'MedicationRequest-category', 'The category the sender coded (inpatient, outpatient, community...).', categoryColumns),
    code('code', 'medications-code', 'The medication code (a medication known by name only has none).', codeColumns),
    code('status', 'medications-status', 'The request status (http://hl7.org/fhir/CodeSystem/medicationrequest-status).', {
      kind: 'code',
      column: 'status',
      system: 'http://hl7.org/fhir/CodeSystem/medicationrequest-status',
    }),
    code('intent', 'MedicationRequest-intent', 'The request intent (http://hl7.org/fhir/CodeSystem/medicationrequest-intent).', {
      kind: 'code',
      column: 'intent',
      system: 'http://hl7.org/fhir/CodeSystem/medicationrequest-intent',
    }),
  ],
  CoverageEligibilityResponse: [resident('patient', 'CoverageEligibilityResponse-patient')],
  DiagnosticReport: [
    resident('patient', 'clinical-patient'),
    resident('subject', 'DiagnosticReport-subject'),
    code('category', 'DiagnosticReport-category', 'LAB (http://terminology.hl7.org/CodeSystem/v2-0074) for lab results, or the section the lab named (HL7 v2 OBR-24).', categoryColumns),
    code('code', 'clinical-code', 'The report: what was ordered (LOINC for lab panels).', codeColumns),
    { name: 'date', type: 'date', definition: `${SP}clinical-date`, documentation: `When it was observed (effectiveDateTime). ${DATE}`, target: { kind: 'date', column: 'effective_at', precision: 'instant' } },
    code('status', 'DiagnosticReport-status', 'registered, partial, preliminary, final, amended, corrected, appended, cancelled, entered-in-error or unknown.', { kind: 'code', column: 'status', system: 'http://hl7.org/fhir/diagnostic-report-status' }),
  ],
};

/** Every search parameter of a type: `_id`, `_lastUpdated`, then the type's own. */
export function searchParameters(type: R4Type['type']): SearchParameter[] {
  return [id, lastUpdated, ...BY_TYPE[type]];
}

/**
 * Sort columns that may hold null (a resident recorded without a birth date): sorted and
 * compared as '' so that keyset pages stay total on both databases (null sorts first
 * ascending, last descending, as SQLite orders it).
 */
export const NULLABLE_SORT_COLUMNS: ReadonlySet<string> = new Set(['birth_date']);

/** `_sort` keys per type (each also with `-` for descending), and the column each sorts by. */
export function sortKeys(type: R4Type['type']): Record<string, string> {
  return {
    _lastUpdated: 'last_updated',
    ...(type === 'Observation' || type === 'DiagnosticReport' ? { date: 'effective_at' } : {}),
    ...(type === 'Patient' ? { birthdate: 'birth_date' } : {}),
  };
}
