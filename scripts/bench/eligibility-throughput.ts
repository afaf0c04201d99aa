// Real-time eligibility (issue 40's benchmark): a month's re-verification of
// BENCH_ELIGIBILITY_COVERAGES active Coverages (default 10,000) by the service's eligibility
// worker, against the clearinghouse double (test/support/clearinghouse-double.ts) answering
// every 270 with an active 271 after 50 ms, on SQLite and on PostgreSQL.
//
// Set-up, per database kind: a fresh database, one organization, one facility, a clearinghouse
// connection (ELIGIBILITY_CONCURRENCY and the connection's --concurrency both
// BENCH_ELIGIBILITY_CONCURRENCY, default 16) to the double, which runs in this process; the
// residents and their Coverages (payer id CMS) written with applyChangeSet in batches, which
// queues an `admission` check per Coverage; each check is then made a `recheck` due now, as
// the month's recheck finds them (steady state: the payer name and plan begin the 271 reports
// are the Coverage's already, so nothing changes and no event is due). The service (its own
// process, `npm start`'s bundle) starts while the facility has no NPI, so its worker claims
// nothing; once it is ready the NPI is set (the start gun) and the run lasts until every check
// has its exchange on record (eligibility_exchanges counted every 250 ms).
// - checks/s from the first exchange's start to the last one's end; CPU per check of the
//   service's process (and on PostgreSQL of the backends serving its database) over the run;
//   p50/p99 of the exchanges' duration_ms (270 sent to 271 read) and their outcomes.
// - baselines, same run: the ceiling concurrency / latency (16 / 50 ms = 320/s), and as many
//   CORE round trips of the same kind of request (a 270 from build270 in coreRequest's
//   envelope, built beforehand) posted by a bare node:http client at the same concurrency to
//   the same double, a fresh connection each as the service makes, no database. The CPU floor:
//   what one exchange's protocol work costs in this process (build270 with its read-back,
//   coreRequest, readCoreResponse of the double's 271 and subscriberLoops), no network, no
//   database.
// Protocols: BENCH_ELIGIBILITY_PROTOCOLS=soap (default); soap,mime adds a second pass that
// re-verifies the same Coverages on the same database a "month" later (its log holds the first).
// BENCH_ELIGIBILITY_COVERAGES=500 BENCH_ELIGIBILITY_CONCURRENCY=16 BENCH_ONLY=eligibility npm run bench
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { nowIso } from '../../server/src/db/clock.js';
import { createFacility, createOrganization, setFacilityNpi } from '../../server/src/organizations/organizations.js';
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import { setConnection } from '../../server/src/eligibility/clearinghouse-connections.js';
import { coreRequest, PAYLOAD_270, readCoreResponse, type CoreMessage, type CoreProtocol } from '../../server/src/eligibility/core-envelope.js';
import { build270, type EligibilityInquiry } from '../../server/src/eligibility/x12-270.js';
import { subscriberLoops } from '../../server/src/x12/eligibility-271.js';
import { SigningSecretCipher } from '../../server/src/db/signing-secret-crypto.js';
import { systemResolver } from '../../server/src/webhooks/ssrf-guard.js';
import { startClearinghouseDouble, type ClearinghouseDouble } from '../../test/support/clearinghouse-double.js';
import { summarizeCpuProfile, type ProfileSummary } from './cpu-profile.js';
import { processCpuSeconds, startCpuMeter, type CpuCharged } from './process-cpu.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';
import { percentile } from './stats.js';

const DEFAULT_COVERAGES = 10_000;
const DEFAULT_CONCURRENCY = 16;
/** The double's answer time, as the issue sets it. */
export const ELIGIBILITY_LATENCY_MS = 50;
const NPI = '1234567893';
const PAYER = { id: 'CMS', name: 'MEDICARE PART A' };
const CREDENTIALS = { username: 'ofctx-bench', password: 'core-bench-secret' };
const SENDER_ID = 'OFCTXBENCH';
const RECEIVER_ID = 'CLEARINGHOUSE';
const SEED_BATCH = 250;
/** Checks re-verified under --cpu-prof (SQLite, SOAP): a pass of its own, the figures above are unprofiled. */
const PROFILED_CHECKS = 2_000;
/** A run with no new exchange on record for this long has stalled. */
const STALL_MS = 120_000;

