// The operations of openapi/openapi.yaml, read from the document itself, and the valid request
// of each against a tenant holding a record of every kind (test/support/records-of-every-kind.ts):
// its credential (a partner's token, the system of record's for ingestion, the console's
// session), its path naming real records, its headers and a valid body. Tests that walk every
// operation start from it: hostile inputs (server/test/openapi/hostile-requests/),
// foreign credentials (server/test/tenancy/every-operation-tenancy.test.ts).
import { openApiDocumentCopy } from '../../server/src/openapi/openapi-document.js';
import type { RecordsOfEveryKind } from './records-of-every-kind.js';
import { bundle } from './ingest.js';
import { patient } from './fhir-resources.js';
import { interchange271 } from './x12.js';
import { call, type TestResponse } from './http.js';

export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  $ref?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: Schema;
  $ref?: string;
}
export interface OperationObject {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> } & { $ref?: string };
}
interface Document {
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, OperationObject> & { parameters?: Parameter[] }>;
  components: { parameters: Record<string, Parameter>; schemas: Record<string, Schema>; requestBodies?: Record<string, OperationObject['requestBody']> };
}

const document = openApiDocumentCopy() as unknown as Document;

/** A $ref of the document followed to what it names. */
export function resolve<T extends { $ref?: string }>(value: T): T {
  let current: { $ref?: string } = value;
  while (current.$ref) {
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(current.$ref)!;
    current = (document.components as unknown as Record<string, Record<string, { $ref?: string }>>)[section!]![name!]!;
  }
  return current as T;
}

export interface ContractOperation {
  method: string;
  /** The path as the contract writes it (`/api/v1/ofctx/{org_id}/...`). */
  template: string;
  operation: OperationObject;
  /** Its parameters, the path item's with its own, resolved. */
  parameters: Parameter[];
}

/**
 * Every operation, reads first and deletions last (so the records the others name are still
 * there), and signing out of the console after every other console operation.
 */
export function contractOperations(): ContractOperation[] {
  const operations = (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) =>
    Object.entries(document.paths).flatMap(([template, item]) => {
      const operation = item[method];
      if (!operation) return [];
      return [{ method: method.toUpperCase(), template, operation, parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve) }];
    }),
  );
  const last = (o: ContractOperation) => o.operation.operationId === 'consoleSignOut';
  return [...operations.filter((o) => !last(o)), ...operations.filter(last)];
}

export function bodyTypesOf(operation: OperationObject): string[] {
  if (!operation.requestBody) return [];
  return Object.keys(resolve(operation.requestBody).content);
}

/** The operation's security requirements: its own, or the document's. */
export const securityOf = (operation: OperationObject): Array<Record<string, string[]>> => operation.security ?? document.security ?? [];

/** Whether the operation is for a facility's system of record (ingest.write), not a partner. */
export const isIngestOperation = (operation: OperationObject) => JSON.stringify(securityOf(operation)).includes('ingest.write');

export interface ValidRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** In the operation's first media type. */
  body?: string;
}

/** The operation's valid request, as the tenant's own credential sends it. */
export function validRequestOf(op: ContractOperation, every: RecordsOfEveryKind): ValidRequest {
  const isConsole = op.template.startsWith('/console');
  const credentials: Record<string, string> = isConsole ? { cookie: every.consoleCookie, accept: 'text/html' } : { authorization: `Bearer ${isIngestOperation(op.operation) ? every.ingestToken : every.t.fullToken}` };
  // A Bulk Data kick-off asks for the asynchronous pattern.
  const prefer: Record<string, string> = op.operation.operationId.startsWith('kickOff') ? { prefer: 'respond-async' } : {};
  const type = bodyTypesOf(op.operation)[0];
  if (type === undefined) return { method: op.method, path: every.concrete(op.template), headers: { ...credentials, ...prefer } };
  return { method: op.method, path: every.concrete(op.template), headers: { ...credentials, ...prefer, 'content-type': type }, body: validBodyOf(op.operation, type, every) };
}

/** A valid body of the operation in `type` (`{}` or empty where it takes no particular one). */
export function validBodyOf(operation: OperationObject, type: string, every: RecordsOfEveryKind): string {
  return validBodies(every)[operation.operationId]?.[type] ?? (type.includes('json') ? '{}' : '');
}

