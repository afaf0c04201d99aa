// OBX -> FHIR R4 Observation (the v2-to-FHIR IG's OBX map, US Core's Laboratory Result
// Observation): code OBX-3, value OBX-5 by its type OBX-2 (obx-value.ts), referenceRange OBX-7
// (obx-reference-range.ts), interpretation OBX-8 (obx-interpretation.ts), status OBX-11 (table
// 0085), effective time OBX-14, else the order's OBR-7, else MSH-7, issued OBX-19. A result
// under an OBR is in category `laboratory`, unless its LOINC code is a vital sign (the R4 view
// gives those vital-signs).
// Identified by the resident, the order it answers (filler, else placer number) and OBX-3 +
// OBX-4 (sub-id, whole: newborn screening writes `^1^1`): a corrected result (OBX-11 C) updates the same Observation.
// A result stored before 2026-11-29 is found by the value derived then (`formerly`, hl7-reading.ts).
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier } from '../../ingest/change-set.js';
import { fieldError } from '../hl7-failure.js';
import { codeableConcept, component, hl7DateTime } from '../hl7-fields.js';
import { groupedDerivedValue, type Hl7Reading } from '../hl7-reading.js';
import { LOINC, OBSERVATION_CATEGORY, VITAL_SIGN_CODES } from '../../resources/r4/observation-codes.js';
import type { MappedRecord } from './in1-segment.js';
import { interpretationOfObx } from './obx-interpretation.js';
import { referenceRangeOfObx } from './obx-reference-range.js';
import { unitOfObx, valueOfObx } from './obx-value.js';

/** HL7 table 0085 (observation result status) -> R4 ObservationStatus. */
const STATUSES: Record<string, string> = {
  F: 'final', U: 'final', C: 'corrected', A: 'amended', P: 'preliminary', S: 'preliminary', R: 'preliminary',
  I: 'registered', O: 'registered', X: 'cancelled', D: 'entered-in-error', W: 'entered-in-error', N: 'unknown',
};
const VITAL_SIGNS = new Set(VITAL_SIGN_CODES);
const LABORATORY = { coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }], text: 'Laboratory' };

/** A time as an instant (issued): with a time of day, else undefined. */
function instantOf(value: string, field: number, reading: Hl7Reading): string | undefined {
  if (!value) return undefined;
  const time = hl7DateTime(value, 'OBX', field, reading.offset);
  return time.length > 10 ? time : undefined;
}

/** `order` names the order the result answers (OBR filler or placer number), '' outside one; `underOrder`: an OBR precedes it. */
export function observationOfObx(obx: Hl7Segment, residentMatch: BusinessIdentifier, resident: string, reading: Hl7Reading, context: { order: string; orderTime: string; messageTime: string; underOrder?: boolean }): MappedRecord {
  const code = codeableConcept(obx, 3, reading.sendingApplication);
  // An alternate LOINC coding (CWE.4-6) is what partners search by: put it first.
  const coding = code?.coding ? [...code.coding].sort((a, b) => Number(b.system === 'http://loinc.org') - Number(a.system === 'http://loinc.org')) : undefined;
  if (!code || !coding?.length) throw fieldError('required_field_missing', 'OBX', 3, 'OBX-3 (observation identifier) needs a code');
  const status = STATUSES[component(obx, 11, 1).toUpperCase()] ?? 'unknown';
  const effectiveOf = (when: string) => {
    const time = hl7DateTime(when, 'OBX', 14, reading.offset);
    // A day without a time: midnight in the sender's zone (the row keeps an instant).
    if (time.length === 10) return `${time}T00:00:00${reading.offset ? `${reading.offset.slice(0, 3)}:${reading.offset.slice(3)}` : 'Z'}`;
    if (time.length < 10) throw fieldError('data_type_error', 'OBX', 14, `OBX-14 must name at least a day; got ${JSON.stringify(when)}`);
    return time;
  };
  // A malformed OBX-14 is left out (a warning): the order's time stands in, as for an empty one.
  const own = component(obx, 14, 1);
  const fallback = context.orderTime || context.messageTime;
  const effective = (own ? reading.leaveOut(obx, () => effectiveOf(own)) : undefined) ?? (fallback ? effectiveOf(fallback) : undefined);
  if (!effective) throw fieldError('required_field_missing', 'OBX', 14, 'OBX-14 (date/time of the observation) is required, or OBR-7 or MSH-7');
  // Grouped by the order (or the time): one message's results sit together in the identifier indexes.
  const derived = groupedDerivedValue(residentMatch, [context.order || effective], [coding[0]!.system, coding[0]!.code, obx.getField(4)?.toString() ?? ''], reading.groupDigests);
  const identifier = { system: reading.systemOf('observation'), value: derived.value };
  const value = valueOfObx(obx, reading);
  const referenceRange = referenceRangeOfObx(obx, unitOfObx(obx));
  const interpretation = interpretationOfObx(obx);
  const issued = reading.leaveOut(obx, () => instantOf(component(obx, 19, 1), 19, reading));
  const vital = coding[0]!.system === LOINC && VITAL_SIGNS.has(coding[0]!.code);
  return {
    identifier,
    formerly: { system: identifier.system, value: derived.formerly },
    resource: {
      resourceType: 'Observation',
      identifier: [identifier],
      status,
      ...(context.underOrder && !vital ? { category: [LABORATORY] } : {}),
      code: { ...code, coding },
      subject: { reference: resident },
      effectiveDateTime: effective,
      ...(issued ? { issued } : {}),
      ...value,
      ...(interpretation ? { interpretation } : {}),
      ...(referenceRange ? { referenceRange } : {}),
    },
  };
}
