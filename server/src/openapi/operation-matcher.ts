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
  return (request, strict = false) => {
    const req = normalizedPathAndMethod(request);
    const path = router.normalizePath(req.path);
    const exact = exactPaths.get(`${req.method} ${path}`);
    if (exact) return exact;
    // The most specific route of the path with this method; whether any route has the path tells 404 from 405.
    let pathMatched = false;
    for (const route of routes) {
      if (!route.pattern.test(path)) continue;
      if (route.operation.method === req.method) return route.operation;
      pathMatched = true;
    }
    // In strict mode the library throws, and handleRequest tells 404 from 405 by the message.
    if (strict) throw new Error(pathMatched ? '405-methodNotAllowed: this method is not registered for the route' : '404-notFound: no route matches request');
    return undefined;
  };
}
