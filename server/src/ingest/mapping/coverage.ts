// FHIR R4 Coverage -> coverage row. The payor is kept by name (the contract answers
// `Organization/<payer name>`): its display, or the id of an `Organization/...` reference;
// its identifier's value, when it has one, beside it (a 271 or a payer-scoped partner
// names the payer by either).
//
// What an X12 270 needs beside (migration 032 has the column semantics):
//   type          coverage_type          the CodeableConcept (storedConcept: codings and text)
//   class[]       classes                [{type, value, name?}], type the code of the class's
//                                        coverage-class coding (group, plan, ...), as sent
//   relationship  relationship           the code of its subscriber-relationship coding;
//                                        another system or an unknown code is refused
//   subscriber    subscriber_name,       only a subscriber who is not the beneficiary:
//                 _birth_date, _gender   - a reference to the beneficiary (the same reference
//                                          or identifier): the resident is the subscriber, the
//                                          three are null, and relationship is `self` (given
//                                          when the sender left it out; another is refused)
//                                        - `#id`: a contained RelatedPerson (or Patient): its
//                                          first official/usual name (else its first), its
//                                          birthDate (a partial date is not kept: a 270's DMG
//                                          needs a day) and gender
//                                        - anything else (display only, identifier only, a
//                                          reference to another resource, which this mapping
//                                          cannot read): what it can say, its display as a
//                                          name when written "Family, Given ..." (the
//                                          common display of a person); no guess otherwise
// A contained subscriber with relationship `self` is refused: the 270 would ask for the wrong
// person. Any other subscriber with relationship `self` is taken as the resident.
import type { EventType } from '../../db/event-types.js';
import { bounded, fullDate, instant, issue, mapped, object, oneOf, storedConcept, text, type Columns, type ResourceMapping } from './resource-mapping.js';

const STATUSES = ['active', 'cancelled', 'draft', 'entered-in-error'] as const;
export const COVERAGE_CLASS_SYSTEM = 'http://terminology.hl7.org/CodeSystem/coverage-class';
export const CLASS_TYPES = ['group', 'subgroup', 'plan', 'subplan', 'class', 'subclass', 'sequence', 'rxbin', 'rxpcn', 'rxid', 'rxgroup'] as const;
export const SUBSCRIBER_RELATIONSHIP_SYSTEM = 'http://terminology.hl7.org/CodeSystem/subscriber-relationship';
export const RELATIONSHIPS = ['self', 'spouse', 'child', 'parent', 'common', 'other', 'injured'] as const;
const GENDERS = ['male', 'female', 'other', 'unknown'] as const;
/** Bounds of what is kept: a Coverage of a real feed holds a handful of classes and codings. */
const MAX_CLASSES = 20;
const MAX_CODINGS = 10;
const MAX_GIVEN = 5;

/**
 * The columns whose change is a coverage.updated event: status, payor, period, subscriberId,
 * order, and the 270's details (type, classes, relationship, subscriber): a new group or plan,
 * or the resident turning dependent, is a change of the resident's coverage partners act on.
 */
const EVENT_COLUMNS = ['status', 'payor_name', 'payor_id', 'subscriber_id', 'period_start', 'period_end', 'coverage_order', 'coverage_type', 'classes', 'relationship', 'subscriber_name', 'subscriber_birth_date', 'subscriber_gender'];

export interface CoverageClass {
  type: (typeof CLASS_TYPES)[number];
  value: string;
  name?: string;
}

export interface SubscriberName {
  family: string;
  given: string[];
}

/** period.end is a dateTime in R4: a date, or the date part of a date-time (in its own zone). */
function periodEnd(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string' && value.length > 10 && value[10] === 'T') {
    instant(value, 'Coverage.period.end');
    return fullDate(value.slice(0, 10), 'Coverage.period.end');
  }
  return fullDate(value, 'Coverage.period.end');
}

function payorId(payor: unknown): string | null {
  const first = Array.isArray(payor) ? object(payor[0]) : undefined;
  const value = text(object(first?.identifier)?.value);
  return value === undefined ? null : bounded(value, 200, 'Coverage.payor[0].identifier.value');
}

