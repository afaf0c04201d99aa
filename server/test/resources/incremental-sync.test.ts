// Incremental sync on the spec's lists: _lastUpdated, the keyset cursor of meta.page.next,
// and conditional reads (ETag / If-None-Match -> 304), while data changes underneath.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor } from '../../../test/support/http.js';
import { applyOne, coverageResource, dischargeResident, touchCoverage } from '../../../test/support/resource-changes.js';
import { fetchResourcePage } from '../../src/resources/pagination.js';
import { list } from '../../src/http/envelope.js';
import { digestTag } from '../../src/http/conditional-get.js';
import { toCoverage, type CoverageRow } from '../../src/resources/fhir-coverage.js';

describe('incremental sync on the resource lists', function () {
  this.timeout(60_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let token: string;
  let base: string;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'synced')).id;
    await service.seed.data({ orgId, facilityId, residents: 12 });
    const client = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
    token = await tokenFor(service.baseUrl, client);
    base = `/api/v1/ofctx/${orgId}/${facilityId}`;
  });
  after(() => service.close());

  const db = () => service.running.app.db;
  const get = (path: string, headers: Record<string, string> = {}) => call(service.baseUrl, 'GET', path, { token, headers });
  type Coverage = { id: string; meta: { versionId: string; lastUpdated: string } };

  /** Follows meta.page.next from a first URL; `between` runs after each page. */
  async function follow(first: string, between?: (page: number) => Promise<void>): Promise<{ seen: Coverage[]; pages: number }> {
    const seen: Coverage[] = [];
    let url: string | undefined = first;
    let pages = 0;
    while (url && pages < 200) {
      const response = await get(url);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      seen.push(...(response.body.data as Coverage[]));
      pages++;
      await between?.(pages);
      const next = response.body.meta.page.next as string | undefined;
      url = next === undefined ? undefined : `${base}/coverage?cursor=${next}&page_size=${response.body.meta.page.page_size}`;
    }
    return { seen, pages };
  }

  it('orders a _lastUpdated list by (lastUpdated, id) and filters with gt/ge/lt/le, twice for a range', async () => {
    const all = await db()('coverage').where({ facility_id: facilityId }).orderBy([{ column: 'last_updated' }, { column: 'id' }]).select('id', 'last_updated');
    const { seen } = await follow(`${base}/coverage?_lastUpdated=ge1970-01-01&page_size=7`);
    expect(seen.map((c) => c.id)).to.deep.equal(all.map((r) => r.id));
    const touched = await touchCoverage(db(), orgId, facilityId, all[0]!.id, '0001A');
    const after = await get(`${base}/coverage?_lastUpdated=gt${all[all.length - 1]!.last_updated}`);
    expect(after.body.data.map((c: Coverage) => c.id)).to.deep.equal([touched.id]);
    expect(after.body.data[0].meta).to.deep.equal({ versionId: String(touched.versionId), lastUpdated: touched.lastUpdated });
    const range = await get(`${base}/coverage?_lastUpdated=ge${touched.lastUpdated}&_lastUpdated=le${touched.lastUpdated}`);
    expect(range.body.data.map((c: Coverage) => c.id)).to.deep.equal([touched.id]);
    const before = await get(`${base}/coverage?_lastUpdated=lt${touched.lastUpdated}&page_size=200`);
    expect(before.body.meta.page.total).to.equal(all.length - 1);
    expect(before.body.data.map((c: Coverage) => c.id)).to.not.include(touched.id);
  });

  it('neither skips nor repeats a row while rows are written during a paged sync, and ends with the newest versions', async () => {
    const mark = (await db()('coverage').where({ facility_id: facilityId }).max({ m: 'last_updated' }).first())!.m as string;
    const start = await db()('coverage').where({ facility_id: facilityId }).orderBy([{ column: 'last_updated' }, { column: 'id' }]).pluck('id');
    const template = await coverageResource(db(), start[0]!);
    const created: string[] = [];
    const changed: Array<{ id: string; versionId: number }> = [];
    const { seen, pages } = await follow(`${base}/coverage?_lastUpdated=ge1970-01-01&page_size=5`, async (page) => {
      if (page % 2 === 0) created.push((await applyOne(db(), orgId, facilityId, { ...template, subscriberId: `*****N${page}` })).id);
      // A row not yet read changes: it moves to the end, read once, at its new version.
      if (page === 1) changed.push(await touchCoverage(db(), orgId, facilityId, start[start.length - 1]!, 'CHG1A'));
    });
    expect(pages).to.be.greaterThan(3);
    const ids = seen.map((c) => c.id);
    expect(new Set(ids).size, 'no row repeated').to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal([...start, ...created].sort());
    expect(seen.find((c) => c.id === changed[0]!.id)!.meta.versionId).to.equal(String(changed[0]!.versionId));
    // Rows written during the walk come after every row that was there when it began.
    expect(ids.slice(-created.length)).to.deep.equal(created);
    expect(seen.slice(-created.length).every((c) => c.meta.lastUpdated > mark)).to.equal(true);
  });

  it('walks the page-numbered order with the cursor too, appended rows once at the end', async () => {
    const expected = await db()('coverage').where({ facility_id: facilityId }).orderBy('seq').pluck('id');
    const template = await coverageResource(db(), expected[0]!);
    const appended: string[] = [];
    const { seen } = await follow(`${base}/coverage?page_size=9`, async (page) => {
      if (page === 2) appended.push((await applyOne(db(), orgId, facilityId, { ...template, subscriberId: '*****APP1A' })).id);
    });
    expect(seen.map((c) => c.id)).to.deep.equal([...expected, ...appended]);
  });

  it('answers the page-numbered lists byte for byte as the spec path renders them, plus the cursor of a non-last page', async () => {
    for (const page of [1, 2, 4]) {
      const response = await fetch(`${service.baseUrl}${base}/coverage?page=${page}&page_size=5`, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      const { rows, page: info } = await fetchResourcePage<CoverageRow>(db(), 'coverage', { facility_id: facilityId }, { page, page_size: 5 });
      const before = JSON.stringify(list(rows.map(toCoverage), info));
      const next = JSON.parse(text).meta.page.next as string | undefined;
      expect(text).to.equal(next === undefined ? before : before.replace(`"total":${info.total}}`, `"total":${info.total},"next":"${next}"}`));
    }
  });

  it('keeps the page-numbered answer as it was, apart from the cursor of a non-last page', async () => {
    const total = Number((await db()('coverage').where({ facility_id: facilityId }).count({ n: '*' }).first())!.n);
    const first = await get(`${base}/coverage?page=1&page_size=10`);
    expect(Object.keys(first.body.meta.page)).to.deep.equal(['page', 'page_size', 'total', 'next']);
    const last = await get(`${base}/coverage?page=${Math.ceil(total / 10)}&page_size=10`);
    expect(last.body.meta.page).to.deep.equal({ page: Math.ceil(total / 10), page_size: 10, total });
  });

  it('answers ETag W/"<versionId>" on reads and 304 without a body to a matching If-None-Match', async () => {
    const id = (await db()('coverage').where({ facility_id: facilityId }).first('id')).id as string;
    const read = await get(`${base}/coverage/${id}`);
    expect(read.headers.get('etag')).to.equal(`W/"${read.body.data.meta.versionId}"`);
    const unchanged = await get(`${base}/coverage/${id}`, { 'If-None-Match': read.headers.get('etag')! });
    expect(unchanged.status).to.equal(304);
    expect(unchanged.body).to.equal(undefined);
    expect(unchanged.headers.get('etag')).to.equal(read.headers.get('etag'));
    await touchCoverage(db(), orgId, facilityId, id, 'ETAG1');
    const changed = await get(`${base}/coverage/${id}`, { 'If-None-Match': read.headers.get('etag')! });
    expect(changed.status).to.equal(200);
    expect(changed.headers.get('etag')).to.equal(`W/"${Number(read.body.data.meta.versionId) + 1}"`);
  });

  it('answers a weak ETag on lists and 304 while the page is unchanged', async () => {
    const list = await get(`${base}/residents?page_size=5`);
    const etag = list.headers.get('etag')!;
    expect(etag).to.match(/^W\/".+"$/);
    expect((await get(`${base}/residents?page_size=5`, { 'If-None-Match': etag })).status).to.equal(304);
    expect((await get(`${base}/residents?page_size=6`, { 'If-None-Match': etag })).status).to.equal(200);
  });

  it('tags a list with the digest of the very bytes it answers, sent as JSON', async () => {
    const response = await fetch(`${service.baseUrl}${base}/coverage?page_size=7`, { headers: { authorization: `Bearer ${token}` } });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).to.equal(bytes.length);
    expect(response.headers.get('etag')).to.equal(`W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`);
    expect(response.headers.get('etag')).to.equal(digestTag(JSON.parse(bytes.toString('utf8'))));
  });

  it('keeps a discharged resident readable with active: false, and a sync sees the discharge', async () => {
    const resident = await db()('residents').where({ facility_id: facilityId, active: true }).first();
    const mark = (await db()('residents').where({ facility_id: facilityId }).max({ m: 'last_updated' }).first())!.m as string;
    await dischargeResident(db(), orgId, facilityId, resident.id);
    const read = await get(`${base}/residents/${resident.id}`);
    expect(read.status).to.equal(200);
    expect(read.body.data.active).to.equal(false);
    const changes = await get(`${base}/residents?_lastUpdated=gt${mark}`);
    expect(changes.body.data.map((p: { id: string; active: boolean }) => [p.id, p.active])).to.deep.equal([[resident.id, false]]);
  });

  it('rejects bad _lastUpdated values, page numbers with _lastUpdated, and foreign or forged cursors with 400', async () => {
    for (const query of ['_lastUpdated=2026-01-01', '_lastUpdated=eq2026-01-01', '_lastUpdated=gt2026-13-45', '_lastUpdated=gt2026-01-01T10:00:00',
      '_lastUpdated=gt2026-01-01&_lastUpdated=lt2027-01-01&_lastUpdated=lt2028-01-01', '_lastUpdated=gt2026-01-01&page=2', 'cursor=bm90LWpzb24', 'cursor=%25%25']) {
      const response = await get(`${base}/coverage?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.code, query).to.equal('invalid_parameter');
    }
    const coverage = await get(`${base}/coverage?_lastUpdated=ge1970-01-01&page_size=2`);
    const elsewhere = await get(`${base}/residents?cursor=${coverage.body.meta.page.next}`);
    expect(elsewhere.status).to.equal(400);
    expect(elsewhere.body.error.details[0].field).to.equal('query.cursor');
    const otherFilter = await get(`${base}/coverage?cursor=${coverage.body.meta.page.next}&_lastUpdated=ge2000-01-01`);
    expect(otherFilter.status).to.equal(400);
  });
});
