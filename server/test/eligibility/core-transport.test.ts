// One CORE exchange over HTTP(S) against the clearinghouse double: 271s over SOAP and MIME
// read back by the 271 reader, the double's refusals (envelope errors, 999s), HTTP errors,
// resets, timeouts, refused connections, TLS verification, the SSRF guard and redirects.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClearinghouseDouble, type ClearinghouseDouble, type DoubleAnswer } from '../../../test/support/clearinghouse-double.js';
import {
  checkCoreAnswer, coreRequest, CoreEnvelopeError, PAYLOAD_270, PAYLOAD_271, PAYLOAD_999, readCoreResponse, type CoreEnvelope, type CoreProtocol,
} from '../../src/eligibility/core-envelope.js';
import { sendCoreRequest, type CoreExchangeRequest, type CoreExchangeResult } from '../../src/eligibility/core-transport.js';
import { build270, type EligibilityInquiry } from '../../src/eligibility/x12-270.js';
import { read999 } from '../../src/eligibility/x12-999.js';
import { subscriberLoops } from '../../src/x12/eligibility-271.js';
import type { HostResolver } from '../../src/webhooks/ssrf-guard.js';
import { sampleInquiry, INQUIRY_TRACE } from '../../../test/support/eligibility-inquiry.js';
import { PinnedConnections } from '../../src/webhooks/pinned-connections.js';
import nock from 'nock';

const CREDENTIALS = { username: 'maple-grove', password: 'correct horse battery staple' };
const COVERAGE_ID = INQUIRY_TRACE;
const loopback: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
let payloadCounter = 0;

const inquiry = (overrides: Partial<EligibilityInquiry> = {}) => sampleInquiry({ senderId: 'OFCTX', ...overrides });

function envelope(x12: string, overrides: Partial<CoreEnvelope> = {}): CoreEnvelope {
  payloadCounter += 1;
  return {
    payloadType: PAYLOAD_270,
    processingMode: 'RealTime',
    payloadId: `00000000-0000-4000-8000-${String(payloadCounter).padStart(12, '0')}`,
    timeStamp: '2026-03-04T05:06:07Z',
    senderId: 'OFCTX',
    receiverId: 'CLEARINGHOUSE',
    coreRuleVersion: '2.2.0',
    payload: x12,
    ...overrides,
  };
}

interface Exchange {
  request: CoreEnvelope;
  result: CoreExchangeResult;
}

async function exchange(
  protocol: CoreProtocol,
  url: string,
  options: { x12?: string; envelope?: Partial<CoreEnvelope>; credentials?: typeof CREDENTIALS; transport?: Partial<CoreExchangeRequest> } = {},
): Promise<Exchange> {
  const request = envelope(options.x12 ?? build270(inquiry()).text, options.envelope);
  const message = await coreRequest(protocol, request, options.credentials ?? CREDENTIALS);
  const result = await sendCoreRequest({
    url, body: message.body, contentType: message.contentType, headers: message.headers, timeoutMs: 5000, allowPrivateTargets: true, resolve: loopback, ...options.transport,
  });
  return { request, result };
}

async function answerOf(protocol: CoreProtocol, { request, result }: Exchange): Promise<CoreEnvelope> {
  if (!result.ok) throw new Error(`exchange failed: ${result.errorClass} ${result.detail}`);
  const answer = await readCoreResponse(protocol, result.body, result.contentType);
  expect(answer.payloadId).to.equal(request.payloadId);
  return answer;
}

function failure(result: CoreExchangeResult): Extract<CoreExchangeResult, { ok: false }> {
  if (result.ok) throw new Error(`expected a failure, got status ${result.status}`);
  return result;
}

