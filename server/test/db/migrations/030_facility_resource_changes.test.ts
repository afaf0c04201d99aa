// Migration 030's change counter: every write to a facility's rows of a resource (insert,
// update of any column, move, delete), by any statement, changes that facility's stamp
// (db/facility-stamp.ts) in the writing transaction, and no other
// facility's or resource's; a rolled-back write changes nothing; its rollback drops it all.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../../test/support/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { facilitiesWithAResident, insertCoverageRow, type CountedFacilities } from '../../../../test/support/counted-rows.js';
import { stampOf } from '../../../src/db/facility-stamp.js';
import * as facilityResourceChanges from '../../../src/db/migrations/030_facility_resource_changes.js';

describe('the facility change counters (migration 030)', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let fixture: CountedFacilities;
  let facilities: string[];

  before(async () => {
    db = knex();
    fixture = await facilitiesWithAResident(db, 'stamped', ['one', 'two']);
    facilities = fixture.facilities;
  });

  const insertCoverage = (trx: Knex, facilityId: string) => insertCoverageRow(trx, fixture, facilityId);
  const facilityStamp = async (resource: string, facilityId: string) => stampOf(await db('facility_resource_counts').where({ resource, facility_id: facilityId }).first('total', 'layout_version', 'changes'));
  const stamps = async () => ({
    coverage: await Promise.all(facilities.map((f) => facilityStamp('coverage', f))),
    residents: await Promise.all(facilities.map((f) => facilityStamp('residents', f))),
  });

  it('changes the stamp of the facility written, at every kind of write, and of no other', async () => {
    const [here, there] = facilities as [string, string];
    const id = await insertCoverage(db, here);
    await insertCoverage(db, here);
    const writes: Array<[string, () => Promise<unknown>, Array<0 | 1>]> = [
      ['an insert', () => insertCoverage(db, here), [0]],
      ['an update in place (a new version)', () => db('coverage').where({ id }).update({ status: 'cancelled', version_id: 2 }), [0]],
      ['an update of a column alone', () => db('coverage').where({ id }).update({ subscriber_id: 'S2' }), [0]],
      ['an update to the same value', () => db('coverage').where({ id }).update({ subscriber_id: 'S2' }), [0]],
      ['a move to another facility', () => db('coverage').where({ id }).update({ facility_id: there, resident_id: fixture.residentOf[there] }), [0, 1]],
      ['a delete', () => db('coverage').where({ id }).delete(), [1]],
    ];
    for (const [what, write, changed] of writes) {
      const before = await stamps();
      await write();
      const after = await stamps();
      for (const i of [0, 1] as const) {
        expect(after.coverage[i] !== before.coverage[i], `${what}: facility ${i}`).to.equal(changed.includes(i));
      }
      // Another resource's stamp is its own.
      expect(after.residents, what).to.deep.equal(before.residents);
    }
  });

  it('changes nothing for a write that rolls back', async () => {
    const before = await stamps();
    const failed = new Error('rolled back');
    await db
      .transaction(async (trx) => {
        await insertCoverage(trx, facilities[0]!);
        await trx('coverage').update({ subscriber_id: 'rolled back' });
        throw failed;
      })
      .then(
        () => expect.fail('the transaction committed'),
        (error: unknown) => expect(error).to.equal(failed),
      );
    expect(await stamps()).to.deep.equal(before);
  });

  it('rolls back to the counters before it, and up again', async () => {
    await facilityResourceChanges.down(db);
    try {
      expect(await db.schema.hasColumn('facility_resource_counts', 'changes')).to.equal(false);
      // Writes still count rows without it.
      await db('coverage').update({ subscriber_id: 'without 030' });
    } finally {
      await facilityResourceChanges.up(db);
    }
    const before = await stamps();
    await db('coverage').update({ subscriber_id: 'with 030' });
    expect((await stamps()).coverage).to.not.deep.equal(before.coverage);
  });
});
