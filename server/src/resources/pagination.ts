// page/page_size lists in a stable order (insertion order, `seq`), with the total count.
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

export async function fetchPage<Row>(
  db: Knex,
  table: string,
  where: Record<string, string>,
  query: Record<string, unknown>,
): Promise<{ rows: Row[]; page: PageInfo }> {
  const { page, pageSize } = pageOf(query);
  const [rows, counted] = await Promise.all([
    db(table).where(where).orderBy('seq').limit(pageSize).offset((page - 1) * pageSize),
    db(table).where(where).count({ total: '*' }).first(),
  ]);
  return { rows: rows as Row[], page: { page, page_size: pageSize, total: Number(counted?.total ?? 0) } };
}

/** The tenancy filter of a facility-scoped list, with the optional resident filter. */
export function facilityScope(params: Record<string, string>, query: Record<string, unknown>): Record<string, string> {
  const where: Record<string, string> = { org_id: params.org_id!, facility_id: params.facility_id! };
  if (typeof query.resident_id === 'string') where.resident_id = query.resident_id;
  return where;
}
