// No parameter or field of this API has a use for U+0000, and PostgreSQL's text cannot hold
// it: a query or path parameter the operation declares, or a string anywhere in a JSON or form
// body read before the operation, that carries one (`%00`, `\u0000`) is refused as invalid
// (400, naming the parameter or field; the token endpoint's invalid_request), on both
// databases alike, before any handler reads it. Streamed bodies are their readers' concern:
// a FHIR resource refused on its own (ingest/prepared-change.ts), an X12 interchange refused
// whole (x12/eligibility-271.ts). Header values cannot hold it (Node's parser refuses them).
import type { ErrorObject } from 'ajv';
import type { OpenAPIRouter, Operation } from 'openapi-backend';
import { coercedRequestOf, operationOf, type RequestValidator } from './request-validator.js';
import { queryParametersOf } from './request-parser.js';
import { holdsNul } from '../db/storable-text.js';

export const NUL_ISSUE = 'must not contain the NUL character (U+0000)';

const pointer = (steps: Array<string | number>) => steps.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

function nulError(location: 'query' | 'path', name: string): ErrorObject {
  return { keyword: 'nul', instancePath: `/${location}${pointer([name])}`, schemaPath: `#/parameters/${name}`, params: {}, message: NUL_ISSUE };
}

/** The place of each string holding NUL in a parsed body (keys included), at most ten. */
function nulsInBody(value: unknown, at: Array<string | number>, found: ErrorObject[]): void {
  if (found.length >= 10) return;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ keyword: 'nul', instancePath: `/requestBody${pointer(at)}`, schemaPath: '#/requestBody', params: {}, message: NUL_ISSUE });
  } else if (Array.isArray(value)) value.forEach((item, i) => nulsInBody(item, [...at, i], found));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) found.push({ keyword: 'nul', instancePath: `/requestBody${pointer([...at, key])}`, schemaPath: '#/requestBody', params: {}, message: NUL_ISSUE });
      nulsInBody(item, [...at, key], found);
    }
  }
}

/** `validate`, with a request it passed refused when a declared query or path parameter, or its parsed body, holds NUL. */
export function refusingNulCharacters(validate: RequestValidator, router: OpenAPIRouter): RequestValidator {
  return (req, given) => {
    const result = validate(req, given);
    if (result.errors) return result;
    const operation = operationOf(router, req, given);
    const errors: ErrorObject[] = [];
    const query = (result.coerced.query ?? {}) as Record<string, unknown>;
    for (const name of queryParametersOf(operation as Operation).keys()) if (holdsNul(query[name])) errors.push(nulError('query', name));
    for (const [name, value] of Object.entries((result.coerced.params ?? {}) as Record<string, unknown>)) if (holdsNul(value)) errors.push(nulError('path', name));
    if (typeof req.body === 'object') nulsInBody(req.body, [], errors);
    if (errors.length === 0) return result;
    // The parse kept for the handlers is not needed: let go of it (and its headers) now.
    coercedRequestOf(result);
    return { ...result, valid: false, errors };
  };
}
