// An operation's answer as dispatch writes it (http/dispatch.ts writeAnswer: a GET's 200 with
// JSON straight to Node's response, the rest on Koa's response rather than through the
// context): the very bytes and headers Koa writes when the context is given the same status,
// headers and body, for JSON data, bytes serialized already, a type of the operation's own,
// text, a HEAD request and an empty status.
import { expect } from 'chai';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import Koa from 'koa';
import { writeAnswer } from '../../src/http/dispatch.js';
import type { OperationResult } from '../../src/http/operation.js';
import { RenderedJson } from '../../src/http/rendered-json.js';

async function served(write: (ctx: Koa.Context, result: OperationResult) => void, result: OperationResult, method = 'GET') {
  const koa = new Koa();
  koa.use((ctx) => write(ctx, result));
  const server = koa.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const port = (server.address() as { port: number }).port;
    return await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = httpRequest({ port, host: '127.0.0.1', method, path: '/' }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          const headers: Record<string, unknown> = { ...res.headers };
          delete headers.date;
          resolve({ status: res.statusCode!, headers, body });
        });
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.close();
  }
}

/** What Koa writes given the same answer through its context. */
function throughContext(ctx: Koa.Context, result: OperationResult): void {
  ctx.status = result.status ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
  if (result.body instanceof RenderedJson) {
    // What dispatch always did with bytes serialized already: Koa's JSON type on them.
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = result.body.bytes;
  } else ctx.body = result.body;
}

describe('an answer written by dispatch', () => {
  const answers: Array<[string, OperationResult, string?]> = [
    ['JSON data', { body: { status: 'ok', list: [1, 'é', null] } }],
    ['JSON serialized already, with an ETag', { body: RenderedJson.of({ data: [{ id: 'é' }] }), headers: { ETag: 'W/"abc"', 'Cache-Control': 'private' } }],
    ['JSON data with a type of its own that is not JSON', { body: { a: 1 }, headers: { 'content-type': 'text/plain' } }],
    ['JSON data, HEAD', { body: { status: 'ok' } }, 'HEAD'],
    ['an array, status 201 and headers', { status: 201, body: [{ a: 1 }], headers: { Location: '/x', ETag: '"1"' } }],
    ['a JSON type of its own', { body: { resourceType: 'Patient' }, headers: { 'Content-Type': 'application/fhir+json; charset=utf-8' } }],
    ['text', { body: 'openapi: 3.1.0\n', headers: { 'Content-Type': 'application/yaml' } }],
    ['no content', { status: 204, body: null }],
  ];
  for (const [name, result, method] of answers) {
    it(`writes what Koa writes: ${name}`, async () => {
      const ours = await served((ctx, r) => writeAnswer(ctx, r), result, method);
      const koas = await served(throughContext, result, method);
      expect(ours).to.deep.equal(koas);
    });
  }
});
