// The migrations up to and including `last`, as a knex migration source: a database as a
// deployment of an earlier version left it, for tests of what a later migration does to it.
import type { Knex } from 'knex';
import { migrations } from '../../server/src/db/migrations/index.js';

export function migrationsUpTo(last: string): Knex.MigrationSource<string> {
  const listed = migrations.slice(0, migrations.findIndex(([name]) => name === last) + 1);
  if (listed.length === 0) throw new Error(`no migration named ${last}`);
  return {
    getMigrations: async () => listed.map(([name]) => name),
    getMigrationName: (name) => name,
    getMigration: async (name) => listed.find(([candidate]) => candidate === name)![1],
  };
}
