// A FHIR R4 search as a request states it (GET query, or POST _search form body plus query)
// -> the search to run: the parameters applied, parsed (tokens, strings with their modifier,
// date ranges, references), the sort, the page size, `_summary=count`, `_include` and the
// cursor. FHIR R4 3.1.1.2: with `Prefer: handling=strict` a parameter the server does not
// support is an error (400 naming it); otherwise it is ignored, and the self link shows only
// what was applied. A supported parameter with a malformed value is always a 400.
import { createHash } from 'node:crypto';
import { ApiError } from '../../../errors/api-error.js';
import { isUuid } from '../../../db/uuid.js';
import { normalizeText } from '../../../db/search-strings.js';
import type { R4Type } from '../r4-types.js';
import { searchParameters, sortKeys, type SearchParameter } from './search-parameters.js';
import { PLUS_AS_SPACE } from '../../../openapi/parameter-issues.js';

export const DEFAULT_COUNT = 50;
const MAX_VALUES = 200;

export type TokenValue = { system?: string; code?: string };
export type DateRange = { prefix: 'eq' | 'ne' | 'gt' | 'lt' | 'ge' | 'le'; start: string; end: string };

/** One occurrence of a parameter: its values are OR'ed; occurrences are AND'ed. */
export type Clause =
  | { parameter: SearchParameter; kind: 'ids'; ids: string[] }
  | { parameter: SearchParameter; kind: 'residents'; ids: string[] }
  | { parameter: SearchParameter; kind: 'tokens'; tokens: TokenValue[] }
  | { parameter: SearchParameter; kind: 'strings'; modifier: 'exact' | 'contains' | undefined; values: string[] }
  | { parameter: SearchParameter; kind: 'dates'; ranges: DateRange[] };

export interface Sort {
  column: string;
  descending: boolean;
}

export interface SearchRequest {
  clauses: Clause[];
  /** undefined: insertion order (or lastUpdated order when `_lastUpdated` is given). */
  sort?: Sort;
  count: number;
  summaryCount: boolean;
  /** `_include` of the resident reference. */
  includePatients: boolean;
  /** `_include=DiagnosticReport:result`: the reports' Observations. */
  includeResults?: boolean;
  /** The parameters applied, as [name, value] in the order given: the self link and the cursor's fingerprint. */
  applied: Array<[string, string]>;
  cursor?: string;
  /** Identifies the search a cursor belongs to (not its position). */
  fingerprint: string;
}

function invalid(name: string, issue: string, message?: string): ApiError {
  return new ApiError('invalid_parameter', message, [{ field: `query.${name}`, issue }]);
}

/** FHIR `Prefer: handling=strict|lenient` (RFC 7240); lenient is the default. */
export function strictHandling(prefer: string | string[] | undefined): boolean {
  const header = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return /(^|[,;\s])handling\s*=\s*"?strict"?/i.test(header);
}

/** Comma-separated values; `\,` is a literal comma (FHIR 3.1.1.5.7). */
function splitValues(name: string, raw: string): string[] {
  const values = raw.split(/(?<!\\),/).map((v) => v.replace(/\\,/g, ','));
  if (values.length > MAX_VALUES) throw invalid(name, `has more than ${MAX_VALUES} values`);
  if (values.some((v) => v === '')) throw invalid(name, 'has an empty value');
  return values;
}

function token(name: string, value: string): TokenValue {
  const bar = value.indexOf('|');
  if (bar < 0) return { code: value };
  const system = value.slice(0, bar);
  const code = value.slice(bar + 1);
  if (system === '' && code === '') throw invalid(name, 'must be code, system|code, system| or |code');
  return { system, ...(code === '' ? {} : { code }) };
}

const DATE = /^(eq|ne|gt|lt|ge|le)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/**
 * A date value -> the range [start, end) it covers at its precision (FHIR 3.1.1.4.2): `2026`
 * is the whole year, `2026-11-20T10:00Z` that minute. Times without a zone are UTC. Bounds are
 * ISO 8601 UTC instants; for day columns their first ten characters are compared.
 */
