// FHIR Bulk Data $export throughput: N Observations of one facility exported by the service
// (its own process, `npm start`'s bundle) through kick-off, polling and the background worker,
// on SQLite and PostgreSQL; resources/s from kick-off to the manifest, and the service's RSS
// sampled all along (it must stay flat: the worker holds one page). The baseline, in the same
// run: a bare paged SELECT of the same rows written to a file as JSON lines (no rendering, no
// job bookkeeping). The rows are written with plain INSERTs (cloned from one seeded
// Observation): the subject here is the export, not ingestion.
//   BENCH_EXPORT_RESOURCES=1000000 BENCH_ONLY=export npm run bench   # the 10^6 run
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient } from '../../server/src/auth/clients.js';
import { seedFacility } from '../../server/src/seed/synthetic-data.js';
import { accessToken, startServiceProcess } from './service-process.js';
import { sampleRss } from './rss-sampler.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';

const DEFAULT_RESOURCES = 30_000;
const PAGE = 1000;

export interface ExportRun {
  database: string;
  resources: number;
  export: { seconds: number; resourcesPerSecond: number; bytes: number };
  baseline: { seconds: number; rowsPerSecond: number };
  /** Service RSS (MiB) at the kick-off and its peak while the export ran. */
  rss: { start: number | undefined; peak: number | undefined; mean: number | undefined };
}

export interface ExportThroughputResult {
  runs: ExportRun[];
  skipped: string[];
}

async function fill(db: Knex, resources: number): Promise<{ orgId: string; facilityId: string }> {
  await migrateToLatest(db);
  const org = await createOrganization(db, 'Export benchmark');
  const facility = await createFacility(db, org.id, 'Export benchmark facility');
  await seedFacility(db, { orgId: org.id, facilityId: facility.id, residents: 1, randomSeed: 7 });
  const { seq: _seq, id: _id, ...template } = (await db('observations').where({ facility_id: facility.id }).first()) as Record<string, unknown>;
  const have = Number((await db('observations').where({ facility_id: facility.id }).count({ n: '*' }).first())!.n);
  for (let done = have; done < resources; ) {
    const n = Math.min(PAGE, resources - done);
    await db.transaction(async (trx) => {
      const rows = Array.from({ length: n }, () => ({ ...template, id: randomUUID() }));
      for (let i = 0; i < rows.length; i += 100) await trx('observations').insert(rows.slice(i, i + 100));
    });
    done += n;
  }
  return { orgId: org.id, facilityId: facility.id };
}

/** The baseline: the rows read a page at a time by seq and written as JSON lines. */
async function bareSelect(db: Knex, facilityId: string, file: string): Promise<number> {
  const started = performance.now();
  const out = createWriteStream(file);
  let after = 0;
  for (;;) {
    const rows = (await db('observations').where({ facility_id: facilityId }).andWhere('seq', '>', after).orderBy('seq').limit(PAGE)) as Array<{ seq: number }>;
    if (rows.length === 0) break;
    if (!out.write(rows.map((row) => JSON.stringify(row)).join('\n') + '\n')) await once(out, 'drain');
    after = Number(rows[rows.length - 1]!.seq);
  }
  out.end();
  await once(out, 'finish');
  return (performance.now() - started) / 1000;
}

async function measureOn(label: string, databaseUrl: string, resources: number, dir: string, settings: BenchSettings): Promise<ExportRun> {
  const db = openDatabase(databaseUrl);
  let service;
  try {
    settings.log(`  ${label}: writing ${resources.toLocaleString('en-US')} Observations`);
    const { orgId, facilityId } = await fill(db, resources);
    const total = Number((await db('observations').where({ facility_id: facilityId }).count({ n: '*' }).first())!.n);
    const partner = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ['clinical.read'], name: 'bench exchange' });
    service = await startServiceProcess({ databaseUrl, env: { BULK_EXPORT_DIR: join(dir, `exports-${label}`), BULK_EXPORT_POLL_INTERVAL_MS: '100', WEBHOOK_WORKER: '0', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    const token = await accessToken(service.url, partner);
    const base = `${service.url}/api/v1/fhir/R4/${orgId}/${facilityId}`;
    const rss = sampleRss(service.pid, 200);
    const started = performance.now();
    const kickOff = await fetch(`${base}/$export?_type=Observation`, { headers: { authorization: `Bearer ${token}`, prefer: 'respond-async', accept: 'application/fhir+json' } });
    await kickOff.arrayBuffer();
    if (kickOff.status !== 202) throw new Error(`kick-off answered ${kickOff.status}`);
    const statusUrl = kickOff.headers.get('content-location')!;
    let manifest: { output: Array<{ url: string; count: number }> } | undefined;
    while (!manifest) {
      const status = await fetch(statusUrl, { headers: { authorization: `Bearer ${token}` } });
      if (status.status === 200) manifest = (await status.json()) as typeof manifest;
      else {
        await status.arrayBuffer();
        if (status.status !== 202) throw new Error(`status answered ${status.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const memory = rss.stop();
    const count = manifest!.output[0]!.count;
    if (count !== total) throw new Error(`the export holds ${count} Observations, the facility ${total}`);
    const jobId = new URL(manifest!.output[0]!.url).pathname.split('/').at(-2)!;
    const bytes = statSync(join(dir, `exports-${label}`, jobId, 'Observation.ndjson')).size;
    settings.log(`    export: ${(total / seconds).toFixed(0)} resources/s, ${(bytes / 2 ** 20).toFixed(0)} MiB, service RSS peak ${memory?.peakMiB.toFixed(0)} MiB`);
    const baselineSeconds = await bareSelect(db, facilityId, join(dir, `baseline-${label}.jsonl`));
    settings.log(`    baseline bare SELECT to a file: ${(total / baselineSeconds).toFixed(0)} rows/s`);
    return {
      database: label,
      resources: total,
      export: { seconds, resourcesPerSecond: total / seconds, bytes },
      baseline: { seconds: baselineSeconds, rowsPerSecond: total / baselineSeconds },
      rss: { start: undefined, peak: memory?.peakMiB, mean: memory?.meanMiB },
    };
  } finally {
    await service?.stop();
    await db.destroy();
  }
}

export async function exportThroughput(settings: BenchSettings): Promise<ExportThroughputResult> {
  const resources = Number(process.env.BENCH_EXPORT_RESOURCES ?? DEFAULT_RESOURCES);
  const runs: ExportRun[] = [];
  const skipped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-export-'));
  try {
    runs.push(await measureOn('SQLite', `sqlite:${join(dir, 'export.db')}`, resources, dir, settings));
    const run = await onScratchPostgres(settings, 1, skipped, ([url]) => measureOn('PostgreSQL', url!, resources, dir, settings));
    if (run) runs.push(run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, skipped };
}
