// workerd (the Cloudflare Workers runtime): a module Worker, bundled as Workers' tooling
// bundles it (conditions workerd, worker, browser), so the verifier is its build without
// node:crypto. Answers its checks as JSON.
import * as verifier from '@ofctx/verifier';
import vectors from './vectors.json';
import { verifierChecks } from './verifier-checks.mjs';

export default {
  async fetch() {
    return Response.json({ verifier: await verifierChecks(verifier, vectors, { sync: false }), hasNodeCrypto: typeof process !== 'undefined' });
  },
};
