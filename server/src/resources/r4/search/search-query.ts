// The one place the SQL of an R4 search is built: the facility's rows of the type's table,
// narrowed by each clause over indexed columns (identifiers as (system, value) tokens in
// resource_identifiers, names normalised in search_strings, codes, statuses and dates in the
// row's own columns), then by the caller's visibility, then paged by keyset. Never a scan of
// JSON. Issue 23's access policy (payer-scoped credentials, consent) joins here as
// `SearchScope.visibility`, so every search, count and page honours it alike.
import type { Knex } from 'knex';
import { preparedStatements } from '../../../db/prepared-statements.js';
import { COUNTED_TABLES } from '../../../db/migrations/resource-counters.js';
import { ApiError } from '../../../errors/api-error.js';
import type { R4Type } from '../r4-types.js';
import { LOINC, OBSERVATION_CATEGORY, VITAL_SIGN_CODES } from './search-parameters.js';
import { uuidsOnly, type Clause, type DateRange, type SearchRequest, type Sort, type TokenValue } from './search-request.js';

export interface SearchScope {
  orgId: string;
  facilityId: string;
  /** A predicate on the searched table's rows that the caller may see (issue 23's access policy). */
  visibility?: (rows: Knex.QueryBuilder, table: string) => void;
  /** True when the visibility hides nothing here: a search without clauses counts from the facility's counter. */
  hidesNothing?: boolean;
}

/** A built search statement, run prepared (SQLite) through the varying-statement cache. */
async function rowsOf<Row>(db: Knex, q: Knex.QueryBuilder): Promise<Row[]> {
  return (await preparedStatements(db).allOfQuery(q)) as Row[];
}

type Where = Knex.QueryBuilder;
const NOTHING = '1 = 0';