function payorName(payor: unknown): string {
  const first = Array.isArray(payor) ? object(payor[0]) : undefined;
  const name = text(first?.display) ?? text(first?.reference)?.replace(/^Organization\//, '');
  if (!name) issue('required', 'Coverage.payor[0] needs a display or an Organization reference', 'Coverage.payor[0]');
  return bounded(name, 200, 'Coverage.payor[0]');
}

function coverageType(value: unknown): string | null {
  if (value === undefined) return null;
  const codings = object(value)?.coding;
  if (Array.isArray(codings) && codings.length > MAX_CODINGS) issue('value', `Coverage.type has ${codings.length} codings; at most ${MAX_CODINGS} are kept`, 'Coverage.type.coding');
  return JSON.stringify(storedConcept(value, 'Coverage.type'));
}

function codeOf(concept: unknown, system: string, where: string): string {
  const codings = object(concept)?.coding;
  if (!object(concept)) issue('structure', `${where} must be a CodeableConcept`, where);
  const coding = (Array.isArray(codings) ? codings : []).map(object).find((c) => c?.system === system && text(c.code));
  if (!coding) issue('value', `${where} needs a coding of ${system}`, `${where}.coding`);
  return coding.code as string;
}

function classes(value: unknown): string | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) issue('structure', 'Coverage.class must be an array', 'Coverage.class');
  if (value.length > MAX_CLASSES) issue('value', `Coverage.class has ${value.length} entries; at most ${MAX_CLASSES} are kept`, 'Coverage.class');
  if (value.length === 0) return null;
  const kept: CoverageClass[] = value.map((entry, index) => {
    const where = `Coverage.class[${index}]`;
    const item = object(entry);
    if (!item) issue('structure', `${where} must be an object`, where);
    const type = oneOf(codeOf(item.type, COVERAGE_CLASS_SYSTEM, `${where}.type`), CLASS_TYPES, `${where}.type`);
    const classValue = text(item.value);
    if (classValue === undefined) issue('required', `${where}.value is required`, `${where}.value`);
    const name = text(item.name);
    return { type, value: bounded(classValue, 64, `${where}.value`), ...(name !== undefined ? { name: bounded(name, 200, `${where}.name`) } : {}) };
  });
  return JSON.stringify(kept);
}

function relationship(value: unknown): (typeof RELATIONSHIPS)[number] | null {
  if (value === undefined) return null;
  return oneOf(codeOf(value, SUBSCRIBER_RELATIONSHIP_SYSTEM, 'Coverage.relationship'), RELATIONSHIPS, 'Coverage.relationship');
}

/** "Family, Given Middle" -> {family, given}; any other display is not split (no guess). */
function nameOfDisplay(display: string | undefined, where: string): SubscriberName | undefined {
  const match = display === undefined ? null : /^([^,]+),(.+)$/.exec(display);
  if (!match) return undefined;
  const family = match[1]!.trim();
  const given = match[2]!.trim().split(/\s+/).filter(Boolean);
  if (!family || given.length === 0) return undefined;
  return checkedName(family, given, where);
}

function checkedName(family: string, given: string[], where: string): SubscriberName {
  if (given.length > MAX_GIVEN) issue('value', `${where}.given has ${given.length} names; at most ${MAX_GIVEN} are kept`, `${where}.given`);
  return { family: bounded(family, 100, `${where}.family`), given: given.map((g, i) => bounded(g, 100, `${where}.given[${i}]`)) };
}

function nameOfPerson(person: Record<string, unknown>, where: string): SubscriberName | undefined {
  const names = Array.isArray(person.name) ? person.name.map(object) : [];
  const index = Math.max(0, names.findIndex((n) => n?.use === 'official' || n?.use === 'usual'));
  const name = names[index];
  if (!name) return undefined;
  const at = `${where}.name[${index}]`;
  const family = text(name.family);
  const given = (Array.isArray(name.given) ? name.given : []).map(text).filter((g): g is string => g !== undefined);
  if (family === undefined) return nameOfDisplay(text(name.text), at);
  return checkedName(family, given, at);
}

