// Tenancy and scopes, for every endpoint: nobody reads what they are not granted.
import { expect } from 'chai';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';
import { seedTenants, RESOURCE_ENDPOINTS, type Tenants } from '../../../test/support/tenants.js';

describe('tenancy and scopes', () => {
  let service: TestService;
  let t: Tenants;
  const get = (path: string, token?: string) => call(service.baseUrl, 'GET', path, { token });

  before(async () => {
    service = await startTestService();
    t = await seedTenants(service, 3);
  });
  after(() => service.close());

  for (const endpoint of RESOURCE_ENDPOINTS) {
    describe(endpoint.name, () => {
      let foreignId: string;
      let ownId: string;
      before(async () => {
        const db = service.running.app.db;
        foreignId = (await db(endpoint.table).where({ facility_id: t.a2 }).first()).id;
        ownId = (await db(endpoint.table).where({ facility_id: t.a1 }).first()).id;
      });

      it('serves the granted facility', async () => {
        expect((await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}`, t.fullToken)).status).to.equal(200);
        expect((await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}/${ownId}`, t.fullToken)).status).to.equal(200);
      });

      it('refuses another organization with 403 organization_forbidden', async () => {
        for (const path of [`/api/v1/ofctx/${t.orgB}/${t.b1}/${endpoint.list}`, `/api/v1/ofctx/${t.orgB}/${t.b1}/${endpoint.list}/${ownId}`]) {
          const response = await get(path, t.fullToken);
          expect(response.status).to.equal(403);
          expect(response.body.error.code).to.equal('organization_forbidden');
        }
      });

      it('refuses a facility outside the grant with 403 facility_forbidden', async () => {
        for (const path of [`/api/v1/ofctx/${t.orgA}/${t.a2}/${endpoint.list}`, `/api/v1/ofctx/${t.orgA}/${t.a2}/${endpoint.list}/${foreignId}`]) {
          const response = await get(path, t.fullToken);
          expect(response.status).to.equal(403);
          expect(response.body.error.code).to.equal('facility_forbidden');
        }
      });

      it("answers 404 for another facility's id, exactly as for an unknown id", async () => {
        const foreign = await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}/${foreignId}`, t.fullToken);
        const unknown = await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}/00000000-0000-4000-8000-000000000000`, t.fullToken);
        expect(foreign.status).to.equal(404);
        expect(unknown.status).to.equal(404);
        const strip = (body: any) => ({ ...body, error: { ...body.error, request_id: 'x' } });
        expect(strip(foreign.body)).to.deep.equal(strip(unknown.body));
      });

      it(`needs ${endpoint.scope}: 403 insufficient_scope names it`, async () => {
        if (endpoint.scope === 'coverage.read') return; // the coverage-only token has it
        const response = await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}`, t.coverageOnlyToken);
        expect(response.status).to.equal(403);
        expect(response.body.error.code).to.equal('insufficient_scope');
        expect(response.headers.get('www-authenticate')).to.equal(`Bearer realm="ofctx", error="insufficient_scope", scope="${endpoint.scope}"`);
      });

      it('answers 401 without a token or with a bad one', async () => {
        const missing = await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}`);
        expect(missing.status).to.equal(401);
        expect(missing.body.error.code).to.equal('missing_token');
        expect(missing.headers.get('www-authenticate')).to.equal('Bearer realm="ofctx"');
        const bad = await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}`, 'ofx_at_not-a-real-token');
        expect(bad.status).to.equal(401);
        expect(bad.body.error.code).to.equal('invalid_token');
        expect(bad.headers.get('www-authenticate')).to.match(/^Bearer realm="ofctx", error="invalid_token"/);
      });
    });
  }

  it("never returns another tenant's rows in any list, on any page", async () => {
    const db = service.running.app.db;
    for (const endpoint of RESOURCE_ENDPOINTS) {
      const foreign = new Set(await db(endpoint.table).whereNot({ facility_id: t.a1 }).pluck('id'));
      for (let page = 1; ; page++) {
        const response = await get(`/api/v1/ofctx/${t.orgA}/${t.a1}/${endpoint.list}?page=${page}&page_size=7`, t.fullToken);
        expect(response.status).to.equal(200);
        for (const row of response.body.data) expect(foreign.has(row.id), `${endpoint.name} ${row.id}`).to.equal(false);
        if (response.body.data.length === 0) break;
      }
    }
  });

  it('keeps webhook management inside the organization and behind webhooks.manage', async () => {
    const foreign = await get(`/api/v1/ofctx/${t.orgB}/webhooks`, t.fullToken);
    expect(foreign.status).to.equal(403);
    expect(foreign.body.error.code).to.equal('organization_forbidden');
    const noScope = await get(`/api/v1/ofctx/${t.orgA}/webhooks`, t.coverageOnlyToken);
    expect(noScope.status).to.equal(403);
    expect(noScope.body.error.code).to.equal('insufficient_scope');
  });
});