export function dateRange(name: string, value: string): DateRange {
  const m = DATE.exec(value);
  // A form body reads `+` as a space too (POST _search): say so where putting it back would parse.
  const plus = value.includes(' ') && DATE.test(value.replace(/ /g, '+')) ? `; ${PLUS_AS_SPACE}` : '';
  const fail = () => invalid(name, `must be a date or instant with an optional prefix eq, ne, gt, lt, ge or le, such as ge2026-11-20 or lt2026-11-20T10:00:00Z${plus}`);
  if (!m) throw fail();
  const [, prefix, year, month, day, hour, minute, second, fraction, zone] = m;
  const y = Number(year);
  const mo = month === undefined ? 1 : Number(month);
  const d = day === undefined ? 1 : Number(day);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) throw fail();
  let start: number;
  let end: number;
  if (hour === undefined) {
    start = Date.UTC(y, mo - 1, d);
    end = month === undefined ? Date.UTC(y + 1, 0, 1) : day === undefined ? Date.UTC(y, mo, 1) : Date.UTC(y, mo - 1, d + 1);
    if (new Date(start).getUTCDate() !== d) throw fail();
  } else {
    const text = `${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${(fraction ?? '').slice(0, 4)}${zone ?? 'Z'}`;
    start = Date.parse(text);
    if (Number.isNaN(start)) throw fail();
    const digits = fraction ? Math.min(fraction.length - 1, 3) : -1;
    end = start + (second === undefined ? 60_000 : digits < 0 ? 1000 : 10 ** (3 - digits));
  }
  if (y < 1 || end > Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1) throw fail();
  const iso = (ms: number) => new Date(ms).toISOString();
  return { prefix: (prefix ?? 'eq') as DateRange['prefix'], start: iso(start), end: iso(end) };
}

/** A resident reference: `Patient/<id>` or `<id>` (ids are UUIDs; another id matches nothing). */
function residentIds(name: string, raw: string): string[] {
  return splitValues(name, raw).map((value) => {
    const id = value.replace(/^Patient\//, '').toLowerCase();
    if (/[/?]/.test(id) || /^https?:/i.test(value)) throw invalid(name, 'must name a Patient: Patient/<id> or <id>');
    return id;
  });
}

function clauseOf(parameter: SearchParameter, modifier: string | undefined, raw: string): Clause | 'unsupported' {
  const name = parameter.name;
  const target = parameter.target;
  if (target.kind === 'string') {
    if (modifier !== undefined && modifier !== 'exact' && modifier !== 'contains') return 'unsupported';
    const values = splitValues(name, raw).map((v) => (modifier === 'exact' ? v : normalizeText(v)));
    if (values.some((v) => v.length > 200)) throw invalid(name, 'is longer than 200 characters');
    return { parameter, kind: 'strings', modifier: modifier as 'exact' | 'contains' | undefined, values };
  }
  if (target.kind === 'resident') {
    if (modifier !== undefined && modifier !== 'Patient') return 'unsupported';
    return { parameter, kind: 'residents', ids: residentIds(name, raw) };
  }
  if (modifier !== undefined) return 'unsupported';
  if (target.kind === 'id') {
    // Ids are UUIDs: any other id matches nothing (and never reaches a uuid column).
    return { parameter, kind: 'ids', ids: splitValues(name, raw).map((id) => id.trim().toLowerCase()) };
  }
  if (target.kind === 'date' || target.kind === 'lastUpdated') return { parameter, kind: 'dates', ranges: splitValues(name, raw).map((v) => dateRange(name, v)) };
  return { parameter, kind: 'tokens', tokens: splitValues(name, raw).map((v) => token(name, v)) };
}

/** The (name, value) pairs of a query string and, for POST _search, of the form body. */
export function searchPairs(querystring: string, body: unknown): Array<[string, string]> {
  const pairs: Array<[string, string]> = [...new URLSearchParams(querystring)];
  if (body !== null && typeof body === 'object') {
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      for (const one of Array.isArray(value) ? value : [value]) if (typeof one === 'string') pairs.push([name, one]);
    }
  }
  return pairs;
}

