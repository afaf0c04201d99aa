// What a request costs against its credential's quota, in units (docs/quotas.md):
// - 1 for a read by id, a webhook operation, an ingest, a status poll;
// - a list or search page, by its size: one unit per 50 rows asked (`page_size` or `_count`,
//   default 50, so the default page costs 1 and a page of 200 costs 4). Walking a facility
//   costs the same whatever page size the partner picks: the cost follows the rows read.
// - what the contract says with `x-ofctx-quota-weight` (a Bulk Data `$export` kick-off: 50,
//   one second of the default rate, since it starts a job reading the whole facility).
import type { Operation } from 'openapi-backend';

export const QUOTA_WEIGHT_EXTENSION = 'x-ofctx-quota-weight';
/** Rows per unit of a list page; the default page size costs one unit. */
export const ROWS_PER_UNIT = 50;
const PAGE_SIZE_PARAMETERS = ['page_size', '_count'] as const;

/** The weight the contract gives the operation, before the page size. */
export function baseWeightOf(operation: Operation): number {
  const declared = (operation as Operation & { [QUOTA_WEIGHT_EXTENSION]?: unknown })[QUOTA_WEIGHT_EXTENSION];
  return typeof declared === 'number' && Number.isInteger(declared) && declared >= 1 ? declared : 1;
}

/**
 * The request's weight. Read before validation (a refused request is not validated): a page
 * size that is not a number in range costs the base weight, and validation then refuses it.
 */
export function requestWeight(baseWeight: number, query: Record<string, unknown> | undefined): number {
  if (!query) return baseWeight;
  for (const name of PAGE_SIZE_PARAMETERS) {
    let value = query[name];
    if (Array.isArray(value)) value = value[value.length - 1];
    if (value === undefined) continue;
    const rows = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
    if (rows >= 1 && rows <= 10_000) return Math.max(baseWeight, Math.ceil(rows / ROWS_PER_UNIT));
  }
  return baseWeight;
}
