// openapi-backend's router compiles a RegExp for every operation on every request and sorts
// candidates with lodash. This matcher keeps its rules (exact path first, then templated
// paths, most specific first, then the method) but compiles the table once, and finds exact
// paths in a map instead of scanning every operation. A test checks it agrees with the
// library's own matcher on every path of the contract and on odd paths.
import type { Operation, OpenAPIRouter, Request } from 'openapi-backend';
import { normalizedPathAndMethod } from './request-parser.js';

interface Route {
  operation: Operation;
  pattern: RegExp;
  specificity: number;
}

function pathTemplateToPattern(path: string): RegExp {
  const literal = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${literal}$`);
}

export type OperationMatcher = (req: Request, strict?: boolean) => Operation | undefined;

/** What a method and path matched: an operation, or no route (404), or a route without the method (405). */
type Match = Operation | 'no route' | 'no method';

// A partner polls the same few paths: each distinct method and path is matched once (a scan
// of the templated routes' RegExps, most specific first, was 3% of a polled list's CPU time
// in a perf profile, 2026-11-27), and its outcome kept. Paths carry ids, so the kept ones are
// bounded (cleared when full) and long ones are not kept.
const MATCHES_KEPT = 1_024;
const KEPT_PATH_LENGTH = 256;

/** Our apiRoot is '/', so every path is under it (the library's isUnderApiRoot check). */
export function compiledOperationMatcher(router: OpenAPIRouter): OperationMatcher {
  const operations = router.getOperations();
  const routes: Route[] = operations
    .map((operation) => ({
      operation,
      pattern: pathTemplateToPattern(operation.path),
      specificity: operation.path.replace(/\{.*?\}/g, '').length,
    }))
    .sort((a, b) => b.specificity - a.specificity);
  // The first operation of each method and exact path, as the library's `find` picks it.
  const exactPaths = new Map<string, Operation>();
  for (const operation of operations) {
    const key = `${operation.method} ${operation.path}`;
    if (!exactPaths.has(key)) exactPaths.set(key, operation);
  }
  const matchOf = (method: string, path: string): Match => {
    const exact = exactPaths.get(`${method} ${path}`);
    if (exact) return exact;
    // The most specific route of the path with this method; whether any route has the path tells 404 from 405.
    let pathMatched = false;
    for (const route of routes) {
      if (!route.pattern.test(path)) continue;
      if (route.operation.method === method) return route.operation;
      pathMatched = true;
    }
    return pathMatched ? 'no method' : 'no route';
  };
  const kept = new Map<string, Match>();
  return (request, strict = false) => {
    const req = normalizedPathAndMethod(request);
    const path = router.normalizePath(req.path);
    let match: Match | undefined;
    if (path.length > KEPT_PATH_LENGTH) match = matchOf(req.method, path);
    else {
      const key = `${req.method} ${path}`;
      match = kept.get(key);
      if (match === undefined) {
        match = matchOf(req.method, path);
        if (kept.size >= MATCHES_KEPT) kept.clear();
        kept.set(key, match);
      }
    }
    if (typeof match !== 'string') return match;
    // In strict mode the library throws, and handleRequest tells 404 from 405 by the message.
    if (strict) throw new Error(match === 'no method' ? '405-methodNotAllowed: this method is not registered for the route' : '404-notFound: no route matches request');
    return undefined;
  };
}
