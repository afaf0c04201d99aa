// FHIR Bulk Data NDJSON (one resource per line) -> ChangeSets of batch semantics, streamed:
// lines are read as they arrive and applied a chunk at a time, so memory stays flat however
// long the stream. Each line is an upsert on its first identifier (or, without one, on the
// sender's resource id, kept under the system `urn:ofctx:source-id`), so re-sending a file
// changes nothing.
import type { Knex } from 'knex';
import { applyChangeSet, type ApplyOptions } from './apply-change-set.js';
import { INGESTIBLE_TYPES, type ChangeIssue, type ChangeSet, type IngestResource, type ResourceChange } from './change-set.js';
import { validateLines } from './fhir-validation-pool.js';

export const SOURCE_ID_SYSTEM = 'urn:ofctx:source-id';
/** A line longer than this is rejected (and skipped) rather than buffered. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** At most this many rejected lines are listed; `rejected_count` counts them all. */
export const MAX_LISTED_REJECTIONS = 1000;
const LINES_PER_CHUNK = 500;

export interface NdjsonSummary {
  created: number;
  updated: number;
  unchanged: number;
  rejected: Array<{ line: number; code: ChangeIssue['code']; issue: string; expression?: string[] }>;
  rejected_count: number;
  events: number;
}

export type NdjsonLine = { line: number; text: string } | { line: number; tooLong: true };

/** Splits a byte stream into lines without ever holding more than one line (bounded). */
export async function* ndjsonLines(source: AsyncIterable<Buffer | string>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<NdjsonLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let line = 0;
  const finish = function* (): Generator<NdjsonLine> {
    line++;
    if (tooLong) yield { line, tooLong: true };
    else if (pendingBytes > 0) yield { line, text: Buffer.concat(pending, pendingBytes).toString('utf8') };
    pending = [];
    pendingBytes = 0;
    tooLong = false;
  };
  for await (const piece of source) {
    let chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10)) {
      if (!tooLong && pendingBytes + newline <= maxLineBytes) {
        pending.push(chunk.subarray(0, newline));
        pendingBytes += newline;
      } else tooLong = true;
      yield* finish();
      chunk = chunk.subarray(newline + 1);
    }
    if (chunk.length > 0) {
      if (!tooLong && pendingBytes + chunk.length <= maxLineBytes) {
        // Copied: the stream may reuse its buffer.
        pending.push(Buffer.from(chunk));
        pendingBytes += chunk.length;
      } else {
        tooLong = true;
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0 || tooLong) yield* finish();
}

function lineChange(resource: unknown, at: string): ResourceChange | ChangeIssue {
  if (resource === null || typeof resource !== 'object' || Array.isArray(resource)) return { code: 'structure', diagnostics: 'each line must be one JSON object (a FHIR resource)' };
  const r = resource as Record<string, unknown>;
  if (typeof r.resourceType !== 'string' || !(INGESTIBLE_TYPES as readonly string[]).includes(r.resourceType)) {
    return { code: 'not-supported', diagnostics: `resourceType ${JSON.stringify(r.resourceType ?? null)} cannot be ingested; send one of ${INGESTIBLE_TYPES.join(', ')}`, expression: ['resourceType'] };
  }
  const first = Array.isArray(r.identifier) ? (r.identifier[0] as Record<string, unknown> | undefined) : undefined;
  if (first && typeof first.system === 'string' && typeof first.value === 'string') {
    return { resource: r as IngestResource, match: { identifier: { system: first.system, value: first.value } }, at };
  }
  if (typeof r.id === 'string' && r.id !== '') {
    return { resource: r as IngestResource, match: { identifier: { system: SOURCE_ID_SYSTEM, value: r.id } }, at };
  }
  return { code: 'required', diagnostics: `${r.resourceType} needs an identifier (or an id) to be upserted`, expression: [`${r.resourceType}.identifier`] };
}

export interface NdjsonTarget {
  orgId: string;
  facilityId: string;
  actor: string;
  emitEvents: boolean;
}

export async function importNdjson(
  db: Knex,
  source: AsyncIterable<Buffer | string>,
  target: NdjsonTarget,
  options: ApplyOptions & { onProgress?: (lines: number, summary: NdjsonSummary) => void } = {},
): Promise<NdjsonSummary> {
  const summary: NdjsonSummary = { created: 0, updated: 0, unchanged: 0, rejected: [], rejected_count: 0, events: 0 };
  // Rejections of the current chunk, reported in line order when it is flushed.
  let pending: Array<[number, ChangeIssue]> = [];
  const reject = (line: number, issue: ChangeIssue) => pending.push([line, issue]);
  const record = (line: number, issue: ChangeIssue) => {
    summary.rejected_count++;
    if (summary.rejected.length < MAX_LISTED_REJECTIONS) {
      summary.rejected.push({ line, code: issue.code, issue: issue.diagnostics, ...(issue.expression ? { expression: issue.expression } : {}) });
    }
  };
  let changes: ResourceChange[] = [];
  let lines: number[] = [];
  let texts: string[] = [];
  let seen = 0;
  // The chunk being applied while the next one is parsed and validated: the database works
  // (another process, for PostgreSQL) while this process reads on. Chunks still commit in order.
  let applying: Promise<void> = Promise.resolve();
  const flush = async () => {
    const parsed = changes;
    const parsedLines = lines;
    const chunkRejects = pending;
    // Validated on the worker thread while the previous chunk is applied here.
    const validation = validateLines(texts);
    changes = [];
    lines = [];
    texts = [];
    pending = [];
    const previous = applying;
    applying = (async () => {
      const issues = await validation;
      const chunk: ResourceChange[] = [];
      const chunkLines: number[] = [];
      issues.forEach((issue, i) => {
        if (issue) chunkRejects.push([parsedLines[i]!, issue]);
        else {
          chunk.push(parsed[i]!);
          chunkLines.push(parsedLines[i]!);
        }
      });
      await previous;
      if (chunk.length > 0) {
        const set: ChangeSet = { ...target, mode: 'batch', changes: chunk };
        const result = await applyChangeSet(db, set, { ...options, chunkSize: chunk.length });
        summary.created += result.created;
        summary.updated += result.updated;
        summary.unchanged += result.unchanged;
        summary.events += result.events;
        result.outcomes.forEach((outcome, i) => {
          if (outcome.outcome === 'rejected') chunkRejects.push([chunkLines[i]!, outcome.issue]);
        });
      }
      for (const [line, issue] of chunkRejects.sort((a, b) => a[0] - b[0])) record(line, issue);
      options.onProgress?.(seen, summary);
    })();
    // Its failure is raised by the next await of it; this only keeps Node from calling it unhandled meanwhile.
    applying.catch(() => {});
    // At most one chunk waits behind the one being applied: memory stays bounded.
    await previous;
  };
  for await (const item of ndjsonLines(source)) {
    if (changes.length >= LINES_PER_CHUNK || pending.length >= LINES_PER_CHUNK) await flush();
    seen = item.line;
    if ('tooLong' in item) {
      reject(item.line, { code: 'too-costly', diagnostics: `the line is longer than ${MAX_LINE_BYTES} bytes` });
      continue;
    }
    if (item.text.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(item.text);
    } catch {
      reject(item.line, { code: 'structure', diagnostics: 'the line is not valid JSON' });
      continue;
    }
    const at = `line ${item.line}`;
    const change = lineChange(parsed, at);
    if (!('resource' in change)) {
      reject(item.line, change);
      continue;
    }
    changes.push(change);
    lines.push(item.line);
    texts.push(item.text);
  }
  await flush();
  await applying;
  return summary;
}
