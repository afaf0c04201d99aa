// A quiet partner's p99 during another's flood (issue 43, "many partners, fairly"), on SQLite
// and PostgreSQL: one service at the default request quota (CLIENT_QUOTA_RATE 50 units/s,
// CLIENT_QUOTA_BURST 1,000), two credentials of one facility of BENCH_FAIRNESS_RESIDENTS
// residents (default 2,000). The quiet partner polls the coverage list (page_size=50) at
// 20 requests a second on one keep-alive connection, timed to the microsecond; the flooder
// sends the same list from 64 connections as fast as it is answered (autocannon in its own
// process, so its work does not delay the quiet partner's timer). Interleaved rounds
// (BENCH_FAIRNESS_ROUNDS, default 3): the quiet partner alone, then during the flood, measured
// from the moment the flooder is refused (the burst the quota grants it at once spent); the
// target is its p99 during the flood at most 2x its p99 alone (median of the rounds' own
// ratios). Then, as what the quota buys, one flood with the flooder's quota raised out of reach
// (`ops client update --quota-rate`), the quiet partner measured the same way.
//   BENCH_ONLY=fairness npm run bench
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient, updateClientQuota } from '../../server/src/auth/clients.js';
import { DEFAULT_CLIENT_QUOTA_BURST, DEFAULT_CLIENT_QUOTA_RATE } from '../../server/src/config/config.js';
import { seedFacility } from '../../server/src/seed/synthetic-data.js';
import { accessToken, NODE_WITH_TSX, ROOT, startServiceProcess } from './service-process.js';
import { onScratchPostgres } from './scratch-postgres.js';
import { percentile } from './stats.js';
import type { BenchSettings } from './settings.js';
import { statusOf } from './latency.js';

const DEFAULT_RESIDENTS = 2_000;
const ROUNDS = Number(process.env.BENCH_FAIRNESS_ROUNDS ?? 3);
export const QUIET_PER_SECOND = 20;
export const FLOOD_CONNECTIONS = 64;

export interface PacedResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than 200. */
  failures: number;
}

export interface FloodResult {
  requestsPerSecond: number;
  /** Answered 200, and refused 429 by the quota, per second. */
  okPerSecond: number;
  refusedPerSecond: number;
  other: number;
}

export interface FairnessRound {
  alone: PacedResult;
  flooded: PacedResult;
  /** The whole flood, its burst included. */
  flood: FloodResult;
  /** Seconds from the flood's start until the flooder was refused (its burst spent). */
  burstSeconds?: number;
}

export interface FairnessRun {
  database: string;
  residents: number;
  quota: { rate: number; burst: number };
  rounds: FairnessRound[];
  /** The quiet partner during a flood the quota does not limit (the flooder's quota raised out of reach). */
  unlimited: { flooded: PacedResult; flood: FloodResult };
}

export interface FairnessResult {
  runs: FairnessRun[];
  skipped: string[];
}

/** A request every 1/rate seconds (the next one at once when one took longer), each timed. */
async function pacedLatency(url: string, headers: Record<string, string>, seconds: number): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const samples: number[] = [];
  let failures = 0;
  try {
    const interval = 1000 / QUIET_PER_SECOND;
    const start = performance.now();
    for (let n = 0; performance.now() - start < seconds * 1000; n++) {
      const due = start + n * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const sent = performance.now();
      const status = await statusOf(target, headers, agent);
      samples.push(performance.now() - sent);
      if (status !== 200) failures += 1;
    }
  } finally {
    agent.destroy();
  }
  return { requests: samples.length, p50Ms: percentile(samples, 50), p99Ms: percentile(samples, 99), maxMs: Math.max(...samples), failures };
}

/** The flooding partner (targets/flood.ts) until stop() gives its counts. */
async function startFlood(url: string, token: string): Promise<{ stop(): Promise<FloodResult> }> {
  const child = spawn(process.execPath, [...NODE_WITH_TSX, join(ROOT, 'scripts/bench/targets/flood.ts'), url, token, String(FLOOD_CONNECTIONS)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('ready\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`the flood exited with ${code} before it was ready: ${err.slice(-2000)}`)));
  });
  return {
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) throw new Error(`the flood exited with ${code}: ${err.slice(-2000)}`);
      const r = JSON.parse(line) as { seconds: number; total: number; ok: number; non2xx: number; refused: number; errors: number };
      return { requestsPerSecond: r.total / r.seconds, okPerSecond: r.ok / r.seconds, refusedPerSecond: r.refused / r.seconds, other: r.non2xx - r.refused + r.errors };
    },
  };
}

