// What the message store (issue 42) holds and answers: the types the writer, the CLI
// (`ops messages`) and the console share. One row per inbound message in inbound_messages
// (migration 036), and one more per reprocess of it, linked by reprocess_of.
import type { AuditEntry } from '../audit/audit-trail.js';

export const MESSAGE_STATUSES = ['applied', 'applied_with_warnings', 'refused', 'duplicate'] as const;
/**
 * applied: written (or found as it already was); applied_with_warnings: written without what
 * the answer names (HL7 ERR of severity W, rejected Bundle entries or NDJSON lines, 271 loops
 * unmatched); refused: nothing written (AE/AR, HTTP 4xx); duplicate: applied before (same
 * control id, or the same content applied since), nothing written again.
 */
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** How a message came: MLLP, HTTP (FHIR Bundle, FHIR NDJSON, X12) or `ops import`. */
export const MESSAGE_ROADS = ['mllp', 'fhir', 'ndjson', 'x12', 'import'] as const;
export type MessageRoad = (typeof MESSAGE_ROADS)[number];

/** How its content reads: what a reprocess runs it through. */
export type MessageFormat = 'hl7v2' | 'fhir-bundle' | 'fhir-ndjson' | 'x12-271';

/** A record a message created or changed. */
export interface ChangedRecord {
  type: string;
  id: string;
  version: number;
  outcome: 'created' | 'updated';
}

/** One ERR segment of an HL7 ACK, or one issue of an OperationOutcome / error envelope. */
export interface AnswerError {
  severity: 'error' | 'warning';
  /** HL7 table 0357 code (`204`), or the catalogue / FHIR issue code. */
  code: string;
  /** `PV1-3.4`, `Bundle.entry[2]`, `2000C loop 1`. */
  where?: string;
  text: string;
}

/** What the sender was told. */
export interface MessageAnswer {
  /** AA, AE, AR, or the HTTP status (`200`, `422`). */
  code: string;
  errors: AnswerError[];
  /** The HTTP answer's body as sent (an OperationOutcome, the summary or error envelope); absent for HL7 (errors says it all). */
  body?: unknown;
}

/** Who sent a message and how. */
export interface MessageSource {
  /** The ingest credential over HTTP, `ops-cli` for an import; null over MLLP. */
  client_id: string | null;
  /** MLLP: the sender's address. */
  peer: string | null;
  /** MSH-3 / MSH-4 (HL7 v2), ISA06 (X12). */
  sending_application: string | null;
  sending_facility: string | null;
}

/** A message as received: what the writer stores (content encrypted). */
export interface ReceivedMessage {
  road: MessageRoad;
  format: MessageFormat;
  orgId: string | null;
  facilityId: string | null;
  source: MessageSource;
  /** ADT^A01, ORU^R01, Bundle, NDJSON, 271. */
  messageType: string;
  controlId: string | null;
  /** The content as received (PHI). */
  content: string;
  /** Bytes received (the content's UTF-8 length unless given). */
  sizeBytes?: number;
  receivedAt?: string;
}

/** What came of a message (at receipt or at a reprocess). */
export interface MessageOutcome {
  status: MessageStatus;
  answer: MessageAnswer;
  records: ChangedRecord[];
  /** The resident the message is about, when known. */
  residentId?: string | null;
  /** The facility it was applied to, when known only now (an HL7 code found at reprocess). */
  orgId?: string | null;
  facilityId?: string | null;
}

/** A message in a list: its metadata and current status, never its content. */
export interface MessageSummary {
  id: string;
  received_at: string;
  org_id: string | null;
  facility_id: string | null;
  road: MessageRoad;
  format: MessageFormat;
  source: MessageSource;
  message_type: string;
  control_id: string | null;
  size_bytes: number;
  /** The outcome at receipt. */
  status: MessageStatus;
  /** The latest outcome's status (after reprocesses). */
  current_status: MessageStatus;
  answer_code: string;
  /** The first error of the answer: why it was refused. */
  reason: string | null;
  resident_id: string | null;
  /** Set on an outcome row: the message it reprocessed. */
  reprocess_of: string | null;
  reprocessed_by: string | null;
  /** False once the retention job removed the content (or on an outcome row). */
  has_content: boolean;
}

/** One message in full: the answer, the records changed, its reprocess outcomes; the content only when asked for. */
export interface MessageDetail extends MessageSummary {
  answer: MessageAnswer;
  records: ChangedRecord[];
  /** The reprocess outcomes, oldest first (for an outcome row: none). */
  outcomes: Array<MessageSummary & { answer: MessageAnswer; records: ChangedRecord[] }>;
  /** Only with raw: the text as received, and read: HL7 segments as fields, FHIR / X12 as parsed. */
  content?: { raw: string; segments?: string[][]; parsed?: unknown };
}

export interface MessageFilter {
  /** The organization; null lists the messages no organization could be told for (MLLP, unknown facility code). */
  orgId: string | null;
  facilityId?: string;
  status?: MessageStatus;
  /** `ADT^A01`, `ADT` (every event), `Bundle`, `271`. */
  type?: string;
  /** ISO 8601: received at or after. */
  since?: string;
  until?: string;
  residentId?: string;
  road?: MessageRoad;
  /** Newest first; at most this many (default 100, at most 1000). */
  limit?: number;
  /** The `next` of the previous page. */
  cursor?: string;
}

export interface MessagePage {
  messages: MessageSummary[];
  /** Give it as `cursor` for the next (older) page; null on the last one. */
  next: string | null;
}

/** The operator or console session asking: named in the audit trail with what they saw or did. */
export interface MessageViewer {
  /** `ops-cli`, `console:<session>`. */
  actor: string;
  requestId: string;
  audit: { record(entry: AuditEntry): Promise<void> };
}

/** What one reprocess did. */
export interface ReprocessResult {
  message_id: string;
  /** The new outcome row (linked to the message by reprocess_of). */
  outcome_id: string | null;
  /** duplicate: applied already (by an earlier reprocess, or the same message re-sent meanwhile): nothing run again. */
  status: MessageStatus;
  answer_code: string;
  reason: string | null;
  records: ChangedRecord[];
  resident_id: string | null;
}
