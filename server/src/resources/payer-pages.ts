// A page of a facility's Coverages for a payer-scoped credential whose payers are all its
// policy hides (RecordFilter.payersOnly), without walking the facility (issue 23). The generic
// filtered page reads the facility's rows in order until enough match
// `lower(payor_name) in (...) or lower(payor_id) in (...)`, and counts its total over every
// Coverage of the facility, because an OR of two columns cannot seek. Here instead:
// - the rows: each payer key (a payer as name, a payer as id) seeks its own first rows in list
//   order (migration 027's (facility_id, lower(column), seq) indexes); the union (one row once,
//   even when it matches by name and by id, or several payers) in seq order gives the page.
//   Page 1 hands the keys' rows to `seq in (...)` as they come (UNION ALL): IN is a membership
//   test, so a seq two keys both give is still one row, and the outer ORDER BY ... LIMIT takes
//   the page (SQLite walks IN's own sorted list of seqs: no sort). UNION had SQLite sort each
//   key's rows in a temporary b-tree to merge them, about 8 µs of a 150 µs statement. A deeper
//   page takes each key's first `offset + page size` rows and merges them (UNION) so that it
//   can skip `offset` on seqs alone: exact, whatever was written since, with no anchor to
//   invalidate.
// - the total: the sum of the facility's coverage_payer_counts rows (kept by triggers, one row
//   per (name, id) pair, so a Coverage is counted once) whose name or id is one of the payers.
// Hand-written SQL, one text per shape (payers, page size, first or deeper page), prepared
// once like the unrestricted list's (db/prepared-statements.ts); on PostgreSQL the total rides
// along with the page as a leading column (one statement, one round trip) unless the page is
// empty. SQLite, with no round trip to save, reads the payers' counter rows first: their sum
// is the total, and they tell which payer keys have any Coverage in the facility. A payer is
// usually named one way (by display or by id), and its page is then one range of one index
// in list order, read like the unrestricted page (the union and its `seq in (...)` cost
// about 7 µs more, and in the page's select list the total about 4 µs); no key, no page.
// On PostgreSQL each key's whole rows are merged in seq order and kept once per seq (DISTINCT
// ON): with statistics, PostgreSQL joined `seq in (...)` by hashing the page's 50 seqs and
// reading every Coverage of the table (a facility of 4,000 Coverages: 1.3-1.8 ms, EXPLAIN
// ANALYZE, 2026-11-26); looked up LATERALly by seq, 0.13-0.17 ms; merged whole, 0.08-0.10 ms
// (the unrestricted page 0.11). SQLite probes by rowid for `seq in (...)`, as cheap there.
import type { Knex } from 'knex';
import type { PageInfo } from '../http/envelope.js';
import { preparedStatements } from '../db/prepared-statements.js';
import { isPostgres } from '../db/database.js';

/** At most this many payers take this path (two union branches each); more: the generic one. */
export const MAX_SEEKED_PAYERS = 16;

/** Whether these payers can be served here (payers are never empty: a NULL payor_id counts as ''). */
export function seeksPayers(payers: readonly string[] | null): payers is readonly string[] {
  return payers !== null && payers.length > 0 && payers.length <= MAX_SEEKED_PAYERS && payers.every((payer) => payer !== '');
}

interface PayerStatements {
  total: string;
  /** The page, on PostgreSQL with the total as its leading column. */
  page: string;
  /** SQLite: the payers' counter rows (name key, id key, total). */
  counters: string;
  /** SQLite: the page of one payer key, by name or by id (facility, key[, page size][, offset]). */
  byName: string;
  byId: string;
}

/**
 * By the listed columns, then by shape. The columns' text is the same string at every call
 * (read once: pagination.ts listedColumnsOf), so its hash is computed once; a key that held
 * it had to be built and hashed again at every request (3 µs of a list).
 */
const shapes = new Map<string, Map<string, PayerStatements>>();

/**
 * `listed`: the columns to return (the list's); `size`: the page size written into the SQL
 * (a planned size), or undefined to pass it as a parameter.
 */
