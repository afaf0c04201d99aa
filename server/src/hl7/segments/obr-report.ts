// OBR with its OBX -> FHIR R4 DiagnosticReport (the v2-to-FHIR IG's OBR map; US Core
// DiagnosticReport for Laboratory Results): identifiers the placer and filler numbers (ORC-2/3,
// else OBR-2/3), `basedOn` the ServiceRequest of the placer number (resolved when read, when
// ofctx holds it), status OBR-25 (table 0123), code OBR-4, category OBR-24 (table 0074, LAB
// when empty), effective OBR-7 (else MSH-7), issued OBR-22, `result` the Observations of its
// OBX, and a narrative report (TX/FT OBX without OBX-3: an echo, a radiology read) as
// `presentedForm` (text/plain, its lines in order) and `conclusion`. Matched on the resident,
// the order (filler number, else placer's, else OBR-7) and OBR-4, as an identifier of ofctx's
// own (not rendered): a corrected report is a new version of the same DiagnosticReport, and
// the several OBR of one order (a newborn screen's 15 panels) are several reports.
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier } from '../../ingest/change-set.js';
import { fieldError } from '../hl7-failure.js';
import { codeableConcept, component, hl7DateTime } from '../hl7-fields.js';
import { derivedValue, type Hl7Reading } from '../hl7-reading.js';
import type { MappedRecord } from './in1-segment.js';
import { orderIdentifiers } from './order-segments.js';

/** HL7 table 0123 (result status) -> R4 DiagnosticReportStatus. */
const STATUSES: Record<string, string> = {
  O: 'registered', I: 'registered', S: 'registered', A: 'partial', P: 'preliminary', R: 'preliminary', F: 'final', C: 'corrected', X: 'cancelled', Y: 'unknown', Z: 'unknown', D: 'entered-in-error',
};
/** HL7 table 0074 (diagnostic service section), the common ones. */
const SECTIONS: Record<string, string> = {
  LAB: 'Laboratory', CH: 'Chemistry', HM: 'Hematology', MB: 'Microbiology', SR: 'Serology', IMM: 'Immunology', BLB: 'Blood Bank', CP: 'Cytopathology', PAT: 'Pathology (gross & histopath, not surgical)',
  SP: 'Surgical Pathology', URN: 'Urinalysis', TX: 'Toxicology', VR: 'Virology', MCB: 'Mycobacteriology', GE: 'Genetics', RAD: 'Radiology', CT: 'CAT Scan', US: 'Ultrasound', NMR: 'Nuclear Magnetic Resonance',
  NMS: 'Nuclear Medicine Scan', RX: 'Radiograph', CUS: 'Cardiac Ultrasound', EC: 'Electrocardiac (e.g., EKG, EEC, Holter)', EN: 'Electroneuro (EEG, EMG,EP,PSG)', OTH: 'Other',
};
export const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074';

export interface ReportDraft {
  orc: Hl7Segment | undefined;
  obr: Hl7Segment;
  /** The Observations of its OBX, as their identifiers. */
  results: BusinessIdentifier[];
  /** The narrative report's lines (TX/FT OBX without OBX-3), in order. */
  narrative: string[];
}

const conditional = (type: string, identifier: BusinessIdentifier) => `${type}?identifier=${encodeURIComponent(identifier.system)}|${encodeURIComponent(identifier.value)}`;

function instantOf(value: string, field: number, reading: Hl7Reading): string {
  const time = hl7DateTime(value, 'OBR', field, reading.offset);
  // A day without a time: midnight in the sender's zone (as OBX-14).
  if (time.length === 10) return `${time}T00:00:00${reading.offset ? `${reading.offset.slice(0, 3)}:${reading.offset.slice(3)}` : 'Z'}`;
  if (time.length < 10) throw fieldError('data_type_error', 'OBR', field, `OBR-${field} must name at least a day; got ${JSON.stringify(value)}`);
  return time;
}

export function diagnosticReportOf(draft: ReportDraft, residentMatch: BusinessIdentifier, resident: string, reading: Hl7Reading, messageTime: string): MappedRecord {
  const { orc, obr } = draft;
  const code = codeableConcept(obr, 4, reading.sendingApplication);
  if (!code?.coding?.length) throw fieldError('required_field_missing', 'OBR', 4, 'OBR-4 (universal service identifier) names the report: it needs a code');
  const observed = component(obr, 7, 1);
  const effective = (observed ? reading.leaveOut(obr, () => instantOf(observed, 7, reading)) : undefined) ?? (messageTime ? instantOf(messageTime, 7, reading) : undefined);
  if (!effective) throw fieldError('required_field_missing', 'OBR', 7, 'OBR-7 (observation date/time) is required, or MSH-7');
  const reported = component(obr, 22, 1);
  const issued = reported ? reading.leaveOut(obr, () => instantOf(reported, 22, reading)) : undefined;
  const section = component(obr, 24, 1).toUpperCase() || 'LAB';
  const display = SECTIONS[section];
  const identifiers = orderIdentifiers(orc, obr, reading);
  const placer = identifiers.find((i) => i.system.includes(':placer-order:'));
  const filler = identifiers.find((i) => i.system.includes(':filler-order:'));
  // One order may have several OBR (a newborn screen's 15 panels under one filler number): each is its own report.
  const order = filler ?? placer;
  const match = { system: reading.systemOf('diagnostic-report'), value: derivedValue(residentMatch, order ? `${order.system}|${order.value}` : effective, code.coding[0]!.system, code.coding[0]!.code) };
  const text = draft.narrative.join('\n').replace(/^\s*\n/, '').trimEnd();
  return {
    identifier: match,
    resource: {
      resourceType: 'DiagnosticReport',
      ...(identifiers.length ? { identifier: identifiers } : {}),
      ...(placer ? { basedOn: [{ reference: conditional('ServiceRequest', placer) }] } : {}),
      status: STATUSES[component(obr, 25, 1).toUpperCase()] ?? 'unknown',
      category: [{ coding: [{ system: V2_0074, code: section.slice(0, 64), ...(display ? { display } : {}) }], ...(display ? { text: display } : {}) }],
      code,
      subject: { reference: resident },
      effectiveDateTime: effective,
      ...(issued ? { issued } : {}),
      ...(draft.results.length ? { result: draft.results.map((r) => ({ reference: conditional('Observation', r) })) } : {}),
      ...(text ? { conclusion: text, presentedForm: [{ contentType: 'text/plain', data: Buffer.from(text, 'utf8').toString('base64') }] } : {}),
    },
  };
}
