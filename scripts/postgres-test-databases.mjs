// Where the test runners find PostgreSQL, and how they clean up after a run. Shared by
// `npm test` (scripts/run-tests.mjs) and `npm run test:reliability`.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** An admin URL from DATABASE_URL (postgres://...) or the PG* variables; null when neither is set. */
export function postgresAdminUrl(env = process.env) {
  const url = env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//.test(url)) return url;
  if (env.PGHOST || env.PGUSER || env.PGDATABASE || env.PGPORT) {
    const user = encodeURIComponent(env.PGUSER ?? 'postgres');
    const password = env.PGPASSWORD ? `:${encodeURIComponent(env.PGPASSWORD)}` : '';
    return `postgres://${user}${password}@${env.PGHOST ?? '127.0.0.1'}:${env.PGPORT ?? '5432'}/${env.PGDATABASE ?? 'postgres'}`;
  }
  return null;
}

/** Drops every database whose name starts with `prefix`; returns how many. */
export async function dropDatabases(adminUrl, prefix) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.length;
  } finally {
    await client.end();
  }
}

/**
 * Runs `run(adminUrl, prefix)` when PostgreSQL is configured and `only` (a list of database
 * kinds, or undefined for all) selects it, then drops every database whose name starts with
 * the run's fresh prefix, whatever happened. Returns what `run` returned, or undefined.
 */
export async function onFreshPostgres(prefixBase, only, run) {
  if (only && !only.includes('postgres')) return undefined;
  const adminUrl = postgresAdminUrl();
  if (!adminUrl) {
    console.log('\nPostgreSQL: skipped (set DATABASE_URL=postgres://... or PGHOST to run on it too)');
    return undefined;
  }
  const prefix = `${prefixBase}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}_`;
  try {
    return await run(adminUrl, prefix);
  } finally {
    const dropped = await dropDatabases(adminUrl, prefix).catch((error) => {
      console.error(`could not drop test databases ${prefix}*: ${error.message}`);
      return 0;
    });
    console.log(`dropped ${dropped} PostgreSQL test database(s) ${prefix}*`);
  }
}
