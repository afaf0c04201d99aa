import { expect } from 'chai';
import nock from 'nock';
import { createClientWithRuntime } from '../src/client.js';
import { type Page, PagedList, type PageOptions } from '../src/pagination.js';
import {
  API_HEADERS,
  BASE_URL,
  CLIENT_ID,
  CLIENT_SECRET,
  coverage,
  FACILITY_ID,
  FACILITY_PATH,
  listBody,
  ManualRuntime,
  mockToken,
  ORG_ID,
  patient,
  rejectionOf,
  uuid,
  useNock,
} from './fixtures/api.js';

const RESIDENTS = `${FACILITY_PATH}/residents`;

/** Replies to `page_size=<size>` lists from `rows`, as the API does, and counts the requests. */
function serveResidents(rows: number, pageSize: number): { requests: string[] } {
  const requests: string[] = [];
  nock(BASE_URL)
    .persist()
    .get(RESIDENTS)
    .query(true)
    .reply(function (uri) {
      const query = new URL(uri, BASE_URL).searchParams;
      requests.push(query.toString());
      const page = Number(query.get('page'));
      const size = Number(query.get('page_size'));
      const data = Array.from({ length: rows }, (_, i) => patient(i + 1)).slice((page - 1) * size, page * size);
      return [200, listBody(data, page, size, rows), API_HEADERS];
    });
  return { requests };
}

