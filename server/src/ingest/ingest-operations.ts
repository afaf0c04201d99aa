// POST /api/v1/ingest/{org_id}/{facility_id}/fhir: the system of record writes through here.
// application/fhir+json: a transaction or batch Bundle, read up to INGEST_MAX_BUNDLE_BYTES.
// application/fhir+ndjson: one resource per line, streamed and applied chunk by chunk.
// The caller is an ingest credential (scope ingest.write, checked by tenancy/authorize.ts like
// every scope); failures are FHIR OperationOutcome (operation-outcome.ts, error-answer.ts).
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import { readBoundedBody } from '../http/bounded-body.js';
import { errorCatalogue } from '../errors/error-catalogue.js';
import type { OperationHandler, OperationRequest, OperationResult } from '../http/operation.js';
import { applyChangeSet } from './apply-change-set.js';
import { refusedTransaction, responseBundle, translateBundle } from './fhir-bundle.js';
import { importNdjson } from './fhir-ndjson.js';
import { FHIR_JSON } from './operation-outcome.js';

export const NDJSON = 'application/fhir+ndjson';

async function readBundleBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const tooLarge = () => new ApiError('payload_too_large', `The Bundle exceeds ${maxBytes} bytes (INGEST_MAX_BUNDLE_BYTES); send large imports as ${NDJSON}, which is streamed.`);
  const text = await readBoundedBody(req, maxBytes, tooLarge);
  if (text.trim() === '') throw new ApiError('invalid_fhir', 'The body is empty; send a FHIR R4 Bundle.', [{ field: 'body', issue: 'is empty' }]);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_fhir', 'The body is not valid JSON.', [{ field: 'body', issue: 'is not valid JSON' }]);
  }
}

const fhirJson = { 'Content-Type': FHIR_JSON };

async function ingestBundle(request: OperationRequest): Promise<OperationResult> {
  const { app, params, principal } = request;
  const body = await readBundleBody(request.koa.req, app.config.ingestMaxBundleBytes);
  const target = { orgId: params.org_id!, facilityId: params.facility_id!, actor: principal.clientId, emitEvents: true };
  const translation = await translateBundle(body, target);
  if (translation.type === 'transaction' && translation.refused.size > 0) {
    return { status: errorCatalogue.invalid_fhir.status, headers: fhirJson, body: refusedTransaction(translation, undefined).outcome, audit: { resourceIds: [] } };
  }
  const result = await applyChangeSet(app.db, translation.changeSet, { requestId: request.requestId });
  if (result.committed === false) {
    const refusal = refusedTransaction(translation, result);
    const status = refusal.preconditionFailed ? errorCatalogue.precondition_failed.status : errorCatalogue.unprocessable_resource.status;
    return { status, headers: fhirJson, body: refusal.outcome, audit: { resourceIds: [] } };
  }
  app.metrics.ingest.record('fhir', { created: result.created, updated: result.updated, unchanged: result.unchanged, rejected: result.rejected });
  const ids = result.outcomes.flatMap((o) => (o.outcome === 'rejected' ? [] : [o.id]));
  return { status: 200, headers: fhirJson, body: responseBundle(translation, result), audit: { resourceIds: ids } };
}

async function ingestNdjson(request: OperationRequest): Promise<OperationResult> {
  const { app, params, principal } = request;
  const summary = await importNdjson(
    app.db,
    request.koa.req as AsyncIterable<Buffer>,
    { orgId: params.org_id!, facilityId: params.facility_id!, actor: principal.clientId, emitEvents: true },
    { requestId: request.requestId },
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
