// US Core searches of the R4 view among many residents (issue 27), measured against the
// service in its own process (`npm start`'s bundle), on SQLite and PostgreSQL: a Patient found
// by identifier (`identifier=system|value`), by name + birth date (`name=<family>&birthdate=
// <day>`), and a resident's vital signs since a day (`Observation?patient=<id>&category=
// vital-signs&date=ge<day>`), each against two baselines of the same run: the spec's coverage
// list (`coverage?page_size=10`, issue 27's yardstick: p50 and p99 within 1.5x of its own) and
// the plain first page of the same facility's Patients (`Patient?_count=10`), same page size,
// same token. Residents and vitals are written through the ingest road (seedFacility:
// identifiers and the normalised name index as ingestion keeps them); PostgreSQL is analysed
// after the load, as its autovacuum would be.
//   BENCH_SEARCH_RESIDENTS=100000 BENCH_SEARCH_VITAL_ROUNDS=2 BENCH_ONLY=search npm run bench
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient } from '../../server/src/auth/clients.js';
import { seedFacility } from '../../server/src/seed/synthetic-data.js';
import { measureLoad, type LoadResult } from './load.js';
import { accessToken, startServiceProcess } from './service-process.js';
import { onScratchPostgres } from './scratch-postgres.js';
import type { BenchSettings } from './settings.js';

const DEFAULT_RESIDENTS = 100_000;
/** Six Observations a round (blood pressure and five single vitals): 1.2 x 10^6 at 10^5 residents. */
const DEFAULT_VITAL_ROUNDS = 2;

export interface SearchRun {
  database: string;
  residents: number;
  observationCount: number;
  /** The spec's coverage list, first page of 10: issue 27's baseline. */
  coverageList: LoadResult;
  list: LoadResult;
  identifier: LoadResult;
  nameBirthdate: LoadResult;
  observations: LoadResult;
  /** How many resources each search found (1 for the identifier; a few for a common name). */
  matches: { identifier: number; nameBirthdate: number; observations: number };
}

export interface SearchThroughputResult {
  runs: SearchRun[];
  skipped: string[];
}

async function fill(db: Knex, residents: number, vitalRounds: number, settings: BenchSettings): Promise<{ orgId: string; facilityId: string }> {
  await migrateToLatest(db);
  const org = await createOrganization(db, 'Search benchmark');
  const facility = await createFacility(db, org.id, 'Search benchmark facility');
  let shown = 0;
  await seedFacility(db, {
    orgId: org.id,
    facilityId: facility.id,
    residents,
    randomSeed: 27,
    vitalRounds,
    onProgress: (done) => {
      if (done - shown >= residents / 4) {
        shown = done;
        settings.log(`    ${done.toLocaleString('en-US')} residents written`);
      }
    },
  });
  return { orgId: org.id, facilityId: facility.id };
}

