// Checks every HTTP answer a test receives against openapi/openapi.yaml: the status must be
// one the operation declares, and the body (and declared headers) must match its schema.
// Answers to paths or methods the contract does not have must be the error envelope.
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ajv2020 } from '../../server/src/openapi/ajv-2020.js';
import { loadOpenApiDocument, openApiDocumentCopy } from '../../server/src/openapi/openapi-document.js';
import { compiledOperationMatcher } from '../../server/src/openapi/operation-matcher.js';

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

let backend: OpenAPIBackend | undefined;
let envelopeValidator: ((body: unknown) => boolean) & { errors?: unknown } | undefined;
let outcomeValidator: ((body: unknown) => boolean) & { errors?: unknown } | undefined;
/** Requests under the FHIR R4 base that match no operation are answered as OperationOutcome. */
const FHIR_BASE_PREFIX = '/api/v1/fhir/R4/';
/** ...and those under the operators' console as an HTML page. */
const CONSOLE_PREFIX = '/console';
let documentAjv: Ajv2020 | undefined;

async function contract(): Promise<OpenAPIBackend> {
  if (!backend) {
    backend = new OpenAPIBackend({ definition: openApiDocumentCopy(), quick: true, strict: false, customizeAjv: ajv2020 as never });
    await backend.init();
    // The operation list, built once: the library flattens the document again at every match,
    // and compiles a RegExp per operation per match; the service's compiled matcher keeps the
    // library's rules (server/test/openapi/operation-matcher.test.ts holds it to them).
    const operations = backend.router.getOperations();
    backend.router.getOperations = () => operations;
    backend.router.matchOperation = compiledOperationMatcher(backend.router) as typeof backend.router.matchOperation;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    envelopeValidator = ajv.compile(backend.definition.components!.schemas!.ErrorEnvelope as object);
    outcomeValidator = ajv.compile(backend.definition.components!.schemas!.OperationOutcome as object);
    // Bodies of other media types (application/fhir+json...) are checked against their own
    // schema, with $refs resolved in the document.
    documentAjv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(documentAjv);
    documentAjv.addSchema(openApiDocumentCopy() as object, 'openapi.json');
  }
  return backend;
}

export async function operationOf(method: string, path: string): Promise<Operation | undefined> {
  const api = await contract();
  return api.router.matchOperation({ method: method.toLowerCase(), path, headers: {}, query: {} });
}

/** Throws ContractViolation when the answer does not match the contract. */
export async function assertMatchesContract(
  method: string,
  url: string,
  status: number,
  headers: Headers,
  body: unknown,
): Promise<void> {
  const api = await contract();
  const path = new URL(url, 'http://localhost').pathname;
  const where = `${method.toUpperCase()} ${path} -> ${status}`;
  const operation = await operationOf(method, path);
  if (!operation) {
    if (path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`)) {
      if (typeof body !== 'string' || !(headers.get('content-type') ?? '').startsWith('text/html')) throw new ContractViolation(`${where}: not an operation of the contract, and the answer is not an HTML page`);
      return;
    }
    if (path.startsWith(FHIR_BASE_PREFIX)) {
      if (!outcomeValidator!(body)) throw new ContractViolation(`${where}: not an operation of the contract, and the body is not an OperationOutcome: ${JSON.stringify(outcomeValidator!.errors)}`);
      return;
    }
    if (!envelopeValidator!(body)) {
      throw new ContractViolation(`${where}: not an operation of the contract, and the body is not the error envelope: ${JSON.stringify(envelopeValidator!.errors)}`);
    }
    return;
  }
  const declared = Object.keys(operation.responses ?? {});
  if (!declared.includes(String(status)) && !declared.includes('default')) {
    throw new ContractViolation(`${where}: ${operation.operationId} does not declare status ${status} (declares ${declared.join(', ')})`);
  }
  const response = (operation.responses as Record<string, { content?: Record<string, unknown> }>)[String(status)];
  if (response?.content) {
    const type = headers.get('content-type') ?? '';
    if (!Object.keys(response.content).some((t) => type.startsWith(t))) {
      throw new ContractViolation(`${where}: content-type "${type}" is not one of ${Object.keys(response.content).join(', ')}`);
    }
  }
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  const media = response?.content?.[type] as { schema?: unknown } | undefined;
  if (type !== 'application/json' && media?.schema) {
    const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
    // The document as parsed (read only here; a copy per answer cost more than the check).
    const raw = (loadOpenApiDocument().document as unknown as { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>> }).paths[operation.path]![operation.method]!.responses[String(status)]!;
    const at = raw.$ref ? raw.$ref : `#/paths/${escape(operation.path)}/${operation.method}/responses/${status}`;
    const validate = documentAjv!.getSchema(`openapi.json${at}/content/${escape(type)}/schema`)!;
    if (!validate(body)) {
      throw new ContractViolation(`${where}: ${type} body does not match ${operation.operationId}: ${JSON.stringify(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
    }
  } else {
    const result = api.validator.validateResponse(body, operation, status);
    if (result.errors?.length) {
      throw new ContractViolation(`${where}: body does not match ${operation.operationId}: ${JSON.stringify(result.errors)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
    }
  }
  const headerObject: Record<string, string> = {};
  headers.forEach((value, name) => (headerObject[name] = value));
  // Declared headers are optional in OpenAPI unless marked required; their values must match.
  const headerResult = api.validator.validateResponseHeaders(headerObject, operation, { statusCode: status, setMatchType: 'any' as never });
  if (headerResult.errors?.length) {
    throw new ContractViolation(`${where}: headers do not match ${operation.operationId}: ${JSON.stringify(headerResult.errors)}`);
  }
  if (!headers.get('x-request-id')) throw new ContractViolation(`${where}: no X-Request-Id header`);
}

/**
 * A fetch that checks every answer against the contract before handing it back. Pass it to
 * the SDK (`fetch: contractCheckingFetch`) so SDK tests cannot drift from the contract either.
 */
export const contractCheckingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await globalThis.fetch(request);
  const text = await response.clone().text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the contract check reports it
  }
  await assertMatchesContract(request.method, request.url, response.status, response.headers, body);
  return response;
};

/** Throws ContractViolation when a webhook delivery body is not the contract's EventDelivery. */
export async function assertDeliveryMatchesContract(body: unknown): Promise<void> {
  await contract();
  const validate = documentAjv!.getSchema('openapi.json#/components/schemas/EventDelivery')!;
  if (!validate(body)) throw new ContractViolation(`delivery body does not match EventDelivery: ${JSON.stringify(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
}
