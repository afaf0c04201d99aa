// SMART's r and s, decided where tenancy is (tenancy/authorize.ts): a token granted `r` alone
// reads records by id and nothing else; `s` alone lists, searches, exports and reads the event
// log, and reads nothing by id; v1 `read` and `*`, v2 `rs` (c, u, d dropped) and the API scopes allow both.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call, tokenFor } from '../../../test/support/http.js';
import { seedTenants, RESOURCE_ENDPOINTS, type Tenants } from '../../../test/support/tenants.js';
import { R4_TYPES } from '../../src/resources/r4/r4-types.js';
import { openApiDocumentCopy } from '../../src/openapi/openapi-document.js';

const FHIR = { accept: 'application/fhir+json' };

describe('reading by id and searching (SMART r and s)', function () {
  this.timeout(30_000);
  let service: TestService;
  let t: Tenants;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const get = (path: string, token: string, headers: Record<string, string> = {}) => call(service.baseUrl, 'GET', path, { token, headers });
  const ofctx = (path: string) => `/api/v1/ofctx/${t.orgA}/${t.a1}/${path}`;
  const r4 = (path: string) => `/api/v1/fhir/R4/${t.orgA}/${t.a1}/${path}`;

  before(async () => {
    service = await startTestService();
    t = await seedTenants(service, 3);
    for (const scope of ['system/*.r', 'system/*.s', 'system/*.rs', 'system/*.read', 'system/*.*', 'system/*.cruds', 'system/Observation.rs system/Patient.r']) {
      tokens[scope] = await tokenFor(service.baseUrl, t.full, scope);
    }
    const db = service.running.app.db;
    for (const r of R4_TYPES) ids[r.table] = (await db(r.table).where({ facility_id: t.a1 }).first('id'))?.id;
  });
  after(() => service.close());

  function expectRefused(response: { status: number; body: any; headers: Headers }, scope: string, doing: string) {
    expect(response.status).to.equal(403);
    const message = response.body.error?.message ?? response.body.issue?.[0]?.diagnostics;
    expect(message).to.contain(doing);
    expect(response.headers.get('www-authenticate')).to.equal(`Bearer realm="ofctx", error="insufficient_scope", scope="${scope}"`);
  }

  for (const endpoint of RESOURCE_ENDPOINTS) {
    it(`${endpoint.name}: r reads by id but does not list, s lists but does not read by id`, async () => {
      const read = ofctx(`${endpoint.list}/${ids[endpoint.table]}`);
      expect((await get(read, tokens['system/*.r']!)).status).to.equal(200);
      expectRefused(await get(ofctx(endpoint.list), tokens['system/*.r']!), endpoint.scope, `the access token was granted only ${endpoint.scope}:read (SMART r)`);
      expect((await get(ofctx(endpoint.list), tokens['system/*.s']!)).status).to.equal(200);
      expectRefused(await get(read, tokens['system/*.s']!), endpoint.scope, 'This operation reads a record by id');
      for (const both of ['system/*.rs', 'system/*.read', 'system/*.*', 'system/*.cruds']) {
        expect((await get(read, tokens[both]!)).status, both).to.equal(200);
        expect((await get(ofctx(endpoint.list), tokens[both]!)).status, both).to.equal(200);
      }
    });
  }

  for (const type of R4_TYPES) {
    it(`FHIR ${type.type}: r reads by id but does not search (GET or POST), s searches but does not read`, async () => {
      // Types the seed has no rows of: an unknown id, found missing (404) only when the read is allowed.
      const id = ids[type.table] ?? randomUUID();
      expect((await get(r4(`${type.type}/${id}`), tokens['system/*.r']!, FHIR)).status).to.equal(ids[type.table] ? 200 : 404);
      expectRefused(await get(r4(`${type.type}/${id}`), tokens['system/*.s']!, FHIR), type.scope, 'reads a record by id');
      expectRefused(await get(r4(type.type), tokens['system/*.r']!, FHIR), type.scope, 'searches or lists records');
      const byPost = await call(service.baseUrl, 'POST', r4(`${type.type}/_search`), { token: tokens['system/*.r']!, headers: FHIR, form: {} });
      expectRefused(byPost, type.scope, 'searches or lists records');
      expect((await get(r4(type.type), tokens['system/*.s']!, FHIR)).status).to.equal(200);
      expect((await get(r4(`${type.type}?_summary=count`), tokens['system/*.s']!, FHIR)).status).to.equal(200);
    });
  }

  it('includes Patients in a search only with the Patients\' search half', async () => {
    const token = tokens['system/Observation.rs system/Patient.r']!;
    expect((await get(r4('Observation'), token, FHIR)).status).to.equal(200);
    expectRefused(await get(r4('Observation?_include=Observation:patient'), token, FHIR), 'residents.read', 'searches or lists records');
    const included = await get(r4('Observation?_include=Observation:patient'), tokens['system/*.s']!, FHIR);
    expect(included.status).to.equal(200);
    expect(included.body.entry.some((entry: any) => entry.search.mode === 'include')).to.equal(true);
  });

  it('exports (kick-off, and what it includes) only with search', async () => {
    const async = { ...FHIR, prefer: 'respond-async' };
    const refused = await get(r4('$export'), tokens['system/*.r']!, async);
    expect(refused.status).to.equal(403);
    const typed = await get(r4('$export?_type=Patient'), tokens['system/Observation.rs system/Patient.r']!, async);
    expect(typed.status).to.equal(403);
    expect(typed.body.issue[0].diagnostics).to.contain('Exporting Patient needs the scope residents.read with search (SMART s)');
    for (const both of ['system/*.read', 'system/*.cruds']) {
      const kickOff = await get(r4('$export?_type=Observation'), tokens[both]!, async);
      expect(kickOff.status, both).to.equal(202);
      await call(service.baseUrl, 'DELETE', new URL(kickOff.headers.get('content-location')!).pathname, { token: tokens[both]!, headers: FHIR });
    }
    const started = await get(r4('$export'), tokens['system/*.s']!, async);
    expect(started.status).to.equal(202);
    const status = new URL(started.headers.get('content-location')!).pathname;
    expect((await get(status, tokens['system/*.r']!, FHIR)).status).to.equal(403);
    expect([200, 202]).to.include((await get(status, tokens['system/*.s']!, FHIR)).status);
  });

  it('opens the event log only with search, and only its types for a token searching some scopes', async () => {
    const events = (token: string, query = '') => get(`/api/v1/ofctx/${t.orgA}/events${query}`, token);
    expect((await events(tokens['system/*.r']!)).status).to.equal(403);
    for (const scope of ['system/*.s', 'system/*.rs', 'system/*.read', 'system/*.cruds']) expect((await events(tokens[scope]!)).status, scope).to.equal(200);
    const mixed = tokens['system/Observation.rs system/Patient.r']!;
    expect((await events(mixed)).status).to.equal(200);
    const residents = await events(mixed, '?types=resident.admitted');
    expect(residents.status).to.equal(403);
    expect(residents.body.error.message).to.contain('need the scope residents.read with search (SMART s)');
  });

  it('marks exactly the reads by id as x-ofctx-interaction: read in the contract', () => {
    const marked: string[] = [];
    for (const operations of Object.values(openApiDocumentCopy().paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(operations)) if (operation?.['x-ofctx-interaction'] === 'read') marked.push(operation.operationId);
    }
    expect(marked.sort()).to.deep.equal(
      ['getResident', 'getCoverage', 'getObservation', 'getAllergy', ...R4_TYPES.map((type) => `readFhir${type.type}`), 'readFhirSubscription', 'readFhirBasic'].sort(),
    );
  });
});
