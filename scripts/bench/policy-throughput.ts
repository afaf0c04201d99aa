// Who may see which resident (issue 23), what it costs, on SQLite and PostgreSQL:
// - the coverage list of a payer-scoped credential (`--payer`: only its members and their
//   Coverages, filtered inside the query, totals counted over what it may see) against an
//   unrestricted credential's list of the same facility, in the same run (target: at least
//   0.9 of its throughput);
// - the accounting of disclosures of one resident among 10^6 audit rows (target: under a
//   second): the audit rows written with plain INSERTs and indexed by the service's catch-up
//   (timed), the report read as `ops audit disclosures` reads it (disclosuresOfResident), its
//   median over five reads.
//   BENCH_POLICY_RESIDENTS=2000 BENCH_POLICY_AUDIT_ROWS=1000000 BENCH_ONLY=policy npm run bench
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { nowIso } from '../../server/src/db/clock.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient } from '../../server/src/auth/clients.js';
import { DEFAULT_POLICY } from '../../server/src/tenancy/access-policy.js';
import { disclosuresOfResident } from '../../server/src/audit/disclosures.js';
import { indexAllQueuedDisclosures } from '../../server/src/audit/disclosure-index.js';
import { seedFacility } from '../../server/src/seed/synthetic-data.js';
import { measureLoad, type LoadResult } from './load.js';
import { medianOf } from './list-throughput.js';
import { accessToken, startServiceProcess } from './service-process.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';

const DEFAULT_RESIDENTS = 2_000;
const DEFAULT_AUDIT_ROWS = 1_000_000;
/** BENCH_POLICY_ROUNDS: interleaved rounds of the two lists (medians reported). */
const ROUNDS = Number(process.env.BENCH_POLICY_ROUNDS ?? 5);

export interface PolicyRun {
  database: string;
  residents: number;
  payer: string;
  /** Residents the payer-scoped credential may see, and the facility's Coverages it may. */
  visible: { residents: number; coverages: number; of: number };
  unrestricted: LoadResult;
  payerScoped: LoadResult;
  /** The --payer list's throughput over the unrestricted one's, round by round. */
  ratios?: number[];
  disclosures: { auditRows: number; medianMs: number; records: number; indexedPerSecond?: number };
}

export interface PolicyThroughputResult {
  runs: PolicyRun[];
  skipped: string[];
}

/**
 * 10^6 audit rows each disclosing one of many residents, the measured resident among them,
 * written with plain INSERTs (the trigger queues them) and then indexed by the service's
 * catch-up (audit/disclosure-index.ts), timed: entries indexed per second.
 */
async function fillDisclosures(db: Knex, orgId: string, residentId: string, rows: number): Promise<{ indexedPerSecond: number }> {
  const others = Array.from({ length: 5000 }, () => randomUUID());
  const at = Date.parse('2026-01-01T00:00:00Z');
  for (let done = 0; done < rows; ) {
    const n = Math.min(5000, rows - done);
    await db.transaction(async (trx) => {
      const batch = Array.from({ length: n }, (_, i) => {
        // One row in a thousand is the measured resident's (about 1,000 disclosures of them).
        const resident = (done + i) % 1000 === 0 ? residentId : others[(done + i) % others.length]!;
        return {
          at: nowIso(at + (done + i) * 1000),
          request_id: 'bench',
          client_id: 'ofx_ci_bench',
          org_id: orgId,
          facility_id: null,
          operation: 'listCoverage',
          status: 200,
          resource_ids: JSON.stringify([randomUUID()]),
          result_count: 1,
          purpose: 'HPAYMT',
          disclosures: JSON.stringify({ Coverage: { [resident]: [0] } }),
        };
      });
      for (let i = 0; i < batch.length; i += 500) await trx('audit_events').insert(batch.slice(i, i + 500));
    });
    done += n;
  }
  const started = performance.now();
  await indexAllQueuedDisclosures(db, { limit: 5_000 });
  return { indexedPerSecond: rows / ((performance.now() - started) / 1000) };
}

