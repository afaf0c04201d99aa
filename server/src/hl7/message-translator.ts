// An HL7 v2 message -> what it means for one resident: its facility code, the Patient (PID),
// and the records its segments carry, each mapped by its segment's mapper (segments/), as
// FHIR R4 resources that message-applier.ts applies through applyChangeSet. The database is
// not touched here.
//
// MESSAGES (docs/feeds/hl7v2.md)
//   ADT A01 admit, A04 register, A13 cancel discharge   Patient active       -> resident.admitted
//                                                                          (when it was not active)
//   ADT A02 transfer, A12 cancel transfer               Patient active, at PV1-3.4's facility:
//                                                    another facility of the org -> resident.transferred;
//                                                    the same facility: a location change, no event
//   ADT A03 discharge, A11 cancel admit                 Patient inactive     -> resident.discharged
//   ADT A08 update, A28 add person, A31 update person   demographics only: facility and active kept
//                                                    (a new resident is recorded inactive), no event
//   ADT A40 merge                                       as A08, and the MRG-1 resident is merged into
//                                                    the PID-3 one -> resident.merged
//   ORU R01 results                                     every OBR -> DiagnosticReport, its OBX ->
//                                                    Observation (its `result`); TX/FT OBX without
//                                                    OBX-3 -> the report's narrative -> clinical.result.created
//   ORM O01, OML O21 orders; RDE O11 pharmacy           ORC+OBR -> ServiceRequest, ORC+RXE/RXO ->
//                                                    MedicationRequest -> clinical.order.created
//   In every one: IN1/IN2 -> Coverage, AL1/IAM -> AllergyIntolerance, DG1 -> Condition,
//   OBX -> Observation. Other segments (NK1, PV2, GT1, Z-segments...) are read past.
// HL7 defines A11/A12/A13 as "the previous A01/A02/A03 did not happen": partners already saw
// that event, so they see its reversal as the event of the state the resident is back in.
// In an A12, PV1-3 is the location the patient returns to (HL7 v2.5.1 3.3.12).
//
// LISTS (HL7's snapshot rule, ADT only): the AL1, DG1 and IN1 segments of an ADT message are
// that sender's current list for the resident. An item the sender listed before and no longer
// lists is not deleted: it turns inactive (allergy and condition clinicalStatus `inactive`,
// Coverage status `cancelled`), a versioned change partners sync. A message without a segment
// of a kind leaves that list as it is; one segment whose code field (AL1-3, DG1-3, IN1-3) is
// `""` (HL7's explicit null) empties it. Where the sender uses action codes (IAM-6, DG1-21:
// A add, U update, D delete), they decide instead: D turns the item inactive, and the list
// is not taken as a snapshot. Results and orders messages only add and update.
import type { Hl7Message, Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier, IngestResource } from '../ingest/change-set.js';
import { fieldError, Hl7Failure } from './hl7-failure.js';
import { component, isExplicitNull, offsetOf } from './hl7-fields.js';
import { Hl7Reading } from './hl7-reading.js';
import { allergyOf } from './segments/allergy-segments.js';
import { conditionOfDg1 } from './segments/dg1-segment.js';
import { coverageOfIn1, type MappedRecord } from './segments/in1-segment.js';
import { priorIdentifierOfMrg } from './segments/mrg-segment.js';
import { observationOfObx } from './segments/obx-segment.js';
import { diagnosticReportOf, type ReportDraft } from './segments/obr-report.js';
import { narrativeLines } from './segments/obx-value.js';
import { orderIdentifiers, orderOf } from './segments/order-segments.js';
import { patientOfPid } from './segments/pid-segment.js';

export const ADT_EVENTS = ['A01', 'A02', 'A03', 'A04', 'A08', 'A11', 'A12', 'A13', 'A28', 'A31', 'A40'] as const;
/** The message types (MSH-9.1) and their trigger events (MSH-9.2) that are applied. */
export const SUPPORTED: Record<string, readonly string[]> = { ADT: ADT_EVENTS, ORU: ['R01'], ORM: ['O01'], OML: ['O21'], RDE: ['O11'] };

/** What the resident's `active` becomes; `keep`: as it is (a new resident is recorded inactive). */
const ACTIVE_AFTER: Record<string, boolean | 'keep'> = { A01: true, A04: true, A13: true, A02: true, A12: true, A03: false, A11: false, A08: 'keep', A28: 'keep', A31: 'keep', A40: 'keep' };

export type ListType = 'Coverage' | 'AllergyIntolerance' | 'Condition';

export interface RecordChange extends MappedRecord {
  /** The segment it came from, for errors: "AL1 #2". */
  at: string;
}

