// Migration 046: on PostgreSQL a facility's row count moves once per INSERT statement (a
// statement-level trigger over the rows it inserted) instead of once per row. The counts must
// be what they were: every inserted row counted in its own facility, whatever the statement
// (multi-row, several facilities, an upsert), a delete counted down with the layout moved,
// a rolled-back statement counting nothing; and its down restores the row-level trigger.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../../test/support/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { coverageRow as coverageRowOf, facilitiesWithAResident, type CountedFacilities } from '../../../../test/support/counted-rows.js';
import * as statementCountTriggers from '../../../src/db/migrations/046_statement_count_triggers.js';

describe('facility row counts by statement (migration 046)', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let fixture: CountedFacilities;

  before(async () => {
    db = knex();
    fixture = await facilitiesWithAResident(db, 'counted by statement', ['one', 'two']);
  });

  const coverageRow = (facilityId: string, id = randomUUID()) => coverageRowOf(fixture, facilityId, undefined, undefined, id);
  const counts = async () => {
    const rows = (await db('facility_resource_counts').where({ resource: 'coverage' }).whereIn('facility_id', fixture.facilities).select('facility_id', 'total', 'layout_version')) as Array<{ facility_id: string; total: number | string; layout_version: number | string }>;
    return fixture.facilities.map((f) => {
      const row = rows.find((r) => r.facility_id === f);
      return { total: Number(row?.total ?? 0), layout: Number(row?.layout_version ?? 0) };
    });
  };
  const actual = async () => Promise.all(fixture.facilities.map(async (f) => Number((await db('coverage').where({ facility_id: f }).count({ n: '*' }).first())!.n)));

  it('counts every row of a multi-row insert in its own facility, once', async () => {
    const [one, two] = fixture.facilities as [string, string];
    const before = await counts();
    await db('coverage').insert([coverageRow(one), coverageRow(two), coverageRow(one), coverageRow(one), coverageRow(two)]);
    const after = await counts();
    expect(after.map((c, i) => c.total - before[i]!.total)).to.deep.equal([3, 2]);
    // An insert appends: no layout moves.
    expect(after.map((c) => c.layout)).to.deep.equal(before.map((c) => c.layout));
    expect(after.map((c) => c.total)).to.deep.equal(await actual());
  });

  it('counts the rows of several inserts in one statement (data-modifying CTEs, as the ingest writes them)', async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    const [one, two] = fixture.facilities as [string, string];
    const before = await counts();
    const first = db('coverage').insert([coverageRow(one), coverageRow(two)]).toSQL();
    const second = db('coverage').insert([coverageRow(two)]).toSQL();
    await db.raw(`with w0 as (${first.sql}) ${second.sql}`, [...first.bindings, ...second.bindings]);
    expect((await counts()).map((c, i) => c.total - before[i]!.total)).to.deep.equal([1, 2]);
    expect((await counts()).map((c) => c.total)).to.deep.equal(await actual());
  });

  it('counts nothing for an upsert that updates, and nothing for a statement rolled back', async () => {
    const [one] = fixture.facilities as [string, string];
    const id = randomUUID();
    await db('coverage').insert(coverageRow(one, id));
    const before = await counts();
    await db('coverage').insert({ ...coverageRow(one, id), status: 'cancelled' }).onConflict('id').merge(['status']);
    expect(await counts()).to.deep.equal(before);
    await db
      .transaction(async (trx) => {
        await trx('coverage').insert([coverageRow(one), coverageRow(one)]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await counts()).to.deep.equal(before);
  });

  it('counts a delete down in its facility and moves its layout', async () => {
    const [, two] = fixture.facilities as [string, string];
    const id = randomUUID();
    await db('coverage').insert(coverageRow(two, id));
    const before = await counts();
    await db('coverage').where({ id }).delete();
    const after = await counts();
    expect([after[1]!.total - before[1]!.total, after[1]!.layout - before[1]!.layout]).to.deep.equal([-1, 1]);
    expect(after.map((c) => c.total)).to.deep.equal(await actual());
  });

  it('on PostgreSQL, counts by statement, and counts by row again after its down', async function () {
    if (testDatabaseKind !== 'postgres') return this.skip();
    const levels = async () => (await db.raw(`select tgname, (tgtype & 1) = 1 as per_row from pg_trigger where tgrelid = 'coverage'::regclass and tgname like 'coverage_count_%' and tgname <> 'coverage_count_change' order by tgname`)).rows as Array<{ tgname: string; per_row: boolean }>;
    expect(await levels()).to.deep.equal([
      { tgname: 'coverage_count_delete', per_row: true },
      { tgname: 'coverage_count_insert', per_row: false },
      { tgname: 'coverage_count_move', per_row: true },
    ]);
    const [one, two] = fixture.facilities as [string, string];
    await statementCountTriggers.down(db);
    try {
      const before = await counts();
      await db('coverage').insert([coverageRow(one), coverageRow(two), coverageRow(two)]);
      expect((await counts()).map((c, i) => c.total - before[i]!.total)).to.deep.equal([1, 2]);
      expect((await levels()).map((t) => t.tgname)).to.deep.equal(['coverage_count_insert_delete', 'coverage_count_move']);
    } finally {
      await statementCountTriggers.up(db);
    }
    expect((await counts()).map((c) => c.total)).to.deep.equal(await actual());
  });
});
