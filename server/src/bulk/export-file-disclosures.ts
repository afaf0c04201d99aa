// A downloaded export file is a disclosure of every record in it, to be listed in the
// accounting of disclosures of each resident it holds (audit/disclosures.ts), like a page of a
// search. What it holds is read from the file itself as it is served: each line's id, and its
// resident (a Patient itself, or the Patient its subject, patient or beneficiary references,
// which is how the R4 renderers write a record's resident_id). The file is read once more, a
// line at a time, before it is streamed: its audit row is committed before the answer (about
// 1 s per 100,000 resources before the first byte).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { disclosuresOf } from '../audit/disclosures.js';
import type { Disclosure } from '../db/disclosure-encoding.js';

/** The fields through which the R4 view's renderers name a record's resident. */
const RESIDENT_REFERENCES = ['subject', 'patient', 'beneficiary'] as const;
const PATIENT_REFERENCE = /^Patient\/([^/]+)$/;

/** The resident of a rendered R4 resource: a Patient's own id, else the Patient it references. */
export function residentOfRendered(resource: Record<string, unknown>): string | undefined {
  if (resource.resourceType === 'Patient') return typeof resource.id === 'string' ? resource.id : undefined;
  for (const field of RESIDENT_REFERENCES) {
    const reference = (resource[field] as { reference?: unknown } | undefined)?.reference;
    const match = typeof reference === 'string' ? PATIENT_REFERENCE.exec(reference) : null;
    if (match) return match[1];
  }
  return undefined;
}

/** What serving the NDJSON file at `path`, of `resourceType`, discloses: its records' ids, and whose they are. */
export async function exportFileDisclosures(path: string, resourceType: string): Promise<{ resourceIds: string[]; disclosures: Disclosure[] }> {
  const rows: Array<{ id: string; resident_id: string }> = [];
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const resource = JSON.parse(line) as Record<string, unknown>;
    const resident = residentOfRendered(resource);
    // Every line the service writes names its resident; a record without one discloses no one.
    if (typeof resource.id === 'string' && resident !== undefined) rows.push({ id: resource.id, resident_id: resident });
  }
  return { resourceIds: rows.map((row) => row.id), disclosures: disclosuresOf(resourceType, rows) };
}
