// What Node's HTTP parser refuses, or the router cannot decode, still gets the envelope. (Headers
// over 16 KiB but within the parser's 64 KiB are answered by each operation: header-size.test.ts.)
import { expect } from 'chai';
import { connect } from 'node:net';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';

function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function envelopeOf(answer: string) {
  const [head, body] = answer.split('\r\n\r\n');
  return { head: head!, body: JSON.parse(body!) };
}

describe('malformed requests', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.close());

  it('answers a request that is not HTTP with a 400 envelope and a request id', async () => {
    const { head, body } = envelopeOf(await rawExchange(service.running.port, 'FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(head).to.match(/^HTTP\/1\.1 400 /);
    expect(head).to.match(/X-Request-Id: [0-9a-f-]{36}/);
    expect(body.error.code).to.equal('invalid_parameter');
    expect(body.data).to.equal(null);
  });

  it('answers headers over 64 KiB (Node\'s parser\'s limit) with 431 headers_too_large, before routing', async () => {
    const { head, body } = envelopeOf(await rawExchange(service.running.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`));
    expect(head).to.match(/^HTTP\/1\.1 431 /);
    expect(body.error.code).to.equal('headers_too_large');
  });

  it('answers a path that is not valid percent-encoded UTF-8 with 400, not 500', async () => {
    for (const path of ['/api/v1/ofctx/%ZZ/webhooks', '/api/v1/ofctx/%C0%AF/x/coverage', '/api/v1/ofctx/%FF/webhooks']) {
      const response = await call(service.baseUrl, 'GET', path);
      expect(response.status, path).to.equal(400);
      expect(response.body.error.code).to.equal('invalid_parameter');
    }
  });
});
