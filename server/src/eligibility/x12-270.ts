// X12 005010X279A1 270 (eligibility inquiry) for one resident: the subscriber (loop 2000C)
// or a dependent of theirs (2000D), asked of one payer by the facility (the provider, by
// NPI). Every value is checked or normalised before it is written, and every 270 is read
// back with node-x12 before it is returned: an interchange that does not read back is a bug
// here, never something to send to a payer.
import { X12Parser, type X12Interchange, type X12Segment } from 'node-x12';
import { npiProblem } from './npi.js';
import { isX12Identifier, normaliseX12Text } from './x12-text.js';

export interface InquiryPerson {
  lastName: string;
  firstName?: string;
  middleName?: string;
  suffix?: string;
  /** YYYY-MM-DD */
  birthDate?: string;
  gender?: 'male' | 'female' | 'other' | 'unknown';
}

export interface EligibilityInquiry {
  /** ISA06/GS02 (ISA05 qualifier ZZ). */
  senderId: string;
  /** ISA08/GS03 (ISA07 qualifier ZZ). */
  receiverId: string;
  /** 1..999999999: ISA13 (9 digits, zero padded), GS06, ST02 (at least 4 digits, zero padded). */
  controlNumber: number;
  /** ISA15 P or T. */
  production: boolean;
  /** ISA09/10, GS04/05, BHT04/05, in UTC. */
  at: Date;
  /** 2100A NM1*PR*2*<name>*****PI*<id> */
  payer: { name: string; id: string };
  /** 2100B NM1*1P*2*<name>*****XX*<npi> */
  provider: { name: string; npi: string };
  /** 2100C NM1*IL, REF*6P when a group number is given, DMG when a birth date is. */
  subscriber: InquiryPerson & { memberId: string; groupNumber?: string };
  /** Loop 2000D; the TRN, DTP and EQ then go in 2000D/2100D/2110D instead of 2000C/2100C/2110C. */
  dependent?: InquiryPerson & { relationship?: string /* INS02: 01 spouse, 19 child... */ };
  /** TRN02 (and BHT03): the ofctx Coverage id, echoed by the 271's TRN*2. */
  trace: string;
  /** YYYY-MM-DD: DTP*291*D8 */
  serviceDate: string;
  /** EQ01, one EQ (loop 2110C/D) per type; default ['30'] (health benefit plan coverage). */
  serviceTypes?: string[];
}

/** An inquiry that cannot be written as a valid 270; `field` names the input (never its value). */
export class InvalidInquiry extends Error {
  constructor(
    /** `subscriber.lastName`, `provider.npi`..., or `x12` when the 270 written does not read back. */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'InvalidInquiry';
  }
}

export interface BuiltInquiry {
  text: string;
  /** ISA13 as sent (9 digits). */
  interchangeControlNumber: string;
  /** ST02 as sent. */
  transactionSetControlNumber: string;
}

/** Maximum lengths of the elements each field goes to (005010X279A1). */
const MAX = { interchangeId: 15, organisationName: 60, lastName: 60, firstName: 35, middleName: 25, suffix: 10, identifier: 80, group: 50, trace: 50 } as const;

const DMG03: Record<NonNullable<InquiryPerson['gender']>, string> = { male: 'M', female: 'F', other: 'U', unknown: 'U' };

/** A name element: normalised; refused when required and empty, or too long. */
function nameElement(value: string | undefined, field: string, max: number, required: boolean): string {
  const normalised = normaliseX12Text(value ?? '');
  if (!normalised && required) throw new InvalidInquiry(field, 'is required and is empty once normalised (upper case, X12 characters only)');
  if (normalised.length > max) throw new InvalidInquiry(field, `is longer than its X12 element (${max} characters)`);
  return normalised;
}

/** An identifier element: sent as given (trimmed), refused rather than altered. */
function identifierElement(value: string | undefined, field: string, max: number, min = 1): string {
  const trimmed = (value ?? '').trim();
  if (!trimmed) throw new InvalidInquiry(field, 'is required');
  if (!isX12Identifier(trimmed)) throw new InvalidInquiry(field, 'holds a character an X12 element cannot carry (a delimiter * ~ : ^, or one outside the X12 character set)');
  if (trimmed.length < min || trimmed.length > max) throw new InvalidInquiry(field, `must be ${min} to ${max} characters long`);
  return trimmed;
}

function isValidDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

function dateElement(value: string | undefined, field: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value ?? '') || !isValidDate(value!)) throw new InvalidInquiry(field, 'must be a date YYYY-MM-DD');
  return value!.replaceAll('-', '');
}

/** Generational suffixes a feed often leaves in the family name ("SMITH JR"). */
const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V']);

/**
 * The last name and suffix as NM103 and NM107: a suffix written into the last name moves to
 * NM107, where payers look for it (CORE 258 makes payers normalise such names; sending them
 * apart spares the question).
 */
