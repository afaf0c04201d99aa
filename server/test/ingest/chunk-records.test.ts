// The identifier match of a chunk (ingest/chunk-records.ts) reads the identifiers its changes
// name, not the organization's: on PostgreSQL whatever the statistics say, since a growing
// table is not analyzed yet for a while, and every HL7 message and NDJSON chunk sends it.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { byMrn, observation, patient } from '../../../test/support/fhir-resources.js';
import { isPostgres, rawRows } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import type { ResourceChange } from '../../src/ingest/change-set.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';

const upsert = (resource: ResourceChange['resource']): ResourceChange => ({ resource, match: { identifier: (resource.identifier as Array<{ system: string; value: string }>)[0]! }, at: 'entry' });

/** Heap rows of resource_identifiers fetched through its indexes so far in this transaction. */
async function identifierRowsFetched(trx: Knex.Transaction): Promise<number> {
  const rows = rawRows<{ fetched: number | null }>(await trx.raw(`SELECT idx_tup_fetch AS fetched FROM pg_stat_xact_user_tables WHERE relname = 'resource_identifiers'`));
  return Number(rows[0]?.fetched ?? 0);
}

describe('the identifier match of a chunk', () => {
  const knex = freshKnexForSuite(async (db) => void (await migrateToLatest(db)));

  it('reads only the identifiers the changes name on PostgreSQL, while the statistics still say the organization has none', async function () {
    if (!isPostgres(knex())) this.skip();
    const db = knex();
    const orgId = (await createOrganization(db, 'Lab results')).id;
    const facilityId = (await createFacility(db, orgId, 'Lab House')).id;
    const apply = (trx: Knex, changes: ResourceChange[]) => applyChangeSet(trx, { orgId, facilityId, mode: 'batch', actor: 'test', emitEvents: false, changes });
    // A table never analyzed yet (autovacuum off for this test's database, so that it stays so):
    // what a new deployment's table looks like until autovacuum's first analysis while a feed
    // fills it. PostgreSQL then expects a handful of rows for any one organization.
    await db.raw('ALTER TABLE resource_identifiers SET (autovacuum_enabled = false)');
    await apply(db, [upsert(patient('LAB-1'))]);
    await db.raw(
      `INSERT INTO resource_identifiers (org_id, resource_type, system, value, resource_id)
       SELECT ?, 'Observation', 'https://ehr.example/fhir/sid/observation', 'OLD-' || g, gen_random_uuid() FROM generate_series(1, 3000) g`,
      [orgId],
    );
    const fetched = await db.transaction(async (trx) => {
      const before = await identifierRowsFetched(trx);
      const result = await apply(trx, Array.from({ length: 10 }, (_, i) => upsert(observation(byMrn('LAB-1'), `NEW-${i}`))));
      expect(result.created).to.equal(10);
      return (await identifierRowsFetched(trx)) - before;
    });
    // The patient's identifier and the ten new ones (none found); never the 3,000 others.
    expect(fetched).to.be.below(50);
    // And the match still finds what it names: the same ten again are updates, not new records.
    const again = await apply(db, Array.from({ length: 10 }, (_, i) => upsert(observation(byMrn('LAB-1'), `NEW-${i}`, { valueQuantity: { value: 80, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' } }))));
    expect([again.created, again.updated]).to.deep.equal([0, 10]);
  });
});
