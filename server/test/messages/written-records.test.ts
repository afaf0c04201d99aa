// What a run of a road wrote, read back from the ingest audit trail after the mark taken when
// it started: its own writes, in order, and nothing of the trail before the mark (which the
// query must not walk: at years of history that is the organization's every write).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { ingestWritesMark, writtenRecords } from '../../src/messages/written-records.js';
import { isPostgres } from '../../src/db/database.js';

describe('the records a run wrote, read back from the ingest audit trail', () => {
  const knex = freshKnexForSuite(async (db) => void (await migrateToLatest(db)));
  let orgId: string;
  let facilityId: string;

  before(async () => {
    orgId = (await createOrganization(knex(), 'Trail')).id;
    facilityId = (await createFacility(knex(), orgId, 'Trail House')).id;
  });

  const write = (requestId: string, resourceId: string, outcome: 'created' | 'updated', version: number) =>
    knex()('ingest_writes').insert({ at: new Date().toISOString(), actor: 'x12', request_id: requestId, org_id: orgId, facility_id: facilityId, resource_type: 'Coverage', resource_id: resourceId, outcome, version_id: version });

  it('returns the run\'s writes after the mark, in order, and none from before it', async () => {
    expect(await ingestWritesMark(knex())).to.equal(0);
    const before = randomUUID();
    await write('req-1', before, 'created', 1);
    const mark = await ingestWritesMark(knex());
    expect(mark).to.be.greaterThan(0);
    const [a, b] = [randomUUID(), randomUUID()];
    await write('req-1', a, 'updated', 2);
    await write('req-2', randomUUID(), 'created', 1);
    await write('req-1', b, 'created', 1);
    expect(await writtenRecords(knex(), orgId, 'req-1', mark)).to.deep.equal([
      { type: 'Coverage', id: a, version: 2, outcome: 'updated' },
      { type: 'Coverage', id: b, version: 1, outcome: 'created' },
    ]);
    expect(await writtenRecords(knex(), orgId, 'req-1', 0)).to.have.length(3);
  });

  it('reads a range of the (org_id, seq) index on PostgreSQL, not the organization\'s whole trail', async function () {
    if (!isPostgres(knex())) this.skip();
    const db = knex();
    await db.raw(`INSERT INTO ingest_writes (at, actor, request_id, org_id, facility_id, resource_type, resource_id, outcome, version_id)
      SELECT '2026-01-01T00:00:00.000Z', 'hl7v2', 'old-' || g, ?, ?, 'Observation', gen_random_uuid(), 'created', 1 FROM generate_series(1, 20000) g`, [orgId, facilityId]);
    await db.raw('ANALYZE ingest_writes');
    const mark = await ingestWritesMark(db);
    const query = db('ingest_writes').where({ org_id: orgId }).andWhere('seq', '>', mark).andWhere({ request_id: 'req-9' }).orderBy('seq').limit(1000).select('resource_type', 'resource_id', 'version_id', 'outcome').toSQL();
    const plan = JSON.stringify((await db.raw(`EXPLAIN (FORMAT JSON) ${query.sql}`, query.bindings)).rows[0]['QUERY PLAN']);
    expect(plan).not.to.include('"Seq Scan"');
    // The mark bounds the index range itself, not a filter applied after walking the trail.
    expect(plan).to.match(/"Index Cond":"[^"]*seq > /);
  });
});
