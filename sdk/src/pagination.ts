// Pages of a list operation and walking all of them. Lists answer
// `meta.page = { page, page_size, total }`; the SDK hands it out as `{ page, pageSize, total }`.
import type { components } from './generated/openapi.js';

export interface PageInfo {
  /** 1-based page number. */
  page: number;
  /** Rows per page the API applied. */
  pageSize: number;
  /** Rows matching the query when this page was read. */
  total: number;
  /** The cursor of the following page (pass it as `cursor`); absent on the last page. */
  next?: string;
}

export interface Page<T> {
  data: T[];
  page: PageInfo;
}

export interface CallOptions {
  /** Aborts the call (and its retries); it then rejects with RequestAbortedError. */
  signal?: AbortSignal | undefined;
}

export interface PageOptions extends CallOptions {
  /** 1-based; the API's default is 1. */
  page?: number | undefined;
  /** 1 to 200; the API's default is 50. */
  pageSize?: number | undefined;
  /**
   * FHIR `_lastUpdated` with a prefix (gt, ge, lt, le), such as `gt2026-11-20T10:00:00Z`;
   * two for a range. Orders the list by (lastUpdated, id); follow `page.next` with `cursor`.
   */
  lastUpdated?: string | [string, string] | undefined;
  /** `page.next` of the previous page: the following page (the cursor carries the filter). */
  cursor?: string | undefined;
}

export interface WalkOptions extends CallOptions {
  /** Rows per request while walking, 1 to 200. Default 200 (fewest requests). */
  pageSize?: number | undefined;
}

export interface ToArrayOptions extends WalkOptions {
  /** Required: the most items to collect, so a large list cannot exhaust memory unnoticed. */
  limit: number;
}

/** The API's largest page size and page number (openapi.yaml, parameters Page and PageSize). */
export const MAX_PAGE_SIZE = 200;
const MAX_PAGE_NUMBER = 1_000_000;

export function pageFromEnvelope<T>(envelope: { data: T[]; meta: components['schemas']['PageMeta'] }): Page<T> {
  const { page, page_size, total, next } = envelope.meta.page;
  return { data: envelope.data, page: next === undefined ? { page, pageSize: page_size, total } : { page, pageSize: page_size, total, next } };
}

/**
 * A list operation with list(), pages(), all() and toArray(). `Filter` is what the
 * operation filters on besides paging (such as `residentId`).
 */
export class PagedList<T, Filter extends object = {}> {
  constructor(private readonly listPage: (options: Filter & PageOptions) => Promise<Page<T>>) {}

  /** One page. */
  list(options?: Filter & PageOptions): Promise<Page<T>> {
    return this.listPage((options ?? {}) as Filter & PageOptions);
  }

  /**
   * Every non-empty page, in order. Stops at an empty page, a short page, or once `total`
   * rows were seen; `total` is re-read on every page, so rows added while walking (they
   * are appended, the order being creation order) are still reached.
   */
  async *pages(options?: Filter & WalkOptions): AsyncGenerator<Page<T>, void, undefined> {
    const { pageSize = MAX_PAGE_SIZE, ...rest } = options ?? ({} as Filter & WalkOptions);
    let seen = 0;
    for (let page = 1; page <= MAX_PAGE_NUMBER; page += 1) {
      const result = await this.listPage({ ...rest, page, pageSize } as Filter & PageOptions);
      if (result.data.length === 0) return;
      yield result;
      seen += result.data.length;
      if (seen >= result.page.total || result.data.length < result.page.pageSize) return;
    }
  }

  /** Every item across all pages (see pages()). Breaking out of the loop stops fetching. */
  async *all(options?: Filter & WalkOptions): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages(options)) yield* page.data;
  }

  /** The first `limit` items across pages. Refuses to run without a numeric limit. */
  async toArray(options: Filter & ToArrayOptions): Promise<T[]> {
    const limit = (options as Partial<ToArrayOptions> | undefined)?.limit;
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
      throw new TypeError('toArray() needs { limit: n } with n a positive integer; use all() to stream a list of unknown size.');
    }
    const { limit: _limit, pageSize = Math.min(MAX_PAGE_SIZE, limit), ...rest } = options;
    const items: T[] = [];
    for await (const item of this.all({ ...rest, pageSize } as unknown as Filter & WalkOptions)) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
