// The FHIR R4 view (/api/v1/fhir/R4/{org_id}/{facility_id}): a second renderer over the same
// rows as the spec's endpoints. Its operations are contract operations like the others:
// openapi-backend routes and validates them, the secured handler authorizes them (one
// tenancy check) and audits them (one trail). Only the rendering differs: R4 resources in a
// searchset Bundle, application/fhir+json, and OperationOutcome errors (chosen by the
// operation's `x-ofctx-error-format`, see http/error-format.ts).
import type { Context } from 'koa';
import { ApiError } from '../../errors/api-error.js';
import { isUuid } from '../../db/uuid.js';
import type { OperationHandler, OperationRequest, PublicOperationHandler } from '../../app-context.js';
import { conditionalGet, versionTag } from '../../http/conditional-get.js';
import { readRow } from '../resource-rows.js';
import type { ResourceRow } from '../../db/resource-row.js';
import { authorize } from '../../tenancy/authorize.js';
import { readSearch, searchPairs, strictHandling } from './search/search-request.js';
import { countMatches, orderOf, searchPageAndTotal, type SearchScope } from './search/search-query.js';
import { toR4Patient } from './r4-patient.js';
import { capabilityStatement } from './capability-statement.js';
import { R4_TYPES, withRelated, type R4Type } from './r4-types.js';
import { visibilityOf } from '../../tenancy/authorize.js';
import { disclosuresOf } from '../../audit/disclosures.js';
// The tenancy rules read granular scopes' types through it (tenancy/restrictable-types.ts).
import './search/restrictable-r4-types.js';

export const FHIR_JSON_UTF8 = 'application/fhir+json; charset=utf-8';
const FHIR_HEADERS = { 'Content-Type': FHIR_JSON_UTF8 };

/** The absolute base of the facility's R4 view, as the caller reached it. */
export function fhirBase(koa: Context, params: Record<string, string>): string {
  return `${koa.protocol}://${koa.host}/api/v1/fhir/R4/${params.org_id}/${params.facility_id}`;
}

interface Cursor {
  t: string;
  /** The search it belongs to (search-request.ts's fingerprint). */
  f: string;
  v?: string;
  s: number;
  p: number;
}

function cursorOf(raw: string, r4: R4Type, fingerprint: string): Cursor {
  let cursor: Partial<Cursor> | null = null;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    cursor = null;
  }
  const wellFormed = cursor !== null && typeof cursor === 'object' && typeof cursor.t === 'string' && typeof cursor.f === 'string' &&
    Number.isSafeInteger(cursor.s) && Number.isSafeInteger(cursor.p) && (cursor.v === undefined || typeof cursor.v === 'string');
  if (!wellFormed) throw new ApiError('invalid_parameter', 'The cursor is not one this server gave; follow the next link as it is.', [{ field: 'query._cursor', issue: 'is not a cursor of this server' }]);
  if (cursor!.t !== r4.type || cursor!.f !== fingerprint) {
    throw new ApiError('invalid_parameter', 'This cursor belongs to another search; follow the next link as it is.', [{ field: 'query._cursor', issue: 'belongs to another search' }]);
  }
  return cursor as Cursor;
}

function linkOf(base: string, r4: R4Type, pairs: Array<[string, string]>): string {
  const query = new URLSearchParams(pairs).toString();
  return `${base}/${r4.type}${query ? `?${query}` : ''}`;
}

/**
 * A search of the R4 view, GET (query) or POST _search (form body plus query): the request's
 * search (search-request.ts) run over indexed columns (search-query.ts) as a searchset Bundle,
 * paged by keyset through `next` links that carry the search and the position.
 */
