// Migration 047: on SQLite the identifier index by system is ordered by record id within its
// system, not by value, so an HL7 result's digest no longer lands at a random place of it; every
// lookup that names a value still goes to the lookup index, and its down restores the value.
// PostgreSQL keeps its five columns (it chose the narrower index by system without statistics).
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../../test/support/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { rawRows } from '../../../src/db/database.js';
import * as identifierSystemIndex from '../../../src/db/migrations/047_identifier_system_index.js';

describe('the identifier index by system (migration 047)', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  before(() => {
    db = knex();
  });

  const columns = async (): Promise<string[]> =>
    testDatabaseKind === 'sqlite'
      ? rawRows<{ name: string }>(await db.raw(`select name from pragma_index_info('resource_identifiers_system') order by seqno`)).map((c) => c.name)
      : rawRows<{ name: string }>(await db.raw(`select a.attname as name from pg_index i join pg_class c on c.oid = i.indexrelid cross join lateral unnest(i.indkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum where c.relname = 'resource_identifiers_system' order by k.n`)).map((c) => c.name);

  it('orders SQLite\'s entries by record id within a system, and PostgreSQL keeps the value', async () => {
    expect(await columns()).to.deep.equal(testDatabaseKind === 'sqlite' ? ['org_id', 'resource_type', 'system', 'resource_id'] : ['org_id', 'resource_type', 'system', 'value', 'resource_id']);
  });

  it('on SQLite, looks a value up in the lookup index, and holds the value again after its down', async function () {
    if (testDatabaseKind !== 'sqlite') return this.skip();
    const plan = rawRows<{ detail: string }>(await db.raw(`explain query plan select resource_id from resource_identifiers where org_id = ? and resource_type = ? and system = ? and value = ?`, ['o', 'Observation', 's', 'v'])).map((s) => s.detail).join('\n');
    expect(plan).to.match(/USING COVERING INDEX resource_identifiers_lookup \(org_id=\? AND value=\? AND resource_type=\? AND system=\?\)/);
    await identifierSystemIndex.down(db);
    try {
      expect(await columns()).to.deep.equal(['org_id', 'resource_type', 'system', 'value', 'resource_id']);
    } finally {
      await identifierSystemIndex.up(db);
    }
    expect(await columns()).to.deep.equal(['org_id', 'resource_type', 'system', 'resource_id']);
  });
});
