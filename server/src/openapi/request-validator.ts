// openapi-backend's validateRequest, with what depends only on the operation worked out once
// per operation instead of on every request: which query parameters are arrays (the library
// searches the parameter list with lodash for each query value), which take JSON content (it
// filters the list on every request) and the request body's media types. The request is still
// parsed by the router and checked by the validators openapi-backend compiled for the
// operation, in the same order, with the same result. A test checks both agree on every
// operation of the contract, for valid and invalid requests.
import type { OpenAPIRouter, OpenAPIValidator, Operation, ParsedRequest, Request, ValidationResult } from 'openapi-backend';
import type { ErrorObject } from 'ajv';
import { queryParametersOf, type Parameter } from './request-parser.js';

interface OperationFacts {
  /** The first `in: query` parameter of each name whose schema is an array (lodash `_.find` picks the first). */
  arrayQueryParameters: Set<string>;
  /** Query parameters declared with `content: application/json`. */
  jsonQueryParameters: Parameter[];
  /** The request body's only media type is application/json. */
  onlyJsonBody: boolean;
  /**
   * Validation changes nothing of the parsed request but its query: every path and header
   * parameter is a plain string with no default (Ajv neither coerces nor fills them) and there
   * is no cookie parameter. Then the parse validated is what a parse of the coerced request
   * gives (coercedRequestOf).
   */
  parseReusable: boolean;
}

export type RequestValidator = (req: Request, operation?: Operation | string) => ValidationResult;

// The request as the router would parse it again after coercion, kept with the result that
// validated it. openapi-backend parses the coerced request once more for the handlers (a
// whole parse: the headers copied, the query cloned, the path matched again); where
// validation changed only the query (parseReusable), that parse equals the one validated,
// query coerced: it is handed on instead (a test compares both on every operation).
// One slot, not a WeakMap: the request loop asks for it right after validating, in the same
// synchronous step (openapi/request-handler.ts), and a WeakMap entry per request cost its
// write barrier and the scavenger's ephemeron pass (2-3% of a /healthz request in a perf
// profile, 2026-11-27). A result not the latest validated, or asked a second time, gets
// undefined: its request is parsed again.
const latest: { result: ValidationResult | undefined; parsed: ParsedRequest | undefined } = { result: undefined, parsed: undefined };

/**
 * The parse of `result.coerced`, when it is the latest result validated and its parse serves.
 * Handed once: the slot is emptied, so no request's parse (its headers, a bearer token among
 * them) stays referenced after its request.
 */
export function coercedRequestOf(result: ValidationResult): ParsedRequest | undefined {
  if (latest.result !== result) return undefined;
  const parsed = latest.parsed;
  latest.result = latest.parsed = undefined;
  return parsed;
}

function factsOf(operation: Operation): OperationFacts {
  const parameters = (operation.parameters ?? []) as Parameter[];
  // `_.find(parameters, { name, in: 'query' })`: the first parameter with that name in the query.
  const arrayQueryParameters = new Set([...queryParametersOf(operation)].filter(([, parameter]) => parameter.schema?.type === 'array').map(([name]) => name));
  const jsonQueryParameters = parameters.filter((parameter) => !('$ref' in parameter) && parameter.in === 'query' && parameter.content?.['application/json']);
  const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
  const payloadFormats = Object.keys(content);
  const parseReusable = parameters.every((parameter) => {
    if ('$ref' in parameter) return false;
    if (parameter.in === 'cookie') return false;
    if (parameter.in !== 'path' && parameter.in !== 'header') return true;
    const schema = parameter.schema as { type?: unknown; default?: unknown } | undefined;
    return schema?.type === 'string' && schema.default === undefined;
  });
  return { arrayQueryParameters, jsonQueryParameters, onlyJsonBody: payloadFormats.length === 1 && payloadFormats[0] === 'application/json', parseReusable };
}

/** The operation a validator was asked about: the one given (or its id), else the one the request routes to. */
export function operationOf(router: OpenAPIRouter, req: Request, given: Operation | string | undefined): Operation | undefined {
  return given === undefined ? router.matchOperation(req) : typeof given === 'string' ? router.getOperation(given) : given;
}

export function compiledRequestValidator(validator: OpenAPIValidator): RequestValidator {
  const facts = new Map<Operation, OperationFacts>();
  const factsFor = (operation: Operation): OperationFacts => {
    let known = facts.get(operation);
    if (!known) {
      known = factsOf(operation);
      facts.set(operation, known);
    }
    return known;
  };

  return (req, given) => {
    const result: ValidationResult = { valid: true, coerced: { ...req }, errors: [] };
    const errors = result.errors as ErrorObject[];
    const operation = operationOf(validator.router, req, given);
    if (!operation || !operation.operationId) throw new Error(`Unknown operation`);
    const validators = validator.getRequestValidatorsForOperation(operation.operationId) || [];
    const parsed = validator.router.parseRequest(req, operation);
    const { params, query, headers, cookies, requestBody } = parsed;
    const { arrayQueryParameters, jsonQueryParameters, onlyJsonBody, parseReusable } = factsFor(operation);
    if (query) {
      for (const name of Object.keys(query)) {
        const value = query[name];
        if (typeof value === 'string' && arrayQueryParameters.has(name)) query[name] = [value];
      }
    }
    // `_.omitBy({ path, query, header, cookie }, _.isNil)`
    const parameters: Record<string, unknown> = {};
    if (params != null) parameters.path = params;
    if (query != null) parameters.query = query;
    if (headers != null) parameters.header = headers;
    if (cookies != null) parameters.cookie = cookies;
    if (typeof req.body !== 'object' && req.body !== undefined && onlyJsonBody) {
      // JSON that does not parse, when JSON is the only body the operation takes.
      try {
        JSON.parse(`${req.body}`);
      } catch (err) {
        if (err instanceof Error) errors.push({ keyword: 'parse', instancePath: '', schemaPath: '#/requestBody', params: [], message: err.message } as unknown as ErrorObject);
      }
    }
    if (jsonQueryParameters.length) {
      const rawQuery = validator.router.parseRequestQuery(req);
      for (const parameter of jsonQueryParameters) {
        const rawValue = rawQuery[parameter.name!];
        if (typeof rawValue !== 'string') continue;
        try {
          JSON.parse(rawValue);
        } catch (err) {
          if (err instanceof Error) {
            errors.push({ keyword: 'parse', instancePath: `/query/${parameter.name}`, schemaPath: `#/parameters/${parameter.name}`, params: [], message: err.message } as unknown as ErrorObject);
          }
        }
      }
    }
    // The media type, without parameters such as charset.
    const rawContentType = headers['content-type'];
    const contentType = String((Array.isArray(rawContentType) ? rawContentType[0] : rawContentType) || '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (typeof requestBody === 'object' || contentType === 'application/json') parameters.requestBody = requestBody;
    for (const validate of validators) {
      validate(parameters);
      if (validate.errors) {
        errors.push(...validate.errors);
      } else if (validator.coerceTypes) {
        result.coerced.query = parameters.query;
        result.coerced.params = parameters.path;
      }
    }
    if (errors.length === 0) {
      result.errors = null;
      latest.result = result;
      latest.parsed = validator.coerceTypes && parseReusable ? parsed : undefined;
    } else {
      result.valid = false;
      latest.result = latest.parsed = undefined;
    }
    return result;
  };
}