export function splitSuffix(lastName: string, suffix: string | undefined): { lastName: string; suffix: string | undefined } {
  if (suffix) return { lastName, suffix };
  const words = normaliseX12Text(lastName).split(' ');
  const last = words[words.length - 1]!.replace(/\.$/, '');
  if (words.length > 1 && SUFFIXES.has(last)) return { lastName: words.slice(0, -1).join(' ').replace(/,$/, ''), suffix: last };
  return { lastName, suffix };
}

/** NM103..NM107 of a person: last, first, middle, (NM106 unused), suffix. */
function personName(person: InquiryPerson, field: string): string[] {
  const { lastName, suffix } = splitSuffix(person.lastName ?? '', person.suffix);
  person = { ...person, lastName, ...(suffix ? { suffix } : {}) };
  return [
    nameElement(person.lastName, `${field}.lastName`, MAX.lastName, true),
    nameElement(person.firstName, `${field}.firstName`, MAX.firstName, false),
    nameElement(person.middleName, `${field}.middleName`, MAX.middleName, false),
    '',
    nameElement(person.suffix, `${field}.suffix`, MAX.suffix, false),
  ];
}

/** DMG*D8*CCYYMMDD[*F|M|U], only with a birth date (DMG01/02 are required in the segment). */
function demographics(person: InquiryPerson, field: string): string[][] {
  if (person.gender !== undefined && !Object.hasOwn(DMG03, person.gender)) throw new InvalidInquiry(`${field}.gender`, 'must be male, female, other or unknown');
  if (person.birthDate === undefined) return [];
  const born = dateElement(person.birthDate, `${field}.birthDate`);
  return [['DMG', 'D8', born, ...(person.gender ? [DMG03[person.gender]] : [])]];
}

/** Writes a segment: trailing empty elements dropped, as X12 requires. */
function segment(elements: string[]): string {
  let end = elements.length;
  while (end > 1 && elements[end - 1] === '') end -= 1;
  return `${elements.slice(0, end).join('*')}~`;
}

function utcParts(at: Date): { ccyymmdd: string; hhmm: string } {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new InvalidInquiry('at', 'must be a valid date and time');
  const iso = at.toISOString();
  return { ccyymmdd: iso.slice(0, 10).replaceAll('-', ''), hhmm: iso.slice(11, 16).replace(':', '') };
}

export function build270(inquiry: EligibilityInquiry): BuiltInquiry {
  const control = inquiry.controlNumber;
  if (!Number.isInteger(control) || control < 1 || control > 999_999_999) throw new InvalidInquiry('controlNumber', 'must be a whole number from 1 to 999999999');
  const interchangeControlNumber = String(control).padStart(9, '0');
  const transactionSetControlNumber = String(control).padStart(4, '0');
  const sender = identifierElement(inquiry.senderId, 'senderId', MAX.interchangeId, 2);
  const receiver = identifierElement(inquiry.receiverId, 'receiverId', MAX.interchangeId, 2);
  const { ccyymmdd, hhmm } = utcParts(inquiry.at);
  const payerName = nameElement(inquiry.payer?.name, 'payer.name', MAX.organisationName, true);
  const payerId = identifierElement(inquiry.payer?.id, 'payer.id', MAX.identifier, 2);
  const providerName = nameElement(inquiry.provider?.name, 'provider.name', MAX.organisationName, true);
  const npi = inquiry.provider?.npi ?? '';
  const npiWrong = npiProblem(npi);
  if (npiWrong) throw new InvalidInquiry('provider.npi', npiWrong);
  const trace = identifierElement(inquiry.trace, 'trace', MAX.trace);
  const serviceDate = dateElement(inquiry.serviceDate, 'serviceDate');
  const serviceTypes = inquiry.serviceTypes ?? ['30'];
  if (serviceTypes.length === 0 || serviceTypes.length > 99) throw new InvalidInquiry('serviceTypes', 'must hold 1 to 99 service type codes');
  for (const type of serviceTypes) {
    if (!/^[A-Z0-9]{1,2}$/.test(type)) throw new InvalidInquiry('serviceTypes', 'holds a value that is not a service type code (1 or 2 upper-case letters or digits)');
  }

  const subscriber = inquiry.subscriber;
  if (!subscriber) throw new InvalidInquiry('subscriber', 'is required');
  const subscriberName = personName(subscriber, 'subscriber');
  const memberId = identifierElement(subscriber.memberId, 'subscriber.memberId', MAX.identifier, 2);
  const group = subscriber.groupNumber === undefined ? undefined : identifierElement(subscriber.groupNumber, 'subscriber.groupNumber', MAX.group);
  const dependent = inquiry.dependent;

  // The questions (trace, date, service types) go with the patient: the dependent when there is one.
  const trn = ['TRN', '1', trace, `9${npi.slice(0, 9)}`];
  const dtp = ['DTP', '291', 'D8', serviceDate];
  const eqs = serviceTypes.map((type) => ['EQ', type]);

  const segments: string[][] = [
    ['ST', '270', transactionSetControlNumber, '005010X279A1'],
    ['BHT', '0022', '13', trace, ccyymmdd, hhmm],
    ['HL', '1', '', '20', '1'],
    ['NM1', 'PR', '2', payerName, '', '', '', '', 'PI', payerId],
    ['HL', '2', '1', '21', '1'],
    ['NM1', '1P', '2', providerName, '', '', '', '', 'XX', npi],
    ['HL', '3', '2', '22', dependent ? '1' : '0'],
    ...(dependent ? [] : [trn]),
    ['NM1', 'IL', '1', ...subscriberName, 'MI', memberId],
    ...(group ? [['REF', '6P', group]] : []),
    ...demographics(subscriber, 'subscriber'),
    ...(dependent ? [] : [dtp, ...eqs]),
  ];
  if (dependent) {
    const relationship = dependent.relationship;
    if (relationship !== undefined && !/^[A-Z0-9]{2}$/.test(relationship)) throw new InvalidInquiry('dependent.relationship', 'must be an X12 individual relationship code (2 characters, such as 01 or 19)');
    segments.push(
      ['HL', '4', '3', '23', '0'],
      trn,
      // 2100D NM108/NM109 are not used: a dependent is named, the subscriber carries the id.
      ['NM1', '03', '1', ...personName(dependent, 'dependent')],
      ...demographics(dependent, 'dependent'),
      ...(relationship ? [['INS', 'N', relationship]] : []),
      dtp,
      ...eqs,
    );
  }
  segments.push(['SE', String(segments.length + 1), transactionSetControlNumber]);

  const isa = [
    'ISA', '00', ' '.repeat(10), '00', ' '.repeat(10),
    'ZZ', sender.padEnd(15), 'ZZ', receiver.padEnd(15),
    ccyymmdd.slice(2), hhmm, '^', '00501', interchangeControlNumber, '0', inquiry.production ? 'P' : 'T', ':',
  ].join('*');
  const text = [
    `${isa}~`,
    segment(['GS', 'HS', sender, receiver, ccyymmdd, hhmm, String(control), 'X', '005010X279A1']),
    ...segments.map(segment),
    segment(['GE', '1', String(control)]),
    segment(['IEA', '1', interchangeControlNumber]),
  ].join('');
  readBack(text, interchangeControlNumber, transactionSetControlNumber);
  return { text, interchangeControlNumber, transactionSetControlNumber };
}

