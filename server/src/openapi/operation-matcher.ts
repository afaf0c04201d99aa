// openapi-backend's router compiles a RegExp for every operation on every request and sorts
// candidates with lodash. This matcher keeps its rules (exact path first, then templated
// paths, most specific first, then the method) but compiles the table once. A test checks it
// agrees with the library's own matcher on every path of the contract and on odd paths.
import type { Operation, OpenAPIRouter, Request } from 'openapi-backend';

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
  return (request, strict = false) => {
    const req = router.normalizeRequest(request);
    const path = router.normalizePath(req.path);
    const exact = operations.find((op) => op.path === path && op.method === req.method);
    if (exact) return exact;
    const matching = routes.filter((route) => route.pattern.test(path));
    // In strict mode the library throws, and handleRequest tells 404 from 405 by the message.
    if (matching.length === 0) {
      if (strict) throw new Error('404-notFound: no route matches request');
      return undefined;
    }
    const match = matching.find((route) => route.operation.method === req.method)?.operation;
    if (!match && strict) throw new Error('405-methodNotAllowed: this method is not registered for the route');
    return match;
  };
}
