// PID -> FHIR R4 Patient (the v2-to-FHIR IG's PID segment map: PID-3 identifier, PID-5 name,
// PID-7 birthDate, PID-8 gender; the last two left out, with a warning, when malformed) and
// the identifier the resident is matched on. PID-3 without
// an assigning authority, common in v2.3 feeds, is namespaced by the sending application and
// facility (MSH-3, MSH-4), so two senders' bare numbers never name one resident.
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier, IngestResource } from '../../ingest/change-set.js';
import { fieldError, Hl7Failure } from '../hl7-failure.js';
import { component } from '../hl7-fields.js';
import type { Hl7Reading } from '../hl7-reading.js';
import { hl7Date } from '../hl7-text.js';

const GENDERS: Record<string, string> = { M: 'male', F: 'female', O: 'other', A: 'other', U: 'unknown', N: 'unknown' };

/**
 * CX.4 assigning authority -> FHIR Identifier.system (v2-to-FHIR: an ISO OID as urn:oid:, a URI
 * as itself, else the namespace id under our own URN; none: the sender's namespace).
 */
function identifierSystem(namespace: string, universalId: string, universalIdType: string, reading: Hl7Reading): string {
  if (universalId && universalIdType.toUpperCase() === 'ISO' && /^[0-2](\.\d+)+$/.test(universalId)) return `urn:oid:${universalId}`;
  if (universalId && ['URI', 'URL'].includes(universalIdType.toUpperCase()) && /^[a-z][a-z0-9+.-]*:/i.test(universalId)) return universalId;
  if (namespace) return `urn:ofctx:hl7v2:assigner:${namespace}`;
  return `urn:ofctx:hl7v2:sender:${encodeURIComponent(reading.sendingApplication)}:${encodeURIComponent(reading.sendingFacility)}`;
}

/** One CX repetition of `field` as an identifier (PID-3, MRG-1), or undefined when it has no value. */
export function cxIdentifier(segment: Hl7Segment, field: number, repetition: number, reading: Hl7Reading): (BusinessIdentifier & { type: string }) | undefined {
  const value = component(segment, field, 1, repetition);
  if (!value) return undefined;
  const system = identifierSystem(component(segment, field, 4, repetition, 0), component(segment, field, 4, repetition, 1), component(segment, field, 4, repetition, 2), reading);
  if (value.length > 300 || system.length > 300) throw fieldError('data_type_error', segment.name, field, `${segment.name}-${field} repetition ${repetition + 1} is longer than 300 characters`);
  return { system, value, type: component(segment, field, 5, repetition) };
}

/** Every identifier of a CX list field; the match is the medical record number (type MR), else the first. */
export function cxIdentifiers(segment: Hl7Segment, field: number, reading: Hl7Reading): { identifiers: BusinessIdentifier[]; match: BusinessIdentifier } {
  const f = segment.getField(field);
  const found: Array<BusinessIdentifier & { type: string }> = [];
  for (let r = 0; f && r < f.components.length; r++) {
    const identifier = cxIdentifier(segment, field, r, reading);
    if (identifier && !found.some((i) => i.system === identifier.system && i.value === identifier.value)) found.push(identifier);
  }
  if (found.length === 0) throw fieldError('required_field_missing', segment.name, field, `${segment.name}-${field} needs at least one identifier`);
  const chosen = found.find((i) => i.type === 'MR') ?? found[0]!;
  return { identifiers: found.map(({ system, value }) => ({ system, value })), match: { system: chosen.system, value: chosen.value } };
}

export interface PatientOfPid {
  /** The identifier the resident is matched on (organization-wide). */
  match: BusinessIdentifier;
  /** The Patient, `active` true (the translator decides); without birthDate or gender when PID-7 or PID-8 was left out; undefined when the demographics cannot be read. */
  patient?: IngestResource;
  /** Why the demographics cannot be read (a results feed's placeholders): refused only if the resident is new. */
  problem?: Hl7Failure;
}

export function patientOfPid(pid: Hl7Segment, reading: Hl7Reading): PatientOfPid {
  const { identifiers, match } = cxIdentifiers(pid, 3, reading);
  try {
    // PID-5, repeating XPN: the legal name (type L), else the first.
    const pid5 = pid.getField(5);
    let nameRep = 0;
    for (let r = 0; pid5 && r < pid5.components.length; r++) {
      if (component(pid, 5, 7, r) === 'L') {
        nameRep = r;
        break;
      }
    }
    const family = component(pid, 5, 1, nameRep, 0);
    if (!family) throw fieldError('required_field_missing', 'PID', 5, 'PID-5.1 (family name) is required', 1);
    if (family.length > 200) throw fieldError('data_type_error', 'PID', 5, 'PID-5.1 (family name) is longer than 200 characters', 1);
    const given = [component(pid, 5, 2, nameRep), component(pid, 5, 3, nameRep)].filter((g) => g !== '');
    // Not keys: a malformed birth date or sex (a results feed's placeholders `DOB`, `SEX`) is
    // left out with a warning; the applier keeps the resident's own, and records a new
    // resident without them.
    const birth = component(pid, 7, 1);
    const birthDate = birth ? reading.leaveOut(pid, () => hl7Date(birth, 'PID', 7)) : undefined;
    const sex = component(pid, 8, 1);
    const gender = reading.leaveOut(pid, () => {
      const code = sex === '' ? 'unknown' : GENDERS[sex.toUpperCase()];
      if (!code) throw fieldError('table_value_not_found', 'PID', 8, `PID-8 (administrative sex) ${JSON.stringify(sex)} is not in HL7 table 0001 (F, M, O, U, A, N)`);
      return code;
    });
    const patient: IngestResource = {
      resourceType: 'Patient',
      identifier: identifiers,
      active: true,
      name: [{ use: 'official', family, ...(given.length ? { given } : {}) }],
      ...(gender ? { gender } : {}),
      ...(birthDate ? { birthDate } : {}),
    };
    return { match, patient };
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return { match, problem: error };
  }
}
