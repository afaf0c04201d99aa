#!/usr/bin/env node
// CI: `npm test` (the whole suite, SQLite then PostgreSQL), the README's own command, on each
// Node.js line the service supports, with the runtimes from the npm registry
// (scripts/runtime-matrix): that line's `node` first on PATH, so npm, the runner, mocha and
// every process the tests start run on it. Nothing is rebuilt per line: on Node.js 22 and
// later the service loads better-sqlite3 13, whose Node-API binaries fit every line
// (server/src/db/sqlite-driver.ts).
//   node scripts/test-node-lines.mjs [24 22 ...] [-- arguments for npm test]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FAILURE_REPORT_HEADING, runShowingOutput } from './failure-report.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const DEFAULT_LINES = ['24', '22'];
const dash = process.argv.indexOf('--');
const lines = (dash === -1 ? process.argv.slice(2) : process.argv.slice(2, dash)).filter(Boolean);
const testArgs = dash === -1 ? [] : process.argv.slice(dash + 1);

const results = [];
for (const line of lines.length > 0 ? lines : DEFAULT_LINES) {
  const bin = join(root, `scripts/runtime-matrix/node_modules/node${line}/bin`);
  if (!existsSync(join(bin, 'node'))) {
    console.error(`Node.js ${line} is not installed: run \`npm install --prefix scripts/runtime-matrix --no-save\` first`);
    process.exit(1);
  }
  const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n##### npm test on Node.js ${version} #####`);
  const { code, out } = await runShowingOutput('npm', ['test', ...(testArgs.length > 0 ? ['--', ...testArgs] : [])], {
    cwd: root,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
  });
  // run-tests.mjs repeats mocha's report of what failed after its totals; a later line's
  // output would push it out of a CI log cut to its last lines, so it comes again here.
  const failedAt = out.indexOf(`\n${FAILURE_REPORT_HEADING} `);
  const totalsAt = out.lastIndexOf('\ntests: ');
  const failures = failedAt === -1 ? '' : out.slice(failedAt + 1, totalsAt > failedAt ? totalsAt : undefined).trimEnd();
  results.push({ version, code, failures });
}
for (const r of results.filter((r) => r.failures)) console.log(`\n##### what failed on Node.js ${r.version} #####\n${r.failures}`);
console.log('');
for (const r of results) console.log(`Node.js ${r.version}: npm test exit ${r.code}`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
