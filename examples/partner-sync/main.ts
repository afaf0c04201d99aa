// partner-sync: what a partner's nightly job does. Reads every resident of a facility with
// their coverage, vitals and allergies through @ofctx/sdk, and prints a summary.
//
//   OFCTX_CLIENT_ID=... OFCTX_CLIENT_SECRET=... OFCTX_ORG_ID=... OFCTX_FACILITY_ID=... \
//     npm run -s example:partner-sync [-- --json]
//
// Progress goes to stderr, the summary to stdout (`--json`: exactly one JSON object), so
// the output can be piped. Exit codes: 0 done, 1 the API refused or failed, 2 usage.
import { parseArgs } from 'node:util';
import { createClient, OfctxError } from '@ofctx/sdk';
import { ConfigError, configFromEnv } from './config.js';
import { readFacility, type PageListener } from './read-facility.js';
import { formatSummary } from './format-summary.js';

const USAGE = `usage: partner-sync [--json]
environment: OFCTX_BASE_URL (default http://localhost:8080), OFCTX_CLIENT_ID, OFCTX_CLIENT_SECRET, OFCTX_ORG_ID, OFCTX_FACILITY_ID`;

async function main(): Promise<number> {
  let json: boolean;
  let config;
  try {
    json = parseArgs({ options: { json: { type: 'boolean', default: false } } }).values.json ?? false;
    config = configFromEnv(process.env);
  } catch (error) {
    console.error(`partner-sync: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }

  const ofctx = createClient({
    baseUrl: config.baseUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    // Ask only for what this job reads: a leaked token then cannot manage webhooks.
    scopes: ['residents.read', 'coverage.read', 'clinical.read'],
    userAgent: 'ofctx-example-partner-sync/1.0',
  });
  // Ctrl-C stops the walk between pages instead of leaving requests in flight.
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort(new Error('interrupted')));

  const progress: PageListener = (list, page, seen) => {
    if (process.stderr.isTTY) process.stderr.write(`\r${list}: page ${page.page.page}, ${seen} of ${page.page.total}`.padEnd(60));
  };
  const started = performance.now();
  try {
    const summary = (await readFacility(ofctx.facility(config.orgId, config.facilityId), progress, stop.signal)).toJSON();
    if (process.stderr.isTTY) process.stderr.write('\r'.padEnd(61) + '\r');
    console.log(json ? JSON.stringify(summary) : formatSummary(summary, performance.now() - started));
    return 0;
  } catch (error) {
    if (!(error instanceof OfctxError)) throw error;
    // code and requestId are what support asks for; never print the secret or the token.
    console.error(`partner-sync: ${error.message} (${error.status ?? 'no answer'} ${error.code}${error.requestId ? `, request ${error.requestId}` : ''})`);
    return 1;
  }
}

process.exitCode = await main();
