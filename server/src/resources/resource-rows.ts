// The rows behind the four resources, read the same way for every renderer (the spec's
// FHIR-aligned shapes and the FHIR R4 view): one list path and one read path per table,
// always filtered by the path's organization and facility (already authorized) and by the
// caller's access policy (tenancy/record-visibility.ts), so another tenant's row, or one the
// policy hides, is simply not found. Every renderer and export reads through these two.
import type { Knex } from 'knex';
import type { PageInfo } from '../http/envelope.js';
import { fetchResourcePage, type ListScope } from './pagination.js';
import { fetchSyncPage, isSyncRequest, seqNext, type SyncPageInfo } from './sync-pages.js';
import type { RecordFilter } from '../tenancy/record-visibility.js';

export interface ResourceRow {
  id: string;
  seq: number;
  version_id: number | string;
  last_updated: string;
}

/** A page of a table: page-numbered in insertion order, or the keyset sync path. */
export async function listRows<Row extends ResourceRow>(
  db: Knex,
  table: string,
  scope: ListScope,
  query: Record<string, unknown>,
  filter: RecordFilter,
): Promise<{ rows: Row[]; page: SyncPageInfo }> {
  if (isSyncRequest(query)) return fetchSyncPage<Row>(db, table, scope, query, undefined, filter);
  const { rows, page } = await fetchResourcePage<Row>(db, table, scope, query, filter);
  const next = seqNext(table, scope, rows, page);
  return { rows, page: next === undefined ? page : ({ ...page, next } satisfies PageInfo & { next: string }) };
}

export async function readRow<Row extends ResourceRow>(db: Knex, table: string, params: Record<string, string>, id: string, filter: RecordFilter): Promise<Row | undefined> {
  return (await filter.apply(db(table).where({ id, org_id: params.org_id, facility_id: params.facility_id }), table).first()) as Row | undefined;
}
