// The last figures of each benchmark, kept in .bench/results.json (gitignored), so that a
// BENCH_ONLY run rewrites docs/benchmarks.md with its new figures and the others' last ones,
// each section dated. A fresh clone has none: sections not yet run say so.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DeliveryThroughputResult } from './delivery-throughput.js';
import type { GrowthResult } from './growth.js';
import type { IngestThroughputResult } from './ingest-throughput.js';
import type { FeedsThroughputResult } from './feeds-throughput.js';
import type { ExportThroughputResult } from './export-throughput.js';
import type { SearchThroughputResult } from './search-throughput.js';
import type { PolicyThroughputResult } from './policy-throughput.js';
import type { EligibilityThroughputResult } from './eligibility-throughput.js';
import type { FairnessResult } from './fairness.js';
import type { ListThroughputResult } from './list-throughput.js';
import type { ScaleResult } from './scale-audit.js';
import type { Machine } from './machine.js';
import { ROOT } from './service-process.js';
import type { StartupResult } from './startup.js';
import type { VerifierResult } from './verifier.js';

export interface Measured<T> {
  machine: Machine;
  /** 1-minute load average before and after: other work on the machine disturbs every figure. */
  loadBefore: number;
  loadAfter: number;
  durationSeconds: number;
  result: T;
}

export interface BenchResults {
  list?: Measured<ListThroughputResult>;
  growth?: Measured<GrowthResult>;
  delivery?: Measured<DeliveryThroughputResult>;
  verifier?: Measured<VerifierResult>;
  startup?: Measured<StartupResult>;
  ingest?: Measured<IngestThroughputResult>;
  feeds?: Measured<FeedsThroughputResult>;
  export?: Measured<ExportThroughputResult>;
  search?: Measured<SearchThroughputResult>;
  policy?: Measured<PolicyThroughputResult>;
  eligibility?: Measured<EligibilityThroughputResult>;
  fairness?: Measured<FairnessResult>;
  scale?: Measured<ScaleResult>;
}

export const RESULTS_FILE = join(ROOT, '.bench', 'results.json');

export function loadResults(): BenchResults {
  return existsSync(RESULTS_FILE) ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as BenchResults) : {};
}

export function saveResults(results: BenchResults): void {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify(results, null, 2));
}
