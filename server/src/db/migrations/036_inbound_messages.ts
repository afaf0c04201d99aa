// The message store (issue 42): every inbound message, whatever its road (HL7 v2 over MLLP,
// FHIR Bundle or NDJSON and X12 271 over HTTP, `ops import`), one row, with the answer it got
// and what it changed (server/src/messages/).
// inbound_messages is append-mostly, by receive time, so that it can become a PostgreSQL range
// partition on received_at (as the history tables): a reprocess adds a row of its own
// (reprocess_of: the message it ran again; original_received_at: that message's received_at,
// for partition pruning), never rewrites the original's received_at. The one column updated in
// place is current_status (with last_outcome_id): the status of the latest outcome, which the
// list filters on, and the guard that applies a message once however often it is reprocessed.
// - seq: the order `ops keys rotate` walks encrypted columns in (webhooks/key-rotation.ts).
// - content_encrypted: the message as received (PHI), AES-256-GCM under the service's data key
//   (WEBHOOK_ENCRYPTION_KEY, as signing secrets and clearinghouse passwords), bound to the row
//   id; null on a reprocess row (it ran the original's content) and once purged.
// - content_digest: HMAC-SHA-256 of the content under the same key (not a plain hash of PHI):
//   a message re-sent meanwhile is recognised when an older copy is reprocessed.
// - answer: what the sender was told, JSON: {ack, errors[]} for HL7, {status, outcome} over HTTP.
// - records: what it changed, JSON [{type, id, version, outcome}].
// Purged after MESSAGE_RETENTION_DAYS (retention/purge-expired.ts).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('inbound_messages', (t) => {
    t.increments('seq').primary();
    t.uuid('id').notNullable().unique();
    t.string('received_at', 32).notNullable();
    /** Null when nothing tells which organization it is for (an MLLP message naming an unknown facility code on a service of several organizations). */
    t.uuid('org_id').nullable();
    t.uuid('facility_id').nullable();
    /** mllp, fhir, ndjson, x12, import */
    t.string('road', 16).notNullable();
    /** hl7v2, fhir-bundle, fhir-ndjson, x12-271: how to read the content again. */
    t.string('format', 16).notNullable();
    /** The ingest credential (HTTP), `ops-cli` (import), null over MLLP. */
    t.string('source_client_id', 200).nullable();
    /** MLLP: the sender's address. */
    t.string('source_peer', 64).nullable();
    /** MSH-3 and MSH-4 (HL7), ISA06 (X12). */
    t.string('sending_application', 227).nullable();
    t.string('sending_facility', 227).nullable();
    /** ADT^A01, ORU^R01, Bundle, NDJSON, 271. */
    t.string('message_type', 32).notNullable();
    /** MSH-10, Bundle.identifier or id, ISA13. */
    t.string('control_id', 200).nullable();
    t.integer('size_bytes').notNullable();
    t.text('content_encrypted').nullable();
    t.string('content_digest', 64).nullable();
    /** applied, applied_with_warnings, refused, duplicate */
    t.string('status', 24).notNullable();
    t.string('current_status', 24).notNullable();
    t.uuid('last_outcome_id').nullable();
    /** AA, AE, AR, or the HTTP status. */
    t.string('answer_code', 8).notNullable();
    t.text('answer').nullable();
    /** Why it was refused (the first error), for lists. */
    t.text('reason').nullable();
    t.text('records').nullable();
    /** The resident the message is about (the Patient it wrote or matched), for --resident. */
    t.uuid('resident_id').nullable();
    t.uuid('reprocess_of').nullable();
    t.string('original_received_at', 32).nullable();
    /** Who ran the reprocess (ops-cli, a console session). */
    t.string('reprocessed_by', 200).nullable();
    t.index(['org_id', 'received_at']);
    t.index(['org_id', 'current_status', 'received_at']);
    t.index(['org_id', 'resident_id']);
    t.index(['reprocess_of']);
    t.index(['content_digest']);
    t.index(['received_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('inbound_messages');
}