async function measureOn(label: string, databaseUrl: string, residents: number, vitalRounds: number, settings: BenchSettings): Promise<SearchRun> {
  const db = openDatabase(databaseUrl);
  let service;
  try {
    settings.log(`  ${label}: writing ${residents.toLocaleString('en-US')} residents and ${vitalRounds} vital-sign round(s) each through ingestion`);
    const { orgId, facilityId } = await fill(db, residents, vitalRounds, settings);
    if (db.client.config.client === 'pg') await db.raw('analyze');
    const observationCount = Number(((await db('observations').where({ facility_id: facilityId }).count({ n: '*' }).first()) as { n: number | string }).n);
    // One resident from the middle of the facility: its first identifier, family name and birth date.
    const target = (await db('residents').where({ facility_id: facilityId }).orderBy('seq').offset(Math.floor(residents / 2)).first('id', 'identifiers', 'family_name', 'birth_date')) as { id: string; identifiers: string; family_name: string; birth_date: string };
    const identifier = (JSON.parse(target.identifiers) as Array<{ system: string; value: string }>)[0]!;
    // Its vitals since the day of its earliest one: all of them, as a partner's first sync would ask.
    const earliest = (await db('observations').where({ resident_id: target.id }).min({ at: 'effective_at' }).first()) as { at: string | null };
    const since = (earliest.at ?? '2000-01-01').slice(0, 10);
    const partner = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ['residents.read', 'coverage.read', 'clinical.read'], name: 'bench payer' });
    // BENCH_CPU_PROF_DIR: the service writes a V8 CPU profile of the whole run there (cpu-profile.ts summarizes it).
    const cpuProfileDir = process.env.BENCH_CPU_PROF_DIR;
    service = await startServiceProcess({ databaseUrl, env: { WEBHOOK_WORKER: '0', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') }, ...(cpuProfileDir ? { cpuProfileDir } : {}) });
    const token = await accessToken(service.url, partner);
    const r4 = `${service.url}/api/v1/fhir/R4/${orgId}/${facilityId}`;
    const base = `${r4}/Patient`;
    const headers = { authorization: `Bearer ${token}`, accept: 'application/fhir+json' };
    const urls = {
      coverageList: `${service.url}/api/v1/ofctx/${orgId}/${facilityId}/coverage?page_size=10`,
      list: `${base}?_count=10`,
      identifier: `${base}?identifier=${encodeURIComponent(`${identifier.system}|${identifier.value}`)}&_count=10`,
      nameBirthdate: `${base}?name=${encodeURIComponent(target.family_name)}&birthdate=${target.birth_date}&_count=10`,
      observations: `${r4}/Observation?patient=${target.id}&category=vital-signs&date=ge${since}&_count=10`,
    };
    const matches = { identifier: 0, nameBirthdate: 0, observations: 0 };
    for (const key of ['identifier', 'nameBirthdate', ...(vitalRounds > 0 ? (['observations'] as const) : [])] as const) {
      const answer = (await (await fetch(urls[key], { headers })).json()) as { total?: number };
      matches[key] = answer.total ?? -1;
      if (!(matches[key] >= 1)) throw new Error(`the ${key} search found ${matches[key]} Patients; it must find the resident`);
    }
    const load = (url: string) => measureLoad({ url, headers, durationSeconds: settings.durationSeconds, warmupSeconds: 2, pid: service!.pid });
    const coverageList = await load(urls.coverageList);
    const list = await load(urls.list);
    const byIdentifier = await load(urls.identifier);
    const byName = await load(urls.nameBirthdate);
    const byPatient = await load(urls.observations);
    const of = (r: LoadResult) => `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50Ms} ms (${(r.p50Ms / coverageList.p50Ms).toFixed(2)}x), p99 ${r.p99Ms} ms (${(r.p99Ms / coverageList.p99Ms).toFixed(2)}x)`;
    settings.log(`    coverage list ${of(coverageList)}; Patient list ${of(list)}`);
    settings.log(`    identifier ${of(byIdentifier)}; name+birthdate ${of(byName)}, ${matches.nameBirthdate} match(es); observations ${of(byPatient)}, ${matches.observations} match(es)`);
    return { database: label, residents, observationCount, coverageList, list, identifier: byIdentifier, nameBirthdate: byName, observations: byPatient, matches };
  } finally {
    await service?.stop();
    await db.destroy();
  }
}

export async function searchThroughput(settings: BenchSettings): Promise<SearchThroughputResult> {
  const residents = Number(process.env.BENCH_SEARCH_RESIDENTS ?? DEFAULT_RESIDENTS);
  const vitalRounds = Number(process.env.BENCH_SEARCH_VITAL_ROUNDS ?? DEFAULT_VITAL_ROUNDS);
  const runs: SearchRun[] = [];
  const skipped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-search-'));
  try {
    runs.push(await measureOn('SQLite', `sqlite:${join(dir, 'search.db')}`, residents, vitalRounds, settings));
    const run = await onScratchPostgres(settings, 1, skipped, ([url]) => measureOn('PostgreSQL', url!, residents, vitalRounds, settings));
    if (run) runs.push(run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, skipped };
}
