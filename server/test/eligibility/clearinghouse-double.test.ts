// The clearinghouse double itself: what it refuses before any X12 is read (media types, SOAP
// versions, unreadable multipart, missing credentials), what it records, and that its 271s
// read with the existing 271 reader for every scripted outcome.
import { expect } from 'chai';
import { startClearinghouseDouble, type ClearinghouseDouble, type DoubleAnswer } from '../../../test/support/clearinghouse-double.js';
import { coreRequest, PAYLOAD_270, readCoreResponse, type CoreEnvelope } from '../../src/eligibility/core-envelope.js';
import { build270 } from '../../src/eligibility/x12-270.js';
import { subscriberLoops } from '../../src/x12/eligibility-271.js';

const X12 = build270({
  senderId: 'OFCTX', receiverId: 'CLEARINGHOUSE', controlNumber: 7, production: false, at: new Date('2026-03-04T05:06:07Z'),
  payer: { name: 'Acme Health', id: 'ACME' }, provider: { name: 'Maple Grove', npi: '1245319599' },
  subscriber: { lastName: 'Okafor', memberId: 'ACM-001' }, trace: 'coverage-1', serviceDate: '2026-03-04',
}).text;

const ENVELOPE: CoreEnvelope = {
  payloadType: PAYLOAD_270, processingMode: 'RealTime', payloadId: '5f0c3a1e-8b6d-4f0a-9c3e-2d7b1a4e6f80', timeStamp: '2026-03-04T05:06:07Z',
  senderId: 'OFCTX', receiverId: 'CLEARINGHOUSE', coreRuleVersion: '2.2.0', payload: X12,
};

async function post(url: string, body: string | Buffer, contentType: string): Promise<Response> {
  return fetch(url, { method: 'POST', body: new Uint8Array(Buffer.from(body)), headers: { 'Content-Type': contentType } });
}

describe('Clearinghouse double', () => {
  let double: ClearinghouseDouble;
  beforeEach(async () => {
    double = await startClearinghouseDouble();
  });
  afterEach(() => double.close());

  it('accepts any non-empty credentials when none were configured, and refuses none at all', async () => {
    const ok = await coreRequest('mime', ENVELOPE, { username: 'anyone', password: 'x' });
    const answered = await post(double.url, ok.body, ok.contentType);
    const answer = await readCoreResponse('mime', Buffer.from(await answered.arrayBuffer()), answered.headers.get('content-type') ?? undefined);
    expect(answer.errorCode).to.equal('Success');
    const none = await coreRequest('mime', ENVELOPE, { username: '', password: '' });
    const refused = await post(double.url, none.body, none.contentType);
    expect((await readCoreResponse('mime', Buffer.from(await refused.arrayBuffer()), refused.headers.get('content-type') ?? undefined)).errorCode).to.equal('UnAuthorized');
    expect(double.received.map((r) => r.problems)).to.deep.equal([[], ['the user name or password is wrong']]);
  });

  it('answers another media type with 415, and a SOAP 1.1 envelope with a VersionMismatch fault', async () => {
    expect((await post(double.url, 'hello', 'text/plain')).status).to.equal(415);
    const soap11 = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>';
    const answered = await post(double.url, soap11, 'application/soap+xml');
    expect(answered.status).to.equal(400);
    expect(await readCoreResponse('soap', Buffer.from(await answered.arrayBuffer()), undefined)).to.deep.include({ errorCode: 'VersionMismatch' });
    expect(double.received).to.have.length(1);
    expect(double.received[0]!.problems[0]).to.match(/not SOAP 1.2/);
  });

  it('answers a multipart body it cannot read with 400 and records it', async () => {
    expect((await post(double.url, 'not multipart', 'multipart/form-data; boundary=zzz')).status).to.equal(400);
    expect(double.received[0]).to.deep.include({ protocol: 'mime', answered: 'core-error' });
  });

  const outcomes: Array<[DoubleAnswer, (loop: ReturnType<typeof subscriberLoops>[number]) => void]> = [
    [{ kind: 'active' }, (loop) => expect(loop).to.deep.include({ eligibility: ['1'], planStart: '2026-01-01' })],
    [{ kind: 'inactive' }, (loop) => expect(loop.eligibility).to.deep.equal(['6'])],
    [{ kind: 'aaa', code: '75' }, (loop) => expect(loop.rejections).to.deep.equal([{ code: '75', action: 'C', reason: 'AAA 75: Subscriber/insured not found' }])],
  ];
  for (const [answer, check] of outcomes) {
    it(`writes a ${answer.kind} 271 the 271 reader reads, with the trace and member id echoed`, async () => {
      double.answer = () => answer;
      const request = await coreRequest('soap', ENVELOPE, { username: 'u', password: 'p' });
      const answered = await post(double.url, request.body, request.contentType);
      const envelope = await readCoreResponse('soap', Buffer.from(await answered.arrayBuffer()), answered.headers.get('content-type') ?? undefined);
      const [loop] = subscriberLoops(envelope.payload!);
      expect(loop).to.deep.include({ trace: 'coverage-1', memberId: 'ACM-001', payer: 'ACME HEALTH', payerId: 'ACME' });
      check(loop!);
    });
  }
});
