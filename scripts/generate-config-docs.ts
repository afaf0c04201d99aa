// Writes the environment variables' tables of docs/operators/configuration.md from the
// service's catalogue (server/src/config/variables.ts), between the marker comments.
// `--check` rewrites nothing and fails when the page and the catalogue have drifted (CI).
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConfigTables, replaceBetweenMarkers } from './docs/config-tables.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = 'docs/operators/configuration.md';
const path = resolve(root, target);

const current = await readFile(path, 'utf8');
const next = replaceBetweenMarkers(current, renderConfigTables());
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error(`${target} is stale: its variables differ from server/src/config/variables.ts.\nRun \`npm run generate:config-docs\` and commit the result.`);
    process.exit(1);
  }
  console.log(`${target} matches the configuration catalogue`);
} else if (next !== current) {
  await writeFile(path, next);
  console.log(`wrote ${target}`);
}
