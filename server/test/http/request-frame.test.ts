// The frame every request goes through around its operation (http/request-frame.ts): whatever
// the operation does (answers, throws, or is still running), the request is counted in flight
// until it ends, carries its id, is answered in the envelope when it throws, gets its security
// headers, and is counted in the metrics and the access log with its final status.
import { expect } from 'chai';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { createLogger } from '../../src/logging/logger.js';
import { requestFrame } from '../../src/http/request-frame.js';
import { InFlightRequests } from '../../src/http/in-flight-requests.js';
import { errorAnswer } from '../../src/http/error-answer.js';
import { accessLog } from '../../src/http/access-log.js';
import { requestMetrics } from '../../src/metrics/request-metrics.js';
import { ServiceMetrics } from '../../src/metrics/service-metrics.js';
import { tokenRateLimit } from '../../src/auth/token-rate-limit.js';
import { TokenRateLimiter } from '../../src/auth/token-rate-limiter.js';
import { ApiError } from '../../src/errors/api-error.js';

async function framed(operation: Koa.Middleware) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('info', stream);
  const inFlight = new InFlightRequests();
  const metrics = new ServiceMetrics();
  const koa = new Koa();
  koa.silent = true;
  koa.use(
    requestFrame({
      inFlight,
      // The limiter keeps its counters in memory off PostgreSQL.
      tokenRateLimit: tokenRateLimit(await TokenRateLimiter.create({ client: { config: { client: 'better-sqlite3' } } } as never, 1, 60)),
      answerError: errorAnswer(logger),
      countRequest: requestMetrics(metrics),
      logRequest: accessLog(logger),
    }),
  );
  koa.use(operation);
  const server = koa.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = () => `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { inFlight, metrics, lines, url, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the request frame', () => {
  it('answers a thrown error in the envelope, with the request id, security headers, metrics and an access-log line', async () => {
    const frame = await framed(async (ctx) => {
      ctx.state.operationId = 'listResidents';
      ctx.state.routePath = '/api/v1/residents';
      throw new ApiError('not_found', 'No such resident.');
    });
    try {
      const response = await fetch(`${frame.url()}/api/v1/residents`, { headers: { 'x-request-id': 'caller-id-1' } });
      expect(response.status).to.equal(404);
      expect(response.headers.get('x-request-id')).to.equal('caller-id-1');
      expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(response.headers.get('cache-control')).to.equal('no-store');
      const body = (await response.json()) as { error: { code: string; request_id: string } };
      expect(body.error).to.include({ code: 'not_found', request_id: 'caller-id-1' });
      const counted = (await frame.metrics.requestDuration.get()).values.find((v) => v.metricName?.endsWith('_count'));
      expect(counted?.labels).to.deep.equal({ operation: 'listResidents', method: 'GET', status: '404' });
      expect(counted?.value).to.equal(1);
      expect(frame.lines.filter((line) => line.msg === 'request')).to.have.length(1);
      expect(frame.lines.find((line) => line.msg === 'request')).to.include({ request_id: 'caller-id-1', route: '/api/v1/residents', status: 404 });
      expect(frame.inFlight.size).to.equal(0);
    } finally {
      await frame.close();
    }
  });

  it('gives a UUID to a request whose offered id is not sane, and no no-store header outside the API', async () => {
    const frame = await framed(async (ctx) => {
      ctx.body = { status: 'ok' };
    });
    try {
      const response = await fetch(`${frame.url()}/healthz`, { headers: { 'x-request-id': 'not sane!' } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(response.headers.get('cache-control')).to.equal(null);
    } finally {
      await frame.close();
    }
  });

  it('counts a request in flight until its operation ends, and out again when it fails unexpectedly', async () => {
    let finish!: () => void;
    const frame = await framed(async (ctx) => {
      if (ctx.path === '/slow') await new Promise<void>((resolve) => (finish = resolve));
      else throw new Error('boom');
      ctx.body = { status: 'ok' };
    });
    try {
      const slow = fetch(`${frame.url()}/slow`);
      while (frame.inFlight.size === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(frame.inFlight.size).to.equal(1);
      finish();
      expect((await slow).status).to.equal(200);
      const failed = await fetch(`${frame.url()}/api/v1/boom`);
      expect(failed.status).to.equal(500);
      expect(((await failed.json()) as { error: { code: string } }).error.code).to.equal('internal_error');
      expect(frame.inFlight.size).to.equal(0);
      await frame.inFlight.drained();
    } finally {
      await frame.close();
    }
  });

  it('refuses the token endpoint past its limit with the RFC 6749 body, and lets other requests through', async () => {
    const frame = await framed(async (ctx) => {
      ctx.body = { ok: true };
    });
    try {
      const token = () => fetch(`${frame.url()}/api/v1/oauth/token`, { method: 'POST' });
      expect((await token()).status).to.equal(200);
      const refused = await token();
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
      expect(((await refused.json()) as { error: string }).error).to.equal('rate_limited');
      expect((await fetch(`${frame.url()}/healthz`)).status).to.equal(200);
    } finally {
      await frame.close();
    }
  });
});
