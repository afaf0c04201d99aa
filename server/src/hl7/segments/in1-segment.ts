// IN1 (with the IN2 that follows it) -> FHIR R4 Coverage of the resident, after the v2-to-FHIR
// IG's IN1 map: payor IN1-4 (insurance company name) with IN1-3 (company id) as its identifier,
// subscriberId IN1-36 (policy number; else IN1-49 insured's id, IN2-6 Medicare, IN2-8
// Medicaid), period IN1-12..IN1-13 (an expiration date in the past: `cancelled`), order IN1-22
// (coordination of benefits priority) else IN1-1. Its identifier, the sender's plan (IN1-2,
// else IN1-3) and the policy number, is the same in every message: the same IN1 re-sent
// changes nothing, and a 271 finds the Coverage by member id (NM109 = the policy number).
//
// What a 270 needs beside, after the same map:
//   IN1-15 plan type (table 0086)           type: a coding of v2-0086, the code as sent; the
//                                           text (IN1-15.2, a CWE in v2.7+) when given
//   IN1-2 plan id                           class plan: value IN1-2.1, name IN1-2.2
//   IN1-8 group number, IN1-9 group name    class group: value IN1-8, name IN1-9.1
//   IN1-17 insured's relationship (0063)    relationship (subscriber-relationship): SEL self,
//                                           SPO spouse, DOM common, CHD/NCH/SCH/FCH child,
//                                           PAR parent, any other code other
//   IN1-16 insured's name (XPN), IN1-18     subscriber: the resident when self; otherwise a
//   insured's DOB, IN1-43 insured's sex     contained RelatedPerson with what these say
//   (table 0001)
// These are optional: one that cannot be read (a DOB that is no date, a sex not in table 0001,
// a value too long to keep) is dropped with a warning (ERR severity W), the Coverage kept.
import type { Hl7Segment } from '@medplum/core';
import type { BusinessIdentifier, IngestResource } from '../../ingest/change-set.js';
import { fieldError, Hl7Failure } from '../hl7-failure.js';
import { component, hl7DateTime } from '../hl7-fields.js';
import type { Hl7Reading } from '../hl7-reading.js';

export interface MappedRecord {
  resource: IngestResource;
  /** The record's stable identifier, which it is matched on. */
  identifier: BusinessIdentifier;
  /** The identifier an earlier release derived for the same record, matched when `identifier` matches nothing (ingest/change-set.ts). */
  formerly?: BusinessIdentifier;
}

function date(segment: Hl7Segment, field: number): string | undefined {
  const value = component(segment, field, 1);
  if (!value) return undefined;
  const parsed = hl7DateTime(value, segment.name, field);
  if (parsed.length < 10) throw fieldError('data_type_error', segment.name, field, `${segment.name}-${field} must name a day; got ${JSON.stringify(value)}`);
  return parsed.slice(0, 10);
}

const PLAN_TYPE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0086';
const CLASS_SYSTEM = 'http://terminology.hl7.org/CodeSystem/coverage-class';
const RELATIONSHIP_SYSTEM = 'http://terminology.hl7.org/CodeSystem/subscriber-relationship';
/** HL7 table 0063 -> subscriber-relationship (the v2-to-FHIR IG's map); any other code is `other`. */
const RELATIONSHIPS: Record<string, string> = { SEL: 'self', SPO: 'spouse', DOM: 'common', CHD: 'child', NCH: 'child', SCH: 'child', FCH: 'child', PAR: 'parent' };
/** HL7 table 0001 (administrative sex) -> FHIR AdministrativeGender. */
const GENDERS: Record<string, string> = { M: 'male', F: 'female', O: 'other', A: 'other', U: 'unknown', N: 'unknown' };

/** An optional element that cannot be kept: dropped, named in a warning. */
function dropped(in1: Hl7Segment, reading: Hl7Reading, field: number, message: string): undefined {
  reading.warn(new Hl7Failure('AE', 'data_type_error', { segment: 'IN1', sequence: reading.sequenceOf(in1), field }, `IN1 #${reading.sequenceOf(in1)}: ${message}; the Coverage is kept without it`));
  return undefined;
}

function planType(in1: Hl7Segment, reading: Hl7Reading): Record<string, unknown> | undefined {
  const code = component(in1, 15, 1);
  if (!code) return undefined;
  if (code.length > 64) return dropped(in1, reading, 15, 'IN1-15 (plan type) is longer than 64 characters');
  const label = component(in1, 15, 2).slice(0, 200);
  return { coding: [{ system: PLAN_TYPE_SYSTEM, code, ...(label ? { display: label } : {}) }], ...(label ? { text: label } : {}) };
}

