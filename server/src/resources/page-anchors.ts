// Where pages of a list begin. A list is in `seq` order and rows only ever append, so the
// last `seq` of a full page is where the next page begins, for good, until a row of the list
// is deleted, moved or changes resident, which changes the facility's layout version (kept by
// triggers, see db/migrations/resource-counters.ts). Remembering anchors makes walking pages
// in order, and reading a page again, an index range scan instead of an OFFSET over every
// row before it. Bounded; per process (each instance learns its own, all agree).
const MAX_ANCHORS = 20_000;

export class PageAnchors {
  private readonly anchors = new Map<string, number>();

  static key(table: string, facilityId: string, residentId: string | undefined, pageSize: number, page: number, layoutVersion: number): string {
    return `${table}|${facilityId}|${residentId ?? ''}|${pageSize}|${page}|${layoutVersion}`;
  }

  /** The `seq` that rows of the page come after, if known. */
  get(key: string): number | undefined {
    return this.anchors.get(key);
  }

  set(key: string, afterSeq: number): void {
    if (this.anchors.size >= MAX_ANCHORS && !this.anchors.has(key)) this.anchors.delete(this.anchors.keys().next().value!);
    this.anchors.set(key, afterSeq);
  }
}