export interface EligibilityBaseline {
  roundTrips: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Round trips answered 200 with a 271 envelope. */
  answered271: number;
  /** CPU of this process (the bare client and the double together) per round trip. */
  benchCpuMsPerRoundTrip: number;
}

export interface EligibilityPass {
  protocol: CoreProtocol;
  /** Exchanges already on record when the pass started (the month before). */
  priorExchanges: number;
  checks: number;
  /** First exchange started -> last exchange finished. */
  seconds: number;
  checksPerSecond: number;
  /** The NPI set -> the last exchange seen on record (includes the worker's first poll, up to ELIGIBILITY_POLL_INTERVAL_MS). */
  wallSeconds: number;
  /** The service's process, and on PostgreSQL the backends serving its database. */
  cpuMsPerCheck: number;
  /** The service's process alone. */
  serviceCpuMsPerCheck: number;
  /** This process over the pass: the double answering (and the count polled every 250 ms). */
  doubleCpuMsPerCheck: number;
  p50Ms: number;
  p99Ms: number;
  outcomes: Record<string, number>;
  /** Coverages whose version moved during the pass (steady state: none). */
  coveragesChanged: number;
  /** Requests the double found something wrong with (a strict clearinghouse's validator). */
  doubleProblems: number;
  /** Checks still due or leased after the pass. */
  leftQueued: number;
  baseline: EligibilityBaseline;
  /** CPU of the protocol work of one exchange in this process: build270, coreRequest, readCoreResponse, subscriberLoops. */
  protocolCpuMsPerCheck: number;
}

export interface EligibilityRun {
  database: 'SQLite' | 'PostgreSQL';
  coverages: number;
  concurrency: number;
  latencyMs: number;
  /** concurrency / latency. */
  ceilingPerSecond: number;
  seedSeconds: number;
  passes: EligibilityPass[];
}

export interface EligibilityThroughputResult {
  runs: EligibilityRun[];
  skipped: string[];
  /** The service under --cpu-prof for PROFILED_CHECKS checks (SQLite, SOAP), the run's window only. */
  profile?: ProfileSummary;
  profiledChecksPerSecond?: number;
  profiledChecks?: number;
}

interface Sizes {
  coverages: number;
  concurrency: number;
  protocols: CoreProtocol[];
}

function sizesFromEnv(): Sizes {
  const coverages = Number(process.env.BENCH_ELIGIBILITY_COVERAGES ?? DEFAULT_COVERAGES);
  const concurrency = Number(process.env.BENCH_ELIGIBILITY_CONCURRENCY ?? DEFAULT_CONCURRENCY);
  if (!Number.isInteger(coverages) || coverages < 1) throw new Error(`BENCH_ELIGIBILITY_COVERAGES must be a positive integer, got "${process.env.BENCH_ELIGIBILITY_COVERAGES}"`);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new Error(`BENCH_ELIGIBILITY_CONCURRENCY must be an integer from 1 to 64 (a connection's most), got "${process.env.BENCH_ELIGIBILITY_CONCURRENCY}"`);
  const protocols = (process.env.BENCH_ELIGIBILITY_PROTOCOLS ?? 'soap').split(',').map((p) => p.trim()).filter(Boolean);
  for (const p of protocols) if (p !== 'soap' && p !== 'mime') throw new Error(`BENCH_ELIGIBILITY_PROTOCOLS lists soap and/or mime, got "${p}"`);
  return { coverages, concurrency, protocols: protocols as CoreProtocol[] };
}

const memberId = (i: number) => `1EG4TE5MK${String(i).padStart(6, '0')}`;
const year = () => new Date().toISOString().slice(0, 4);

