// OBX-5 (observation value) by its type OBX-2, as the v2-to-FHIR IG's OBX map reads it:
//   NM        -> valueQuantity: the number; `unit` as sent (OBX-6 text, else its code); system
//                and code UCUM where OBX-6 says UCUM or its code is valid UCUM (ucum-units.ts).
//                A number written with a comparator (`<5`, as labs do in NM) keeps it.
//   SN        -> valueQuantity with `comparator` (`<^5`), valueRange (`^1^-^5`), valueRatio
//                (`^1^:^128`, `^1^/^2`); any other form as its text.
//   CWE/CE/CNE/CF -> valueCodeableConcept.
//   ST/TX/FT and other text types -> valueString (TX and FT repetitions are lines).
import type { Hl7Segment } from '@medplum/core';
import { UCUM_SYSTEM, isUcumCode } from '../../ingest/ucum-units.js';
import { fieldError } from '../hl7-failure.js';
import { codeableConcept, component, repetitions } from '../hl7-fields.js';
import type { Hl7Reading } from '../hl7-reading.js';

const SENDER_SAYS_UCUM = new Set(['UCUM', 'ANS+']);
const TEXT_TYPES = new Set(['ST', 'TX', 'FT', 'TS', 'DT', 'DTM', 'TM', 'ID', 'IS', 'NA', 'CX', 'XCN', 'XPN', 'XAD', 'XTN', 'RP', 'ED', 'SI']);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const COMPARATORS = new Set(['<', '<=', '>', '>=']);

export interface ResultQuantity {
  value: number;
  comparator?: string;
  unit?: string;
  system?: string;
  code?: string;
}

/** The unit of OBX-6 as a Quantity's unit, system and code: `{}` when OBX-6 is empty. */
export function unitOfObx(obx: Hl7Segment): Omit<ResultQuantity, 'value'> {
  const code = component(obx, 6, 1);
  const label = component(obx, 6, 2) || code;
  if (!label) return {};
  const ucum = code !== '' && (SENDER_SAYS_UCUM.has(component(obx, 6, 3).toUpperCase()) || isUcumCode(code));
  return ucum ? { unit: label, system: UCUM_SYSTEM, code } : { unit: label };
}

export const numberOf = (text: string): number | undefined => (NUMBER.test(text) ? Number(text) : undefined);

function structuredNumeric(obx: Hl7Segment, unit: Omit<ResultQuantity, 'value'>): Record<string, unknown> {
  const [comparator, first, separator, second] = [1, 2, 3, 4].map((c) => component(obx, 5, c)) as [string, string, string, string];
  const text = `${comparator}${first}${separator}${second}`.trim();
  if (!text) throw fieldError('data_type_error', 'OBX', 5, 'OBX-5 of type SN is empty');
  const a = numberOf(first);
  const b = numberOf(second);
  if (a !== undefined && !separator && !second && (comparator === '' || comparator === '=' || COMPARATORS.has(comparator))) {
    return { valueQuantity: { value: a, ...(COMPARATORS.has(comparator) ? { comparator } : {}), ...unit } };
  }
  if (a !== undefined && b !== undefined && !comparator) {
    if (separator === '-') return { valueRange: { low: { value: a, ...unit }, high: { value: b, ...unit } } };
    if (separator === ':' || separator === '/') return { valueRatio: { numerator: { value: a }, denominator: { value: b } } };
  }
  return { valueString: unit.unit ? `${text} ${unit.unit}` : text };
}

export function valueOfObx(obx: Hl7Segment, reading: Hl7Reading): Record<string, unknown> {
  const type = component(obx, 2, 1).toUpperCase();
  const count = repetitions(obx, 5);
  if (count === 0) throw fieldError('required_field_missing', 'OBX', 5, 'OBX-5 (observation value) is empty (a result not yet known): nothing to keep');
  if (count > 1 && type !== 'FT' && type !== 'TX') reading.warn(fieldError('data_type_error', 'OBX', 5, `OBX-5 holds ${count} repetitions; only the first is kept`));
  const first = component(obx, 5, 1);
  if (type === 'NM') {
    const compared = /^(<=|>=|<|>)\s*(.+)$/.exec(first);
    const number = numberOf(compared ? compared[2]! : first);
    if (number === undefined) throw fieldError('data_type_error', 'OBX', 5, `OBX-5 of type NM must be a number; got ${JSON.stringify(first)}`);
    return { valueQuantity: { value: number, ...(compared ? { comparator: compared[1] } : {}), ...unitOfObx(obx) } };
  }
  if (type === 'SN') return structuredNumeric(obx, unitOfObx(obx));
  if (type === 'CWE' || type === 'CE' || type === 'CNE' || type === 'CF') {
    const concept = codeableConcept(obx, 5, reading.sendingApplication);
    if (!concept) throw fieldError('data_type_error', 'OBX', 5, `OBX-5 of type ${type} has no code or text`);
    return { valueCodeableConcept: concept };
  }
  if (TEXT_TYPES.has(type) || type === '') {
    const text = narrativeOf(obx, type);
    if (!text) throw fieldError('required_field_missing', 'OBX', 5, 'OBX-5 (observation value) is empty: nothing to keep');
    return { valueString: text.slice(0, 20_000) };
  }
  throw fieldError('table_value_not_found', 'OBX', 2, `OBX-2 value type ${JSON.stringify(type)} is not one ofctx keeps (NM, SN, ST, TX, FT, CWE, CE, CNE)`);
}

/** The lines of a narrative OBX (each repetition of OBX-5 a line; an empty OBX-5 a blank line). */
export function narrativeLines(obx: Hl7Segment): string[] {
  const type = component(obx, 2, 1).toUpperCase();
  const count = repetitions(obx, 5);
  if (count === 0) return [''];
  if (type === 'FT' || type === 'TX') return Array.from({ length: count }, (_, r) => component(obx, 5, 1, r));
  return [component(obx, 5, 1)];
}

/** OBX-5 as text: narrative types repeat for paragraphs (one line each); the others as the sender wrote them. */
export function narrativeOf(obx: Hl7Segment, type = component(obx, 2, 1).toUpperCase()): string {
  if (type === 'FT' || type === 'TX') return Array.from({ length: repetitions(obx, 5) }, (_, r) => component(obx, 5, 1, r)).join('\n').trim();
  return (obx.getField(5)?.toString() ?? '').trim();
}
