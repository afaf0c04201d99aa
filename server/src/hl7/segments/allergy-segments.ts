// AL1 and IAM -> FHIR R4 AllergyIntolerance (the v2-to-FHIR IG's AL1 and IAM maps): category
// from AL1-2 / IAM-2 (HL7 table 0127), the allergen AL1-3 / IAM-3, criticality and reaction
// severity from AL1-4 / IAM-4 (table 0128), reactions AL1-5 / IAM-5 (repeating, as text or
// code), onset AL1-6 / IAM-11. Identified by IAM-7 (allergy unique identifier) when the sender
// gives one, else by the resident and the allergen. IAM-6 (action code, table 0206: A add,
// U update, D delete, X no change) is returned for the translator to honour.
import type { Hl7Segment } from '@medplum/core';
import { fieldError } from '../hl7-failure.js';
import { codeableConcept, component, repetitions } from '../hl7-fields.js';
import { derivedValue, type Hl7Reading } from '../hl7-reading.js';
import type { BusinessIdentifier } from '../../ingest/change-set.js';
import type { MappedRecord } from './in1-segment.js';

const CATEGORIES: Record<string, string> = { DA: 'medication', DRUG: 'medication', FA: 'food', FOOD: 'food', EA: 'environment', AA: 'environment', LA: 'environment', PA: 'environment', ENV: 'environment' };
const SEVERITIES: Record<string, { criticality: string; severity?: string }> = {
  SV: { criticality: 'high', severity: 'severe' },
  MO: { criticality: 'low', severity: 'moderate' },
  MI: { criticality: 'low', severity: 'mild' },
  U: { criticality: 'unable-to-assess' },
};

export function allergyOf(segment: Hl7Segment, residentMatch: BusinessIdentifier, resident: string, reading: Hl7Reading): MappedRecord & { action: string } {
  const name = segment.name;
  const code = codeableConcept(segment, 3, reading.sendingApplication);
  const coding = code?.coding?.[0];
  if (!code || !coding) throw fieldError('required_field_missing', name, 3, `${name}-3 (allergen code) is required`);
  const category = CATEGORIES[component(segment, 2, 1).toUpperCase()];
  const severity = SEVERITIES[component(segment, 4, 1).toUpperCase()];
  const manifestation = [];
  for (let r = 0; r < repetitions(segment, 5); r++) {
    // AL1-5 is ST before v2.6 (CWE since): a word without a code system is what it says, not a code.
    const coded = component(segment, 5, 2, r) !== '' || component(segment, 5, 3, r) !== '';
    const concept = coded ? codeableConcept(segment, 5, reading.sendingApplication, r) : component(segment, 5, 1, r) ? { text: component(segment, 5, 1, r).slice(0, 200) } : undefined;
    if (concept) manifestation.push(concept);
  }
  const action = name === 'IAM' ? component(segment, 6, 1).toUpperCase() : '';
  const ownId = name === 'IAM' ? component(segment, 7, 1) : '';
  const identifier = { system: reading.systemOf('allergy'), value: ownId ? ownId.slice(0, 300) : derivedValue(residentMatch, coding.system, coding.code) };
  return {
    action,
    identifier,
    resource: {
      resourceType: 'AllergyIntolerance',
      identifier: [identifier],
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: action === 'D' ? 'inactive' : 'active' }] },
      ...(category ? { category: [category] } : {}),
      ...(severity ? { criticality: severity.criticality } : {}),
      code,
      patient: { reference: resident },
      ...(manifestation.length ? { reaction: [{ manifestation, ...(severity?.severity ? { severity: severity.severity } : {}) }] } : {}),
    },
  };
}
