// Seeding goes through applyChangeSet: versioned rows, audited writes (actor `seed`), and
// events only when asked.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { seedFacility } from '../../src/seed/synthetic-data.js';

describe('seeding through ingestion', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let org: string;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    org = (await createOrganization(db, 'Seed Org')).id;
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('writes version 1 rows, audited as seed, and no events by default', async () => {
    const facility = (await createFacility(db, org, 'Quiet')).id;
    const counts = await seedFacility(db, { orgId: org, facilityId: facility, residents: 30, randomSeed: 7 });
    expect(counts.residents).to.equal(30);
    expect(counts.observations).to.equal(30 * 2 * 6);
    const rows = await db('residents').where({ facility_id: facility });
    expect(rows.every((r) => r.version_id === 1 && /Z$/.test(r.last_updated))).to.equal(true);
    const audited = await db('ingest_writes').where({ facility_id: facility, actor: 'seed' }).count({ n: '*' }).first();
    expect(Number(audited!.n)).to.equal(counts.residents + counts.coverage + counts.observations + counts.allergies);
    expect(await db('webhook_events').where({ facility_id: facility }).first()).to.equal(undefined);
  });

  it('with emitEvents, every active resident is admitted and every coverage updated, in the same transactions', async () => {
    const facility = (await createFacility(db, org, 'Loud')).id;
    const counts = await seedFacility(db, { orgId: org, facilityId: facility, residents: 20, randomSeed: 8, emitEvents: true });
    const active = Number((await db('residents').where({ facility_id: facility, active: true }).count({ n: '*' }).first())!.n);
    const events = await db('webhook_events').where({ facility_id: facility }).select('event_type');
    expect(events.filter((e) => e.event_type === 'resident.admitted')).to.have.length(active);
    expect(events.filter((e) => e.event_type === 'coverage.updated')).to.have.length(counts.coverage);
  });

  it('two facilities of one organization seeded alike keep their own residents', async () => {
    const a = (await createFacility(db, org, 'A')).id;
    const b = (await createFacility(db, org, 'B')).id;
    await seedFacility(db, { orgId: org, facilityId: a, residents: 10 });
    await seedFacility(db, { orgId: org, facilityId: b, residents: 10 });
    for (const facility of [a, b]) {
      expect(Number((await db('residents').where({ facility_id: facility }).count({ n: '*' }).first())!.n)).to.equal(10);
    }
  });
});
