// The contract is served to people and machines: YAML byte for byte, JSON, and a Redoc page.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';
import { OPENAPI_PATH } from '../../src/openapi/openapi-document.js';

describe('the served contract and reference page', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(() => service.close());

  it('serves openapi.yaml byte for byte', async () => {
    const response = await call(service.baseUrl, 'GET', '/openapi.yaml');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/yaml/);
    expect(response.body).to.equal(readFileSync(OPENAPI_PATH, 'utf8'));
  });

  it('serves the same document as JSON', async () => {
    const response = await call(service.baseUrl, 'GET', '/openapi.json');
    expect(response.body.openapi).to.match(/^3\.1/);
    expect(Object.keys(response.body.paths)).to.include('/api/v1/oauth/token');
  });

  it('serves a reference page and the Redoc bundle from this origin only', async () => {
    const page = await call(service.baseUrl, 'GET', '/docs');
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('content-security-policy')).to.include("default-src 'self'");
    expect(page.body).to.include('<script src="/docs/redoc.standalone.js"></script>');
    expect(page.body).to.not.match(/https?:\/\//);
    const script = await call(service.baseUrl, 'GET', '/docs/redoc.standalone.js');
    expect(script.headers.get('content-type')).to.match(/^application\/javascript/);
    expect((script.body as string).length).to.be.greaterThan(100_000);
  });
});
