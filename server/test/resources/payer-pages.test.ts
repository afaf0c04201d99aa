// A payer-scoped credential's Coverage list (resources/payer-pages.ts) shows exactly what the
// generic filtered query shows, page after page, with the same total: on a facility full of
// look-alike payers (case variants, a trailing space, a longer name, a name matching one payer
// and an id another, a Coverage matching both ways), next to another facility of the same
// payers, after rows change payer, move or go; and a policy hiding more than payers still
// hides it.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { fetchResourcePage } from '../../src/resources/pagination.js';
import { seeksPayers } from '../../src/resources/payer-pages.js';
import { RecordFilter, type OrganizationFlags } from '../../src/tenancy/record-visibility.js';
import type { AccessPolicy } from '../../src/tenancy/access-policy.js';

const PAYERS: Array<[name: string, id: string | null]> = [
  ['Acme Health', 'ACME-01'],
  ['ACME HEALTH', null],
  ['acme health ', null],
  ['Acme Healthcare', 'ACME-011'],
  ['Beta Care', 'acme-01'],
  ['acme-01', 'BETA-9'],
  ['Acme Health', 'acme-01'],
  ['Gamma', ''],
  ['Beta Care', null],
];

const NOTHING_ELSE: OrganizationFlags = { restrictedRecords: false, consentDenials: false };

