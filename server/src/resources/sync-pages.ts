// Incremental sync on the four lists: `_lastUpdated` (FHIR prefixes gt/ge/lt/le, at most a
// range of two) and the opaque keyset cursor of `meta.page.next`.
//
// WHY keyset: a partner that copies a facility while it changes must neither skip nor repeat
// a row. With `_lastUpdated` the order is (last_updated, id) and the next page starts
// strictly after the last pair seen; applyChangeSet gives every committed transaction of an
// organization a strictly greater last_updated than the ones before it (ingest-clock.ts), so
// a row written during the walk lands after the cursor and is read exactly once. Without
// `_lastUpdated` the order stays the spec's (insertion, `seq`) and the cursor is the last
// `seq`: appended rows come at the end, again once. A changed row moves to the end of the
// (last_updated, id) order: a sync sees its newest version, which is the point.
//
// The cursor carries its list, its filter and its position (base64url JSON). It is not
// signed: it only ever selects rows inside the facility the caller is already authorized
// for, through the caller's access policy, so a forged one can show nothing the caller
// could not list anyway.
import type { Knex } from 'knex';
import { ApiError } from '../errors/api-error.js';
import type { PageInfo } from '../http/envelope.js';
import { DEFAULT_PAGE_SIZE, type ListScope } from './pagination.js';
import type { RecordFilter } from '../tenancy/record-visibility.js';

export interface SyncPageInfo extends PageInfo {
  next?: string;
}

/** One bound on last_updated, as SQL compares the stored ISO 8601 UTC text. */
type Bound = ['>=' | '<', string];

interface LastUpdatedCursor {
  k: 'u';
  t: string;
  r: string | null;
  /** Only these ids (FHIR `_id`), when given. */
  i?: string[];
  b: Bound[];
  lu: string;
  id: string;
  p: number;
}

interface SeqCursor {
  k: 's';
  t: string;
  r: string | null;
  i?: string[];
  s: number;
  p: number;
}

type Cursor = LastUpdatedCursor | SeqCursor;

