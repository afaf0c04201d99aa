// What one import format is: how it recognizes its content from the first bytes, and how it
// turns the stream into ChangeSets for applyChangeSet. `ops import` asks each importer of
// formats.ts in turn; adding a format is one file and one line there.
import type { Knex } from 'knex';

export interface ImportTarget {
  db: Knex;
  orgId: string;
  facilityId: string;
  /** For the audit trail: who wrote (`ops-cli`) and which run (`request_id` of ingest_writes). */
  actor: string;
  runId: string;
}

export interface ImportSummary {
  format: string;
  created: number;
  updated: number;
  unchanged: number;
  /** Where (`line 17`, `Bundle.entry[3]`) and what; the first 1,000. */
  rejected: Array<{ at: string; issue: string }>;
  rejected_count: number;
  events: number;
}

export interface Importer {
  format: string;
  /** The first bytes of the content (up to 64 KiB, or all of it when shorter). */
  detect(head: string): boolean;
  run(source: AsyncIterable<Buffer>, target: ImportTarget, onProgress: (resources: number) => void): Promise<ImportSummary>;
}

/** An import that must be refused as a whole (a transaction Bundle with a bad entry). */
export class ImportRefused extends Error {}

/** The first non-empty line of the head, or undefined. */
export function firstLine(head: string): string | undefined {
  return head.split('\n').find((line) => line.trim() !== '');
}
