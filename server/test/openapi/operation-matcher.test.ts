// The compiled matcher must route exactly like openapi-backend's own router.
import { expect } from 'chai';
import { OpenAPIRouter } from 'openapi-backend';
import { compiledOperationMatcher } from '../../src/openapi/operation-matcher.js';
import { openApiDocumentCopy } from '../../src/openapi/openapi-document.js';
import { OpenAPIBackend } from 'openapi-backend';

describe('the compiled operation matcher', () => {
  let library: OpenAPIRouter;
  let compiled: ReturnType<typeof compiledOperationMatcher>;

  before(async () => {
    const api = new OpenAPIBackend({ definition: openApiDocumentCopy(), quick: true });
    await api.init();
    library = api.router;
    compiled = compiledOperationMatcher(new OpenAPIRouter({ definition: api.definition }));
  });

  const id = '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60';
  const paths = [
    '/healthz', '/readyz', '/docs', '/docs/redoc.standalone.js', '/openapi.json', '/openapi.yaml', '/api/v1/oauth/token',
    `/api/v1/ofctx/${id}/${id}/residents`, `/api/v1/ofctx/${id}/${id}/residents/${id}`, `/api/v1/ofctx/${id}/${id}/coverage`,
    `/api/v1/ofctx/${id}/${id}/coverage/${id}`, `/api/v1/ofctx/${id}/${id}/clinical/Observation`, `/api/v1/ofctx/${id}/${id}/clinical/Observation/${id}`,
    `/api/v1/ofctx/${id}/${id}/clinical/AllergyIntolerance/${id}`, `/api/v1/ofctx/${id}/webhooks`, `/api/v1/ofctx/${id}/webhooks/event-types`,
    `/api/v1/ofctx/${id}/webhooks/${id}`, `/api/v1/ofctx/${id}/webhooks/${id}/test`,
    // odd and ambiguous ones
    `/api/v1/ofctx/${id}/webhooks/coverage`, `/api/v1/ofctx/${id}/webhooks/residents`, '/api/v1/ofctx/x/y/coverage/', '/api/v1/ofctx//coverage',
    '/nothing', '/', '/api/v1/ofctx/a/b/c/d/e', '/healthz/', '/api/v1/oauth/token/', '/API/v1/oauth/token', '/api/v1/ofctx/a.b/c*d/coverage',
  ];

  function outcome(match: (req: any, strict: boolean) => unknown, req: object): string {
    try {
      return (match(req, true) as { operationId?: string })?.operationId ?? 'undefined';
    } catch (error) {
      return (error as Error).message.split(':')[0]!;
    }
  }

  it('agrees with openapi-backend on every method of every path, strict or not', () => {
    for (const path of paths) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete', 'options', 'head']) {
        const req = { method, path, headers: {}, query: {} };
        expect(outcome(compiled, req), `${method} ${path}`).to.equal(outcome(library.matchOperation.bind(library), req));
        expect((compiled(req) as { operationId?: string } | undefined)?.operationId, `${method} ${path} non-strict`)
          .to.equal(library.matchOperation(req)?.operationId);
      }
    }
  });

  it('keeps what each path matched, and answers it again the same, 404 and 405 included', () => {
    const fresh = compiledOperationMatcher(new OpenAPIRouter({ definition: library.definition }));
    const long = `/api/v1/ofctx/${id}/${id}/coverage/${'x'.repeat(300)}`;
    for (let pass = 0; pass < 3; pass++) {
      for (const path of [...paths, long]) {
        for (const method of ['get', 'delete']) {
          const req = { method, path, headers: {}, query: {} };
          expect(outcome(fresh, req), `pass ${pass}: ${method} ${path}`).to.equal(outcome(library.matchOperation.bind(library), req));
        }
      }
    }
  });

  it('matches every path again once more distinct paths were asked than it keeps', () => {
    const fresh = compiledOperationMatcher(new OpenAPIRouter({ definition: library.definition }));
    for (let i = 0; i < 2_100; i++) {
      const path = `/api/v1/ofctx/${id}/${i.toString(16).padStart(8, '0')}-3b4d-4e5f-8a7b-1c2d3e4f5a60/coverage`;
      expect(outcome(fresh, { method: i % 2 ? 'get' : 'put', path, headers: {}, query: {} })).to.equal(i % 2 ? 'listCoverage' : '405-methodNotAllowed');
    }
  });
});