/** A partial date is valid FHIR but not a day: not kept. A malformed one is refused. */
function birthDate(value: unknown, where: string): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string' && /^\d{4}(-\d{2})?$/.test(value)) return null;
  return fullDate(value, where);
}

const sameReference = (a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean => {
  if (!a || !b) return false;
  const ra = text(a.reference);
  const rb = text(b.reference);
  // Patient/<id>: ids are UUIDs, matched in any case (as applyChangeSet does); any other reference as written.
  const key = (r: string) => (/^Patient\/[0-9a-fA-F-]{36}$/.test(r) ? r.toLowerCase() : r);
  if (ra !== undefined || rb !== undefined) return ra !== undefined && rb !== undefined && key(ra) === key(rb);
  const ia = object(a.identifier);
  const ib = object(b.identifier);
  return text(ia?.system) !== undefined && text(ia?.value) !== undefined && ia!.system === ib?.system && ia!.value === ib?.value;
};

interface Subscriber {
  /** The resident is the subscriber. */
  self: boolean;
  /** A contained person: surely not the beneficiary. */
  contained?: boolean;
  name: SubscriberName | null;
  birthDate: string | null;
  gender: string | null;
}

function subscriber(resource: Record<string, unknown>): Subscriber | undefined {
  const reference = resource.subscriber;
  if (reference === undefined) return undefined;
  const where = 'Coverage.subscriber';
  const ref = object(reference);
  if (!ref) issue('structure', `${where} must be a Reference`, where);
  if (sameReference(ref, object(resource.beneficiary))) return { self: true, name: null, birthDate: null, gender: null };
  const target = text(ref.reference);
  if (target?.startsWith('#')) {
    const contained = (Array.isArray(resource.contained) ? resource.contained : []).map(object).find((c) => c?.id === target.slice(1));
    if (!contained) issue('not-found', `${where} references ${target}, which is not a contained resource of this Coverage`, `${where}.reference`);
    if (contained.resourceType !== 'RelatedPerson' && contained.resourceType !== 'Patient') {
      issue('value', `${where} references a contained ${String(contained.resourceType)}; a subscriber is a RelatedPerson or a Patient`, `${where}.reference`);
    }
    const at = `Coverage.contained[${(resource.contained as unknown[]).indexOf(contained)}]`;
    return {
      self: false,
      contained: true,
      name: nameOfPerson(contained, at) ?? null,
      birthDate: birthDate(contained.birthDate, `${at}.birthDate`),
      gender: contained.gender === undefined ? null : oneOf(contained.gender, GENDERS, `${at}.gender`),
    };
  }
  return { self: false, name: nameOfDisplay(text(ref.display), `${where}.display`) ?? null, birthDate: null, gender: null };
}

/** The 270's details as columns (see the header). */
export function coverageDetailColumns(resource: Record<string, unknown>): Columns {
  let kept = relationship(resource.relationship);
  const person = subscriber(resource);
  if (person?.self) {
    if (kept !== null && kept !== 'self') issue('value', `Coverage.subscriber is the beneficiary, so Coverage.relationship must be self; got ${kept}`, 'Coverage.relationship');
    kept = 'self';
  } else if (person?.contained && kept === 'self') {
    issue('value', 'Coverage.relationship is self but Coverage.subscriber is a contained person other than the beneficiary: reference the beneficiary as subscriber, or give the relationship to the subscriber', 'Coverage.relationship');
  }
  // relationship self with a subscriber named another way (Patient/<id> of a beneficiary sent
  // as Patient?identifier=..., say): the resident is the subscriber, nothing else is kept.
  const other = person && !person.self && kept !== 'self' ? person : undefined;
  return {
    coverage_type: coverageType(resource.type),
    classes: classes(resource.class),
    relationship: kept,
    subscriber_name: other?.name ? JSON.stringify(other.name) : null,
    subscriber_birth_date: other?.birthDate ?? null,
    subscriber_gender: other?.gender ?? null,
  };
}

export const coverageMapping: ResourceMapping = {
  type: 'Coverage',
  table: 'coverage',
  residentElement: 'beneficiary',
  toColumns: (resource) =>
    mapped(() => {
      const subscriberId = text(resource.subscriberId);
      if (!subscriberId) issue('required', 'Coverage.subscriberId is required', 'Coverage.subscriberId');
      const order = resource.order ?? 1;
      if (!Number.isInteger(order) || (order as number) < 1) issue('value', 'Coverage.order must be a positive integer', 'Coverage.order');
      return {
        status: oneOf(resource.status, STATUSES, 'Coverage.status'),
        payor_name: payorName(resource.payor),
        subscriber_id: bounded(subscriberId, 64, 'Coverage.subscriberId'),
        period_start: fullDate(object(resource.period)?.start, 'Coverage.period.start'),
        period_end: periodEnd(object(resource.period)?.end),
        payor_id: payorId(resource.payor),
        coverage_order: order as number,
        ...coverageDetailColumns(resource),
      };
    }),
  events(before: Columns | undefined, after: Columns): EventType[] {
    const changed = !before || EVENT_COLUMNS.some((column) => before[column] !== after[column]);
    return changed ? ['coverage.updated'] : [];
  },
};

/** The 270's details of a coverage row (migration 032's columns). */
export interface CoverageDetailColumns {
  coverage_type?: string | null;
  classes?: string | null;
  relationship?: string | null;
  subscriber_name?: string | null;
  subscriber_birth_date?: string | null;
  subscriber_gender?: string | null;
}

/** The subscriber's role towards the patient (RelatedPerson.relationship, v3 RoleCode) for the beneficiary's relationship to the subscriber. */
const SUBSCRIBER_ROLES: Record<string, { code: string; display: string }> = {
  spouse: { code: 'SPS', display: 'spouse' },
  child: { code: 'PRN', display: 'parent' },
  parent: { code: 'CHILD', display: 'child' },
  common: { code: 'DOMPART', display: 'domestic partner' },
};

/**
 * The FHIR R4 elements the detail columns stand for, the inverse of coverageDetailColumns
 * (mapping them again gives the same columns): type, class[], relationship, and subscriber,
 * the beneficiary itself when `self`, else a contained RelatedPerson `#subscriber` of the
 * beneficiary with the subscriber's name, birth date and gender (and, for spouse, child,
 * parent and common, its role towards the patient). Used by the R4 view and by a 271, which
 * writes the whole Coverage again from its row and must keep them.
 */
export function coverageDetailElements(row: CoverageDetailColumns, beneficiary: string): Record<string, unknown> {
  const elements: Record<string, unknown> = {};
  if (row.coverage_type) elements.type = JSON.parse(row.coverage_type) as unknown;
  if (row.classes) {
    elements.class = (JSON.parse(row.classes) as CoverageClass[]).map((c) => ({ type: { coding: [{ system: COVERAGE_CLASS_SYSTEM, code: c.type }] }, value: c.value, ...(c.name !== undefined ? { name: c.name } : {}) }));
  }
  if (row.relationship) elements.relationship = { coding: [{ system: SUBSCRIBER_RELATIONSHIP_SYSTEM, code: row.relationship }] };
  if (row.relationship === 'self') {
    elements.subscriber = { reference: beneficiary };
  } else if (row.subscriber_name || row.subscriber_birth_date || row.subscriber_gender) {
    const name = row.subscriber_name ? (JSON.parse(row.subscriber_name) as SubscriberName) : undefined;
    const role = row.relationship ? SUBSCRIBER_ROLES[row.relationship] : undefined;
    elements.contained = [
      {
        resourceType: 'RelatedPerson',
        id: 'subscriber',
        patient: { reference: beneficiary },
        ...(role ? { relationship: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode', code: role.code, display: role.display }] }] } : {}),
        ...(name ? { name: [{ family: name.family, ...(name.given.length ? { given: name.given } : {}) }] } : {}),
        ...(row.subscriber_gender ? { gender: row.subscriber_gender } : {}),
        ...(row.subscriber_birth_date ? { birthDate: row.subscriber_birth_date } : {}),
      },
    ];
    elements.subscriber = { reference: '#subscriber' };
  }
  return elements;
}
