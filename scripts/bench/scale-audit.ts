// Years of traffic on PostgreSQL (issue 43): the audit trail at BENCH_SCALE_AUDIT_ROWS rows
// (default 10^8) over six monthly partitions, generated in the database
// (audit-history-generator.ts), against the same facility with an empty audit trail, in the
// same run:
// 1. the coverage list (page_size=50, 32 connections) through the service on each database, in
//    interleaved rounds (BENCH_SCALE_ROUNDS, default 5): CPU per request of the service's process
//    and the backends serving its database, and p99 (target: within 1.1x of the empty audit's);
// 2. the accounting of disclosures of one resident over the six months, read as `ops audit
//    disclosures` reads it (disclosuresOfResident), median of five after a first cold read
//    (target: under 100 ms);
// 3. the purge (retention/purge-expired.ts, as `ops purge` runs it) with its cut-off at the end
//    of the oldest month, which drops that month's partition, while a steady load of coverage
//    lists runs (STEADY_PER_SECOND on STEADY_CONNECTIONS keep-alive connections, each request
//    timed): its duration (target: the drop under 1 s), when each partition was gone, and the
//    requests meanwhile (target: none above 50 ms); the file system under PostgreSQL's data
//    (data-file-system.ts) is reported with it, since removing the files is its work; then the
//    same purge with its cut-off a millisecond before the end of the next month, which deletes
//    that month (a month of the same traffic) in the purge's batches, under the same load: duration, WAL bytes, the requests' p99 (capped at
//    BENCH_SCALE_DELETE_SECONDS, default 1,800: the rate and the WAL per row are then what it
//    measured, the month's time extrapolated);
// 4. bytes on disk per audit row: the partitions (heap, TOAST, indexes), the texts, and the
//    accounting of disclosures (its index and texts).
// The two databases are dropped at the end, whatever happens. Before anything, the free space
// where PostgreSQL keeps its data is checked against an estimate of what the rows take.
//   BENCH_SCALE_AUDIT_ROWS=1e7 BENCH_ONLY=scale npm run bench
import { randomBytes } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { Agent } from 'node:http';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/database.js';
import { createClient } from '../../server/src/auth/clients.js';
import { disclosuresOfResident } from '../../server/src/audit/disclosures.js';
import { purgeExpired, type PurgeReport } from '../../server/src/retention/purge-expired.js';
import { generateAuditHistory, type GenerationResult } from './audit-history-generator.js';
import { measureLoad, type LoadResult } from './load.js';
import { dataDirectory, dataFileSystem, type DataFileSystem } from './data-file-system.js';
import { chargedTo, LIST_CONNECTIONS, LIST_RESIDENTS, medianOf } from './list-throughput.js';
import { seedTenant } from './seeded-database.js';
import { accessToken, ROOT, startServiceProcess, type ServiceProcess } from './service-process.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';
import { median, percentile } from './stats.js';
import { statusOf } from './latency.js';

const ROUNDS = Math.max(1, Number(process.env.BENCH_SCALE_ROUNDS ?? 5));
/** Reads of each page over the six months: how often each resident was disclosed. */
const READS_PER_PAGE = Math.max(1, Number(process.env.BENCH_SCALE_READS_PER_PAGE ?? 1000));
/** Reads of one page one catch-up pass finds together (1: polled every few seconds or less often). */
const READS_PER_PASS = Math.max(1, Number(process.env.BENCH_SCALE_READS_PER_PASS ?? 1));
const DELETE_SECONDS = Number(process.env.BENCH_SCALE_DELETE_SECONDS ?? 1800);
export const PARTNERS = 40;
export const STEADY_PER_SECOND = 200;
export const STEADY_CONNECTIONS = 4;
const AUDIT_DAYS = 2190;
const DAY_MS = 86_400_000;
/** `ops purge`'s pause between batches (cli/commands/retention.ts). */
const PURGE_PAUSE_MS = 5;
/**
 * Disk an audit row takes (partitions with the index on its text key, its share of the
 * texts), and its share of the accounting of disclosures (a resident's index row is written
 * once a month per text; since migration 050 no group row per catch-up pass, which took 374
 * bytes an audit row at 5x10^7 rows): measured at 5x10^7 rows, 2026-11-29 (550 bytes before
 * the text key's index, and 49); what the run needs besides (the facility, WAL, a margin).
 */
