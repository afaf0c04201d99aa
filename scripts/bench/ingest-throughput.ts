// NDJSON ingestion throughput: FHIR R4 resources streamed over HTTP to the service (its own
// process, `npm start`'s bundle) with an ingest credential, events on (each resident is
// admitted and its coverage updated, queued for one subscription), on SQLite and PostgreSQL.
// The baseline, in the same run: the very same rows (already mapped, ids assigned) written
// into a fresh database of the same kind with plain batched INSERTs in transactions of the
// same size, i.e. what hand-written SQL would do without matching, versioning, audit or events.
// The service's RSS is sampled while it streams, to show it stays flat (nothing buffered).
//   BENCH_INGEST_RESOURCES=1000000 BENCH_ONLY=ingest npm run bench   # the 10^6 streaming run
//   BENCH_CPU_PROF_DIR=/tmp/prof BENCH_ONLY=ingest npm run bench     # a V8 CPU profile of the service, per database
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient } from '../../server/src/auth/clients.js';
import { PARTNER_SCOPES } from '../../server/src/tenancy/scopes.js';
import { MAPPINGS } from '../../server/src/ingest/mapping/index.js';
import { accessToken, startServiceProcess } from './service-process.js';
import { rssMiB } from './rss-sampler.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';

const MRN = 'https://ehr.example/fhir/sid/mrn';
/** Resources per resident: Patient, Coverage, four Observations. */
export const RESOURCES_PER_RESIDENT = 6;
const DEFAULT_RESOURCES = 30_000;
const BASELINE_ROWS_PER_TRANSACTION = 500;
const BASELINE_ROWS_PER_INSERT = 500;

export interface IngestRun {
  database: string;
  resources: number;
  ingest: { seconds: number; resourcesPerSecond: number; events: number; created: number; rejected: number };
  baseline: { seconds: number; rowsPerSecond: number };
  /** Service RSS (MiB) at 10%, 50% and 90% of the stream, and its peak. */
  rss: { at10: number | undefined; at50: number | undefined; at90: number | undefined; peak: number | undefined };
}

export interface IngestThroughputResult {
  runs: IngestRun[];
  skipped: string[];
}

function residentLines(i: number): string[] {
  const subject = { reference: `Patient?identifier=${MRN}|B-${i}` };
  const lines: object[] = [
    { resourceType: 'Patient', identifier: [{ system: MRN, value: `B-${i}` }], active: true, name: [{ use: 'official', family: 'Okafor', given: ['Ada'] }], gender: 'female', birthDate: '1941-03-17' },
    { resourceType: 'Coverage', identifier: [{ system: 'https://ehr.example/fhir/sid/coverage', value: `BC-${i}` }], status: 'active', beneficiary: subject, payor: [{ display: 'Medicare Part A' }], subscriberId: `*****${String(i % 10_000).padStart(4, '0')}A`, period: { start: '2024-01-01' }, order: 1 },
  ];
  for (let k = 0; k < 4; k++) {
    lines.push({
      resourceType: 'Observation',
      identifier: [{ system: 'https://ehr.example/fhir/sid/observation', value: `BO-${i}-${k}` }],
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] },
      subject,
      effectiveDateTime: `2026-01-${String(1 + k).padStart(2, '0')}T08:15:00Z`,
      valueQuantity: { value: 60 + ((i + k) % 40), unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
    });
  }
  return lines.map((l) => JSON.stringify(l));
}

