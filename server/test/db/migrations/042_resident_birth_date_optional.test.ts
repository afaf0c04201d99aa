// Migration 042: a resident may have no birth date. On SQLite the column's NOT NULL is dropped
// by rebuilding the table, which must keep its triggers (030's facility resource counters)
// and its rows; the rollback refuses while a resident has none, and works once each has one.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../../test/support/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { facilitiesWithAResident, type CountedFacilities } from '../../../../test/support/counted-rows.js';
import * as residentBirthDateOptional from '../../../src/db/migrations/042_resident_birth_date_optional.js';

describe('a resident without a birth date (migration 042)', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let fixture: CountedFacilities;

  before(async () => {
    db = knex();
    fixture = await facilitiesWithAResident(db, 'undated', ['one']);
  });

  const facility = () => fixture.facilities[0]!;
  const residentTotal = async () => Number((await db('facility_resource_counts').where({ resource: 'residents', facility_id: facility() }).first('total'))!.total);
  const insertResident = async (birthDate: string | null) => {
    const id = randomUUID();
    await db('residents').insert({
      id, org_id: fixture.orgId, facility_id: facility(), identifiers: '[]', family_name: 'Undated', given_names: '[]',
      gender: 'unknown', birth_date: birthDate, active: true, created_at: new Date().toISOString(),
    });
    return id;
  };

  it('takes a resident whose birth_date is null, the facility counters still kept by their triggers', async () => {
    expect((await db('residents').columnInfo()).birth_date).to.include({ nullable: true });
    const before = await residentTotal();
    const id = await insertResident(null);
    expect((await db('residents').where({ id }).first('birth_date')).birth_date).to.equal(null);
    expect(await residentTotal()).to.equal(before + 1);
    await db('residents').where({ id }).delete();
    expect(await residentTotal()).to.equal(before);
  });

  it('refuses to roll back while a resident has no birth date, saying why; rolls back once each has one, and up again', async () => {
    const id = await insertResident(null);
    let refused: Error | undefined;
    try {
      await residentBirthDateOptional.down(db);
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).to.match(/1 residents have no birth date/);
    expect((await db('residents').columnInfo()).birth_date).to.include({ nullable: true });
    await db('residents').where({ id }).update({ birth_date: '1950-05-05' });
    await residentBirthDateOptional.down(db);
    expect((await db('residents').columnInfo()).birth_date).to.include({ nullable: false });
    const before = await residentTotal();
    await insertResident('1939-09-09');
    expect(await residentTotal(), 'the counters survive the rebuild back').to.equal(before + 1);
    await residentBirthDateOptional.up(db);
    expect((await db('residents').columnInfo()).birth_date).to.include({ nullable: true });
    expect(Number((await db('residents').where({ org_id: fixture.orgId }).count({ n: '*' }).first())!.n), 'every row kept').to.equal(3);
    expect(await residentTotal(), 'and counted').to.equal(before + 1);
  });
});
