// POST /api/v1/ingest/{org_id}/{facility_id}/x12: a 271 eligibility response from the payer
// or clearinghouse, sent by the facility's ingest credential (scope ingest.write, checked by
// tenancy/authorize.ts like every scope). Answers in the envelope: the loop summary, or
// invalid_x12 naming the segment and element.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import type { OperationHandler, OperationRequest, OperationResult } from '../http/operation.js';
import { single } from '../http/envelope.js';
import { readBoundedBody } from '../http/bounded-body.js';
import { applyEligibility } from './eligibility-applier.js';
import { X12Error } from './x12-error.js';

function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return readBoundedBody(req, maxBytes, () => new ApiError('payload_too_large', `The interchange exceeds ${maxBytes} bytes (INGEST_MAX_BUNDLE_BYTES); split it into several interchanges.`));
}

async function ingestX12(request: OperationRequest): Promise<OperationResult> {
  const { app, params, principal } = request;
  const text = await readBody(request.koa.req, app.config.ingestMaxBundleBytes);
  try {
    const summary = await applyEligibility(app.db, text, { orgId: params.org_id!, facilityId: params.facility_id!, actor: principal.clientId, requestId: request.requestId });
    app.metrics.ingest.record('x12', { updated: summary.updated, unchanged: summary.unchanged, unmatched: summary.unmatched.length, rejected: summary.rejected.length, conflict: summary.conflicts.length });
    return { status: 200, body: single(summary), audit: { resourceIds: [] } };
  } catch (error) {
    if (error instanceof X12Error) app.metrics.ingest.inc({ source: 'x12', outcome: 'refused' });
    if (error instanceof X12Error) throw new ApiError('invalid_x12', `The interchange was refused, nothing was written: ${error.message}`, [{ field: `body (${error.where})`, issue: error.message }]);
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new ApiError('service_unavailable', 'The database is busy with another import; retry in a few seconds.', [], { 'Retry-After': '5' });
    throw error;
  }
}

export const x12Operations: Record<string, OperationHandler> = { ingestX12 };
