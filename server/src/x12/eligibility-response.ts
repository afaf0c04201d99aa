// A 271 subscriber loop -> the FHIR R4 CoverageEligibilityResponse of the Coverage it matched,
// which applyChangeSet keeps (ingest/mapping/coverage-eligibility-response.ts). One
// insurance[0].item per EB segment and service type:
//
//   EB03 service type (none: 30, health benefit plan coverage)  item.category (X12 code 1365)
//   EB12 Y / N                                                   item.network in / out
//   EB02 IND, EMP / FAM (others: by their X12 code)              item.unit individual / family
//   EB06 21, 22, 23, 25 / 7 / 32 (others: by their X12 code)     item.term annual / day / lifetime
//   EB01 C deductible, B co-payment, A coinsurance, F limitation item.benefit[] of type deductible,
//     with EB07 (USD), EB08 (percent), EB09/EB10 (quantity)       copay, copay-percent, benefit
//   EB05 plan description, then each MSG01                       item.description
//   EB01 I (non-covered)                                         item.excluded true
//   EB01 1 anywhere in the loop / 6 and no 1                      insurance[0].inforce true / false
//   AAA (rejection)                                              outcome error, error[] of AAA03
//
// Percents: R4's benefit.allowed[x] has no decimal, so a coinsurance of .2 is allowedString
// "20%" (the type copay-percent says what it is).
import type { IngestResource } from '../ingest/change-set.js';
import type { BenefitSegment, SubscriberLoop } from './eligibility-271.js';

export const X12_SERVICE_TYPE = 'https://codesystem.x12.org/005010/1365';
export const X12_REJECT_REASON = 'https://codesystem.x12.org/005010/901';
export const X12_TIME_PERIOD = 'https://codesystem.x12.org/005010/615';
export const X12_COVERAGE_LEVEL = 'https://codesystem.x12.org/005010/1207';
export const X12_QUANTITY_QUALIFIER = 'https://codesystem.x12.org/005010/673';
/** The identifier of a response: the 271 loop it came from (see SubscriberLoop.key) and its Coverage. */
export const X12_LOOP_SYSTEM = 'urn:ofctx:x12:271-loop';

const BENEFIT_TYPE = 'http://terminology.hl7.org/CodeSystem/benefit-type';
const BENEFIT_NETWORK = 'http://terminology.hl7.org/CodeSystem/benefit-network';
const BENEFIT_UNIT = 'http://terminology.hl7.org/CodeSystem/benefit-unit';
const BENEFIT_TERM = 'http://terminology.hl7.org/CodeSystem/benefit-term';

const BENEFIT_TYPES: Record<string, { code: string; display: string }> = {
  C: { code: 'deductible', display: 'Deductible' },
  B: { code: 'copay', display: 'Copayment per service' },
  A: { code: 'copay-percent', display: 'Copayment Percent per service' },
  F: { code: 'benefit', display: 'Benefit' },
};
const EB01_TEXT: Record<string, string> = { A: 'Co-Insurance', B: 'Co-Payment', C: 'Deductible', F: 'Limitations' };
const UNITS: Record<string, string> = { IND: 'individual', EMP: 'individual', FAM: 'family' };
const TERMS: Record<string, string> = { '21': 'annual', '22': 'annual', '23': 'annual', '25': 'annual', '7': 'day', '32': 'lifetime' };

function concept(system: string, code: string, display?: string) {
  return { coding: [{ system, code, ...(display ? { display } : {}) }] };
}

function percentText(fraction: string): string {
  return `${Number((Number(fraction) * 100).toFixed(4))}%`;
}

