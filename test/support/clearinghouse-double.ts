// A test double of a clearinghouse's CAQH CORE Connectivity Rule vC2.2.0 real-time endpoint,
// written from the published rule and the 005010X279A1 guide rather than from ofctx's own
// writer: it reads the 270 with node-x12 and checks it itself (its own NPI check too), so a
// mistake in ofctx's 270 is not mirrored here. One URL speaks SOAP 1.2 and MIME multipart
// (told apart by Content-Type); every request is checked as a strict clearinghouse would
// (credentials, each envelope field, the X12) and recorded in `received`; a request that
// passes is answered as scripted (a 271, a 999, a CORE error, an HTTP status, a reset, late).
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { X12Parser, type X12Interchange, type X12Segment } from 'node-x12';
import {
  CORE_RULE_VERSION, coreResponse, coreSoapFault, CoreEnvelopeError, PAYLOAD_270, PAYLOAD_271, PAYLOAD_999, PAYLOAD_ENVELOPE_ERROR, readCoreRequest,
  SoapVersionMismatch, type CoreEnvelope, type CoreMessage, type CoreProtocol,
} from '../../server/src/eligibility/core-envelope.js';

export type DoubleAnswer =
  /** 271: EB*1 with a plan begin DTP*346, TRN*2 echoing the 270's TRN02, NM1*IL with the member id. */
  | { kind: 'active'; otherPayer?: { name: string; id: string } }
  /** 271: EB*6 (and DTP*347 plan end). */
  | { kind: 'inactive'; planEnd?: string }
  /** 271 with AAA*Y**<code>*<action, default C> in loop 2100C (2100D for a dependent): 72 invalid member id, 75 not found... */
  | { kind: 'aaa'; code: string; action?: string }
  /** A 999 refusing the 270 (AK9*R, IK5*R, IK3/IK4 naming a segment). */
  | { kind: '999' }
  /** An envelope answer with this ErrorCode and no payload. */
  | { kind: 'core-error'; code: string; message?: string }
  /** This status with a short text body. */
  | { kind: 'http-status'; status: number }
  /** Destroys the socket without answering. */
  | { kind: 'reset' }
  | { kind: 'slow'; ms: number; then: DoubleAnswer };

export interface ReceivedInquiry {
  protocol: CoreProtocol;
  envelope: CoreEnvelope;
  username?: string;
  x12: string;
  inquiry: {
    senderId: string; receiverId: string; controlNumber: string; payerId: string; payerName: string; providerName: string; npi: string;
    memberId: string; lastName: string; firstName?: string; birthDate?: string; gender?: string; trace: string; serviceDate: string;
    serviceTypes: string[]; groupNumber?: string; dependent?: { lastName: string; firstName?: string; birthDate?: string };
  };
  /** What was wrong with the request; empty when the envelope and the 270 are valid. */
  problems: string[];
  answered?: DoubleAnswer['kind'];
}

export interface ClearinghouseDouble {
  url: string;
  received: ReceivedInquiry[];
  answer: (inquiry: ReceivedInquiry) => DoubleAnswer;
  /** Added before every answer. */
  latencyMs: number;
  /** Requests being answered now, and the most there ever were at once. */
  inFlight: number;
  mostInFlight: number;
  /** Stops listening (connections refused). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export interface DoubleOptions {
  /** The credentials it accepts; without them, any non-empty user name and password. */
  username?: string;
  password?: string;
  latencyMs?: number;
  tls?: { key: string; cert: string };
  answer?: (inquiry: ReceivedInquiry) => DoubleAnswer;
}

