// The message store's writer: every inbound message once, with the answer it got and what it
// changed (migration 036). The roads call it where they decide the outcome, inside the same
// transaction when they write anything (HL7 v2: the message's own transaction; a refusal: its
// one insert), so nothing a sender sent is lost and nothing is stored that did not happen.
// The content is patient data: encrypted at rest with the service's data key (the cipher of
// webhook signing secrets and clearinghouse passwords, WEBHOOK_ENCRYPTION_KEY; `ops keys
// rotate` re-encrypts it too), bound to the row id; never logged.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { insertStatement } from '../db/insert-statement.js';
import { timeOrderedUuid } from '../db/uuid.js';
import { storableJson, storableText } from '../db/storable-text.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';
import type { ChangedRecord, MessageOutcome, MessageStatus, ReceivedMessage } from './message-types.js';

/** An inbound_messages row as written. */
export interface InboundMessageRow {
  id: string;
  received_at: string;
  org_id: string | null;
  facility_id: string | null;
  road: string;
  format: string;
  source_client_id: string | null;
  source_peer: string | null;
  sending_application: string | null;
  sending_facility: string | null;
  message_type: string;
  control_id: string | null;
  size_bytes: number;
  content_encrypted: string | null;
  content_digest: string | null;
  status: MessageStatus;
  current_status: MessageStatus;
  last_outcome_id: string | null;
  answer_code: string;
  answer: string;
  reason: string | null;
  records: string | null;
  resident_id: string | null;
  reprocess_of: string | null;
  original_received_at: string | null;
  reprocessed_by: string | null;
}

/** The message a reprocess ran again, as its outcome row refers to it. */
export type ReprocessedOriginal = Pick<
  InboundMessageRow,
  'id' | 'received_at' | 'org_id' | 'facility_id' | 'road' | 'format' | 'source_client_id' | 'source_peer' | 'sending_application' | 'sending_facility' | 'message_type' | 'control_id' | 'size_bytes'
>;

const ROWS_PER_INSERT = 100;

/** The first error of an answer, as lists show it (why the message was refused or what was dropped). */
export function reasonOf(outcome: MessageOutcome): string | null {
  const first = outcome.answer.errors.find((e) => e.severity === 'error') ?? outcome.answer.errors[0];
  if (!first) return null;
  return storableText(`${first.where ? `${first.where}: ` : ''}${first.text}`.slice(0, 2000));
}

/** What the records column holds: JSON, or null when nothing changed. */
const recordsText = (records: ChangedRecord[]) => (records.length ? storableJson(records) : null);

/** The resident a message is about: the one given, else the Patient it wrote. */
const residentOf = (outcome: MessageOutcome) => outcome.residentId ?? outcome.records.find((r) => r.type === 'Patient')?.id ?? null;

/** The columns that say what came of a message: the same for its first outcome and a reprocess's. */
function outcomeColumns(outcome: MessageOutcome) {
  return {
    status: outcome.status,
    current_status: outcome.status,
    last_outcome_id: null,
    answer_code: outcome.answer.code.slice(0, 8),
    answer: storableJson(outcome.answer),
    reason: reasonOf(outcome),
    records: recordsText(outcome.records),
    resident_id: residentOf(outcome),
  };
}

export class MessageStore {
  constructor(
    readonly db: Knex,
    readonly cipher: SigningSecretCipher,
    private readonly metrics?: Pick<ServiceMetrics, 'inboundMessages'>,
  ) {}

  /** The row of a message as received, with what came of it. */
  row(received: ReceivedMessage, outcome: MessageOutcome): InboundMessageRow {
    // Time-ordered (db/uuid.ts): the store is a stream, and each message's row then lands on
    // the id index's newest page instead of a random one.
    const id = timeOrderedUuid();
    return {
      id,
      received_at: received.receivedAt ?? nowIso(),
      org_id: outcome.orgId ?? received.orgId,
      facility_id: outcome.facilityId ?? received.facilityId,
      road: received.road,
      format: received.format,
      // Quoted from the sender: made storable (db/storable-text.ts).
      source_client_id: storableText(received.source.client_id?.slice(0, 200) ?? null),
      source_peer: storableText(received.source.peer?.slice(0, 64) ?? null),
      sending_application: storableText(received.source.sending_application?.slice(0, 227) || null),
      sending_facility: storableText(received.source.sending_facility?.slice(0, 227) || null),
      message_type: storableText(received.messageType.slice(0, 32)),
      control_id: storableText(received.controlId?.slice(0, 200) || null),
      size_bytes: received.sizeBytes ?? (received.content === null ? 0 : Buffer.byteLength(received.content, 'utf8')),
      content_encrypted: received.content === null ? null : this.cipher.encrypt(received.content, id),
      content_digest: received.content === null ? null : this.cipher.digest(received.content),
      ...outcomeColumns(outcome),
      reprocess_of: null,
      original_received_at: null,
      reprocessed_by: null,
    };
  }

  /** The row of a reprocess's outcome: the original's metadata, no content of its own, linked to it. */
  outcomeRow(original: ReprocessedOriginal, outcome: MessageOutcome, by: string): InboundMessageRow {
    return {
      id: timeOrderedUuid(),
      received_at: nowIso(),
      org_id: outcome.orgId ?? original.org_id,
      facility_id: outcome.facilityId ?? original.facility_id,
      road: original.road,
      format: original.format,
      source_client_id: original.source_client_id,
      source_peer: original.source_peer,
      sending_application: original.sending_application,
      sending_facility: original.sending_facility,
      message_type: original.message_type,
      control_id: original.control_id,
      size_bytes: original.size_bytes,
      content_encrypted: null,
      content_digest: null,
      ...outcomeColumns(outcome),
      reprocess_of: original.id,
      original_received_at: original.received_at,
      reprocessed_by: by.slice(0, 200),
    };
  }

  /** Writes rows (in the caller's transaction when `db` is one). Count them with `counted` once committed. */
  async insert(db: Knex, rows: InboundMessageRow[]): Promise<void> {
    // Compiled by knex once per row count (db/insert-statement.ts): a message's row has 26
    // columns, and knex building that INSERT at every message cost an MLLP sender's ACK time.
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const { sql, bindings } = insertStatement(db, 'inbound_messages', rows.slice(i, i + ROWS_PER_INSERT));
      await db.raw(sql, bindings as Knex.RawBinding[]);
    }
  }

  /** ofctx_inbound_messages_total, for rows committed. */
  counted(rows: Array<Pick<InboundMessageRow, 'road' | 'status'>>): void {
    for (const row of rows) this.metrics?.inboundMessages.inc({ road: row.road, status: row.status });
  }

  /** Stores one message on its own (a refusal decided without writing anything else); returns its id. */
  async store(received: ReceivedMessage, outcome: MessageOutcome, db: Knex = this.db): Promise<string> {
    const row = this.row(received, outcome);
    await this.insert(db, [row]);
    this.counted([row]);
    return row.id;
  }

  /** The content of a stored message (PHI: for a reprocess, or `show --raw`). */
  content(row: { id: string; content_encrypted: string | null }): string | null {
    return row.content_encrypted === null ? null : this.cipher.decrypt(row.content_encrypted, row.id);
  }
}
