// List throughput: GET .../coverage?page_size=50 through the whole service (token check,
// contract routing and validation, tenancy, the database, the audit row, envelope) on a
// facility of 10,000 residents, against two baselines, each in its own process:
// - the hand-written server (targets/hand-written-list-server.ts): the same work per request
//   with no framework, the honest ceiling, measured on SQLite and on PostgreSQL;
// - a bare node:http server returning the same bytes from memory (the physical limit).
// Service, hand-written server and bare server (and on SQLite /healthz through the whole
// stack: the framework floor) are measured in interleaved rounds (BENCH_LIST_ROUNDS, default
// 5; 3 until 2026-11-27, when one server's figure moved by a factor 1.6 between rounds of one
// run: /healthz 1.9-2.9x in three rounds), so drifting load on a shared machine hits them
// alike, and the ratios to the bare server are taken round by round (its figure alone moved
// from 23 to 35 µs between runs of one day).
// Then the list again with the server under --cpu-prof, to say where the time goes. Each load
// also charges its server the CPU time its process (and on PostgreSQL the database's
// backends) spent per request (process-cpu.ts): issue 26's yardstick, 32 connections.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/src/db/database.js';
import { startChildScript } from './child-script.js';
import { summarizeCpuProfile, type ProfileSummary } from './cpu-profile.js';
import pg from 'pg';
import { measureLoad, type LoadResult } from './load.js';
import type { CpuCharged } from './process-cpu.js';
import { freePort } from './ports.js';
import { seededDatabase, seedTenant, workingCopy } from './seeded-database.js';
import { accessToken, BENCH_LIMITS, startServiceProcess } from './service-process.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';
import { median } from './stats.js';

export const LIST_RESIDENTS = 10_000;
/** Issue 26's load: enough connections to keep every server busy, the bare one included. */
export const LIST_CONNECTIONS = 32;

/** A server's own process, and on PostgreSQL the backends serving its database, found at each reading. */
export async function chargedTo(databaseUrl: string): Promise<{ charge(pid: number): CpuCharged; close(): Promise<void> }> {
  if (!/^postgres(ql)?:/.test(databaseUrl)) return { charge: (pid) => () => [pid], close: async () => undefined };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const backends = async () =>
    (await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => r.pid);
  return { charge: (pid) => async () => [pid, ...(await backends())], close: () => client.end() };
}

export interface ListRound {
  service: LoadResult;
  handWritten: LoadResult;
  /** The same bytes from the bare server, in the same round (runs since 2026-11-26 20:30). */
  bare?: LoadResult;
  /** /healthz through the service, in the same round (SQLite). */
  healthz?: LoadResult;
}

/** The service against the hand-written server on one database. */
export interface ListOnDatabase {
  database: 'SQLite' | 'PostgreSQL';
  responseBytes: number;
  /** The hand-written server answered exactly the service's body bytes. */
  sameBytes: boolean;
  rounds: ListRound[];
}

export interface ListThroughputResult {
  residents: number;
  coverageRows: number;
  responseBytes: number;
  connections: number;
  /** SQLite, the median round (see databases for every round). */
  coverageList: LoadResult;
  handWritten?: LoadResult;
  healthz: LoadResult;
  bare: LoadResult;
  databases?: ListOnDatabase[];
  skipped?: string[];
  profile?: ProfileSummary | undefined;
  /** Requests per second while profiled (the profiler slows the server a little). */
  profiledRequestsPerSecond?: number | undefined;
}

/** The response headers worth replaying; hop-by-hop and per-response ones are the server's own business. */
const NOT_REPLAYED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function record(url: string, headers: Record<string, string>): Promise<Recorded> {
  const response = await fetch(url, { headers });
  const recorded: Recorded = { status: response.status, headers: {}, body: await response.text() };
  response.headers.forEach((value, name) => {
    if (!NOT_REPLAYED.has(name)) recorded.headers[name] = value;
  });
  const page = JSON.parse(recorded.body) as { data?: unknown[] };
  if (response.status !== 200 || page.data?.length !== 50) throw new Error(`unexpected answer ${response.status}: ${recorded.body.slice(0, 300)}`);
  return recorded;
}

