// The access log: one line per request with exactly its five fields (no URL, query, body or
// header), whatever the request carried; lines skip redaction, which the logger's other lines
// keep.
import { expect } from 'chai';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { createLogger } from '../../src/logging/logger.js';
import { accessLog } from '../../src/http/access-log.js';

function memoryLog(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('the access log', () => {
  it('writes one line per request with its request id, method, route template, status and duration, and nothing else', async () => {
    const log = memoryLog();
    const logger = createLogger('info', log.stream);
    const koa = new Koa();
    const logRequest = accessLog(logger);
    koa.use(async (ctx, next) => {
      ctx.state.requestId = 'req-1';
      const started = performance.now();
      await next();
      logRequest(ctx, started);
    });
    koa.use((ctx) => {
      ctx.state.routePath = '/api/v1/ofctx/{org_id}/{facility_id}/residents';
      ctx.status = 200;
      ctx.body = { secret: 'patient data' };
    });
    const server = koa.listen(0);
    try {
      const { port } = server.address() as { port: number };
      await fetch(`http://127.0.0.1:${port}/api/v1/ofctx/org/facility/residents?name=Doe`, { headers: { authorization: 'Bearer token-value' } });
      await fetch(`http://127.0.0.1:${port}/nowhere`);
    } finally {
      server.close();
    }
    const lines = log.lines();
    expect(lines).to.have.length(2);
    for (const line of lines) {
      expect(Object.keys(line).sort()).to.deep.equal(['level', 'method', 'ms', 'msg', 'request_id', 'route', 'service', 'status', 'time']);
      expect(line).to.include({ service: 'ofctx', msg: 'request', request_id: 'req-1', method: 'GET', route: '/api/v1/ofctx/{org_id}/{facility_id}/residents', status: 200 });
      expect(line.ms).to.be.a('number');
    }
    const text = JSON.stringify(lines);
    for (const leaked of ['token-value', 'Doe', 'patient data', '/org/facility']) expect(text).to.not.include(leaked);
  });

  it('leaves the logger\'s other lines redacted by path', () => {
    const log = memoryLog();
    const logger = createLogger('info', log.stream);
    accessLog(logger);
    logger.info({ client_secret: 'shh', webhook: { signing_secret: 'shh', url: 'https://example.org' }, headers: { authorization: 'Bearer t' } }, 'other');
    const [line] = log.lines();
    expect(line).to.deep.include({ client_secret: '[redacted]', webhook: { signing_secret: '[redacted]', url: 'https://example.org' }, headers: { authorization: '[redacted]' } });
  });
});
