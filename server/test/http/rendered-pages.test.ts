// A list page's answer kept while its rows and numbers are the same: given back only for the
// very rows it was built from, rebuilt when one of them moves, bounded.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RenderedPages, type PageAnswer } from '../../src/http/rendered-pages.js';
import { RenderedJson } from '../../src/http/rendered-json.js';

const row = () => ({ id: randomUUID(), version_id: 1, last_updated: '2026-11-20T10:00:00.000Z' });
const answer = (text: string): PageAnswer => ({ body: RenderedJson.ofText(text), etag: `W/"${text}"`, resourceIds: [], disclosures: [] });

describe('rendered pages', () => {
  const page = { page: 1, page_size: 3, total: 7 };

  it('gives the kept answer back for the same rows and numbers, whatever the objects that carry them', () => {
    const pages = new RenderedPages();
    const rows = [row(), row(), row()];
    const kept = answer('a');
    pages.keep('client 1', rows, page, kept);
    // Read again: new row objects, a version as PostgreSQL's bigint text.
    expect(pages.answerOf('client 1', rows.map((r) => ({ ...r, version_id: String(r.version_id) })), { ...page })).to.equal(kept);
  });

  it('builds again when a row, its version, its last change, the order or the numbers differ, or under another key', () => {
    const pages = new RenderedPages();
    const rows = [row(), row(), row()];
    pages.keep('client 1', rows, page, answer('a'));
    const changed = [
      [rows[0]!, { ...rows[1]!, version_id: 2 }, rows[2]!],
      [rows[0]!, { ...rows[1]!, last_updated: '2026-11-21T10:00:00.000Z' }, rows[2]!],
      [rows[0]!, row(), rows[2]!],
      [rows[1]!, rows[0]!, rows[2]!],
      rows.slice(0, 2),
    ];
    for (const other of changed) expect(pages.answerOf('client 1', other, page)).to.equal(undefined);
    for (const numbers of [{ ...page, total: 8 }, { ...page, page: 2 }, { ...page, page_size: 4 }, { ...page, next: 'eyJzIjozfQ' }]) {
      expect(pages.answerOf('client 1', rows, numbers)).to.equal(undefined);
    }
    expect(pages.answerOf('client 2', rows, page)).to.equal(undefined);
    expect(pages.answerOf('client 1', rows, page)).to.not.equal(undefined);
  });

  it('keeps a bounded number of pages, the least recently used dropped first', () => {
    const pages = new RenderedPages(2);
    const rows = [row()];
    pages.keep('a', rows, page, answer('a'));
    pages.keep('b', rows, page, answer('b'));
    expect(pages.answerOf('a', rows, page)).to.not.equal(undefined);
    pages.keep('c', rows, page, answer('c'));
    expect(pages.size).to.equal(2);
    expect(pages.answerOf('b', rows, page)).to.equal(undefined);
    expect(pages.answerOf('a', rows, page)).to.not.equal(undefined);
    expect(pages.answerOf('c', rows, page)).to.not.equal(undefined);
  });

  it('keeps a bounded number of bytes, the least recently used dropped first, and no page larger than the bound', () => {
    // Each answer 1,000 bytes (and a row's ids, about 96 more): three fit in 3,500 bytes, four do not.
    const pages = new RenderedPages(100, 3_500);
    const rows = [row()];
    for (const key of ['a', 'b', 'c']) pages.keep(key, rows, page, answer(key.repeat(1_000)));
    expect(pages.size).to.equal(3);
    expect(pages.answerOf('a', rows, page)).to.not.equal(undefined);
    pages.keep('d', rows, page, answer('d'.repeat(1_000)));
    expect(pages.size).to.equal(3);
    expect(pages.answerOf('b', rows, page)).to.equal(undefined);
    expect(pages.keptBytes).to.be.at.most(3_500);
    // Kept again under its key: counted once.
    pages.keep('d', rows, page, answer('e'.repeat(1_000)));
    expect(pages.size).to.equal(3);
    expect(pages.keptBytes).to.equal(3 * 1_096);
    pages.keep('huge', rows, page, answer('h'.repeat(4_000)));
    expect(pages.answerOf('huge', rows, page)).to.equal(undefined);
    expect(pages.size).to.equal(3);
  });
});
