// The FHIR R4 view (/api/v1/fhir/R4/{org_id}/{facility_id}): a second renderer over the same
// rows as the spec's endpoints. Its operations are contract operations like the others:
// openapi-backend routes and validates them, the secured handler authorizes them (one
// tenancy check) and audits them (one trail). Only the rendering differs: R4 resources in a
// searchset Bundle, application/fhir+json, and OperationOutcome errors (chosen by the
// operation's `x-ofctx-error-format`, see http/error-format.ts).
import type { Context } from 'koa';
import { ApiError } from '../../errors/api-error.js';
import { isUuid } from '../../db/uuid.js';
import type { OperationHandler, OperationRequest, PublicOperationHandler } from '../../http/operation.js';
import { conditionalGet, versionTag } from '../../http/conditional-get.js';
import { readRow, type ResourceRow } from '../resource-rows.js';
import { fetchSyncPage } from '../sync-pages.js';
import type { ListScope } from '../pagination.js';
import { capabilityStatement } from './capability-statement.js';
import { R4_TYPES, type R4Type } from './r4-types.js';

export const FHIR_JSON_UTF8 = 'application/fhir+json; charset=utf-8';
const FHIR_HEADERS = { 'Content-Type': FHIR_JSON_UTF8 };
export const DEFAULT_COUNT = 50;

/** The absolute base of the facility's R4 view, as the caller reached it. */
export function fhirBase(koa: Context, params: Record<string, string>): string {
  return `${koa.protocol}://${koa.host}/api/v1/fhir/R4/${params.org_id}/${params.facility_id}`;
}

function invalid(field: string, issue: string): ApiError {
  return new ApiError('invalid_parameter', undefined, [{ field, issue }]);
}

/** The resident named by patient / subject / beneficiary (all must agree). */
function residentOf(r4: R4Type, query: Record<string, unknown>): string | undefined {
  const named = r4.residentParams
    .filter((name) => query[name] !== undefined)
    .map((name) => [name, String(query[name]).replace(/^Patient\//, '').toLowerCase()] as const);
  if (named.some(([, id]) => id !== named[0]![1])) throw invalid(`query.${named[1]![0]}`, `names another patient than ${named[0]![0]}`);
  return named[0]?.[1];
}

function idsOf(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = String(raw).split(',').map((id) => id.trim().toLowerCase()).filter(Boolean);
  if (ids.length === 0 || ids.length > 200) throw invalid('query._id', 'must name 1 to 200 ids separated by commas');
  // Ids are UUIDs: any other id matches nothing (and never reaches a uuid column).
  return ids.filter(isUuid);
}

function searchOf(r4: R4Type): OperationHandler {
  return async ({ app, params, query, koa }: OperationRequest) => {
    const base = fhirBase(koa, params);
    const residentId = residentOf(r4, query);
    const scope: ListScope = { facility_id: params.facility_id!, ...(residentId !== undefined ? { resident_id: residentId } : {}) };
    const count = query._count === undefined ? DEFAULT_COUNT : Number(query._count);
    const { rows, page } = await fetchSyncPage<ResourceRow>(
      app.db,
      r4.table,
      scope,
      { page_size: count, _lastUpdated: query._lastUpdated, cursor: query._cursor },
      idsOf(query._id),
    );
    const link = [{ relation: 'self', url: `${base}/${r4.type}${koa.querystring ? `?${koa.querystring}` : ''}` }];
    if (page.next !== undefined) link.push({ relation: 'next', url: `${base}/${r4.type}?_count=${count}&_cursor=${page.next}` });
    const body = {
      resourceType: 'Bundle',
      type: 'searchset',
      total: page.total,
      link,
      entry: rows.map((row) => ({ fullUrl: `${base}/${r4.type}/${row.id}`, resource: r4.render(row), search: { mode: 'match' } })),
    };
    return { body, headers: FHIR_HEADERS, audit: { resourceIds: rows.map((row) => row.id) } };
  };
}

function readOf(r4: R4Type): OperationHandler {
  return async (request: OperationRequest) => {
    const id = request.params.id!.toLowerCase();
    const row = isUuid(id) ? await readRow<ResourceRow>(request.app.db, r4.table, request.params, id) : undefined;
    if (!row) throw new ApiError('not_found', `${r4.type}/${request.params.id} is not known in this facility.`);
    const headers = { ...FHIR_HEADERS, 'Last-Modified': new Date(row.last_updated).toUTCString() };
    return conditionalGet(request, versionTag(row.version_id), { body: r4.render(row), headers, audit: { resourceIds: [row.id] } });
  };
}

export const getFhirCapabilityStatement: PublicOperationHandler = async ({ params, koa }) => ({
  body: capabilityStatement(fhirBase(koa, params)),
  headers: FHIR_HEADERS,
});

export const r4Operations: Record<string, OperationHandler> = Object.fromEntries(
  R4_TYPES.flatMap((r4) => [
    [`searchFhir${r4.type}`, searchOf(r4)],
    [`readFhir${r4.type}`, readOf(r4)],
  ]),
);
