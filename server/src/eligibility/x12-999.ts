// X12 005010X231A1 999 (implementation acknowledgment): the answer a clearinghouse or payer
// gives instead of a 271 when it refuses the 270 itself. Read with node-x12; this file
// interprets AK9/IK5 (accepted or not) and the IK3/IK4 errors, in plain words from the
// code lists of 005010X231A1, so an operator can see what was wrong with the 270 sent.
// IK404 (a copy of the bad element) is never read: it may hold the resident's data.
import { X12Parser, type X12Interchange, type X12Segment } from 'node-x12';
import { X12Error } from '../x12/x12-error.js';

export interface AcknowledgmentError {
  /** IK301: the segment in error (NM1, DMG...). */
  segment?: string;
  /** IK302: its position in the transaction set (ST is 1). */
  position?: string;
  /** IK303: the loop it is in (2100C...). */
  loop?: string;
  /** IK401: the element's position in the segment (`3`, or `3:1` for a component). */
  element?: string;
  /** IK304, IK403, IK502-IK506 or AK905-AK909. */
  code: string;
  description: string;
}

export interface Acknowledgment {
  /** True when the 270 was accepted (A, or E: accepted with errors noted). */
  accepted: boolean;
  /** AK901 (or IK501 when there is no AK9): A, E, R, P, M, W, X. */
  code: string;
  errors: AcknowledgmentError[];
}

/** IK304: segment syntax error codes. */
const SEGMENT_ERRORS: Record<string, string> = {
  '1': 'Unrecognized segment ID',
  '2': 'Unexpected segment',
  '3': 'Required segment missing',
  '4': 'Loop occurs over maximum times',
  '5': 'Segment exceeds maximum use',
  '6': 'Segment not in defined transaction set',
  '7': 'Segment not in proper sequence',
  '8': 'Segment has data element errors',
  I4: 'Implementation "not used" segment present',
  I6: 'Implementation dependent segment missing',
  I7: 'Implementation loop occurs under minimum times',
  I8: 'Implementation segment below minimum use',
  I9: 'Implementation dependent "not used" segment present',
};

/** IK403: data element syntax error codes. */
const ELEMENT_ERRORS: Record<string, string> = {
  '1': 'Required data element missing',
  '2': 'Conditional required data element missing',
  '3': 'Too many data elements',
  '4': 'Data element too short',
  '5': 'Data element too long',
  '6': 'Invalid character in data element',
  '7': 'Invalid code value',
  '8': 'Invalid date',
  '9': 'Invalid time',
  '10': 'Exclusion condition violated',
  '12': 'Too many repetitions',
  '13': 'Too many components',
  I6: 'Code value not used in implementation',
  I9: 'Implementation dependent data element missing',
  I10: 'Implementation "not used" data element present',
  I11: 'Implementation too few repetitions',
  I12: 'Implementation pattern match failure',
  I13: 'Implementation dependent "not used" data element present',
};

/** IK502-IK506: transaction set syntax error codes. */
const TRANSACTION_ERRORS: Record<string, string> = {
  '1': 'Transaction set not supported',
  '2': 'Transaction set trailer missing',
  '3': 'Transaction set control number in header and trailer do not match',
  '4': 'Number of included segments does not match actual count',
  '5': 'One or more segments in error',
  '6': 'Missing or invalid transaction set identifier',
  '7': 'Missing or invalid transaction set control number',
  '18': 'Transaction set not in functional group',
  '19': 'Invalid transaction set implementation convention reference',
  '23': 'Transaction set control number not unique within the functional group',
  I5: 'Implementation one or more segments in error',
  I6: 'Implementation convention not supported',
};

/** AK905-AK909: functional group syntax error codes. */
const GROUP_ERRORS: Record<string, string> = {
  '1': 'Functional group not supported',
  '2': 'Functional group version not supported',
  '3': 'Functional group trailer missing',
  '4': 'Group control number in the functional group header and trailer do not agree',
  '5': 'Number of included transaction sets does not match actual count',
  '6': 'Group control number violates syntax',
  '18': 'Functional group control number not unique within interchange',
  '19': 'Missing or invalid implementation convention reference',
};

