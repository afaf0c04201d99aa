// An X12 271 as one inbound message, for the HTTP road, `ops import` and a reprocess of a stored
// interchange (messages/message-reprocess.ts): applied by applyEligibility (loop by loop, as
// ever), answered as POST .../x12 answers (200 and the loop summary; 400 invalid_x12 naming
// the segment), and what the message store keeps of it: status, answer and the records it
// wrote (read back by request id, messages/written-records.ts).
import type { Knex } from 'knex';
import { ApiError } from '../errors/api-error.js';
import { failure, single } from '../http/envelope.js';
import type { AnswerError, MessageOutcome } from '../messages/message-types.js';
import { ingestWritesMark, writtenRecords } from '../messages/written-records.js';
import { applyEligibility, type EligibilitySummary, type EligibilityTarget } from './eligibility-applier.js';
import { X12Error } from './x12-error.js';

export interface X12Answer {
  status: number;
  body: unknown;
  outcome: MessageOutcome;
  summary?: EligibilitySummary;
  error?: ApiError;
}

/** ISA06 (the sender) and ISA13 (the interchange control number) of a text that starts like an interchange. */
export function x12Envelope(text: string): { sender: string | null; controlNumber: string | null } {
  const t = text.trimStart();
  if (!t.startsWith('ISA') || !t[3]) return { sender: null, controlNumber: null };
  const isa = t.split(t[3]);
  return { sender: isa[6]?.trim() || null, controlNumber: isa[13]?.trim() || null };
}

export async function applyX12Text(db: Knex, text: string, target: EligibilityTarget & { requestId: string }): Promise<X12Answer> {
  try {
    const mark = await ingestWritesMark(db);
    const summary = await applyEligibility(db, text, target);
    const errors: AnswerError[] = [
      ...summary.unmatched.map((l): AnswerError => ({ severity: 'warning', code: 'unmatched', where: l.at, text: l.issue })),
      ...summary.rejected.map((l): AnswerError => ({ severity: 'warning', code: 'rejected', where: l.at, text: l.issue })),
      ...summary.conflicts.map((l): AnswerError => ({ severity: 'warning', code: 'conflict', where: l.at, text: l.issue })),
    ];
    const records = await writtenRecords(db, target.orgId, target.requestId, mark);
    return {
      status: 200,
      body: single(summary),
      summary,
      outcome: { status: errors.length ? 'applied_with_warnings' : 'applied', answer: { code: '200', errors }, records, residentId: null },
    };
  } catch (error) {
    if (!(error instanceof X12Error)) throw error;
    const refused = new ApiError('invalid_x12', `The interchange was refused, nothing was written: ${error.message}`, [{ field: `body (${error.where})`, issue: error.message }]);
    const body = failure(refused, target.requestId);
    return { status: refused.status, body, error: refused, outcome: { status: 'refused', answer: { code: String(refused.status), errors: [{ severity: 'error', code: 'invalid_x12', where: error.where, text: error.message }], body }, records: [] } };
  }
}
