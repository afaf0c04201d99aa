// FHIR Bulk Data Access IG v2.0 on the R4 base: kick-off ([base]/$export, [base]/Patient/$export,
// [base]/Group/{facility_id}/$export; GET or POST), the status URL (GET: 202 with X-Progress
// while running, 200 with the manifest when done; DELETE: cancel and remove), and the files
// (GET, application/fhir+ndjson). Contract operations like the R4 view's: the same bearer
// tokens, tenancy check and audit trail; the types' scopes are checked at kick-off; a job,
// its status and its files belong to the client that started it (any other: 404).
import { createReadStream } from 'node:fs';
import { exportFileDisclosures } from './export-file-disclosures.js';
import { ApiError } from '../errors/api-error.js';
import type { OperationResult } from '../http/operation.js';
import type { OperationHandler, OperationRequest } from '../app-context.js';
import { fhirBase, FHIR_JSON_UTF8 } from '../resources/r4/r4-operations.js';
import { exportParameters, readExportRequest } from './export-request.js';
import { createJob, deleteJob, readJob, type ExportJob } from './export-jobs.js';
import { filePath, removeJobFiles } from './export-files.js';

const NDJSON = 'application/fhir+ndjson';
/** The file listing the parameters ignored under handling=lenient (the manifest's `error`). */
const IGNORED_FILE = 'OperationOutcome.ndjson';

const statusUrl = (request: OperationRequest, id: string) => `${fhirBase(request.koa, request.params)}/bulk-status/${id}`;
const fileUrl = (request: OperationRequest, id: string, file: string) => `${fhirBase(request.koa, request.params)}/bulk-files/${id}/${file}`;

function information(text: string) {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational', diagnostics: text }] };
}

function exportDir(request: OperationRequest): string {
  const dir = request.app.config.bulkExport.dir;
  if (dir === undefined) throw new ApiError('service_unavailable', 'Bulk export is not configured on this server (BULK_EXPORT_DIR).');
  return dir;
}

function kickOff(level: 'system' | 'patient' | 'group'): OperationHandler {
  return async (request) => {
    const { app, params, principal, koa } = request;
    // The facility is the one Group of its R4 base.
    if (level === 'group' && params.group_id!.toLowerCase() !== params.facility_id) throw new ApiError('not_found', `Group/${params.group_id} is not known in this facility; its Group is Group/${params.facility_id}.`);
    exportDir(request);
    const asked = readExportRequest(principal, exportParameters(request.query, request.body), request.headers.prefer);
    const { ttlHours, maxJobsPerClient, pollIntervalMs } = app.config.bulkExport;
    const job = await createJob(app.db, {
      orgId: principal.orgId,
      facilityId: params.facility_id!,
      clientId: principal.clientId,
      requestUrl: `${koa.protocol}://${koa.host}${koa.originalUrl}`,
      types: asked.types.map((r4) => r4.type),
      ...(asked.since ? { since: asked.since } : {}),
      ignored: asked.ignored,
      // The token's granular scopes restrict every page, as they restrict its searches.
      restrictions: principal.restrictions,
      ttlHours,
      maxJobsPerClient,
    });
    if (!job) {
      throw new ApiError('rate_limited', `This client already has ${maxJobsPerClient} exports running; wait for one to finish (or cancel one) and retry.`, [], { 'Retry-After': String(Math.max(1, Math.ceil((pollIntervalMs * 5) / 1000))) });
    }
    app.bulkExports.wake();
    return {
      status: 202,
      headers: { 'Content-Type': FHIR_JSON_UTF8, 'Content-Location': statusUrl(request, job.id) },
      body: information(`Export of ${job.types.join(', ') || 'nothing'} accepted; poll ${statusUrl(request, job.id)}.`),
      audit: { resourceIds: [] },
    };
  };
}

async function ownJob(request: OperationRequest): Promise<ExportJob> {
  const { app, params, principal } = request;
  const job = await readJob(app.db, params.job_id!.toLowerCase(), { clientId: principal.clientId, orgId: principal.orgId, facilityId: params.facility_id! });
  if (!job) throw new ApiError('not_found', 'No export of this client with this id (it may have expired or been cancelled).');
  return job;
}

const readFhirExportStatus: OperationHandler = async (request): Promise<OperationResult> => {
  const job = await ownJob(request);
  if (job.status === 'failed') throw new ApiError('internal_error', job.failure ?? 'The export failed; start a new one.');
  if (job.status !== 'completed') {
    const { t, n } = job.progress;
    const progress = t < job.types.length ? `${job.types[t]} (${t + 1} of ${job.types.length}): ${n} written` : 'finishing';
    return { status: 202, body: '', headers: { 'X-Progress': progress, 'Retry-After': String(Math.max(1, Math.ceil(request.app.config.bulkExport.pollIntervalMs / 1000))) }, audit: { resourceIds: [] } };
  }
  const manifest = {
    transactionTime: job.transaction_time,
    request: job.request_url,
    requiresAccessToken: true,
    output: job.outputs.map((o) => ({ type: o.type, url: fileUrl(request, job.id, o.file), count: o.count })),
    error: job.ignored.length ? [{ type: 'OperationOutcome', url: fileUrl(request, job.id, IGNORED_FILE) }] : [],
  };
  return { body: manifest, headers: { Expires: new Date(job.expires_at).toUTCString() }, audit: { resourceIds: [] } };
};

const cancelFhirExport: OperationHandler = async (request) => {
  const job = await ownJob(request);
  await deleteJob(request.app.db, job.id);
  // A worker running it notices at its next page (its progress finds no row) and stops.
  await removeJobFiles(request.app.config.bulkExport.dir, job.id);
  return { status: 202, headers: { 'Content-Type': FHIR_JSON_UTF8 }, body: information('The export was cancelled and its files removed.'), audit: { resourceIds: [] } };
};

const readFhirExportFile: OperationHandler = async (request) => {
  const job = await ownJob(request);
  const file = request.params.file!;
  if (job.status === 'completed' && file === IGNORED_FILE && job.ignored.length) {
    const outcome = { resourceType: 'OperationOutcome', issue: job.ignored.map((name) => ({ severity: 'warning', code: 'not-supported', diagnostics: `${name} is not supported; it was ignored (Prefer: handling=lenient).` })) };
    return { body: `${JSON.stringify(outcome)}\n`, headers: { 'Content-Type': NDJSON }, audit: { resourceIds: [] } };
  }
  const output = job.status === 'completed' ? job.outputs.find((o) => o.file === file) : undefined;
  if (!output) throw new ApiError('not_found', `This export has no file ${file}.`);
  const path = filePath(exportDir(request), job.id, file);
  // Its records go to the accounting of disclosures like a search's page (export-file-disclosures.ts).
  const audit = await exportFileDisclosures(path, output.type);
  return { body: createReadStream(path), headers: { 'Content-Type': NDJSON }, audit };
};

export const bulkExportOperations: Record<string, OperationHandler> = {
  kickOffFhirExport: kickOff('system'),
  kickOffFhirExportByPost: kickOff('system'),
  kickOffFhirPatientExport: kickOff('patient'),
  kickOffFhirPatientExportByPost: kickOff('patient'),
  kickOffFhirGroupExport: kickOff('group'),
  kickOffFhirGroupExportByPost: kickOff('group'),
  readFhirExportStatus,
  cancelFhirExport,
  readFhirExportFile,
};
