// The compiled request validator must validate exactly like openapi-backend's own.
import { expect } from 'chai';
import { OpenAPIBackend, OpenAPIValidator, type Operation, type Request } from 'openapi-backend';
import { coercedRequestOf, compiledRequestValidator, type RequestValidator } from '../../src/openapi/request-validator.js';
import { compiledRequestParser } from '../../src/openapi/request-parser.js';
import { openApiDocumentCopy } from '../../src/openapi/openapi-document.js';
import { ajv2020 } from '../../src/openapi/ajv-2020.js';

describe('the compiled request validator', () => {
  let api: OpenAPIBackend;
  let compiled: RequestValidator;
  let library: RequestValidator;

  before(async () => {
    api = new OpenAPIBackend({ definition: openApiDocumentCopy(), quick: true, strict: false, validate: true, coerceTypes: true, customizeAjv: ajv2020 as never });
    await api.init();
    api.router.parseRequest = compiledRequestParser(api.router);
    library = OpenAPIValidator.prototype.validateRequest.bind(api.validator) as RequestValidator;
    compiled = compiledRequestValidator(api.validator);
  });

  const id = '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60';
  const pathOf = (operation: Operation, value: string) => operation.path.replace(/\{[^}]+\}/g, value);
  const headerSets: Record<string, string>[] = [
    { accept: 'application/json' },
    { 'content-type': 'application/json; charset=utf-8', 'if-none-match': 'W/"1"', prefer: 'respond-async' },
    { 'content-type': 'application/x-www-form-urlencoded', 'x-service-signature': 'zz' },
  ];
  const queries: Record<string, unknown>[] = [
    {},
    { page: '2', page_size: '50' },
    { page: '0', page_size: '500', resident_id: 'not-a-uuid' },
    { resident_id: id, _lastUpdated: 'gt2026-01-01', _type: 'Patient,Coverage', since: '2026-01-01T00:00:00Z' },
    { unknown: 'x', status: ['a', 'b'], event_types: 'resident.created' },
  ];
  const bodies: unknown[] = [undefined, { url: 'https://example.com/hook', event_types: ['resident.created'] }, { nope: 1 }, '{"a":', 'grant_type=client_credentials'];

  /** Everything the result says; coerced values included. */
  const shape = (value: unknown) => JSON.parse(JSON.stringify(value));

  it('agrees with openapi-backend on every operation, for valid and invalid requests', function () {
    // Pure CPU over every operation of the contract (tens of seconds on a loaded 2-core machine).
    this.timeout(120_000);
    let compared = 0;
    let invalid = 0;
    for (const operation of api.router.getOperations()) {
      for (const value of [id, 'x']) {
        for (const headers of headerSets) {
          for (const query of queries) {
            for (const body of bodies) {
              const req = (): Request => ({ method: operation.method.toUpperCase(), path: pathOf(operation, value), headers: { ...headers }, query: structuredClone(query) as Request['query'], body });
              const theirs = shape(library(req(), operation));
              expect(shape(compiled(req(), operation)), `${operation.operationId} ${JSON.stringify(query)} ${JSON.stringify(body)}`).to.deep.equal(theirs);
              expect(shape(compiled(req(), operation.operationId))).to.deep.equal(theirs);
              if (!theirs.valid) invalid++;
              compared++;
            }
          }
        }
      }
    }
    expect(compared).to.be.greaterThan(1000);
    expect(invalid).to.be.greaterThan(100);
  });

  it('routes a request given without its operation as the library does', () => {
    const req: Request = { method: 'GET', path: `/api/v1/ofctx/${id}/${id}/coverage`, headers: {}, query: { page_size: '2' } };
    expect(shape(compiled({ ...req }))).to.deep.equal(shape(library({ ...req })));
    expect(() => compiled({ ...req, path: '/nothing' })).to.throw('Unknown operation');
  });

  it('hands on, for a valid request, exactly what parsing its coerced request gives, on every operation it keeps one for', () => {
    let kept = 0;
    for (const operation of api.router.getOperations()) {
      for (const headers of headerSets) {
        for (const query of queries) {
          for (const body of bodies) {
            const req: Request = { method: operation.method.toUpperCase(), path: pathOf(operation, id), headers: { ...headers }, query: structuredClone(query) as Request['query'], body };
            const result = compiled(req, operation);
            const handed = coercedRequestOf(result);
            if (result.errors) {
              expect(handed).to.equal(undefined);
              continue;
            }
            if (!handed) continue;
            kept++;
            const reparsed = api.router.parseRequest(result.coerced, operation);
            expect(handed, `${operation.operationId} ${JSON.stringify(query)}`).to.deep.equal(reparsed);
            expect(Object.keys(handed)).to.deep.equal(Object.keys(reparsed));
          }
        }
      }
    }
    // Most operations: the lists and reads (string path and header parameters).
    expect(kept).to.be.greaterThan(100);
  });

  it('hands on the parse of the latest valid request only: an earlier result is parsed again, never given another request’s parse', () => {
    const path = `/api/v1/ofctx/${id}/${id}/coverage`;
    const first = compiled({ method: 'GET', path, headers: {}, query: { page_size: '2' } });
    expect(coercedRequestOf(first)?.query).to.deep.equal({ page_size: 2 });
    const second = compiled({ method: 'GET', path, headers: {}, query: { page_size: '3' } });
    expect(coercedRequestOf(second)?.query).to.deep.equal({ page_size: 3 });
    expect(coercedRequestOf(first)).to.equal(undefined);
    const invalid = compiled({ method: 'GET', path, headers: {}, query: { page_size: 'many' } });
    expect(invalid.errors).to.not.equal(null);
    expect(coercedRequestOf(invalid)).to.equal(undefined);
    expect(coercedRequestOf(second)).to.equal(undefined);
    // Handed once: nothing of a request stays referenced after its handler got it.
    const third = compiled({ method: 'GET', path, headers: { authorization: 'Bearer secret' }, query: {} });
    expect(coercedRequestOf(third)?.headers.authorization).to.equal('Bearer secret');
    expect(coercedRequestOf(third)).to.equal(undefined);
  });
});
