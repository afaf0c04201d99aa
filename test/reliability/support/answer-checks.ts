// What every answer of the service must be, whatever was asked: never a 5xx; valid against
// the contract for the operation the service routed the request to (or the error envelope
// when it routed to none); every error in the error envelope (the RFC 6749 body at the token
// endpoint, a FHIR OperationOutcome at the ingest endpoint) with the challenge headers its
// status calls for.
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { assertMatchesContract, ContractViolation } from '../../support/contract.js';
import { openApiDocumentCopy } from '../../../server/src/openapi/openapi-document.js';
import { compiledOperationMatcher } from '../../../server/src/openapi/operation-matcher.js';
import type { RawRequest, RawResponse } from './raw-http.js';

export const TOKEN_OPERATION = 'createToken';
/** The FHIR write endpoint answers its errors as OperationOutcome, not the envelope. */
export const INGEST_OPERATION = 'ingestFhir';

/** The path part of a request target, as Koa and openapi-backend see it (no normalization). */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/**
 * assertMatchesContract parses its URL with WHATWG rules, which resolve `..` and `%2e%2e`;
 * the service does not. So the operation is found on the raw path, exactly as the service
 * routes, and the answer is checked against a stable path of that same operation.
 */
export async function routedOperation(method: string, target: string): Promise<Operation | undefined> {
  return (await router()).matchOperation({ method: method.toLowerCase(), path: pathOf(target), headers: {}, query: {} });
}

// The same router the service builds (openapi-backend over the contract), with its operation
// list built once: matching thousands of fuzzed paths otherwise costs more than serving them.
let routing: Promise<OpenAPIBackend['router']> | undefined;
function router(): Promise<OpenAPIBackend['router']> {
  routing ??= (async () => {
    const api = new OpenAPIBackend({ definition: openApiDocumentCopy(), quick: true, strict: false, validate: false });
    await api.init();
    const operations = api.router.getOperations();
    api.router.getOperations = () => operations;
    // ...and its matching compiled once too (the library compiles a RegExp per operation per
    // match); the service's matcher keeps the library's rules (operation-matcher.test.ts).
    api.router.matchOperation = compiledOperationMatcher(api.router) as typeof api.router.matchOperation;
    return api.router;
  })();
  return routing;
}

/** The FHIR R4 view's base: its operations (x-ofctx-error-format) and unrouted paths under it answer OperationOutcome. */
const FHIR_BASE_PREFIX = '/api/v1/fhir/R4/';

async function stablePathOf(method: string, target: string): Promise<{ path: string; operationId: string | undefined; fhirErrors: boolean; htmlErrors: boolean }> {
  const operation = await routedOperation(method, target);
  // The operators' console answers its errors as HTML pages, whatever the path (x-ofctx-error-format: html).
  const console = pathOf(target) === '/console' || pathOf(target).startsWith('/console/');
  if (!operation) {
    const unrouted = pathOf(target).startsWith(FHIR_BASE_PREFIX) ? FHIR_BASE_PREFIX : console ? '/console/__no_operation_here__' : '/__no_operation_here__';
    return { path: unrouted, operationId: undefined, fhirErrors: pathOf(target).startsWith(FHIR_BASE_PREFIX), htmlErrors: console };
  }
  const path = operation.path.replace(/\{[^}]+\}/g, 'x');
  const again = await routedOperation(method, path);
  if (again?.operationId !== operation.operationId) throw new Error(`no stable path for ${operation.operationId}`);
  const format = (operation as Record<string, unknown>)['x-ofctx-error-format'];
  return { path, operationId: operation.operationId, fhirErrors: format === 'operation-outcome', htmlErrors: format === 'html' };
}

/** Every way the answer breaks a promise; empty when it keeps them all. */
export async function answerFailures(req: RawRequest, res: RawResponse): Promise<string[]> {
  const failures: string[] = [];
  const method = req.method.toUpperCase();
  if (res.status >= 500) failures.push(`5xx: ${res.status} ${res.text.slice(0, 300)}`);
  const requestId = res.headers.get('x-request-id');
  if (!requestId) failures.push('no X-Request-Id header');
  const { path, operationId, fhirErrors, htmlErrors } = await stablePathOf(method, req.target);

  if (method === 'HEAD') {
    // No body on HEAD; what would have been the body is described by the headers only.
    if (res.text !== '') failures.push(`HEAD answered with a body: ${res.text.slice(0, 200)}`);
    return failures;
  }
  try {
    await assertMatchesContract(method, path, res.status, res.headers, res.body);
  } catch (error) {
    if (!(error instanceof ContractViolation)) throw error;
    failures.push(`contract: ${error.message.slice(0, 1500)}`);
  }
  if (res.status >= 400) {
    const body = res.body as Record<string, any> | undefined;
    if (htmlErrors) {
      // A page for a person: no envelope, and no Bearer challenge (the console signs in by link and cookie).
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) failures.push(`console error is not an HTML page: ${res.text.slice(0, 300)}`);
    } else if (operationId === TOKEN_OPERATION) {
      if (!body || typeof body.error !== 'string' || 'data' in body) failures.push(`token error is not the RFC 6749 body: ${res.text.slice(0, 300)}`);
      if (res.headers.get('cache-control') !== 'no-store') failures.push('token error without Cache-Control: no-store');
    } else if ((operationId === INGEST_OPERATION && method === 'POST') || fhirErrors) {
      if (!body || body.resourceType !== 'OperationOutcome' || !Array.isArray(body.issue) || body.issue.length === 0) {
        failures.push(`FHIR error is not an OperationOutcome: ${res.text.slice(0, 300)}`);
      }
    } else {
      if (!body || body.data !== null || body.meta !== null || typeof body.error?.code !== 'string') {
        failures.push(`error is not the envelope: ${res.text.slice(0, 300)}`);
      } else if (body.error.request_id !== requestId) {
        failures.push(`error.request_id ${body.error.request_id} is not the X-Request-Id ${requestId}`);
      }
    }
    if (res.status === 401 && operationId !== TOKEN_OPERATION && !htmlErrors && !/^Bearer realm="ofctx"/.test(res.headers.get('www-authenticate') ?? '')) {
      failures.push('401 without a Bearer challenge');
    }
    if (res.status === 405 && !res.headers.get('allow')) failures.push('405 without Allow');
    if (res.status === 429 && !/^[1-9][0-9]*$/.test(res.headers.get('retry-after') ?? '')) failures.push('429 without a Retry-After in seconds');
  }
  return failures;
}