/** The round whose figure is the median, per measure: throughput and p99 separately. */
export function medianOf(results: LoadResult[]): LoadResult {
  const byRate = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const middle = byRate[Math.floor((byRate.length - 1) / 2)]!;
  const cpu = results.map((r) => r.cpuUsPerRequest).filter((us): us is number => us !== undefined);
  return {
    ...middle,
    p99Ms: median(results.map((r) => r.p99Ms)),
    p50Ms: median(results.map((r) => r.p50Ms)),
    ...(cpu.length > 0 ? { cpuUsPerRequest: median(cpu) } : {}),
  };
}

const ROUNDS = Math.max(1, Number(process.env.BENCH_LIST_ROUNDS ?? 5));

interface Tenant {
  orgId: string;
  facilityId: string;
  client: { client_id: string; client_secret: string };
}

/** The bare server answering `recorded`'s bytes, in its own process. */
async function startBareServer(recorded: Recorded): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const scratch = mkdtempSync(join(tmpdir(), 'ofctx-bench-bare-'));
  try {
    const responseFile = join(scratch, 'response.json');
    writeFileSync(responseFile, JSON.stringify(recorded));
    const port = await freePort();
    const server = await startChildScript('scripts/bench/targets/bare-http-server.ts', [responseFile, String(port)]);
    return {
      url: `http://127.0.0.1:${port}/`,
      pid: server.pid,
      stop: async () => {
        await server.stop();
        rmSync(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/** The servers on one database, measured in interleaved rounds. */
async function serviceAgainstHandWritten(
  database: ListOnDatabase['database'],
  databaseUrl: string,
  tenant: Tenant,
  settings: BenchSettings,
  env: Record<string, string>,
): Promise<{ run: ListOnDatabase; recorded: Recorded }> {
  const { log, durationSeconds, warmupSeconds } = settings;
  const path = `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/coverage?page_size=50`;
  const charged = await chargedTo(databaseUrl);
  const loadOf = (url: string, headers: Record<string, string>, pid: number) =>
    measureLoad({ url, headers, durationSeconds, warmupSeconds, pid, connections: LIST_CONNECTIONS, cpu: charged.charge(pid) });
  // Servers that touch no database: their own process alone.
  const ownLoadOf = (url: string, pid: number) => measureLoad({ url, durationSeconds, warmupSeconds, pid, connections: LIST_CONNECTIONS, cpu: () => [pid] });
  const service = await startServiceProcess({ databaseUrl, env }).catch(async (error: unknown) => {
    await charged.close();
    throw error;
  });
  try {
    const port = await freePort();
    const handWritten = await startChildScript('scripts/bench/targets/hand-written-list-server.ts', [databaseUrl, String(port)], { env: { ...BENCH_LIMITS, ...env } });
    try {
      const headers = { authorization: `Bearer ${await accessToken(service.url, tenant.client)}`, accept: 'application/json' };
      const handWrittenUrl = `http://127.0.0.1:${port}${path}`;
      const recorded = await record(service.url + path, headers);
      const theirs = await record(handWrittenUrl, headers);
      const sameBytes = theirs.body === recorded.body && Object.keys(theirs.headers).sort().join() === Object.keys(recorded.headers).sort().join();
      if (!sameBytes) log(`  ! the hand-written server's answer differs from the service's`);
      const bare = await startBareServer(recorded);
      try {
        const rounds: ListRound[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          // Rotate who goes first, so a machine getting busier or quieter hits all alike.
          log(`  ${database}, round ${round}/${ROUNDS}: coverage list through the service, the hand-written server and the bare server${database === 'SQLite' ? ', /healthz through the service' : ''}`);
          const loads: Array<[keyof ListRound, () => Promise<LoadResult>]> = [
            ['service', () => loadOf(service.url + path, headers, service.pid)],
            ['handWritten', () => loadOf(handWrittenUrl, headers, handWritten.pid)],
            ['bare', () => ownLoadOf(bare.url, bare.pid)],
          ];
          if (database === 'SQLite') loads.push(['healthz', () => ownLoadOf(`${service.url}/healthz`, service.pid)]);
          const measured: Partial<ListRound> = {};
          for (let i = 0; i < loads.length; i++) {
            const [name, load] = loads[(i + round - 1) % loads.length]!;
            measured[name] = await load();
          }
          rounds.push(measured as ListRound);
        }
        return { run: { database, responseBytes: Buffer.byteLength(recorded.body), sameBytes, rounds }, recorded };
      } finally {
        await bare.stop();
      }
    } finally {
      await handWritten.stop();
    }
  } finally {
    await service.stop();
    await charged.close();
  }
}

async function onPostgres(settings: BenchSettings, skipped: string[]): Promise<ListOnDatabase | undefined> {
  return onScratchPostgres(settings, 1, skipped, async ([url], [name]) => {
    settings.log(`  seeding ${LIST_RESIDENTS.toLocaleString('en-US')} residents into PostgreSQL database ${name}`);
    const db = openDatabase(url!);
    let tenant: Tenant;
    try {
      // Observations play no part in the coverage list.
      tenant = await seedTenant(db, { residents: LIST_RESIDENTS, vitalRounds: 0 }, settings.log);
      await db.raw('VACUUM ANALYZE');
    } finally {
      await db.destroy();
    }
    const env = { WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    return (await serviceAgainstHandWritten('PostgreSQL', url!, tenant, settings, env)).run;
  });
}

export async function listThroughput(settings: BenchSettings): Promise<ListThroughputResult> {
  const { log, durationSeconds, warmupSeconds } = settings;
  const seeded = await seededDatabase({ residents: LIST_RESIDENTS, vitalRounds: 2 }, log);
  const copy = workingCopy(seeded);
  const path = `/api/v1/ofctx/${seeded.orgId}/${seeded.facilityId}/coverage?page_size=50`;
  const loadOf = (url: string, headers: Record<string, string>, pid: number) =>
    measureLoad({ url, headers, durationSeconds, warmupSeconds, pid, connections: LIST_CONNECTIONS, cpu: () => [pid] });
  let sqlite: ListOnDatabase;
  let recorded: Recorded;
  let profile: ProfileSummary | undefined;
  let profiledRequestsPerSecond: number | undefined;
  try {
    const measured = await serviceAgainstHandWritten('SQLite', copy.databaseUrl, seeded, settings, {});
    sqlite = measured.run;
    recorded = measured.recorded;

    if (settings.profile) {
      const profileDir = mkdtempSync(join(tmpdir(), 'ofctx-bench-profile-'));
      try {
        log(`  coverage list again, server under --cpu-prof`);
        let loadEnded = 0;
        const profiled = await startServiceProcess({ databaseUrl: copy.databaseUrl, cpuProfileDir: profileDir });
        try {
          const headers = { authorization: `Bearer ${await accessToken(profiled.url, seeded.client)}`, accept: 'application/json' };
          profiledRequestsPerSecond = (await loadOf(profiled.url + path, headers, profiled.pid)).requestsPerSecond;
        } finally {
          loadEnded = performance.now();
          await profiled.stop();
        }
        // Only the measured load: not start-up (module loading), warm-up or shutdown.
        const window = { lengthMs: durationSeconds * 1000, endedMsBeforeExit: performance.now() - loadEnded };
        const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
        if (file) profile = summarizeCpuProfile(join(profileDir, file), window);
        else log('  ! no CPU profile was written');
      } finally {
        rmSync(profileDir, { recursive: true, force: true });
      }
    }
  } finally {
    copy.remove();
  }

  const skipped: string[] = [];
  const postgres = await onPostgres(settings, skipped);

  return {
    residents: seeded.counts.residents,
    coverageRows: seeded.counts.coverage,
    responseBytes: Buffer.byteLength(recorded.body),
    connections: LIST_CONNECTIONS,
    coverageList: medianOf(sqlite.rounds.map((r) => r.service)),
    handWritten: medianOf(sqlite.rounds.map((r) => r.handWritten)),
    healthz: medianOf(sqlite.rounds.map((r) => r.healthz!)),
    bare: medianOf(sqlite.rounds.map((r) => r.bare!)),
    databases: postgres ? [sqlite, postgres] : [sqlite],
    skipped,
    profile,
    profiledRequestsPerSecond,
  };
}
