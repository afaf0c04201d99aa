// page/page_size lists in a stable order (insertion order, `seq`), with the total count.
//
// Lists filter by facility only: authorize() has already checked the facility is granted
// to the caller, and a facility belongs to exactly one organization. A deep page first finds
// its starting `seq` on the index alone, so OFFSET never drags whole rows along.
import type { Knex } from 'knex';
import type { PageInfo } from '../http/envelope.js';
import { PageAnchors } from './page-anchors.js';
import { preparedStatements } from '../db/prepared-statements.js';
import { isPostgres } from '../db/database.js';
import type { RecordFilter } from '../tenancy/record-visibility.js';
import { fetchPayerCoveragePage, seeksPayers } from './payer-pages.js';

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

const anchors = new PageAnchors();

/**
 * A page of one of the four resources of a facility. The total and the layout version come
 * from facility_resource_counts (kept by triggers); a resident's rows are few and counted.
 * Page 1 and pages whose anchor is known are index range scans; the first read of a deep
 * page finds its anchor with one index-only OFFSET scan.
 */
export async function fetchResourcePage<Row extends { seq: number }>(
  db: Knex,
  table: string,
  scope: ListScope,
  query: Record<string, unknown>,
  filter?: RecordFilter,
  columns: ListedColumns = 'all',
): Promise<{ rows: Row[]; page: PageInfo; keysOnly: boolean }> {
  const { page, pageSize } = pageOf(query);
  const size = PLANNED_PAGE_SIZES.has(pageSize) ? pageSize : undefined;
  if (filter && !filter.isEmpty) {
    // A payer-scoped Coverage list hiding nothing else seeks its payers' rows and sums their counters.
    const payers = filter.payersOnly;
    if (table === 'coverage' && scope.resident_id === undefined && seeksPayers(payers)) {
      const listed = columns === 'keys' ? keyColumnsOf(table) : await listedColumnsOf(db, table);
      return { ...(await fetchPayerCoveragePage<Row>(db, scope.facility_id, payers, page, pageSize, listed, size)), keysOnly: columns === 'keys' };
    }
    // Whole rows, whatever was asked: a policy with consents or labels is not the hot path.
    return { ...(await fetchFilteredPage<Row>(db, table, scope, page, pageSize, filter)), keysOnly: false };
  }
  const where: Record<string, string> = { ...scope };
  // The hot statements (counts, the page itself) are prepared once: see db/prepared-statements.ts.
  const statements = preparedStatements(db);
  const sql = statementsOf(table, size, columns) ?? (await listStatementsReady(db, table, size, columns));
  const limit = size === undefined ? [pageSize] : [];
  let counts: Record<string, unknown> | undefined;
  let rows: Row[] | undefined;
  if (page === 1 && scope.resident_id === undefined && isPostgres(db)) {
    // Page 1 of a whole facility, the most read of all, starts at the beginning whatever the
    // layout: on PostgreSQL its count and its rows come from one statement, one round trip
    // (unless empty). SQLite has no round trip to save, and the counters' subqueries in the
    // page's select list cost it about 14 µs over 50 rows (against 2.3 µs as a statement of
    // their own, 2026-11-26): there the counts are read first, then the page from seq 0.
    const first = await statements.allWithLeading(sql.firstPage, [scope.facility_id, scope.facility_id, scope.facility_id, ...limit], 2);
    if (first.leading) {
      counts = { total: first.leading.counted_total, layout_version: first.leading.counted_layout_version };
      rows = first.rows as Row[];
    }
  }
  counts ??= (await statements.all(COUNTS_SQL, [table, scope.facility_id]))[0];
  const layoutVersion = Number(counts?.layout_version ?? 0);
  const total =
    scope.resident_id === undefined
      ? Number(counts?.total ?? 0)
      : Number((await statements.all(sql.residentCount, [scope.facility_id, scope.resident_id]))[0]?.total ?? 0);
  const anchorOf = (n: number) => PageAnchors.key(table, scope.facility_id, scope.resident_id, pageSize, n, layoutVersion);

  if (rows === undefined) {
    let after: number | undefined = page === 1 ? 0 : anchors.get(anchorOf(page));
    if (after === undefined) {
      const lastOfPrevious = await db(table).where(where).orderBy('seq').offset((page - 1) * pageSize - 1).first('seq');
      after = lastOfPrevious ? Number(lastOfPrevious.seq) : undefined;
      if (after !== undefined) anchors.set(anchorOf(page), after);
    }
    rows =
      after === undefined
        ? []
        : scope.resident_id === undefined
          ? ((await statements.all(sql.page, [scope.facility_id, after, ...limit])) as Row[])
          : ((await statements.all(sql.residentPage, [scope.facility_id, scope.resident_id, after, ...limit])) as Row[]);
  }
  // A full page ends where the next one begins, whatever is appended later.
  if (rows.length === pageSize) anchors.set(anchorOf(page + 1), Number(rows[rows.length - 1]!.seq));
  return { rows, page: { page, page_size: pageSize, total }, keysOnly: columns === 'keys' };
}

/**
 * A page of what an access policy lets the caller see. The facility's counter and the page
 * anchors count every row, so neither applies: the total is counted with the restriction,
 * and a deep page finds its start with an OFFSET over the visible rows' index entries.
 */