/** Reads the search of a request; `strict` from `Prefer: handling=strict`. */
export function readSearch(r4: R4Type, pairs: Array<[string, string]>, strict: boolean): SearchRequest {
  const parameters = new Map(searchParameters(r4.type).map((p) => [p.name, p]));
  const sorts = sortKeys(r4.type);
  const search: SearchRequest = { clauses: [], count: DEFAULT_COUNT, summaryCount: false, includePatients: false, applied: [], fingerprint: '' };
  const unsupported = (name: string, issue: string) => {
    if (strict) throw invalid(name, issue, `${name} is not supported by this server's ${r4.type} search (Prefer: handling=strict).`);
  };
  const residentParams = [...parameters.values()].filter((p) => p.target.kind === 'resident').map((p) => p.name);
  for (const [key, value] of pairs) {
    const [name, modifier] = key.split(':', 2) as [string, string | undefined];
    switch (key) {
      case '_count': {
        if (!/^\d{1,3}$/.test(value) || Number(value) > 200) throw invalid('_count', 'must be an integer from 0 to 200');
        // FHIR R4 (search.html#count): _count=0 is treated as _summary=count, the total alone.
        if (Number(value) === 0) search.summaryCount = true;
        else search.count = Number(value);
        search.applied.push([key, String(Number(value))]);
        continue;
      }
      case '_cursor':
        search.cursor = value;
        continue;
      case '_format':
        if (!['json', 'application/json', 'application/fhir+json'].includes(value)) throw invalid('_format', 'must name JSON: only application/fhir+json is served');
        continue;
      case '_sort': {
        const keys = value.split(',');
        const first = keys[0]!.replace(/^-/, '');
        if (sorts[first] === undefined || keys.length > 1) {
          unsupported('_sort', `can sort by one of ${Object.keys(sorts).join(', ')} (with - for descending)`);
          if (sorts[first] === undefined) continue;
        }
        search.sort = { column: sorts[first], descending: keys[0]!.startsWith('-') };
        search.applied.push([key, keys[0]!]);
        continue;
      }
      case '_summary':
        if (value !== 'count') {
          unsupported('_summary', 'only _summary=count is supported');
          continue;
        }
        search.summaryCount = true;
        search.applied.push([key, value]);
        continue;
      case '_include': {
        const [source, param, targetType, ...rest] = value.split(':');
        if (r4.type === 'DiagnosticReport' && source === r4.type && param === 'result' && (targetType === undefined || targetType === 'Observation') && rest.length === 0) {
          search.includeResults = true;
          search.applied.push([key, value]);
          continue;
        }
        if (source !== r4.type || !residentParams.includes(param ?? '') || (targetType !== undefined && targetType !== 'Patient') || rest.length > 0) {
          const includable = [...residentParams.map((p) => `${r4.type}:${p}`), ...(r4.type === 'DiagnosticReport' ? ['DiagnosticReport:result'] : [])];
          unsupported('_include', includable.length > 0 ? `can include ${includable.join(' or ')}` : 'includes nothing for this type');
          continue;
        }
        search.includePatients = true;
        search.applied.push([key, value]);
        continue;
      }
    }
    const parameter = parameters.get(name);
    if (!parameter) {
      unsupported(key, 'is not a known parameter');
      continue;
    }
    // No stored value holds U+0000, and PostgreSQL's text refuses it (a 500 until the fuzzer found it).
    if (value.includes('\u0000')) throw invalid(key, 'must not contain the NUL character (U+0000)', `${key} must not contain the NUL character (U+0000).`);
    const clause = clauseOf(parameter, modifier, value);
    if (clause === 'unsupported') {
      unsupported(key, `the modifier :${modifier} is not supported on ${name}`);
      continue;
    }
    search.clauses.push(clause);
    search.applied.push([key, value]);
  }
  search.fingerprint = createHash('sha256')
    .update(JSON.stringify([r4.type, search.applied]))
    .digest('base64url')
    .slice(0, 16);
  return search;
}

/** Only UUIDs can match an id column; others match nothing. */
export function uuidsOnly(ids: string[]): string[] {
  return ids.filter(isUuid);
}
