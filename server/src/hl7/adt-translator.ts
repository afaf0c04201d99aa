// HL7 v2 ADT -> what the message means for one resident: which event, which facility code, and
// the FHIR R4 Patient (HL7's v2-to-FHIR mapping of PID). The database is not touched here:
// adt-applier.ts looks up the facility and applies the Patient through applyChangeSet.
//
// MAPPING (README "HL7 v2 ADT over MLLP")
//   A01 admit, A04 register, A13 cancel discharge   Patient active       -> resident.admitted
//                                                                          (when it was not active)
//   A02 transfer, A12 cancel transfer               Patient active, at PV1-3.4's facility:
//                                                    another facility of the org -> resident.transferred;
//                                                    the same facility: a location change, no event
//   A03 discharge, A11 cancel admit                 Patient inactive     -> resident.discharged
//   A08 update patient information                  demographics only: facility and active kept, no event
// HL7 defines A11/A12/A13 as "the previous A01/A02/A03 did not happen": partners already saw
// that event, so they see its reversal as the event of the state the resident is back in.
// In an A12, PV1-3 is the location the patient returns to (HL7 v2.5.1 3.3.12).
import type { Hl7Message, Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier, IngestResource } from '../ingest/change-set.js';
import { fieldError, Hl7Failure } from './hl7-failure.js';
import { hl7Date, unescapeHl7 } from './hl7-text.js';

export const ADT_EVENTS = ['A01', 'A02', 'A03', 'A04', 'A08', 'A11', 'A12', 'A13'] as const;
export type AdtEvent = (typeof ADT_EVENTS)[number];

/** What the resident's `active` becomes; `keep` for A08. */
const ACTIVE_AFTER: Record<AdtEvent, boolean | 'keep'> = { A01: true, A04: true, A13: true, A02: true, A12: true, A03: false, A11: false, A08: 'keep' };

export interface AdtTranslation {
  event: AdtEvent;
  controlId: string;
  sendingApplication: string;
  /** The HL7 code naming the facility, and the field it came from. */
  facilityCode: string;
  facilityCodeAt: 'PV1-3.4' | 'MSH-4';
  active: boolean | 'keep';
  patient: IngestResource;
  /** The identifier the resident is matched on (organization-wide). */
  match: BusinessIdentifier;
}

const GENDERS: Record<string, string> = { M: 'male', F: 'female', O: 'other', A: 'other', U: 'unknown', N: 'unknown' };

/**
 * CX.4 assigning authority -> FHIR Identifier.system (v2-to-FHIR: an ISO OID as urn:oid:, a URI
 * as itself, else the namespace id under our own URN). Identifiers from FHIR feeds and from ADT
 * match when the sender's assigning authority is the FHIR system's OID or URI.
 */
function identifierSystem(namespace: string, universalId: string, universalIdType: string): string | undefined {
  if (universalId && universalIdType.toUpperCase() === 'ISO' && /^[0-2](\.\d+)+$/.test(universalId)) return `urn:oid:${universalId}`;
  if (universalId && ['URI', 'URL'].includes(universalIdType.toUpperCase()) && /^[a-z][a-z0-9+.-]*:/i.test(universalId)) return universalId;
  if (namespace) return `urn:ofctx:hl7v2:assigner:${namespace}`;
  return undefined;
}

function segmentOf(message: Hl7Message, name: string, required: boolean): Hl7Segment | undefined {
  const segment = message.getSegment(name);
  if (!segment && required) throw new Hl7Failure('AE', 'segment_sequence', { segment: name }, `the ${name} segment is missing`);
  return segment;
}

function component(segment: Hl7Segment, field: number, comp: number, repetition = 0, sub?: number): string {
  const f = segment.getField(field);
  if (!f || repetition >= f.components.length) return '';
  return unescapeHl7(f.getComponent(comp, sub, repetition) ?? '', segment.context).trim();
}

