import { expect } from 'chai';
import nock from 'nock';
import { createClientWithRuntime } from '../src/client.js';
import { API_HEADERS, BASE_URL, CLIENT_ID, CLIENT_SECRET, coverage, FACILITY_ID, FACILITY_PATH, ManualRuntime, mockToken, ORG_ID, useNock } from './fixtures/api.js';

const COVERAGE = `${FACILITY_PATH}/coverage`;

/** A coverage record changed at `lastUpdated`. */
function changed(n: number, lastUpdated: string, versionId = '2') {
  return { ...coverage(n), meta: { versionId, lastUpdated } };
}

function page(data: unknown[], next?: string) {
  return { data, meta: { page: { page: 1, page_size: 2, total: 3, ...(next ? { next } : {}) } }, error: null };
}

describe('changedSince (resumable incremental sync)', () => {
  useNock();
  beforeEach(() => mockToken());
  const facility = () => createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, new ManualRuntime()).facility(ORG_ID, FACILITY_ID);

  it('asks for _lastUpdated=gt<mark>, follows meta.page.next with cursor, and ends at the newest change', async () => {
    nock(BASE_URL).get(COVERAGE).query({ _lastUpdated: 'gt2026-11-20T10:00:00.000Z', page_size: '2' })
      .reply(200, page([changed(1, '2026-11-20T10:00:01.000Z'), changed(2, '2026-11-20T10:00:02.000Z')], 'CURSOR1'), API_HEADERS);
    nock(BASE_URL).get(COVERAGE).query({ cursor: 'CURSOR1', page_size: '2' }).reply(200, page([changed(3, '2026-11-20T10:00:03.000Z')]), API_HEADERS);
    const feed = facility().coverage.changedSince('2026-11-20T10:00:00Z', { pageSize: 2 });
    expect(feed.mark).to.equal('2026-11-20T10:00:00.000Z');
    const seen: string[] = [];
    for await (const record of feed) seen.push(record.meta.lastUpdated);
    expect(seen).to.deep.equal(['2026-11-20T10:00:01.000Z', '2026-11-20T10:00:02.000Z', '2026-11-20T10:00:03.000Z']);
    expect(feed.mark).to.equal('2026-11-20T10:00:03.000Z');
  });

  it('keeps the mark before an instant until all its records were handed out, so stopping early never skips one', async () => {
    const same = '2026-11-20T10:00:05.000Z';
    nock(BASE_URL).get(COVERAGE).query(true)
      .reply(200, page([changed(1, '2026-11-20T10:00:04.000Z'), changed(2, same), changed(3, same)]), API_HEADERS);
    const feed = facility().coverage.changedSince(new Date('2026-11-20T10:00:00Z'));
    let handed = 0;
    for await (const _record of feed) {
      handed++;
      if (handed === 2) break; // one of the two records of `same` handed out
    }
    expect(feed.mark).to.equal('2026-11-20T10:00:04.000Z');
  });

  it('leaves the mark where it was when nothing changed, and passes the resident filter', async () => {
    nock(BASE_URL).get(COVERAGE).query({ _lastUpdated: 'gt2026-11-20T10:00:00.000Z', page_size: '200', resident_id: coverage(1).beneficiary.reference.slice(8) })
      .reply(200, page([]), API_HEADERS);
    const feed = facility().coverage.changedSince('2026-11-20T10:00:00Z', { residentId: coverage(1).beneficiary.reference.slice(8) });
    for await (const _record of feed) throw new Error('no change expected');
    expect(feed.mark).to.equal('2026-11-20T10:00:00.000Z');
  });

  it('refuses an instant without a zone or that is not a date, before any request', () => {
    nock.cleanAll();
    for (const bad of ['2026-11-20T10:00:00', 'yesterday', new Date('nope')]) {
      expect(() => facility().coverage.changedSince(bad), String(bad)).to.throw(TypeError, /ISO 8601 instant with a zone/);
    }
  });
});