describe('CORE transport against the clearinghouse double', () => {
  let double: ClearinghouseDouble;

  beforeEach(async () => {
    double = await startClearinghouseDouble({ username: CREDENTIALS.username, password: CREDENTIALS.password });
  });
  afterEach(async () => {
    await double.close();
  });

  for (const protocol of ['soap', 'mime'] as CoreProtocol[]) {
    it(`gets a 271 over ${protocol} that the 271 reader reads: the trace, member id and EB*1`, async () => {
      const sent = await exchange(protocol, double.url);
      expect(sent.result).to.deep.include({ ok: true, status: 200 });
      const answer = await answerOf(protocol, sent);
      expect(checkCoreAnswer(sent.request, answer)).to.deep.equal({ ok: true });
      expect(answer).to.deep.include({ payloadType: PAYLOAD_271, senderId: 'CLEARINGHOUSE', receiverId: 'OFCTX', errorCode: 'Success' });
      const [loop] = subscriberLoops(answer.payload!);
      expect(loop).to.deep.include({ trace: COVERAGE_ID, memberId: '1EG4TE5MK73', payer: 'MEDICARE PART A', payerId: 'CMS', eligibility: ['1'], planStart: '2026-01-01', rejections: [] });
      expect(double.received).to.have.length(1);
      expect(double.received[0]).to.deep.include({ protocol, username: CREDENTIALS.username, problems: [], answered: 'active' });
      expect(double.received[0]!.inquiry).to.deep.equal({
        senderId: 'OFCTX', receiverId: 'CLEARINGHOUSE', controlNumber: '000000042', payerId: 'CMS', payerName: 'MEDICARE PART A', providerName: 'MAPLE GROVE NURSING HOME',
        npi: '1234567893', memberId: '1EG4TE5MK73', lastName: 'OKAFOR', firstName: 'ADAEZE', birthDate: '1941-02-03', gender: 'F', trace: COVERAGE_ID,
        serviceDate: '2026-03-04', serviceTypes: ['30'],
      });
    });
  }

  it('answers an inactive plan with EB*6 and its end date', async () => {
    double.answer = () => ({ kind: 'inactive', planEnd: '2025-12-31' });
    const answer = await answerOf('mime', await exchange('mime', double.url));
    expect(subscriberLoops(answer.payload!)[0]).to.deep.include({ trace: COVERAGE_ID, eligibility: ['6'], planEnd: '2025-12-31' });
  });

  it('answers AAA rejections in loop 2100C', async () => {
    for (const [code, action] of [['72', undefined], ['75', 'R']] as const) {
      double.answer = (): DoubleAnswer => ({ kind: 'aaa', code, ...(action ? { action } : {}) });
      const answer = await answerOf('soap', await exchange('soap', double.url));
      expect(answer.payload).to.contain(`AAA*Y**${code}*${action ?? 'C'}~`);
      const [loop] = subscriberLoops(answer.payload!);
      expect(loop!.rejections.map((r) => r.code)).to.deep.equal([code]);
      expect(loop!.eligibility).to.deep.equal([]);
    }
  });

  it('answers a dependent inquiry in loop 2000D, with the trace there', async () => {
    const x12 = build270(inquiry({ dependent: { lastName: 'Okafor', firstName: 'Chidi', birthDate: '2010-07-08', relationship: '19' } })).text;
    const answer = await answerOf('soap', await exchange('soap', double.url, { x12 }));
    const loops = subscriberLoops(answer.payload!);
    expect(loops.map((l) => l.level)).to.deep.equal(['subscriber', 'dependent']);
    expect(loops[0]).to.deep.include({ memberId: '1EG4TE5MK73' });
    expect(loops[1]).to.deep.include({ trace: COVERAGE_ID, eligibility: ['1'] });
    expect(double.received[0]!.problems).to.deep.equal([]);
    expect(double.received[0]!.inquiry.dependent).to.deep.equal({ lastName: 'OKAFOR', firstName: 'CHIDI', birthDate: '2010-07-08' });
  });

  for (const protocol of ['soap', 'mime'] as CoreProtocol[]) {
    it(`refuses wrong credentials over ${protocol} as UnAuthorized`, async () => {
      const sent = await exchange(protocol, double.url, { credentials: { username: CREDENTIALS.username, password: 'not-the-password' } });
      const answer = await readCoreResponse(protocol, (sent.result as { body: Buffer }).body, (sent.result as { contentType: string }).contentType);
      expect(checkCoreAnswer(sent.request, answer)).to.deep.include({ ok: false, code: 'UnAuthorized' });
      expect(double.received[0]).to.deep.include({ answered: 'core-error', problems: ['the user name or password is wrong'] });
      expect(JSON.stringify(double.received[0])).not.to.contain('not-the-password');
    });
  }

  const envelopeErrors: Array<[string, Partial<CoreEnvelope>, string]> = [
    ['a missing PayloadID', { payloadId: '' }, 'PayloadIDRequired'],
    ['a PayloadID that is not a UUID', { payloadId: 'not-a-uuid' }, 'PayloadIDIllegal'],
    ['batch processing mode', { processingMode: 'Batch' }, 'ProcessingModeIllegal'],
    ['another rule version', { coreRuleVersion: '2.1.0' }, 'VersionMismatch'],
    ['another payload type', { payloadType: 'X12_276_Request_005010X212' }, 'PayloadTypeIllegal'],
    ['a time stamp that is not xs:dateTime', { timeStamp: 'yesterday' }, 'TimeStampIllegal'],
    ['a missing SenderID', { senderId: '' }, 'SenderIDRequired'],
  ];
  for (const [what, overrides, code] of envelopeErrors) {
    it(`refuses ${what} with ${code}`, async () => {
      const protocol: CoreProtocol = code.length % 2 ? 'soap' : 'mime';
      const sent = await exchange(protocol, double.url, { envelope: overrides });
      const answer = await answerOf(protocol, sent);
      expect(answer).to.deep.include({ payloadType: 'CoreEnvelopeError', payloadId: sent.request.payloadId });
      expect(answer.payload).to.equal(undefined);
      expect(checkCoreAnswer(sent.request, answer)).to.deep.include({ ok: false, code });
      expect(double.received[0]!.problems).to.have.length(1);
    });
  }

  it('refuses a 270 whose NPI is wrong with a 999 naming NM1 NM109', async () => {
    const x12 = build270(inquiry()).text.replace('XX*1234567893', 'XX*1234567890');
    const sent = await exchange('mime', double.url, { x12 });
    const answer = await answerOf('mime', sent);
    expect(answer.payloadType).to.equal(PAYLOAD_999);
    expect(checkCoreAnswer(sent.request, answer)).to.deep.equal({ ok: true });
    const ack = read999(answer.payload!);
    expect(ack).to.deep.include({ accepted: false, code: 'R' });
    expect(ack.errors).to.deep.include({ segment: 'NM1', position: '6', loop: '2100B', element: '9', code: '7', description: 'Invalid code value' });
    expect(double.received[0]).to.deep.include({ answered: '999', problems: ['NM109 is not a valid NPI'] });
  });

  it('refuses X12 that node-x12 cannot read with a 999', async () => {
    const x12 = build270(inquiry()).text.replace(/~SE\*\d+\*/, '~SE*99*');
    const answer = await answerOf('soap', await exchange('soap', double.url, { x12 }));
    expect(read999(answer.payload!)).to.deep.include({ accepted: false, code: 'R' });
    expect(double.received[0]!.problems[0]).to.match(/^the X12 cannot be read/);
  });

  it('refuses a 270 without its TRN, or with a GS04 that is not a date, with a 999', async () => {
    const built = build270(inquiry()).text;
    const withoutTrn = built.replace(/~TRN\*[^~]*/, '').replace(/~SE\*13\*/, '~SE*12*');
    const ack = read999((await answerOf('soap', await exchange('soap', double.url, { x12: withoutTrn }))).payload!);
    expect(ack.errors).to.deep.include({ segment: 'TRN', loop: '2000C', code: '3', description: 'Required segment missing' });
    const badGs04 = built.replace('*20260304*0506*42*X*', '*2026034*0506*42*X*');
    expect(read999((await answerOf('mime', await exchange('mime', double.url, { x12: badGs04 }))).payload!).accepted).to.equal(false);
    expect(double.received.map((r) => r.problems)).to.deep.equal([['TRN (the trace the 271 echoes) is required'], ['GS04 must be a date']]);
  });

  it('answers a scripted 999 and a scripted CORE error', async () => {
    double.answer = () => ({ kind: '999' });
    const ack = read999((await answerOf('soap', await exchange('soap', double.url))).payload!);
    expect(ack.errors).to.deep.include({ segment: 'NM1', position: '9', loop: '2100C', element: '9', code: '7', description: 'Invalid code value' });
    double.answer = () => ({ kind: 'core-error', code: 'Receiver', message: 'Payer system unavailable' });
    const sent = await exchange('mime', double.url);
    expect(checkCoreAnswer(sent.request, await answerOf('mime', sent))).to.deep.include({ ok: false, code: 'Receiver' });
  });

  it('gives a 500 back as an answer with its status, whose body is no envelope', async () => {
    double.answer = () => ({ kind: 'http-status', status: 500 });
    const { result } = await exchange('soap', double.url);
    if (!result.ok) throw new Error('expected an answer');
    expect(result.status).to.equal(500);
    let error: unknown;
    await readCoreResponse('soap', result.body, result.contentType).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(CoreEnvelopeError);
  });

  it('reuses one kept-alive connection for the exchanges of one clearinghouse connection, and a fresh one after the clearinghouse closed it', async () => {
    // The SDK's tests load nock, which replaces node:http's client for the whole process on
    // import and opens a connection per request: real sockets here (as pinned-connections.test.ts).
    const nockWasActive = nock.isActive();
    if (nockWasActive) nock.restore();
    const pools = new PinnedConnections();
    const vetted = { address: '127.0.0.1', family: 4 as const };
    const agent = pools.agentFor('connection-1', new URL(double.url), vetted);
    let opened = 0;
    const createConnection = agent.createConnection.bind(agent);
    agent.createConnection = ((...args: Parameters<typeof createConnection>) => {
      opened++;
      return createConnection(...args);
    }) as typeof agent.createConnection;
    try {
      for (let i = 0; i < 3; i++) expect((await exchange('soap', double.url, { transport: { connections: { pools, key: 'connection-1' } } })).result.ok).to.equal(true);
      expect(opened).to.equal(1);
      // The clearinghouse drops its idle connections: the next exchange still gets through.
      await double.down();
      await double.up();
      // (on a new pooled connection, or, when the old one is found closed as it is reused, a fresh one)
      expect((await exchange('soap', double.url, { transport: { connections: { pools, key: 'connection-1' } } })).result.ok).to.equal(true);
      expect(double.received).to.have.length(4);
    } finally {
      pools.close();
      if (nockWasActive) nock.activate();
    }
  });

  it('classifies a reset connection as connection_reset', async () => {
    double.answer = () => ({ kind: 'reset' });
    expect(failure((await exchange('soap', double.url)).result)).to.deep.include({ errorClass: 'connection_reset', status: null });
    expect(double.received[0]!.answered).to.equal('reset');
  });

  it('gives up on a slow answer at the deadline: timeout', async () => {
    double.answer = () => ({ kind: 'slow', ms: 2000, then: { kind: 'active' } });
    const result = failure((await exchange('mime', double.url, { transport: { timeoutMs: 300 } })).result);
    expect(result).to.deep.include({ errorClass: 'timeout', detail: 'no answer within 300 ms' });
    expect(result.durationMs).to.be.within(250, 1500);
  });

  it('answers within the deadline when the latency is below it', async () => {
    double.latencyMs = 100;
    double.answer = () => ({ kind: 'slow', ms: 100, then: { kind: 'inactive' } });
    const { result } = await exchange('soap', double.url, { transport: { timeoutMs: 2000 } });
    expect(result.ok).to.equal(true);
    expect(result.durationMs).to.be.at.least(190);
  });

  it('classifies a refused connection when the double is down, and reaches it again once up', async () => {
    await double.down();
    expect(failure((await exchange('soap', double.url)).result).errorClass).to.equal('connection_refused');
    await double.up();
    expect((await exchange('soap', double.url)).result.ok).to.equal(true);
  });

  it('stops at once when the caller aborts', async () => {
    double.answer = () => ({ kind: 'slow', ms: 2000, then: { kind: 'active' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(failure((await exchange('soap', double.url, { transport: { signal: controller.signal } })).result).errorClass).to.equal('aborted');
  });

  it('refuses a private address unless private targets are allowed, and plain http with them', async () => {
    const httpsUrl = double.url.replace('http:', 'https:');
    expect(failure((await exchange('soap', httpsUrl, { transport: { allowPrivateTargets: false } })).result)).to.deep.include({ errorClass: 'ssrf_blocked' });
    expect(failure((await exchange('soap', 'https://clearinghouse.example/core', { transport: { allowPrivateTargets: false, resolve: async () => [{ address: '10.1.2.3', family: 4 }] } })).result)).to.deep.include({ errorClass: 'ssrf_blocked' });
    expect(failure((await exchange('soap', double.url, { transport: { allowPrivateTargets: false } })).result).detail).to.match(/https/);
    expect(failure((await exchange('soap', 'not a url')).result).errorClass).to.equal('invalid_url');
    const unknownHost: HostResolver = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    expect(failure((await exchange('soap', 'https://nowhere.example/core', { transport: { resolve: unknownHost } })).result).errorClass).to.equal('dns');
    expect(double.received).to.have.length(0);
  });

  describe('against other servers', () => {
    let server: Server | undefined;
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

    async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
      server = createServer(handler);
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/core`;
    }

    it('does not follow a redirect', async () => {
      const url = await serve((_req, res) => {
        res.writeHead(307, { Location: double.url });
        res.end();
      });
      expect(failure((await exchange('soap', url)).result)).to.deep.include({ errorClass: 'redirect', status: 307 });
      expect(double.received).to.have.length(0);
    });

    it('stops reading an answer larger than 4 MiB: too_large', async () => {
      const url = await serve((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/soap+xml' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const write = () => {
          while (sent < 5 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return res.once('drain', write);
          }
          res.end();
        };
        write();
      });
      expect(failure((await exchange('soap', url)).result)).to.deep.include({ errorClass: 'too_large', status: 200 });
    });
  });

  describe('over https', () => {
    let dir: string;
    let cert: string;
    let tlsDouble: ClearinghouseDouble;

    before(function () {
      this.timeout(20000);
      dir = mkdtempSync(join(tmpdir(), 'ofctx-core-tls-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    });
    beforeEach(async () => {
      tlsDouble = await startClearinghouseDouble({ tls: { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert } });
    });
    afterEach(() => tlsDouble.close());
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('refuses a self-signed certificate it was not given: tls', async () => {
      expect(tlsDouble.url).to.match(/^https:\/\/localhost:/);
      expect(failure((await exchange('soap', tlsDouble.url)).result).errorClass).to.equal('tls');
      expect(tlsDouble.received).to.have.length(0);
    });

    it('trusts the certificate given as ca, checked against the host name', async () => {
      const sent = await exchange('mime', tlsDouble.url, { transport: { ca: cert } });
      expect(checkCoreAnswer(sent.request, await answerOf('mime', sent))).to.deep.equal({ ok: true });
      expect(tlsDouble.received[0]!.problems).to.deep.equal([]);
    });
  });
});
