// What a Bulk Data kick-off asks (FHIR Bulk Data Access IG v2.0, $export): its types, _since
// and output format, from the query or (POST) a Parameters body; the parameters the IG defines
// and ofctx does not support, refused under `Prefer: handling=strict` (the default) or ignored
// and reported in the manifest under `handling=lenient`; and the types the token may read.
import { ApiError } from '../errors/api-error.js';
import type { Principal } from '../auth/principal.js';
import { R4_TYPES, type R4Type } from '../resources/r4/r4-types.js';
import { allows } from '../tenancy/scope-grants.js';

/** The types $export writes, in this order. */
export const EXPORT_TYPE_NAMES = ['Patient', 'Coverage', 'Observation', 'AllergyIntolerance', 'CoverageEligibilityResponse', 'DiagnosticReport'] as const;
export const EXPORT_TYPES: R4Type[] = EXPORT_TYPE_NAMES.map((name) => R4_TYPES.find((r4) => r4.type === name)!);
export const OUTPUT_FORMATS = ['application/fhir+ndjson', 'application/ndjson', 'ndjson'];
/** Parameters of the IG that ofctx does not support. */
export const UNSUPPORTED_PARAMETERS = ['_elements', '_typeFilter', 'patient', 'includeAssociatedData', 'organizeOutputBy', 'allowPartialManifests'];
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export interface ExportRequest {
  types: R4Type[];
  /** ISO 8601 UTC with milliseconds. */
  since?: string;
  /** Unsupported parameters ignored under handling=lenient. */
  ignored: string[];
}

function invalid(field: string, issue: string, message?: string): ApiError {
  return new ApiError('invalid_parameter', message, [{ field, issue }]);
}

/** The parameters as name -> values, from the query and a FHIR Parameters body. */
export function exportParameters(query: Record<string, unknown>, body: unknown): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  const add = (name: string, value: string) => parameters.set(name, [...(parameters.get(name) ?? []), value]);
  for (const [name, raw] of Object.entries(query)) for (const value of Array.isArray(raw) ? raw : [raw]) add(name, String(value));
  if (body !== undefined && body !== null && typeof body === 'object') {
    const resource = body as { resourceType?: unknown; parameter?: unknown };
    if (resource.resourceType !== 'Parameters' || (resource.parameter !== undefined && !Array.isArray(resource.parameter))) {
      throw new ApiError('invalid_body', 'A POST kick-off body must be a FHIR Parameters resource.', [{ field: 'body', issue: 'is not a Parameters resource' }]);
    }
    for (const [index, parameter] of ((resource.parameter ?? []) as Array<Record<string, unknown>>).entries()) {
      const value = Object.entries(parameter ?? {}).find(([key]) => key.startsWith('value'))?.[1];
      if (typeof parameter?.name !== 'string' || (typeof value !== 'string' && typeof value !== 'boolean')) {
        throw new ApiError('invalid_body', undefined, [{ field: `body.parameter[${index}]`, issue: 'needs a name and a value[x] of a primitive type' }]);
      }
      add(parameter.name, String(value));
    }
  }
  return parameters;
}

export function preferences(header: string | string[] | undefined): { async: boolean; lenient: boolean } {
  const tokens = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(/[,;]/).map((t) => t.trim().toLowerCase());
  return { async: tokens.includes('respond-async'), lenient: tokens.includes('handling=lenient') };
}

export function readExportRequest(principal: Principal, parameters: Map<string, string[]>, prefer: string | string[] | undefined): ExportRequest {
  const { async, lenient } = preferences(prefer);
  if (!async) throw invalid('header.prefer', 'must be respond-async', 'A Bulk Data export runs asynchronously: send Prefer: respond-async.');
  const ignored: string[] = [];
  for (const name of parameters.keys()) {
    if (!UNSUPPORTED_PARAMETERS.includes(name)) continue;
    if (!lenient) throw invalid(`query.${name}`, 'is not supported', `${name} is not supported by this server; send Prefer: handling=lenient to have it ignored.`);
    ignored.push(name);
  }
  const format = parameters.get('_outputFormat') ?? [];
  if (format.some((f) => !OUTPUT_FORMATS.includes(f))) throw invalid('query._outputFormat', `must be one of ${OUTPUT_FORMATS.join(', ')}`);
  const since = parameters.get('_since') ?? [];
  if (since.length > 1) throw invalid('query._since', 'is given more than once');
  if (since[0] !== undefined && (!INSTANT.test(since[0]) || Number.isNaN(Date.parse(since[0])))) {
    throw invalid('query._since', 'must be a FHIR instant with a zone, such as 2026-11-20T10:00:00Z');
  }
  const named = (parameters.get('_type') ?? []).flatMap((value) => value.split(',')).map((t) => t.trim()).filter(Boolean);
  for (const name of named) {
    if (!EXPORT_TYPES.some((r4) => r4.type === name)) throw invalid('query._type', `${name} is not exported; the types are ${EXPORT_TYPE_NAMES.join(', ')}`);
  }
  // An export lists every record of a type: a search, so SMART's `r` alone does not allow it.
  const exports = (r4: R4Type) => allows(principal.scopes, r4.scope, 'search');
  let types: R4Type[];
  if (named.length) {
    types = EXPORT_TYPES.filter((r4) => named.includes(r4.type));
    const refused = types.filter((r4) => !exports(r4));
    const missing = [...new Set(refused.map((r4) => r4.scope))];
    if (missing.length) {
      throw new ApiError('insufficient_scope', `Exporting ${refused.map((r4) => r4.type).join(', ')} needs the scope ${missing.join(' ')} with search (SMART s), which the access token does not carry.`, [{ field: 'scope', issue: `requires ${missing.join(' ')}` }]);
    }
  } else {
    // No _type: every type the token may read (the IG: within the client's authorization).
    types = EXPORT_TYPES.filter(exports);
  }
  return { types, ...(since[0] !== undefined ? { since: new Date(since[0]).toISOString() } : {}), ignored };
}
