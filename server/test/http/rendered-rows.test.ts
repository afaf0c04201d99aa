// A list's rows serialized once per version: the same bytes as serializing the page whole,
// a changed row rendered again, the text kept bounded.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RenderedRows } from '../../src/http/rendered-rows.js';
import { list, listText } from '../../src/http/envelope.js';
import { toCoverage, type CoverageRow } from '../../src/resources/fhir-coverage.js';

function coverageRow(overrides: Partial<CoverageRow> = {}): CoverageRow {
  return {
    seq: 1, id: randomUUID(), resident_id: randomUUID(), status: 'active', payor_name: 'Medicare Part A', subscriber_id: '1EG4TE5MK73',
    period_start: '2024-01-01', coverage_order: 1, version_id: 1, last_updated: '2026-11-20T10:00:00.000Z', ...overrides,
  };
}

describe('rendered rows', () => {
  it('writes a page byte for byte as serializing the whole envelope would', () => {
    // Escapes, non-ASCII, an empty page, a page with a cursor.
    const rows = [coverageRow({ payor_name: 'Mutuelle "Générale" \\ 东方 \u2028' }), coverageRow({ subscriber_id: '' }), coverageRow()];
    const rendered = new RenderedRows(toCoverage);
    for (const page of [{ page: 1, page_size: 3, total: 7 }, { page: 2, page_size: 3, total: 7, next: 'eyJzIjozfQ' }]) {
      for (const data of [rows, []]) {
        expect(listText(data.map((r) => rendered.jsonOf(r)), page)).to.equal(JSON.stringify(list(data.map(toCoverage), page)));
      }
    }
  });

  it('renders a row once per version, and again when its version or last change moves', () => {
    let renders = 0;
    const rendered = new RenderedRows((row: CoverageRow) => {
      renders++;
      return toCoverage(row);
    });
    const row = coverageRow();
    expect(rendered.jsonOf(row)).to.equal(rendered.jsonOf({ ...row }));
    expect(renders).to.equal(1);
    const changed = { ...row, version_id: 2, last_updated: '2026-11-21T10:00:00.000Z', status: 'cancelled' as const };
    expect(JSON.parse(rendered.jsonOf(changed))).to.deep.include({ status: 'cancelled', meta: { versionId: '2', lastUpdated: '2026-11-21T10:00:00.000Z' } });
    // The same version number with another last change (a database restored from a backup).
    const restored = { ...changed, last_updated: '2026-11-22T10:00:00.000Z' };
    expect(JSON.parse(rendered.jsonOf(restored)).meta.lastUpdated).to.equal('2026-11-22T10:00:00.000Z');
    expect(renders).to.equal(3);
    expect(rendered.size).to.equal(1);
  });

  it('keeps at most the characters it is given, dropping the oldest rows first', () => {
    const rows = Array.from({ length: 10 }, () => coverageRow());
    const one = JSON.stringify(toCoverage(rows[0]!)).length;
    let renders = 0;
    const rendered = new RenderedRows((row: CoverageRow) => {
      renders++;
      return toCoverage(row);
    }, one * 4);
    for (const row of rows) rendered.jsonOf(row);
    expect(rendered.size).to.equal(4);
    renders = 0;
    // The last four are kept; the first is rendered again.
    for (const row of rows.slice(6)) rendered.jsonOf(row);
    expect(renders).to.equal(0);
    rendered.jsonOf(rows[0]!);
    expect(renders).to.equal(1);
    expect(rendered.size).to.equal(4);
  });

  it('asks for the rows\' keys only once recent pages found their rows kept, and for whole rows again once they did not', () => {
    const rendered = new RenderedRows(toCoverage);
    expect(rendered.mostlyKept).to.equal(false);
    let pages = 0;
    while (!rendered.mostlyKept) {
      rendered.notePage(50, 50);
      pages++;
    }
    expect(pages).to.be.within(10, 20);
    // Empty pages say nothing.
    rendered.notePage(0, 0);
    expect(rendered.mostlyKept).to.equal(true);
    // A walk over rows never read before: whole rows again within a few pages.
    pages = 0;
    while (rendered.mostlyKept) {
      rendered.notePage(0, 50);
      pages++;
    }
    expect(pages).to.be.within(1, 4);
  });
});
