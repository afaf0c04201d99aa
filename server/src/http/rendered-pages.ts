// A list page's answer built once while the page stays the same. A partner polling a list gets
// the same page request after request; with each row's text kept (rendered-rows.ts), what was
// still built per request from the same rows was the page's text (joining 50 texts), its
// bytes and their digest for the ETag, the ids for the audit row, and which resident each
// record belongs to, encoded for the accounting of disclosures (db/disclosure-encoding.ts;
// it works per resident, and a payer's page names twice the residents of a facility's).
// All of it is a function of the rows' (id, version_id, last_updated) in order, their
// residents (a new resident is a new version) and the page's numbers; the rows are read from
// the database at every request, through the credential's policy, and compared with the kept
// page's: the same, the kept answer; else it is built and kept. Only an answer built from
// exactly the rows read is kept (a row dropped between the keys' read and its whole read is
// not in the answer, and might be back next time). Per process, per list, bounded by pages
// and by bytes (one page per credential and page asked, the least recently used dropped
// first: 512 pages of 200 Coverages would otherwise hold 36 MB a list).
// Where a page depends on its facility's rows alone (no consent or label the policy weighs),
// the facility's stamp (db/facility-stamp.ts: changed in the transaction of any write
// to those rows, migration 030) read at the request is enough: the same stamp as
// when the page was kept (or last found the same), the same rows. The stamp is read before
// the rows a page is built from, so what is kept is never older than its stamp.
import type { PageInfo } from './envelope.js';
import type { RenderedJson } from './rendered-json.js';
import type { Disclosure } from '../db/disclosure-encoding.js';
import type { ResourceRow } from '../db/resource-row.js';

/** What a list answers, and what its audit row records, for one page of rows. */
export interface PageAnswer {
  body: RenderedJson;
  etag: string;
  /** The same arrays at every use: the audit trail encodes them once (audit-trail.ts). */
  resourceIds: string[];
  disclosures: Disclosure[];
}

/** The page's numbers (and a sync page's cursor to the next). */
type PageNumbers = PageInfo & { next?: string };

interface KeptPage {
  ids: string[];
  versions: Array<number | string>;
  lastUpdated: string[];
  page: PageNumbers;
  answer: PageAnswer;
  /** The facility's stamp read before these rows were (or the kept page last found the same). */
  stamp: string | undefined;
}

function samePage(a: PageNumbers, b: PageNumbers): boolean {
  return a.total === b.total && a.page === b.page && a.page_size === b.page_size && a.next === b.next;
}

/** Pages kept per list: a credential's polled pages, a few hundred credentials. */
export const RENDERED_PAGES_KEPT = 512;
/** About 16 MB of answers per list at most, as rendered-rows.ts keeps of rows' texts. */
export const RENDERED_PAGE_BYTES_KEPT = 16 * 1024 * 1024;

/** What a kept page holds, about: its bytes, and its ids twice (the audit row's array, the check's). */
function bytesOf(page: KeptPage): number {
  return page.answer.body.bytes.length + page.ids.length * 96;
}

type KeyRow = Pick<ResourceRow, 'id' | 'version_id' | 'last_updated'>;

export class RenderedPages {
  private readonly pages = new Map<string, KeptPage>();
  private bytes = 0;

  constructor(
    private readonly pagesKept = RENDERED_PAGES_KEPT,
    private readonly bytesKept = RENDERED_PAGE_BYTES_KEPT,
  ) {}

  /** The answer kept under `key` if the facility's stamp is the one it was kept with, else undefined. */
  answerOfStamp(key: string, stamp: string): PageAnswer | undefined {
    const kept = this.pages.get(key);
    if (kept === undefined || kept.stamp !== stamp) return undefined;
    return this.usedAgain(key, kept);
  }

  /**
   * The answer kept under `key` if it was built from these very rows and page, else
   * undefined; found the same, it is kept with `stamp`, read before these rows were.
   */
  answerOf(key: string, rows: readonly KeyRow[], page: PageNumbers, stamp?: string): PageAnswer | undefined {
    const kept = this.pages.get(key);
    if (kept === undefined || kept.ids.length !== rows.length || !samePage(kept.page, page)) return undefined;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      // Loosely equal versions: PostgreSQL's bigint may come as a string.
      if (kept.ids[i] !== row.id || kept.versions[i] != row.version_id || kept.lastUpdated[i] !== row.last_updated) return undefined;
    }
    kept.stamp = stamp;
    return this.usedAgain(key, kept);
  }

  /** Moved to the end of the Map's order: the most recently used. */
  private usedAgain(key: string, kept: KeptPage): PageAnswer {
    this.pages.delete(key);
    this.pages.set(key, kept);
    return kept.answer;
  }

  /** Keeps `answer`, built from exactly `rows` and `page` (read after `stamp`, if any), under `key`. */
  keep(key: string, rows: readonly KeyRow[], page: PageNumbers, answer: PageAnswer, stamp?: string): void {
    const kept: KeptPage = {
      ids: rows.map((row) => row.id),
      versions: rows.map((row) => row.version_id),
      lastUpdated: rows.map((row) => row.last_updated),
      page: { ...page },
      answer,
      stamp,
    };
    const earlier = this.pages.get(key);
    if (earlier !== undefined) {
      this.pages.delete(key);
      this.bytes -= bytesOf(earlier);
    }
    if (bytesOf(kept) > this.bytesKept) return;
    this.pages.set(key, kept);
    this.bytes += bytesOf(kept);
    // A Map iterates in insertion order, and a page used again is set again: the first are the least recently used.
    for (const [oldest, page] of this.pages) {
      if (this.pages.size <= this.pagesKept && this.bytes <= this.bytesKept) break;
      this.pages.delete(oldest);
      this.bytes -= bytesOf(page);
    }
  }

  /** Pages kept (tests). */
  get size(): number {
    return this.pages.size;
  }

  /** Bytes kept, about (tests). */
  get keptBytes(): number {
    return this.bytes;
  }
}