/** A valid body of each operation that takes one, by media type. */
function validBodies(every: RecordsOfEveryKind): Record<string, Record<string, string>> {
  const { t, ids, csrfToken } = every;
  const json = (value: unknown) => JSON.stringify(value);
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const subscription = {
    resourceType: 'Subscription',
    status: 'requested',
    reason: 'hostile requests',
    criteria: 'https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted',
    channel: { type: 'rest-hook', endpoint: 'http://127.0.0.1:9/fhir-hooks', payload: 'application/fhir+json', header: ['Authorization: Bearer x'] },
  };
  const exportParameters = json({ resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Patient' }, { name: '_since', valueInstant: '2026-01-01T00:00:00Z' }] });
  const search = form({ _count: '2', _id: ids.residents! });
  const admission = bundle('transaction', [{ resource: patient('HOSTILE-MRN', { name: [{ family: 'Okafor', given: ['Ada'] }], birthDate: '1941-03-17' }), fullUrl: 'urn:uuid:9d6c3a52-7d1e-4d7a-9a57-55d0b3f1e001' }]);
  return {
    consoleSignOut: { 'application/x-www-form-urlencoded': form({ csrf_token: csrfToken }) },
    consoleReprocessMessages: { 'application/x-www-form-urlencoded': form({ csrf_token: csrfToken, message_id: ids.message! }) },
    consoleRedeliver: { 'application/x-www-form-urlencoded': form({ csrf_token: csrfToken }) },
    consoleRecoverDeliveries: { 'application/x-www-form-urlencoded': form({ csrf_token: csrfToken, since: '2026-01-01T00:00' }) },
    consoleEnableSubscription: { 'application/x-www-form-urlencoded': form({ csrf_token: csrfToken }) },
    createToken: { 'application/x-www-form-urlencoded': form({ grant_type: 'client_credentials', client_id: t.full.client_id, client_secret: t.full.client_secret, scope: 'residents.read' }) },
    createFhirSubscription: { 'application/fhir+json': json(subscription) },
    updateFhirSubscription: { 'application/fhir+json': json({ ...subscription, id: ids.fhirSubscription }) },
    ...Object.fromEntries(['Patient', 'Coverage', 'Observation', 'AllergyIntolerance', 'Condition', 'ServiceRequest', 'DiagnosticReport', 'MedicationRequest', 'CoverageEligibilityResponse'].map((type) => [`searchFhir${type}ByPost`, { 'application/x-www-form-urlencoded': search }])),
    ...Object.fromEntries(['', 'Patient', 'Group'].map((level) => [`kickOffFhir${level}ExportByPost`, { 'application/fhir+json': exportParameters, 'application/json': exportParameters }])),
    ingestFhir: { 'application/fhir+json': json(admission), 'application/fhir+ndjson': `${json(patient('HOSTILE-NDJSON'))}\n` },
    ingestX12: { 'application/edi-x12': interchange271([{ trace: ids.coverage!, memberId: 'M', eligibility: ['1'] }]) },
    registerWebhook: { 'application/json': json({ callback_url: 'http://127.0.0.1:9/hostile', event_types: ['resident.admitted', 'coverage.updated'], description: 'hostile' }) },
    testWebhook: { 'application/json': json({ event_type: 'resident.admitted' }) },
    recoverWebhookDeliveries: { 'application/json': json({ since: '2026-11-22T09:00:00Z' }) },
    consoleSignIn: { 'application/x-www-form-urlencoded': form({ token: 'not-a-link' }) },
  };
}


/** Sends a request as it is, redirects not followed; the answer is checked against the contract. */
export const sendRequest = (baseUrl: string, request: ValidRequest): Promise<TestResponse> =>
  call(baseUrl, request.method, request.path, { headers: request.headers, ...(request.body === undefined ? {} : { rawBody: request.body }), redirect: 'manual' });

/** An answer's body as text (an HTML page, or JSON). */
export const textOf = (answer: TestResponse): string => (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? ''));

/** Which of `ids` the text (an answer's) names that its request did not. */
export const namedBeyond = (text: string, request: ValidRequest, ids: string[]): string[] =>
  ids.filter((id) => text.includes(id) && !request.path.includes(id) && !(request.body ?? '').includes(id));
