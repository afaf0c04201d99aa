// Pages never skip or repeat rows: while rows are appended during a walk, and after rows are
// deleted, moved or re-assigned once page anchors are remembered; and under an access policy
// whose restriction matches a resident more than once (several Coverages of its payers).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor, type TestResponse } from '../../../test/support/http.js';
import { createClient } from '../../src/auth/clients.js';
import { DEFAULT_POLICY } from '../../src/tenancy/access-policy.js';

describe('list pagination', () => {
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let otherFacilityId: string;
  let token: string;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'paged')).id;
    otherFacilityId = (await service.seed.facility(orgId, 'other')).id;
    await service.seed.data({ orgId, facilityId, residents: 20 });
    const client = await service.seed.client({ orgId, facilityIds: [facilityId, otherFacilityId], scopes: ALL_SCOPES });
    token = await tokenFor(service.baseUrl, client);
  });
  after(() => service.close());

  const db = () => service.running.app.db;
  const idsInOrder = (where: Record<string, string> = { facility_id: facilityId }) => db()('coverage').where(where).orderBy('seq').pluck('id');

  async function walk(pageSize: number, between?: (page: number) => Promise<void>, filter = ''): Promise<{ ids: string[]; totals: number[] }> {
    const ids: string[] = [];
    const totals: number[] = [];
    for (let page = 1; page <= 500; page++) {
      const response = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/coverage?page=${page}&page_size=${pageSize}${filter}`, { token });
      expect(response.status).to.equal(200);
      totals.push(response.body.meta.page.total);
      if (response.body.data.length === 0) break;
      ids.push(...response.body.data.map((c: { id: string }) => c.id));
      await between?.(page);
    }
    return { ids, totals };
  }

  async function appendCoverage(facility = facilityId): Promise<string> {
    const residentId = (await db()('residents').where({ facility_id: facility }).first('id'))?.id
      ?? (await db()('residents').where({ facility_id: facilityId }).first('id')).id;
    const id = randomUUID();
    await db()('coverage').insert({
      id, org_id: orgId, facility_id: facility, resident_id: residentId, status: 'active', payor_name: 'Medicaid',
      subscriber_id: '*****0001A', period_start: '2025-01-01', coverage_order: 9, created_at: new Date().toISOString(),
    });
    return id;
  }

  it('walks every row once while rows are appended during the walk, new rows at the end', async () => {
    const before = await idsInOrder();
    const appended: string[] = [];
    const { ids } = await walk(7, async (page) => {
      if (page % 3 === 0) appended.push(await appendCoverage());
    });
    expect(ids).to.deep.equal([...before, ...appended]);
  });

  it('walks the same rows again from remembered anchors, and stays right after a delete', async () => {
    const first = await walk(7);
    expect((await walk(7)).ids).to.deep.equal(first.ids);
    const victim = first.ids[10]!; // on page 2
    await db()('coverage').where({ id: victim }).delete();
    const after = await walk(7);
    expect(after.ids).to.deep.equal(first.ids.filter((id) => id !== victim));
    expect(after.ids).to.deep.equal(await idsInOrder());
    expect(after.totals[0]).to.equal(first.totals[0]! - 1);
  });

  it('stays right after a row moves to another facility, and counts it there', async () => {
    const first = await walk(5);
    const moved = first.ids[3]!;
    const otherBefore = (await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${otherFacilityId}/coverage`, { token })).body.meta.page.total;
    await db()('coverage').where({ id: moved }).update({ facility_id: otherFacilityId });
    const after = await walk(5);
    expect(after.ids).to.deep.equal(first.ids.filter((id) => id !== moved));
    const other = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${otherFacilityId}/coverage`, { token });
    expect(other.body.meta.page.total).to.equal(otherBefore + 1);
    expect(other.body.data.map((c: { id: string }) => c.id)).to.include(moved);
  });

  it("stays right on a resident's list after a row changes resident", async () => {
    const [a, b] = await db()('residents').where({ facility_id: facilityId }).orderBy('seq').limit(2).pluck('id');
    const filter = `&resident_id=${a}`;
    const first = await walk(1, undefined, filter);
    expect(first.ids).to.deep.equal(await idsInOrder({ facility_id: facilityId, resident_id: a }));
    await db()('coverage').where({ id: first.ids[0] }).update({ resident_id: b });
    const after = await walk(1, undefined, filter);
    expect(after.ids).to.deep.equal(first.ids.slice(1));
  });

  it('answers a page past the end with no rows and the right total', async () => {
    const total = (await idsInOrder()).length;
    const response = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/coverage?page=1000&page_size=200`, { token });
    expect(response.body.data).to.deep.equal([]);
    expect(response.body.meta.page).to.deep.equal({ page: 1000, page_size: 200, total });
  });
});

