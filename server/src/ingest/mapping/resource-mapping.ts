// What applyChangeSet needs to know of each resource type: its table, the element naming its
// resident, how a FHIR R4 resource becomes the row's own columns, and which events a real
// change of those columns means. One file per type beside this one.
import type { ChangeIssue, IngestResource, IngestibleType } from '../change-set.js';
import type { EventType } from '../../webhooks/event-types.js';

/** The row's own columns (never id, org, facility, resident, version or timestamps). */
export type Columns = Record<string, string | number | boolean | null>;

export type Mapped = { columns: Columns } | { issue: ChangeIssue };

export interface ResourceMapping {
  type: IngestibleType;
  table: string;
  /** The element holding the Patient reference (`subject`, `beneficiary`...); null for Patient. */
  residentElement: string | null;
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
