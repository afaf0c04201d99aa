// The contract itself: every operation is fully described, so generated types, the server's
// validation and the SDK all have what they need.
import { expect } from 'chai';
import { loadOpenApiDocument } from '../../server/src/openapi/openapi-document.js';

type AnyRecord = Record<string, any>;
const { document } = loadOpenApiDocument() as unknown as { document: AnyRecord };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(node: AnyRecord): AnyRecord {
  if (!node?.$ref) return node;
  const path = (node.$ref as string).replace(/^#\//, '').split('/');
  return resolve(path.reduce((acc: AnyRecord, key) => acc[key], document));
}

const operations = Object.entries(document.paths as AnyRecord).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as AnyRecord })),
);

describe('the OpenAPI document', () => {
  it('carries the license of the LICENSE file and of the packages (Apache-2.0)', async () => {
    const { readFileSync } = await import('node:fs');
    expect(document.info.license).to.deep.equal({ name: 'Apache 2.0', identifier: 'Apache-2.0' });
    expect(readFileSync('LICENSE', 'utf8')).to.match(/Apache License\s+Version 2\.0/);
    for (const pkg of ['sdk', 'verifier']) expect(JSON.parse(readFileSync(`${pkg}/package.json`, 'utf8')).license).to.equal('Apache-2.0');
  });

  it('is OpenAPI 3.1 with an oauth2 client-credentials scheme for the four partner scopes and ingest.write', () => {
    expect(document.openapi).to.match(/^3\.1\./);
    const flow = document.components.securitySchemes.oauth2.flows.clientCredentials;
    expect(flow.tokenUrl).to.equal('/api/v1/oauth/token');
    expect(Object.keys(flow.scopes)).to.have.members(['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage', 'ingest.write']);
  });

  it('describes every operation of the spec', () => {
    const described = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    for (const expected of [
      'POST /api/v1/oauth/token',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/residents',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/residents/{resident_id}',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/coverage',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/coverage/{coverage_id}',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/clinical/Observation',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/clinical/Observation/{resource_id}',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/clinical/AllergyIntolerance',
      'GET /api/v1/ofctx/{org_id}/{facility_id}/clinical/AllergyIntolerance/{resource_id}',
      'POST /api/v1/ofctx/{org_id}/webhooks',
      'GET /api/v1/ofctx/{org_id}/webhooks',
      'GET /api/v1/ofctx/{org_id}/webhooks/event-types',
      'DELETE /api/v1/ofctx/{org_id}/webhooks/{id}',
      'POST /api/v1/ofctx/{org_id}/webhooks/{id}/test',
    ]) {
      expect(described).to.include(expected);
    }
  });

  for (const { path, method, op } of operations) {
    describe(`${method.toUpperCase()} ${path}`, () => {
      it('has an operationId, summary, description and tags', () => {
        expect(op.operationId).to.be.a('string');
        expect(op.summary).to.be.a('string');
        expect(op.description).to.be.a('string');
        expect(op.tags).to.be.an('array').that.is.not.empty;
      });

      it('declares its security: an oauth2 scope for every API operation but the token endpoint (one scope per alternative)', () => {
        expect(op, 'explicit security').to.have.property('security');
        if (path.startsWith('/api/v1/ofctx/')) {
          const requirements = op.security as AnyRecord[];
          expect(requirements, 'security requirements').to.not.be.empty;
          for (const requirement of requirements) expect(requirement.oauth2, 'oauth2 scopes of each alternative').to.have.lengthOf(1);
        }
      });

      it('declares at least one 4xx answer', () => {
        expect(Object.keys(op.responses).some((s) => /^4\d\d$/.test(s))).to.equal(true);
      });

      it('gives an example for its success answer', () => {
        const success = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s));
        if (success === undefined) {
          // A console form: POST, then 303 to the page it came from (no body to give an example of).
          expect(op.responses['303'], 'a 2xx, or a console form\'s 303').to.exist;
          expect(resolve(op.responses['303']).headers.Location, 'the 303\'s Location').to.exist;
          return;
        }
        const content = Object.values(resolve(op.responses[success]).content as AnyRecord)[0] as AnyRecord;
        expect(content.example ?? content.examples, `example of ${success}`).to.exist;
      });

      it('types every path parameter that is an id as a uuid, and a FHIR resource id as any FHIR id', () => {
        const params = [...(document.paths[path].parameters ?? []), ...(op.parameters ?? [])].map(resolve);
        // (A Bulk Data file is named by its type, `Patient.ndjson`: a name, not an id.)
        for (const param of params.filter((p) => p.in === 'path' && (p.name === 'id' || p.name.endsWith('_id')))) {
          // FHIR: a read of an id the server does not hold is a 404, whatever its form (ours are UUIDs).
          if (path.startsWith('/api/v1/fhir/R4/') && param.name === 'id') expect(param.schema.pattern, param.name).to.equal('^[A-Za-z0-9\\-.]{1,64}$');
          else expect(param.schema.format, param.name).to.equal('uuid');
        }
      });

      if (path.startsWith('/api/v1/ofctx/')) {
        it('answers 401 and 403 with the error envelope', () => {
          for (const status of ['401', '403']) {
            expect(resolve(op.responses[status]).content['application/json'].schema.$ref).to.equal('#/components/schemas/ErrorEnvelope');
          }
        });
      }
    });
  }

  it('bounds page and page_size as the spec says', () => {
    const { Page, PageSize } = document.components.parameters;
    expect(Page.schema).to.include({ minimum: 1, default: 1 });
    expect(PageSize.schema).to.include({ minimum: 1, maximum: 200, default: 50 });
  });

  it('describes a delivery for every event type of the spec and those added beside them, with the signature header', () => {
    const eventTypes = document.components.schemas.EventType.enum as string[];
    expect(eventTypes).to.have.members([
      'resident.admitted', 'resident.discharged', 'resident.transferred', 'resident.merged',
      'coverage.updated', 'clinical.condition.created', 'clinical.order.created',
      // Beside the spec's: a lab report (issue 41).
      'clinical.result.created',
    ]);
    for (const type of eventTypes) {
      const post = document.webhooks[type].post;
      const headers = post.parameters.map(resolve).map((p: AnyRecord) => p.name);
      expect(headers).to.include.members(['X-Service-Signature', 'X-Service-Delivery-Id']);
    }
  });
});
