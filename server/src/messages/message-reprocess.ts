// Reprocess: a stored message run through its road again (after the operator registered the
// facility code, say), its outcome stored as a new row linked to the original (reprocess_of),
// the original's current_status moved on. Each message is applied once, however often it is
// reprocessed and whatever was re-sent meanwhile:
// - only a message whose current status is refused is run again; any other answers duplicate;
// - HL7 v2: the control id (MSH-3 + MSH-10, hl7_applied_messages) is recorded in the message's
//   transaction, so a reprocess of a message applied since (re-sent by its sender, or
//   reprocessed by another operator at the same moment) is a duplicate;
// - FHIR Bundle: the original's current_status is moved in the transaction that applies it,
//   conditionally (`where current_status = 'refused'`): of two reprocesses at once, the second
//   rolls back; and a copy of the same content (content_digest) applied since its receipt makes
//   it a duplicate;
// - X12 271 and NDJSON (applied in several transactions): the same content check, and their
//   writes are idempotent (a Coverage or record already as sent is left unchanged).
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { applyHl7Texts } from '../hl7/message-applier.js';
import { applyBundleText } from '../ingest/fhir-bundle-message.js';
import { importNdjson } from '../ingest/fhir-ndjson.js';
import { applyX12Text } from '../x12/x12-message.js';
import { messageQuery } from './message-queries.js';
import type { InboundMessageRow, MessageStore, ReprocessedOriginal } from './message-store.js';
import { ingestWritesMark, writtenRecords } from './written-records.js';
import type { MessageFilter, MessageOutcome, MessageStatus, MessageViewer, ReprocessResult } from './message-types.js';

export interface ReprocessDeps {
  store: MessageStore;
  /** MLLP_SOURCE_FACILITIES: the facility code an MLLP sender's address is bound to, as the listener reads it. */
  boundFacility?: (peer: string | null) => string | undefined;
  /** An unexpected failure of the road (logged by the caller without the content). */
  onError?: (error: Error) => void;
}

/** Messages by id, or every message a filter finds (oldest first, at most `limit`, default 500). */
export type ReprocessSelection = { ids: string[]; orgId?: string | null } | { filter: MessageFilter; limit?: number };

/** A message id that names no message (of the organization asked about). */
export class MessageNotFound extends Error {
  constructor(readonly id: string) {
    super(`no message ${id}; find it with ops messages list`);
  }
}

/** Statuses after which a message is not run again. */
const DONE: readonly MessageStatus[] = ['applied', 'applied_with_warnings', 'duplicate'];
const DEFAULT_SELECTION_LIMIT = 500;

const ORIGINAL_COLUMNS = ['seq', 'id', 'received_at', 'org_id', 'facility_id', 'road', 'format', 'source_client_id', 'source_peer', 'sending_application', 'sending_facility', 'message_type', 'control_id', 'size_bytes', 'content_encrypted', 'content_digest', 'current_status', 'last_outcome_id', 'reprocess_of'];
type OriginalRow = ReprocessedOriginal & { seq: number; content_encrypted: string | null; content_digest: string | null; current_status: MessageStatus; last_outcome_id: string | null; reprocess_of: string | null };

/** Thrown in a Bundle's transaction when another reprocess applied it first: nothing is written. */
class AppliedMeanwhile extends Error {}

function resultOf(messageId: string, row: InboundMessageRow | undefined, outcome: MessageOutcome): ReprocessResult {
  return {
    message_id: messageId,
    outcome_id: row?.id ?? null,
    status: outcome.status,
    answer_code: outcome.answer.code,
    reason: row?.reason ?? null,
    records: outcome.records,
    resident_id: row?.resident_id ?? outcome.residentId ?? null,
  };
}

const duplicateOutcome = (why: string): MessageOutcome => ({ status: 'duplicate', answer: { code: 'duplicate', errors: [{ severity: 'warning', code: 'already_applied', text: why }] }, records: [] });

/**
 * The original's current status after an outcome, while it is refused (an outcome of a message
 * applied already changes nothing of it); returns 0 when it is no longer refused.
 */
async function moveOn(db: Knex, original: OriginalRow, row: InboundMessageRow): Promise<number> {
  const q = db('inbound_messages').where('id', original.id).where('current_status', 'refused');
  // A message no organization could be told for, applied now to a facility: it is that organization's.
  const found = original.org_id === null && row.org_id !== null ? { org_id: row.org_id, facility_id: row.facility_id } : {};
  return q.update({ current_status: row.status, last_outcome_id: row.id, ...found });
}

/** A copy of the same content, applied since the original was received: the content was applied already. */
async function appliedCopy(db: Knex, original: OriginalRow): Promise<string | undefined> {
  if (!original.content_digest || !original.org_id) return undefined;
  const copy = (await db('inbound_messages')
    .where({ org_id: original.org_id, content_digest: original.content_digest })
    .whereNot('id', original.id)
    .where('received_at', '>=', original.received_at)
    .whereIn('current_status', ['applied', 'applied_with_warnings'])
    .first('id')) as { id: string } | undefined;
  return copy?.id;
}

async function storeAlone(deps: ReprocessDeps, original: OriginalRow, outcome: MessageOutcome, by: string): Promise<InboundMessageRow> {
  const row = deps.store.outcomeRow(original, outcome, by);
  await deps.store.db.transaction(async (trx) => {
    await deps.store.insert(trx, [row]);
    await moveOn(trx, original, row);
  });
  deps.store.counted([row]);
  return row;
}

