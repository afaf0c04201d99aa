// `npm run bench`: runs the benchmarks (all, or BENCH_ONLY=list,growth,delivery,verifier,startup,ingest,feeds,export,search,policy,eligibility,fairness,scale;
// BENCH_ONLY=report re-renders the page from the stored figures),
// each against a baseline measured in the same run, and writes docs/benchmarks.md.
// Never part of the test suite: timings on a shared machine are figures to read, not to assert.
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliveryThroughput } from './delivery-throughput.js';
import { growth } from './growth.js';
import { ingestThroughput } from './ingest-throughput.js';
import { feedsThroughput } from './feeds-throughput.js';
import { exportThroughput } from './export-throughput.js';
import { searchThroughput } from './search-throughput.js';
import { policyThroughput } from './policy-throughput.js';
import { eligibilityThroughput } from './eligibility-throughput.js';
import { fairness } from './fairness.js';
import { listThroughput } from './list-throughput.js';
import { scaleAudit } from './scale-audit.js';
import { describeMachine } from './machine.js';
import { renderReport } from './report.js';
import { loadResults, saveResults, type BenchResults, type Measured } from './results-store.js';
import { ROOT } from './service-process.js';
import { settingsFromEnv, type BenchSettings } from './settings.js';
import { startupTime } from './startup.js';
import { verifierThroughput } from './verifier.js';

const BENCHMARKS = {
  list: listThroughput,
  growth,
  delivery: deliveryThroughput,
  verifier: verifierThroughput,
  startup: startupTime,
  ingest: ingestThroughput,
  feeds: feedsThroughput,
  export: exportThroughput,
  search: searchThroughput,
  policy: policyThroughput,
  eligibility: eligibilityThroughput,
  fairness,
  scale: scaleAudit,
} satisfies Record<keyof BenchResults, (settings: BenchSettings) => Promise<unknown>>;

type Name = keyof typeof BENCHMARKS;

const settings = settingsFromEnv(process.env);
const names = (Object.keys(BENCHMARKS) as Name[]).filter((name) => !settings.only || settings.only.has(name));
// BENCH_ONLY=report measures nothing: it writes docs/benchmarks.md again from the stored
// figures (after an edit of report.ts or analysis.ts).
const reportOnly = settings.only?.size === 1 && settings.only.has('report');
const unknown = [...(settings.only ?? [])].filter((name) => !(name in BENCHMARKS) && !reportOnly);
if (unknown.length > 0 || (names.length === 0 && !reportOnly)) {
  console.error(`BENCH_ONLY names ${unknown.join(', ') || 'nothing'}; the benchmarks are ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}

const results = loadResults();
const started = performance.now();
console.log(`benchmarks: ${names.join(', ')} (BENCH_DURATION=${settings.durationSeconds} s per measurement)`);
if (loadavg()[0]! > 1) console.log(`note: the machine is busy (load average ${loadavg()[0]!.toFixed(2)}); figures will be lower and noisier than on a quiet machine`);
for (const name of names) {
  console.log(`\n${name}`);
  const loadBefore = loadavg()[0]!;
  const t = performance.now();
  const result = await BENCHMARKS[name](settings);
  (results as Record<Name, Measured<unknown>>)[name] = { machine: describeMachine(), loadBefore, loadAfter: loadavg()[0]!, durationSeconds: settings.durationSeconds, result };
  // Saved after each benchmark, so an interrupted run keeps what it measured.
  saveResults(results);
  console.log(`  done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

const report = renderReport(results);
writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), report.markdown);
console.log(`\n${report.summary}\n\nwrote docs/benchmarks.md in ${((performance.now() - started) / 1000).toFixed(0)} s`);
