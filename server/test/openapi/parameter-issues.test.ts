// A refused parameter's issue says what to send: the contract's wording instead of a regular
// expression, the `+` that form encoding turned into a space, a parameter given twice.
import { expect } from 'chai';
import { call } from '../../../test/support/http.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { seedTenants, type Tenants } from '../../../test/support/tenants.js';
import { openApiDocumentCopy } from '../../src/openapi/openapi-document.js';
import { PATTERN_ISSUE_KEYWORD } from '../../src/openapi/parameter-issues.js';

const PLUS_HINT = 'a + in a query string or form body is read as a space: send + as %2B';

describe('the issues of a refused parameter', () => {
  let service: TestService;
  let t: Tenants;
  before(async () => {
    service = await startTestService();
    t = await seedTenants(service, 1);
  });
  after(() => service?.close());

  const diagnostics = (body: { issue: Array<{ diagnostics: string }> }) => body.issue.map((issue) => issue.diagnostics).join(' ');

  it('words a FHIR date that does not match as the dates it takes, not as a regular expression', async () => {
    const answer = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Patient?birthdate=1941-3-1`, { token: t.fullToken });
    expect(answer.status).to.equal(400);
    expect(diagnostics(answer.body)).to.include('query.birthdate.0 must be a date or instant (1941, 1941-03, 1941-03-17').and.not.include('pattern').and.not.include(PLUS_HINT);
  });

  it('says to send %2B when a time zone offset arrived with its + read as a space', async () => {
    // `+` sent as it is: the query string's form encoding makes it a space.
    const fhir = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Coverage?_lastUpdated=gt2026-11-20T10:00:00+05:00`, { token: t.fullToken });
    expect(fhir.status).to.equal(400);
    expect(diagnostics(fhir.body)).to.include(`query._lastUpdated.0 must be a date or instant`).and.include(PLUS_HINT);

    const list = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${t.orgA}/${t.a1}/coverage?_lastUpdated=gt2026-11-20T10:00:00+05:00`, { token: t.fullToken });
    expect(list.status).to.equal(400);
    expect(list.body.error.details).to.deep.equal([
      { field: 'query._lastUpdated.0', issue: `must be gt, ge, lt or le and a date (2026-11-20) or an instant with its zone (2026-11-20T10:00:00Z, 2026-11-20T10:00:00%2B05:00); ${PLUS_HINT}` },
    ]);

    // A POST _search form body reads + as a space as well.
    const form = await call(service.baseUrl, 'POST', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Patient/_search`, { token: t.fullToken, rawBody: 'birthdate=gt1940-01-01T00:00:00+05:00', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).to.equal(400);
    expect(diagnostics(form.body)).to.include('query.birthdate must be a date or instant').and.include(PLUS_HINT);

    // Sent as %2B, the same search is served.
    const encoded = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${t.orgA}/${t.a1}/coverage?_lastUpdated=gt2026-11-20T10:00:00%2B05:00`, { token: t.fullToken });
    expect(encoded.status).to.equal(200);
  });

  it('gives no %2B advice where putting the + back would not make the value valid', async () => {
    // No prefix: invalid with or without the zone's sign.
    const answer = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${t.orgA}/${t.a1}/coverage?_lastUpdated=2026-11-20T10:00:00+05:00`, { token: t.fullToken });
    expect(answer.status).to.equal(400);
    expect(answer.body.error.details[0].issue).to.match(/^must be gt, ge, lt or le/).and.not.include('%2B;').and.not.include(PLUS_HINT);
  });

  it('says a parameter that takes one value was given more than once', async () => {
    const list = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${t.orgA}/${t.a1}/residents?page_size=2&page_size=3`, { token: t.fullToken });
    expect(list.status).to.equal(400);
    expect(list.body.error.details).to.deep.equal([{ field: 'query.page_size', issue: 'is given more than once; give it once' }]);

    const fhir = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Patient?_count=5&_count=7`, { token: t.fullToken });
    expect(fhir.status).to.equal(400);
    expect(diagnostics(fhir.body)).to.include('query._count is given more than once; give it once');
  });

  it('says a token request field given twice is repeated (RFC 6749 3.2), and leaves a JSON array where a string belongs as a type', async () => {
    const token = await call(service.baseUrl, 'POST', '/api/v1/oauth/token', { rawBody: `grant_type=client_credentials&grant_type=client_credentials&client_id=${t.full.client_id}&client_secret=${t.full.client_secret}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(token.status).to.equal(400);
    expect(token.body).to.deep.equal({ error: 'invalid_request', error_description: 'body.grant_type is given more than once; give it once' });

    const json = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${t.orgA}/webhooks`, { token: t.fullToken, json: { callback_url: 'http://127.0.0.1:9/hooks', event_types: ['resident.admitted'], description: ['a', 'b'] } });
    expect(json.status).to.equal(400);
    expect(json.body.error.details).to.deep.equal([{ field: 'body.description', issue: 'must be string' }]);
  });

  it('words a reference that names no Patient, and a cursor not as a page gave it', async () => {
    const reference = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Observation?patient=Practitioner/123`, { token: t.fullToken });
    expect(reference.status).to.equal(400);
    expect(diagnostics(reference.body)).to.include('query.patient must be Patient/ and an id, or an id (a FHIR id: 1 to 64 letters, digits, - and .)');

    const cursor = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${t.orgA}/${t.a1}/residents?cursor=a.b`, { token: t.fullToken });
    expect(cursor.status).to.equal(400);
    expect(cursor.body.error.details).to.deep.equal([{ field: 'query.cursor', issue: 'must be a cursor as the previous page gave it (letters, digits, - and _)' }]);
  });

  it('keeps the other issues of the same request beside a worded one', async () => {
    const answer = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Patient?birthdate=1941-3-1&_count=201`, { token: t.fullToken });
    expect(answer.status).to.equal(400);
    expect(diagnostics(answer.body)).to.include('query.birthdate.0 must be a date or instant').and.include('query._count must be <= 200');
  });

  it('words every pattern a request parameter of the contract has', () => {
    // Request parameters: those of `paths`, not of `webhooks` (the deliveries ofctx sends).
    const document = openApiDocumentCopy() as { paths: Record<string, Record<string, unknown>>; components: { parameters: Record<string, Record<string, unknown>> } };
    const parameters = new Map<string, Record<string, unknown>>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [key, value] of Object.entries(item)) {
        const list = key === 'parameters' ? value : (value as { parameters?: unknown } | null)?.parameters;
        for (const parameter of (Array.isArray(list) ? list : []) as Array<Record<string, unknown>>) {
          const ref = typeof parameter.$ref === 'string' ? parameter.$ref : undefined;
          if (ref) parameters.set(ref, document.components.parameters[ref.replace('#/components/parameters/', '')]!);
          else parameters.set(`${path} ${key} ${String(parameter.name)}`, parameter);
        }
      }
    }
    const unworded: string[] = [];
    let patterned = 0;
    const walk = (value: unknown, at: string) => {
      if (value === null || typeof value !== 'object') return;
      const schema = value as Record<string, unknown>;
      if (typeof schema.pattern === 'string') {
        patterned++;
        if (typeof schema[PATTERN_ISSUE_KEYWORD] !== 'string') unworded.push(at);
      }
      for (const [key, item] of Object.entries(schema)) walk(item, `${at}/${key}`);
    };
    for (const [at, parameter] of parameters) walk(parameter.schema, at);
    expect(patterned).to.be.greaterThan(10);
    expect(unworded).to.deep.equal([]);
  });
});
