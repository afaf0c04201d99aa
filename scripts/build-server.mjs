// Bundles the server's own TypeScript (not its dependencies) into server/dist/main.js and
// server/dist/ops.js (and the FHIR validation worker beside them) with esbuild, in about a tenth of a second, so `npm start` and
// `npm run ops` run plain JavaScript: no TypeScript loader and no per-file transpiling at
// start-up. Tests and development still run the sources under tsx.
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  absWorkingDir: root,
  entryPoints: { main: 'server/src/main.ts', ops: 'server/src/cli/ops.ts', 'fhir-validator-worker': 'server/src/ingest/fhir-validator-worker.ts' },
  outdir: 'server/dist',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
