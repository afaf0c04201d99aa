// Migration 027's Coverage counters per (facility, lower(payor_name), lower(payor_id)) stay
// equal to a count(*) of the rows through random inserts, payer changes (case variants, a
// payor_id set and cleared), moves between facilities and deletes, written by any statement;
// a rolled-back write leaves them as they were; and the backfill counts rows written before.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../../test/support/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { facilitiesWithAResident, insertCoverageRow, type CountedFacilities } from '../../../../test/support/counted-rows.js';
import * as coveragePayerCounts from '../../../src/db/migrations/027_coverage_payer_counts.js';

const NAMES = ['Acme Health', 'ACME HEALTH', 'acme health', 'Beta Care', 'BETA-01', 'Gamma'];
const IDS = [null, 'ACME-01', 'acme-01', 'BETA-01', 'beta-01', 'Gamma', ''];

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

describe('the Coverage payer counters (migration 027)', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let fixture: CountedFacilities;
  let facilities: string[];

  before(async () => {
    db = knex();
    fixture = await facilitiesWithAResident(db, 'counted', ['one', 'two', 'three']);
    facilities = fixture.facilities;
  });

  const insertCoverage = (trx: Knex, facilityId: string, payorName: string, payorId: string | null) => insertCoverageRow(trx, fixture, facilityId, payorName, payorId);

  /** The counters as the triggers left them (rows at zero are no Coverage). */
  async function counters(): Promise<string[]> {
    const rows = await db('coverage_payer_counts').where('total', '<>', 0).select('facility_id', 'payor_name_key', 'payor_id_key', 'total');
    return rows.map((r) => `${r.facility_id}|${r.payor_name_key}|${r.payor_id_key}|${Number(r.total)}`).sort();
  }

  /** The same, counted from the rows. */
  async function counted(): Promise<string[]> {
    const rows = (await db('coverage')
      .select('facility_id', db.raw('lower(payor_name) as name_key'), db.raw("coalesce(lower(payor_id), '') as id_key"))
      .count({ n: '*' })
      .groupByRaw("facility_id, lower(payor_name), coalesce(lower(payor_id), '')")) as Array<Record<string, unknown>>;
    return rows.map((r) => `${r.facility_id}|${r.name_key}|${r.id_key}|${Number(r.n)}`).sort();
  }

  it('equal a count(*) of the rows through random inserts, payer changes, moves and deletes', async () => {
    const next = generator(27);
    const pick = <T>(values: readonly T[]) => values[next(values.length)]!;
    for (let step = 0; step < 400; step++) {
      const ids = (await db('coverage').pluck('id')) as string[];
      const operation = ids.length < 10 ? 0 : next(8);
      const target = ids.length > 0 ? pick(ids) : undefined;
      if (operation === 0 || operation > 5 || !target) {
        await insertCoverage(db, pick(facilities), pick(NAMES), pick(IDS));
      } else if (operation === 1) {
        await db('coverage').where({ id: target }).update({ payor_name: pick(NAMES) });
      } else if (operation === 2) {
        await db('coverage').where({ id: target }).update({ payor_id: pick(IDS) });
      } else if (operation === 3) {
        // A move takes the row's resident along (a resident belongs to one facility).
        const facilityId = pick(facilities);
        await db('coverage').where({ id: target }).update({ facility_id: facilityId, resident_id: fixture.residentOf[facilityId] });
      } else if (operation === 4) {
        await db('coverage').where({ id: target }).delete();
      } else if (operation === 5) {
        // Several rows in one statement, every column at once.
        const facilityId = pick(facilities);
        await db('coverage').whereIn('id', ids.slice(0, 1 + next(5))).update({ facility_id: facilityId, resident_id: fixture.residentOf[facilityId], payor_name: pick(NAMES), payor_id: pick(IDS) });
      }
      if (step % 50 === 49) expect(await counters(), `after step ${step}`).to.deep.equal(await counted());
    }
    expect(await db('coverage').count({ n: '*' }).first().then((r) => Number(r!.n))).to.be.greaterThan(20);
    expect(await counters()).to.deep.equal(await counted());
  });

  it('leave no trace of a write that rolls back', async () => {
    const before = await counters();
    const failed = new Error('rolled back');
    const attempt = db.transaction(async (trx) => {
      await insertCoverage(trx, facilities[0]!, 'Rollback Health', 'RB-1');
      await trx('coverage').update({ payor_name: 'Everyone Else' });
      throw failed;
    });
    await attempt.then(
      () => expect.fail('the transaction committed'),
      (error: unknown) => expect(error).to.equal(failed),
    );
    expect(await counters()).to.deep.equal(before);
  });

  it('are backfilled from the rows already written when the migration runs', async () => {
    const before = await counted();
    expect(before.length).to.be.greaterThan(3);
    await coveragePayerCounts.down(db);
    await insertCoverage(db, facilities[1]!, 'Written Before', 'WB-1');
    await coveragePayerCounts.up(db);
    expect(await counters()).to.deep.equal(await counted());
    expect(await counters()).to.not.deep.equal(before);
    // And the triggers are back.
    await insertCoverage(db, facilities[2]!, 'Written After', null);
    expect(await counters()).to.deep.equal(await counted());
  });
});