export interface Hl7Translation {
  messageType: string;
  event: string;
  controlId: string;
  sendingApplication: string;
  /** The HL7 code naming the facility, and the field it came from. */
  facilityCode: string;
  /** `source`: the message names none, and its source is bound to this one facility (MLLP_SOURCE_FACILITIES). */
  facilityCodeAt: 'PV1-3.4' | 'MSH-4' | 'source';
  active: boolean | 'keep';
  /** ADT: the demographics are the sender's to update; results and orders only name the resident (and record a new one). */
  demographics: 'update' | 'if-new';
  patient?: IngestResource;
  /** Why PID's demographics could not be read; refused if they are needed. */
  patientProblem?: Hl7Failure;
  /** The identifier the resident is matched on (organization-wide). */
  match: BusinessIdentifier;
  /** A40: the resident merged into this one. */
  replaces?: BusinessIdentifier;
  records: RecordChange[];
  /** Lists this message states in full (the snapshot rule): the sender's items of that type under `system`. */
  snapshots: Array<{ type: ListType; system: string }>;
  warnings: Hl7Failure[];
}

function required(message: Hl7Message, name: string): Hl7Segment {
  const segment = message.getSegment(name);
  if (!segment) throw new Hl7Failure('AE', 'segment_sequence', { segment: name }, `the ${name} segment is missing`);
  return segment;
}

/** The reference to the resident that every record of the message carries. */
export function residentReference(match: BusinessIdentifier): string {
  return `Patient?identifier=${encodeURIComponent(match.system)}|${encodeURIComponent(match.value)}`;
}

