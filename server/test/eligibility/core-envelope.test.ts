// The CAQH CORE Connectivity Rule vC2.2.0 envelopes: requests and responses round trip over
// SOAP 1.2 and MIME multipart, children prefixed or not, SOAP Faults, CDATA holding `]]>`,
// and checkCoreAnswer's verdicts.
import { expect } from 'chai';
import {
  checkCoreAnswer, coreRequest, coreResponse, coreSoapFault, CoreEnvelopeError, PAYLOAD_270, PAYLOAD_271, PAYLOAD_999,
  readCoreRequest, readCoreResponse, SOAP_CONTENT_TYPE, type CoreEnvelope, type CoreProtocol,
} from '../../src/eligibility/core-envelope.js';

const X12 = 'ISA*00*          *00*          *ZZ*OFCTX          *ZZ*CH             *260304*0506*^*00501*000000042*0*T*:~GS*HS*OFCTX*CH*20260304*0506*42*X*005010X279A1~';

const REQUEST: CoreEnvelope = {
  payloadType: PAYLOAD_270,
  processingMode: 'RealTime',
  payloadId: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6',
  timeStamp: '2026-03-04T05:06:07Z',
  senderId: 'OFCTX',
  receiverId: 'CLEARINGHOUSE',
  coreRuleVersion: '2.2.0',
  payload: X12,
};

const ANSWER: CoreEnvelope = {
  ...REQUEST,
  payloadType: PAYLOAD_271,
  senderId: 'CLEARINGHOUSE',
  receiverId: 'OFCTX',
  payload: X12.replace('*HS*', '*HB*'),
  errorCode: 'Success',
  errorMessage: 'None',
};

const CREDENTIALS = { username: 'facility<&>"user', password: 'p&ss]]>word<' };

function soap(bodyXml: string, envelopePrefix = 'env'): Buffer {
  return Buffer.from(`<?xml version="1.0"?><${envelopePrefix}:Envelope xmlns:${envelopePrefix}="http://www.w3.org/2003/05/soap-envelope"><${envelopePrefix}:Body>${bodyXml}</${envelopePrefix}:Body></${envelopePrefix}:Envelope>`);
}

async function envelopeError(promise: Promise<unknown>): Promise<CoreEnvelopeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CoreEnvelopeError) return error;
    throw error;
  }
  throw new Error('expected a CoreEnvelopeError');
}