async function measureOn(label: string, databaseUrl: string, residents: number, auditRows: number, settings: BenchSettings): Promise<PolicyRun> {
  const db = openDatabase(databaseUrl);
  let service;
  try {
    await migrateToLatest(db);
    const org = await createOrganization(db, 'Policy benchmark');
    const facility = await createFacility(db, org.id, 'Policy benchmark facility');
    settings.log(`  ${label}: ${residents.toLocaleString('en-US')} residents through ingestion`);
    await seedFacility(db, { orgId: org.id, facilityId: facility.id, residents, randomSeed: 23, vitalRounds: 0 });
    // Statistics, as autovacuum gathers them within about a minute of a bulk load (and as the
    // list and search benchmarks do): without them PostgreSQL planned the unrestricted list's
    // first page as a bitmap scan of every Coverage of the facility and a sort (2.4 ms against
    // a 50-row index scan), which flattered the --payer ratio (2.21, 2026-11-26).
    if (db.client.config.client === 'pg') await db.raw('analyze');
    // The payer of the most Coverages: a realistic member share for one payer.
    const top = (await db('coverage').where({ facility_id: facility.id }).groupBy('payor_name').select('payor_name').count({ n: '*' }).orderBy('n', 'desc').first()) as { payor_name: string };
    const payer = top.payor_name;
    const all = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'], name: 'bench clearinghouse' });
    const scoped = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['coverage.read'], name: 'bench payer', policy: { ...DEFAULT_POLICY, purpose: 'HPAYMT', payers: [payer.toLowerCase()] } });
    service = await startServiceProcess({ databaseUrl, cpuProfileDir: process.env.BENCH_CPU_PROF_DIR || undefined, env: { WEBHOOK_WORKER: '0', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    const url = `${service.url}/api/v1/ofctx/${org.id}/${facility.id}/coverage?page_size=50`;
    const allToken = await accessToken(service.url, all);
    const scopedToken = await accessToken(service.url, scoped);
    const page = (await (await fetch(url, { headers: { authorization: `Bearer ${scopedToken}` } })).json()) as { meta: { page: { total: number } } };
    // Interleaved rounds, the order swapped each round: the two lists meet the same machine.
    const load = (token: string) => measureLoad({ url, headers: { authorization: `Bearer ${token}` }, durationSeconds: settings.durationSeconds, warmupSeconds: 2, pid: service!.pid, cpu: () => [service!.pid] });
    const rounds: Array<{ unrestricted: LoadResult; payerScoped: LoadResult }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        const unrestricted = await load(allToken);
        rounds.push({ unrestricted, payerScoped: await load(scopedToken) });
      } else {
        const payerScoped = await load(scopedToken);
        rounds.push({ unrestricted: await load(allToken), payerScoped });
      }
    }
    const unrestricted = medianOf(rounds.map((r) => r.unrestricted));
    const payerScoped = medianOf(rounds.map((r) => r.payerScoped));
    const ratios = rounds.map((r) => r.payerScoped.requestsPerSecond / r.unrestricted.requestsPerSecond);
    for (const [i, r] of rounds.entries()) settings.log(`    round ${i + 1}: unrestricted ${r.unrestricted.requestsPerSecond.toFixed(0)} req/s, ${r.unrestricted.cpuUsPerRequest?.toFixed(0)} µs; --payer ${r.payerScoped.requestsPerSecond.toFixed(0)} req/s, ${r.payerScoped.cpuUsPerRequest?.toFixed(0)} µs`);
    const members = Number((await db('coverage').where({ facility_id: facility.id, payor_name: payer }).countDistinct({ n: 'resident_id' }).first())!.n);
    const coverages = Number((await db('coverage').where({ facility_id: facility.id }).count({ n: '*' }).first())!.n);
    settings.log(`    coverage list: unrestricted ${unrestricted.requestsPerSecond.toFixed(0)} req/s, --payer "${payer}" ${payerScoped.requestsPerSecond.toFixed(0)} req/s (${(payerScoped.requestsPerSecond / unrestricted.requestsPerSecond).toFixed(2)}; rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}; the service's CPU per request ${unrestricted.cpuUsPerRequest?.toFixed(0)} vs ${payerScoped.cpuUsPerRequest?.toFixed(0)} µs), ${page.meta.page.total} of ${coverages} Coverages visible`);
    await service.stop();
    service = undefined;
    // The resident of the facility's last Coverage: not on the first page the lists showed, so
    // its report holds the fill's disclosures of it (about one audit row in a thousand).
    const resident = { id: ((await db('coverage').where({ facility_id: facility.id }).orderBy('seq', 'desc').first('resident_id')) as { resident_id: string }).resident_id };
    settings.log(`    writing ${auditRows.toLocaleString('en-US')} disclosure rows`);
    const { indexedPerSecond } = await fillDisclosures(db, org.id, resident.id, auditRows);
    settings.log(`    disclosure index caught up at ${indexedPerSecond.toFixed(0)} entries/s`);
    const times: number[] = [];
    let records = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      records = (await disclosuresOfResident(db, { orgId: org.id, residentId: resident.id })).length;
      times.push(performance.now() - started);
    }
    const medianMs = times.sort((a, b) => a - b)[2]!;
    settings.log(`    disclosures of one resident among ${auditRows.toLocaleString('en-US')} rows: ${medianMs.toFixed(0)} ms (median of 5), ${records} records`);
    return { database: label, residents, payer, visible: { residents: members, coverages: page.meta.page.total, of: coverages }, unrestricted, payerScoped, ratios, disclosures: { auditRows, medianMs, records, indexedPerSecond } };
  } finally {
    await service?.stop();
    await db.destroy();
  }
}

export async function policyThroughput(settings: BenchSettings): Promise<PolicyThroughputResult> {
  const residents = Number(process.env.BENCH_POLICY_RESIDENTS ?? DEFAULT_RESIDENTS);
  const auditRows = Number(process.env.BENCH_POLICY_AUDIT_ROWS ?? DEFAULT_AUDIT_ROWS);
  const runs: PolicyRun[] = [];
  const skipped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-policy-'));
  try {
    runs.push(await measureOn('SQLite', `sqlite:${join(dir, 'policy.db')}`, residents, auditRows, settings));
    const run = await onScratchPostgres(settings, 1, skipped, ([url]) => measureOn('PostgreSQL', url!, residents, auditRows, settings));
    if (run) runs.push(run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, skipped };
}
