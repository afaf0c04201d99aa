// page/page_size lists in a stable order (insertion order, `seq`), with the total count.
//
// Lists filter by facility only: authorize() has already checked the facility is granted
// to the caller, and a facility belongs to exactly one organization. The facility-wide
// total is read from facility_resource_counts (kept by triggers); a resident's rows are
// few and counted on the (facility_id, resident_id, seq) index. A deep page first finds
// its starting `seq` on the index alone, so OFFSET never drags whole rows along.
import type { Knex } from 'knex';
import type { PageInfo } from '../http/envelope.js';

export const DEFAULT_PAGE_SIZE = 50;

export function pageOf(query: Record<string, unknown>): { page: number; pageSize: number } {
  // Already validated and bounded by the contract (page >= 1, 1 <= page_size <= 200).
  return {
    page: query.page === undefined ? 1 : Number(query.page),
    pageSize: query.page_size === undefined ? DEFAULT_PAGE_SIZE : Number(query.page_size),
  };
}

export interface ListScope {
  facility_id: string;
  resident_id?: string;
}

/** The filter of a facility-scoped list, with the optional resident filter. */
export function facilityScope(params: Record<string, string>, query: Record<string, unknown>): ListScope {
  const scope: ListScope = { facility_id: params.facility_id! };
  if (typeof query.resident_id === 'string') scope.resident_id = query.resident_id;
  return scope;
}

async function rowsOf<Row>(db: Knex, table: string, where: Record<string, string>, offset: number, limit: number): Promise<Row[]> {
  if (offset === 0) return db(table).where(where).orderBy('seq').limit(limit) as Promise<Row[]>;
  const start = await db(table).where(where).orderBy('seq').offset(offset).first('seq');
  if (!start) return [];
  return db(table).where(where).andWhere('seq', '>=', start.seq).orderBy('seq').limit(limit) as Promise<Row[]>;
}

async function countOf(db: Knex, table: string, where: Record<string, string>): Promise<number> {
  const row = await db(table).where(where).count({ total: '*' }).first();
  return Number(row?.total ?? 0);
}

/** A page of any table with a `seq` column, counted exactly (for small sets). */
export async function fetchPage<Row>(
  db: Knex,
  table: string,
  where: Record<string, string>,
  query: Record<string, unknown>,
): Promise<{ rows: Row[]; page: PageInfo }> {
  const { page, pageSize } = pageOf(query);
  const [rows, total] = await Promise.all([rowsOf<Row>(db, table, where, (page - 1) * pageSize, pageSize), countOf(db, table, where)]);
  return { rows, page: { page, page_size: pageSize, total } };
}

/** A page of one of the four resources of a facility, its total kept by triggers. */
export async function fetchResourcePage<Row>(
  db: Knex,
  table: string,
  scope: ListScope,
  query: Record<string, unknown>,
): Promise<{ rows: Row[]; page: PageInfo }> {
  const { page, pageSize } = pageOf(query);
  const where: Record<string, string> = { ...scope };
  const total = async () => {
    if (scope.resident_id !== undefined) return countOf(db, table, where);
    const row = await db('facility_resource_counts').where({ resource: table, facility_id: scope.facility_id }).first('total');
    return Number(row?.total ?? 0);
  };
  const [rows, count] = await Promise.all([rowsOf<Row>(db, table, where, (page - 1) * pageSize, pageSize), total()]);
  return { rows, page: { page, page_size: pageSize, total: count } };
}
