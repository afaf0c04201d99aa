// An HL7 v2 message as the message store keeps it (messages/): who sent it and what it is, read
// from its MSH as written (also when the message cannot be parsed), and the ACK it got as the
// store's answer (MSA-1, each ERR's code, severity, location and text).
import type { Hl7Message } from '@medplum/core';
import type { AnswerError, MessageAnswer, ReceivedMessage } from '../messages/message-types.js';

/** MSH-n of a text that starts like a message (MSH-1 is the separator itself). */
function mshFields(text: string): string[] {
  const t = text.replace(/^[\uFEFF\s]+/, '');
  if (!t.startsWith('MSH') || !t[3]) return [];
  return t.split(/[\r\n]/, 1)[0]!.split(t[3]);
}

/** The message as received over MLLP, from its own MSH. */
export function receivedHl7(text: string, source: { peer?: string | undefined }): ReceivedMessage {
  const msh = mshFields(text);
  const component = text.replace(/^[\uFEFF\s]+/, '')[4] ?? '^';
  const [code, event] = (msh[8] ?? '').split(component);
  return {
    road: 'mllp',
    format: 'hl7v2',
    orgId: null,
    facilityId: null,
    source: { client_id: null, peer: source.peer ?? null, sending_application: msh[2] || null, sending_facility: msh[3] || null },
    messageType: code ? (event ? `${code}^${event}` : code) : 'unreadable',
    controlId: msh[9] || null,
    content: text,
  };
}

/** ERR-2 as people name a field: PV1-3.4. */
function whereOf(location: string, component: string): string | undefined {
  const [segment, , field, , comp] = location.split(component);
  if (!segment) return undefined;
  return `${segment}${field ? `-${field}` : ''}${comp ? `.${comp}` : ''}`;
}

/** The ACK as the store's answer. */
export function answerOfAck(ack: Hl7Message): MessageAnswer {
  const component = ack.context.componentSeparator;
  const errors = ack.getAllSegments('ERR').map((err): AnswerError => {
    const where = whereOf(err.getField(2)?.toString() ?? '', component);
    return {
      severity: err.getField(4)?.toString() === 'W' ? 'warning' : 'error',
      code: err.getComponent(3, 1) ?? '',
      ...(where ? { where } : {}),
      text: err.getField(8)?.toString() ?? '',
    };
  });
  return { code: ack.getSegment('MSA')?.getField(1)?.toString() ?? '', errors };
}