describe('pagination', () => {
  useNock();
  beforeEach(() => mockToken());
  const residents = () =>
    createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, new ManualRuntime()).facility(ORG_ID, FACILITY_ID)
      .residents;

  it('list() answers one page with camelCase page info', async () => {
    nock(BASE_URL).get(RESIDENTS).query({ page: '2', page_size: '3' }).reply(200, listBody([patient(4), patient(5), patient(6)], 2, 3, 7), API_HEADERS);
    const page = await residents().list({ page: 2, pageSize: 3 });
    expect(page.page).to.deep.equal({ page: 2, pageSize: 3, total: 7 });
    expect(page.data.map((p) => p.id)).to.deep.equal([uuid(4), uuid(5), uuid(6)]);
  });

  it('list() without options sends no paging parameters (the API defaults apply)', async () => {
    nock(BASE_URL).get(RESIDENTS).query({}).reply(200, listBody([patient(1)], 1, 50, 1), API_HEADERS);
    await residents().list();
  });

  it('all() yields every item across pages, in order, and stops at total without an extra request', async () => {
    const { requests } = serveResidents(7, 3);
    const ids: string[] = [];
    for await (const resident of residents().all({ pageSize: 3 })) ids.push(resident.id);
    expect(ids).to.deep.equal(Array.from({ length: 7 }, (_, i) => uuid(i + 1)));
    expect(requests).to.deep.equal(['page=1&page_size=3', 'page=2&page_size=3', 'page=3&page_size=3']);
  });

  it('all() asks for pages of 200 by default', async () => {
    const { requests } = serveResidents(2, 200);
    const items = [];
    for await (const resident of residents().all()) items.push(resident);
    expect(items).to.have.length(2);
    expect(requests).to.deep.equal(['page=1&page_size=200']);
  });

  it('pages() yields each page with its page info', async () => {
    serveResidents(5, 2);
    const seen: Array<[number, number]> = [];
    for await (const page of residents().pages({ pageSize: 2 })) seen.push([page.page.page, page.data.length]);
    expect(seen).to.deep.equal([
      [1, 2],
      [2, 2],
      [3, 1],
    ]);
  });

  it('yields nothing for an empty list', async () => {
    serveResidents(0, 200);
    const items = [];
    for await (const resident of residents().all()) items.push(resident);
    expect(items).to.deep.equal([]);
  });

  it('breaking out of all() stops fetching', async () => {
    const { requests } = serveResidents(10, 2);
    for await (const resident of residents().all({ pageSize: 2 })) if (resident.id === uuid(3)) break;
    expect(requests).to.have.length(2);
  });

  it('reaches rows inserted while walking (total grows), then stops at an empty page', async () => {
    // Page 1 says total 2; by page 2 a third row exists; page 3 is past the end.
    nock(BASE_URL).get(RESIDENTS).query({ page: '1', page_size: '2' }).reply(200, listBody([patient(1), patient(2)], 1, 2, 3), API_HEADERS);
    nock(BASE_URL).get(RESIDENTS).query({ page: '2', page_size: '2' }).reply(200, listBody([patient(3), patient(4)], 2, 2, 5), API_HEADERS);
    nock(BASE_URL).get(RESIDENTS).query({ page: '3', page_size: '2' }).reply(200, listBody([], 3, 2, 4), API_HEADERS);
    const ids: string[] = [];
    for await (const resident of residents().all({ pageSize: 2 })) ids.push(resident.id);
    expect(ids).to.deep.equal([uuid(1), uuid(2), uuid(3), uuid(4)]);
  });

  it('stops at a short page even if total claims more', async () => {
    nock(BASE_URL).get(RESIDENTS).query({ page: '1', page_size: '3' }).reply(200, listBody([patient(1)], 1, 3, 9), API_HEADERS);
    const ids: string[] = [];
    for await (const resident of residents().all({ pageSize: 3 })) ids.push(resident.id);
    expect(ids).to.deep.equal([uuid(1)]);
  });

  it('toArray({ limit }) collects at most limit items and fetches no further', async () => {
    const { requests } = serveResidents(10, 4);
    const items = await residents().toArray({ limit: 5, pageSize: 4 });
    expect(items.map((p) => p.id)).to.deep.equal([1, 2, 3, 4, 5].map(uuid));
    expect(requests).to.have.length(2);
  });

  it('toArray() uses the limit as page size when it is below 200', async () => {
    const { requests } = serveResidents(10, 3);
    expect(await residents().toArray({ limit: 3 })).to.have.length(3);
    expect(requests).to.deep.equal(['page=1&page_size=3']);
  });

  for (const [label, options] of [
    ['no options', undefined],
    ['no limit', {}],
    ['a string limit', { limit: '10' }],
    ['limit 0', { limit: 0 }],
    ['an infinite limit', { limit: Infinity }],
  ] as const) {
    it(`toArray() refuses ${label} without sending a request`, async () => {
      nock.cleanAll();
      const error = await rejectionOf(residents().toArray(options as never));
      expect(error).to.be.instanceOf(TypeError);
      expect((error as Error).message).to.contain('limit');
    });
  }

  it('passes the filter on every page', async () => {
    const residentId = uuid(42);
    nock(BASE_URL)
      .get(`${FACILITY_PATH}/coverage`)
      .query({ resident_id: residentId, page: '1', page_size: '1' })
      .reply(200, listBody([coverage(1, residentId)], 1, 1, 2), API_HEADERS);
    nock(BASE_URL)
      .get(`${FACILITY_PATH}/coverage`)
      .query({ resident_id: residentId, page: '2', page_size: '1' })
      .reply(200, listBody([coverage(2, residentId)], 2, 1, 2), API_HEADERS);
    const client = createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, new ManualRuntime());
    const items = await client.facility(ORG_ID, FACILITY_ID).coverage.toArray({ residentId, limit: 10, pageSize: 1 });
    expect(items.map((c) => c.id)).to.deep.equal([uuid(1), uuid(2)]);
  });
});

describe('PagedList', () => {
  it('passes the signal to every page request', async () => {
    const signals: Array<AbortSignal | undefined> = [];
    const list = new PagedList<number>(async (options: PageOptions): Promise<Page<number>> => {
      signals.push(options.signal);
      return { data: options.page === 1 ? [1] : [2], page: { page: options.page ?? 1, pageSize: 1, total: 2 } };
    });
    const controller = new AbortController();
    expect(await list.toArray({ limit: 5, signal: controller.signal })).to.deep.equal([1, 2]);
    expect(signals).to.deep.equal([controller.signal, controller.signal]);
  });
});
