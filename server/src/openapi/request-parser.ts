// openapi-backend parses every request four times (before routing, after routing, in the
// validator, and again after type coercion), and each time it deep-clones the query with
// lodash, serializes it with URLSearchParams only to throw the string away, lower-cases the
// headers with lodash, parses an absent cookie header, and compiles the operation's path
// template into fresh RegExps (bath-es5). This parser gives the same result with the path
// template compiled once per operation and none of the throw-away work. Requests it does not
// expect (a cookie header, a string body, a query given as a string, query values that are
// not plain JSON) go to the library's own parser. A test checks both agree on every operation
// of the contract and on odd requests.
import type { OpenAPIRouter, Operation, ParsedRequest, Request } from 'openapi-backend';

type PathParams = (path: string) => Record<string, string> | null;

export interface Parameter {
  name?: string;
  in?: string;
  style?: string;
  explode?: boolean;
  schema?: { type?: unknown };
  content?: Record<string, unknown>;
}

const queryParameters = new WeakMap<Operation, Map<string, Parameter>>();

/** The first `in: query` parameter of each name, as the library's `find` picks it; once per operation. */
export function queryParametersOf(operation: Operation): Map<string, Parameter> {
  let byName = queryParameters.get(operation);
  if (!byName) {
    byName = new Map();
    for (const parameter of (operation.parameters ?? []) as Parameter[]) {
      if (!('$ref' in parameter) && parameter?.in === 'query' && parameter.name !== undefined && !byName.has(parameter.name)) byName.set(parameter.name, parameter);
    }
    queryParameters.set(operation, byName);
  }
  return byName;
}

/** bath-es5's `params(template)`: `{name}` segments, percent-decoded, a name repeated must repeat its value. */
function compilePathParams(template: string): PathParams {
  const names = (template.match(/\{[A-Za-z0-9_-]+\}/g) ?? []).map((x) => x.substring(1, x.length - 1));
  // As bath-es5 builds it, but with the literal parts escaped: FHIR operation paths hold a `$`
  // (`[base]/$export`), which bath-es5 would read as an end anchor and never match.
  const pattern = new RegExp('^' + template.split(/\{[A-Za-z0-9_-]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^\\/]*)') + '$');
  return (pathname) => {
    const match = pathname.match(pattern);
    if (match === null) return null;
    const params: Record<string, string> = {};
    const values = new Map<string, string>();
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const value = decodeURIComponent(match[i + 1]!);
      if (values.has(name) && values.get(name) !== value) return null;
      values.set(name, value);
      params[name] = value;
    }
    return params;
  };
}

/** lodash cloneDeep for what a query holds (strings, numbers, booleans, null, arrays, plain objects); undefined for anything else. */
function cloneQueryValue(value: unknown): { value: unknown } | undefined {
  if (value === null || typeof value !== 'object') return { value };
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const cloned = cloneQueryValue(value[i]);
      if (!cloned) return undefined;
      copy[i] = cloned.value;
    }
    return { value: copy };
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const cloned = cloneQueryValue((value as Record<string, unknown>)[key]);
    if (!cloned) return undefined;
    copy[key] = cloned.value;
  }
  return { value: copy };
}

const PARSED_FIELDS = new Set(['method', 'path', 'params', 'headers', 'query', 'cookies', 'requestBody']);

/** toLowerCase would make a new string per header name to find there is nothing to lower (Node's names are lower case). */
const UPPER_CASE = /[A-Z]/;

/** The headers with lower-case names, a copy. Node's are lower case already: copied whole, not name by name. */
function lowerCasedHeaders(given: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  let lowerCase = true;
  for (const name in given) {
    if (UPPER_CASE.test(name)) {
      lowerCase = false;
      break;
    }
  }
  if (lowerCase) return { ...given };
  const headers: Record<string, string | string[] | undefined> = {};
  for (const name of Object.keys(given)) headers[name.toLowerCase()] = given[name];
  return headers;
}

/** router.normalizeRequest's path and method: a leading slash, no query string, the method in lower case. */
export function normalizedPathAndMethod(req: Pick<Request, 'path' | 'method'>): { path: string; method: string } {
  let path = req.path?.trim() || '';
  if (!path.startsWith('/')) path = `/${path}`;
  const query = path.indexOf('?');
  if (query >= 0) path = path.slice(0, query);
  return { path, method: req.method.trim().toLowerCase() };
}

export type RequestParser = (req: Request, operation?: Operation) => ParsedRequest;

export function compiledRequestParser(router: OpenAPIRouter): RequestParser {
  const library: RequestParser = router.parseRequest.bind(router);
  const pathParams = new Map<string, PathParams>();
  // The library's parse of no cookie header (cookie's own null-prototype object), made alike.
  const cookiePrototype = Object.getPrototypeOf(library({ method: 'get', path: '/', headers: {}, query: {} }).cookies) as object | null;

  const paramsOf = (template: string): PathParams => {
    let compiled = pathParams.get(template);
    if (!compiled) {
      compiled = compilePathParams(template);
      pathParams.set(template, compiled);
    }
    return compiled;
  };

  return (req, operation) => {
    if ((req.body && typeof req.body !== 'object') || typeof req.query !== 'object' || req.query === null) return library(req, operation);
    const headers = lowerCasedHeaders((req.headers ?? {}) as Record<string, string | string[] | undefined>);
    if (headers.cookie !== undefined) return library(req, operation);
    const cloned = cloneQueryValue(req.query);
    if (!cloned) return library(req, operation);
    const query = cloned.value as Record<string, unknown>;
    // router.normalizeRequest, without its copy of the request.
    const { path, method } = normalizedPathAndMethod(req);
    let params: Record<string, string> = {};
    if (operation) {
      params = paramsOf(operation.path)(router.normalizePath(path)) ?? {};
      const parameters = queryParametersOf(operation);
      // The library's handling of parameter styles, unchanged.
      for (const name in query) {
        if (!query[name]) continue;
        const parameter = parameters.get(name);
        if (!parameter) continue;
        if (parameter.content && parameter.content['application/json']) {
          const raw = query[name];
          if (typeof raw === 'string') {
            try {
              query[name] = JSON.parse(raw);
            } catch {
              // left raw: validation reports it
            }
          }
        } else if (parameter.explode === false) {
          const raw = query[name];
          if (Array.isArray(raw) && raw.length > 1) continue;
          const value = Array.isArray(raw) ? raw[0] : raw;
          if (typeof value !== 'string') continue;
          let decoded = value.replace(/%2C/g, ',');
          if (parameter.style === 'spaceDelimited') decoded = decoded.replace(/ /g, ',').replace(/%20/g, ',');
          if (parameter.style === 'pipeDelimited') decoded = decoded.replace(/\|/g, ',').replace(/%7C/g, ',');
          query[name] = decoded.split(',');
        }
      }
    }
    // The library spreads the request and then overrides its fields: V8 takes its slow path
    // for every such literal (a redefinition of copied fields), so the fields are set once
    // and whatever else the request carries (its body) is copied after them.
    const parsed: Record<string, unknown> = { method, path, params, headers, query, cookies: Object.create(cookiePrototype) as Record<string, string>, requestBody: req.body };
    for (const key in req) if (!PARSED_FIELDS.has(key)) parsed[key] = (req as unknown as Record<string, unknown>)[key];
    return parsed as unknown as ParsedRequest;
  };
}