describe('CORE envelopes', () => {
  for (const protocol of ['soap', 'mime'] as CoreProtocol[]) {
    it(`round trips a request over ${protocol}, credentials included`, async () => {
      const message = await coreRequest(protocol, REQUEST, CREDENTIALS);
      expect(message.headers['Content-Type']).to.equal(message.contentType);
      expect(await readCoreRequest(protocol, message.body, message.contentType)).to.deep.equal({ ...REQUEST, credentials: CREDENTIALS });
    });

    it(`round trips a response over ${protocol}, with and without a payload`, async () => {
      const message = await coreResponse(protocol, ANSWER);
      expect(await readCoreResponse(protocol, message.body, message.contentType)).to.deep.equal(ANSWER);
      const refusal: CoreEnvelope = { ...ANSWER, payload: undefined, errorCode: 'PayloadIDRequired', errorMessage: 'PayloadID is required' };
      delete refusal.payload;
      const refused = await coreResponse(protocol, refusal);
      expect(await readCoreResponse(protocol, refused.body, refused.contentType)).to.deep.equal(refusal);
    });

    it(`keeps a payload holding XML and multipart lookalikes intact over ${protocol}`, async () => {
      const payload = `${X12}MSG*<b>&amp; ]]> --boundary ]]]]>~`;
      const message = await coreResponse(protocol, { ...ANSWER, payload });
      expect((await readCoreResponse(protocol, message.body, message.contentType)).payload).to.equal(payload);
    });
  }

  it('writes SOAP 1.2 with the action in the media type, a WS-Security UsernameToken and the CORE body', async () => {
    const message = await coreRequest('soap', REQUEST, { username: 'u', password: 'p' });
    expect(message.contentType).to.equal(SOAP_CONTENT_TYPE).and.to.contain('action="RealTimeTransaction"');
    const xml = message.body.toString();
    expect(xml).to.contain('xmlns:soapenv="http://www.w3.org/2003/05/soap-envelope"');
    expect(xml).to.contain('xmlns:cor="http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd"');
    expect(xml).to.contain('<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"');
    expect(xml).to.contain('<wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText">p</wsse:Password>');
    expect(xml).to.match(/<cor:COREEnvelopeRealTimeRequest><cor:PayloadType>X12_270_Request_005010X279A1<\/cor:PayloadType><cor:ProcessingMode>RealTime<\/cor:ProcessingMode><cor:PayloadID>.*<cor:Payload><!\[CDATA\[ISA\*/);
  });

  it('escapes `]]>` inside the CDATA and XML-escapes the values', async () => {
    const xml = (await coreRequest('soap', { ...REQUEST, senderId: 'A&B<C>', payload: 'X]]>Y' }, CREDENTIALS)).body.toString();
    expect(xml).to.contain('<![CDATA[X]]]]><![CDATA[>Y]]>');
    expect(xml).to.contain('<cor:SenderID>A&amp;B&lt;C&gt;</cor:SenderID>');
    expect(xml).to.contain('facility&lt;&amp;&gt;&quot;user');
    expect(xml).not.to.contain(CREDENTIALS.password);
  });

  it('writes MIME multipart/form-data with one part per field, UserName and Password included', async () => {
    const message = await coreRequest('mime', REQUEST, { username: 'u', password: 'p' });
    expect(message.contentType).to.match(/^multipart\/form-data; boundary=/);
    const names = [...message.body.toString().matchAll(/name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).to.deep.equal(['ProcessingMode', 'TimeStamp', 'PayloadID', 'CORERuleVersion', 'ReceiverID', 'SenderID', 'PayloadType', 'UserName', 'Password', 'Payload']);
  });

  it('reads response children unprefixed, prefixed with any prefix, and without a namespace', async () => {
    const fields = '<PayloadType>X12_271_Response_005010X279A1</PayloadType><ProcessingMode>RealTime</ProcessingMode><PayloadID>id-1</PayloadID><TimeStamp>2026-03-04T05:06:08Z</TimeStamp><SenderID>CH</SenderID><ReceiverID>OFCTX</ReceiverID><CORERuleVersion>2.2.0</CORERuleVersion><Payload><![CDATA[ISA*...~]]></Payload><ErrorCode>Success</ErrorCode><ErrorMessage></ErrorMessage>';
    const expected = { payloadType: PAYLOAD_271, processingMode: 'RealTime', payloadId: 'id-1', timeStamp: '2026-03-04T05:06:08Z', senderId: 'CH', receiverId: 'OFCTX', coreRuleVersion: '2.2.0', payload: 'ISA*...~', errorCode: 'Success', errorMessage: '' };
    const unprefixed = soap(`<ns1:COREEnvelopeRealTimeResponse xmlns:ns1="http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd">${fields}</ns1:COREEnvelopeRealTimeResponse>`);
    const prefixed = soap(`<x:COREEnvelopeRealTimeResponse xmlns:x="http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd">${fields.replace(/<(\/?)([A-Z])/g, '<$1x:$2')}</x:COREEnvelopeRealTimeResponse>`, 's');
    const defaultNamespace = soap(`<COREEnvelopeRealTimeResponse xmlns="http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd">${fields}</COREEnvelopeRealTimeResponse>`);
    const noNamespace = soap(`<COREEnvelopeRealTimeResponse>${fields}</COREEnvelopeRealTimeResponse>`);
    for (const body of [unprefixed, prefixed, defaultNamespace, noNamespace]) {
      expect(await readCoreResponse('soap', body, 'application/soap+xml')).to.deep.equal(expected);
    }
  });

  it('reads a SOAP 1.2 Fault: the Subcode value, else the Code value, and the Reason text', async () => {
    const withSubcode = soap('<env:Fault><env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>c:UnAuthorized</env:Value></env:Subcode></env:Code><env:Reason><env:Text xml:lang="en">Bad credentials</env:Text></env:Reason></env:Fault>');
    expect(await readCoreResponse('soap', withSubcode, undefined)).to.deep.include({ errorCode: 'UnAuthorized', errorMessage: 'Bad credentials' });
    const codeOnly = soap('<env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code><env:Reason><env:Text>Try later</env:Text></env:Reason></env:Fault>');
    expect(await readCoreResponse('soap', codeOnly, undefined)).to.deep.include({ errorCode: 'Receiver', errorMessage: 'Try later' });
    const written = coreSoapFault('Sender', 'Not authorised', 'UnAuthorized');
    expect(await readCoreResponse('soap', written.body, written.contentType)).to.deep.include({ errorCode: 'UnAuthorized', errorMessage: 'Not authorised' });
  });

  const unreadable: Array<[string, CoreProtocol, Buffer, string | undefined, RegExp]> = [
    ['text that is not XML', 'soap', Buffer.from('Service Unavailable'), 'text/plain', /not well-formed XML|not a SOAP envelope/],
    ['XML that is not SOAP', 'soap', Buffer.from('<html><body>oops</body></html>'), 'text/html', /not a SOAP envelope/],
    ['a SOAP 1.1 envelope', 'soap', Buffer.from('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>'), 'text/xml', /not SOAP 1.2/],
    ['a DTD', 'soap', Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'), undefined, /DTD/],
    ['a Body without the CORE response', 'soap', soap('<Other/>'), undefined, /neither a COREEnvelopeRealTimeResponse nor a Fault/],
    ['a CORE response in another namespace', 'soap', soap('<o:COREEnvelopeRealTimeResponse xmlns:o="urn:other"/>'), undefined, /neither/],
    ['a MIME answer that is not multipart', 'mime', Buffer.from('oops'), 'text/plain', /not multipart/],
    ['a MIME answer without its boundary', 'mime', Buffer.from('--x\r\n'), 'multipart/form-data; boundary=x', /cannot be read/],
  ];
  for (const [what, protocol, body, contentType, message] of unreadable) {
    it(`refuses ${what} as not a readable envelope`, async () => {
      expect((await envelopeError(readCoreResponse(protocol, body, contentType))).message).to.match(message);
    });
  }

  it('reads no credentials from a request without a UsernameToken or with a digest password', async () => {
    const xml = (await coreRequest('soap', REQUEST, { username: 'u', password: 'p' })).body.toString();
    expect(await readCoreRequest('soap', Buffer.from(xml.replace(/<soapenv:Header>.*<\/soapenv:Header>/, '')), SOAP_CONTENT_TYPE)).not.to.have.property('credentials');
    expect(await readCoreRequest('soap', Buffer.from(xml.replace('#PasswordText', '#PasswordDigest')), SOAP_CONTENT_TYPE)).not.to.have.property('credentials');
  });

  describe('checkCoreAnswer', () => {
    it('accepts a Success carrying a 271 or a 999 for the same PayloadID', () => {
      expect(checkCoreAnswer(REQUEST, ANSWER)).to.deep.equal({ ok: true });
      expect(checkCoreAnswer(REQUEST, { ...ANSWER, payloadType: PAYLOAD_999 })).to.deep.equal({ ok: true });
    });

    it('gives the CORE error code of a refused envelope', () => {
      const verdict = checkCoreAnswer(REQUEST, { ...ANSWER, errorCode: 'UnAuthorized', errorMessage: 'Sender not authorised', payload: undefined });
      expect(verdict).to.deep.include({ ok: false, code: 'UnAuthorized' });
      expect(verdict.ok === false && verdict.detail).to.match(/UnAuthorized \(Sender not authorised\)/);
      const noCode: CoreEnvelope = { ...ANSWER };
      delete noCode.errorCode;
      expect(checkCoreAnswer(REQUEST, noCode)).to.deep.include({ ok: false, code: 'ErrorCodeMissing' });
    });

    it('refuses an answer to another PayloadID, of another payload type, or without a payload', () => {
      expect(checkCoreAnswer(REQUEST, { ...ANSWER, payloadId: 'other' })).to.deep.include({ ok: false, code: 'PayloadIDMismatch' });
      expect(checkCoreAnswer(REQUEST, { ...ANSWER, payloadType: PAYLOAD_270 })).to.deep.include({ ok: false, code: 'UnexpectedPayloadType' });
      expect(checkCoreAnswer(REQUEST, { ...ANSWER, payload: '  ' })).to.deep.include({ ok: false, code: 'MissingPayload' });
    });
  });
});