async function runAgain(deps: ReprocessDeps, original: OriginalRow, viewer: MessageViewer): Promise<ReprocessResult> {
  const { store } = deps;
  const db = store.db;
  const by = viewer.actor;
  if (DONE.includes(original.current_status)) {
    const outcome = duplicateOutcome(`applied already (${original.last_outcome_id ? `outcome ${original.last_outcome_id}` : 'at receipt'}); nothing was run again`);
    return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
  }
  const content = store.content(original);
  if (content === null) throw new Error(`message ${original.id}: its content was not kept (${original.size_bytes} bytes, over INGEST_MAX_BUNDLE_BYTES when it came); it cannot be run again: ask the sender to send it again, split, or as NDJSON`);
  if (original.format !== 'hl7v2') {
    const copy = await appliedCopy(db, original);
    if (copy) {
      const outcome = duplicateOutcome(`the same content was applied since, as message ${copy}; nothing was run again`);
      return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
    }
  }
  if (!original.org_id || !original.facility_id) {
    if (original.format !== 'hl7v2') throw new Error(`message ${original.id} has no facility to apply it to`);
  }
  const requestId = `reprocess:${randomUUID()}`.slice(0, 64);
  const target = { orgId: original.org_id!, facilityId: original.facility_id!, actor: by.slice(0, 100), emitEvents: true };
  switch (original.format) {
    case 'hl7v2': {
      const [outcome] = await applyHl7Texts(db, [content], deps.onError, { store, boundFacilityCode: deps.boundFacility?.(original.source_peer), reprocessOf: { original, by } });
      const row = outcome!.stored;
      if (!row) throw new Error(`message ${original.id}: its outcome could not be stored`);
      await moveOn(db, original, row);
      return resultOf(original.id, row, { status: row.status, answer: JSON.parse(row.answer), records: row.records ? JSON.parse(row.records) : [] });
    }
    case 'fhir-bundle': {
      let row: InboundMessageRow | undefined;
      try {
        const answer = await applyBundleText(db, content, target, requestId, async (trx, outcome) => {
          row = store.outcomeRow(original, outcome, by);
          await store.insert(trx, [row]);
          if ((await moveOn(trx, original, row)) === 0) throw new AppliedMeanwhile();
        });
        if (row) {
          store.counted([row]);
          return resultOf(original.id, row, answer.outcome);
        }
        return resultOf(original.id, await storeAlone(deps, original, answer.outcome, by), answer.outcome);
      } catch (error) {
        if (!(error instanceof AppliedMeanwhile)) throw error;
        const outcome = duplicateOutcome('applied meanwhile by another reprocess; nothing was run again');
        return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
      }
    }
    case 'x12-271': {
      const answer = await applyX12Text(db, content, { ...target, requestId });
      return resultOf(original.id, await storeAlone(deps, original, answer.outcome, by), answer.outcome);
    }
    case 'fhir-ndjson': {
      const mark = await ingestWritesMark(db);
      const summary = await importNdjson(db, Readable.from([content]), target, { requestId });
      const outcome: MessageOutcome = {
        status: summary.rejected_count > 0 ? 'applied_with_warnings' : 'applied',
        answer: { code: '200', errors: summary.rejected.map((r) => ({ severity: 'error' as const, code: r.code, where: `line ${r.line}`, text: r.issue })), body: summary },
        records: await writtenRecords(db, original.org_id!, requestId, mark),
      };
      return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
    }
    default:
      throw new Error(`message ${original.id} has format ${original.format}, which cannot be run again`);
  }
}

async function originalOf(db: Knex, id: string, orgId: string | null | undefined): Promise<OriginalRow | undefined> {
  let row = (await db('inbound_messages').where('id', id).first(ORIGINAL_COLUMNS)) as OriginalRow | undefined;
  // An outcome row stands for its message.
  if (row?.reprocess_of) row = (await db('inbound_messages').where('id', row.reprocess_of).first(ORIGINAL_COLUMNS)) as OriginalRow | undefined;
  if (!row || (orgId !== undefined && row.org_id !== orgId)) return undefined;
  return row;
}

/**
 * Runs messages again, one after another, and answers per message what it did. By ids: an
 * unknown id (or one of another organization than `orgId`) throws MessageNotFound before
 * anything runs. By filter: the messages it finds, oldest first (the order they were sent).
 * Audited: who reprocessed which messages.
 */
export async function reprocessMessages(deps: ReprocessDeps, selection: ReprocessSelection, viewer: MessageViewer): Promise<ReprocessResult[]> {
  const db = deps.store.db;
  let originals: OriginalRow[];
  if ('ids' in selection) {
    originals = [];
    for (const id of selection.ids) {
      const row = await originalOf(db, id, selection.orgId);
      if (!row) throw new MessageNotFound(id);
      if (!originals.some((o) => o.id === row.id)) originals.push(row);
    }
  } else {
    const limit = Math.min(Math.max(selection.limit ?? DEFAULT_SELECTION_LIMIT, 1), 10_000);
    originals = (await messageQuery(db, selection.filter).orderBy([{ column: 'received_at', order: 'asc' }, { column: 'seq', order: 'asc' }]).limit(limit).select(ORIGINAL_COLUMNS)) as OriginalRow[];
  }
  const results: ReprocessResult[] = [];
  for (const original of originals) results.push(await runAgain(deps, original, viewer));
  const orgs = [...new Set(originals.map((o) => o.org_id))];
  await viewer.audit.record({
    requestId: viewer.requestId,
    clientId: viewer.actor,
    orgId: orgs.length === 1 ? orgs[0]! : null,
    facilityId: null,
    operation: 'messages.reprocess',
    status: 200,
    resourceIds: results.flatMap((r) => [r.message_id, ...(r.outcome_id ? [r.outcome_id] : [])]),
  });
  return results;
}