export const ESTIMATED_AUDIT_BYTES_PER_ROW = 580;
export const ESTIMATED_DISCLOSURE_BYTES_PER_ROW = 60;
const ESTIMATED_BYTES_BESIDES = 4 * 1024 ** 3;

export interface SteadyLoad {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Requests that took more than 50 ms. */
  over50Ms: number;
  failures: number;
}

export interface PurgeMeasure {
  /** Rows the purged month held, and rows the purge removed (by drop or by batches). */
  monthRows: number;
  removedRows: number;
  seconds: number;
  /** From the purge's start until the partition was dropped (the drop path only). */
  dropSeconds?: number;
  /** Each partition the purge dropped, in order, with the seconds from the purge's start until it was gone. */
  dropTimeline?: Array<{ table: string; partition: string; seconds: number }>;
  walBytes: number;
  batches: number;
  /** Stopped at BENCH_SCALE_DELETE_SECONDS before the month was gone. */
  capped: boolean;
  /** The steady load's requests that overlapped the purge, and before it (its baseline). */
  during: SteadyLoad;
  before: SteadyLoad;
  partitionsDropped: PurgeReport['partitions_dropped'];
}

export interface DiskUse {
  auditHeapBytes: number;
  auditToastBytes: number;
  auditIndexBytes: number;
  textsBytes: number;
  disclosureIndexBytes: number;
  /** audit_disclosure_texts (a row per month and text) and the backlog. */
  disclosureTextsBytes: number;
  rows: number;
}

export interface ScaleRound {
  empty: LoadResult;
  full: LoadResult;
}

export interface ScaleRun {
  database: 'PostgreSQL';
  residents: number;
  /** The server's autovacuum setting: off, nothing cleans the dead rows a purge leaves. */
  autovacuum: string;
  generation: GenerationResult;
  rounds: ScaleRound[];
  disclosures: { records: number; expected: number; coldMs: number; medianMs: number; timesMs: number[] };
  drop: PurgeMeasure;
  /** VACUUM of the accounting of disclosures after the drop, before the batches. */
  vacuumAfterDropSeconds?: number;
  batchDelete: PurgeMeasure;
  disk: DiskUse;
  /** The file system under PostgreSQL's data directory (a server on this machine only): a drop's time is its work on the freed files. */
  fileSystem?: DataFileSystem;
}

export interface ScaleResult {
  auditRows: number;
  runs: ScaleRun[];
  skipped: string[];
}

interface Sample {
  sentAt: number;
  ms: number;
  status: number;
}

/** STEADY_PER_SECOND requests a second over STEADY_CONNECTIONS connections, each timed, until stop(). */
function startSteadyLoad(url: string, headers: Record<string, string>): { stop(): Promise<Sample[]> } {
  const samples: Sample[] = [];
  let stopped = false;
  const target = new URL(url);
  const perConnection = STEADY_PER_SECOND / STEADY_CONNECTIONS;
  const loops = Array.from({ length: STEADY_CONNECTIONS }, async (_, c) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const interval = 1000 / perConnection;
      const start = performance.now() + (c * interval) / STEADY_CONNECTIONS;
      for (let n = 0; !stopped; n++) {
        const wait = start + n * interval - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const sentAt = performance.now();
        const status = await statusOf(target, headers, agent).catch(() => 0);
        samples.push({ sentAt, ms: performance.now() - sentAt, status });
      }
    } finally {
      agent.destroy();
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return samples;
    },
  };
}

