// POST /api/v1/ingest/{org_id}/{facility_id}/fhir: the system of record writes through here.
// application/fhir+json: a transaction or batch Bundle, read up to INGEST_MAX_BUNDLE_BYTES.
// application/fhir+ndjson: one resource per line, streamed and applied chunk by chunk.
// The caller is an ingest credential (scope ingest.write, checked by tenancy/authorize.ts like
// every scope); failures are FHIR OperationOutcome (errors/operation-outcome.ts, http/error-answer.ts).
import { ApiError } from '../errors/api-error.js';
import type { OperationResult } from '../http/operation.js';
import type { OperationHandler, OperationRequest } from '../app-context.js';
import type { InboundMessageRow } from '../messages/message-store.js';
import type { ReceivedMessage } from '../messages/message-types.js';
import { applyBundleText, bundleControlId } from './fhir-bundle-message.js';
import { ContentCapture } from '../messages/content-capture.js';
import { ingestWritesMark, writtenRecords } from '../messages/written-records.js';
import { importNdjson } from './fhir-ndjson.js';
import { FHIR_JSON, outcomeOfError } from '../errors/operation-outcome.js';
import { readBodyOrStoreUnread, type UnreadMessageOptions } from '../messages/unread-message.js';

export const NDJSON = 'application/fhir+ndjson';

/** The body as text, up to INGEST_MAX_BUNDLE_BYTES (larger: 413, stored refused with its size and no content: only its size was read). */
function readBundleText(request: OperationRequest, received: UnreadMessageOptions['received']): Promise<string> {
  const { app } = request;
  const maxBytes = app.config.ingestMaxBundleBytes;
  return readBodyOrStoreUnread(request.koa.req, maxBytes, {
    store: app.messages,
    received,
    tooLarge: () => new ApiError('payload_too_large', `The Bundle exceeds ${maxBytes} bytes (INGEST_MAX_BUNDLE_BYTES); send large imports as ${NDJSON}, which is streamed.`),
    answerBody: (error) => outcomeOfError(error, request.requestId),
    onError: (failure) => app.logger.error({ err: failure, request_id: request.requestId }, 'an oversize Bundle could not be stored in the message store'),
  });
}

const fhirJson = { 'Content-Type': FHIR_JSON };

/**
 * A Bundle is one inbound message (messages/): stored with its answer, in the transaction that
 * applies it, or alone when refused (nothing else written).
 */
async function ingestBundle(request: OperationRequest): Promise<OperationResult> {
  const { app, params, principal } = request;
  const source = { client_id: principal.clientId, peer: null, sending_application: null, sending_facility: null };
  const text = await readBundleText(request, { road: 'fhir', format: 'fhir-bundle', orgId: params.org_id!, facilityId: params.facility_id!, source, messageType: 'Bundle' });
  const target = { orgId: params.org_id!, facilityId: params.facility_id!, actor: principal.clientId, emitEvents: true };
  let controlId: string | null = null;
  try {
    controlId = bundleControlId(JSON.parse(text));
  } catch {
    // Not JSON: refused below, stored without a control id.
  }
  const received: ReceivedMessage = { road: 'fhir', format: 'fhir-bundle', orgId: target.orgId, facilityId: target.facilityId, source, messageType: 'Bundle', controlId, content: text };
  let row: InboundMessageRow | undefined;
  const answer = await applyBundleText(app.db, text, target, request.requestId, async (trx, outcome) => {
    row = app.messages.row(received, outcome);
    await app.messages.insert(trx, [row]);
  });
  if (row) app.messages.counted([row]);
  else await app.messages.store(received, answer.outcome);
  if (!answer.result) return { status: answer.status, headers: fhirJson, body: answer.body, audit: { resourceIds: [] } };
  const result = answer.result;
  app.metrics.ingest.record('fhir', { created: result.created, updated: result.updated, unchanged: result.unchanged, rejected: result.rejected });
  const ids = result.outcomes.flatMap((o) => (o.outcome === 'rejected' ? [] : [o.id]));
  return { status: 200, headers: fhirJson, body: answer.body, audit: { resourceIds: ids } };
}

/**
 * An NDJSON stream is one inbound message too, stored once answered, with what it wrote (read
 * back by request id: it commits chunk by chunk) and its content up to INGEST_MAX_BUNDLE_BYTES.
 */
async function ingestNdjson(request: OperationRequest): Promise<OperationResult> {
  const { app, params, principal } = request;
  const capture = new ContentCapture(app.config.ingestMaxBundleBytes);
  const mark = await ingestWritesMark(app.db);
  const summary = await importNdjson(
    app.db,
    capture.through(request.koa.req as AsyncIterable<Buffer>),
    { orgId: params.org_id!, facilityId: params.facility_id!, actor: principal.clientId, emitEvents: true },
    { requestId: request.requestId },
  );
  await app.messages.store(
    { road: 'ndjson', format: 'fhir-ndjson', orgId: params.org_id!, facilityId: params.facility_id!, source: { client_id: principal.clientId, peer: null, sending_application: null, sending_facility: null }, messageType: 'NDJSON', controlId: null, content: capture.content(), sizeBytes: capture.bytes },
    {
      status: summary.rejected_count > 0 ? 'applied_with_warnings' : 'applied',
      answer: { code: '200', errors: summary.rejected.map((r) => ({ severity: 'error' as const, code: r.code, where: `line ${r.line}`, text: r.issue })), body: summary },
      records: await writtenRecords(app.db, params.org_id!, request.requestId, mark),
    },
  );
  app.metrics.ingest.record('fhir', { created: summary.created, updated: summary.updated, unchanged: summary.unchanged, rejected: summary.rejected_count });
  // The written ids are in the ingest audit trail (ingest_writes, by request id), not here:
  // a stream may carry millions.
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: summary };
}

/**
 * SQLite has one writer: another process (`ops import` of a large transaction) may hold it
 * longer than the busy timeout. That is a reason to retry, not a server failure; nothing of
 * the refused chunk was written.
 */
function busyAsRetry(error: unknown): never {
  if ((error as { code?: string }).code === 'SQLITE_BUSY') {
    throw new ApiError('service_unavailable', 'The database is busy with another import; retry in a few seconds (chunks already answered or committed are kept).', [], { 'Retry-After': '5' });
  }
  throw error;
}

export const ingestOperations: Record<string, OperationHandler> = {
  ingestFhir: (request) => (request.koa.is(NDJSON) ? ingestNdjson(request) : ingestBundle(request)).catch(busyAsRetry),
};