/** Waits until the flooder is refused: its burst is spent and the flood is at its steady state. */
async function untilRefused(url: string, token: string, maxSeconds: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < maxSeconds * 1000) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (response.status === 429) return (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the flooder was not refused within ${maxSeconds} s`);
}

/**
 * The quiet partner measured during the flood: from the moment the flooder is refused (its
 * burst, which the quota grants at full speed by design, spent) when it has a quota, else a
 * second after the flood starts.
 */
async function duringFlood(quietUrl: string, quietHeaders: Record<string, string>, floodUrl: string, floodToken: string, seconds: number, limited: boolean): Promise<{ flooded: PacedResult; flood: FloodResult; burstSeconds?: number }> {
  const flooding = await startFlood(floodUrl, floodToken);
  try {
    const burstSeconds = limited ? await untilRefused(floodUrl, floodToken, 120) : undefined;
    if (!limited) await new Promise((resolve) => setTimeout(resolve, 1000));
    const flooded = await pacedLatency(quietUrl, quietHeaders, seconds);
    return { flooded, flood: await flooding.stop(), ...(burstSeconds === undefined ? {} : { burstSeconds }) };
  } catch (error) {
    await flooding.stop().catch(() => undefined);
    throw error;
  }
}

async function measureOn(label: string, databaseUrl: string, residents: number, settings: BenchSettings): Promise<FairnessRun> {
  const db = openDatabase(databaseUrl);
  let service;
  try {
    await migrateToLatest(db);
    const org = await createOrganization(db, 'Fairness benchmark');
    const facility = await createFacility(db, org.id, 'Fairness benchmark facility');
    settings.log(`  ${label}: ${residents.toLocaleString('en-US')} residents through ingestion`);
    await seedFacility(db, { orgId: org.id, facilityId: facility.id, residents, randomSeed: 43, vitalRounds: 0 });
    if (db.client.config.client === 'pg') await db.raw('analyze');
    const quiet = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'], name: 'bench quiet partner' });
    const flooder = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'], name: 'bench flooding partner' });
    const quota = { rate: DEFAULT_CLIENT_QUOTA_RATE, burst: DEFAULT_CLIENT_QUOTA_BURST };
    service = await startServiceProcess({
      databaseUrl,
      env: { WEBHOOK_WORKER: '0', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64'), CLIENT_QUOTA_RATE: String(quota.rate), CLIENT_QUOTA_BURST: String(quota.burst) },
    });
    const url = `${service.url}/api/v1/ofctx/${org.id}/${facility.id}/coverage?page_size=50`;
    const quietHeaders = { authorization: `Bearer ${await accessToken(service.url, quiet)}` };
    const floodToken = await accessToken(service.url, flooder);
    // Warm-up: validators compiled, pages kept, V8 tiered.
    await pacedLatency(url, quietHeaders, settings.warmupSeconds);
    const rounds: FairnessRound[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await pacedLatency(url, quietHeaders, settings.durationSeconds);
      const { flooded, flood: floodResult, burstSeconds } = await duringFlood(url, quietHeaders, url, floodToken, settings.durationSeconds, true);
      rounds.push({ alone, flooded, flood: floodResult, ...(burstSeconds === undefined ? {} : { burstSeconds }) });
      settings.log(
        `    round ${round + 1}: quiet p99 alone ${alone.p99Ms.toFixed(2)} ms, during the flood ${flooded.p99Ms.toFixed(2)} ms (${(flooded.p99Ms / alone.p99Ms).toFixed(2)}x); flood ${floodResult.requestsPerSecond.toFixed(0)} req/s, ${floodResult.okPerSecond.toFixed(0)} answered 200, ${floodResult.refusedPerSecond.toFixed(0)} refused 429; its burst spent after ${burstSeconds?.toFixed(1)} s`,
      );
    }
    // What the quota buys: the same flood with the flooder's quota out of reach (its tokens
    // follow within the token cache's TTL, 2 s).
    await updateClientQuota(db, flooder.client_id, { rate: 10_000_000, burst: 10_000_000 });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const unlimited = await duringFlood(url, quietHeaders, url, floodToken, settings.durationSeconds, false);
    settings.log(`    without the quota: quiet p99 ${unlimited.flooded.p99Ms.toFixed(2)} ms during a flood of ${unlimited.flood.requestsPerSecond.toFixed(0)} req/s (${unlimited.flood.okPerSecond.toFixed(0)} answered 200)`);
    return { database: label, residents, quota, rounds, unlimited };
  } finally {
    await service?.stop();
    await db.destroy();
  }
}

export async function fairness(settings: BenchSettings): Promise<FairnessResult> {
  const residents = Number(process.env.BENCH_FAIRNESS_RESIDENTS ?? DEFAULT_RESIDENTS);
  const runs: FairnessRun[] = [];
  const skipped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-fairness-'));
  try {
    runs.push(await measureOn('SQLite', `sqlite:${join(dir, 'fairness.db')}`, residents, settings));
    const run = await onScratchPostgres(settings, 1, skipped, ([url]) => measureOn('PostgreSQL', url!, residents, settings));
    if (run) runs.push(run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, skipped };
}
