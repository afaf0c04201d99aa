// FHIR Bulk Data NDJSON: one resource per line, streamed and applied chunk by chunk.
import { importNdjson } from '../../ingest/fhir-ndjson.js';
import { firstLine, type Importer } from './importer.js';

export const fhirNdjsonImporter: Importer = {
  format: 'fhir-ndjson',
  detect(head) {
    const line = firstLine(head);
    if (!line) return false;
    try {
      const first = JSON.parse(line) as { resourceType?: unknown };
      return typeof first.resourceType === 'string' && first.resourceType !== 'Bundle';
    } catch {
      return false;
    }
  },
  async run(source, target, onProgress) {
    const summary = await importNdjson(
      target.db,
      source,
      { orgId: target.orgId, facilityId: target.facilityId, actor: target.actor, emitEvents: true },
      { requestId: target.runId, onProgress: (_lines, s) => onProgress(s.created + s.updated + s.unchanged + s.rejected_count) },
    );
    return {
      format: 'fhir-ndjson',
      created: summary.created,
      updated: summary.updated,
      unchanged: summary.unchanged,
      rejected: summary.rejected.map((r) => ({ at: `line ${r.line}`, issue: r.issue })),
      rejected_count: summary.rejected_count,
      events: summary.events,
    };
  },
};