describe('a payer-scoped Coverage list', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  let orgId: string;
  let facilityId: string;
  let otherFacilityId: string;
  const residents: Record<string, string[]> = {};

  const policyOf = (payers: string[], sensitive = false): AccessPolicy => ({ purpose: 'HPAYMT', payers, sensitive });

  async function addResidents(facility: string, count: number): Promise<void> {
    residents[facility] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      residents[facility]!.push(id);
      await db('residents').insert({
        id, org_id: orgId, facility_id: facility, identifiers: '[]', family_name: `Doe ${i}`, given_names: '["Jo"]',
        gender: 'unknown', birth_date: '1940-01-01', active: true, created_at: new Date().toISOString(),
      });
    }
  }

  async function addCoverage(facility: string, n: number): Promise<void> {
    const [name, id] = PAYERS[(n * 7 + (n >> 3)) % PAYERS.length]!;
    const owners = residents[facility]!;
    await db('coverage').insert({
      id: randomUUID(), org_id: orgId, facility_id: facility, resident_id: owners[n % owners.length], status: 'active', payor_name: name,
      payor_id: id, subscriber_id: `S${n}`, period_start: '2025-01-01', coverage_order: 1, created_at: new Date().toISOString(),
    });
  }

  before(async () => {
    db = knex();
    orgId = (await createOrganization(db, 'payers')).id;
    facilityId = (await createFacility(db, orgId, 'listed')).id;
    otherFacilityId = (await createFacility(db, orgId, 'other')).id;
    await addResidents(facilityId, 40);
    await addResidents(otherFacilityId, 10);
    // Interleaved with the other facility's rows, so a page's seq range spans both.
    for (let n = 0; n < 180; n++) await addCoverage(n % 4 === 3 ? otherFacilityId : facilityId, n);
  });

  /** The ids the generic filtered query shows, in list order. */
  async function expectedIds(filter: RecordFilter): Promise<string[]> {
    return (await filter.apply(db('coverage').where({ facility_id: facilityId }), 'coverage').orderBy('seq').pluck('id')) as string[];
  }

  /** Every page of the list, one past the last; each page and total compared with the generic query's. */
  async function expectSameAsGeneric(filter: RecordFilter, pageSize: number): Promise<number> {
    const expected = await expectedIds(filter);
    const pages = Math.ceil(expected.length / pageSize) + 1;
    for (let page = 1; page <= pages; page++) {
      const { rows, page: info } = await fetchResourcePage<{ id: string; seq: number; facility_id: string }>(db, 'coverage', { facility_id: facilityId }, { page, page_size: pageSize }, filter);
      const label = `payers ${JSON.stringify(filter.policy.payers)}, page ${page} of size ${pageSize}`;
      expect(rows.map((row) => row.id), label).to.deep.equal(expected.slice((page - 1) * pageSize, page * pageSize));
      expect(info, label).to.deep.equal({ page, page_size: pageSize, total: expected.length });
    }
    return expected.length;
  }

  // One key (a name only, an id only), several, both ways at once, and none.
  const PAYER_SETS = [['acme health'], ['beta-9'], ['acme-011'], ['acme-01'], ['acme health', 'acme-01'], ['beta care', 'acme-01', 'gamma'], ['acme healthcare', 'beta-9'], ['nobody']];

  it('takes the seeking path for these payers when they are all the policy hides', () => {
    for (const payers of PAYER_SETS) expect(seeksPayers(new RecordFilter(policyOf(payers), NOTHING_ELSE).payersOnly)).to.equal(true);
    expect(new RecordFilter(policyOf(['acme health']), { restrictedRecords: true, consentDenials: false }).payersOnly).to.equal(null);
    expect(new RecordFilter(policyOf(['acme health'], true), { restrictedRecords: true, consentDenials: false }).payersOnly).to.deep.equal(['acme health']);
    expect(new RecordFilter(policyOf(['acme health'], true), { restrictedRecords: false, consentDenials: true }).payersOnly).to.equal(null);
    expect(seeksPayers([''])).to.equal(false);
  });

  it('shows the generic query\'s rows and total on every page, whatever the payers and page size', async () => {
    const totals: number[] = [];
    for (const payers of PAYER_SETS) {
      for (const pageSize of [1, 7, 10, 50]) totals.push(await expectSameAsGeneric(new RecordFilter(policyOf(payers), NOTHING_ELSE), pageSize));
    }
    // The facility holds matches by name only, by id only and both ways; 'nobody' none.
    expect(totals.slice(0, 4 * 4).every((total) => total > 5)).to.equal(true);
    expect(totals[totals.length - 1]).to.equal(0);
  });

  it('stays exact after rows change payer, move to another facility or go', async () => {
    const filter = new RecordFilter(policyOf(['acme health', 'acme-01']), NOTHING_ELSE);
    const before = await expectedIds(filter);
    await db('coverage').whereIn('id', before.slice(2, 5)).update({ payor_name: 'Someone Else', payor_id: null });
    await db('coverage').whereIn('id', before.slice(8, 10)).update({ facility_id: otherFacilityId, resident_id: residents[otherFacilityId]![0] });
    await db('coverage').whereIn('id', before.slice(12, 14)).delete();
    const unmatched = (await db('coverage').where({ facility_id: facilityId, payor_name: 'Gamma' }).first('id')) as { id: string };
    await db('coverage').where({ id: unmatched.id }).update({ payor_id: 'Acme-01' });
    const total = await expectSameAsGeneric(filter, 7);
    expect(total).to.equal(before.length - 7 + 1);
    expect(await expectedIds(filter)).to.include(unmatched.id);
  });

  it('still hides a restricted Coverage of the payer from a credential that is not --sensitive', async () => {
    const payers = ['acme health'];
    const [hidden] = await expectedIds(new RecordFilter(policyOf(payers), NOTHING_ELSE));
    await db('coverage').where({ id: hidden }).update({ restricted: 1 });
    const flags = { restrictedRecords: true, consentDenials: false };
    const first = await fetchResourcePage<{ id: string; seq: number }>(db, 'coverage', { facility_id: facilityId }, { page: 1, page_size: 10 }, new RecordFilter(policyOf(payers), flags));
    expect(first.rows.map((row) => row.id)).to.not.include(hidden);
    await expectSameAsGeneric(new RecordFilter(policyOf(payers), flags), 10);
    const sensitive = await fetchResourcePage<{ id: string; seq: number }>(db, 'coverage', { facility_id: facilityId }, { page: 1, page_size: 10 }, new RecordFilter(policyOf(payers, true), flags));
    expect(sensitive.rows.map((row) => row.id)).to.include(hidden);
    expect(sensitive.page.total).to.equal(first.page.total + 1);
  });
});
