// A FHIR R4 transaction or batch Bundle (one JSON document, pretty-printed or not).
import { applyChangeSet } from '../../ingest/apply-change-set.js';
import { refusedTransaction, translateBundle } from '../../ingest/fhir-bundle.js';
import { ApiError } from '../../errors/api-error.js';
import { firstLine, ImportRefused, type Importer } from './importer.js';

export const fhirBundleImporter: Importer = {
  format: 'fhir-bundle',
  detect(head) {
    const line = firstLine(head);
    if (!line || !line.trimStart().startsWith('{')) return false;
    try {
      return (JSON.parse(line) as { resourceType?: unknown }).resourceType === 'Bundle';
    } catch {
      // Not one object per line: a pretty-printed document, a Bundle if it says so.
      return /^\s*\{[\s\S]*?"resourceType"\s*:\s*"Bundle"/.test(head);
    }
  },
  async run(source, target, onProgress) {
    const chunks: Buffer[] = [];
    for await (const chunk of source) chunks.push(chunk);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new ImportRefused('the Bundle is not valid JSON');
    }
    let translation;
    try {
      translation = await translateBundle(body, { orgId: target.orgId, facilityId: target.facilityId, actor: target.actor, emitEvents: true });
    } catch (error) {
      if (error instanceof ApiError) throw new ImportRefused(error.message);
      throw error;
    }
    const refusal = (result?: Parameters<typeof refusedTransaction>[1]) =>
      new ImportRefused(`the transaction was refused, nothing was written:\n${refusedTransaction(translation, result).outcome.issue.map((i) => `  ${i.diagnostics}`).join('\n')}`);
    if (translation.type === 'transaction' && translation.refused.size > 0) throw refusal();
    const result = await applyChangeSet(target.db, translation.changeSet, { requestId: target.runId });
    if (result.committed === false) throw refusal(result);
    onProgress(translation.entries);
    const rejected = [
      ...[...translation.refused].map(([index, issue]) => ({ at: `Bundle.entry[${index}]`, issue: issue.diagnostics })),
      ...result.outcomes.flatMap((o) => (o.outcome === 'rejected' ? [{ at: o.at, issue: o.issue.diagnostics }] : [])),
    ];
    return { format: 'fhir-bundle', created: result.created, updated: result.updated, unchanged: result.unchanged, rejected: rejected.slice(0, 1000), rejected_count: rejected.length, events: result.events };
  },
};
