// Reading HL7 v2 fields as the segment mappers need them: a component as unescaped text, the
// repetitions of a field, a coded element (CE/CWE/CNE) as a FHIR CodeableConcept, and a
// date/time (DTM/TS) as a FHIR dateTime. @medplum/core's Hl7Message splits the message; these
// give its pieces meaning, after HL7 v2.5.1 chapter 2A and the v2-to-FHIR IG's datatype maps.
import type { Hl7Segment } from '@medplum/core';
import { fieldError } from './hl7-failure.js';
import { unescapeHl7 } from './hl7-text.js';

/** Component `comp` (1-based) of repetition `repetition` (0-based), subcomponent `sub` (0-based), unescaped and trimmed. */
export function component(segment: Hl7Segment, field: number, comp: number, repetition = 0, sub?: number): string {
  const f = segment.getField(field);
  if (!f || repetition >= f.components.length) return '';
  return unescapeHl7(f.getComponent(comp, sub, repetition) ?? '', segment.context).trim();
}

/** How many repetitions field `field` holds (0 when absent or empty). */
export function repetitions(segment: Hl7Segment, field: number): number {
  const f = segment.getField(field);
  if (!f) return 0;
  const n = f.components.length;
  return n === 1 && f.components[0]!.every((c) => c === '') ? 0 : n;
}

/** HL7's explicit null (`""`): "delete the value the receiver holds". */
export function isExplicitNull(segment: Hl7Segment, field: number): boolean {
  const f = segment.getField(field);
  return f !== undefined && f.toString() === '""';
}

/** HL7 table 0396 coding system names -> FHIR code system URIs (v2-to-FHIR IG, and HL7 terminology). */
const CODE_SYSTEMS: Record<string, string> = {
  LN: 'http://loinc.org',
  LOINC: 'http://loinc.org',
  SCT: 'http://snomed.info/sct',
  SNM: 'http://snomed.info/sct',
  SNOMED: 'http://snomed.info/sct',
  SNOMEDCT: 'http://snomed.info/sct',
  I10: 'http://hl7.org/fhir/sid/icd-10',
  'I10C': 'http://hl7.org/fhir/sid/icd-10-cm',
  'ICD10CM': 'http://hl7.org/fhir/sid/icd-10-cm',
  I9: 'http://hl7.org/fhir/sid/icd-9-cm',
  I9C: 'http://hl7.org/fhir/sid/icd-9-cm',
  NDC: 'http://hl7.org/fhir/sid/ndc',
  RXNORM: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  RXN: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  CVX: 'http://hl7.org/fhir/sid/cvx',
  CPT: 'http://www.ama-assn.org/go/cpt',
  C4: 'http://www.ama-assn.org/go/cpt',
  UCUM: 'http://unitsofmeasure.org',
  'ANS+': 'http://unitsofmeasure.org',
  NCI: 'http://ncithesaurus-stage.nci.nih.gov',
  UNII: 'http://fdasis.nlm.nih.gov',
};

/**
 * A coding system name as a FHIR system: table 0396's names, HL7 tables (`HL70078`) as
 * terminology.hl7.org's v2 code systems, an OID as urn:oid:, and any other (local, `L`,
 * `99zzz`, or none) under a URN of the sending application, so local codes of two senders
 * never collide.
 */
export function codeSystemUri(name: string, sender: string): string {
  const upper = name.toUpperCase();
  if (CODE_SYSTEMS[upper]) return CODE_SYSTEMS[upper]!;
  const table = /^HL7(\d{4})$/.exec(upper);
  if (table) return `http://terminology.hl7.org/CodeSystem/v2-${table[1]}`;
  if (/^[0-2](\.\d+)+$/.test(name)) return `urn:oid:${name}`;
  return `urn:ofctx:hl7v2:code-system:${encodeURIComponent(sender)}:${encodeURIComponent(name || 'local')}`;
}

export interface Coding {
  system: string;
  code: string;
  display?: string;
}

export interface CodeableConcept {
  coding?: Coding[];
  text?: string;
}

/**
 * A CE/CWE/CNE field (one repetition): the primary triplet (.1-.3), then the alternate
 * (.4-.6), each a coding when it has a code; `text` from CWE.9 (original text), else the
 * first display. Undefined when the field holds neither a code nor a text.
 */
export function codeableConcept(segment: Hl7Segment, field: number, sender: string, repetition = 0): CodeableConcept | undefined {
  const coding: Coding[] = [];
  for (const start of [1, 4]) {
    const code = component(segment, field, start, repetition);
    const display = component(segment, field, start + 1, repetition);
    if (!code) continue;
    // Displays are labels: a long one is shortened rather than losing the code it names.
    coding.push({ system: codeSystemUri(component(segment, field, start + 2, repetition), sender), code, ...(display ? { display: display.slice(0, 200) } : {}) });
  }
  const text = (component(segment, field, 9, repetition) || component(segment, field, 2, repetition) || component(segment, field, 5, repetition)).slice(0, 200);
  if (coding.length === 0 && !text) return undefined;
  return { ...(coding.length ? { coding } : {}), ...(text ? { text } : {}) };
}

/**
 * A DTM/TS value as a FHIR dateTime. With a time it needs a zone: the value's own offset,
 * else `defaultOffset` (MSH-7's, as HL7 v2.5.1 2A.22 says a time without one is in the
 * sender's zone), else UTC. Date-only and partial values stay dates (YYYY, YYYY-MM, YYYY-MM-DD).
 */
export function hl7DateTime(value: string, segment: string, field: number, defaultOffset = ''): string {
  const match = /^(\d{4})(\d{2})?(\d{2})?(?:(\d{2})(\d{2})?(\d{2})?(?:\.(\d{1,4}))?)?([+-]\d{4})?$/.exec(value);
  if (!match) throw fieldError('data_type_error', segment, field, `${segment}-${field} must be a date/time YYYYMMDD[HHMM[SS[.S]]][+/-ZZZZ]; got ${JSON.stringify(value)}`);
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const date = [year, month, day].filter(Boolean).join('-');
  if (month && (Number(month) < 1 || Number(month) > 12)) throw fieldError('data_type_error', segment, field, `${segment}-${field} has no month ${month}`);
  if (day && new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) throw fieldError('data_type_error', segment, field, `${segment}-${field} is not a calendar date: ${JSON.stringify(value)}`);
  if (!hour) return date;
  if (!day) throw fieldError('data_type_error', segment, field, `${segment}-${field} has a time without a day`);
  if (Number(hour) > 23 || Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) throw fieldError('data_type_error', segment, field, `${segment}-${field} is not a time of day: ${JSON.stringify(value)}`);
  const zone = offset ?? defaultOffset;
  const z = zone ? `${zone.slice(0, 3)}:${zone.slice(3)}` : 'Z';
  return `${date}T${hour}:${minute ?? '00'}:${second ?? '00'}${fraction ? `.${fraction}` : ''}${z}`;
}

/** The zone offset of MSH-7 (`+0215`), or '' when it has none. */
export function offsetOf(value: string): string {
  return /([+-]\d{4})$/.exec(value)?.[1] ?? '';
}
