#!/usr/bin/env node
// `npm run test:reliability`: the reliability and security suite (docs/reliability.md) on
// SQLite, then on PostgreSQL when DATABASE_URL (postgres://...) or PG* point at a server, in
// databases of its own that are dropped at the end. The files run in order, on one service
// per database, so the secrets-at-rest search at the end covers everything before it.
// Prints one summary line with the figures of both runs.
//   FUZZ_SEED, FUZZ_RUNS, TENANCY_SEED, TENANCY_WORLDS, TIMING_ATTEMPTS, INSTANCE_CHURN_SECONDS
//   (120), INSTANCE_CHURN_KILL_EVERY (10), INSTANCE_CHURN_SEED tune it;
//   TEST_DATABASES=sqlite (or postgres) restricts the runs; extra arguments go to mocha.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onFreshPostgres } from '../../scripts/postgres-test-databases.mjs';

const FILES = [
  'test/reliability/contract-fuzzing.reliability.ts',
  'test/reliability/tenancy-isolation.reliability.ts',
  'test/reliability/credential-stuffing.reliability.ts',
  'test/reliability/client-authentication-indistinguishable.reliability.ts',
  // Generated malformed FHIR Bundles and NDJSON lines at the ingest endpoint.
  'test/reliability/ingest-malformed.reliability.ts',
  // Generated malformed HL7 v2 over MLLP and X12 271 interchanges.
  'test/reliability/feeds-malformed.reliability.ts',
  // Generated ORU^R01, ORM^O01 and whole-record ADT (IN1, AL1, DG1, OBX), well-formed and broken.
  'test/reliability/feeds-clinical-malformed.reliability.ts',
  // Webhook faults (generated fault schedules, SIGKILL, two instances) and the SSRF table.
  'test/reliability/webhooks/fault-schedule.reliability.ts',
  'test/reliability/webhooks/isolation.reliability.ts',
  'test/reliability/webhooks/disable-races.reliability.ts',
  'test/reliability/webhooks/crash.reliability.ts',
  'test/reliability/webhooks/two-instances.reliability.ts',
  'test/reliability/webhooks/ssrf-table.reliability.ts',
  // Three instances on one PostgreSQL under mixed load, one SIGKILLed every 10 s (skipped on SQLite).
  'test/reliability/instance-churn.reliability.ts',
  // An existing database's audit trail moved to time partitions online at a million rows
  // (HISTORY_MOVE_ROWS below; `npm test` moves 100,000; skipped on SQLite).
  'server/test/db/history-table-move.test.ts',
  'test/reliability/metrics-scrape.reliability.ts', // the /metrics scrapes taken during all of the above
  'test/reliability/secrets-at-rest.reliability.ts', // last: it searches for every secret the others produced
];


const workDir = mkdtempSync(join(tmpdir(), 'ofctx-reliability-'));