/** The smallest string greater than every string starting with `prefix` (code point order). */
function successor(prefix: string): string {
  const chars = Array.from(prefix);
  const last = chars.pop()!.codePointAt(0)!;
  return chars.join('') + String.fromCodePoint(last + 1);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const DAY = 86_400_000;
const floorDay = (iso: string) => iso.slice(0, 10);
const ceilDay = (iso: string) => (iso.slice(10) === 'T00:00:00.000Z' ? iso.slice(0, 10) : new Date(Date.parse(iso.slice(0, 10)) + DAY).toISOString().slice(0, 10));

/**
 * A date clause's value against a column (FHIR 3.1.1.4.2). An instant column holds a point t;
 * a day column a whole day d, whose range [d, d+1) is compared with the value's [start, end).
 */
function dateCondition(q: Where, column: string, precision: 'day' | 'instant', range: DateRange): void {
  const { start, end } = range;
  const day = precision === 'day';
  const eq = (w: Where) => (day ? w.where(column, '>=', ceilDay(start)).andWhere(column, '<', floorDay(end)) : w.where(column, '>=', start).andWhere(column, '<', end));
  switch (range.prefix) {
    case 'eq':
      q.where(eq);
      return;
    case 'ne':
      q.whereNot(eq);
      return;
    case 'gt':
      q.where(column, '>=', day ? floorDay(end) : end);
      return;
    case 'lt':
      q.where(column, '<', day ? ceilDay(start) : start);
      return;
    case 'ge':
      q.where(column, '>=', day ? floorDay(start) : start);
      return;
    case 'le':
      q.where(column, '<', day ? ceilDay(end) : end);
      return;
  }
}

function tokenCondition(db: Knex, q: Where, clause: Clause & { kind: 'tokens' }, token: TokenValue, r4: R4Type, scope: SearchScope): void {
  const target = clause.parameter.target;
  switch (target.kind) {
    case 'code': {
      if (target.system !== undefined) {
        if (token.system !== undefined && token.system !== target.system) return void q.whereRaw(NOTHING);
      } else if (token.system === '') {
        return void q.whereRaw(NOTHING); // `|code`: a code without a system; every stored code has one
      } else if (token.system !== undefined) {
        q.where(target.systemColumn!, token.system);
      }
      if (token.code !== undefined) q.where(target.column, token.code);
      else q.whereNotNull(target.column);
      return;
    }
    case 'boolean': {
      if (token.code !== 'true' && token.code !== 'false') throw new ApiError('invalid_parameter', undefined, [{ field: `query.${clause.parameter.name}`, issue: 'must be true or false' }]);
      const value = token.code === 'true';
      q.where(target.column, db.client.config.client === 'pg' ? value : Number(value));
      return;
    }
    case 'observationCategory': {
      const system = token.system === undefined || token.system === OBSERVATION_CATEGORY;
      const code = token.code === undefined || token.code === 'vital-signs';
      if (!system || !code) return void q.whereRaw(NOTHING);
      q.where('code_system', LOINC).whereIn('code', VITAL_SIGN_CODES);
      return;
    }
    case 'identifier': {
      if (token.system === '') return void q.whereRaw(NOTHING);
      const identified = db('resource_identifiers').select('resource_id').where({ org_id: scope.orgId, resource_type: r4.type });
      if (token.system !== undefined) identified.where('system', token.system);
      if (token.code !== undefined) identified.where('value', token.code);
      q.whereIn(`${r4.table}.id`, identified);
      return;
    }
    default:
      throw new Error(`token search on ${target.kind}`);
  }
}

function clauseCondition(db: Knex, q: Where, clause: Clause, r4: R4Type, scope: SearchScope, correlate: boolean): void {
  const target = clause.parameter.target;
  switch (clause.kind) {
    case 'ids':
      q.whereIn(`${r4.table}.id`, uuidsOnly(clause.ids));
      return;
    case 'residents':
      q.whereIn(`${r4.table}.resident_id`, uuidsOnly(clause.ids));
      return;
    case 'tokens':
      q.where((any) => {
        for (const token of clause.tokens) any.orWhere((one) => tokenCondition(db, one, clause, token, r4, scope));
      });
      return;
    case 'strings': {
      if (target.kind !== 'string') throw new Error(`string search on ${target.kind}`);
      const matching = (names: Knex.QueryBuilder) =>
        names.whereIn('param', target.params).where((any) => {
          for (const value of clause.values) {
            if (clause.modifier === 'exact') any.orWhere('value', value);
            else if (clause.modifier === 'contains') any.orWhereRaw(`norm like ? escape '\\'`, [`%${escapeLike(value)}%`]);
            else any.orWhere((prefix) => prefix.where('norm', '>=', value).andWhere('norm', '<', successor(value)));
          }
        });
      if (correlate) {
        // The search starts from another index (a birth date's few rows): probe each row's own
        // names by its id, rather than gather every name of the prefix (every Smith) first.
        q.whereExists(matching(db('search_strings').select(db.raw('1')).whereRaw('?? = ??', ['search_strings.resource_id', `${r4.table}.id`])));
      } else {
        q.whereIn(`${r4.table}.id`, matching(db('search_strings').select('resource_id').where({ org_id: scope.orgId, resource_type: r4.type })));
      }
      return;
    }
    case 'dates': {
      const [column, precision] =
        target.kind === 'lastUpdated' ? ['last_updated', 'instant' as const] : target.kind === 'date' ? [target.column, target.precision] : ['', 'instant' as const];
      if (column === '') throw new Error(`date search on ${target.kind}`);
      q.where((any) => {
        for (const range of clause.ranges) any.orWhere((one) => dateCondition(one, `${r4.table}.${column}`, precision, range));
      });
      return;
    }
  }
}

/**
 * Whether a search should start from the rows its clauses' own indexes name rather than from
 * the facility's index: always for ids and identifiers (a row or two); for names unless a
 * birth date narrows the facility's own index to a day, which names common in a facility
 * (a tenth of it shares a family prefix) cannot beat.
 */
function startsFromClauseIndex(clauses: Clause[]): boolean {
  const exact = clauses.some((c) => c.kind === 'ids' || (c.kind === 'tokens' && c.parameter.target.kind === 'identifier'));
  const named = clauses.some((c) => c.kind === 'strings');
  const day = clauses.some((c) => c.kind === 'dates' && c.parameter.target.kind === 'date' && c.parameter.target.precision === 'day');
  return exact || (named && !day);
}

/** The facility's rows of the type matching every clause, as the caller may see them. */
export function matchingRows(db: Knex, r4: R4Type, scope: SearchScope, clauses: Clause[]): Knex.QueryBuilder {
  const facility = `${r4.table}.facility_id`;
  // SQLite's planner has no statistics: for `ORDER BY seq LIMIT n` it walks the facility's
  // (facility_id, seq) index and tests each row against the identifier or name subquery, every
  // resident of the facility for a single match (5 ms at 20,000 residents, 150 ms at 100,000).
  // The unary + keeps facility_id off the index choice, so such a search starts from the
  // subquery's few ids (their unique index) and sorts them (startsFromClauseIndex says when).
  // PostgreSQL plans by its statistics.
  const sqlite = db.client.config.client !== 'pg';
  const fromClauseIndex = sqlite && startsFromClauseIndex(clauses);
  const q = fromClauseIndex
    ? db(r4.table).whereRaw(`+${facility.split('.').map((part) => `"${part}"`).join('.')} = ?`, [scope.facilityId])
    : db(r4.table).where(facility, scope.facilityId);
  const correlate = sqlite && !fromClauseIndex;
  for (const clause of clauses) q.where((one) => clauseCondition(db, one, clause, r4, scope, correlate));
  scope.visibility?.(q, r4.table);
  return q;
}

/** Where a page starts: after the last row of the previous page (its sort value and seq). */
export interface Position {
  value?: string;
  seq: number;
}

/** The order of a search: its `_sort`, else lastUpdated with `_lastUpdated`, else insertion (seq). */
export function orderOf(search: SearchRequest): Sort | undefined {
  if (search.sort) return search.sort;
  return search.clauses.some((c) => c.parameter.target.kind === 'lastUpdated') ? { column: 'last_updated', descending: false } : undefined;
}

/**
 * One page in keyset order: (sort column, seq), both ascending or both descending, strictly
 * after `after`. seq is unique, so the order is total and a walk never skips or repeats a row.
 */
export async function searchPage<Row extends { seq: number }>(
  db: Knex,
  r4: R4Type,
  scope: SearchScope,
  search: SearchRequest,
  after: Position | undefined,
  leading?: Knex.Sql,
): Promise<{ rows: Row[]; more: boolean }> {
  const sort = orderOf(search);
  const q = matchingRows(db, r4, scope, search.clauses);
  if (leading) q.select(db.raw(`(${leading.sql}) as ${TOTAL_COLUMN}`, leading.bindings as Knex.RawBinding[]));
  q.select(`${r4.table}.*`);
  const seq = `${r4.table}.seq`;
  const direction = sort?.descending ? 'desc' : 'asc';
  const beyond = sort?.descending ? '<' : '>';
  if (after) {
    if (sort) {
      const column = `${r4.table}.${sort.column}`;
      q.where((k) => k.where(column, beyond, after.value ?? '').orWhere((same) => same.where(column, after.value ?? '').andWhere(seq, beyond, after.seq)));
    } else {
      q.where(seq, '>', after.seq);
    }
  }
  if (sort) q.orderBy([{ column: `${r4.table}.${sort.column}`, order: direction }, { column: seq, order: direction }]);
  else q.orderBy(seq);
  const rows = await rowsOf<Row>(db, q.limit(search.count + 1));
  return { rows: rows.slice(0, search.count), more: rows.length > search.count };
}

const TOTAL_COLUMN = 'search_total';

/** Whether the facility's counter holds the total: every row of a counted table, nothing hidden. */
function countedByTrigger(r4: R4Type, scope: SearchScope, search: SearchRequest): boolean {
  return search.clauses.length === 0 && scope.hidesNothing === true && (COUNTED_TABLES as readonly string[]).includes(r4.table);
}

/**
 * A page and the search's total. The total rides on the page's statement as a scalar
 * subquery (one statement, one round trip to PostgreSQL, instead of two); only a page with no
 * row after a cursor counts on its own, and a search without clauses reads the counter.
 */
export async function searchPageAndTotal<Row extends { seq: number }>(
  db: Knex,
  r4: R4Type,
  scope: SearchScope,
  search: SearchRequest,
  after: Position | undefined,
): Promise<{ rows: Row[]; more: boolean; total: number }> {
  if (countedByTrigger(r4, scope, search)) {
    const total = await countMatches(db, r4, scope, search);
    return { ...(await searchPage<Row>(db, r4, scope, search, after)), total };
  }
  const counting = matchingRows(db, r4, scope, search.clauses).count({ total: '*' }).toSQL();
  const { rows, more } = await searchPage<Row & { [TOTAL_COLUMN]?: number | string }>(db, r4, scope, search, after, counting);
  if (rows.length === 0) return { rows, more, total: after ? await countMatches(db, r4, scope, search) : 0 };
  const total = Number(rows[0]![TOTAL_COLUMN]);
  for (const row of rows) delete row[TOTAL_COLUMN];
  return { rows, more, total };
}

export async function countMatches(db: Knex, r4: R4Type, scope: SearchScope, search: SearchRequest): Promise<number> {
  // Every row of the facility: the count the triggers keep (the spec's lists read it too),
  // instead of counting 10^5 index entries at each plain search.
  if (countedByTrigger(r4, scope, search)) {
    const counted = await rowsOf<{ total: number | string }>(db, db('facility_resource_counts').where({ resource: r4.table, facility_id: scope.facilityId }).select('total').limit(1));
    return Number(counted[0]?.total ?? 0);
  }
  const [row] = await rowsOf<{ total: number | string }>(db, matchingRows(db, r4, scope, search.clauses).count({ total: '*' }));
  return Number(row?.total ?? 0);
}