/** Residents and their active Coverages (payer id CMS), as the feeds write them: one applyChangeSet per batch. */
export async function seedCoverages(db: Knex, orgId: string, facilityId: string, n: number): Promise<void> {
  // The plan begin the double's 271 reports (DTP*346, January 1st of this year) and the payer
  // name as the payer writes it: last month's answer left them so.
  const start = `${year()}-01-01`;
  for (let from = 0; from < n; from += SEED_BATCH) {
    const changes = [];
    for (let i = from; i < Math.min(n, from + SEED_BATCH); i++) {
      const url = `urn:uuid:${randomUUID()}`;
      const mrn = { system: 'https://ehr.example/mrn', value: `E-${i}` };
      changes.push({ resource: { resourceType: 'Patient' as const, identifier: [mrn], name: [{ family: 'Okafor', given: ['Adaeze', 'Ngozi'] }], gender: i % 2 ? 'female' : 'male', birthDate: '1941-03-17' }, fullUrl: url, match: { identifier: mrn }, at: `p${i}` });
      changes.push({ resource: { resourceType: 'Coverage' as const, identifier: [{ system: 'https://ehr.example/coverage', value: `E-C-${i}` }], status: 'active', beneficiary: { reference: url }, payor: [{ display: PAYER.name, identifier: { value: PAYER.id } }], subscriberId: memberId(i), period: { start }, order: 1 }, at: `c${i}` });
    }
    const result = await applyChangeSet(db, { orgId, facilityId, mode: 'transaction', actor: 'seed', emitEvents: false, changes });
    const rejected = result.outcomes.filter((o) => o.outcome === 'rejected');
    if (rejected.length) throw new Error(`seeding rejected ${rejected.length} resources: ${JSON.stringify(rejected[0]).slice(0, 400)}`);
  }
}

/** Every check due now as a month's recheck: trigger recheck, no request pending, not leased. */
async function dueAsRecheck(db: Knex, limit?: number): Promise<number> {
  const now = nowIso();
  let rows = db('eligibility_checks');
  if (limit !== undefined) rows = rows.whereIn('coverage_id', db('eligibility_checks').select('coverage_id').orderBy('coverage_id').limit(limit));
  return rows.update({ due_at: now, trigger: 'recheck', requested_at: null, attempts: 0, lease_owner: null, lease_until: null });
}

/** The 270s a bare client sends: the same shape as the service's (one subscriber, payer CMS, the facility's NPI). */
function inquiries(n: number, firstControl: number): EligibilityInquiry[] {
  const at = new Date();
  return Array.from({ length: n }, (_, i) => ({
    senderId: SENDER_ID,
    receiverId: RECEIVER_ID,
    controlNumber: firstControl + i,
    production: true,
    at,
    payer: PAYER,
    provider: { name: 'Eligibility benchmark facility', npi: NPI },
    subscriber: { memberId: memberId(i), lastName: 'Okafor', firstName: 'Adaeze', middleName: 'Ngozi', birthDate: '1941-03-17', gender: i % 2 ? 'female' : 'male' },
    trace: randomUUID(),
    serviceDate: at.toISOString().slice(0, 10),
  }));
}

function envelopeOf(text: string, at: Date) {
  return { payloadType: PAYLOAD_270, processingMode: 'RealTime', payloadId: randomUUID(), timeStamp: at.toISOString().replace(/\.\d{3}Z$/, 'Z'), senderId: SENDER_ID, receiverId: RECEIVER_ID, coreRuleVersion: '2.2.0', payload: text };
}

async function requestBodies(protocol: CoreProtocol, n: number, firstControl: number): Promise<CoreMessage[]> {
  const bodies: CoreMessage[] = [];
  for (const inquiry of inquiries(n, firstControl)) bodies.push(await coreRequest(protocol, envelopeOf(build270(inquiry).text, inquiry.at), CREDENTIALS));
  return bodies;
}