/** Streams the NDJSON with backpressure, sampling the service's RSS as it goes. */
function streamNdjson(url: string, token: string, residents: number, pid: number, first = 0): Promise<{ body: string; rss: IngestRun['rss'] }> {
  const rss: IngestRun['rss'] = { at10: undefined, at50: undefined, at90: undefined, peak: undefined };
  const sample = () => {
    const value = rssMiB(pid);
    if (value !== undefined) rss.peak = Math.max(rss.peak ?? 0, value);
    return value;
  };
  const timer = setInterval(sample, 250);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+ndjson' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        clearInterval(timer);
        sample();
        if (res.statusCode !== 200) reject(new Error(`ingest answered ${res.statusCode}: ${body.slice(0, 500)}`));
        else resolve({ body, rss });
      });
    });
    req.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    (async () => {
      for (let i = 0; i < residents; i++) {
        if (i === Math.floor(residents * 0.1)) rss.at10 = sample();
        if (i === Math.floor(residents * 0.5)) rss.at50 = sample();
        if (i === Math.floor(residents * 0.9)) rss.at90 = sample();
        if (!req.write(residentLines(first + i).join('\n') + '\n')) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}

/** The same rows ingestion writes for residents [from, to), mapped and with ids, for the plain-INSERT baseline. */
function baselineRows(orgId: string, facilityId: string, from: number, to: number): Array<[string, Record<string, unknown>]> {
  const now = new Date().toISOString();
  const rows: Array<[string, Record<string, unknown>]> = [];
  for (let i = from; i < to; i++) {
    const residentId = randomUUID();
    for (const line of residentLines(i)) {
      const resource = JSON.parse(line) as { resourceType: keyof typeof MAPPINGS };
      const mapping = MAPPINGS[resource.resourceType];
      const mapped = mapping.toColumns(resource as never);
      if ('issue' in mapped) throw new Error(mapped.issue.diagnostics);
      const isPatient = resource.resourceType === 'Patient';
      rows.push([
        mapping.table,
        {
          id: isPatient ? residentId : randomUUID(),
          org_id: orgId,
          facility_id: facilityId,
          ...(isPatient ? { created_at: now } : { resident_id: residentId }),
          ...(resource.resourceType === 'Coverage' ? { created_at: now } : {}),
          ...mapped.columns,
          version_id: 1,
          last_updated: now,
        },
      ]);
    }
  }
  return rows;
}

/** Seconds spent in the database only: rows are built a transaction at a time, off the clock, so 10^6 never sit in memory. */
async function plainInserts(db: Knex, orgId: string, facilityId: string, residents: number): Promise<number> {
  const residentsPerTransaction = Math.max(1, Math.floor(BASELINE_ROWS_PER_TRANSACTION / RESOURCES_PER_RESIDENT));
  let seconds = 0;
  for (let start = 0; start < residents; start += residentsPerTransaction) {
    const chunk = baselineRows(orgId, facilityId, start, Math.min(residents, start + residentsPerTransaction));
    const started = performance.now();
    await db.transaction(async (trx) => {
      // Residents first (the others reference them), as ingestion does.
      for (const table of ['residents', 'coverage', 'observations']) {
        const ofTable = chunk.filter(([t]) => t === table).map(([, row]) => row);
        for (let i = 0; i < ofTable.length; i += BASELINE_ROWS_PER_INSERT) await trx(table).insert(ofTable.slice(i, i + BASELINE_ROWS_PER_INSERT));
      }
    });
    seconds += (performance.now() - started) / 1000;
  }
  return seconds;
}

async function tenant(db: Knex) {
  await migrateToLatest(db);
  const org = await createOrganization(db, 'Ingest benchmark');
  const facility = await createFacility(db, org.id, 'Ingest benchmark facility');
  return { org, facility };
}

async function measureOn(label: string, ingestUrl: string, baselineUrl: string, resources: number, settings: BenchSettings): Promise<IngestRun> {
  const residents = Math.ceil(resources / RESOURCES_PER_RESIDENT);
  const db = openDatabase(ingestUrl);
  let service;
  try {
    const { org, facility } = await tenant(db);
    const source = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['ingest.write'], name: 'bench EHR', kind: 'ingest' });
    const partner = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: [...PARTNER_SCOPES], name: 'bench partner' });
    // The worker is off: deliveries are queued (the outbox's cost) but not sent during the measure.
    service = await startServiceProcess({ databaseUrl: ingestUrl, cpuProfileDir: process.env.BENCH_CPU_PROF_DIR || undefined, env: { WEBHOOK_WORKER: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    const partnerToken = await accessToken(service.url, partner);
    const subscribed = await fetch(`${service.url}/api/v1/ofctx/${org.id}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${partnerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ callback_url: 'http://127.0.0.1:9/hooks', event_types: ['resident.admitted', 'coverage.updated'] }),
    });
    if (subscribed.status !== 201) throw new Error(`subscription failed: ${subscribed.status} ${await subscribed.text()}`);
    const token = await accessToken(service.url, source);
    const path = `${service.url}/api/v1/ingest/${org.id}/${facility.id}/fhir`;
    // Warm-up: loads the FHIR definitions and compiles the hot paths; not measured.
    await streamNdjson(path, token, 50, service.pid, 1_000_000_000);
    settings.log(`  ${label}: streaming ${(residents * RESOURCES_PER_RESIDENT).toLocaleString('en-US')} resources`);
    const started = performance.now();
    const { body, rss } = await streamNdjson(path, token, residents, service.pid);
    const seconds = (performance.now() - started) / 1000;
    const summary = JSON.parse(body) as { created: number; rejected_count: number; events: number; unchanged: number };
    const measured = residents * RESOURCES_PER_RESIDENT;
    settings.log(`    ${(measured / seconds).toFixed(0)} resources/s, ${summary.events} events, RSS ${rss.at10?.toFixed(0)} -> ${rss.at50?.toFixed(0)} -> ${rss.at90?.toFixed(0)} MiB`);

    const baselineDb = openDatabase(baselineUrl);
    let baselineSeconds: number;
    try {
      const base = await tenant(baselineDb);
      baselineSeconds = await plainInserts(baselineDb, base.org.id, base.facility.id, residents);
    } finally {
      await baselineDb.destroy();
    }
    settings.log(`    baseline plain INSERTs: ${(measured / baselineSeconds).toFixed(0)} rows/s`);
    return {
      database: label,
      resources: measured,
      ingest: { seconds, resourcesPerSecond: measured / seconds, events: summary.events, created: summary.created, rejected: summary.rejected_count },
      baseline: { seconds: baselineSeconds, rowsPerSecond: measured / baselineSeconds },
      rss,
    };
  } finally {
    await service?.stop();
    await db.destroy();
  }
}

export async function ingestThroughput(settings: BenchSettings): Promise<IngestThroughputResult> {
  const resources = Number(process.env.BENCH_INGEST_RESOURCES ?? DEFAULT_RESOURCES);
  const runs: IngestRun[] = [];
  const skipped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-ingest-'));
  try {
    runs.push(await measureOn('SQLite', `sqlite:${join(dir, 'ingest.db')}`, `sqlite:${join(dir, 'baseline.db')}`, resources, settings));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const run = await onScratchPostgres(settings, 2, skipped, ([service, baseline]) => measureOn('PostgreSQL', service!, baseline!, resources, settings));
  if (run) runs.push(run);
  return { runs, skipped };
}
