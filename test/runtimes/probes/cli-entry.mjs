// Node, Bun and Deno: both packages as installed from their tarballs, by their bare names.
// argv[2]: the JSON target of the SDK checks; the vectors sit beside this file.
import * as verifier from '@ofctx/verifier';
import * as sdk from '@ofctx/sdk';
import { readFileSync } from 'node:fs';
import { verifierChecks } from './verifier-checks.mjs';
import { sdkChecks } from './sdk-checks.mjs';

const vectors = JSON.parse(readFileSync(new URL('./vectors.json', import.meta.url), 'utf8'));
const target = JSON.parse(process.argv[2]);
const result = {
  verifier: await verifierChecks(verifier, vectors, { sync: true }),
  sdk: await sdkChecks(sdk, target),
};
console.log(JSON.stringify(result));
