// Why an HL7 v2 message is not applied, in the terms its ACK needs: MSA-1 (AE: the content
// is wrong; AR: the message is refused as such: unsupported type, broken envelope), and the
// ERR segment's location (segment, sequence, field, component) and HL7 error code (table 0357).
export const HL7_ERROR_CODES = {
  segment_sequence: ['100', 'Segment sequence error'],
  required_field_missing: ['101', 'Required field missing'],
  data_type_error: ['102', 'Data type error'],
  table_value_not_found: ['103', 'Table value not found'],
  unsupported_message_type: ['200', 'Unsupported message type'],
  unsupported_event_code: ['201', 'Unsupported event code'],
  unknown_key_identifier: ['204', 'Unknown key identifier'],
  internal_error: ['207', 'Application internal error'],
} as const;

export type Hl7ErrorCode = keyof typeof HL7_ERROR_CODES;

export interface Hl7Location {
  segment: string;
  /** 1 for the first segment of that name. */
  sequence?: number;
  field?: number;
  component?: number;
}

export class Hl7Failure extends Error {
  constructor(
    readonly ackCode: 'AE' | 'AR',
    readonly code: Hl7ErrorCode,
    readonly location: Hl7Location | undefined,
    message: string,
  ) {
    super(message);
  }

  /** `PID-7`, `PV1-3.4`: how people name a field. */
  get where(): string {
    const l = this.location;
    if (!l) return 'message';
    return `${l.segment}${l.field !== undefined ? `-${l.field}` : ''}${l.component !== undefined ? `.${l.component}` : ''}`;
  }
}

export function fieldError(code: Hl7ErrorCode, segment: string, field: number, message: string, component?: number): Hl7Failure {
  return new Hl7Failure('AE', code, { segment, sequence: 1, field, component }, message);
}
