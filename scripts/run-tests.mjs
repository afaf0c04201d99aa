#!/usr/bin/env node
// `npm test`: the whole suite on SQLite, then again on PostgreSQL when DATABASE_URL
// (postgres://...) or the PG* variables point at a server. Each PostgreSQL run gets
// databases of its own (a fresh one per test suite, named with a per-run prefix), all
// dropped at the end, so no run depends on leftovers.
// Extra arguments go to mocha: `npm test -- --grep token`.
// TEST_DATABASES=sqlite (or postgres) restricts the runs; TEST_JOBS=1 runs the files one by one.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { onFreshPostgres } from './postgres-test-databases.mjs';
import { databaseFreeTests, testFilesUnder } from './database-free-tests.mjs';
import { FAILURE_REPORT_HEADING, runShowingOutput } from './failure-report.mjs';

// The whole suite unless the arguments name test files of their own.
export const DEFAULT_SPECS = ['server/test/**/*.test.ts', 'sdk/test/**/*.test.ts', 'verifier/test/**/*.test.ts', 'test/**/*.test.ts'];
const given = process.argv.slice(2);
const namesFiles = given.some((arg) => !arg.startsWith('-') && /\.ts$|\*|\//.test(arg));
// The whole suite runs its files in parallel worker processes (TEST_JOBS, default one more than
// the cores: much of the suite waits on sockets, timers and the database); named files run in
// one process, their output as it comes.
const jobs = Number(process.env.TEST_JOBS ?? availableParallelism() + 1);
const mochaArgs = namesFiles ? given : [...(jobs > 1 ? ['--parallel', '--jobs', String(jobs)] : []), ...given, ...DEFAULT_SPECS];


// The whole suite runs on SQLite; on PostgreSQL, the files that cannot touch a database
// (scripts/database-free-tests.mjs) are left out: they would only repeat the same work.
const DATABASE_FREE = namesFiles ? [] : databaseFreeTests(process.cwd(), DEFAULT_SPECS.map((glob) => glob.split('/**')[0]).flatMap((dir) => testFilesUnder(process.cwd(), dir)));

async function runMocha(label, env, skip = []) {
  console.log(`\n=== tests on ${label}${skip.length > 0 ? ` (${skip.length} database-free files ran on SQLite only)` : ''} ===`);
  const { code, out } = await runShowingOutput(process.execPath, ['node_modules/mocha/bin/mocha.js', ...skip.flatMap((file) => ['--ignore', file]), ...mochaArgs], {
    env: { ...process.env, ...env },
  });
  // mocha's own summary lines ("  710 passing (1m)"), the last ones printed.
  const count = (word) => Number([...out.matchAll(new RegExp(`^ {2}(\\d+) ${word}\\b`, 'gm'))].pop()?.[1] ?? 0);
  // mocha's report of the failures, from its "N failing" line to its end, repeated after
  // every run's totals.
  const failingAt = [...out.matchAll(/^ {2}\d+ failing\b/gm)].pop()?.index;
  const failures = failingAt === undefined ? '' : out.slice(failingAt).trimEnd();
  return { label, code, passed: count('passing'), failed: count('failing'), pending: count('pending'), failures };
}


// The ops CLI's tests run the bundle `npm run ops` runs (test/support/ops-cli.ts), built once
// here from the sources as they are now.
const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
if (built.status !== 0) {
  console.error('scripts/build-server.mjs failed: the ops CLI bundle could not be built');
  process.exit(1);
}
process.env.OFCTX_OPS_BUNDLE = 'server/dist/ops.js';

// PostgreSQL: one database of the run migrated to the latest schema by the ops CLI's `migrate`,
// which the suites that need no empty database are copied from (test/support/database.ts).
// Dropped with the run's other databases, by its prefix.
async function migratedTemplate(adminUrl, prefix) {
  const name = `${prefix}template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const migrated = spawnSync(process.execPath, ['server/dist/ops.js', 'migrate'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DATABASE_URL: url.toString() } });
  if (migrated.status !== 0) throw new Error(`the PostgreSQL template database ${name} could not be migrated (ops migrate exited ${migrated.status})`);
  return name;
}

const only = process.env.TEST_DATABASES?.split(',').map((s) => s.trim());
const results = [];
if (!only || only.includes('sqlite')) {
  results.push(await runMocha('SQLite', { TEST_DATABASE: 'sqlite' }));
}
const ranOnSqlite = results.length > 0;
const onPostgres = await onFreshPostgres('ofctx_test_', only, async (adminUrl, prefix) => {
  const template = await migratedTemplate(adminUrl, prefix);
  return runMocha('PostgreSQL', { TEST_DATABASE: 'postgres', TEST_PG_ADMIN_URL: adminUrl, TEST_PG_PREFIX: prefix, TEST_PG_TEMPLATE: template }, ranOnSqlite ? DATABASE_FREE : []);
});
if (onPostgres) results.push(onPostgres);

// Enough for a few failures with their stacks; the whole report is in the run's output above.
const FAILURE_LINES = 100;
let passed = 0, failed = 0, pending = 0, exitCode = 0;
for (const r of results.filter((r) => r.failures)) {
  const lines = r.failures.split('\n');
  const shown = lines.length > FAILURE_LINES ? [...lines.slice(0, FAILURE_LINES), `  ... ${lines.length - FAILURE_LINES} more lines above, in the ${r.label} run's output`] : lines;
  console.log(`\n${FAILURE_REPORT_HEADING} ${r.label} (mocha's report, again) ===\n${shown.join('\n')}`);
}
console.log('');
for (const r of results) {
  console.log(`${r.label}: ${r.passed} passing, ${r.failed} failing, ${r.pending} pending (exit ${r.code})`);
  passed += r.passed; failed += r.failed; pending += r.pending;
  if (r.code !== 0) exitCode = 1;
}
if (results.length === 0) { console.error('no test run was selected'); exitCode = 1; }
if (passed === 0) exitCode = 1;
console.log(`tests: ${passed} passed, ${failed} failed, ${pending} skipped`);
process.exit(exitCode);
