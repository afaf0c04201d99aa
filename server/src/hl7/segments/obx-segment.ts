// OBX -> FHIR R4 Observation (the v2-to-FHIR IG's OBX map): code OBX-3, value OBX-5 by its
// type OBX-2 (NM: valueQuantity when OBX-6 is a UCUM unit, else the number and unit as text;
// SN: the structured number as text; CWE/CE/CNE: valueCodeableConcept; ST/TX/FT and other
// text types: valueString), status OBX-11 (table 0085), effective time OBX-14, else the
// order's OBR-7, else MSH-7. The vital-sign category is the R4 view's, from the LOINC code.
// Identified by the resident, the order it answers (filler, else placer number) and OBX-3 +
// OBX-4 (sub-id, whole: newborn screening writes `^1^1`): a corrected result (OBX-11 C) updates the same Observation.
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier } from '../../ingest/change-set.js';
import { fieldError } from '../hl7-failure.js';
import { codeableConcept, component, hl7DateTime, repetitions } from '../hl7-fields.js';
import { derivedValue, type Hl7Reading } from '../hl7-reading.js';
import type { MappedRecord } from './in1-segment.js';

/** HL7 table 0085 (observation result status) -> R4 ObservationStatus. */
const STATUSES: Record<string, string> = {
  F: 'final', U: 'final', C: 'corrected', A: 'amended', P: 'preliminary', S: 'preliminary', R: 'preliminary',
  I: 'registered', O: 'registered', X: 'cancelled', D: 'entered-in-error', W: 'entered-in-error', N: 'unknown',
};
const UCUM_SYSTEMS = new Set(['UCUM', 'ANS+']);
const TEXT_TYPES = new Set(['ST', 'TX', 'FT', 'TS', 'DT', 'DTM', 'TM', 'ID', 'IS', 'NA', 'CX', 'XCN', 'XPN', 'XAD', 'XTN', 'RP', 'ED', 'SI']);

function value(obx: Hl7Segment, reading: Hl7Reading): Record<string, unknown> {
  const type = component(obx, 2, 1).toUpperCase();
  const count = repetitions(obx, 5);
  if (count === 0) throw fieldError('required_field_missing', 'OBX', 5, 'OBX-5 (observation value) is empty (a result not yet known): nothing to keep');
  if (count > 1 && type !== 'FT' && type !== 'TX') reading.warn(fieldError('data_type_error', 'OBX', 5, `OBX-5 holds ${count} repetitions; only the first is kept`));
  const first = component(obx, 5, 1);
  if (type === 'NM') {
    const number = Number(first);
    if (first === '' || !Number.isFinite(number)) throw fieldError('data_type_error', 'OBX', 5, `OBX-5 of type NM must be a number; got ${JSON.stringify(first)}`);
    const unit = component(obx, 6, 1);
    const unitSystem = component(obx, 6, 3).toUpperCase();
    if (unit && UCUM_SYSTEMS.has(unitSystem)) return { valueQuantity: { value: number, unit: component(obx, 6, 2) || unit, system: 'http://unitsofmeasure.org', code: unit } };
    return { valueString: unit ? `${first} ${component(obx, 6, 2) || unit}` : first };
  }
  if (type === 'SN') {
    const parts = [1, 2, 3, 4].map((c) => component(obx, 5, c));
    const text = `${parts[0]}${parts[1]}${parts[2]}${parts[3]}`.trim();
    if (!text) throw fieldError('data_type_error', 'OBX', 5, 'OBX-5 of type SN is empty');
    const unit = component(obx, 6, 2) || component(obx, 6, 1);
    return { valueString: unit ? `${text} ${unit}` : text };
  }
  if (type === 'CWE' || type === 'CE' || type === 'CNE' || type === 'CF') {
    const concept = codeableConcept(obx, 5, reading.sendingApplication);
    if (!concept) throw fieldError('data_type_error', 'OBX', 5, `OBX-5 of type ${type} has no code or text`);
    return { valueCodeableConcept: concept };
  }
  if (TEXT_TYPES.has(type) || type === '') {
    const f = obx.getField(5)!;
    // Narrative types repeat for paragraphs; the others are read as the sender wrote them.
    const text = type === 'FT' || type === 'TX' ? Array.from({ length: count }, (_, r) => component(obx, 5, 1, r)).join('\n').trim() : f.toString().trim();
    if (!text) throw fieldError('required_field_missing', 'OBX', 5, 'OBX-5 (observation value) is empty: nothing to keep');
    return { valueString: text.slice(0, 20_000) };
  }
  throw fieldError('table_value_not_found', 'OBX', 2, `OBX-2 value type ${JSON.stringify(type)} is not one ofctx keeps (NM, SN, ST, TX, FT, CWE, CE, CNE)`);
}

/** `order` names the order the result answers (OBR filler or placer number), '' outside one. */
export function observationOfObx(obx: Hl7Segment, residentMatch: BusinessIdentifier, resident: string, reading: Hl7Reading, context: { order: string; orderTime: string; messageTime: string }): MappedRecord {
  const code = codeableConcept(obx, 3, reading.sendingApplication);
  // An alternate LOINC coding (CWE.4-6) is what partners search by: put it first.
  const coding = code?.coding ? [...code.coding].sort((a, b) => Number(b.system === 'http://loinc.org') - Number(a.system === 'http://loinc.org')) : undefined;
  if (!code || !coding?.length) throw fieldError('required_field_missing', 'OBX', 3, 'OBX-3 (observation identifier) needs a code');
  const status = STATUSES[component(obx, 11, 1).toUpperCase()] ?? 'unknown';
  const when = component(obx, 14, 1) || context.orderTime || context.messageTime;
  if (!when) throw fieldError('required_field_missing', 'OBX', 14, 'OBX-14 (date/time of the observation) is required, or OBR-7 or MSH-7');
  let effective = hl7DateTime(when, 'OBX', 14, reading.offset);
  // A day without a time: midnight in the sender's zone (the row keeps an instant).
  if (effective.length === 10) effective = `${effective}T00:00:00${reading.offset ? `${reading.offset.slice(0, 3)}:${reading.offset.slice(3)}` : 'Z'}`;
  if (effective.length < 10) throw fieldError('data_type_error', 'OBX', 14, `OBX-14 must name at least a day; got ${JSON.stringify(when)}`);
  const identifier = { system: reading.systemOf('observation'), value: derivedValue(residentMatch, context.order || effective, coding[0]!.system, coding[0]!.code, obx.getField(4)?.toString() ?? '') };
  return {
    identifier,
    resource: {
      resourceType: 'Observation',
      identifier: [identifier],
      status,
      code: { ...code, coding },
      subject: { reference: resident },
      effectiveDateTime: effective,
      ...value(obx, reading),
    },
  };
}
