// What applyChangeSet needs to know of each resource type: its table, the element naming its
// resident, how a FHIR R4 resource becomes the row's own columns, and which events a real
// change of those columns means. One file per type beside this one.
import type { ChangeIssue, IngestResource, RecordType } from '../change-set.js';
import type { EventType } from '../../db/event-types.js';

/** The row's own columns (never id, org, facility, resident, version or timestamps). */
export type Columns = Record<string, string | number | boolean | null>;

export type Mapped = { columns: Columns } | { issue: ChangeIssue };

export interface ResourceMapping {
  type: RecordType;
  table: string;
  /** The element holding the Patient reference (`subject`, `beneficiary`...); null for Patient. */
  residentElement: string | null;
  /** A change without a match updates the record of its first identifier, if any (Consent: a later one replaces the earlier). */
  matchOwnIdentifier?: boolean;
  toColumns(resource: IngestResource): Mapped;
  /** Events of a change of a row other than Patient (Patient's depend on its facility too). */
  events(before: Columns | undefined, after: Columns): EventType[];
}

export class MappingIssue extends Error {
  constructor(readonly issue: ChangeIssue) {
    super(issue.diagnostics);
  }
}

export function issue(code: ChangeIssue['code'], diagnostics: string, expression: string): never {
  throw new MappingIssue({ code, diagnostics, expression: [expression] });
}

/** Runs a column mapper, turning its MappingIssue into a rejected change. */
export function mapped(map: () => Columns): Mapped {
  try {
    return { columns: map() };
  } catch (error) {
    if (error instanceof MappingIssue) return { issue: error.issue };
    throw error;
  }
}

type Json = Record<string, unknown>;

export function object(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function requiredText(resource: Json, element: string, type: string): string {
  const value = text(resource[element]);
  if (value === undefined) issue('required', `${type}.${element} is required`, `${type}.${element}`);
  return value;
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    issue('value', `${where} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value ?? null)}`, where);
  }
  return value as T;
}

/** The first coding of a CodeableConcept, as the (system, code, display) columns. */
export function firstCoding(concept: unknown, where: string): { code_system: string; code: string; display: string } {
  const codings = object(concept)?.coding;
  const coding = Array.isArray(codings) ? codings.map(object).find((c) => c && text(c.code) && text(c.system)) : undefined;
  if (!coding) issue('required', `${where} needs a coding with a system and a code`, `${where}.coding`);
  const display = text(coding.display) ?? text(object(concept)?.text) ?? (coding.code as string);
  return { code_system: coding.system as string, code: coding.code as string, display };
}

/**
 * A CodeableConcept as stored (JSON): its codings' system, code and display, and its text;
 * at least a coded coding or a text. Other elements are not kept.
 */
export function storedConcept(value: unknown, where: string): { coding?: Array<{ system?: string; code?: string; display?: string }>; text?: string } {
  const concept = object(value);
  if (!concept) issue('structure', `${where} must be a CodeableConcept`, where);
  const coding = (Array.isArray(concept.coding) ? concept.coding : [])
    .map(object)
    .filter((c): c is Record<string, unknown> => c !== undefined && (text(c.code) !== undefined || text(c.display) !== undefined))
    .map((c) => ({ ...(text(c.system) ? { system: bounded(c.system as string, 200, `${where}.coding.system`) } : {}), ...(text(c.code) ? { code: bounded(c.code as string, 64, `${where}.coding.code`) } : {}), ...(text(c.display) ? { display: bounded(c.display as string, 200, `${where}.coding.display`) } : {}) }));
  const label = text(concept.text);
  if (coding.length === 0 && !label) issue('required', `${where} needs a coding or a text`, where);
  return { ...(coding.length ? { coding } : {}), ...(label ? { text: bounded(label, 200, `${where}.text`) } : {}) };
}

/**
 * The first coding (with a system and a code) of the first `category`, as the category_system,
 * category_code and category_display columns; all null when the resource has none.
 */
export function categoryColumns(resource: Json, type: string): Columns {
  const first = Array.isArray(resource.category) ? resource.category[0] : undefined;
  if (first === undefined) return { category_system: null, category_code: null, category_display: null };
  const coding = firstCoding(first, `${type}.category[0]`);
  return {
    category_system: bounded(coding.code_system, 200, `${type}.category[0].coding[0].system`),
    category_code: bounded(coding.code, 64, `${type}.category[0].coding[0].code`),
    category_display: bounded(coding.display, 200, `${type}.category[0].coding[0].display`),
  };
}

/** FHIR date (YYYY-MM-DD, a real day). Partial dates are refused: the row holds a whole day. */
export function fullDate(value: unknown, where: string): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    issue('value', `${where} must be a full date YYYY-MM-DD; got ${JSON.stringify(value ?? null)}`, where);
  }
  return value;
}

/** FHIR dateTime with a time and zone, stored as ISO 8601 UTC with milliseconds. */
export function instant(value: unknown, where: string): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
    issue('value', `${where} must be a date-time with a zone, such as 2026-01-31T08:15:00Z; got ${JSON.stringify(value ?? null)}`, where);
  }
  return new Date(value).toISOString();
}

/** A business identifier list, as stored: `[{system, value}]` in the sender's order. */
export function identifiers(resource: Json): Array<{ system: string; value: string }> {
  const list = resource.identifier;
  if (list === undefined) return [];
  if (!Array.isArray(list)) issue('structure', `${resource.resourceType as string}.identifier must be an array`, `${resource.resourceType as string}.identifier`);
  return list.map((entry, index) => {
    const where = `${resource.resourceType as string}.identifier[${index}]`;
    const system = text(object(entry)?.system);
    const value = text(object(entry)?.value);
    if (!system || !value) issue('required', `${where} needs a system and a value`, where);
    if (system.length > 300 || value.length > 300) issue('value', `${where} is longer than 300 characters`, where);
    return { system, value };
  });
}

export function bounded(value: string, max: number, where: string): string {
  if (value.length > max) issue('value', `${where} is longer than ${max} characters`, where);
  return value;
}
