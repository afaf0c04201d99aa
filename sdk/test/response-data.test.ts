import { expect } from 'chai';
import nock from 'nock';
import { createClientWithRuntime } from '../src/client.js';
import { NotFoundError, OfctxError } from '../src/errors.js';
import { dataOf } from '../src/response-data.js';
import { API_HEADERS, BASE_URL, CLIENT_ID, CLIENT_SECRET, errorEnvelope, FACILITY_ID, FACILITY_PATH, ManualRuntime, mockToken, ORG_ID, rejectionOf, uuid, useNock } from './fixtures/api.js';

describe('reading answers', () => {
  useNock();
  beforeEach(() => mockToken());
  const residents = () =>
    createClientWithRuntime({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, new ManualRuntime()).facility(ORG_ID, FACILITY_ID).residents;

  it('a 2xx body that is not JSON (a proxy page) is an OfctxError, not a SyntaxError', async () => {
    nock(BASE_URL).get(`${FACILITY_PATH}/residents/${uuid(1)}`).reply(200, '<html>Maintenance</html>', { 'Content-Type': 'text/html' });
    const error = await rejectionOf(residents().get(uuid(1)));
    expect(error).to.be.instanceOf(OfctxError);
    expect(error).to.include({ code: 'unexpected_response' });
    expect((error as OfctxError).cause).to.be.instanceOf(SyntaxError);
  });

  it('a 2xx without a body is an OfctxError (unexpected_response)', async () => {
    nock(BASE_URL).get(`${FACILITY_PATH}/residents/${uuid(1)}`).reply(204, '', API_HEADERS);
    const error = await rejectionOf(residents().get(uuid(1)));
    expect(error).to.be.instanceOf(OfctxError);
    expect(error).to.include({ code: 'unexpected_response', status: 204, requestId: API_HEADERS['X-Request-Id'] });
  });

  it('dataOf() turns a failed openapi-fetch result into the typed error', async () => {
    nock.cleanAll();
    const body = errorEnvelope('not_found', 'No such resource.');
    const response = new Response(JSON.stringify(body), { status: 404, headers: { 'Content-Type': 'application/json' } });
    const error = await rejectionOf(dataOf(Promise.resolve({ error: body, response })));
    expect(error).to.be.instanceOf(NotFoundError);
  });
});