function searchOf(r4: R4Type): OperationHandler {
  return async (request: OperationRequest) => {
    const { app, params, koa, principal } = request;
    const base = fhirBase(koa, params);
    const search = readSearch(r4, searchPairs(koa.querystring, request.body), strictHandling(request.headers.prefer));
    // _include=...:patient is part of the search: it needs the Patients' search half too.
    if (search.includePatients) authorize(principal, ['residents.read'], params, 'search');
    // The credential's access policy, inside every statement of the search (rows, total, includes).
    const filter = await visibilityOf(app.db, principal);
    const scope: SearchScope = { orgId: params.org_id!, facilityId: params.facility_id!, visibility: filter, hidesNothing: filter.isEmpty };
    const self = { relation: 'self', url: linkOf(base, r4, search.cursor ? [...search.applied, ['_cursor', search.cursor]] : search.applied) };
    if (search.summaryCount) {
      const total = await countMatches(app.db, r4, scope, search);
      return { body: { resourceType: 'Bundle', type: 'searchset', total, link: [self] }, headers: FHIR_HEADERS, audit: { resourceIds: [] } };
    }
    const cursor = search.cursor === undefined ? undefined : cursorOf(search.cursor, r4, search.fingerprint);
    const { rows, more, total } = await searchPageAndTotal<ResourceRow & Record<string, unknown>>(app.db, r4, scope, search, cursor && { value: cursor.v, seq: cursor.s });
    const link = [self];
    if (more) {
      const last = rows[rows.length - 1]!;
      const sort = orderOf(search);
      const next: Cursor = { t: r4.type, f: search.fingerprint, ...(sort ? { v: String(last[sort.column] ?? '') } : {}), s: Number(last.seq), p: (cursor?.p ?? 0) + 1 };
      link.push({ relation: 'next', url: linkOf(base, r4, [...search.applied, ['_cursor', Buffer.from(JSON.stringify(next)).toString('base64url')]]) });
    }
    await withRelated(r4, app.db, params.org_id!, rows);
    const entry = rows.map((row) => ({ fullUrl: `${base}/${r4.type}/${row.id}`, resource: r4.render(row), search: { mode: 'match' } }));
    const included: string[] = [];
    if (search.includePatients && rows.length > 0) {
      const residentIds = [...new Set(rows.map((row) => row.resident_id as string))];
      const patients = (await filter.apply(app.db('residents').where({ org_id: params.org_id, facility_id: params.facility_id }).whereIn('id', residentIds), 'residents').orderBy('seq')) as ResourceRow[];
      for (const patient of patients) {
        included.push(patient.id);
        entry.push({ fullUrl: `${base}/Patient/${patient.id}`, resource: toR4Patient(patient as never), search: { mode: 'include' } });
      }
    }
    // DiagnosticReport:result: the reports' Observations, as the credential may see them.
    const results: Array<ResourceRow & { resident_id?: string }> = [];
    if (search.includeResults && rows.length > 0) {
      const observations = R4_TYPES.find((t) => t.type === 'Observation')!;
      const ids = [...new Set(rows.flatMap((row) => (row.resultIds as string[] | undefined) ?? []))];
      for (let i = 0; i < ids.length; i += 500) {
        const found = (await filter.apply(app.db('observations').where({ org_id: params.org_id, facility_id: params.facility_id }).whereIn('id', ids.slice(i, i + 500)), 'observations').orderBy('seq')) as Array<ResourceRow & { resident_id?: string }>;
        results.push(...found);
      }
      await withRelated(observations, app.db, params.org_id!, results);
      for (const observation of results) entry.push({ fullUrl: `${base}/Observation/${observation.id}`, resource: observations.render(observation), search: { mode: 'include' } });
    }
    const body = { resourceType: 'Bundle', type: 'searchset', total, link, ...(entry.length > 0 ? { entry } : {}) };
    return {
      body,
      headers: FHIR_HEADERS,
      audit: {
        resourceIds: [...rows.map((row) => row.id), ...included, ...results.map((row) => row.id)],
        disclosures: [...disclosuresOf(r4.type, rows), ...disclosuresOf('Patient', included.map((id) => ({ id })), rows.length), ...disclosuresOf('Observation', results, rows.length + included.length)],
      },
    };
  };
}

function readOf(r4: R4Type): OperationHandler {
  return async (request: OperationRequest) => {
    const id = request.params.id!.toLowerCase();
    const row = isUuid(id) ? await readRow<ResourceRow>(request.app.db, r4.table, request.params, id, await visibilityOf(request.app.db, request.principal)) : undefined;
    if (!row) throw new ApiError('not_found', `${r4.type}/${request.params.id} is not known in this facility.`);
    await withRelated(r4, request.app.db, request.params.org_id!, [row]);
    const headers = { ...FHIR_HEADERS, 'Last-Modified': new Date(row.last_updated).toUTCString() };
    return conditionalGet(request, versionTag(row.version_id), { body: r4.render(row), headers, audit: { resourceIds: [row.id], disclosures: disclosuresOf(r4.type, [row as ResourceRow & { resident_id?: string }]) } });
  };
}

export const getFhirCapabilityStatement: PublicOperationHandler = async ({ params, koa }) => ({
  body: capabilityStatement(fhirBase(koa, params)),
  headers: FHIR_HEADERS,
});

export const r4Operations: Record<string, OperationHandler> = Object.fromEntries(
  R4_TYPES.flatMap((r4) => [
    [`searchFhir${r4.type}`, searchOf(r4)],
    [`searchFhir${r4.type}ByPost`, searchOf(r4)],
    [`readFhir${r4.type}`, readOf(r4)],
  ]),
);