function post(url: URL, message: CoreMessage): Promise<{ status: number; body: Buffer; contentType: string | undefined }> {
  return new Promise((resolve, reject) => {
    // A fresh connection each, as the service's transport makes (agent: false).
    const req = httpRequest(url, { method: 'POST', agent: false, headers: { 'Content-Type': message.contentType, 'Content-Length': String(message.body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), contentType: res.headers['content-type'] }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(message.body);
  });
}

/** The bare client: the bodies posted `concurrency` at a time, each answer read whole and nothing else done. */
async function bareRoundTrips(url: string, bodies: CoreMessage[], concurrency: number): Promise<EligibilityBaseline> {
  const target = new URL(url);
  const latencies: number[] = [];
  let next = 0;
  let answered271 = 0;
  const cpuBefore = processCpuSeconds(process.pid) ?? 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const t = performance.now();
        const answer = await post(target, body);
        latencies.push(performance.now() - t);
        if (answer.status === 200 && answer.body.includes('X12_271_Response_005010X279A1')) answered271++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = (processCpuSeconds(process.pid) ?? 0) - cpuBefore;
  return { roundTrips: bodies.length, seconds, perSecond: bodies.length / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), answered271, benchCpuMsPerRoundTrip: (1000 * cpu) / bodies.length };
}

/** CPU of one exchange's protocol work in this process, no network, no database: the floor under the service's cost per check. */
async function protocolCpuMs(protocol: CoreProtocol, answer: { body: Buffer; contentType: string | undefined }): Promise<number> {
  const once = async (inquiry: EligibilityInquiry) => {
    const built = build270(inquiry);
    await coreRequest(protocol, envelopeOf(built.text, inquiry.at), CREDENTIALS);
    const read = await readCoreResponse(protocol, answer.body, answer.contentType);
    subscriberLoops(read.payload!);
  };
  for (const inquiry of inquiries(300, 1)) await once(inquiry);
  const measured = inquiries(2000, 1);
  const before = process.cpuUsage();
  for (const inquiry of measured) await once(inquiry);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / measured.length;
}

/** Counts exchanges and charges CPU: on PostgreSQL through one client of its own, so the backends charged are the service's alone. */
async function watcherOf(databaseUrl: string): Promise<{ exchanges(): Promise<number>; charge(pid: number): CpuCharged; close(): Promise<void> }> {
  if (!/^postgres(ql)?:/.test(databaseUrl)) {
    const db = openDatabase(databaseUrl);
    return {
      exchanges: async () => Number((await db('eligibility_exchanges').count({ n: '*' }).first())!.n),
      charge: (pid) => () => [pid],
      close: () => db.destroy(),
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const backends = async () => (await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  return {
    exchanges: async () => Number((await client.query<{ n: string }>('select count(*) as n from eligibility_exchanges')).rows[0]!.n),
    charge: (pid) => async () => [pid, ...(await backends())],
    close: () => client.end(),
  };
}

interface Tenant {
  orgId: string;
  facilityId: string;
  connectionId: string;
}

async function prepare(databaseUrl: string, sizes: Sizes, double: ClearinghouseDouble, cipher: SigningSecretCipher, settings: BenchSettings, label: string): Promise<{ tenant: Tenant; seedSeconds: number }> {
  const db = openDatabase(databaseUrl);
  try {
    await migrateToLatest(db);
    const org = await createOrganization(db, 'Eligibility benchmark');
    const facility = await createFacility(db, org.id, 'Eligibility benchmark facility');
    const { connection } = await setConnection(db, cipher, { allowPrivateTargets: true, resolve: systemResolver }, { orgId: org.id, url: double.url, protocol: sizes.protocols[0]!, ...CREDENTIALS, senderId: SENDER_ID, receiverId: RECEIVER_ID, payers: null, concurrency: sizes.concurrency, usage: 'P' });
    settings.log(`  ${label}: ${sizes.coverages.toLocaleString('en-US')} residents with a Coverage (payer id ${PAYER.id}) through applyChangeSet`);
    const started = performance.now();
    await seedCoverages(db, org.id, facility.id, sizes.coverages);
    const seedSeconds = (performance.now() - started) / 1000;
    const queued = Number((await db('eligibility_checks').where({ trigger: 'admission' }).count({ n: '*' }).first())!.n);
    if (queued !== sizes.coverages) throw new Error(`seeding queued ${queued} admission checks for ${sizes.coverages} Coverages`);
    if (db.client.config.client === 'pg') await db.raw('analyze');
    return { tenant: { orgId: org.id, facilityId: facility.id, connectionId: connection.id }, seedSeconds };
  } finally {
    await db.destroy();
  }
}

/**
 * One re-verification: every check (or `limit` of them) due now as a recheck, the service
 * started with its facility not yet able to ask, the NPI set, and the run timed until each has
 * its exchange on record.
 */
async function reverify(
  databaseUrl: string,
  tenant: Tenant,
  env: Record<string, string>,
  double: ClearinghouseDouble,
  options: { limit?: number; cpuProfileDir?: string },
): Promise<{ checks: number; prior: number; seconds: number; wallSeconds: number; cpuSeconds: number; serviceCpuSeconds: number; benchCpuSeconds: number; firstStartedMs: number; lastFinishedMs: number; stoppedAtMs: number }> {
  const db = openDatabase(databaseUrl);
  let checks: number;
  let prior: number;
  try {
    await setFacilityNpi(db, tenant.facilityId, null);
    checks = await dueAsRecheck(db, options.limit);
    prior = Number((await db('eligibility_exchanges').count({ n: '*' }).first())!.n);
  } finally {
    await db.destroy();
  }
  const watcher = await watcherOf(databaseUrl);
  let service: ServiceProcess | undefined;
  let stoppedAtMs = 0;
  try {
    service = await startServiceProcess({ databaseUrl, env, ...(options.cpuProfileDir ? { cpuProfileDir: options.cpuProfileDir } : {}) });
    const pid = service.pid;
    const meter = await startCpuMeter(watcher.charge(pid));
    const serviceMeter = await startCpuMeter(() => [pid]);
    const benchBefore = processCpuSeconds(process.pid) ?? 0;
    const gun = performance.now();
    // The start gun: the facility can ask from now on (the worker looks every ELIGIBILITY_POLL_INTERVAL_MS).
    const gate = openDatabase(databaseUrl);
    try {
      await setFacilityNpi(gate, tenant.facilityId, NPI);
    } finally {
      await gate.destroy();
    }
    // However slow the machine, a run that moves is waited for; one that stalls for STALL_MS fails.
    let done = 0;
    let progressed = { done: -1, at: Date.now() };
    while ((done = (await watcher.exchanges()) - prior) < checks) {
      if (done > progressed.done) progressed = { done, at: Date.now() };
      else if (Date.now() - progressed.at > STALL_MS) throw new Error(`only ${done} of ${checks} checks had an exchange on record, none new for ${STALL_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const wallSeconds = (performance.now() - gun) / 1000;
    const cpuSeconds = await meter.stop();
    const serviceCpuSeconds = await serviceMeter.stop();
    const benchCpuSeconds = (processCpuSeconds(process.pid) ?? 0) - benchBefore;
    await service.stop();
    stoppedAtMs = Date.now();
    service = undefined;
    const read = openDatabase(databaseUrl);
    try {
      const span = (await read('eligibility_exchanges').orderBy('seq').offset(prior).limit(checks).select('started_at', 'finished_at')) as Array<{ started_at: string; finished_at: string }>;
      const firstStartedMs = Math.min(...span.map((r) => Date.parse(r.started_at)));
      const lastFinishedMs = Math.max(...span.map((r) => Date.parse(r.finished_at)));
      return { checks, prior, seconds: (lastFinishedMs - firstStartedMs) / 1000, wallSeconds, cpuSeconds, serviceCpuSeconds, benchCpuSeconds, firstStartedMs, lastFinishedMs, stoppedAtMs };
    } finally {
      await read.destroy();
    }
  } finally {
    await service?.stop();
    await watcher.close();
  }
}

async function measurePass(databaseUrl: string, tenant: Tenant, protocol: CoreProtocol, sizes: Sizes, double: ClearinghouseDouble, cipher: SigningSecretCipher, encryptionKey: string, settings: BenchSettings, label: string): Promise<EligibilityPass> {
  const { log } = settings;
  // The connection speaks this pass's protocol (`ops clearinghouse set` again updates it).
  const db = openDatabase(databaseUrl);
  try {
    await setConnection(db, cipher, { allowPrivateTargets: true, resolve: systemResolver }, { orgId: tenant.orgId, url: double.url, protocol, ...CREDENTIALS, senderId: SENDER_ID, receiverId: RECEIVER_ID, payers: null, concurrency: sizes.concurrency, usage: 'P' });
  } finally {
    await db.destroy();
  }

  // Baseline first: the same number of CORE round trips from a bare client, after a warm-up of the double.
  const firstControl = 500_000_000;
  const warm = await requestBodies(protocol, 300, firstControl);
  await bareRoundTrips(double.url, warm, sizes.concurrency);
  const sample = await post(new URL(double.url), warm[0]!);
  const bodies = await requestBodies(protocol, sizes.coverages, firstControl + 1000);
  double.received.length = 0;
  log(`  ${label} ${protocol}: baseline, ${sizes.coverages.toLocaleString('en-US')} CORE round trips from a bare client, ${sizes.concurrency} at a time`);
  const baseline = await bareRoundTrips(double.url, bodies, sizes.concurrency);
  const baselineProblems = double.received.filter((r) => r.problems.length > 0).length;
  if (baseline.answered271 !== bodies.length || baselineProblems > 0) throw new Error(`the bare client's round trips: ${baseline.answered271} of ${bodies.length} answered with a 271, ${baselineProblems} refused by the double`);
  bodies.length = 0;
  double.received.length = 0;
  const protocolCpuMsPerCheck = await protocolCpuMs(protocol, sample);

  log(`  ${label} ${protocol}: the service re-verifies ${sizes.coverages.toLocaleString('en-US')} Coverages, ELIGIBILITY_CONCURRENCY=${sizes.concurrency}`);
  const env = { ELIGIBILITY_CONCURRENCY: String(sizes.concurrency), WEBHOOK_ENCRYPTION_KEY: encryptionKey, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_WORKER: '0' };
  const run = await reverify(databaseUrl, tenant, env, double, {});
  const doubleProblems = double.received.filter((r) => r.problems.length > 0).length;
  double.received.length = 0;

  const read = openDatabase(databaseUrl);
  try {
    const rows = (await read('eligibility_exchanges').orderBy('seq').offset(run.prior).limit(run.checks).select('duration_ms', 'outcome', 'trigger')) as Array<{ duration_ms: number | string; outcome: string; trigger: string }>;
    const outcomes: Record<string, number> = {};
    for (const r of rows) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    const durations = rows.map((r) => Number(r.duration_ms));
    const triggers = new Set(rows.map((r) => r.trigger));
    if (triggers.size !== 1 || !triggers.has('recheck')) throw new Error(`the pass's exchanges have triggers ${[...triggers].join(', ')}`);
    const coveragesChanged = Number((await read('coverage').where({ facility_id: tenant.facilityId }).andWhere('version_id', '>', 1).count({ n: '*' }).first())!.n);
    const leftQueued = Number((await read('eligibility_checks').where('due_at', '<=', nowIso()).orWhereNotNull('lease_owner').count({ n: '*' }).first())!.n);
    const pass: EligibilityPass = {
      protocol,
      priorExchanges: run.prior,
      checks: run.checks,
      seconds: run.seconds,
      checksPerSecond: run.checks / run.seconds,
      wallSeconds: run.wallSeconds,
      cpuMsPerCheck: (1000 * run.cpuSeconds) / run.checks,
      serviceCpuMsPerCheck: (1000 * run.serviceCpuSeconds) / run.checks,
      doubleCpuMsPerCheck: (1000 * run.benchCpuSeconds) / run.checks,
      p50Ms: percentile(durations, 50),
      p99Ms: percentile(durations, 99),
      outcomes,
      coveragesChanged,
      doubleProblems,
      leftQueued,
      baseline,
      protocolCpuMsPerCheck,
    };
    log(`    ${pass.checksPerSecond.toFixed(0)} checks/s (ceiling ${sizes.concurrency}/${ELIGIBILITY_LATENCY_MS} ms = ${(sizes.concurrency / (ELIGIBILITY_LATENCY_MS / 1000)).toFixed(0)}/s, bare client ${baseline.perSecond.toFixed(0)}/s: ${(pass.checksPerSecond / baseline.perSecond).toFixed(2)}); CPU ${pass.cpuMsPerCheck.toFixed(2)} ms a check (service process ${pass.serviceCpuMsPerCheck.toFixed(2)}; protocol floor ${protocolCpuMsPerCheck.toFixed(2)}; the double ${pass.doubleCpuMsPerCheck.toFixed(2)}); exchange p50 ${pass.p50Ms} ms, p99 ${pass.p99Ms} ms (bare ${baseline.p50Ms.toFixed(0)} / ${baseline.p99Ms.toFixed(0)} ms); outcomes ${JSON.stringify(outcomes)}; ${coveragesChanged} Coverages changed, ${doubleProblems} refused by the double, ${leftQueued} left queued`);
    return pass;
  } finally {
    await read.destroy();
  }
}

async function measureOn(database: EligibilityRun['database'], databaseUrl: string, sizes: Sizes, settings: BenchSettings): Promise<EligibilityRun> {
  const double = await startClearinghouseDouble({ ...CREDENTIALS, latencyMs: ELIGIBILITY_LATENCY_MS, answer: () => ({ kind: 'active' }) });
  try {
    const encryptionKey = randomBytes(32).toString('base64');
    const cipher = new SigningSecretCipher(Buffer.from(encryptionKey, 'base64'));
    const { tenant, seedSeconds } = await prepare(databaseUrl, sizes, double, cipher, settings, database);
    const passes: EligibilityPass[] = [];
    for (const protocol of sizes.protocols) passes.push(await measurePass(databaseUrl, tenant, protocol, sizes, double, cipher, encryptionKey, settings, database));
    return { database, coverages: sizes.coverages, concurrency: sizes.concurrency, latencyMs: ELIGIBILITY_LATENCY_MS, ceilingPerSecond: sizes.concurrency / (ELIGIBILITY_LATENCY_MS / 1000), seedSeconds, passes };
  } finally {
    await double.close();
  }
}

/** The service under --cpu-prof for a pass of its own (SOAP), its profile counted over the run's window only. */
async function profiledPass(databaseUrl: string, sizes: Sizes, settings: BenchSettings): Promise<{ profile: ProfileSummary; checksPerSecond: number; checks: number } | undefined> {
  const double = await startClearinghouseDouble({ ...CREDENTIALS, latencyMs: ELIGIBILITY_LATENCY_MS, answer: () => ({ kind: 'active' }) });
  // BENCH_CPU_PROF_DIR keeps the profile there (as the other benchmarks' helper processes do).
  const keptDir = process.env.BENCH_CPU_PROF_DIR;
  const profileDir = keptDir ? mkdtempSync(join(keptDir, 'eligibility-')) : mkdtempSync(join(tmpdir(), 'ofctx-bench-eligibility-profile-'));
  try {
    const encryptionKey = randomBytes(32).toString('base64');
    const cipher = new SigningSecretCipher(Buffer.from(encryptionKey, 'base64'));
    const db = openDatabase(databaseUrl);
    let tenant: Tenant;
    try {
      const row = (await db('clearinghouse_connections').first('id', 'org_id')) as { id: string; org_id: string };
      const facility = (await db('facilities').where({ org_id: row.org_id }).first('id')) as { id: string };
      // The key changed with the double: set the connection again (encrypted with this run's key, SOAP, this double).
      await setConnection(db, cipher, { allowPrivateTargets: true, resolve: systemResolver }, { orgId: row.org_id, url: double.url, protocol: 'soap', ...CREDENTIALS, senderId: SENDER_ID, receiverId: RECEIVER_ID, payers: null, concurrency: sizes.concurrency, usage: 'P' });
      tenant = { orgId: row.org_id, facilityId: facility.id, connectionId: row.id };
    } finally {
      await db.destroy();
    }
    const checks = Math.min(sizes.coverages, PROFILED_CHECKS);
    settings.log(`  SQLite soap: ${checks} checks again, the service under --cpu-prof`);
    const env = { ELIGIBILITY_CONCURRENCY: String(sizes.concurrency), WEBHOOK_ENCRYPTION_KEY: encryptionKey, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_WORKER: '0' };
    const run = await reverify(databaseUrl, tenant, env, double, { limit: checks, cpuProfileDir: profileDir });
    // The main thread's profile (thread 0); the WAL checkpointer's thread writes one of its own.
    const files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
    const file = files.find((name) => /\.0\.\d+\.cpuprofile$/.test(name)) ?? files[0];
    if (!file) {
      settings.log('  ! no CPU profile was written');
      return undefined;
    }
    const window = { lengthMs: run.lastFinishedMs - run.firstStartedMs, endedMsBeforeExit: run.stoppedAtMs - run.lastFinishedMs };
    return { profile: summarizeCpuProfile(join(profileDir, file), window, 16), checksPerSecond: run.checks / run.seconds, checks: run.checks };
  } finally {
    await double.close();
    if (!keptDir) rmSync(profileDir, { recursive: true, force: true });
  }
}

export async function eligibilityThroughput(settings: BenchSettings): Promise<EligibilityThroughputResult> {
  const sizes = sizesFromEnv();
  const runs: EligibilityRun[] = [];
  const skipped: string[] = [];
  let profiled: Awaited<ReturnType<typeof profiledPass>>;
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-eligibility-'));
  try {
    const url = `sqlite:${join(dir, 'eligibility.db')}`;
    runs.push(await measureOn('SQLite', url, sizes, settings));
    if (settings.profile) profiled = await profiledPass(url, sizes, settings);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const run = await onScratchPostgres(settings, 1, skipped, ([url]) => measureOn('PostgreSQL', url!, sizes, settings));
  if (run) runs.push(run);
  return { runs, skipped, ...(profiled ? { profile: profiled.profile, profiledChecksPerSecond: profiled.checksPerSecond, profiledChecks: profiled.checks } : {}) };
}
