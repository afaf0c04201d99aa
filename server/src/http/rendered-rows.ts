// Each row version of a list serialized once, not once per request. What a renderer returns
// depends on the row alone, and every write that changes a row bumps its version_id and sets
// its last_updated (ingest/apply-change-set.ts, the one writer; reads' ETags rely on it too),
// so the JSON text of (id, version_id, last_updated) is the same on every page that holds it.
// A partner polling a list gets the same rows request after request: JSON.stringify of a page
// of 50 Coverages cost about 55 µs a request, joining the rows' texts about 10 µs
// (docs/benchmarks.md); and while most rows are kept, the list reads only their keys. Per
// process (instances keep their own, nothing to share), bounded by characters kept, oldest
// first out.
import type { ResourceRow } from '../db/resource-row.js';

interface Rendered {
  versionId: number | string;
  lastUpdated: string;
  json: string;
}

/** Loosely equal versions: one may come as a number, the other as a string (PostgreSQL's bigint, per reader). */
function isVersionOf(kept: Rendered, row: Pick<ResourceRow, 'version_id' | 'last_updated'>): boolean {
  return kept.versionId == row.version_id && kept.lastUpdated === row.last_updated;
}

/** About 16 MB of text per renderer at most (one-byte strings: FHIR JSON is mostly ASCII). */
export const RENDERED_CHARACTERS_KEPT = 16 * 1024 * 1024;

export class RenderedRows<Row extends ResourceRow> {
  private readonly byId = new Map<string, Rendered>();
  private characters = 0;
  /** Moving average of the share of a page's rows found kept. */
  private keptShare = 0;

  constructor(
    private readonly render: (row: Row) => unknown,
    private readonly charactersKept = RENDERED_CHARACTERS_KEPT,
  ) {}

  /** The text kept for this version of the row (its keys are enough), or undefined. */
  keptJsonOf(row: Pick<Row, 'id' | 'version_id' | 'last_updated'>): string | undefined {
    const kept = this.byId.get(row.id);
    return kept !== undefined && isVersionOf(kept, row) ? kept.json : undefined;
  }

  /** `JSON.stringify(render(row))`, from the text kept for this version of the row when there is one. */
  jsonOf(row: Row): string {
    const kept = this.byId.get(row.id);
    if (kept !== undefined && isVersionOf(kept, row)) return kept.json;
    const json = JSON.stringify(this.render(row));
    if (kept !== undefined) {
      this.byId.delete(row.id);
      this.characters -= kept.json.length;
    }
    if (json.length <= this.charactersKept) {
      this.byId.set(row.id, { versionId: row.version_id, lastUpdated: row.last_updated, json });
      this.characters += json.length;
      this.evictOldest();
    }
    return json;
  }

  /** Rows kept (tests, metrics). */
  get size(): number {
    return this.byId.size;
  }

  /**
   * Whether recent pages found their rows kept (three in four or more, a moving average over
   * about the last ten pages): then a list reads its rows' keys and only the others whole
   * (pagination.ts ListedColumns). A partner walking a facility once finds nothing kept, and
   * its pages are read whole at once rather than twice.
   */
  get mostlyKept(): boolean {
    return this.keptShare >= 0.75;
  }

  /** After a page: how many of its rows were found kept. */
  notePage(kept: number, rows: number): void {
    if (rows > 0) this.keptShare = this.keptShare * 0.9 + (kept / rows) * 0.1;
  }

  private evictOldest(): void {
    if (this.characters <= this.charactersKept) return;
    // A Map iterates in insertion order: the first entries are the oldest kept.
    for (const [id, rendered] of this.byId) {
      this.byId.delete(id);
      this.characters -= rendered.json.length;
      if (this.characters <= this.charactersKept) return;
    }
  }
}