export function translateAdt(message: Hl7Message): AdtTranslation {
  const msh = message.getSegment(0)!;
  const type = component(msh, 9, 1);
  const trigger = component(msh, 9, 2);
  const controlId = component(msh, 10, 1);
  if (!controlId) throw new Hl7Failure('AR', 'required_field_missing', { segment: 'MSH', sequence: 1, field: 10 }, 'MSH-10 (message control id) is required');
  if (type !== 'ADT') throw new Hl7Failure('AR', 'unsupported_message_type', { segment: 'MSH', sequence: 1, field: 9, component: 1 }, `MSH-9 message type ${JSON.stringify(type)} is not accepted; this listener takes ADT`);
  if (!(ADT_EVENTS as readonly string[]).includes(trigger)) {
    throw new Hl7Failure('AR', 'unsupported_event_code', { segment: 'MSH', sequence: 1, field: 9, component: 2 }, `MSH-9 event ${JSON.stringify(trigger)} is not supported; supported: ${ADT_EVENTS.join(', ')}`);
  }
  const event = trigger as AdtEvent;
  const pid = segmentOf(message, 'PID', true)!;
  const pv1 = segmentOf(message, 'PV1', event !== 'A08');

  const pv1Facility = pv1 ? component(pv1, 3, 4, 0, 0) : '';
  const mshFacility = component(msh, 4, 1);
  const facilityCode = pv1Facility || mshFacility;
  if (!facilityCode) throw fieldError('required_field_missing', 'PV1', 3, 'the facility is missing: PV1-3.4 (assigned location facility) or else MSH-4 (sending facility) must name it', 4);

  // PID-3, repeating: every identifier with an assigning authority; the resident is matched on
  // the medical record number (identifier type MR), else the first.
  const pid3 = pid.getField(3);
  const identifiers: Array<BusinessIdentifier & { type: string }> = [];
  for (let r = 0; pid3 && r < pid3.components.length; r++) {
    const value = component(pid, 3, 1, r);
    if (!value) continue;
    const system = identifierSystem(component(pid, 3, 4, r, 0), component(pid, 3, 4, r, 1), component(pid, 3, 4, r, 2));
    if (!system) throw fieldError('required_field_missing', 'PID', 3, `PID-3 repetition ${r + 1} (${JSON.stringify(value)}) needs an assigning authority (CX.4)`, 4);
    if (value.length > 300 || system.length > 300) throw fieldError('data_type_error', 'PID', 3, `PID-3 repetition ${r + 1} is longer than 300 characters`);
    identifiers.push({ system, value, type: component(pid, 3, 5, r) });
  }
  if (identifiers.length === 0) throw fieldError('required_field_missing', 'PID', 3, 'PID-3 (patient identifier list) needs at least one identifier');
  const chosen = identifiers.find((i) => i.type === 'MR') ?? identifiers[0]!;

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

  const birth = component(pid, 7, 1);
  if (!birth) throw fieldError('required_field_missing', 'PID', 7, 'PID-7 (date of birth) is required');
  const birthDate = hl7Date(birth, 'PID', 7);
  const sex = component(pid, 8, 1);
  const gender = sex === '' ? 'unknown' : GENDERS[sex.toUpperCase()];
  if (!gender) throw fieldError('table_value_not_found', 'PID', 8, `PID-8 (administrative sex) ${JSON.stringify(sex)} is not in HL7 table 0001 (F, M, O, U, A, N)`);

  const active = ACTIVE_AFTER[event];
  const patient: IngestResource = {
    resourceType: 'Patient',
    identifier: identifiers.map(({ system, value }) => ({ system, value })),
    active: active === 'keep' ? true : active,
    name: [{ use: 'official', family, ...(given.length ? { given } : {}) }],
    gender,
    birthDate,
  };
  return {
    event,
    controlId,
    sendingApplication: component(msh, 3, 1) || '-',
    facilityCode,
    facilityCodeAt: pv1Facility ? 'PV1-3.4' : 'MSH-4',
    active,
    patient,
    match: { system: chosen.system, value: chosen.value },
  };
}
