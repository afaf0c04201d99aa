// Migration 032: the Coverage details a 270 needs are nullable text columns of coverage, so
// rows written before it read as null; its rollback drops them and leaves coverage's triggers
// (027's payer counts, 030's change counters) working.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../../test/support/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { facilitiesWithAResident, insertCoverageRow, type CountedFacilities } from '../../../../test/support/counted-rows.js';
import * as coverageDetails from '../../../src/db/migrations/032_coverage_details.js';

const COLUMNS = ['coverage_type', 'classes', 'relationship', 'subscriber_name', 'subscriber_birth_date', 'subscriber_gender'];

describe('the coverage details columns (migration 032)', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let fixture: CountedFacilities;

  before(async () => {
    db = knex();
    fixture = await facilitiesWithAResident(db, 'details', ['one']);
  });

  const columns = async () => Object.keys(await db('coverage').columnInfo());
  const payerTotal = async () => Number((await db('coverage_payer_counts').where({ facility_id: fixture.facilities[0] }).sum({ n: 'total' }).first())!.n);

  it('adds the six columns as nullable text: a row written without them holds null', async () => {
    const info = await db('coverage').columnInfo();
    for (const column of COLUMNS) expect(info[column], column).to.include({ nullable: true });
    const id = await insertCoverageRow(db, fixture, fixture.facilities[0]!);
    const row = await db('coverage').where({ id }).first(COLUMNS);
    expect(Object.values(row)).to.deep.equal(COLUMNS.map(() => null));
    await db('coverage').where({ id }).update({ classes: JSON.stringify([{ type: 'group', value: 'G'.repeat(500) }]) });
    expect(JSON.parse((await db('coverage').where({ id }).first('classes')).classes)[0].value).to.have.length(500);
  });

  it('rolls back to the columns before it, the payer counts still kept; and up again', async () => {
    await coverageDetails.down(db);
    for (const column of COLUMNS) expect(await columns()).to.not.include(column);
    const before = await payerTotal();
    await insertCoverageRow(db, fixture, fixture.facilities[0]!);
    expect(await payerTotal()).to.equal(before + 1);
    await coverageDetails.up(db);
    expect(await columns()).to.include.members(COLUMNS);
  });
});
