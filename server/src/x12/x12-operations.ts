// POST /api/v1/ingest/{org_id}/{facility_id}/x12: a 271 eligibility response from the payer
// or clearinghouse, sent by the facility's ingest credential (scope ingest.write, checked by
// tenancy/authorize.ts like every scope). Answers in the envelope: the loop summary, or
// invalid_x12 naming the segment and element.
import { ApiError } from '../errors/api-error.js';
import type { OperationResult } from '../http/operation.js';
import type { OperationHandler, OperationRequest } from '../app-context.js';
import { applyX12Text, x12Envelope } from './x12-message.js';
import { failure } from '../http/envelope.js';
import { readBodyOrStoreUnread } from '../messages/unread-message.js';
import type { MessageSource } from '../messages/message-types.js';

/** The interchange as text, up to INGEST_MAX_BUNDLE_BYTES (larger: 413, stored refused with its size and no content: only its size was read). */
function readBody(request: OperationRequest, source: MessageSource): Promise<string> {
  const { app, params } = request;
  const maxBytes = app.config.ingestMaxBundleBytes;
  return readBodyOrStoreUnread(request.koa.req, maxBytes, {
    store: app.messages,
    received: { road: 'x12', format: 'x12-271', orgId: params.org_id!, facilityId: params.facility_id!, source, messageType: '271' },
    tooLarge: () => new ApiError('payload_too_large', `The interchange exceeds ${maxBytes} bytes (INGEST_MAX_BUNDLE_BYTES); split it into several interchanges.`),
    answerBody: (error) => failure(error, request.requestId),
    onError: (problem) => app.logger.error({ err: problem, request_id: request.requestId }, 'an oversize interchange could not be stored in the message store'),
  });
}

/** The interchange is one inbound message (messages/): stored with its answer, refused or not. */
async function ingestX12(request: OperationRequest): Promise<OperationResult> {
  const { app, params, principal } = request;
  const text = await readBody(request, { client_id: principal.clientId, peer: null, sending_application: null, sending_facility: null });
  const target = { orgId: params.org_id!, facilityId: params.facility_id!, actor: principal.clientId, requestId: request.requestId };
  let answer;
  try {
    answer = await applyX12Text(app.db, text, target);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new ApiError('service_unavailable', 'The database is busy with another import; retry in a few seconds.', [], { 'Retry-After': '5' });
    throw error;
  }
  const envelope = x12Envelope(text);
  await app.messages.store(
    { road: 'x12', format: 'x12-271', orgId: target.orgId, facilityId: target.facilityId, source: { client_id: principal.clientId, peer: null, sending_application: envelope.sender, sending_facility: null }, messageType: '271', controlId: envelope.controlNumber, content: text },
    answer.outcome,
  );
  if (answer.error) {
    app.metrics.ingest.inc({ source: 'x12', outcome: 'refused' });
    throw answer.error;
  }
  const summary = answer.summary!;
  app.metrics.ingest.record('x12', { updated: summary.updated, unchanged: summary.unchanged, unmatched: summary.unmatched.length, rejected: summary.rejected.length, conflict: summary.conflicts.length });
  return { status: 200, body: answer.body, audit: { resourceIds: [] } };
}

export const x12Operations: Record<string, OperationHandler> = { ingestX12 };
