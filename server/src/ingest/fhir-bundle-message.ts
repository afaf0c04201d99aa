// A FHIR Bundle as one inbound message, start to finish, for the HTTP ingest road and for a
// reprocess of a stored Bundle (messages/message-reprocess.ts): read the text, translate it,
// apply it in one database transaction, and answer as the ingest endpoint does (200 and the
// response Bundle; 400/422/412 and an OperationOutcome). `inside` runs in that transaction once
// the Bundle is applied, so the message store's row is written with what it changed, or not
// at all; throwing there rolls everything back. A refusal wrote nothing: its row is written by
// the caller, alone.
import type { Knex } from 'knex';
import { ApiError } from '../errors/api-error.js';
import { errorCatalogue } from '../errors/error-catalogue.js';
import type { AnswerError, ChangedRecord, MessageOutcome } from '../messages/message-types.js';
import { applyChangeSet } from './apply-change-set.js';
import type { ChangeSet, ChangeSetResult } from './change-set.js';
import { refusedTransaction, responseBundle, translateBundle } from './fhir-bundle.js';
import { outcomeOfError, type OperationOutcome } from '../errors/operation-outcome.js';

export interface BundleAnswer {
  status: number;
  body: unknown;
  /** The answer as the message store keeps it. */
  outcome: MessageOutcome;
  /** Set when applied. */
  result?: ChangeSetResult;
}

const errorsOf = (outcome: OperationOutcome): AnswerError[] =>
  outcome.issue.map((i) => ({ severity: i.severity === 'error' ? 'error' : 'warning', code: i.details?.coding[0]?.code ?? i.code, ...(i.expression?.[0] ? { where: i.expression[0] } : {}), text: i.diagnostics }));

function refusal(status: number, body: OperationOutcome): BundleAnswer {
  return { status, body, outcome: { status: 'refused', answer: { code: String(status), errors: errorsOf(body), body }, records: [] } };
}

/** The Bundle's id or identifier: its control id as the store lists it. */
export function bundleControlId(body: unknown): string | null {
  if (body === null || typeof body !== 'object') return null;
  const b = body as { id?: unknown; identifier?: { value?: unknown } };
  if (typeof b.identifier?.value === 'string') return b.identifier.value;
  return typeof b.id === 'string' ? b.id : null;
}

export function parseBundleText(text: string): unknown {
  if (text.trim() === '') throw new ApiError('invalid_fhir', 'The body is empty; send a FHIR R4 Bundle.', [{ field: 'body', issue: 'is empty' }]);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_fhir', 'The body is not valid JSON.', [{ field: 'body', issue: 'is not valid JSON' }]);
  }
}

export async function applyBundleText(
  db: Knex,
  text: string,
  target: Omit<ChangeSet, 'mode' | 'changes'>,
  requestId: string,
  inside?: (trx: Knex.Transaction, outcome: MessageOutcome) => Promise<void>,
): Promise<BundleAnswer> {
  let translation;
  try {
    translation = await translateBundle(parseBundleText(text), target);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refusal(error.status, outcomeOfError(error, requestId));
  }
  if (translation.type === 'transaction' && translation.refused.size > 0) return refusal(errorCatalogue.invalid_fhir.status, refusedTransaction(translation, undefined).outcome);
  const answered = await db.transaction(async (trx): Promise<BundleAnswer> => {
    const result = await applyChangeSet(trx, translation.changeSet, { requestId });
    if (result.committed === false) {
      const refused = refusedTransaction(translation, result);
      return refusal(refused.preconditionFailed ? errorCatalogue.precondition_failed.status : errorCatalogue.unprocessable_resource.status, refused.outcome);
    }
    const body = responseBundle(translation, result);
    const records: ChangedRecord[] = result.outcomes.flatMap((o) => (o.outcome === 'created' || o.outcome === 'updated' ? [{ type: o.resourceType, id: o.id, version: o.versionId, outcome: o.outcome }] : []));
    const errors: AnswerError[] = [
      ...[...translation.refused].map(([index, issue]): AnswerError => ({ severity: 'error', code: issue.code, where: `Bundle.entry[${index}]`, text: issue.diagnostics })),
      ...result.outcomes.flatMap((o): AnswerError[] => (o.outcome === 'rejected' ? [{ severity: 'error', code: o.issue.code, where: o.at, text: o.issue.diagnostics }] : [])),
    ];
    const patient = result.outcomes.find((o) => o.outcome !== 'rejected' && o.resourceType === 'Patient');
    const outcome: MessageOutcome = {
      status: errors.length > 0 ? 'applied_with_warnings' : 'applied',
      answer: { code: '200', errors },
      records,
      residentId: patient && patient.outcome !== 'rejected' ? patient.id : null,
    };
    await inside?.(trx, outcome);
    return { status: 200, body, outcome, result };
  });
  return answered;
}
