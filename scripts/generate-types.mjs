// Generates the TypeScript types of openapi/openapi.yaml with openapi-typescript.
// `--check` rewrites nothing and fails when a committed copy is stale (run by CI).
// The SDK publishes the types (`@ofctx/sdk/contract`), the server imports them from there;
// the zero-dependency verifier carries its own identical copy so it needs no package.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = resolve(root, 'openapi/openapi.yaml');
const targets = ['sdk/src/generated/openapi.ts', 'verifier/src/generated/openapi.ts'];
const banner =
  '// Generated from openapi/openapi.yaml by `npm run generate` (openapi-typescript).\n' +
  '// Do not edit by hand: change the OpenAPI document and regenerate.\n\n';

const ast = await openapiTS(new URL(`file://${source}`), { alphabetize: false, exportType: false });
const text = banner + astToString(ast);
const check = process.argv.includes('--check');
let stale = [];
for (const target of targets) {
  const path = resolve(root, target);
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === text) continue;
  if (check) stale.push(target);
  else {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    console.log(`wrote ${target}`);
  }
}
if (stale.length) {
  console.error(`Generated types are stale: ${stale.join(', ')}.\nRun \`npm run generate\` and commit the result.`);
  process.exit(1);
}
if (check) console.log('generated types are up to date');
