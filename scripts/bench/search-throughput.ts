// US Core searches of the R4 view among many residents (issue 27), measured against the
// service in its own process (`npm start`'s bundle), on SQLite and PostgreSQL: a Patient found
// by identifier (`identifier=system|value`) and by name + birth date (`name=<family>&birthdate=
// <day>`), each against the baseline of the same run: the plain first page of the same
// facility's Patients (`Patient?_count=10`), same renderer, same page size, same token. The
// residents are written through the ingest road (seedFacility: identifiers and the normalised
// name index as ingestion keeps them), without vitals.
//   BENCH_SEARCH_RESIDENTS=100000 BENCH_ONLY=search npm run bench
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

export interface SearchRun {
  database: string;
  residents: number;
  list: LoadResult;
  identifier: LoadResult;
  nameBirthdate: LoadResult;
  /** How many Patients each search found (1 for the identifier; a few for a common name). */
  matches: { identifier: number; nameBirthdate: number };
}

export interface SearchThroughputResult {
  runs: SearchRun[];
  skipped: string[];
}

async function fill(db: Knex, residents: number, settings: BenchSettings): Promise<{ orgId: string; facilityId: string }> {
  await migrateToLatest(db);
  const org = await createOrganization(db, 'Search benchmark');
  const facility = await createFacility(db, org.id, 'Search benchmark facility');
  let shown = 0;
  await seedFacility(db, {
    orgId: org.id,
    facilityId: facility.id,
    residents,
    randomSeed: 27,
    vitalRounds: 0,
    onProgress: (done) => {
      if (done - shown >= residents / 4) {
        shown = done;
        settings.log(`    ${done.toLocaleString('en-US')} residents written`);
      }
    },
  });
  return { orgId: org.id, facilityId: facility.id };
}

async function measureOn(label: string, databaseUrl: string, residents: number, settings: BenchSettings): Promise<SearchRun> {
  const db = openDatabase(databaseUrl);
  let service;
  try {
    settings.log(`  ${label}: writing ${residents.toLocaleString('en-US')} residents through ingestion`);
    const { orgId, facilityId } = await fill(db, residents, settings);
    // One resident from the middle of the facility: its first identifier, family name and birth date.
    const target = (await db('residents').where({ facility_id: facilityId }).orderBy('seq').offset(Math.floor(residents / 2)).first('identifiers', 'family_name', 'birth_date')) as { identifiers: string; family_name: string; birth_date: string };
    const identifier = (JSON.parse(target.identifiers) as Array<{ system: string; value: string }>)[0]!;
    const partner = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ['residents.read'], name: 'bench payer' });
    service = await startServiceProcess({ databaseUrl, env: { WEBHOOK_WORKER: '0', WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') } });
    const token = await accessToken(service.url, partner);
    const base = `${service.url}/api/v1/fhir/R4/${orgId}/${facilityId}/Patient`;
    const headers = { authorization: `Bearer ${token}`, accept: 'application/fhir+json' };
    const urls = {
      list: `${base}?_count=10`,
      identifier: `${base}?identifier=${encodeURIComponent(`${identifier.system}|${identifier.value}`)}&_count=10`,
      nameBirthdate: `${base}?name=${encodeURIComponent(target.family_name)}&birthdate=${target.birth_date}&_count=10`,
    };
    const matches = { identifier: 0, nameBirthdate: 0 };
    for (const key of ['identifier', 'nameBirthdate'] as const) {
      const answer = (await (await fetch(urls[key], { headers })).json()) as { total?: number };
      matches[key] = answer.total ?? -1;
      if (!(matches[key] >= 1)) throw new Error(`the ${key} search found ${matches[key]} Patients; it must find the resident`);
    }
    const load = (url: string) => measureLoad({ url, headers, durationSeconds: settings.durationSeconds, warmupSeconds: 2, pid: service!.pid });
    const list = await load(urls.list);
    const byIdentifier = await load(urls.identifier);
    const byName = await load(urls.nameBirthdate);
    settings.log(
      `    list ${list.requestsPerSecond.toFixed(0)} req/s; identifier ${byIdentifier.requestsPerSecond.toFixed(0)} req/s (${(byIdentifier.requestsPerSecond / list.requestsPerSecond).toFixed(2)} of the list); ` +
        `name+birthdate ${byName.requestsPerSecond.toFixed(0)} req/s (${(byName.requestsPerSecond / list.requestsPerSecond).toFixed(2)}), ${matches.nameBirthdate} match(es)`,
    );
    return { database: label, residents, list, identifier: byIdentifier, nameBirthdate: byName, matches };
  } finally {
    await service?.stop();
    await db.destroy();
  }
}

export async function searchThroughput(settings: BenchSettings): Promise<SearchThroughputResult> {
  const residents = Number(process.env.BENCH_SEARCH_RESIDENTS ?? DEFAULT_RESIDENTS);
  const runs: SearchRun[] = [];
  const skipped: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-search-'));
  try {
    runs.push(await measureOn('SQLite', `sqlite:${join(dir, 'search.db')}`, residents, settings));
    const run = await onScratchPostgres(settings, 1, skipped, ([url]) => measureOn('PostgreSQL', url!, residents, settings));
    if (run) runs.push(run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, skipped };
}
