// The one place the SQL of an R4 search is built: the facility's rows of the type's table,
// narrowed by each clause over indexed columns (identifiers as (system, value) tokens in
// resource_identifiers, names normalised in search_strings, codes, statuses and dates in the
// row's own columns), then by the caller's visibility, then paged by keyset. Never a scan of
// JSON. Issue 23's access policy (payer-scoped credentials, consent) joins here as
// `SearchScope.visibility`, so every search, count and page honours it alike.
//
// The SQL is written as text, not built with knex: a search's clauses take a few shapes
// (tokens, strings, date ranges, references, the facility, the policy), and knex's query
// builders and their compilation cost as much CPU as SQLite's whole answer (issue 27). The
// text depends only on the search's shape (which parameters, how many values, which
// prefixes, the page size); the values are bindings, so a repeated shape reuses its prepared
// statement (db/prepared-statements.ts, allVarying).
import type { Knex } from 'knex';
import { preparedStatements } from '../../../db/prepared-statements.js';
import { isPostgres } from '../../../db/database.js';
import { COUNTED_TABLES } from '../../../db/migrations/resource-counters.js';
import { ApiError } from '../../../errors/api-error.js';
import type { RecordFilter } from '../../../tenancy/record-visibility.js';
import type { R4Type } from '../r4-types.js';
import { NULLABLE_SORT_COLUMNS, searchParameters } from './search-parameters.js';
import { LOINC, OBSERVATION_CATEGORY, VITAL_SIGN_CODES } from '../observation-codes.js';
import { uuidsOnly, type Clause, type DateRange, type SearchRequest, type Sort, type TokenValue } from './search-request.js';

export interface SearchScope {
  orgId: string;
  facilityId: string;
  /** The caller's access policy (issue 23): its restriction joins every statement of the search. */
  visibility?: RecordFilter;
  /** True when the visibility hides nothing here: a search without clauses counts from the facility's counter. */
  hidesNothing?: boolean;
}

/** A statement, or a part of one: SQL with `?` placeholders and their values in order. */
export interface SearchSql {
  sql: string;
  bindings: unknown[];
}

const NOTHING = '1 = 0';

