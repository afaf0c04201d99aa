// The FHIR R4 resource types the R4 view serves: the table behind each, its renderer, its
// scope, and the search parameters FHIR defines for it that we honour. The operations, the
// CapabilityStatement and the tests all read this one table, so what is announced is what
// is served.
import { toR4Patient } from './r4-patient.js';
import { toR4Coverage } from './r4-coverage.js';
import { toR4Observation } from './r4-observation.js';
import { toR4AllergyIntolerance } from './r4-allergy-intolerance.js';

export interface SearchParam {
  name: string;
  type: 'token' | 'date' | 'reference';
  definition: string;
  documentation: string;
}

export interface R4Type {
  type: 'Patient' | 'Coverage' | 'Observation' | 'AllergyIntolerance';
  table: string;
  scope: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  render: (row: any) => { resourceType: string; id: string };
  /** Search parameters that name the resident (a Patient reference). */
  residentParams: string[];
}

const SP = 'http://hl7.org/fhir/SearchParameter/';

export const COMMON_SEARCH_PARAMS: SearchParam[] = [
  { name: '_id', type: 'token', definition: `${SP}Resource-id`, documentation: 'One id, or several separated by commas (at most 200).' },
  {
    name: '_lastUpdated',
    type: 'date',
    definition: `${SP}Resource-lastUpdated`,
    documentation: 'With a prefix gt, ge, lt or le; twice for a range. The results are then in (lastUpdated, id) order.',
  },
];

const RESIDENT_PARAM_DEFINITIONS: Record<string, string> = {
  patient: `${SP}clinical-patient`,
  subject: `${SP}Observation-subject`,
  beneficiary: `${SP}Coverage-beneficiary`,
};

export function residentSearchParams(r4: R4Type): SearchParam[] {
  return r4.residentParams.map((name) => ({
    name,
    type: 'reference',
    definition: r4.type === 'Coverage' && name === 'patient' ? `${SP}Coverage-patient` : RESIDENT_PARAM_DEFINITIONS[name]!,
    documentation: 'The resident: Patient/<id> or <id>.',
  }));
}

export const R4_TYPES: R4Type[] = [
  { type: 'Patient', table: 'residents', scope: 'residents.read', render: toR4Patient, residentParams: [] },
  { type: 'Coverage', table: 'coverage', scope: 'coverage.read', render: toR4Coverage, residentParams: ['beneficiary', 'patient'] },
  { type: 'Observation', table: 'observations', scope: 'clinical.read', render: toR4Observation, residentParams: ['patient', 'subject'] },
  { type: 'AllergyIntolerance', table: 'allergies', scope: 'clinical.read', render: toR4AllergyIntolerance, residentParams: ['patient'] },
];