function steadyOf(samples: Sample[]): SteadyLoad {
  const ms = samples.map((s) => s.ms);
  return {
    requests: samples.length,
    p50Ms: percentile(ms, 50),
    p99Ms: percentile(ms, 99),
    // A loop, not Math.max(...ms): a half-hour purge times 360,000 requests, past the argument limit.
    maxMs: ms.length ? ms.reduce((a, b) => (b > a ? b : a), -Infinity) : NaN,
    over50Ms: ms.filter((x) => x > 50).length,
    failures: samples.filter((s) => s.status !== 200).length,
  };
}

async function walLsn(client: pg.Client): Promise<string> {
  return (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
}

async function walSince(client: pg.Client, lsn: string): Promise<number> {
  return Number((await client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn) AS bytes', [lsn])).rows[0]!.bytes);
}

/** The purge as `ops purge` runs it, with `now` set so the audit cut-off is `cutoff`, under the steady load. */
async function purgeUnderLoad(databaseUrl: string, admin: pg.Client, cutoff: number, listUrl: string, headers: Record<string, string>, monthRows: number, deadlineSeconds: number): Promise<PurgeMeasure> {
  const db = openDatabase(databaseUrl);
  try {
    await admin.query('CHECKPOINT');
    const load = startSteadyLoad(listUrl, headers);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const lsn = await walLsn(admin);
    const started = performance.now();
    const dropTimeline: Array<{ table: string; partition: string; seconds: number }> = [];
    // Other histories' cut-offs ten years further back: only the audit trail is purged.
    const far = AUDIT_DAYS + 3650;
    const report = await purgeExpired(
      db,
      { auditDays: AUDIT_DAYS, deliveryDays: far, eventDays: far, messageDays: far, batchSize: 500 },
      {
        now: cutoff + AUDIT_DAYS * DAY_MS,
        pause: () => new Promise((resolve) => setTimeout(resolve, PURGE_PAUSE_MS)),
        proceed: () => performance.now() - started < deadlineSeconds * 1000,
        onPartitionDropped: (dropped) => dropTimeline.push({ table: dropped.table, partition: dropped.partition, seconds: (performance.now() - started) / 1000 }),
      },
    );
    const ended = performance.now();
    const walBytes = await walSince(admin, lsn);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const samples = await load.stop();
    const removedRows = report.removed.audit_events + (report.partitions_dropped.length > 0 ? monthRows : 0);
    return {
      monthRows,
      removedRows,
      seconds: (ended - started) / 1000,
      ...(dropTimeline.length === 0 ? {} : { dropSeconds: dropTimeline[0]!.seconds, dropTimeline }),
      walBytes,
      batches: report.batches,
      capped: report.partitions_dropped.length === 0 && report.removed.audit_events < monthRows && performance.now() - started >= deadlineSeconds * 1000,
      during: steadyOf(samples.filter((s) => s.sentAt <= ended && s.sentAt + s.ms >= started)),
      before: steadyOf(samples.filter((s) => s.sentAt + s.ms < started)),
      partitionsDropped: report.partitions_dropped,
    };
  } finally {
    await db.destroy();
  }
}

async function diskUse(client: pg.Client): Promise<DiskUse> {
  const size = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
  const partitions = `SELECT inhrelid FROM pg_inherits WHERE inhparent = 'audit_events'::regclass`;
  return {
    auditHeapBytes: await size(`SELECT coalesce(sum(pg_relation_size(inhrelid)), 0) AS n FROM (${partitions}) p`),
    auditToastBytes: await size(`SELECT coalesce(sum(pg_table_size(inhrelid) - pg_relation_size(inhrelid)), 0) AS n FROM (${partitions}) p`),
    auditIndexBytes: await size(`SELECT coalesce(sum(pg_indexes_size(inhrelid)), 0) AS n FROM (${partitions}) p`),
    textsBytes: await size(`SELECT pg_total_relation_size('audit_texts') AS n`),
    // Partitioned by month (migration 045): their bytes are their partitions'.
    disclosureIndexBytes: await size(`SELECT coalesce(sum(pg_total_relation_size(inhrelid)), 0) AS n FROM pg_inherits WHERE inhparent = 'audit_disclosure_index'::regclass`),
    disclosureTextsBytes: await size(`SELECT coalesce(sum(pg_total_relation_size(inhrelid)), 0) + pg_total_relation_size('audit_disclosure_backlog') AS n FROM pg_inherits WHERE inhparent = 'audit_disclosure_texts'::regclass`),
    rows: await size('SELECT count(*) AS n FROM audit_events'),
  };
}

/** Refuses (a line in `skipped`) when PostgreSQL's disk has less room than the rows would take. */
async function roomFor(settings: BenchSettings, rows: number, skipped: string[]): Promise<boolean> {
  const admin = new pg.Client({ connectionString: settings.postgresAdminUrl });
  try {
    await admin.connect();
  } catch {
    return true; // onScratchPostgres says why
  }
  let dir = ROOT;
  try {
    // Not a superuser: the benchmark's own disk is the best guess for a server on this machine.
    dir = (await dataDirectory(admin)) ?? ROOT;
  } finally {
    await admin.end();
  }
  let free: number;
  try {
    const stats = statfsSync(dir);
    free = stats.bavail * stats.bsize;
  } catch {
    const stats = statfsSync(ROOT);
    free = stats.bavail * stats.bsize;
  }
  const needed = rows * (ESTIMATED_AUDIT_BYTES_PER_ROW + ESTIMATED_DISCLOSURE_BYTES_PER_ROW) + ESTIMATED_BYTES_BESIDES;
  const gb = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GB`;
  settings.log(`  disk: ${gb(free)} free where PostgreSQL keeps its data (${dir}); ${rows.toLocaleString('en-US')} audit rows need about ${gb(needed)}`);
  if (needed <= free) return true;
  skipped.push(
    `PostgreSQL: ${rows.toLocaleString('en-US')} audit rows need about ${gb(needed)} (${ESTIMATED_AUDIT_BYTES_PER_ROW} bytes a row, ${ESTIMATED_DISCLOSURE_BYTES_PER_ROW} of the accounting of disclosures, and ${gb(ESTIMATED_BYTES_BESIDES)} besides) and ${dir} has ${gb(free)} free: not generated (set BENCH_SCALE_AUDIT_ROWS lower, or free space)`,
  );
  settings.log(`  ! ${skipped[skipped.length - 1]}`);
  return false;
}

async function measure(settings: BenchSettings, [emptyUrl, fullUrl]: string[], [emptyName, fullName]: string[]): Promise<ScaleRun> {
  const { log } = settings;
  const rows = settings.scaleAuditRows;
  const admin = new pg.Client({ connectionString: settings.postgresAdminUrl });
  await admin.connect();
  const services: ServiceProcess[] = [];
  try {
    // One facility as the list benchmark's, 40 partners, and a real coverage list page's audit row.
    log(`  seeding ${LIST_RESIDENTS.toLocaleString('en-US')} residents into ${emptyName}`);
    const db = openDatabase(emptyUrl!);
    let tenant;
    const clientIds: string[] = [];
    let template;
    try {
      tenant = await seedTenant(db, { residents: LIST_RESIDENTS, vitalRounds: 0 }, log);
      clientIds.push(tenant.client.client_id);
      for (let n = 1; n < PARTNERS; n++) clientIds.push((await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ['coverage.read'], name: `scale partner ${n}` })).client_id);
      const service = await startServiceProcess({ databaseUrl: emptyUrl!, env: serviceEnv() });
      try {
        const token = await accessToken(service.url, tenant.client);
        const response = await fetch(`${service.url}${listPath(tenant)}`, { headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`the coverage list answered ${response.status}`);
      } finally {
        await service.stop();
      }
      const row = (await db.raw(
        `SELECT a.operation, a.status, a.result_count, a.purpose, a.resource_ids, a.disclosures, rt.text AS ids_text, dt.text AS disclosures_text
         FROM audit_events a LEFT JOIN audit_texts rt ON rt.digest = a.resource_ids_digest LEFT JOIN audit_texts dt ON dt.digest = a.disclosures_digest
         WHERE a.operation = 'listCoverage' ORDER BY a.seq DESC LIMIT 1`,
      )) as { rows: Array<Record<string, string | number | null>> };
      const real = row.rows[0];
      if (!real || real.ids_text === null || real.disclosures_text === null) throw new Error(`the coverage list's audit row was not found with its texts stored apart: ${JSON.stringify(real)}`);
      template = { operation: String(real.operation), status: Number(real.status), resultCount: Number(real.result_count), purpose: String(real.purpose), idsText: String(real.ids_text), disclosuresText: String(real.disclosures_text) };
      // Both databases start with an empty audit trail.
      await db.raw('TRUNCATE audit_events, audit_disclosure_backlog, audit_disclosure_texts, audit_disclosure_index, audit_texts');
      await db.raw('VACUUM ANALYZE');
    } finally {
      await db.destroy();
    }
    await admin.query(`DROP DATABASE "${fullName}"`);
    await admin.query(`CREATE DATABASE "${fullName}" TEMPLATE "${emptyName}"`);

    log(`  generating ${rows.toLocaleString('en-US')} audit rows over six months in ${fullName} (${READS_PER_PAGE} reads a page, ${READS_PER_PASS} a catch-up pass)`);
    const generation = await generateAuditHistory(
      fullUrl!,
      { rows, pages: Math.max(1, Math.round(rows / READS_PER_PAGE)), readsPerPass: READS_PER_PASS, orgId: tenant.orgId, facilityId: tenant.facilityId, clientIds, template, now: Date.now() },
      log,
    );
    const full = new pg.Client({ connectionString: fullUrl });
    await full.connect();
    let disk: DiskUse;
    try {
      disk = await diskUse(full);
    } finally {
      await full.end();
    }
    const perRow = (n: number) => (n / disk.rows).toFixed(0);
    log(`    on disk per audit row: ${perRow(disk.auditHeapBytes + disk.auditToastBytes + disk.auditIndexBytes)} bytes in the partitions (heap ${perRow(disk.auditHeapBytes)}, indexes ${perRow(disk.auditIndexBytes)}), texts ${perRow(disk.textsBytes)}, accounting of disclosures ${perRow(disk.disclosureIndexBytes + disk.disclosureTextsBytes)}`);

    // 1. The coverage list with the big audit and with an empty one, interleaved.
    const emptyService = await startServiceProcess({ databaseUrl: emptyUrl!, env: serviceEnv() });
    services.push(emptyService);
    const fullService = await startServiceProcess({ databaseUrl: fullUrl!, env: serviceEnv() });
    services.push(fullService);
    const headers = { authorization: `Bearer ${await accessToken(emptyService.url, tenant.client)}`, accept: 'application/json' };
    const fullHeaders = { authorization: `Bearer ${await accessToken(fullService.url, tenant.client)}`, accept: 'application/json' };
    const emptyCharged = await chargedTo(emptyUrl!);
    const fullCharged = await chargedTo(fullUrl!);
    const rounds: ScaleRound[] = [];
    try {
      const loadOn = async (service: ServiceProcess, h: Record<string, string>, charged: typeof emptyCharged, url: string) => {
        const result = await measureLoad({ url: service.url + listPath(tenant), headers: h, durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds, pid: service.pid, connections: LIST_CONNECTIONS, cpu: charged.charge(service.pid) });
        await backlogEmpty(url);
        return result;
      };
      for (let round = 1; round <= ROUNDS; round++) {
        const emptyFirst = round % 2 === 1;
        const first = emptyFirst ? await loadOn(emptyService, headers, emptyCharged, emptyUrl!) : await loadOn(fullService, fullHeaders, fullCharged, fullUrl!);
        const second = emptyFirst ? await loadOn(fullService, fullHeaders, fullCharged, fullUrl!) : await loadOn(emptyService, headers, emptyCharged, emptyUrl!);
        const r = emptyFirst ? { empty: first, full: second } : { empty: second, full: first };
        rounds.push(r);
        log(`    round ${round}/${ROUNDS}: empty audit ${r.empty.requestsPerSecond.toFixed(0)} req/s, ${r.empty.cpuUsPerRequest?.toFixed(0)} µs, p99 ${r.empty.p99Ms} ms; ${rows.toLocaleString('en-US')} rows ${r.full.requestsPerSecond.toFixed(0)} req/s, ${r.full.cpuUsPerRequest?.toFixed(0)} µs, p99 ${r.full.p99Ms} ms`);
      }
    } finally {
      await emptyCharged.close();
      await fullCharged.close();
    }
    await emptyService.stop();
    services.splice(services.indexOf(emptyService), 1);

    // 2. The accounting of disclosures of one resident over the six months.
    const reader = openDatabase(fullUrl!);
    let disclosures: ScaleRun['disclosures'];
    try {
      const resident = generation.measuredResident;
      const read = async () => {
        const started = performance.now();
        const records = (await disclosuresOfResident(reader, { orgId: tenant.orgId, residentId: resident.id })).length;
        return { ms: performance.now() - started, records };
      };
      const cold = await read();
      const times: number[] = [];
      for (let i = 0; i < 5; i++) times.push((await read()).ms);
      disclosures = { records: cold.records, expected: resident.disclosures, coldMs: cold.ms, medianMs: median(times), timesMs: times };
      log(`    disclosures of one resident: ${cold.records.toLocaleString('en-US')} records (expected ${resident.disclosures}), ${disclosures.medianMs.toFixed(1)} ms (median of 5; the first read ${cold.ms.toFixed(1)} ms)`);
    } finally {
      await reader.destroy();
    }

    // 3. The oldest month dropped, then the next one deleted in batches, under a steady load.
    const drop = await purgeUnderLoad(fullUrl!, admin, Date.parse(generation.months[0]!.to), fullService.url + listPath(tenant), fullHeaders, generation.months[0]!.rows, 600);
    log(`    purge dropping ${generation.months[0]!.partition} (${drop.monthRows.toLocaleString('en-US')} rows): ${drop.seconds.toFixed(3)} s (the drop ${drop.dropSeconds?.toFixed(3)} s), ${(drop.walBytes / 1024).toFixed(0)} KiB of WAL; steady load meanwhile p99 ${drop.during.p99Ms.toFixed(1)} ms, max ${drop.during.maxMs.toFixed(1)} ms, ${drop.during.over50Ms} of ${drop.during.requests} over 50 ms (before: p99 ${drop.before.p99Ms.toFixed(1)} ms)`);
    for (const step of drop.dropTimeline ?? []) log(`      ${step.partition} dropped at ${step.seconds.toFixed(3)} s`);
    // The drop deleted the accounting of its rows (a sixth of the index) and left their dead
    // entries, which every batch below would step over (the batches' own cleanup reads the
    // index from its lowest last_seq), and statistics that still count them: with those, the
    // batches' cleanup ran as a sequential scan of the whole index table (18-30 s a batch at
    // 10^7 rows, autovacuum off). Vacuumed and analyzed first, as autovacuum would after a
    // sixth of the table changed, so the batches meet the table as a purge by batches alone
    // would. Timed: what the drop's cleanup costs afterwards.
    const vacuumStarted = performance.now();
    for (const table of ['audit_disclosure_index', 'audit_disclosure_texts', 'audit_disclosure_backlog']) await vacuum(fullUrl!, table);
    const vacuumAfterDropSeconds = (performance.now() - vacuumStarted) / 1000;
    log(`    VACUUM of the accounting of disclosures after the drop: ${vacuumAfterDropSeconds.toFixed(1)} s`);
    const batchDelete = await purgeUnderLoad(fullUrl!, admin, Date.parse(generation.months[1]!.to) - 1, fullService.url + listPath(tenant), fullHeaders, generation.months[1]!.rows, DELETE_SECONDS);
    log(`    purge deleting ${generation.months[1]!.partition} in batches: ${batchDelete.removedRows.toLocaleString('en-US')} of ${batchDelete.monthRows.toLocaleString('en-US')} rows in ${batchDelete.seconds.toFixed(1)} s${batchDelete.capped ? ' (capped)' : ''}, ${(batchDelete.walBytes / 1024 ** 2).toFixed(0)} MiB of WAL; steady load meanwhile p99 ${batchDelete.during.p99Ms.toFixed(1)} ms, max ${batchDelete.during.maxMs.toFixed(1)} ms, ${batchDelete.during.over50Ms} of ${batchDelete.during.requests} over 50 ms`);
    const autovacuum = (await admin.query<{ a: string }>(`SELECT current_setting('autovacuum') AS a`)).rows[0]!.a;
    const fileSystem = await dataFileSystem(admin);
    return { database: 'PostgreSQL', residents: LIST_RESIDENTS, autovacuum, generation, rounds, disclosures, drop, vacuumAfterDropSeconds, batchDelete, disk, ...(fileSystem ? { fileSystem } : {}) };
  } finally {
    for (const service of services) await service.stop();
    await admin.end();
  }
}

