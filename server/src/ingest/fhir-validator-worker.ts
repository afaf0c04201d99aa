// The FHIR validator on a worker thread: it parses and validates NDJSON lines while the main
// thread applies the previous chunk to the database, so a long import uses two cores.
// Receives { id, texts } (lines that parsed as ingestible resources), answers { id, issues }
// with each line's first issue or null.
import { parentPort } from 'node:worker_threads';
import { fhirIssues } from './fhir-validator.js';
import type { ChangeIssue, IngestibleType } from './change-set.js';

parentPort!.on('message', async ({ id, texts }: { id: number; texts: string[] }) => {
  const issues: Array<ChangeIssue | null> = [];
  for (const text of texts) {
    const [issue] = await fhirIssues(JSON.parse(text) as { resourceType: IngestibleType });
    issues.push(issue ?? null);
  }
  parentPort!.postMessage({ id, issues });
});
