// Resumable incremental sync: every record of a list changed after a mark, oldest change
// first, and the mark to resume from next time.
//
// The API orders a `_lastUpdated` list by (meta.lastUpdated, id) and gives a later write a
// later lastUpdated, so `_lastUpdated=gt<mark>` followed through `meta.page.next` sees each
// change after the mark once. One write (one ingest transaction) stamps all its records
// with the same instant, so the mark only moves past an instant once every record of it
// has been handed out: stopping in the middle of one instant and resuming repeats that
// instant's records (at least once), it never skips one.
import type { CallOptions, Page, PageOptions } from './pagination.js';
import { MAX_PAGE_SIZE } from './pagination.js';

export interface Versioned {
  meta: { versionId: string; lastUpdated: string };
}

export interface ChangedSinceOptions extends CallOptions {
  /** Rows per request, 1 to 200. Default 200 (fewest requests). */
  pageSize?: number | undefined;
}

/** An instant as the API compares it: ISO 8601 UTC with milliseconds. */
export function toInstant(since: Date | string, name = 'since'): string {
  const ms = since instanceof Date ? since.getTime() : typeof since === 'string' && /[zZ]|[+-]\d{2}:\d{2}$/.test(since) ? Date.parse(since) : NaN;
  if (!Number.isFinite(ms)) {
    throw new TypeError(`${name} must be a Date or an ISO 8601 instant with a zone (such as 2026-11-20T10:00:00Z); got ${String(since)}.`);
  }
  return new Date(ms).toISOString();
}

export class ChangeFeed<T extends Versioned> implements AsyncIterable<T> {
  #mark: string;

  constructor(
    private readonly listPage: (options: PageOptions) => Promise<Page<T>>,
    since: Date | string,
    private readonly options: ChangedSinceOptions = {},
  ) {
    this.#mark = toInstant(since);
  }

  /**
   * The high-water mark: every change up to this instant has been handed out. Store it and
   * resume with `changedSince(mark)`. Before iterating, the instant the feed started from.
   */
  get mark(): string {
    return this.#mark;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const { pageSize = MAX_PAGE_SIZE, signal } = this.options;
    let cursor: string | undefined;
    let pending: string | undefined;
    do {
      const page = await this.listPage(cursor === undefined ? { lastUpdated: `gt${this.#mark}`, pageSize, signal } : { cursor, pageSize, signal });
      for (const item of page.data) {
        const instant = item.meta.lastUpdated;
        // Every record of the previous instant was handed out: the mark may move past it.
        if (pending !== undefined && instant > pending) this.#mark = pending;
        pending = instant;
        yield item;
      }
      cursor = page.page.next;
    } while (cursor !== undefined);
    if (pending !== undefined) this.#mark = pending;
  }
}
