// The compiled request loop (openapi/request-handler.ts) against openapi-backend's own
// handleRequest, both on the service's API with its real handlers: for requests that end at
// each step (no route, wrong method, no token, a bad token, an invalid parameter, an answer,
// a security handler that throws), each loop gives the same answer or the same error, and
// leaves the same traces on the request's context.
import { expect } from 'chai';
import { OpenAPIBackend, type Request } from 'openapi-backend';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { tokenFor } from '../../../test/support/http.js';
import { createApiBackend } from '../../src/api-backend.js';
import { compiledRequestHandler } from '../../src/openapi/request-handler.js';
import { operations } from '../../src/operations.js';
import { RenderedJson } from '../../src/http/rendered-json.js';

describe('the compiled request loop', function () {
  this.timeout(30_000);
  let service: TestService;
  let api: OpenAPIBackend;
  let requests: Array<{ name: string; request: Request }>;

  before(async () => {
    service = await startTestService();
    api = await createApiBackend(service.running.app, operations);
    const orgId = (await service.seed.org()).id;
    const facilityId = (await service.seed.facility(orgId)).id;
    await service.seed.data({ orgId, facilityId, residents: 3 });
    const client = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
    const token = await tokenFor(service.baseUrl, client);
    const list = `/api/v1/ofctx/${orgId}/${facilityId}/residents`;
    const get = (path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}): Request => ({ method: 'GET', path, query, headers: { host: 'localhost', ...headers } });
    requests = [
      { name: 'the health probe', request: get('/healthz') },
      { name: 'no such path', request: get('/nowhere') },
      { name: 'a method the path has not', request: { ...get('/healthz'), method: 'DELETE' } },
      { name: 'no token', request: get(list) },
      { name: 'a token nobody issued', request: get(list, {}, { authorization: 'Bearer not-a-token' }) },
      { name: 'an invalid parameter', request: get(list, { page_size: 'many' }, { authorization: `Bearer ${token}` }) },
      { name: 'a list', request: get(list, { page_size: '2' }, { authorization: `Bearer ${token}` }) },
      { name: 'a list with its types coerced', request: get(list, { page_size: '02' }, { authorization: `Bearer ${token}` }) },
      { name: 'another organization', request: get(`/api/v1/ofctx/00000000-0000-4000-8000-000000000001/${facilityId}/residents`, {}, { authorization: `Bearer ${token}` }) },
      { name: 'metrics without their token', request: get('/metrics') },
    ];
  });
  after(() => service.close());

  /** What a loop did with a request: its answer or its error, and what it left on the context. */
  async function outcome(handle: (req: Request, ctx: unknown) => Promise<unknown>, request: Request) {
    const headers = request.headers as Record<string, string>;
    const ctx = { state: { requestId: 'same-request' } as Record<string, unknown>, headers, ip: '127.0.0.1', get: (name: string) => headers[name.toLowerCase()] ?? '', set() {} };
    try {
      const result = (await handle(structuredClone(request), ctx)) as { status?: number; headers?: Record<string, string>; body?: unknown };
      const body = result.body instanceof RenderedJson ? Buffer.from(result.body.bytes).toString('utf8') : result.body;
      return { status: result.status, headers: result.headers, body, state: ctx.state };
    } catch (error) {
      const e = error as { name?: string; code?: string; status?: number; message?: string; headers?: unknown };
      return { error: { name: e.name, code: e.code, status: e.status, message: e.message, headers: e.headers }, state: ctx.state };
    }
  }

  it('answers every kind of request as openapi-backend\'s handleRequest does, step for step', async () => {
    const compiled = compiledRequestHandler(api);
    const library = (req: Request, ctx: unknown) => OpenAPIBackend.prototype.handleRequest.call(api, req, ctx);
    for (const { name, request } of requests) {
      const ours = await outcome(compiled, request);
      const theirs = await outcome(library, request);
      expect(ours, name).to.deep.equal(theirs);
    }
    // The requests did end at each step.
    const statuses = await Promise.all(requests.map(async ({ request }) => {
      const o = await outcome(compiled, request);
      return 'error' in o ? o.error!.status : (o.status ?? 200);
    }));
    expect(statuses).to.include.members([200, 404, 405, 401, 400, 403]);
  });

  it('gives each security scheme\'s failure to the unauthorized handler as the library does, a throw as { error }', async () => {
    const throwing = await createApiBackend(service.running.app, operations);
    throwing.registerSecurityHandler('oauth2', () => {
      throw new Error('the token store is down');
    });
    const seen: unknown[] = [];
    throwing.register('unauthorizedHandler', (c) => {
      seen.push(c.security);
      return { status: 401 };
    });
    const request = requests.find((r) => r.name === 'a list')!.request;
    const compiled = compiledRequestHandler(throwing);
    const ours = await outcome(compiled, request);
    const theirs = await outcome((req, ctx) => OpenAPIBackend.prototype.handleRequest.call(throwing, req, ctx), request);
    expect(ours).to.deep.equal(theirs);
    expect(seen).to.have.length(2);
    expect(String((seen[0] as { oauth2: { error: Error } }).oauth2.error.message)).to.equal('the token store is down');
    expect((seen[0] as { authorized: boolean }).authorized).to.equal(false);
  });
});
