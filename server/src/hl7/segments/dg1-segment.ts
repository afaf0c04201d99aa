// DG1 -> FHIR R4 Condition (the v2-to-FHIR IG's DG1 map): code DG1-3, onset DG1-5 (diagnosis
// date/time), category `encounter-diagnosis`, clinical status active. Identified by DG1-20
// (diagnosis identifier) when the sender gives one, else by the resident and the code.
// DG1-21 (action code, table 0206: A, U, D) is returned for the translator to honour.
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier } from '../../ingest/change-set.js';
import { fieldError } from '../hl7-failure.js';
import { codeableConcept, component, hl7DateTime } from '../hl7-fields.js';
import { derivedValue, type Hl7Reading } from '../hl7-reading.js';
import type { MappedRecord } from './in1-segment.js';

const CATEGORY = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'encounter-diagnosis', display: 'Encounter Diagnosis' }] };

export function conditionOfDg1(dg1: Hl7Segment, residentMatch: BusinessIdentifier, resident: string, reading: Hl7Reading): MappedRecord & { action: string } {
  const code = codeableConcept(dg1, 3, reading.sendingApplication);
  const coding = code?.coding?.[0];
  if (!code || !coding) throw fieldError('required_field_missing', 'DG1', 3, 'DG1-3 (diagnosis code) is required');
  const description = component(dg1, 4, 1);
  const when = component(dg1, 5, 1);
  // Not a key: a malformed onset is left out with a warning, the diagnosis kept.
  const onset = when ? reading.leaveOut(dg1, () => hl7DateTime(when, 'DG1', 5, reading.offset)) : undefined;
  const ownId = component(dg1, 20, 1);
  const action = component(dg1, 21, 1).toUpperCase();
  const identifier = { system: reading.systemOf('condition'), value: ownId ? ownId.slice(0, 300) : derivedValue(residentMatch, coding.system, coding.code) };
  return {
    action,
    identifier,
    resource: {
      resourceType: 'Condition',
      identifier: [identifier],
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: action === 'D' ? 'inactive' : 'active' }] },
      category: [CATEGORY],
      code: { ...code, ...(!code.text && description ? { text: description } : {}) },
      subject: { reference: resident },
      ...(onset ? { onsetDateTime: onset } : {}),
    },
  };
}
