// The acknowledgement every message gets (HL7 v2.5.1 original mode): MSA-1 AA, AE or AR,
// MSA-2 the message's MSH-10, and for AE/AR an ERR segment with the location (ERR-2), the
// HL7 error code (ERR-3, table 0357), severity E (ERR-4) and what to fix in words (ERR-8); an
// AA lists what was not kept in ERR segments of severity W.
import { Hl7Context, Hl7Message, Hl7Segment } from '@medplum/core';
import { HL7_ERROR_CODES, type Hl7Failure } from './hl7-failure.js';

/** Escapes text for a field of `context` (HL7 v2.5.1 2.7). */
export function escapeHl7(text: string, context: Hl7Context): string {
  const map: Record<string, string> = {
    [context.escapeCharacter]: `${context.escapeCharacter}E${context.escapeCharacter}`,
    [context.fieldSeparator]: `${context.escapeCharacter}F${context.escapeCharacter}`,
    [context.componentSeparator]: `${context.escapeCharacter}S${context.escapeCharacter}`,
    [context.subcomponentSeparator]: `${context.escapeCharacter}T${context.escapeCharacter}`,
    [context.repetitionSeparator]: `${context.escapeCharacter}R${context.escapeCharacter}`,
  };
  return [...text.replace(/[\r\n]+/g, ' ')].map((c) => map[c] ?? c).join('');
}

function errSegment(failure: Hl7Failure, context: Hl7Context, severity: 'E' | 'W' = 'E'): Hl7Segment {
  const [code, text] = HL7_ERROR_CODES[failure.code];
  const l = failure.location;
  const c = context.componentSeparator;
  const location = l ? [l.segment, l.sequence ?? '', l.field ?? '', l.field !== undefined ? 1 : '', l.component ?? ''].join(c).replace(new RegExp(`\\${c}+$`), '') : '';
  return new Hl7Segment(['ERR', '', location, [code, text, 'HL70357'].join(c), severity, '', '', '', escapeHl7(failure.message, context)], context);
}

/** At most this many warnings are listed in one ACK (a newborn-screening ORU may drop dozens). */
const MAX_WARNINGS = 50;

/** The ACK: AA (with an ERR of severity W per record not kept), or AE/AR with the failure's ERR. */
export function ackOf(message: Hl7Message, failure?: Hl7Failure, warnings: readonly Hl7Failure[] = []): Hl7Message {
  if (!failure) {
    const ack = message.buildAck({ ackCode: 'AA' });
    for (const warning of warnings.slice(0, MAX_WARNINGS)) ack.segments.push(errSegment(warning, message.context, 'W'));
    return ack;
  }
  return message.buildAck({ ackCode: failure.ackCode, errSegment: errSegment(failure, message.context) });
}

/**
 * A NAK for bytes that are not a readable message (no MSH, wrong encoding characters, broken
 * framing, too large): built on a default MSH, echoing the control id when one could be read.
 */
export function nakWithoutMessage(failure: Hl7Failure, controlId = ''): Hl7Message {
  const context = new Hl7Context();
  const stub = new Hl7Message([new Hl7Segment(['MSH', context.getMsh2(), '', '', '', '', '', '', 'ACK', controlId, 'P', '2.5.1'], context)], context);
  return ackOf(stub, failure);
}
