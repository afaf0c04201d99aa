// FHIR OperationOutcome: how the ingest endpoint answers every failure (application/fhir+json),
// built from a change's issues or from the error catalogue's ApiError.
import { ApiError } from '../errors/api-error.js';
import { errorCatalogue } from '../errors/error-catalogue.js';
import type { ChangeIssue } from './change-set.js';

export const FHIR_JSON = 'application/fhir+json';
/** The code system of ofctx's catalogue codes inside an issue's `details`. */
export const ERROR_CODE_SYSTEM = 'https://ofctx.example/fhir/CodeSystem/error';

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: Array<{
    severity: 'error' | 'warning' | 'information';
    code: string;
    diagnostics: string;
    expression?: string[];
    details?: { coding: Array<{ system: string; code: string }>; text: string };
  }>;
}

const STATUS_ISSUE: Record<number, string> = {
  400: 'invalid',
  401: 'login',
  403: 'forbidden',
  404: 'not-found',
  405: 'not-supported',
  413: 'too-costly',
  415: 'not-supported',
  422: 'processing',
  429: 'throttled',
  500: 'exception',
  503: 'transient',
};

/**
 * An issue of one change, placed at its entry or line: `Bundle.entry[2].resource.birthDate`.
 * A stale ifMatch also carries the catalogue code `precondition_failed` in `details`.
 */
export function issueAt(at: string, issue: ChangeIssue, resourcePath = ''): OperationOutcome['issue'][number] {
  const expression = (issue.expression ?? []).map((e) => (resourcePath ? `${resourcePath}${e.includes('.') ? e.slice(e.indexOf('.')) : ''}` : e));
  const details = issue.versionConflict ? { details: { coding: [{ system: ERROR_CODE_SYSTEM, code: 'precondition_failed' }], text: errorCatalogue.precondition_failed.message } } : {};
  return { severity: 'error', code: issue.code, diagnostics: `${at}: ${issue.diagnostics}`, ...(expression.length ? { expression } : {}), ...details };
}

export function outcomeOf(issues: OperationOutcome['issue']): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: issues };
}

export function outcomeOfError(error: ApiError, requestId: string): OperationOutcome {
  const expression = error.details.map((d) => d.field);
  return outcomeOf([
    {
      severity: 'error',
      code: STATUS_ISSUE[error.status] ?? 'processing',
      diagnostics: `${error.message}${error.details.length ? ` (${error.details.map((d) => `${d.field} ${d.issue}`).join('; ')})` : ''} [request_id ${requestId}]`,
      ...(expression.length ? { expression } : {}),
      details: { coding: [{ system: ERROR_CODE_SYSTEM, code: error.code }], text: error.message },
    },
  ]);
}

/** The ingest operation's path: its failures are answered as OperationOutcome. */
export function isIngestRequest(method: string, path: string): boolean {
  return method === 'POST' && /^\/api\/v1\/ingest\/[^/]+\/[^/]+\/fhir\/?$/.test(path);
}
