// A parameter or body field holding NUL (U+0000) is refused as invalid, naming it, in the
// operation's own error format, on both databases: PostgreSQL's text cannot hold it, and each
// of these was a 500 there until the contract walk (hostile-requests/) found it.
import { expect } from 'chai';
import { call } from '../../../test/support/http.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { seedTenants, type Tenants } from '../../../test/support/tenants.js';

describe('NUL characters in requests', () => {
  let service: TestService;
  let t: Tenants;
  before(async () => {
    service = await startTestService();
    t = await seedTenants(service, 1);
  });
  after(() => service?.close());

  it('refuses a query parameter holding NUL with the operation error format, naming the parameter', async () => {
    const answer = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Subscription?url=http://a%00b`, { token: t.fullToken });
    expect(answer.status).to.equal(400);
    expect(answer.body.resourceType).to.equal('OperationOutcome');
    expect(JSON.stringify(answer.body.issue)).to.include('query.url').and.include('must not contain the NUL character (U+0000)');
  });

  it('refuses a JSON body field holding NUL as invalid_body, naming the field', async () => {
    const answer = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${t.orgA}/webhooks`, {
      token: t.fullToken,
      json: { callback_url: 'http://127.0.0.1:9/hooks', event_types: ['resident.admitted'], description: 'a\u0000b' },
    });
    expect(answer.status).to.equal(400);
    expect(answer.body.error.code).to.equal('invalid_body');
    expect(answer.body.error.details).to.deep.include({ field: 'body.description', issue: 'must not contain the NUL character (U+0000)' });
    expect(await service.running.app.db('webhook_subscriptions').where({ org_id: t.orgA }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
  });

  it('answers a token request whose client_id holds NUL with invalid_request', async () => {
    const answer = await call(service.baseUrl, 'POST', '/api/v1/oauth/token', { form: { grant_type: 'client_credentials', client_id: `${t.full.client_id}\u0000`, client_secret: t.full.client_secret } });
    expect(answer.status).to.equal(400);
    expect(answer.body.error).to.equal('invalid_request');
    expect(answer.body.error_description).to.include('client_id');
  });
});