/** Reads the 270 just written with node-x12: envelope counts, ST01, control numbers and the HL tree. */
function readBack(text: string, interchangeControl: string, transactionControl: string): void {
  const fail = (message: string): never => {
    throw new InvalidInquiry('x12', `the 270 written does not read back (a bug in build270, nothing was sent): ${message}`);
  };
  let interchange: X12Interchange;
  try {
    // Strict: node-x12 checks the SE01, GE01 and IEA01 counts.
    const parsed = new X12Parser(true).parse(text);
    if (!('functionalGroups' in parsed) || !parsed.header) return fail('not one interchange');
    interchange = parsed as X12Interchange;
  } catch (error) {
    return fail((error as Error).message);
  }
  const el = (s: X12Segment | undefined, i: number) => s?.elements[i - 1]?.value ?? '';
  // node-x12 gives ISA13 and IEA02 back as numbers (leading zeros dropped).
  if (Number(el(interchange.header, 13)) !== Number(interchangeControl) || Number(el(interchange.trailer, 2)) !== Number(interchangeControl)) fail('ISA13/IEA02');
  if (interchange.header.elements.length !== 16) fail('the ISA has 16 elements');
  if (interchange.functionalGroups.length !== 1) fail('one functional group');
  const group = interchange.functionalGroups[0]!;
  if (el(group.header, 1) !== 'HS' || el(group.header, 8) !== '005010X279A1' || el(group.header, 6) !== el(group.trailer, 2)) fail('GS/GE');
  if (group.transactions.length !== 1) fail('one transaction set');
  const tx = group.transactions[0]!;
  if (el(tx.header, 1) !== '270' || el(tx.header, 2) !== transactionControl || el(tx.trailer, 2) !== transactionControl) fail('ST/SE');
  // HL01 counts up from 1; HL02 names an earlier HL; HL04 says whether children follow.
  const hls = tx.segments.filter((s) => s.tag === 'HL');
  const expectedLevels = ['20', '21', '22', '23'];
  hls.forEach((hl, i) => {
    if (el(hl, 1) !== String(i + 1)) fail(`HL01 of HL ${i + 1}`);
    if (el(hl, 2) !== (i === 0 ? '' : String(i))) fail(`HL02 of HL ${i + 1}`);
    if (el(hl, 3) !== expectedLevels[i]) fail(`HL03 of HL ${i + 1}`);
    if (el(hl, 4) !== (i < hls.length - 1 ? '1' : '0')) fail(`HL04 of HL ${i + 1}`);
  });
  if (hls.length < 3) fail('the payer, provider and subscriber HLs');
}
