// FHIR R4 resources as a system of record sends them, for ingestion tests and benchmarks.
export const MRN = 'https://ehr.example/fhir/sid/mrn';

export function patient(mrn: string, overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'Patient' as const,
    identifier: [{ system: MRN, value: mrn }, { system: 'http://hl7.org/fhir/sid/us-mbi', value: '*****6789A' }],
    active: true,
    name: [{ use: 'official', family: 'Okafor', given: ['Adaeze', 'Grace'] }],
    gender: 'female',
    birthDate: '1941-03-17',
    ...overrides,
  };
}

export const byMrn = (mrn: string) => ({ reference: `Patient?identifier=${encodeURIComponent(MRN)}|${mrn}` });

export function coverage(beneficiary: { reference: string }, key: string, overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'Coverage' as const,
    identifier: [{ system: 'https://ehr.example/fhir/sid/coverage', value: key }],
    status: 'active',
    beneficiary,
    payor: [{ display: 'Medicare Part A' }],
    subscriberId: '*****1234A',
    period: { start: '2024-01-01' },
    order: 1,
    ...overrides,
  };
}

export function observation(subject: { reference: string }, key: string, overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'Observation' as const,
    identifier: [{ system: 'https://ehr.example/fhir/sid/observation', value: key }],
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] },
    subject,
    effectiveDateTime: '2026-01-31T08:15:00Z',
    valueQuantity: { value: 72, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
    ...overrides,
  };
}

export function allergy(patientRef: { reference: string }, key: string, overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'AllergyIntolerance' as const,
    identifier: [{ system: 'https://ehr.example/fhir/sid/allergy', value: key }],
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
    code: { coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }] },
    patient: patientRef,
    ...overrides,
  };
}

export function condition(subject: { reference: string }, key: string) {
  return {
    resourceType: 'Condition' as const,
    identifier: [{ system: 'https://ehr.example/fhir/sid/condition', value: key }],
    code: { coding: [{ system: 'http://snomed.info/sct', code: '44054006', display: 'Diabetes mellitus type 2' }] },
    subject,
  };
}

export function medicationRequest(subject: { reference: string }, key: string) {
  return {
    resourceType: 'MedicationRequest' as const,
    identifier: [{ system: 'https://ehr.example/fhir/sid/order', value: key }],
    status: 'active',
    intent: 'order',
    medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '860975', display: 'metformin 500 MG' }] },
    subject,
  };
}

export function serviceRequest(subject: { reference: string }, key: string, overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'ServiceRequest' as const,
    identifier: [{ system: 'https://ehr.example/fhir/sid/order', value: key }],
    status: 'active',
    intent: 'order',
    code: { coding: [{ system: 'http://loinc.org', code: '24323-8', display: 'Comprehensive metabolic panel' }] },
    subject,
    authoredOn: '2026-11-20T09:30:00Z',
    ...overrides,
  };
}

/** A lab DiagnosticReport as the HL7 v2 translator writes one (no FHIR feed sends it): based on the order of the same key, its results by identifier. */
export function diagnosticReport(subject: { reference: string }, key: string, overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'DiagnosticReport' as const,
    identifier: [{ system: 'https://lab.example/accession', value: key }],
    basedOn: [{ reference: `ServiceRequest?identifier=${encodeURIComponent('https://ehr.example/fhir/sid/order')}|${encodeURIComponent(key)}` }],
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB', display: 'Laboratory' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '24323-8', display: 'Comprehensive metabolic panel' }] },
    subject,
    effectiveDateTime: '2026-11-20T07:00:00Z',
    issued: '2026-11-20T09:00:00Z',
    ...overrides,
  };
}
