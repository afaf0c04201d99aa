import type { Command } from '../command.js';
import { migrateToLatest } from '../../db/migrate.js';

export const migrate: Command = {
  name: 'migrate',
  summary: 'Bring the database (DATABASE_URL) to the latest schema.',
  usage: 'migrate [--json]',
  options: {},
  async run(_args, cli) {
    // cli.db() already migrates on open; report what this run applied.
    const db = await cli.db();
    const applied = await migrateToLatest(db);
    const row = await db('knex_migrations').count({ count: '*' }).first();
    return { applied, total: Number(row?.count ?? 0) };
  },
  format: (r: { total: number }) => `database is at the latest schema (${r.total} migrations)`,
};
