// X12 005010X279A1 271 (eligibility response) -> one entry per subscriber (2000C) and dependent
// (2000D) loop: its trace (TRN02), member id (NM109), payer (NM1*PR), plan dates (DTP*291,
// 346, 347), eligibility and benefit segments (EB, with their MSG) and rejections (AAA). node-x12 reads the interchange and
// checks the SE/GE/IEA counts; this file checks what it leaves to the reader: the trailers
// and control numbers, that the transaction is a 271, and the qualifiers it interprets.
import { X12Parser, type X12Interchange, type X12Segment } from 'node-x12';
import { X12Error } from './x12-error.js';

/** One EB segment (loop 2110C/D) as the 271 gives it; amounts and percents as their X12 decimal text. */
export interface BenefitSegment {
  /** EB01: 1 active, 6 inactive, A coinsurance, B co-payment, C deductible, F limitations, I non-covered... */
  code: string;
  /** EB02 coverage level: IND, FAM, EMP... */
  coverageLevel?: string;
  /** EB03 service type codes (repeated). */
  serviceTypes: string[];
  /** EB05 plan coverage description. */
  planDescription?: string;
  /** EB06 time period qualifier: 23 calendar year, 27 visit, 29 remaining, 32 lifetime... */
  timePeriod?: string;
  /** EB07 monetary amount (dollars). */
  amount?: string;
  /** EB08 percent, as a decimal fraction (.2 is 20 %). */
  percent?: string;
  /** EB09 quantity qualifier (VS visits, DY days...) and EB10 quantity. */
  quantityQualifier?: string;
  quantity?: string;
  /** EB12 in plan network: Y, N, U (unknown), W (not applicable). */
  network?: string;
  /** MSG01 free-form messages following the EB segment. */
  messages: string[];
}

export interface SubscriberLoop {
  /** `2000C loop HL*3` */
  at: string;
  /**
   * What names this loop among all 271s: the sender (ISA06), interchange (ISA13), transaction
   * (ST02) and HL01. The same 271 sent again has the same keys.
   */
  key: string;
  /** BHT04, the date the payer created the 271 (YYYY-MM-DD). */
  created?: string;
  /** The payer's identifier (NM109 of the loop's NM1*PR, or of the 2100A one). */
  payerId?: string;
  /**
   * NM109 of an NM1*PR inside this loop (2120C/D, the benefit-related entity): the payer the 271
   * names for this coverage, when it is not the one asked (a Medicare Advantage plan, say).
   */
  benefitPayerId?: string;
  level: 'subscriber' | 'dependent';
  trace?: string;
  memberId?: string;
  payer?: string;
  /** FHIR dates (YYYY-MM-DD). */
  planStart?: string;
  planEnd?: string;
  /** EB01 codes in order. */
  eligibility: string[];
  /** Every EB segment, in order. */
  benefits: BenefitSegment[];
  /** AAA rejections of this loop or of the payer/receiver above it, with AAA04's follow-up action (C correct and resubmit, P resubmit, R resubmission allowed, N not allowed, W/X wait...). */
  rejections: Array<{ code: string; reason: string; action?: string }>;
}

