// POST /api/v1/ingest/{org_id}/{facility_id}/x12: a 271 eligibility response from the payer
// or clearinghouse, sent by the facility's ingest credential (scope ingest.write, checked by
// tenancy/authorize.ts like every scope). Answers in the envelope: the loop summary, or
// invalid_x12 naming the segment and element.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import type { OperationResult } from '../http/operation.js';
import type { OperationHandler, OperationRequest } from '../app-context.js';
import { readBoundedBody } from '../http/bounded-body.js';
import { applyX12Text, x12Envelope } from './x12-message.js';

function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return readBoundedBody(req, maxBytes, () => new ApiError('payload_too_large', `The interchange exceeds ${maxBytes} bytes (INGEST_MAX_BUNDLE_BYTES); split it into several interchanges.`));
}

/** The interchange is one inbound message (messages/): stored with its answer, refused or not. */
async function ingestX12(request: OperationRequest): Promise<OperationResult> {
  const { app, params, principal } = request;
  const text = await readBody(request.koa.req, app.config.ingestMaxBundleBytes);
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
