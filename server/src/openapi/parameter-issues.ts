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
import type { OpenAPIValidator, Operation } from 'openapi-backend';
import type { RequestValidator } from './request-validator.js';

export const PATTERN_ISSUE_KEYWORD = 'x-ofctx-pattern-issue';

export const PLUS_AS_SPACE = 'a + in a query string or form body is read as a space: send + as %2B';

function unescapePointer(part: string): string {
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

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

function reworded(error: ErrorObject, schemas: readonly unknown[], data: unknown): ErrorObject {
  const onParameter = error.instancePath.startsWith('/query/') || error.instancePath.startsWith('/path/') || error.instancePath.startsWith('/header/');
  if (!onParameter) return error;
  if (error.keyword === 'pattern') {
    // The operation's validators (its parameters', its body's) report paths within their own schema.
    const holding = schemas.map((schema) => schemaHolding(schema, error.schemaPath)).find((held) => held?.pattern === error.params.pattern);
    const worded = holding?.[PATTERN_ISSUE_KEYWORD];
    const value = valueAt(data, error.instancePath);
    const plus = typeof value === 'string' && matchesWithPlus(value, error.params.pattern);
    const issue = typeof worded === 'string' ? worded : error.message;
    if (issue === error.message && !plus) return error;
    return { ...error, message: plus ? `${issue}; ${PLUS_AS_SPACE}` : issue };
  }
  if (error.keyword === 'type' && error.instancePath.startsWith('/query/') && Array.isArray(valueAt(data, error.instancePath))) return givenTwice(error);
  return error;
}

function givenTwice(error: ErrorObject): ErrorObject {
  return { ...error, message: 'is given more than once; give it once' };
}

function isForm(headers: Record<string, unknown>): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && type.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** A form body's field given twice (RFC 6749 3.2: the token request's parameters must not repeat), read as a list. */
function formFieldGivenTwice(error: ErrorObject, body: unknown): boolean {
  return error.keyword === 'type' && error.instancePath.startsWith('/requestBody/') && Array.isArray(valueAt({ requestBody: body }, error.instancePath));
}

/** `validate`, with the errors of a request it refused worded to say the fix. */
export function explainingParameterIssues(validate: RequestValidator, validator: OpenAPIValidator): RequestValidator {
  return (req, given) => {
    const result = validate(req, given);
    if (!result.errors?.length) return result;
    const operation = given === undefined ? validator.router.matchOperation(req) : typeof given === 'string' ? validator.router.getOperation(given) : given;
    if (!operation?.operationId) return result;
    const schemas = (validator.getRequestValidatorsForOperation(operation.operationId) ?? []).map((compiled) => compiled.schema);
    const { params, query, headers } = validator.router.parseRequest(req, operation as Operation);
    const data = { path: params, query, header: headers };
    const form = isForm(headers);
    return { ...result, errors: (result.errors as ErrorObject[]).map((error) => (form && formFieldGivenTwice(error, req.body) ? givenTwice(error) : reworded(error, schemas, data))) };
  };
}
