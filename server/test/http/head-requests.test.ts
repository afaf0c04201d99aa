// RFC 9110 section 9.3.2: HEAD wherever GET is served, with the same status and headers and
// no body. Checked on every GET operation of the contract, read from the document itself,
// so an operation added later is checked without touching this test.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { openApiDocumentCopy } from '../../src/openapi/openapi-document.js';
import { call } from '../../../test/support/http.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { seedRecordsOfEveryKind, type RecordsOfEveryKind } from '../../../test/support/records-of-every-kind.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(baseUrl: string, method: string, path: string, token: string, cookie?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // The console's pages open with its session cookie (a bearer token opens nothing there).
    const credentials: Record<string, string> = cookie ? { cookie } : { authorization: `Bearer ${token}` };
    const req = httpRequest(`${baseUrl}${path}`, { method, headers: { ...credentials, accept: 'application/json', 'x-request-id': 'head-check' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Headers that legitimately differ between two answers: `ratelimit` tells what is left of the
 * credential's quota, which each request spends (its `ratelimit-policy` is compared).
 */
const VARYING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'ratelimit']);

function comparable(headers: RawAnswer['headers']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !VARYING.has(name)));
}

describe('HEAD on every GET operation', function () {
  this.timeout(30_000);
  let service: TestService;
  let every: RecordsOfEveryKind;
  let t: RecordsOfEveryKind['t'];

  before(async () => {
    // No delivery worker: its attempts of the seeded delivery (to a closed port, retried after
    // 5 s) changed the deliveries page between a GET and its HEAD.
    service = await startTestService({ env: { WEBHOOK_WORKER: '0' } });
    every = await seedRecordsOfEveryKind(service);
    t = every.t;
  });
  after(() => service?.close());

  const document = openApiDocumentCopy() as unknown as { paths: Record<string, Record<string, { operationId: string }>> };
  // A Bulk Data kick-off by GET starts an export (the IG allows GET for it): not a read to
  // repeat as HEAD here.
  const gets = Object.entries(document.paths).flatMap(([path, item]) => (item.get && !item.get.operationId.startsWith('kickOff') ? [{ path, operationId: item.get.operationId }] : []));

  it('covers every GET operation of the contract', () => {
    expect(gets.length).to.be.at.least(30);
    expect(gets.map((g) => g.operationId)).to.include.members(['listEvents', 'getEvent', 'listWebhookDeliveries', 'getWebhook', 'listCoverage']);
  });

  for (const { path, operationId } of gets) {
    it(`${operationId}: the same status and headers, no body`, async () => {
      const target = every.concrete(path);
      expect(target, 'every path parameter filled').to.not.match(/[{}]/);
      const cookie = target.startsWith('/console') ? every.consoleCookie : undefined;
      const get = await send(service.baseUrl, 'GET', target, t.fullToken, cookie);
      const head = await send(service.baseUrl, 'HEAD', target, t.fullToken, cookie);
      // /metrics is off unless the operator turns it on: its 404 is the answer to compare.
      if (operationId !== 'getMetrics') expect(get.status, `GET ${target}`).to.be.within(200, 299);
      expect(head.status).to.equal(get.status);
      expect(comparable(head.headers)).to.deep.equal(comparable(get.headers));
      expect(head.body.length).to.equal(0);
      expect(get.body.length).to.be.above(0);
    });
  }

  it('lists HEAD in Allow beside GET when a method is not allowed', async () => {
    const answer = await call(service.baseUrl, 'PUT', `/api/v1/ofctx/${t.orgA}/events`, { token: t.fullToken });
    expect(answer.status).to.equal(405);
    expect(answer.headers.get('allow')).to.equal('GET, HEAD');
  });
});