function runMocha(label, env) {
  const figuresFile = join(workDir, `${label}.json`);
  const webhookFiguresFile = join(workDir, `${label}-webhooks.json`);
  return new Promise((resolve) => {
    console.log(`\n=== reliability suite on ${label} ===`);
    const child = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', ...process.argv.slice(2), ...FILES], {
      env: { HISTORY_MOVE_ROWS: '1000000', ...process.env, ...env, RELIABILITY_FIGURES_FILE: figuresFile, RELIABILITY_WEBHOOK_FIGURES_FILE: webhookFiguresFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('close', (code) => {
      const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
      resolve({ label, code: code ?? 1, figures: read(figuresFile), webhooks: read(webhookFiguresFile) });
    });
  });
}


const started = Date.now();
const only = process.env.TEST_DATABASES?.split(',').map((s) => s.trim());
const results = [];
if (!only || only.includes('sqlite')) results.push(await runMocha('SQLite', { TEST_DATABASE: 'sqlite' }));
const onPostgres = await onFreshPostgres('ofctx_rel_', only, (adminUrl, prefix) => runMocha('PostgreSQL', { TEST_DATABASE: 'postgres', TEST_PG_ADMIN_URL: adminUrl, TEST_PG_PREFIX: prefix }));
if (onPostgres) results.push(onPostgres);
rmSync(workDir, { recursive: true, force: true });

const sum = (pick) => results.reduce((total, r) => total + (r.figures ? pick(r.figures) : 0), 0);
const seconds = Math.round((Date.now() - started) / 1000);
console.log('');
for (const r of results) {
  const f = r.figures;
  const timing = f?.token?.timing?.medianUnknownMs !== undefined
    ? `, timing medians ${f.token.timing.medianUnknownMs}/${f.token.timing.medianWrongSecretMs} ms (${f.token.timing.differencePercent}%, Mann-Whitney p ${f.token.timing.mannWhitneyP})`
    : '';
  console.log(`${r.label}: exit ${r.code}${f ? `, seed ${f.fuzz.seed}, statuses ${Object.entries(f.fuzz.statuses).map(([s, n]) => `${s}×${n}`).join(' ')}${timing}` : ', no figures'}`);
}
const fivexx = sum((f) => f.responses5xx);
console.log(
  `reliability: requests fuzzed ${sum((f) => f.fuzz.requests)}, tenancy worlds ${sum((f) => f.tenancy.worlds)} / cases ${sum((f) => f.tenancy.cases)}, ` +
    `token attempts ${sum((f) => f.token.stuffingAttempts + f.token.timingAttempts)} (${sum((f) => f.token.throttled)} throttled), ` +
    `secrets searched ${sum((f) => f.secrets.searched)} (found ${sum((f) => f.secrets.found)}), requests in all ${sum((f) => f.requests)}, ` +
    `metrics scrapes ${sum((f) => f.metrics?.scrapes ?? 0)} (${sum((f) => f.metrics?.failures ?? 0)} bad), ` +
    `5xx found ${fivexx}, on ${results.map((r) => r.label).join(' and ') || 'nothing'} in ${seconds} s`,
);
console.log(
  `ingest reliability: malformed Bundles ${sum((f) => f.ingest?.bundles ?? 0)}, malformed NDJSON lines ${sum((f) => f.ingest?.lines ?? 0)}, ` +
    `5xx ${sum((f) => f.ingest?.responses5xx ?? 0)}, partial writes ${sum((f) => f.ingest?.partialWrites ?? 0)}`,
);
console.log(
  `feeds reliability: malformed HL7 ADT messages ${sum((f) => f.feeds?.hl7 ?? 0)}, generated ORU/ORM/whole-record ADT ${sum((f) => f.feeds?.clinical ?? 0)}, malformed X12 interchanges ${sum((f) => f.feeds?.x12 ?? 0)}, ` +
    `unanswered ${sum((f) => f.feeds?.unanswered ?? 0)}, partial writes ${sum((f) => f.feeds?.partialWrites ?? 0)}, abrupt disconnects survived ${sum((f) => f.feeds?.disconnects ?? 0)}, lost from the message store ${sum((f) => (f.feeds?.lost ?? 0) + (f.lost ?? 0))}`,
);
const wh = (pick) => results.reduce((total, r) => total + (r.webhooks ? pick(r.webhooks) : 0), 0);
const faults = (w) => Object.values(w.faults ?? {}).reduce((a, b) => a + b, 0);
console.log(
  `webhook reliability: events ${wh((w) => w.events)}, deliveries ${wh((w) => w.deliveries)}, faults injected ${wh(faults)}, ` +
    `arrivals ${wh((w) => w.arrivals)}, duplicates ${wh((w) => w.duplicates)}, failed as expected ${wh((w) => w.failedAsExpected)}, ` +
    `SIGKILLs ${wh((w) => w.crash?.kills ?? 0)}, SSRF refused ${wh((w) => w.ssrf.refused + w.ssrf.attemptTimeBlocked + w.ssrf.rebindingBlocked)}, lost ${wh((w) => w.lost + (w.crash?.lost ?? 0) + (w.twoInstances?.lost ?? 0))}`,
);
const churned = results.filter((r) => r.figures?.churn);
if (churned.length > 0) {
  const c = (pick) => churned.reduce((total, r) => total + pick(r.figures.churn), 0);
  console.log(
    `instance churn: SIGKILLs ${c((x) => x.kills)} in ${c((x) => x.seconds)} s, acknowledged writes ${c((x) => x.hl7.acked + x.bundles.ok)} (lost ${c((x) => x.lostWrites)}, applied twice ${c((x) => x.appliedTwice)}), ` +
      `events ${c((x) => x.webhooks.events)} (deliveries lost ${c((x) => x.webhooks.lost)}, duplicates ${c((x) => x.webhooks.duplicates)}), exports ${c((x) => x.exports.completed)} (taken over ${c((x) => x.exports.takenOver)}), ` +
      `eligibility checks ${c((x) => x.eligibility.checks)}, tokens ${c((x) => x.token.issued)} issued / ${c((x) => x.token.throttled)} throttled, connections cut by kills ${c((x) => x.connectionFailures)}, 5xx ${c((x) => x.responses5xx)}`,
  );
}
const failed = results.length === 0 || results.some((r) => r.code !== 0 || !r.figures || !r.webhooks);
process.exit(failed ? 1 : 0);
