// An X12 271 eligibility response (recognized by its ISA header): each subscriber loop updates
// the Coverage it answers (x12/eligibility-applier.ts). A broken envelope refuses the file.
import { applyEligibility } from '../../x12/eligibility-applier.js';
import { X12Error } from '../../x12/x12-error.js';
import { ImportRefused, type Importer, type ImportSummary } from './importer.js';
import type { EligibilitySummary } from '../../x12/eligibility-applier.js';

export type X12ImportSummary = ImportSummary & EligibilitySummary;

export const x12EligibilityImporter: Importer = {
  format: 'x12-271',
  detect: (head) => head.trimStart().startsWith('ISA'),
  async run(source, target, onProgress): Promise<X12ImportSummary> {
    const chunks: Buffer[] = [];
    for await (const chunk of source) chunks.push(chunk);
    let summary: EligibilitySummary;
    try {
      summary = await applyEligibility(target.db, Buffer.concat(chunks).toString('utf8'), { orgId: target.orgId, facilityId: target.facilityId, actor: target.actor, requestId: target.runId });
    } catch (error) {
      if (error instanceof X12Error) throw new ImportRefused(`the X12 interchange was refused, nothing was written: ${error.message}`);
      throw error;
    }
    onProgress(summary.matched + summary.unmatched.length + summary.rejected.length + summary.conflicts.length);
    return { format: 'x12-271', ...summary, created: 0, rejected_count: summary.rejected.length };
  },
};