function classes(in1: Hl7Segment, reading: Hl7Reading): Array<Record<string, unknown>> {
  const kept: Array<Record<string, unknown>> = [];
  const add = (type: string, value: string, name: string, field: number, what: string) => {
    if (!value) return;
    if (value.length > 64) return dropped(in1, reading, field, `IN1-${field} (${what}) is longer than 64 characters`);
    kept.push({ type: { coding: [{ system: CLASS_SYSTEM, code: type }] }, value, ...(name ? { name: name.slice(0, 200) } : {}) });
  };
  add('group', component(in1, 8, 1), component(in1, 9, 1), 8, 'group number');
  add('plan', component(in1, 2, 1), component(in1, 2, 2), 2, 'plan id');
  return kept;
}

function insuredBirthDate(in1: Hl7Segment, reading: Hl7Reading): string | undefined {
  try {
    return date(in1, 18);
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return dropped(in1, reading, 18, error.message);
  }
}

/** The insured (IN1-16, -18, -43) when not the resident: a contained RelatedPerson, or undefined when IN1 says nothing of them. */
function insured(in1: Hl7Segment, reading: Hl7Reading, resident: string): Record<string, unknown> | undefined {
  let family = component(in1, 16, 1);
  let given = [component(in1, 16, 2), component(in1, 16, 3)].filter(Boolean);
  if (family.length > 100 || given.some((g) => g.length > 100)) {
    dropped(in1, reading, 16, "IN1-16 (insured's name) has a name longer than 100 characters");
    family = '';
    given = [];
  }
  const birthDate = insuredBirthDate(in1, reading);
  const sex = component(in1, 43, 1).toUpperCase();
  const gender = sex ? (GENDERS[sex] ?? dropped(in1, reading, 43, `IN1-43 (insured's sex) ${JSON.stringify(sex)} is not in HL7 table 0001`)) : undefined;
  // HumanName needs a family to be a name the 270 can send.
  const name = family ? [{ family, ...(given.length ? { given } : {}) }] : undefined;
  if (!name && !birthDate && !gender) return undefined;
  return { resourceType: 'RelatedPerson', id: 'subscriber', patient: { reference: resident }, ...(name ? { name } : {}), ...(birthDate ? { birthDate } : {}), ...(gender ? { gender } : {}) };
}

/** Coverage.relationship and .subscriber (with what it contains) of IN1-16..18, -43. */
function subscriberElements(in1: Hl7Segment, reading: Hl7Reading, resident: string): Record<string, unknown> {
  const code = component(in1, 17, 1).toUpperCase();
  if (!code) return {};
  const relationship = RELATIONSHIPS[code] ?? 'other';
  const elements: Record<string, unknown> = { relationship: { coding: [{ system: RELATIONSHIP_SYSTEM, code: relationship }] } };
  if (relationship === 'self') return { ...elements, subscriber: { reference: resident } };
  const person = insured(in1, reading, resident);
  return person ? { ...elements, contained: [person], subscriber: { reference: '#subscriber' } } : elements;
}

export function coverageOfIn1(in1: Hl7Segment, in2: Hl7Segment | undefined, resident: string, reading: Hl7Reading, today: string): MappedRecord {
  const policy = component(in1, 36, 1) || component(in1, 49, 1) || (in2 ? component(in2, 6, 1) || component(in2, 8, 1) : '');
  if (!policy) throw fieldError('required_field_missing', 'IN1', 36, 'IN1-36 (policy number) is required to keep a Coverage (or IN1-49, IN2-6, IN2-8)');
  if (policy.length > 64) throw fieldError('data_type_error', 'IN1', 36, 'IN1-36 (policy number) is longer than 64 characters');
  const companyName = component(in1, 4, 1);
  const companyId = component(in1, 3, 1);
  const payor = companyName || companyId;
  if (!payor) throw fieldError('required_field_missing', 'IN1', 4, 'IN1-4 (insurance company name) or IN1-3 (company id) is required');
  const start = date(in1, 12);
  if (!start) throw fieldError('required_field_missing', 'IN1', 12, 'IN1-12 (plan effective date) is required to keep a Coverage');
  const end = date(in1, 13);
  const priority = Number(component(in1, 22, 1) || component(in1, 1, 1) || '1');
  const plan = component(in1, 2, 1) || companyId || payor;
  const identifier = { system: reading.systemOf('coverage', plan), value: policy };
  const type = planType(in1, reading);
  const kept = classes(in1, reading);
  const subscriber = subscriberElements(in1, reading, resident);
  return {
    identifier,
    resource: {
      resourceType: 'Coverage',
      ...(subscriber.contained ? { contained: subscriber.contained } : {}),
      identifier: [identifier],
      status: end && end < today ? 'cancelled' : 'active',
      ...(type ? { type } : {}),
      beneficiary: { reference: resident },
      ...(subscriber.subscriber ? { subscriber: subscriber.subscriber } : {}),
      subscriberId: policy,
      payor: [{ ...(companyId ? { identifier: { value: companyId } } : {}), display: payor.slice(0, 200) }],
      period: { start, ...(end ? { end } : {}) },
      order: Number.isInteger(priority) && priority > 0 ? priority : 1,
      ...(kept.length ? { class: kept } : {}),
      ...(subscriber.relationship ? { relationship: subscriber.relationship } : {}),
    },
  };
}