function statementsOf(payers: number, listed: string, size: number | undefined, deep: boolean, postgres: boolean): PayerStatements {
  let ofListed = shapes.get(listed);
  if (!ofListed) shapes.set(listed, (ofListed = new Map()));
  const key = `${payers} ${size ?? '?'} ${deep ? 'deep' : 'first'} ${postgres ? 'pg' : 'sqlite'}`;
  let statements = ofListed.get(key);
  if (statements) return statements;
  const marks = Array.from({ length: payers }, () => '?').join(', ');
  const total = `select coalesce(sum(total), 0) as total from coverage_payer_counts where facility_id = ? and (payor_name_key in (${marks}) or payor_id_key in (${marks}))`;
  const pageLimit = size === undefined ? '?' : String(size);
  // Each key's rows up to the end of the page: the page size, or `offset + size` (a parameter).
  const branchLimit = deep ? '?' : pageLimit;
  // One seek per payer key (each payer as a name, then each as an id, the parameters' order):
  // its first rows in list order, up to the end of the page.
  const keyColumns = [...Array<string>(payers).fill('payor_name'), ...Array<string>(payers).fill('payor_id')];
  const seek = (columns: string, column: string) => `select ${columns} from coverage where facility_id = ? and lower(${column}) = ? order by seq limit ${branchLimit}`;
  let page: string;
  if (postgres) {
    // Each key's rows, whole, in seq order (the index scans read them anyway), merged by a
    // Merge Append and kept once per seq by DISTINCT ON, then the page's `limit` (and
    // `offset`): no sort, no second lookup. `listed` names the columns as `coverage.column`,
    // so the merged rows are called coverage too (seq is one of them).
    const keyed = keyColumns.map((column) => `(${seek(listed, column)})`).join(' union all ');
    page = `select distinct on (coverage.seq) (${total}) as counted_total, ${listed} from (${keyed}) as coverage order by coverage.seq limit ${pageLimit}${deep ? ' offset ?' : ''}`;
  } else {
    // SQLite takes ORDER BY and LIMIT in a compound's member only inside a subquery.
    const branches = keyColumns.map((column, i) => `select seq from (${seek('seq', column)}) as vis_key_${i}`);
    // The total is a statement of its own here (fetchPayerCoveragePage).
    page = deep
      ? `select ${listed} from coverage where seq in (${branches.join(' union ')} order by seq limit ${pageLimit} offset ?) order by seq`
      : `select ${listed} from coverage where seq in (${branches.join(' union all ')}) order by seq limit ${pageLimit}`;
  }
  const counters = `select payor_name_key, payor_id_key, total from coverage_payer_counts where facility_id = ? and (payor_name_key in (${marks}) or payor_id_key in (${marks}))`;
  const oneKey = (column: string) => `select ${listed} from coverage where facility_id = ? and lower(${column}) = ? order by seq limit ${pageLimit}${deep ? ' offset ?' : ''}`;
  statements = { total, page, counters, byName: oneKey('payor_name'), byId: oneKey('payor_id') };
  ofListed.set(key, statements);
  return statements;
}

export async function fetchPayerCoveragePage<Row>(
  db: Knex,
  facilityId: string,
  payers: readonly string[],
  page: number,
  pageSize: number,
  listed: string,
  size: number | undefined,
): Promise<{ rows: Row[]; page: PageInfo }> {
  const deep = page > 1;
  const sql = statementsOf(payers.length, listed, size, deep, isPostgres(db));
  const offset = (page - 1) * pageSize;
  // The total's parameters, then each branch's, then the outer query's, in one array.
  const params: unknown[] = [facilityId, ...payers, ...payers];
  const totalParams = params.length;
  // A branch's limit is a parameter on a deeper page, or when the page size is not a planned one.
  const branchLimit = deep ? offset + pageSize : size === undefined ? pageSize : undefined;
  for (let column = 0; column < 2; column++) {
    for (const payer of payers) {
      params.push(facilityId, payer);
      if (branchLimit !== undefined) params.push(branchLimit);
    }
  }
  if (size === undefined) params.push(pageSize);
  if (deep) params.push(offset);
  const statements = preparedStatements(db);
  if (!isPostgres(db)) {
    // The payers' counters first (no round trip to save): they give the total, and which
    // payer keys have any Coverage here. One key (a payer named one way, the usual case) is
    // one range of its index, read in list order like the unrestricted page; none, no page.
    const counters = (await statements.all(sql.counters, params.slice(0, totalParams))) as Array<{ payor_name_key: string; payor_id_key: string; total: number | string }>;
    let total = 0;
    const byName = new Set<string>();
    const byId = new Set<string>();
    for (const counter of counters) {
      const n = Number(counter.total);
      if (n <= 0) continue;
      total += n;
      if (payers.includes(counter.payor_name_key)) byName.add(counter.payor_name_key);
      if (payers.includes(counter.payor_id_key)) byId.add(counter.payor_id_key);
    }
    const info = { page, page_size: pageSize, total };
    if (byName.size + byId.size === 0) return { rows: [], page: info };
    if (byName.size + byId.size === 1) {
      const [key] = [...byName, ...byId];
      const one = [facilityId, key, ...(size === undefined ? [pageSize] : []), ...(deep ? [offset] : [])];
      return { rows: (await statements.all(byName.size === 1 ? sql.byName : sql.byId, one)) as Row[], page: info };
    }
    return { rows: (await statements.all(sql.page, params.slice(totalParams))) as Row[], page: info };
  }
  const { leading, rows } = await statements.allWithLeading(sql.page, params, 1);
  const total = leading ? leading.counted_total : (await statements.all(sql.total, params.slice(0, totalParams)))[0]?.total;
  return { rows: rows as Row[], page: { page, page_size: pageSize, total: Number(total ?? 0) } };
}
