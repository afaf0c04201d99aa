// The rows behind the four resources, read the same way for every renderer (the spec's
// FHIR-aligned shapes and the FHIR R4 view): one list path and one read path per table,
// always filtered by the path's organization and facility (already authorized) and by the
// caller's access policy (tenancy/record-visibility.ts), so another tenant's row, or one the
// policy hides, is simply not found. Every renderer and export reads through these two.
import type { Knex } from 'knex';
import type { PageInfo } from '../http/envelope.js';
import { fetchResourcePage, listedColumnsOf, type ListedColumns, type ListScope } from './pagination.js';
import { fetchSyncPage, isSyncRequest, seqNext, type SyncPageInfo } from './sync-pages.js';
import type { RecordFilter } from '../tenancy/record-visibility.js';
import type { ResourceRow } from '../db/resource-row.js';

/**
 * A page of a table: page-numbered in insertion order, or the keyset sync path. `columns`:
 * 'keys' asks for the rows' keys only (pagination.ts ListedColumns), which the hot paths
 * honour; `keysOnly` tells whether the rows are keys or whole rows.
 */
export async function listRows<Row extends ResourceRow>(
  db: Knex,
  table: string,
  scope: ListScope,
  query: Record<string, unknown>,
  filter: RecordFilter,
  columns: ListedColumns = 'all',
): Promise<{ rows: Row[]; page: SyncPageInfo; keysOnly: boolean }> {
  if (isSyncRequest(query)) return { ...(await fetchSyncPage<Row>(db, table, scope, query, undefined, filter)), keysOnly: false };
  const { rows, page, keysOnly } = await fetchResourcePage<Row>(db, table, scope, query, filter, columns);
  const next = seqNext(table, scope, rows, page);
  return { rows, page: next === undefined ? page : ({ ...page, next } satisfies PageInfo & { next: string }), keysOnly };
}

/**
 * Whole rows of a page read by its keys, as they are now: inside the facility and through
 * the caller's policy again, so a row moved or hidden since the page's read is not returned.
 */
export async function rowsBySeq<Row extends ResourceRow>(db: Knex, table: string, facilityId: string, seqs: ReadonlyArray<number | string>, filter: RecordFilter): Promise<Row[]> {
  const listed = await listedColumnsOf(db, table);
  return (await filter.apply(db(table).where(`${table}.facility_id`, facilityId).whereIn(`${table}.seq`, seqs as Array<number | string>), table).select(db.raw(listed))) as Row[];
}

export async function readRow<Row extends ResourceRow>(db: Knex, table: string, params: Record<string, string>, id: string, filter: RecordFilter): Promise<Row | undefined> {
  return (await filter.apply(db(table).where({ id, org_id: params.org_id, facility_id: params.facility_id }), table).first()) as Row | undefined;
}