const PREFIXED = /^(gt|ge|lt|le)(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/;
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

function invalid(field: string, issue: string, message?: string): ApiError {
  return new ApiError('invalid_parameter', message, [{ field, issue }]);
}

/**
 * `_lastUpdated` values -> bounds. A value covers the range its precision implies (FHIR
 * search): `gt2026-11-20` is after that whole UTC day, `le2026-11-20T10:00:00Z` is up to the
 * end of that second.
 */
export function lastUpdatedBounds(raw: unknown): Bound[] {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
  if (values.length > 2) throw invalid('query._lastUpdated', 'is given more than twice', '_lastUpdated may be given at most twice (a range).');
  return values.map((value) => {
    const match = PREFIXED.exec(value);
    const start = match ? Date.parse(match[3] ? `${match[2]}T${match[3]}${(match[4] ?? '').slice(0, 4)}${match[5]}` : `${match[2]}T00:00:00Z`) : NaN;
    if (!match || Number.isNaN(start)) {
      throw invalid('query._lastUpdated', 'must be gt, ge, lt or le followed by a date or an instant with a zone, such as gt2026-11-20T10:00:00Z');
    }
    const fraction = match[4] ? Math.min(match[4].length - 1, 3) : -1;
    const precision = !match[3] ? 86_400_000 : fraction < 0 ? 1000 : 10 ** (3 - fraction);
    const end = Math.min(start + precision, LATEST);
    const iso = (ms: number) => new Date(ms).toISOString();
    switch (match[1]) {
      case 'gt':
        return ['>=', iso(end)];
      case 'ge':
        return ['>=', iso(start)];
      case 'lt':
        return ['<', iso(start)];
      default:
        return ['<', iso(end)];
    }
  });
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(raw: string, table: string): Cursor {
  let cursor: { k?: unknown; t?: unknown; r?: unknown; p?: unknown; s?: unknown; lu?: unknown; id?: unknown; b?: unknown; i?: unknown } | null;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as typeof cursor;
  } catch {
    throw invalid('query.cursor', 'is not a cursor of this API', 'The cursor is not one this API gave; send back meta.page.next unchanged.');
  }
  const wellFormed =
    cursor !== null && typeof cursor === 'object' && typeof cursor.t === 'string' && typeof cursor.p === 'number' && (cursor.r === null || typeof cursor.r === 'string') &&
    (cursor.i === undefined || (Array.isArray(cursor.i) && cursor.i.length <= 200 && cursor.i.every((id: unknown) => typeof id === 'string'))) &&
    ((cursor.k === 's' && Number.isSafeInteger(cursor.s)) ||
      (cursor.k === 'u' && typeof cursor.lu === 'string' && typeof cursor.id === 'string' && Array.isArray(cursor.b) &&
        cursor.b.every((b: unknown) => Array.isArray(b) && (b[0] === '>=' || b[0] === '<') && typeof b[1] === 'string')));
  if (!wellFormed) throw invalid('query.cursor', 'is not a cursor of this API', 'The cursor is not one this API gave; send back meta.page.next unchanged.');
  if (cursor!.t !== table) throw invalid('query.cursor', 'belongs to another list', 'This cursor was given by another list; send it back to the list that gave it.');
  return cursor as unknown as Cursor;
}

/** True when the list takes the keyset path: a `_lastUpdated` filter or a cursor. */
export function isSyncRequest(query: Record<string, unknown>): boolean {
  return query._lastUpdated !== undefined || query.cursor !== undefined;
}

function pageSizeOf(query: Record<string, unknown>): number {
  return query.page_size === undefined ? DEFAULT_PAGE_SIZE : Number(query.page_size);
}

/** The cursor of the page after a page of the default (seq) order, if there is one. */
export function seqNext(table: string, scope: ListScope, rows: Array<{ seq: number }>, page: PageInfo): string | undefined {
  if (rows.length < page.page_size || page.page * page.page_size >= page.total) return undefined;
  return encodeCursor({ k: 's', t: table, r: scope.resident_id ?? null, s: Number(rows[rows.length - 1]!.seq), p: page.page });
}

function checkFilterMatches(cursor: Cursor, scope: ListScope, query: Record<string, unknown>): void {
  if (scope.resident_id !== undefined && scope.resident_id !== cursor.r) {
    throw invalid('query.resident_id', 'differs from the cursor\'s', 'The cursor already carries its filter; send it without resident_id, or with the same one.');
  }
  if (query._lastUpdated !== undefined) {
    const bounds = lastUpdatedBounds(query._lastUpdated);
    if (cursor.k !== 'u' || JSON.stringify(bounds) !== JSON.stringify(cursor.b)) {
      throw invalid('query._lastUpdated', 'differs from the cursor\'s', 'The cursor already carries its filter; send it without _lastUpdated, or with the same one.');
    }
  }
}

/**
 * A page of a `_lastUpdated` list or of a cursor (a first page without `_lastUpdated` is in
 * insertion order). `total` counts the whole filtered set (all pages), as on the
 * page-numbered lists. `ids` restricts the set to those ids (FHIR `_id`). `withTotal` false
 * skips that count (a bulk export walks every page and needs none): `total` is then -1.
 */
export async function fetchSyncPage<Row extends { seq: number; id: string; last_updated: string }>(
  db: Knex,
  table: string,
  scope: ListScope,
  query: Record<string, unknown>,
  ids?: string[],
  filter?: RecordFilter,
  withTotal = true,
): Promise<{ rows: Row[]; page: SyncPageInfo }> {
  const pageSize = pageSizeOf(query);
  let cursor: Cursor;
  if (typeof query.cursor === 'string') {
    cursor = decodeCursor(query.cursor, table);
    checkFilterMatches(cursor, scope, query);
  } else {
    if (query.page !== undefined && Number(query.page) !== 1) {
      throw invalid('query.page', 'does not combine with _lastUpdated', 'Pages of a _lastUpdated list are followed with meta.page.next (?cursor=), not page numbers.');
    }
    const r = scope.resident_id ?? null;
    cursor = query._lastUpdated === undefined ? { k: 's', t: table, r, s: 0, p: 0 } : { k: 'u', t: table, r, b: lastUpdatedBounds(query._lastUpdated), lu: '', id: '', p: 0 };
    if (ids !== undefined) cursor.i = ids;
  }
  const where: Record<string, string> = { facility_id: scope.facility_id };
  if (cursor.r !== null) where.resident_id = cursor.r;

  const filtered = () => {
    const q = db(table).where(where);
    // The caller's access policy, inside the query: pages stay full and the total exact.
    if (filter) filter.apply(q, table);
    if (cursor.i !== undefined) q.whereIn('id', cursor.i);
    if (cursor.k === 'u') for (const [op, instant] of cursor.b) q.andWhere('last_updated', op, instant);
    return q;
  };
  const rowsQuery = filtered();
  if (cursor.k === 's') {
    rowsQuery.andWhere('seq', '>', cursor.s).orderBy('seq');
  } else {
    const { lu, id } = cursor;
    if (lu !== '') rowsQuery.andWhere((q) => q.where('last_updated', '>', lu).orWhere((same) => same.where('last_updated', lu).andWhere('id', '>', id)));
    rowsQuery.orderBy([{ column: 'last_updated' }, { column: 'id' }]);
  }
  const [fetched, counted] = await Promise.all([rowsQuery.limit(pageSize + 1) as Promise<Row[]>, withTotal ? filtered().count({ total: '*' }).first() : undefined]);
  const rows = fetched.slice(0, pageSize);
  const number = cursor.p + 1;
  const page: SyncPageInfo = { page: number, page_size: pageSize, total: withTotal ? Number(counted?.total ?? 0) : -1 };
  if (fetched.length > pageSize) {
    const last = rows[rows.length - 1]!;
    page.next = encodeCursor(cursor.k === 's' ? { ...cursor, s: Number(last.seq), p: number } : { ...cursor, lu: last.last_updated, id: last.id, p: number });
  }
  return { rows, page };
}