/** The double's own identity in the envelopes and interchanges it answers with. */
export const DOUBLE_ID = 'CLEARINGHOUSE';
const MAX_REQUEST_BYTES = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const XS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One thing wrong with the 270, where a 999 would name it (ISA/GS problems name no segment: IK3 is for the transaction set's). */
interface X12Problem {
  message: string;
  segment?: string;
  position?: number;
  loop?: string;
  /** IK401 element position and IK403 code, or the IK304 segment code. */
  element?: number;
  code: string;
}

function blankInquiry(): ReceivedInquiry['inquiry'] {
  return { senderId: '', receiverId: '', controlNumber: '', payerId: '', payerName: '', providerName: '', npi: '', memberId: '', lastName: '', trace: '', serviceDate: '', serviceTypes: [] };
}

function emptyEnvelope(): CoreEnvelope {
  return { payloadType: '', processingMode: '', payloadId: '', timeStamp: '', senderId: '', receiverId: '', coreRuleVersion: '' };
}

/** The NPI check of 45 CFR 162.406, written again here (not ofctx's) so the two check each other. */
function npiIsValid(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  const digits = `80840${npi}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function isDate(ccyymmdd: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(ccyymmdd);
  if (!m) return false;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  const time = Date.parse(`${iso}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === iso;
}

function isoDate(ccyymmdd: string): string {
  return `${ccyymmdd.slice(0, 4)}-${ccyymmdd.slice(4, 6)}-${ccyymmdd.slice(6, 8)}`;
}

/** The envelope's first failing field, as the CORE error code that names it. */
function envelopeProblem(envelope: CoreEnvelope): { code: string; message: string } | undefined {
  const required: Array<[keyof CoreEnvelope, string]> = [
    ['payloadType', 'PayloadType'], ['processingMode', 'ProcessingMode'], ['payloadId', 'PayloadID'], ['timeStamp', 'TimeStamp'],
    ['senderId', 'SenderID'], ['receiverId', 'ReceiverID'], ['coreRuleVersion', 'CORERuleVersion'],
  ];
  for (const [key, name] of required) {
    if (!envelope[key]?.trim()) return { code: `${name}Required`, message: `${name} is required` };
  }
  if (envelope.payloadType !== PAYLOAD_270) return { code: 'PayloadTypeIllegal', message: `PayloadType must be ${PAYLOAD_270}` };
  if (envelope.processingMode !== 'RealTime') return { code: 'ProcessingModeIllegal', message: 'ProcessingMode must be RealTime' };
  if (!UUID.test(envelope.payloadId)) return { code: 'PayloadIDIllegal', message: 'PayloadID must be a UUID' };
  if (!XS_DATE_TIME.test(envelope.timeStamp) || Number.isNaN(Date.parse(envelope.timeStamp))) return { code: 'TimeStampIllegal', message: 'TimeStamp must be an xs:dateTime' };
  if (envelope.coreRuleVersion !== CORE_RULE_VERSION) return { code: 'VersionMismatch', message: `CORERuleVersion must be ${CORE_RULE_VERSION}` };
  if (!envelope.payload?.trim()) return { code: 'PayloadRequired', message: 'Payload is required' };
  return undefined;
}

interface Read270 {
  interchange?: X12Interchange;
  inquiry: ReceivedInquiry['inquiry'];
  problems: X12Problem[];
  groupControl: string;
  transactionControl: string;
  bhtReference: string;
  traceOriginator: string;
  hasDependent: boolean;
}

/** Reads and checks a 270 the way a strict clearinghouse's validator would. */
function read270(text: string): Read270 {
  const inquiry = blankInquiry();
  const read: Read270 = { inquiry, problems: [], groupControl: '0', transactionControl: '0001', bhtReference: '', traceOriginator: '', hasDependent: false };
  const problem = (p: X12Problem) => read.problems.push(p);
  const body = text.trimStart();
  let interchange: X12Interchange;
  try {
    const parsed = new X12Parser(true).parse(body);
    if (!('functionalGroups' in parsed)) throw new Error('not one interchange');
    interchange = parsed as X12Interchange;
  } catch (error) {
    problem({ message: `the X12 cannot be read: ${(error as Error).message}`, code: '5' });
    return read;
  }
  read.interchange = interchange;
  const el = (s: X12Segment | undefined, i: number) => s?.elements[i - 1]?.value?.trim() ?? '';
  // node-x12 gives ISA13 back as a number; the fixed-width ISA keeps it as sent.
  const isa13 = interchange.header.elements[12]?.range;
  inquiry.controlNumber = isa13 ? body.slice(isa13.start.character, isa13.end.character + 1) : '';
  inquiry.senderId = el(interchange.header, 6);
  inquiry.receiverId = el(interchange.header, 8);
  // The ISA is fixed width: 16 elements in 106 characters.
  if (body.slice(0, 106).split(body[3]!).length !== 17) problem({ message: 'the ISA is not 106 characters', code: '8' });
  if (el(interchange.header, 12) !== '00501') problem({ message: 'ISA12 must be 00501', code: '7' });
  const group = interchange.functionalGroups[0];
  const tx = group?.transactions[0];
  if (!group || !tx || interchange.functionalGroups.length !== 1 || group.transactions.length !== 1) {
    problem({ message: 'one functional group holding one transaction set is expected', code: '5' });
    return read;
  }
  read.groupControl = el(group.header, 6);
  read.transactionControl = el(tx.header, 2);
  if (el(group.header, 1) !== 'HS') problem({ message: 'GS01 must be HS', code: '7' });
  if (!isDate(el(group.header, 4))) problem({ message: 'GS04 must be a date', code: '8' });
  if (el(group.header, 8) !== '005010X279A1') problem({ message: 'GS08 must be 005010X279A1', code: '7' });
  if (el(tx.header, 1) !== '270') problem({ message: 'ST01 must be 270', segment: 'ST', element: 1, code: '7' });
  if (el(tx.header, 3) !== '005010X279A1') problem({ message: 'ST03 must be 005010X279A1', segment: 'ST', element: 3, code: '7' });

  // Walk the segments with the loop each one is in (positions count ST as 1).
  let level = '';
  let loop = 'Header';
  let hlCount = 0;
  const seen = { payer: false, provider: false, subscriber: false, trn: '', dtp: false, eq: false };
  tx.segments.forEach((segment, index) => {
    const v = (i: number) => el(segment, i);
    const at = { segment: segment.tag, position: index + 2, loop };
    const wrong = (element: number, message: string, code = '7') => problem({ ...at, element, message, code });
    const patient = !read.hasDependent || level === '23';
    switch (segment.tag) {
      case 'BHT':
        if (v(1) !== '0022' || v(2) !== '13') wrong(1, 'BHT must be 0022*13');
        if (!isDate(v(4))) wrong(4, 'BHT04 must be a date', '8');
        read.bhtReference = v(3);
        break;
      case 'HL': {
        hlCount += 1;
        level = v(3);
        const expected = ['20', '21', '22', '23'][hlCount - 1];
        if (v(1) !== String(hlCount) || level !== expected || v(2) !== (hlCount === 1 ? '' : String(hlCount - 1))) wrong(1, `HL*${hlCount} is out of the 20/21/22/23 structure`);
        if (level === '22' && v(4) === '1') read.hasDependent = true;
        loop = { '20': '2000A', '21': '2000B', '22': '2000C', '23': '2000D' }[level] ?? loop;
        break;
      }
      case 'TRN':
        if (v(1) !== '1') wrong(1, 'TRN01 must be 1 in a 270');
        if (!v(2) || v(2).length > 50) wrong(2, 'TRN02 must be 1 to 50 characters', v(2) ? '5' : '1');
        if (v(3).length !== 10) wrong(3, 'TRN03 must be 10 characters', '4');
        if ((level === '22' && read.hasDependent) || (level === '23' && !read.hasDependent)) wrong(1, 'TRN belongs to the patient\'s loop', '7');
        inquiry.trace = v(2);
        read.traceOriginator = v(3);
        seen.trn = v(2);
        break;
      case 'NM1': {
        loop = { '20': '2100A', '21': '2100B', '22': '2100C', '23': '2100D' }[level] ?? loop;
        at.loop = loop;
        const entity = v(1);
        if (level === '20') {
          if (entity !== 'PR' || v(2) !== '2' || v(8) !== 'PI' || !v(9) || !v(3)) wrong(1, 'the payer is NM1*PR*2*name*****PI*id');
          inquiry.payerName = v(3);
          inquiry.payerId = v(9);
          seen.payer = true;
        } else if (level === '21') {
          if (entity !== '1P' || v(8) !== 'XX' || !v(3)) wrong(1, 'the provider is NM1*1P*2*name*****XX*npi');
          if (!npiIsValid(v(9))) wrong(9, 'NM109 is not a valid NPI', '7');
          inquiry.providerName = v(3);
          inquiry.npi = v(9);
          seen.provider = true;
        } else if (level === '22') {
          if (entity !== 'IL' || v(2) !== '1' || !v(3)) wrong(1, 'the subscriber is NM1*IL*1*last...');
          if (v(8) !== 'MI' || v(9).length < 2 || v(9).length > 80) wrong(9, 'the subscriber needs a member id (MI)', v(9) ? '7' : '1');
          if (v(3).length > 60) wrong(3, 'NM103 is longer than 60', '5');
          if (v(4).length > 35) wrong(4, 'NM104 is longer than 35', '5');
          inquiry.lastName = v(3);
          if (v(4)) inquiry.firstName = v(4);
          inquiry.memberId = v(9);
          seen.subscriber = true;
        } else if (level === '23') {
          if (entity !== '03' || v(2) !== '1' || !v(3)) wrong(1, 'the dependent is NM1*03*1*last...');
          if (v(8) || v(9)) wrong(8, 'NM108/NM109 are not used for a dependent', 'I10');
          inquiry.dependent = { lastName: v(3), ...(v(4) ? { firstName: v(4) } : {}) };
        } else wrong(1, 'NM1 outside an HL loop', '2');
        break;
      }
      case 'REF':
        if (v(1) === '6P' && level === '22') inquiry.groupNumber = v(2);
        break;
      case 'DMG': {
        if (v(1) !== 'D8' || !isDate(v(2))) wrong(2, 'DMG must be D8 and a date', '8');
        if (v(3) && !['F', 'M', 'U'].includes(v(3))) wrong(3, 'DMG03 must be F, M or U');
        if (level === '23' && inquiry.dependent) {
          inquiry.dependent.birthDate = isoDate(v(2));
        } else if (level === '22') {
          inquiry.birthDate = isoDate(v(2));
          if (v(3)) inquiry.gender = v(3);
        }
        break;
      }
      case 'INS':
        if (level !== '23' || v(1) !== 'N' || !/^[A-Z0-9]{2}$/.test(v(2))) wrong(1, 'INS is INS*N*<relationship> in 2100D');
        break;
      case 'DTP':
        if (v(1) !== '291' || (v(2) !== 'D8' && v(2) !== 'RD8')) wrong(1, 'DTP must be 291 with D8 or RD8');
        if (!isDate(v(3).slice(0, 8))) wrong(3, 'DTP03 must be a date', '8');
        if (!patient) wrong(1, 'DTP*291 belongs to the patient\'s loop');
        inquiry.serviceDate = isoDate(v(3).slice(0, 8));
        seen.dtp = true;
        break;
      case 'EQ':
        loop = level === '23' ? '2110D' : '2110C';
        at.loop = loop;
        if (!/^[A-Z0-9]{1,2}$/.test(v(1))) wrong(1, 'EQ01 must be a service type code');
        if (!patient) wrong(1, 'EQ belongs to the patient\'s loop');
        inquiry.serviceTypes.push(...v(1).split('^'));
        seen.eq = true;
        break;
      default:
        problem({ ...at, message: `${segment.tag} is not expected in this 270`, code: '2' });
    }
  });
  if (!seen.payer || !seen.provider || !seen.subscriber) problem({ message: 'the payer, provider and subscriber loops are required', segment: 'HL', code: '3' });
  if (!seen.trn) problem({ message: 'TRN (the trace the 271 echoes) is required', segment: 'TRN', loop: read.hasDependent ? '2000D' : '2000C', code: '3' });
  if (!seen.eq) problem({ message: 'EQ is required', segment: 'EQ', loop: read.hasDependent ? '2110D' : '2110C', code: '3' });
  if (read.hasDependent && !inquiry.dependent) problem({ message: 'HL04 announces a dependent loop that is missing', segment: 'HL', code: '3' });
  return read;
}

function x12Now(now: Date): { ccyymmdd: string; hhmm: string } {
  const iso = now.toISOString();
  return { ccyymmdd: iso.slice(0, 10).replaceAll('-', ''), hhmm: iso.slice(11, 16).replace(':', '') };
}

/** ISA/GS ... GE/IEA around one transaction set, from the double to the sender. */
function envelopeX12(functional: 'HB' | 'FA', version: string, to: string, control: number, transaction: string[]): string {
  const { ccyymmdd, hhmm } = x12Now(new Date());
  const isa13 = String(control).padStart(9, '0');
  const body = [...transaction, `SE*${transaction.length + 1}*${transaction[0]!.split('*')[2]}`];
  return [
    `ISA*00*${' '.repeat(10)}*00*${' '.repeat(10)}*ZZ*${DOUBLE_ID.padEnd(15)}*ZZ*${to.padEnd(15).slice(0, 15)}*${ccyymmdd.slice(2)}*${hhmm}*^*00501*${isa13}*0*T*:`,
    `GS*${functional}*${DOUBLE_ID}*${to || 'UNKNOWN'}*${ccyymmdd}*${hhmm}*${control}*X*${version}`,
    ...body,
    `GE*1*${control}`,
    `IEA*1*${isa13}`,
  ].join('~\n') + '~\n';
}

/** A 271 answering a checked 270: the payer, the provider, the subscriber (and dependent) with the scripted outcome. */
function write271(read: Read270, answer: Extract<DoubleAnswer, { kind: 'active' | 'inactive' | 'aaa' }>, control: number): string {
  const q = read.inquiry;
  const { ccyymmdd, hhmm } = x12Now(new Date());
  const outcome: string[] = [];
  if (answer.kind === 'aaa') outcome.push(`AAA*Y**${answer.code}*${answer.action ?? 'C'}`);
  else if (answer.kind === 'active') {
    outcome.push(`DTP*346*D8*${q.serviceDate.slice(0, 4)}0101`, 'EB*1*IND*30**MEDICARE PART A');
    // The payer says another one covers the member now (EB*R other payer, loop 2120C NM1*PR).
    if (answer.otherPayer) outcome.push('EB*R*IND*30', 'LS*2120', `NM1*PR*2*${answer.otherPayer.name}*****PI*${answer.otherPayer.id}`, 'LE*2120');
  }
  else outcome.push(...(answer.planEnd ? [`DTP*347*D8*${answer.planEnd.replaceAll('-', '')}`] : []), 'EB*6*IND*30');
  const trn = `TRN*2*${q.trace}*${read.traceOriginator}`;
  const subscriberName = `NM1*IL*1*${q.lastName}*${q.firstName ?? ''}****MI*${q.memberId}`;
  const tx = [
    `ST*271*${read.transactionControl}*005010X279A1`,
    `BHT*0022*11*${read.bhtReference}*${ccyymmdd}*${hhmm}`,
    'HL*1**20*1',
    `NM1*PR*2*${q.payerName}*****PI*${q.payerId}`,
    'HL*2*1*21*1',
    `NM1*1P*2*${q.providerName}*****XX*${q.npi}`,
  ];
  if (q.dependent) {
    tx.push('HL*3*2*22*1', subscriberName, 'HL*4*3*23*0', trn, `NM1*03*1*${q.dependent.lastName}*${q.dependent.firstName ?? ''}`, ...outcome);
  } else {
    tx.push('HL*3*2*22*0', trn, subscriberName, ...outcome);
  }
  return envelopeX12('HB', '005010X279A1', q.senderId, control, tx.map((s) => s.replace(/\*+$/, '')));
}

/** A 999 refusing the 270: each problem as IK3 (and IK4 when an element is named), IK5*R, AK9*R. */
function write999(read: Read270, problems: X12Problem[], control: number): string {
  const tx = ['ST*999*0001*005010X231A1', `AK1*HS*${read.groupControl || '0'}*005010X279A1`, `AK2*270*${read.transactionControl || '0001'}*005010X279A1`];
  for (const p of problems.filter((p) => p.segment)) {
    // An element's error is IK3 (segment has data element errors, 8) then IK4; a segment's is IK3 alone.
    if (p.element !== undefined) tx.push(`IK3*${p.segment}*${p.position ?? ''}*${p.loop ?? ''}*8`, `IK4*${p.element}**${p.code}`);
    else tx.push(`IK3*${p.segment}*${p.position ?? ''}*${p.loop ?? ''}*${p.code}`);
  }
  tx.push('IK5*R*5', 'AK9*R*1*1*0');
  return envelopeX12('FA', '005010X231A1', read.inquiry.senderId, control, tx.map((s) => s.replace(/\*+(~|$)/, '$1')));
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_REQUEST_BYTES ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}

export async function startClearinghouseDouble(options: DoubleOptions = {}): Promise<ClearinghouseDouble> {
  let control = 700;
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });

  const send = (res: ServerResponse, status: number, message: CoreMessage) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'Content-Type': message.contentType, 'Content-Length': message.body.length });
    res.end(message.body);
  };
  const sendText = (res: ServerResponse, status: number, text: string) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(text);
  };

  const double: ClearinghouseDouble = {
    url: '',
    received: [],
    answer: options.answer ?? (() => ({ kind: 'active' })),
    latencyMs: options.latencyMs ?? 0,
    inFlight: 0,
    mostInFlight: 0,
    down: async () => {},
    up: async () => {},
    close: async () => {},
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (req.method !== 'POST') return sendText(res, 405, 'POST only');
    if (!body) return sendText(res, 413, 'Request too large');
    const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const protocol: CoreProtocol | undefined = mediaType === 'application/soap+xml' ? 'soap' : mediaType === 'multipart/form-data' ? 'mime' : undefined;
    if (!protocol) return sendText(res, 415, 'SOAP 1.2 (application/soap+xml) or multipart/form-data');
    const record: ReceivedInquiry = { protocol, envelope: emptyEnvelope(), x12: '', inquiry: blankInquiry(), problems: [] };
    double.received.push(record);

    let parsed: Awaited<ReturnType<typeof readCoreRequest>>;
    try {
      parsed = await readCoreRequest(protocol, body, req.headers['content-type']);
    } catch (error) {
      if (!(error instanceof CoreEnvelopeError)) throw error;
      record.problems.push(error.message);
      record.answered = 'core-error';
      if (protocol === 'mime') return sendText(res, 400, 'The multipart body cannot be read');
      // SOAP 1.2: an envelope of another version is a VersionMismatch fault; anything else a Sender fault.
      const fault = error instanceof SoapVersionMismatch ? coreSoapFault('Sender', error.message, 'VersionMismatch') : coreSoapFault('Sender', error.message);
      return send(res, 400, fault);
    }
    const { credentials, ...envelope } = parsed;
    record.envelope = envelope;
    record.x12 = envelope.payload ?? '';
    if (credentials) record.username = credentials.username;

    const answerEnvelope = (payloadType: string, payload: string | undefined, errorCode: string, errorMessage: string): CoreEnvelope => ({
      payloadType,
      processingMode: 'RealTime',
      payloadId: envelope.payloadId,
      timeStamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      senderId: envelope.receiverId || DOUBLE_ID,
      receiverId: envelope.senderId,
      coreRuleVersion: CORE_RULE_VERSION,
      ...(payload !== undefined ? { payload } : {}),
      errorCode,
      errorMessage,
    });
    const coreError = async (code: string, message: string) => {
      record.answered = 'core-error';
      await sleep(double.latencyMs);
      send(res, 200, await coreResponse(protocol, answerEnvelope(PAYLOAD_ENVELOPE_ERROR, undefined, code, message)));
    };

    const authorised = credentials && credentials.username !== '' && credentials.password !== ''
      && (options.username === undefined || credentials.username === options.username)
      && (options.password === undefined || credentials.password === options.password);
    if (!authorised) {
      record.problems.push(credentials ? 'the user name or password is wrong' : 'no credentials');
      record.answered = 'core-error';
      await sleep(double.latencyMs);
      // SOAP: WS-Security failures come back as a Fault; MIME: the envelope's ErrorCode.
      if (protocol === 'soap') return send(res, 400, coreSoapFault('Sender', 'The sender is not authorized', 'UnAuthorized'));
      return send(res, 200, await coreResponse(protocol, answerEnvelope(PAYLOAD_ENVELOPE_ERROR, undefined, 'UnAuthorized', 'The sender is not authorized')));
    }
    const wrongField = envelopeProblem(envelope);
    if (wrongField) {
      record.problems.push(wrongField.message);
      return coreError(wrongField.code, wrongField.message);
    }

    const read = read270(record.x12);
    record.inquiry = read.inquiry;
    control += 1;
    if (read.problems.length > 0) {
      record.problems.push(...read.problems.map((p) => p.message));
      record.answered = '999';
      await sleep(double.latencyMs);
      return send(res, 200, await coreResponse(protocol, answerEnvelope(PAYLOAD_999, write999(read, read.problems, control), 'Success', 'None')));
    }

    let answer = double.answer(record);
    await sleep(double.latencyMs);
    while (answer.kind === 'slow') {
      await sleep(answer.ms);
      answer = answer.then;
    }
    record.answered = answer.kind;
    switch (answer.kind) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'http-status':
        return sendText(res, answer.status, answer.status >= 500 ? 'Service Unavailable' : 'Refused');
      case 'core-error':
        return send(res, 200, await coreResponse(protocol, answerEnvelope(PAYLOAD_ENVELOPE_ERROR, undefined, answer.code, answer.message ?? answer.code)));
      case '999': {
        // The member id refused as an invalid code value: IK3 names NM1 of 2100C, IK4 its NM109.
        const nm1 = (read.interchange?.functionalGroups[0]?.transactions[0]?.segments ?? []).findIndex((s) => s.tag === 'NM1' && s.elements[0]?.value === 'IL');
        const refusal: X12Problem = { message: 'scripted refusal', segment: 'NM1', position: nm1 + 2, loop: '2100C', element: 9, code: '7' };
        return send(res, 200, await coreResponse(protocol, answerEnvelope(PAYLOAD_999, write999(read, [refusal], control), 'Success', 'None')));
      }
      default:
        return send(res, 200, await coreResponse(protocol, answerEnvelope(PAYLOAD_271, write271(read, answer, control), 'Success', 'None')));
    }
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    double.mostInFlight = Math.max(double.mostInFlight, ++double.inFlight);
    res.once('close', () => double.inFlight--);
    handle(req, res).catch(() => sendText(res, 500, 'Internal error in the clearinghouse double'));
  };
  const server: Server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener) : createHttpServer(listener);
  let port = 0;
  let listening = false;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        listening = true;
        resolve();
      });
    });
  await listen();
  double.url = `${options.tls ? 'https' : 'http'}://${options.tls ? 'localhost' : '127.0.0.1'}:${port}/core/realtime`;
  double.down = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      server.closeAllConnections();
    });
  double.up = async () => {
    if (!listening) await listen();
  };
  double.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    await double.down();
  };
  return double;
}
