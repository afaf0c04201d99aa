// Fresh PostgreSQL databases for one benchmark, dropped afterwards whatever happens, so a run
// never measures, or leaves behind, another run's rows. No server: a line in `skipped` and
// no measurement, so the page says why its PostgreSQL rows are missing.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BenchSettings } from './settings.js';

/** Runs `work` on `count` new databases (their URLs), or returns undefined when no server answers. */
export async function onScratchPostgres<T>(
  settings: BenchSettings,
  count: number,
  skipped: string[],
  work: (urls: string[], names: string[]) => Promise<T>,
): Promise<T | undefined> {
  const admin = new pg.Client({ connectionString: settings.postgresAdminUrl });
  try {
    await admin.connect();
  } catch (error) {
    skipped.push(`PostgreSQL: no server at ${settings.postgresAdminUrl.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message}); set BENCH_PG_URL`);
    return undefined;
  }
  const names = Array.from({ length: count }, () => `ofctx_bench_${randomBytes(4).toString('hex')}`);
  try {
    const urls: string[] = [];
    for (const name of names) {
      await admin.query(`CREATE DATABASE "${name}"`);
      const url = new URL(settings.postgresAdminUrl);
      url.pathname = `/${name}`;
      urls.push(url.toString());
    }
    return await work(urls, names);
  } finally {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}
