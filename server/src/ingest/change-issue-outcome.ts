// A change's issue as an OperationOutcome issue, placed at its Bundle entry or line.
import { errorCatalogue } from '../errors/error-catalogue.js';
import { ERROR_CODE_SYSTEM, type OperationOutcome } from '../errors/operation-outcome.js';
import type { ChangeIssue } from './change-set.js';

/**
 * An issue of one change, placed at its entry or line: `Bundle.entry[2].resource.birthDate`.
 * A stale ifMatch also carries the catalogue code `precondition_failed` in `details`.
 */
export function issueAt(at: string, issue: ChangeIssue, resourcePath = ''): OperationOutcome['issue'][number] {
  const expression = (issue.expression ?? []).map((e) => (resourcePath ? `${resourcePath}${e.includes('.') ? e.slice(e.indexOf('.')) : ''}` : e));
  const details = issue.versionConflict ? { details: { coding: [{ system: ERROR_CODE_SYSTEM, code: 'precondition_failed' }], text: errorCatalogue.precondition_failed.message } } : {};
  return { severity: 'error', code: issue.code, diagnostics: `${at}: ${issue.diagnostics}`, ...(expression.length ? { expression } : {}), ...details };
}