async function fetchFilteredPage<Row extends { seq: number }>(
  db: Knex,
  table: string,
  scope: ListScope,
  page: number,
  pageSize: number,
  filter: RecordFilter,
): Promise<{ rows: Row[]; page: PageInfo }> {
  const visible = () => filter.apply(db(table).where(scope), table);
  // The texts vary only with the policy's shape (how many payers...): prepared on SQLite.
  const statements = preparedStatements(db);
  const run = async (q: Knex.QueryBuilder) => (await statements.allOfQuery(q)) as Row[];
  const offset = (page - 1) * pageSize;
  const rowsOfPage = async (): Promise<Row[]> => {
    if (offset === 0) return run(visible().orderBy('seq').limit(pageSize));
    const [start] = await run(visible().orderBy('seq').offset(offset).limit(1).select('seq'));
    if (!start) return [];
    return run(visible().andWhere('seq', '>=', start.seq).orderBy('seq').limit(pageSize));
  };
  const [rows, [counted]] = await Promise.all([rowsOfPage(), run(visible().count({ total: '*' })) as Promise<Array<{ total?: number | string }>>]);
  return { rows, page: { page, page_size: pageSize, total: Number(counted?.total ?? 0) } };
}

const COUNTS_SQL = 'select total, layout_version from facility_resource_counts where resource = ? and facility_id = ? limit 1';

interface TableStatements {
  /** Page 1 of a facility, its total and layout version in the two leading columns. */
  firstPage: string;
  page: string;
  residentPage: string;
  residentCount: string;
}

const tableStatements = new Map<string, TableStatements>();

/**
 * Columns a list never renders: the organization (the facility implies it) and the row's
 * creation time (resources show `meta.lastUpdated`). Leaving them out of the page saves
 * decoding and allocating about a third of each row's bytes on every list request.
 */
const NOT_RENDERED = new Set(['org_id', 'created_at']);

const listedColumns = new Map<string, Promise<string>>();

/**
 * What a list reads of each row: all it renders, or only its keys (order, id, version, and
 * resident: what the page, the cursor, the audit row and the accounting of disclosures need)
 * when the rows' texts are mostly kept already (http/rendered-rows.ts) and the few others
 * are read whole after (resource-rows.ts rowsBySeq). A page of 50 Coverages on SQLite: about
 * 100 µs whole, 50 µs its keys.
 */
export type ListedColumns = 'all' | 'keys';

const keyColumns = new Map<string, string>();

/** The key columns of `table`, as SQL (the same string at every call: statement caches hash it once). */
export function keyColumnsOf(table: string): string {
  let listed = keyColumns.get(table);
  if (listed === undefined) {
    const keys = ['seq', 'id', 'version_id', 'last_updated', ...(table === 'residents' ? [] : ['resident_id'])];
    listed = keys.map((column) => `${table}.${column}`).join(', ');
    keyColumns.set(table, listed);
  }
  return listed;
}

/** The columns a list of `table` returns, as SQL (`table.column, ...`), read from the database once. */
export function listedColumnsOf(db: Knex, table: string): Promise<string> {
  let listing = listedColumns.get(table);
  if (!listing) {
    listing = db(table)
      .columnInfo()
      .then((info) => Object.keys(info).filter((column) => !NOT_RENDERED.has(column)).map((column) => `${table}.${column}`).join(', '));
    listedColumns.set(table, listing);
    listing.catch(() => listedColumns.delete(table));
  }
  return listing;
}

/** The page sizes written into the SQL (a prepared statement each); others are a parameter. */
const PLANNED_PAGE_SIZES = new Set([10, 20, 25, DEFAULT_PAGE_SIZE, 100, 200]);

function statementsOf(table: string, pageSize: number | undefined, columns: ListedColumns): TableStatements | undefined {
  return tableStatements.get(`${table} ${pageSize ?? '?'} ${columns}`);
}

// `table` is one of the resource tables, never user input, and `pageSize` one of
// PLANNED_PAGE_SIZES. Both are written into the SQL: PostgreSQL then plans each statement
// once (a generic plan) instead of planning it again at every execution, as it does while
// a LIMIT or the table's name is a parameter (about 0.15 ms of its CPU per list request;
// docs/benchmarks.md). Other page sizes stay a parameter, so the statements per connection
// stay few. Columns: the table's as the database has them, read once (a column a later
// migration adds is listed too).
async function listStatementsReady(db: Knex, table: string, pageSize: number | undefined, columns: ListedColumns): Promise<TableStatements> {
  const limit = pageSize === undefined ? '?' : String(pageSize);
  const listed = columns === 'keys' ? keyColumnsOf(table) : await listedColumnsOf(db, table);
  const counted = (column: string) => `(select ${column} from facility_resource_counts where resource = '${table}' and facility_id = ?) as counted_${column}`;
  const sql = {
    firstPage: `select ${counted('total')}, ${counted('layout_version')}, ${listed} from ${table} where facility_id = ? order by seq limit ${limit}`,
    page: `select ${listed} from ${table} where facility_id = ? and seq > ? order by seq limit ${limit}`,
    residentPage: `select ${listed} from ${table} where facility_id = ? and resident_id = ? and seq > ? order by seq limit ${limit}`,
    residentCount: `select count(*) as total from ${table} where facility_id = ? and resident_id = ?`,
  };
  tableStatements.set(`${table} ${limit} ${columns}`, sql);
  return sql;
}
