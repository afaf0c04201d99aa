// Request headers over 16 KiB are refused with 431 in the error format of the operation asked:
// the envelope, the RFC 6749 body at the token endpoint, a FHIR OperationOutcome, the console's
// HTML page (every answer checked against the contract by `call`). Up to 16 KiB they pass.
import { expect } from 'chai';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';
import { MAX_HEADER_BYTES } from '../../src/http/header-size.js';

describe('request headers over 16 KiB', () => {
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'headers')).id;
  });
  after(() => service.close());

  const big = { 'x-padding': 'a'.repeat(MAX_HEADER_BYTES) };

  it('answers an API operation 431 headers_too_large in the envelope', async () => {
    const response = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/residents`, { headers: big });
    expect(response.status).to.equal(431);
    expect(response.body.error.code).to.equal('headers_too_large');
    expect(response.body.error.request_id).to.equal(response.headers.get('x-request-id'));
  });

  it('answers the token endpoint 431 with the RFC 6749 body and Cache-Control: no-store (HTTP Basic credentials too long)', async () => {
    const basic = Buffer.from(`${'x'.repeat(5_000)}:${'y'.repeat(10_000)}`).toString('base64');
    const response = await call(service.baseUrl, 'POST', '/api/v1/oauth/token', { form: { grant_type: 'client_credentials' }, headers: { authorization: `Basic ${basic}` } });
    expect(response.status).to.equal(431);
    expect(response.body).to.deep.equal({ error: 'invalid_request', error_description: 'The request headers are too large (16 KiB at most).' });
    expect(response.headers.get('cache-control')).to.equal('no-store');
  });

  it('answers a FHIR search 431 with an OperationOutcome (too-long)', async () => {
    const response = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${orgId}/${facilityId}/Patient`, { headers: { ...big, accept: 'application/fhir+json' } });
    expect(response.status).to.equal(431);
    expect(response.body.resourceType).to.equal('OperationOutcome');
    expect(response.body.issue[0].code).to.equal('too-long');
  });

  it("answers a console page 431 as an HTML page", async () => {
    const response = await call<string>(service.baseUrl, 'GET', '/console/sign-in', { headers: { ...big, accept: 'text/html' } });
    expect(response.status).to.equal(431);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
  });

  it('serves a request whose headers are just within 16 KiB', async () => {
    // The request line and the headers the client adds take the rest of the 16 KiB.
    const response = await call(service.baseUrl, 'GET', '/healthz', { headers: { 'x-padding': 'a'.repeat(MAX_HEADER_BYTES - 400) } });
    expect(response.status).to.equal(200);
  });
});
