// Ajv's wording of a request parameter that fails its schema, reworded where it would not
// tell a partner the fix (stripe-node's rule: an error says what to send instead):
// - a `pattern` answers with the regular expression itself. The contract words what the
//   parameter takes beside each pattern (`x-ofctx-pattern-issue`), and that is the issue.
// - a `+` that reached the server as a space: form encoding, which query strings follow,
//   reads `+` as a space, so `_lastUpdated=gt2026-11-20T10:00:00+05:00` arrives with a space
//   where its zone was. When putting `+` back would have matched, the issue says to send
//   `%2B`. The value is not repaired: a server guessing at a date's zone would answer
//   another search than the one asked, where HTTP and FHIR leave the encoding to the client.
// - a parameter (or a form body's field) given twice where the contract takes one value:
//   Ajv says `must be integer` (or string) of the two values it received; the issue says it
//   is repeated.
import type { ErrorObject } from 'ajv';
import type { OpenAPIValidator } from 'openapi-backend';
import { operationOf, type RequestValidator } from './request-validator.js';
import { unescapePointer } from './validation-details.js';

export const PATTERN_ISSUE_KEYWORD = 'x-ofctx-pattern-issue';

export const PLUS_AS_SPACE = 'a + in a query string or form body is read as a space: send + as %2B';

/** The schema object holding the keyword an error's `schemaPath` names, within the validated schema. */
function schemaHolding(root: unknown, schemaPath: string): Record<string, unknown> | undefined {
  if (!schemaPath.startsWith('#/')) return undefined;
  let at = root;
  for (const part of schemaPath.slice(2).split('/').slice(0, -1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[unescapePointer(part)];
  }
  return at !== null && typeof at === 'object' ? (at as Record<string, unknown>) : undefined;
}

/** The value at an error's `instancePath` in the request as parsed, before validation. */
function valueAt(data: unknown, instancePath: string): unknown {
  let at = data;
  for (const part of instancePath.split('/').slice(1)) {
    // A value given once where the contract takes a list is validated as a list of one.
    if (typeof at === 'string' && part === '0') continue;
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[unescapePointer(part)];
  }
  return at;
}

function matchesWithPlus(value: string, pattern: unknown): boolean {
  if (typeof pattern !== 'string' || !value.includes(' ')) return false;
  try {
    return new RegExp(pattern, 'u').test(value.replace(/ /g, '+'));
  } catch {
    return false;
  }
}

function reworded(error: ErrorObject, schemas: readonly unknown[], data: RequestData): ErrorObject {
  const at = error.instancePath;
  // A list where the contract takes one value: the parameter (or form field) was repeated.
  if (error.keyword === 'type' && (at.startsWith('/query/') || at.startsWith('/requestBody/')) && Array.isArray(valueAt(data, at))) {
    return { ...error, message: 'is given more than once; give it once' };
  }
  if (error.keyword !== 'pattern' || !(at.startsWith('/query/') || at.startsWith('/path/') || at.startsWith('/header/'))) return error;
  // The operation's validators (its parameters', its body's) report paths within their own schema.
  const holding = schemas.map((schema) => schemaHolding(schema, error.schemaPath)).find((held) => held?.pattern === error.params.pattern);
  const worded = holding?.[PATTERN_ISSUE_KEYWORD];
  const value = valueAt(data, at);
  const plus = typeof value === 'string' && matchesWithPlus(value, error.params.pattern);
  const issue = typeof worded === 'string' ? worded : error.message;
  if (issue === error.message && !plus) return error;
  return { ...error, message: plus ? `${issue}; ${PLUS_AS_SPACE}` : issue };
}

/** The request as parsed, at the places Ajv's instance paths start from. */
interface RequestData {
  path: unknown;
  query: unknown;
  header: unknown;
  /** A form body only (RFC 6749 3.2: the token request's fields must not repeat); JSON arrays are values. */
  requestBody?: unknown;
}

function isForm(headers: Record<string, unknown>): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && type.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** `validate`, with the errors of a request it refused worded to say the fix. */
export function explainingParameterIssues(validate: RequestValidator, validator: OpenAPIValidator): RequestValidator {
  return (req, given) => {
    const result = validate(req, given);
    if (!result.errors?.length) return result;
    const operation = operationOf(validator.router, req, given);
    if (!operation?.operationId) return result;
    const schemas = (validator.getRequestValidatorsForOperation(operation.operationId) ?? []).map((compiled) => compiled.schema);
    const { params, query, headers } = validator.router.parseRequest(req, operation);
    const data: RequestData = { path: params, query, header: headers, ...(isForm(headers) ? { requestBody: req.body } : {}) };
    return { ...result, errors: (result.errors as ErrorObject[]).map((error) => reworded(error, schemas, data)) };
  };
}