function serviceEnv(): Record<string, string> {
  // The purge is the benchmark's to run (3.); no deliveries in this world.
  return { WEBHOOK_WORKER: '0', RETENTION_INTERVAL_MINUTES: '0', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
}

function listPath(tenant: { orgId: string; facilityId: string }): string {
  return `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/coverage?page_size=50`;
}

async function vacuum(url: string, table: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`VACUUM ANALYZE "${table}"`);
  } finally {
    await client.end();
  }
}

/** Waits until the service's catch-up has indexed every queued row: a round leaves nothing to the next. */
async function backlogEmpty(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_disclosure_backlog');
      if (rows[0]!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the disclosure backlog did not empty within 120 s');
  } finally {
    await client.end();
  }
}

/**
 * Interrupted (Ctrl-C, SIGTERM), the run drops its databases, as it does when it ends or fails:
 * at 10^8 rows they hold hundreds of gigabytes. Dropping them (WITH FORCE) fails the run's
 * statements, so it ends through its own failure path (its services stopped, the drops
 * repeated IF EXISTS), not in the middle of it.
 */
function dropOnSignal(settings: BenchSettings, names: string[]): () => void {
  const handler = (signal: NodeJS.Signals) => {
    settings.log(`  ${signal}: dropping ${names.join(', ')}`);
    process.exitCode = 130;
    const admin = new pg.Client({ connectionString: settings.postgresAdminUrl });
    void (async () => {
      await admin.connect();
      for (const name of [...names].reverse()) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    })().catch((error: Error) => settings.log(`  ! could not drop ${names.join(', ')}: ${error.message}`));
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

export async function scaleAudit(settings: BenchSettings): Promise<ScaleResult> {
  const skipped: string[] = [];
  const runs: ScaleRun[] = [];
  if (await roomFor(settings, settings.scaleAuditRows, skipped)) {
    const run = await onScratchPostgres(settings, 2, skipped, async (urls, names) => {
      const release = dropOnSignal(settings, names);
      try {
        return await measure(settings, urls, names);
      } finally {
        release();
      }
    });
    if (run) runs.push(run);
  }
  return { auditRows: settings.scaleAuditRows, runs, skipped };
}

/** Medians of the rounds, and the rounds' own ratios (full over empty). */
export function scaleRatios(run: ScaleRun): { empty: LoadResult; full: LoadResult; cpu: number[]; p99: number[] } {
  return {
    empty: medianOf(run.rounds.map((r) => r.empty)),
    full: medianOf(run.rounds.map((r) => r.full)),
    cpu: run.rounds.map((r) => (r.full.cpuUsPerRequest ?? NaN) / (r.empty.cpuUsPerRequest ?? NaN)),
    p99: run.rounds.map((r) => r.full.p99Ms / Math.max(1, r.empty.p99Ms)),
  };
}