// SQLite 3.53.0 (better-sqlite3 12.9, the driver on Node.js 20) ran `EXISTS (...)` as a join
// and counted OFFSET over the subquery's matches: under a payer-scoped policy a resident with
// two Coverages of its payers took two places, so a deeper page began a row early and repeated
// the last one shown (found by the reliability suite's policy worlds, TENANCY_SEED=4242).
// SQLite 3.53.2 (better-sqlite3 12.11) and 3.54 count each row once.
describe('list pagination under an access policy', () => {
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let token: string;
  /** The residents the payer-scoped credential sees, in list order. */
  const visible: string[] = [];

  before(async () => {
    service = await startTestService();
    const db = service.running.app.db;
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'policy pages')).id;
    // Seven residents: each visible one has two or three Coverages of the payer (by name, by id,
    // in another letter case), every third has only another payer's.
    for (let i = 0; i < 7; i++) {
      const id = randomUUID();
      await db('residents').insert({
        id, org_id: orgId, facility_id: facilityId, identifiers: '[]', family_name: `Doe ${i}`, given_names: '["Jo"]',
        gender: 'unknown', birth_date: '1940-01-01', active: true, created_at: new Date().toISOString(),
      });
      const payers: Array<[string, string | null]> = i % 3 === 2 ? [['Other Plan', 'OTHER-1']] : [['Acme Health', 'ACME-01'], ['ACME HEALTH', null], ...(i % 2 === 0 ? [['Beta Care', 'acme-01'] as [string, string]] : [])];
      for (const [n, [name, payorId]] of payers.entries()) {
        await db('coverage').insert({
          id: randomUUID(), org_id: orgId, facility_id: facilityId, resident_id: id, status: 'active', payor_name: name, payor_id: payorId,
          subscriber_id: `S${i}-${n}`, period_start: '2025-01-01', coverage_order: n + 1, created_at: new Date().toISOString(),
        });
      }
      if (i % 3 !== 2) visible.push(id);
    }
    const client = await createClient(db, { orgId, facilityIds: [facilityId], scopes: ALL_SCOPES, name: 'payer-scoped', policy: { ...DEFAULT_POLICY, purpose: 'HPAYMT', payers: ['acme health', 'acme-01'] } });
    token = await tokenFor(service.baseUrl, client);
  });
  after(() => service.close());

  for (const pageSize of [1, 2, 3]) {
    it(`shows each resident once on the residents list, pages of ${pageSize}, with the right total`, async () => {
      const ids: string[] = [];
      for (let page = 1; page <= 20; page++) {
        const response = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/residents?page=${page}&page_size=${pageSize}`, { token });
        expect(response.status).to.equal(200);
        expect(response.body.meta.page.total).to.equal(visible.length);
        if (response.body.data.length === 0) break;
        ids.push(...response.body.data.map((r: { id: string }) => r.id));
      }
      expect(ids).to.deep.equal(visible);
    });
  }

  it('shows each resident once in an R4 Patient search followed by its next links', async () => {
    const ids: string[] = [];
    let next: string | undefined = `/api/v1/fhir/R4/${orgId}/${facilityId}/Patient?_count=1&_total=accurate`;
    for (let n = 0; next !== undefined && n < 20; n++) {
      const response: TestResponse = await call(service.baseUrl, 'GET', next, { token, headers: { accept: 'application/fhir+json' } });
      expect(response.status).to.equal(200);
      ids.push(...(response.body.entry ?? []).map((e: { resource: { id: string } }) => e.resource.id));
      const link: { url: string } | undefined = (response.body.link as Array<{ relation: string; url: string }>).find((l) => l.relation === 'next');
      next = link ? new URL(link.url).pathname + new URL(link.url).search : undefined;
    }
    expect(ids).to.deep.equal(visible);
  });
});
