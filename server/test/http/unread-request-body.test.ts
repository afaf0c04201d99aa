// An answer sent before the request's body was read whole closes the connection after it: a
// 413 on a Content-Length over the limit, or on a chunked body cut off past it. Kept open, the
// rest of the body sat unread in the socket, the connection never counted as idle, and stopping
// the service waited for the keep-alive timeout (65 s) behind it. A body read whole keeps the
// connection, whatever the answer.
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { tokenFor } from '../../../test/support/http.js';
import { assertMatchesContract } from '../../../test/support/contract.js';
import { createClient } from '../../src/auth/clients.js';

const MAX_BYTES = 20_000;

interface RawAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  /** Whether the service ended the connection after the answer. */
  ended: Promise<boolean>;
}

/** Sends `head` (and `body`) on a socket of its own; reads one answer, then watches for the service's end of the connection. */
async function sendRaw(service: TestService, head: string, body: string[] = []): Promise<RawAnswer> {
  const socket: Socket = connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = Buffer.alloc(0);
  let ended = false;
  const endedOrIdle = new Promise<boolean>((resolve) => {
    socket.on('end', () => {
      ended = true;
      resolve(true);
    });
    socket.on('close', () => resolve(ended));
  });
  socket.on('error', () => undefined);
  const answer = new Promise<RawAnswer>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine, ...lines] = received.subarray(0, split).toString('latin1').split('\r\n');
      const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
      const length = Number(headers.get('content-length'));
      if (received.length < split + 4 + length) return;
      const text = received.subarray(split + 4, split + 4 + length).toString('utf8');
      // The answer is in: the connection is either ended by the service, or left open for the next request.
      const settled = Promise.race([endedOrIdle, new Promise<boolean>((resolve) => setTimeout(() => resolve(ended), 1_000))]).finally(() => socket.destroy());
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(text), ended: settled });
    });
  });
  socket.write(head);
  for (const chunk of body) socket.write(chunk);
  return answer;
}

describe('an answer sent before the request body was read whole', function () {
  this.timeout(30_000);
  let service: TestService;
  let path: string;
  let token: string;

  before(async () => {
    service = await startTestService({ env: { INGEST_MAX_BUNDLE_BYTES: String(MAX_BYTES) } });
    const org = await service.seed.org();
    const facility = await service.seed.facility(org.id);
    const source = await createClient(service.running.app.db, { orgId: org.id, facilityIds: [facility.id], scopes: ['ingest.write'], name: 'Sender', kind: 'ingest' });
    token = await tokenFor(service.baseUrl, source, 'ingest.write');
    path = `/api/v1/ingest/${org.id}/${facility.id}/x12`;
  });
  after(() => service?.close());

  const headOf = (framing: string) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/edi-x12\r\n${framing}\r\n`;
  const chunked = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const interchange = `ISA*00*          *00*          *ZZ*PAYER          *ZZ*FACILITY       *260101*1200*^*00501*000000905*0*P*:~`;

  it('closes the connection after a 413 on a chunked body cut off past the limit, the rest of it unsent', async () => {
    // More than the limit, and the body's last chunk never sent: only closing ends this request.
    const answer = await sendRaw(service, headOf('Transfer-Encoding: chunked\r\n'), [chunked(interchange + 'REF*SY*123456789~'.repeat(MAX_BYTES / 10))]);
    await assertMatchesContract('POST', `${service.baseUrl}${path}`, answer.status, answer.headers, answer.body);
    expect(answer.status).to.equal(413);
    expect(answer.headers.get('connection')).to.equal('close');
    expect(await answer.ended).to.equal(true);
  });

  it('closes the connection after a 413 on a Content-Length over the limit, without reading the body', async () => {
    const answer = await sendRaw(service, headOf(`Content-Length: ${MAX_BYTES * 100}\r\n`), [interchange]);
    await assertMatchesContract('POST', `${service.baseUrl}${path}`, answer.status, answer.headers, answer.body);
    expect(answer.status).to.equal(413);
    expect(answer.headers.get('connection')).to.equal('close');
    expect(await answer.ended).to.equal(true);
  });

  it('keeps the connection after an error on a body it read whole', async () => {
    const answer = await sendRaw(service, headOf('Transfer-Encoding: chunked\r\n'), [chunked('ISA*not an interchange~'), '0\r\n\r\n']);
    await assertMatchesContract('POST', `${service.baseUrl}${path}`, answer.status, answer.headers, answer.body);
    expect(answer.status).to.equal(400);
    expect(answer.headers.get('connection')).to.equal('keep-alive');
    expect(await answer.ended).to.equal(false);
  });
});