/** AK901 and IK501 codes. */
const ACKNOWLEDGMENT_CODES = new Set(['A', 'E', 'P', 'R', 'M', 'W', 'X']);

function described(table: Record<string, string>, code: string): string {
  return Object.hasOwn(table, code) ? table[code]! : `error code ${code}`;
}

export function read999(text: string): Acknowledgment {
  const start = text.search(/\S/);
  const body = start > 0 ? text.slice(start) : text;
  if (!body.startsWith('ISA')) throw new X12Error('an X12 interchange starts with an ISA segment', 'ISA');
  let interchange: X12Interchange;
  try {
    // Strict: node-x12 checks the SE01, GE01 and IEA01 counts.
    const parsed = new X12Parser(true).parse(body);
    if (!('functionalGroups' in parsed) || !parsed.header) throw new X12Error('not one interchange', 'ISA');
    interchange = parsed as X12Interchange;
  } catch (error) {
    if (error instanceof X12Error) throw error;
    const message = (error as Error).message.replace(/^X12 Standard: /, '');
    throw new X12Error(message, /\b(ISA|IEA|GS|GE|ST|SE)\d{2}\b/.exec(message)?.[1] ?? 'envelope');
  }
  const el = (s: X12Segment | undefined, i: number) => s?.elements[i - 1]?.value?.trim() ?? '';
  if (!interchange.trailer) throw new X12Error('the interchange has no IEA trailer (truncated?)', 'IEA');
  const group = interchange.functionalGroups[0];
  if (!group || !group.trailer) throw new X12Error('the interchange holds no complete functional group', 'GS');
  if (el(group.header, 1) !== 'FA') throw new X12Error(`GS01 must be FA (acknowledgment); got ${JSON.stringify(el(group.header, 1))}`, 'GS');
  const tx = group.transactions[0];
  if (!tx || !tx.trailer) throw new X12Error('the functional group holds no complete transaction set', 'ST');
  if (el(tx.header, 1) !== '999') throw new X12Error(`ST01 must be 999; got ${JSON.stringify(el(tx.header, 1))}`, 'ST');

  const errors: AcknowledgmentError[] = [];
  let context: Pick<AcknowledgmentError, 'segment' | 'position' | 'loop'> = {};
  let groupCode: string | undefined;
  const transactionCodes: string[] = [];
  for (const segment of tx.segments) {
    const v = (i: number) => el(segment, i);
    const optional = <K extends string>(key: K, value: string) => (value ? ({ [key]: value } as Record<K, string>) : {});
    switch (segment.tag) {
      case 'AK2':
        context = {};
        break;
      case 'IK3':
        context = { ...optional('segment', v(1)), ...optional('position', v(2)), ...optional('loop', v(3)) };
        if (v(4)) errors.push({ ...context, code: v(4), description: described(SEGMENT_ERRORS, v(4)) });
        break;
      case 'IK4':
        errors.push({ ...context, ...optional('element', v(1)), code: v(3), description: described(ELEMENT_ERRORS, v(3)) });
        break;
      case 'IK5':
        transactionCodes.push(v(1));
        for (let i = 2; i <= 6; i += 1) if (v(i)) errors.push({ code: v(i), description: described(TRANSACTION_ERRORS, v(i)) });
        context = {};
        break;
      case 'AK9':
        groupCode = v(1);
        for (let i = 5; i <= 9; i += 1) if (v(i)) errors.push({ code: v(i), description: described(GROUP_ERRORS, v(i)) });
        break;
      default:
    }
  }
  const code = groupCode ?? transactionCodes[0];
  if (!code) throw new X12Error('the 999 has neither AK9 nor IK5: it says nothing about the 270', 'AK9');
  if (!ACKNOWLEDGMENT_CODES.has(code)) throw new X12Error(`${groupCode ? 'AK901' : 'IK501'} ${JSON.stringify(code)} is not an acknowledgment code (A, E, P, R, M, W, X)`, groupCode ? 'AK9' : 'IK5');
  // One 270 per interchange: "partially accepted" (P) means some transaction was refused.
  const accepted = (code === 'A' || code === 'E') && transactionCodes.every((c) => c === 'A' || c === 'E');
  return { accepted, code, errors };
}