/** The smallest string greater than every string starting with `prefix` (code point order). */
function successor(prefix: string): string {
  const chars = Array.from(prefix);
  const last = chars.pop()!.codePointAt(0)!;
  return chars.join('') + String.fromCodePoint(last + 1);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `?, ?, ?` for a list of n values (n >= 1). */
const marks = (n: number) => (n === 1 ? '?' : `?${', ?'.repeat(n - 1)}`);

const DAY = 86_400_000;
const floorDay = (iso: string) => iso.slice(0, 10);
const ceilDay = (iso: string) => (iso.slice(10) === 'T00:00:00.000Z' ? iso.slice(0, 10) : new Date(Date.parse(iso.slice(0, 10)) + DAY).toISOString().slice(0, 10));

/** Builds a condition's text while collecting its bindings in the order their marks appear. */
class Builder {
  readonly bindings: unknown[] = [];

  constructor(
    readonly postgres: boolean,
    readonly r4: R4Type,
    readonly scope: SearchScope,
  ) {}

  bind(sql: string, ...values: unknown[]): string {
    for (const value of values) this.bindings.push(value);
    return sql;
  }

  /** `column in (?, ...)`, or nothing matches when the list is empty. */
  in(column: string, values: readonly unknown[]): string {
    if (values.length === 0) return NOTHING;
    for (const value of values) this.bindings.push(value);
    return `${column} in (${marks(values.length)})`;
  }
}

/**
 * A date clause's value against a column (FHIR 3.1.1.4.2). An instant column holds a point t;
 * a day column a whole day d, whose range [d, d+1) is compared with the value's [start, end).
 */
function dateCondition(b: Builder, column: string, precision: 'day' | 'instant', range: DateRange): string {
  const { start, end } = range;
  const day = precision === 'day';
  const eq = () => (day ? b.bind(`${column} >= ? and ${column} < ?`, ceilDay(start), floorDay(end)) : b.bind(`${column} >= ? and ${column} < ?`, start, end));
  switch (range.prefix) {
    case 'eq':
      return eq();
    case 'ne':
      return `not (${eq()})`;
    case 'gt':
      return b.bind(`${column} >= ?`, day ? floorDay(end) : end);
    case 'lt':
      return b.bind(`${column} < ?`, day ? ceilDay(start) : start);
    case 'ge':
      return b.bind(`${column} >= ?`, day ? floorDay(start) : start);
    case 'le':
      return b.bind(`${column} < ?`, day ? ceilDay(end) : end);
  }
}

function tokenCondition(b: Builder, clause: Clause & { kind: 'tokens' }, token: TokenValue): string {
  const { r4, scope } = b;
  const target = clause.parameter.target;
  switch (target.kind) {
    case 'code': {
      const parts: string[] = [];
      if (target.system !== undefined) {
        if (token.system !== undefined && token.system !== target.system) return NOTHING;
      } else if (token.system === '') {
        return NOTHING; // `|code`: a code without a system; every stored code has one
      } else if (token.system !== undefined) {
        parts.push(b.bind(`${r4.table}.${target.systemColumn!} = ?`, token.system));
      }
      parts.push(token.code !== undefined ? b.bind(`${r4.table}.${target.column} = ?`, token.code) : `${r4.table}.${target.column} is not null`);
      return parts.join(' and ');
    }
    case 'boolean': {
      if (token.code !== 'true' && token.code !== 'false') throw new ApiError('invalid_parameter', undefined, [{ field: `query.${clause.parameter.name}`, issue: 'must be true or false' }]);
      const value = token.code === 'true';
      return b.bind(`${r4.table}.${target.column} = ?`, b.postgres ? value : Number(value));
    }
    case 'observationCategory': {
      // vital-signs as derived from the code, or the category the source gave (a lab result's
      // `laboratory`). Bindings follow their marks: the derived part is built first.
      const stored = () => tokenCondition(b, { ...clause, parameter: { ...clause.parameter, target: { kind: 'code', column: 'category_code', systemColumn: 'category_system' } } }, token);
      const system = token.system === undefined || token.system === OBSERVATION_CATEGORY;
      const code = token.code === undefined || token.code === 'vital-signs';
      if (!system || !code) return `(${stored()})`;
      const derived = `${b.bind(`${r4.table}.code_system = ?`, LOINC)} and ${b.in(`${r4.table}.code`, VITAL_SIGN_CODES)}`;
      return `((${derived}) or (${stored()}))`;
    }
    case 'identifier': {
      if (token.system === '') return NOTHING;
      let identified = b.bind('select resource_id from resource_identifiers where org_id = ? and resource_type = ?', scope.orgId, r4.type);
      if (token.system !== undefined) identified += b.bind(' and system = ?', token.system);
      if (token.code !== undefined) identified += b.bind(' and value = ?', token.code);
      return `${r4.table}.id in (${identified})`;
    }
    default:
      throw new Error(`token search on ${target.kind}`);
  }
}

/** Values of one clause are OR'ed. */
const anyOf = (conditions: string[]) => (conditions.length === 1 ? conditions[0]! : conditions.map((c) => `(${c})`).join(' or '));

function clauseCondition(b: Builder, clause: Clause, correlate: boolean): string {
  const { r4, scope } = b;
  const target = clause.parameter.target;
  switch (clause.kind) {
    case 'ids':
      return b.in(`${r4.table}.id`, uuidsOnly(clause.ids));
    case 'residents':
      return b.in(`${r4.table}.resident_id`, uuidsOnly(clause.ids));
    case 'tokens':
      return anyOf(clause.tokens.map((token) => tokenCondition(b, clause, token)));
    case 'strings': {
      if (target.kind !== 'string') throw new Error(`string search on ${target.kind}`);
      // The subquery's head, then its conditions: the bindings follow the text's order.
      const head = correlate
        ? // The search starts from another index (a birth date's few rows): probe each row's own
          // names by its id, rather than gather every name of the prefix (every Smith) first.
          `select 1 from search_strings where search_strings.resource_id = ${r4.table}.id`
        : b.bind('select resource_id from search_strings where org_id = ? and resource_type = ?', scope.orgId, r4.type);
      const params = b.in('param', target.params);
      const values = anyOf(
        clause.values.map((value) => {
          if (clause.modifier === 'exact') return b.bind('value = ?', value);
          if (clause.modifier === 'contains') return b.bind(`norm like ? escape '\\'`, `%${escapeLike(value)}%`);
          return b.bind('norm >= ? and norm < ?', value, successor(value));
        }),
      );
      const matching = `${head} and ${params} and (${values})`;
      return correlate ? `exists (${matching})` : `${r4.table}.id in (${matching})`;
    }
    case 'dates': {
      const [column, precision] =
        target.kind === 'lastUpdated' ? ['last_updated', 'instant' as const] : target.kind === 'date' ? [target.column, target.precision] : ['', 'instant' as const];
      if (column === '') throw new Error(`date search on ${target.kind}`);
      return anyOf(clause.ranges.map((range) => dateCondition(b, `${r4.table}.${column}`, precision, range)));
    }
  }
}

/**
 * The condition that the row of `r4` under `alias` matches any of `tokens` of its token
 * parameter `name`, exactly as the search `name=tokens` would: a granular scope's restriction
 * (tenancy/granular-restriction.ts). A parameter no longer served matches nothing.
 */
export function tokenMatch(postgres: boolean, r4: R4Type, orgId: string, name: string, tokens: readonly TokenValue[], alias: string): SearchSql {
  const parameter = searchParameters(r4.type).find((p) => p.name === name && p.type === 'token');
  if (!parameter) return { sql: NOTHING, bindings: [] };
  const b = new Builder(postgres, { ...r4, table: alias }, { orgId, facilityId: '' });
  const clause = { parameter, kind: 'tokens' as const, tokens: [...tokens] };
  return { sql: anyOf(clause.tokens.map((token) => tokenCondition(b, clause, token))), bindings: b.bindings };
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

/** The condition on the facility's rows of the type matching every clause, as the caller may see them. */
export function matchingRows(db: Knex, r4: R4Type, scope: SearchScope, clauses: Clause[]): SearchSql {
  const postgres = isPostgres(db);
  const b = new Builder(postgres, r4, scope);
  // SQLite's planner has no statistics: for `ORDER BY seq LIMIT n` it walks the facility's
  // (facility_id, seq) index and tests each row against the identifier or name subquery, every
  // resident of the facility for a single match (5 ms at 20,000 residents, 150 ms at 100,000).
  // The unary + keeps facility_id off the index choice, so such a search starts from the
  // subquery's few ids (their unique index) and sorts them (startsFromClauseIndex says when).
  // PostgreSQL plans by its statistics.
  const fromClauseIndex = !postgres && startsFromClauseIndex(clauses);
  let sql = b.bind(`${fromClauseIndex ? '+' : ''}${r4.table}.facility_id = ?`, scope.facilityId);
  const correlate = !postgres && !fromClauseIndex;
  for (const clause of clauses) sql += ` and (${clauseCondition(b, clause, correlate)})`;
  const visibility = scope.visibility;
  if (visibility && !visibility.isEmpty) {
    const restriction = visibility.rows(r4.table);
    sql += ` and (${restriction.sql})`;
    b.bindings.push(...restriction.bindings);
  }
  return { sql, bindings: b.bindings };
}

/** Where a page starts: after the last row of the previous page (its sort value and seq). */
export interface Position {
  value?: string;
  seq: number;
}

/** The expression a sort column is ordered and compared by: nullable ones as '' when null. */
function sortExpression(table: string, column: string): string {
  return NULLABLE_SORT_COLUMNS.has(column) ? `coalesce(${table}.${column}, '')` : `${table}.${column}`;
}

/** The order of a search: its `_sort`, else lastUpdated with `_lastUpdated`, else insertion (seq). */
export function orderOf(search: SearchRequest): Sort | undefined {
  if (search.sort) return search.sort;
  return search.clauses.some((c) => c.parameter.target.kind === 'lastUpdated') ? { column: 'last_updated', descending: false } : undefined;
}

const TOTAL_COLUMN = 'search_total';

/** The statement counting the rows `where` matches. */
export function countStatement(r4: R4Type, where: SearchSql): SearchSql {
  return { sql: `select count(*) as total from ${r4.table} where ${where.sql}`, bindings: where.bindings };
}

/**
 * The statement of one page in keyset order: (sort column, seq), both ascending or both
 * descending, strictly after `after`; seq is unique, so the order is total and a walk never
 * skips or repeats a row. One row more than the page tells whether another page follows. The
 * page size is written into the text (1 to 200): PostgreSQL then plans a prepared statement
 * once instead of again at each execution, as it does while a LIMIT is a parameter.
 * `leading`, a scalar subquery (the total), comes first as search_total.
 */
export function pageStatement(r4: R4Type, search: SearchRequest, where: SearchSql, after: Position | undefined, leading?: SearchSql): SearchSql {
  const sort = orderOf(search);
  const table = r4.table;
  const bindings: unknown[] = leading ? [...leading.bindings, ...where.bindings] : [...where.bindings];
  let sql = `select ${leading ? `(${leading.sql}) as ${TOTAL_COLUMN}, ` : ''}${table}.* from ${table} where ${where.sql}`;
  const seq = `${table}.seq`;
  const direction = sort?.descending ? 'desc' : 'asc';
  const beyond = sort?.descending ? '<' : '>';
  if (after) {
    if (sort) {
      const column = sortExpression(table, sort.column);
      sql += ` and (${column} ${beyond} ? or (${column} = ? and ${seq} ${beyond} ?))`;
      bindings.push(after.value ?? '', after.value ?? '', after.seq);
    } else {
      sql += ` and ${seq} > ?`;
      bindings.push(after.seq);
    }
  }
  sql += sort ? ` order by ${sortExpression(table, sort.column)} ${direction}, ${seq} ${direction}` : ` order by ${seq} asc`;
  sql += ` limit ${search.count + 1}`;
  return { sql, bindings };
}

async function rowsOf<Row>(db: Knex, statement: SearchSql): Promise<Row[]> {
  return (await preparedStatements(db).allVarying(statement.sql, statement.bindings)) as Row[];
}

/** One page of the search, without its total. */
export async function searchPage<Row extends { seq: number }>(
  db: Knex,
  r4: R4Type,
  scope: SearchScope,
  search: SearchRequest,
  after: Position | undefined,
): Promise<{ rows: Row[]; more: boolean }> {
  const rows = await rowsOf<Row>(db, pageStatement(r4, search, matchingRows(db, r4, scope, search.clauses), after));
  return { rows: rows.slice(0, search.count), more: rows.length > search.count };
}

/** Whether the facility's counter holds the total: every row of a counted table, nothing hidden. */
function countedByTrigger(r4: R4Type, scope: SearchScope, search: SearchRequest): boolean {
  return search.clauses.length === 0 && scope.hidesNothing === true && (COUNTED_TABLES as readonly string[]).includes(r4.table);
}

/**
 * A page and the search's total. On PostgreSQL the total rides on the page's statement as a
 * scalar subquery (one statement, one round trip, instead of two); only a page with no row
 * after a cursor counts on its own. On SQLite a first page holding every match counts
 * nothing. A search without clauses reads the counter.
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
  if (!isPostgres(db)) {
    // SQLite has no round trip to save: the page first, and a first page that holds every
    // match is its own total (a resident's vital signs, a Patient found by identifier), so
    // the count, which reads each matching row again, runs only when there is more.
    const page = await searchPage<Row>(db, r4, scope, search, after);
    return { ...page, total: !after && !page.more ? page.rows.length : await countMatches(db, r4, scope, search) };
  }
  const where = matchingRows(db, r4, scope, search.clauses);
  const { leading, rows } = await preparedStatements(db).allVaryingWithLeading(...statementOf(pageStatement(r4, search, where, after, countStatement(r4, where))), 1);
  const page = { rows: rows.slice(0, search.count) as Row[], more: rows.length > search.count };
  if (leading === undefined) return { ...page, total: after ? await countMatches(db, r4, scope, search) : 0 };
  return { ...page, total: Number(leading[TOTAL_COLUMN]) };
}

const statementOf = (statement: SearchSql): [string, unknown[]] => [statement.sql, statement.bindings];

const COUNTER_SQL = 'select total from facility_resource_counts where resource = ? and facility_id = ? limit 1';

export async function countMatches(db: Knex, r4: R4Type, scope: SearchScope, search: SearchRequest): Promise<number> {
  // Every row of the facility: the count the triggers keep (the spec's lists read it too),
  // instead of counting 10^5 index entries at each plain search.
  if (countedByTrigger(r4, scope, search)) {
    const counted = await preparedStatements(db).all(COUNTER_SQL, [r4.table, scope.facilityId]);
    return Number(counted[0]?.total ?? 0);
  }
  const [row] = await rowsOf<{ total: number | string }>(db, countStatement(r4, matchingRows(db, r4, scope, search.clauses)));
  return Number(row?.total ?? 0);
}
