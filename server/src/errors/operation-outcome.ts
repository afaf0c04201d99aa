// FHIR OperationOutcome: how the FHIR operations (ingest, the R4 view) answer every failure
// (application/fhir+json), built from the error catalogue's ApiError or (ingest/change-issue-outcome.ts)
// from a change's issues.
import type { ApiError } from './api-error.js';

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
  431: 'too-long',
  500: 'exception',
  503: 'transient',
};

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
