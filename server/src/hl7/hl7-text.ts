// Values of HL7 v2 fields as text and dates. @medplum/core's Hl7Message splits a message into
// segments, fields, repetitions and components but leaves escape sequences as sent; HL7 v2.5.1
// section 2.7 defines them, and a name like "O\T\Brien" must reach the Patient as "O&Brien".
import type { Hl7Context } from '@medplum/core';
import { fieldError } from './hl7-failure.js';

/** Decodes HL7 escape sequences (\F\ \S\ \T\ \R\ \E\ \Xhh\); formatting ones (\H\, \N\, \.br\) are dropped. */
export function unescapeHl7(value: string, context: Hl7Context): string {
  const e = context.escapeCharacter;
  if (!value.includes(e)) return value;
  let out = '';
  let i = 0;
  while (i < value.length) {
    const ch = value[i]!;
    if (ch !== e) {
      out += ch;
      i++;
      continue;
    }
    const end = value.indexOf(e, i + 1);
    if (end === -1) {
      out += value.slice(i);
      break;
    }
    const sequence = value.slice(i + 1, end);
    switch (sequence) {
      case 'F':
        out += context.fieldSeparator;
        break;
      case 'S':
        out += context.componentSeparator;
        break;
      case 'T':
        out += context.subcomponentSeparator;
        break;
      case 'R':
        out += context.repetitionSeparator;
        break;
      case 'E':
        out += e;
        break;
      default:
        if (/^X([0-9A-Fa-f]{2})+$/.test(sequence)) out += Buffer.from(sequence.slice(1), 'hex').toString('latin1');
      // \H\, \N\, \.br\ and other formatting: no text of their own.
    }
    i = end + 1;
  }
  return out;
}

/**
 * MSH-1 and MSH-2 as HL7 requires them: five different separator characters, none a letter,
 * digit or line break. A message that breaks this cannot be read reliably at all.
 */
export function checkEncodingCharacters(text: string): string | undefined {
  const chars = text.slice(3, 8);
  const msh2End = text.indexOf(chars[0] ?? '|', 4);
  if (chars.length < 5) return 'MSH-1/MSH-2 are incomplete: a message starts MSH|^~\\&|';
  if (msh2End !== 8) return `MSH-2 must be exactly the four encoding characters (such as ^~\\&); got ${JSON.stringify(text.slice(4, msh2End === -1 ? 9 : msh2End))}`;
  if (new Set(chars).size !== 5) return `MSH-1/MSH-2 must be five different characters; got ${JSON.stringify(chars)}`;
  if (/[A-Za-z0-9\r\n ]/.test(chars)) return `MSH-1/MSH-2 may not contain letters, digits, spaces or line breaks; got ${JSON.stringify(chars)}`;
  return undefined;
}

/** An HL7 DT/DTM birth date (YYYYMMDD[HHMM[SS]][+ZZZZ]) as a FHIR date; partial dates are refused. */
export function hl7Date(value: string, segment: string, field: number): string {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2}(\d{2}(\d{2}(\.\d{1,4})?)?)?)?([+-]\d{4})?$/.exec(value);
  if (!match) throw fieldError('data_type_error', segment, field, `${segment}-${field} must be a date YYYYMMDD; got ${JSON.stringify(value)}`);
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw fieldError('data_type_error', segment, field, `${segment}-${field} is not a calendar date: ${JSON.stringify(value)}`);
  }
  return date;
}