/** `boundFacilityCode`: the one facility the sending source is bound to, for a message that names none. */
export function translateMessage(message: Hl7Message, today = new Date().toISOString().slice(0, 10), boundFacilityCode?: string): Hl7Translation {
  const msh = message.getSegment(0)!;
  const type = component(msh, 9, 1);
  const trigger = component(msh, 9, 2);
  const controlId = component(msh, 10, 1);
  if (!controlId) throw new Hl7Failure('AR', 'required_field_missing', { segment: 'MSH', sequence: 1, field: 10 }, 'MSH-10 (message control id) is required');
  if (!SUPPORTED[type]) throw new Hl7Failure('AR', 'unsupported_message_type', { segment: 'MSH', sequence: 1, field: 9, component: 1 }, `MSH-9 message type ${JSON.stringify(type)} is not accepted; this listener takes ${Object.keys(SUPPORTED).join(', ')}`);
  if (!SUPPORTED[type]!.includes(trigger)) {
    throw new Hl7Failure('AR', 'unsupported_event_code', { segment: 'MSH', sequence: 1, field: 9, component: 2 }, `MSH-9 event ${JSON.stringify(trigger)} is not supported for ${type}; supported: ${SUPPORTED[type]!.join(', ')}`);
  }
  const adt = type === 'ADT';
  const reading = new Hl7Reading(component(msh, 3, 1) || '-', component(msh, 4, 1), offsetOf(component(msh, 7, 1)), message.segments);
  const pid = required(message, 'PID');
  const pv1 = message.getSegment('PV1');
  if (!pv1 && adt && ACTIVE_AFTER[trigger] !== 'keep') required(message, 'PV1');

  const pv1Facility = pv1 ? component(pv1, 3, 4, 0, 0) : '';
  const mshFacility = component(msh, 4, 1);
  const facilityCode = pv1Facility || mshFacility || boundFacilityCode;
  if (!facilityCode) throw fieldError('required_field_missing', 'PV1', 3, 'the facility is missing: PV1-3.4 (assigned location facility) or else MSH-4 (sending facility) must name it (or the source be bound to one facility, MLLP_SOURCE_FACILITIES)', 4);

  const { match, patient, problem } = patientOfPid(pid, reading);
  if (problem && adt) throw problem;
  const resident = residentReference(match);
  const messageTime = component(msh, 7, 1);
  const mrg = trigger === 'A40' ? required(message, 'MRG') : undefined;

  const records: RecordChange[] = [];
  const at = (segment: Hl7Segment) => `${segment.name} #${reading.sequenceOf(segment)}`;
  const add = (segment: Hl7Segment, record: MappedRecord | undefined) => {
    if (record) records.push({ ...record, at: at(segment) });
    return record !== undefined;
  };
  // Per list type: whether it is stated in full (segments present, none dropped, no action codes).
  const lists = new Map<ListType, { full: boolean }>();
  const listed = (type: ListType, kept: boolean, action = '') => {
    const list = lists.get(type) ?? { full: true };
    if (!kept || action !== '') list.full = false;
    lists.set(type, list);
  };

  let orc: Hl7Segment | undefined;
  let obr: Hl7Segment | undefined;
  let medicationDetail: Hl7Segment | undefined;
  // The OBR being read and its results: a DiagnosticReport once its OBX are read (ORU; an
  // order message's OBR only when it carries results).
  let report: ReportDraft | undefined;
  const flushReport = () => {
    if (report && (type === 'ORU' || report.results.length > 0 || report.narrative.length > 0)) {
      const draft = report;
      add(draft.obr, reading.keep(draft.obr, () => diagnosticReportOf(draft, match, resident, reading, messageTime)));
    }
    report = undefined;
  };
  const flushMedication = () => {
    if (orc && medicationDetail) add(medicationDetail, reading.keep(medicationDetail, () => orderOf('MedicationRequest', orc, medicationDetail!, resident, reading)));
    medicationDetail = undefined;
  };
  const segments = message.segments;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    switch (segment.name) {
      case 'IN1': {
        if (isExplicitNull(segment, 3)) {
          listed('Coverage', true);
          break;
        }
        const in2 = segments[i + 1]?.name === 'IN2' ? segments[i + 1] : undefined;
        listed('Coverage', add(segment, reading.keep(segment, () => coverageOfIn1(segment, in2, resident, reading, today))));
        break;
      }
      case 'AL1':
      case 'IAM': {
        if (isExplicitNull(segment, 3)) {
          listed('AllergyIntolerance', true);
          break;
        }
        const allergy = reading.keep(segment, () => allergyOf(segment, match, resident, reading));
        listed('AllergyIntolerance', add(segment, allergy), segment.name === 'IAM' ? 'IAM' : '');
        break;
      }
      case 'DG1': {
        if (isExplicitNull(segment, 3)) {
          listed('Condition', true);
          break;
        }
        const condition = reading.keep(segment, () => conditionOfDg1(segment, match, resident, reading));
        listed('Condition', add(segment, condition), condition?.action ?? '');
        break;
      }
      case 'ORC':
        flushMedication();
        flushReport();
        orc = segment;
        obr = undefined;
        break;
      case 'OBR':
        flushReport();
        obr = segment;
        report = { orc, obr: segment, results: [], narrative: [] };
        if (type === 'ORM' || type === 'OML') add(segment, reading.keep(segment, () => orderOf('ServiceRequest', orc, segment, resident, reading)));
        break;
      case 'RXO':
        medicationDetail ??= segment;
        break;
      case 'RXE':
        medicationDetail = segment;
        break;
      case 'OBX': {
        // A narrative report: text lines without an identifier are the report's text, not results.
        if (report && component(segment, 3, 1) === '' && ['TX', 'FT', 'ST', ''].includes(component(segment, 2, 1).toUpperCase())) {
          report.narrative.push(...narrativeLines(segment));
          break;
        }
        const order = reading.keep(segment, () => orderIdentifiers(orc, obr, reading).map((id) => `${id.system}|${id.value}`).reverse()[0] ?? '') ?? '';
        const orderTime = obr ? component(obr, 7, 1) : '';
        const observation = reading.keep(segment, () => observationOfObx(segment, match, resident, reading, { order, orderTime, messageTime, underOrder: obr !== undefined }));
        if (add(segment, observation) && report) report.results.push(observation!.identifier);
        break;
      }
      case 'PID':
        if (segment !== pid) reading.warn(new Hl7Failure('AE', 'segment_sequence', { segment: 'PID', sequence: reading.sequenceOf(segment) }, 'a second patient in one message is not applied; send one message per patient'));
        break;
      default:
    }
    if (segment.name === 'PID' && segment !== pid) break;
  }
  flushMedication();
  flushReport();
  // A dropped item, or a message that is not ADT: the list is not known in full.
  const snapshots = adt
    ? [...lists].filter(([, list]) => list.full).map(([type]) => ({ type, system: reading.systemOf(type === 'Coverage' ? 'coverage' : type === 'Condition' ? 'condition' : 'allergy') }))
    : [];
  return {
    messageType: type,
    event: trigger,
    controlId,
    sendingApplication: component(msh, 3, 1) || '-',
    facilityCode,
    facilityCodeAt: pv1Facility ? 'PV1-3.4' : mshFacility ? 'MSH-4' : 'source',
    active: adt ? ACTIVE_AFTER[trigger]! : 'keep',
    demographics: adt ? 'update' : 'if-new',
    ...(patient ? { patient: { ...patient, active: ACTIVE_AFTER[trigger] === false ? false : true } } : {}),
    ...(problem ? { patientProblem: problem } : {}),
    match,
    ...(mrg ? { replaces: priorIdentifierOfMrg(mrg, reading) } : {}),
    records,
    snapshots,
    warnings: reading.warnings,
  };
}
