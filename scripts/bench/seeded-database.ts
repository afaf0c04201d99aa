// SQLite databases seeded for the benchmarks, kept under .bench/ (gitignored) between runs:
// a million observations take minutes to write, and the figures are about reading them.
// The cache key holds the seeding parameters and a hash of the schema migrations and the
// data generator, so a change to either seeds afresh. Each run measures a throw-away copy,
// so the tokens and audit rows it writes never accumulate in the cached file.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { openDatabase } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient } from '../../server/src/auth/clients.js';
import { PARTNER_SCOPES } from '../../server/src/tenancy/scopes.js';
import { seedFacility, type SeedCounts } from '../../server/src/seed/synthetic-data.js';
import { ROOT } from './service-process.js';

export interface SeedParameters {
  residents: number;
  /** Each round is 6 observations per resident. */
  vitalRounds: number;
}

export interface SeededDatabase {
  /** The cached, pristine file. Measure a workingCopy() of it. */
  file: string;
  orgId: string;
  facilityId: string;
  client: { client_id: string; client_secret: string };
  counts: SeedCounts;
  seedSeconds: number;
  /** True when this run found it in the cache rather than seeding it. */
  fromCache: boolean;
}

const CACHE_DIR = join(ROOT, '.bench');
const RANDOM_SEED = 20_261_122;

/** What the seeded bytes depend on besides the parameters. */
function codeHash(): string {
  const hash = createHash('sha256');
  const migrations = join(ROOT, 'server/src/db/migrations');
  for (const name of readdirSync(migrations).sort()) hash.update(name).update(readFileSync(join(migrations, name)));
  for (const file of ['server/src/seed/synthetic-data.ts', 'server/src/seed/vocabulary.ts']) hash.update(readFileSync(join(ROOT, file)));
  return hash.digest('hex').slice(0, 12);
}

export async function seededDatabase(parameters: SeedParameters, log: (line: string) => void): Promise<SeededDatabase> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const name = `sqlite-residents${parameters.residents}-rounds${parameters.vitalRounds}-${codeHash()}`;
  const file = join(CACHE_DIR, `${name}.db`);
  const metaFile = join(CACHE_DIR, `${name}.json`);
  if (existsSync(file) && existsSync(metaFile)) {
    return { ...(JSON.parse(readFileSync(metaFile, 'utf8')) as Omit<SeededDatabase, 'file' | 'fromCache'>), file, fromCache: true };
  }

  log(`  seeding ${parameters.residents.toLocaleString('en-US')} residents x ${parameters.vitalRounds} vital rounds into ${file} (kept for later runs)`);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const db = openDatabase(`sqlite:${partial}`);
  let meta: Omit<SeededDatabase, 'file' | 'fromCache'>;
  try {
    meta = await seedTenant(db, parameters, log);
  } finally {
    // Closing checkpoints the WAL into the file, so the file alone is the whole database.
    await db.destroy();
  }
  renameSync(partial, file);
  writeFileSync(metaFile, JSON.stringify(meta, null, 2));
  return { ...meta, file, fromCache: false };
}

/** Migrates an empty database and seeds one organization, facility and credential with all scopes. */
export async function seedTenant(db: Knex, parameters: SeedParameters, log: (line: string) => void): Promise<Omit<SeededDatabase, 'file' | 'fromCache'>> {
  await migrateToLatest(db);
  const org = await createOrganization(db, 'Benchmark Care Group');
  const facility = await createFacility(db, org.id, 'Benchmark Facility');
  const client = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: [...PARTNER_SCOPES], name: 'benchmark' });
  const started = performance.now();
  let reported = 0;
  const counts = await seedFacility(db, {
    orgId: org.id,
    facilityId: facility.id,
    residents: parameters.residents,
    vitalRounds: parameters.vitalRounds,
    randomSeed: RANDOM_SEED,
    onProgress: (done, total) => {
      if (done - reported >= total / 10 || done === total) {
        reported = done;
        log(`    ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} residents, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    },
  });
  const seedSeconds = (performance.now() - started) / 1000;
  return { orgId: org.id, facilityId: facility.id, client: { client_id: client.client_id, client_secret: client.client_secret }, counts, seedSeconds };
}

/** A private copy of a seeded database in a temporary folder; remove() deletes it. */
export function workingCopy(seeded: SeededDatabase): { databaseUrl: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ofctx-bench-'));
  copyFileSync(seeded.file, join(dir, 'ofctx.db'));
  return { databaseUrl: `sqlite:${join(dir, 'ofctx.db')}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