function benefitsOf(eb: BenefitSegment) {
  const type = BENEFIT_TYPES[eb.code];
  if (!type) return [];
  const typed = { type: { ...concept(BENEFIT_TYPE, type.code, type.display), text: EB01_TEXT[eb.code] } };
  const benefits: Array<Record<string, unknown>> = [];
  if (eb.amount !== undefined) benefits.push({ ...typed, allowedMoney: { value: Number(eb.amount), currency: 'USD' } });
  if (eb.percent !== undefined) benefits.push({ ...typed, allowedString: percentText(eb.percent) });
  if (eb.quantity !== undefined) {
    const whole = /^\d+$/.test(eb.quantity);
    benefits.push({
      ...typed,
      type: { ...typed.type, coding: [...typed.type.coding, { system: X12_QUANTITY_QUALIFIER, code: eb.quantityQualifier! }] },
      ...(whole ? { allowedUnsignedInt: Number(eb.quantity) } : { allowedString: eb.quantity }),
    });
  }
  return benefits;
}

function itemsOf(eb: BenefitSegment) {
  const description = [eb.planDescription, ...eb.messages].filter(Boolean).join('; ');
  const network = eb.network === 'Y' ? 'in' : eb.network === 'N' ? 'out' : undefined;
  const unit = eb.coverageLevel ? (UNITS[eb.coverageLevel] ? concept(BENEFIT_UNIT, UNITS[eb.coverageLevel]!) : concept(X12_COVERAGE_LEVEL, eb.coverageLevel)) : undefined;
  const term = eb.timePeriod ? (TERMS[eb.timePeriod] ? concept(BENEFIT_TERM, TERMS[eb.timePeriod]!) : concept(X12_TIME_PERIOD, eb.timePeriod)) : undefined;
  const benefit = benefitsOf(eb);
  return (eb.serviceTypes.length ? eb.serviceTypes : ['30']).map((serviceType) => ({
    category: concept(X12_SERVICE_TYPE, serviceType),
    ...(eb.code === 'I' ? { excluded: true } : {}),
    ...(description ? { description } : {}),
    ...(network ? { network: concept(BENEFIT_NETWORK, network) } : {}),
    ...(unit ? { unit } : {}),
    ...(term ? { term } : {}),
    ...(benefit.length ? { benefit } : {}),
  }));
}

function inforceOf(loop: SubscriberLoop): boolean | undefined {
  if (loop.eligibility.includes('1')) return true;
  if (loop.eligibility.includes('6')) return false;
  return undefined;
}

/** What identifies the response of a loop for a Coverage (X12_LOOP_SYSTEM). */
export function responseKey(loop: SubscriberLoop, coverageId: string): string {
  return `${loop.key}/Coverage/${coverageId}`;
}

/** The response to keep for a loop matched to a Coverage (of that resident), applied or rejected. */
export function eligibilityResponse(loop: SubscriberLoop, coverage: { id: string; resident_id: string; payor_name: string }, today: string): IngestResource {
  const rejected = loop.rejections.length > 0;
  const inforce = rejected ? undefined : inforceOf(loop);
  const items = rejected ? [] : loop.benefits.flatMap(itemsOf);
  return {
    resourceType: 'CoverageEligibilityResponse',
    identifier: [{ system: X12_LOOP_SYSTEM, value: responseKey(loop, coverage.id) }],
    status: 'active',
    purpose: ['validation', 'benefits'],
    patient: { reference: `Patient/${coverage.resident_id}` },
    created: loop.created ?? today,
    request: { ...(loop.trace ? { identifier: { value: loop.trace } } : {}), display: `X12 270 answered by ${loop.at}` },
    outcome: rejected ? 'error' : 'complete',
    disposition: rejected ? loop.rejections.map((r) => r.reason).join('; ') : inforce === true ? 'Active coverage' : inforce === false ? 'Inactive coverage' : 'The 271 states no coverage status',
    insurer: { ...(loop.payerId ? { identifier: { value: loop.payerId } } : {}), display: loop.payer ?? coverage.payor_name },
    insurance: [
      {
        coverage: { reference: `Coverage/${coverage.id}` },
        ...(inforce !== undefined ? { inforce } : {}),
        ...(items.length ? { item: items } : {}),
      },
    ],
    ...(rejected ? { error: loop.rejections.map((r) => ({ code: { ...concept(X12_REJECT_REASON, r.code), text: r.reason } })) } : {}),
  };
}