/** HL03: 20 information source, 21 receiver, 22 subscriber, 23 dependent. */
const HL_LEVELS = new Set(['20', '21', '22', '23']);
/** EB01 eligibility or benefit information codes of 005010X279A1. */
const EB01_CODES = new Set(['1', '2', '3', '4', '5', '6', '7', '8', 'A', 'B', 'C', 'CB', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'MC', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y']);
/** NM108 identification code qualifiers. */
const NM108_CODES = new Set(['24', '34', '46', 'FI', 'II', 'MI', 'NI', 'PI', 'XV', 'XX', 'SV']);
/** NM101 allowed right after each HL level. */
const NM101_BY_LEVEL: Record<string, Set<string>> = {
  '20': new Set(['2B', '36', 'GP', 'P5', 'PR']),
  '21': new Set(['1P', '2B', '36', '80', 'FA', 'GP', 'P5', 'PR']),
  '22': new Set(['IL']),
  '23': new Set(['03']),
};
/** AAA03 reject reasons (the common ones named; others are reported by code). */
export const AAA_REASONS: Record<string, string> = {
  '15': 'Required application data missing',
  '42': 'Unable to respond at current time',
  '43': 'Invalid/missing provider identification',
  '58': 'Invalid/missing date of birth',
  '71': 'Patient birth date does not match that for the patient on the database',
  '72': 'Invalid/missing subscriber/insured ID',
  '73': 'Invalid/missing subscriber/insured name',
  '75': 'Subscriber/insured not found',
  '76': 'Duplicate subscriber/insured ID number',
  '79': 'Invalid participant identification',
};

function x12Date(value: string, where: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  const date = m ? `${m[1]}-${m[2]}-${m[3]}` : '';
  if (!m || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    throw new X12Error(`${JSON.stringify(value)} is not a date CCYYMMDD`, where);
  }
  return date;
}

/** Where character `at` of an interchange is: its segment (1-based, by ISA's segment terminator), the segment's tag and line. */
function placeOf(body: string, at: number): string {
  const terminator = body[105]!;
  const before = body.slice(0, at);
  const start = before.lastIndexOf(terminator) + 1;
  const tag = body.slice(start).trimStart().split(body[3]!)[0]!.slice(0, 3);
  return `segment ${before.split(terminator).length} (${tag}, line ${before.split('\n').length})`;
}

export function parseInterchange(text: string): X12Interchange {
  const start = text.search(/\S/);
  const body = start > 0 ? text.slice(start) : text;
  if (!body.startsWith('ISA')) throw new X12Error('an X12 interchange starts with an ISA segment', 'ISA');
  if (body.length < 106) throw new X12Error('the ISA segment is incomplete (it is 106 characters long)', 'ISA');
  const nul = body.indexOf('\u0000');
  if (nul >= 0) throw new X12Error('the NUL character (U+0000) is in no X12 character set, and no element may hold it', placeOf(body, nul));
  let interchange;
  try {
    interchange = new X12Parser(true).parse(body);
  } catch (error) {
    const message = (error as Error).message.replace(/^X12 Standard: /, '');
    throw new X12Error(message, /\b(ISA|IEA|GS|GE|ST|SE)\d{2}\b/.exec(message)?.[1] ?? 'envelope');
  }
  if (!('functionalGroups' in interchange) || !interchange.header) throw new X12Error('not one interchange', 'ISA');
  const x = interchange as X12Interchange;
  const el = (s: X12Segment | undefined, i: number) => s?.elements[i - 1]?.value?.trim() ?? '';
  if (!x.trailer) throw new X12Error('the interchange has no IEA trailer (truncated?)', 'IEA');
  if (el(x.trailer, 2) !== el(x.header, 13)) throw new X12Error(`IEA02 ${JSON.stringify(el(x.trailer, 2))} does not match ISA13 ${JSON.stringify(el(x.header, 13))}`, 'IEA');
  if (x.functionalGroups.length === 0) throw new X12Error('the interchange holds no functional group', 'GS');
  for (const group of x.functionalGroups) {
    if (!group.trailer) throw new X12Error('a functional group has no GE trailer', 'GE');
    if (el(group.header, 1) !== 'HB') throw new X12Error(`GS01 must be HB (eligibility response); got ${JSON.stringify(el(group.header, 1))}`, 'GS');
    if (el(group.trailer, 2) !== el(group.header, 6)) throw new X12Error(`GE02 ${JSON.stringify(el(group.trailer, 2))} does not match GS06 ${JSON.stringify(el(group.header, 6))}`, 'GE');
    for (const tx of group.transactions) {
      if (!tx.trailer) throw new X12Error('a transaction set has no SE trailer', 'SE');
      if (el(tx.header, 1) !== '271') throw new X12Error(`ST01 must be 271; got ${JSON.stringify(el(tx.header, 1))}`, 'ST');
      if (!/^.{4,9}$/.test(el(tx.header, 2))) throw new X12Error(`ST02 must be 4 to 9 characters (AN 4/9); got ${el(tx.header, 2).length}`, 'ST');
      if (el(tx.trailer, 2) !== el(tx.header, 2)) throw new X12Error(`SE02 ${JSON.stringify(el(tx.trailer, 2))} does not match ST02 ${JSON.stringify(el(tx.header, 2))}`, `SE of ST*${el(tx.header, 2)}`);
    }
  }
  return x;
}

/** The subscriber and dependent loops of every 271 of the interchange, in order. */
export function subscriberLoops(text: string): SubscriberLoop[] {
  const interchange = parseInterchange(text);
  const repetition = interchange.options.repetitionDelimiter ?? '^';
  const sender = interchange.header.elements[5]?.value?.trim() ?? '';
  const interchangeControl = interchange.header.elements[12]?.value?.trim() ?? '';
  const loops: SubscriberLoop[] = [];
  for (const group of interchange.functionalGroups) {
    for (const tx of group.transactions) {
      const control = tx.header.elements[1]?.value ?? '';
      let level = '';
      let current: SubscriberLoop | undefined;
      let payer: string | undefined;
      let payerId: string | undefined;
      let created: string | undefined;
      /** The loop's first NM1 names its entity (payer, receiver, subscriber, dependent). */
      let entityExpected = false;
      const upper: Array<{ code: string; reason: string }> = [];
      tx.segments.forEach((segment, index) => {
        const where = (element?: number) => `segment ${index + 2} of ST*${control} (${segment.tag}, line ${segment.range.start.line + 1})${element ? `, ${segment.tag}${String(element).padStart(2, '0')}` : ''}`;
        const el = (i: number) => segment.elements[i - 1]?.value?.trim() ?? '';
        switch (segment.tag) {
          case 'HL': {
            level = el(3);
            // HL01 names the loop (in its key, and so in its response's identifier).
            if (!/^.{1,12}$/.test(el(1))) throw new X12Error(`HL01 must be 1 to 12 characters (AN 1/12); got ${el(1).length}`, where(1));
            if (!HL_LEVELS.has(level)) throw new X12Error(`HL03 ${JSON.stringify(level)} is not a 271 level (20, 21, 22, 23)`, where(3));
            entityExpected = true;
            current = undefined;
            if (level === '22' || level === '23') {
              current = {
                at: `${level === '22' ? '2000C' : '2000D'} loop HL*${el(1)}`,
                key: `${sender}/${interchangeControl}/${control}/${el(1)}`,
                level: level === '22' ? 'subscriber' : 'dependent',
                eligibility: [],
                benefits: [],
                rejections: [...upper],
                ...(created ? { created } : {}),
                ...(payer ? { payer } : {}),
                ...(payerId ? { payerId } : {}),
              };
              loops.push(current);
            }
            break;
          }
          case 'NM1': {
            const entity = el(1);
            const qualifier = el(8);
            if (qualifier && !NM108_CODES.has(qualifier)) throw new X12Error(`NM108 ${JSON.stringify(qualifier)} is not an identification code qualifier of 005010X279A1`, where(8));
            if (entityExpected) {
              entityExpected = false;
              if (!NM101_BY_LEVEL[level]!.has(entity)) throw new X12Error(`NM101 ${JSON.stringify(entity)} cannot name the entity of an HL level ${level} loop`, where(1));
            }
            if (entity === 'PR') {
              const name = el(3);
              if (!name) throw new X12Error('NM1*PR needs the payer name (NM103)', where(3));
              if (current) {
                current.payer = name;
                if (el(9)) {
                  current.payerId = el(9);
                  current.benefitPayerId = el(9);
                }
              } else {
                payer = name;
                payerId = el(9) || undefined;
              }
            }
            if (current && (entity === 'IL' || entity === '03') && el(9)) current.memberId = el(9);
            break;
          }
          case 'BHT': {
            if (el(4)) created = x12Date(el(4), where(4));
            break;
          }
          case 'TRN': {
            const type = el(1);
            if (type !== '1' && type !== '2') throw new X12Error(`TRN01 ${JSON.stringify(type)} must be 1 or 2`, where(1));
            if (!el(2)) throw new X12Error('TRN02 (trace number) is empty', where(2));
            // TRN*2 echoes the 270's trace (ours); TRN*1 is the payer's own.
            if (current && (type === '2' || current.trace === undefined)) current.trace = el(2);
            break;
          }
          case 'DTP': {
            const qualifier = el(1);
            const format = el(2);
            if (!/^\d{3}$/.test(qualifier)) throw new X12Error(`DTP01 ${JSON.stringify(qualifier)} is not a date qualifier`, where(1));
            if (format !== 'D8' && format !== 'RD8') throw new X12Error(`DTP02 ${JSON.stringify(format)} must be D8 or RD8`, where(2));
            const value = el(3);
            const [from, to] = format === 'RD8' ? value.split('-') : [value, undefined];
            if (format === 'RD8' && (to === undefined || value.split('-').length !== 2)) throw new X12Error(`DTP03 ${JSON.stringify(value)} must be CCYYMMDD-CCYYMMDD for RD8`, where(3));
            const start = x12Date(from ?? '', where(3));
            const end = to === undefined ? undefined : x12Date(to, where(3));
            if (!current) break;
            if (qualifier === '291') {
              current.planStart = start;
              if (end) current.planEnd = end;
            } else if (qualifier === '346') current.planStart = start;
            else if (qualifier === '347') current.planEnd = start;
            break;
          }
          case 'EB': {
            const code = el(1);
            if (!EB01_CODES.has(code)) throw new X12Error(`EB01 ${JSON.stringify(code)} is not an eligibility or benefit code of 005010X279A1`, where(1));
            // EB03 repeats (service types 30^1^35): each must be a code.
            const services = el(3) ? el(3).split(repetition) : [];
            if (services.some((s) => !/^[A-Z0-9]{1,2}$/.test(s))) throw new X12Error(`EB03 ${JSON.stringify(el(3))} holds a value that is not a service type code`, where(3));
            const decimal = (i: number, what: string) => {
              if (el(i) && !/^-?(\d+\.?\d*|\.\d+)$/.test(el(i))) throw new X12Error(`EB${String(i).padStart(2, '0')} ${JSON.stringify(el(i))} is not ${what}`, where(i));
              return el(i) || undefined;
            };
            const amount = decimal(7, 'a monetary amount');
            const percent = decimal(8, 'a percent (a decimal fraction such as .2)');
            const quantity = decimal(10, 'a quantity');
            if (percent !== undefined && (Number(percent) < 0 || Number(percent) > 1)) throw new X12Error(`EB08 ${JSON.stringify(percent)} is a percent between 0 and 1 (.2 is 20 %)`, where(8));
            if (el(12) && !['Y', 'N', 'U', 'W'].includes(el(12))) throw new X12Error(`EB12 ${JSON.stringify(el(12))} must be Y, N, U or W`, where(12));
            if (quantity !== undefined && !el(9)) throw new X12Error('EB10 (quantity) needs its qualifier EB09', where(9));
            if (current) {
              current.eligibility.push(code);
              current.benefits.push({
                code,
                serviceTypes: services,
                messages: [],
                ...(el(2) ? { coverageLevel: el(2) } : {}),
                ...(el(5) ? { planDescription: el(5) } : {}),
                ...(el(6) ? { timePeriod: el(6) } : {}),
                ...(amount !== undefined ? { amount } : {}),
                ...(percent !== undefined ? { percent } : {}),
                ...(el(9) ? { quantityQualifier: el(9) } : {}),
                ...(quantity !== undefined ? { quantity } : {}),
                ...(el(12) ? { network: el(12) } : {}),
              });
            }
            break;
          }
          case 'MSG': {
            const benefit = current?.benefits[current.benefits.length - 1];
            if (benefit && el(1)) benefit.messages.push(el(1));
            break;
          }
          case 'AAA': {
            const valid = el(1);
            const code = el(3);
            if (valid !== 'Y' && valid !== 'N') throw new X12Error(`AAA01 ${JSON.stringify(valid)} must be Y or N`, where(1));
            if (!/^[A-Z0-9]{2}$/.test(code)) throw new X12Error(`AAA03 ${JSON.stringify(code)} is not a reject reason code`, where(3));
            const action = el(4);
            const rejection = { code, reason: `AAA ${code}: ${AAA_REASONS[code] ?? 'rejected by the payer'}`, ...(action ? { action } : {}) };
            if (current) current.rejections.push(rejection);
            else upper.push(rejection);
            break;
          }
          default:
        }
      });
    }
  }
  return loops;
}
