// Bad input gets a clear error, never a 500: every operation of the contract, read from the
// document itself, is sent a valid request (the right credential, real records in its path, a
// valid body), then that request with one thing made hostile at a time: each path parameter,
// each query parameter, each header, and each value of its body (wrong types, values out of
// range, unknown enum values, overlong and empty strings, NUL and other control characters,
// malformed JSON, forms and X12, FHIR search syntax gone wrong). Every answer must be one the
// operation declares (the contract check of `call`) and none may be a 5xx; a 5xx is reported
// with what the service logged of it. The same values every run, in every `npm test`, where
// the reliability suite's contract fuzzer (test/reliability/) draws random requests.
//
// The operations fall into four groups, each walked by a file of its own under
// server/test/openapi/hostile-requests/ against a service of its own, so the parallel test
// runner walks them at once: one file of every operation was the suite's longest by far.
// HOSTILE_ONLY=createToken,ingestX12 runs the named operations only.
import { expect } from 'chai';
import type { TestResponse } from './http.js';
import { startTestService, type TestService } from './service.js';
import { seedRecordsOfEveryKind, type RecordsOfEveryKind } from './records-of-every-kind.js';
import { bodyTypesOf, contractOperations, resolve, sendRequest, validBodyOf, validRequestOf, type ContractOperation } from './contract-operations.js';

/** Strings no well-behaved client sends, whatever the parameter. */
const HOSTILE_STRINGS = [
  '',
  '%00',
  'a%00b',
  '%01%02%1F',
  '%E2%80%AE',
  '%F0%9F%92%A9',
  '%C3%28',
  'a'.repeat(5_000),
  '-1',
  '0',
  '1e400',
  '9'.repeat(40),
  '1.5',
  'NaN',
  'true',
  'null',
  '%5B%5D',
  '%7B%7D',
  "'%3B drop table residents%3B --",
  '%25',
  '_',
  '%5C',
  '*',
  '..%2F..%2Fetc%2Fpasswd',
  '%3Cscript%3E',
  '2026-02-30',
  '2026-13-01T25:61:61Z',
  'gt',
  'ge2026-01-01T00:00:00+25:00',
  'eq-0001',
  '00000000-0000-0000-0000-000000000000',
  'x,y,,z',
  '%7C',
  'a%7Cb%7Cc',
  'http://loinc.org%7C',
];

/** FHIR search syntax gone wrong: names with modifiers, chains, reverse chains and results parameters. */
const HOSTILE_FHIR_NAMES = [
  'name:exact',
  'name:missing',
  'family:contains',
  'code:text',
  'code:not',
  'identifier:of-type',
  'subject:Patient',
  'patient:Group',
  'patient.name',
  'patient:Patient.identifier',
  'subject.organization.name',
  '_has:Observation:patient:code',
  '_include',
  '_revinclude',
  '_include:iterate',
  '_sort',
  '_elements',
  '_summary',
  '_total',
  '_contained',
  '_count',
  '_id',
  '_lastUpdated',
  '_text',
  '_filter',
  'date',
  'birthdate',
  'status',
  'clinical-status',
  '_format',
  '_pretty',
];
const HOSTILE_FHIR_VALUES = ['', 'x', '-_lastUpdated,foo', '*', 'Observation:patient', 'Observation:*', 'ge', 'lt2026-13-01', 'ap2026', 'sa-1', '%00', 'a'.repeat(500), '|', 'a|b|c', '0', '-1', '100000', 'true', 'maybe'];

const HOSTILE_HEADERS: Record<string, string[]> = {
  'if-none-match': ['*', 'W/', '"', 'W/"' + 'a'.repeat(1_000) + '"', 'W/"1", W/"2", *'],
  'if-modified-since': ['yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT'],
  accept: ['text/html', 'application/fhir+xml', 'application/xml;q=1, */*;q=x', ''],
  prefer: ['respond-async', 'handling=strict', 'handling=lenient, respond-async', 'return=minimal', 'x=' + 'y'.repeat(300), ''],
  'content-type': ['text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'],
  'x-request-id': ['%00', 'a'.repeat(300), 'spaces are here', ''],
  authorization: ['Bearer', 'Bearer ' + 'a'.repeat(5_000), 'Basic Zm9vOmJhcg==', 'Bearer ofx_at_' + '0'.repeat(40), 'bearer  x'],
  // Over the 16 KiB the headers may take: 431 in the operation's own error format.
  'x-padding': ['a'.repeat(17_000)],
};

/** Bodies that are no document of any kind, in the operation's own content type. */
const HOSTILE_RAW_BODIES = ['', ' ', '{', '[', 'null', '0', '"s"', '[]', '{}', '[{}]', '{"a":"\\u0000"}', '{"resourceType":"Bundle","type":"batch","entry":"x"}', '['.repeat(20_000), '{"a":' + '1'.repeat(400) + '}', '\u0000', '\uFEFF{}', 'ISA*00*', 'MSH|^~\\&|', 'a=1&a=2&b', '%ZZ=1'];
/** Values each value of a valid JSON body is set to in turn. */
const HOSTILE_JSON_VALUES: unknown[] = [null, 0, -1, 1e308, 1.5, 'x', '', [], {}, true, 'a'.repeat(10_000), 'a\u0000b', '\u202E', [null], { resourceType: 'Patient' }];
/** Values each field of a valid form is set to in turn (as sent, before the form's encoding). */
const HOSTILE_FORM_VALUES = ['', '\u0000', 'a\u0000b', 'a'.repeat(5_000), '-1', '1e400', '\u202E', "'; drop table residents; --", '%', '*', '2026-02-30', 'x,y,,z', '|', 'a|b|c', 'null', '[]'];

interface Attempt {
  what: string;
  method: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  rawBody?: string;
}

/** Every path to a value inside a JSON document (keys and indexes), the document itself first. */
function valuePaths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const paths = [at];
  if (Array.isArray(value)) value.forEach((item, i) => paths.push(...valuePaths(item, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths.push(...valuePaths(item, [...at, key]));
  return paths;
}

/** `document` with the value at `path` replaced (or removed, given `undefined`). */
function withValue(document: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(document) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = value;
  return copy;
}

/** Bodies of `type` made from `valid`, one hostile change each. */
function hostileBodies(type: string, valid: string): Array<{ what: string; body: string }> {
  const bodies = HOSTILE_RAW_BODIES.map((raw) => ({ what: `raw ${JSON.stringify(raw.slice(0, 20))}`, body: raw }));
  if (type === 'application/fhir+ndjson') {
    for (const raw of HOSTILE_RAW_BODIES) bodies.push({ what: `a line ${JSON.stringify(raw.slice(0, 20))}`, body: `${valid}${raw}\n` });
    for (const { what, body } of hostileBodies('application/json', valid.trim())) bodies.push({ what, body: `${body.replace(/\n/g, ' ')}\n` });
  } else if (type.includes('json')) {
    const document = JSON.parse(valid) as unknown;
    for (const path of valuePaths(document)) {
      const where = path.join('.') || '(the document)';
      if (path.length > 0) bodies.push({ what: `${where} left out`, body: JSON.stringify(withValue(document, path, undefined)) });
      for (const value of HOSTILE_JSON_VALUES) bodies.push({ what: `${where}=${JSON.stringify(value).slice(0, 20)}`, body: JSON.stringify(withValue(document, path, value)) });
    }
  } else if (type === 'application/x-www-form-urlencoded') {
    const fields = [...new URLSearchParams(valid)];
    fields.forEach(([name], i) => {
      bodies.push({ what: `${name} left out`, body: new URLSearchParams(fields.filter((_, j) => j !== i)).toString() });
      bodies.push({ what: `${name} twice`, body: new URLSearchParams([...fields, fields[i]!]).toString() });
      for (const value of HOSTILE_FORM_VALUES) bodies.push({ what: `${name}=${JSON.stringify(value.slice(0, 20))}`, body: new URLSearchParams(fields.map(([n, v], j) => [n, j === i ? value : v])).toString() });
    });
  } else if (type === 'application/edi-x12') {
    const segments = valid.split('~\n').filter(Boolean);
    segments.forEach((segment, i) => {
      const tag = `${segment.split('*')[0]} (segment ${i + 1})`;
      const join = (list: string[]) => `${list.join('~\n')}~\n`;
      bodies.push({ what: `${tag} left out`, body: join(segments.filter((_, j) => j !== i)) });
      bodies.push({ what: `${tag} twice`, body: join([...segments.slice(0, i + 1), ...segments.slice(i)]) });
      bodies.push({ what: `cut inside ${tag}`, body: join(segments.slice(0, i)) + segment.slice(0, Math.ceil(segment.length / 2)) });
      const elements = segment.split('*');
      for (let e = 1; e < elements.length; e++) {
        for (const value of ['', 'Z'.repeat(300), '\u0000', '^', ':', '-1', '99999999999999999999']) {
          const changed = elements.map((element, k) => (k === e ? value : element)).join('*');
          bodies.push({ what: `${tag} element ${e}=${JSON.stringify(value.slice(0, 10))}`, body: join(segments.map((s, j) => (j === i ? changed : s))) });
        }
      }
    });
  }
  return bodies;
}

function attemptsFor(op: ContractOperation, every: RecordsOfEveryKind): Attempt[] {
  const { method, template, operation, parameters } = op;
  const valid = validRequestOf(op, every);
  const path = valid.path;
  const isConsole = template.startsWith('/console');
  const types = bodyTypesOf(operation);
  const attempts: Attempt[] = [];
  const add = (a: Omit<Attempt, 'method'>) => attempts.push({ method, ...a, headers: { ...valid.headers, ...a.headers }, rawBody: a.rawBody ?? valid.body });

  add({ what: 'the valid request', path });
  for (const p of parameters.filter((x) => x.in === 'path')) {
    const index = template.split('/').indexOf(`{${p.name}}`);
    for (const value of ['x', '00000000-0000-0000-0000-000000000000', 'a'.repeat(600), '%00', '%20', '..', '%E2%80%AE', '%C3%28', 'null', '-1', '%3B', '%7Bid%7D']) {
      const parts = path.split('/');
      parts[index] = value;
      add({ what: `path ${p.name}=${value.slice(0, 20)}`, path: parts.join('/') });
    }
  }
  for (const p of parameters.filter((x) => x.in === 'query')) {
    const schema = p.schema ? resolve(p.schema) : undefined;
    if (p.name === 'parameters' && schema?.type === 'object') {
      // Each name with a third of the values, the next third for the next name: every value is
      // sent under a third of the names on every search, at a third of the requests.
      HOSTILE_FHIR_NAMES.forEach((name, i) =>
        HOSTILE_FHIR_VALUES.forEach((value, j) => {
          if ((i + j) % 3 === 0) add({ what: `query ${name}=${value.slice(0, 20)}`, path, query: `${encodeURIComponent(name)}=${encodeURIComponent(value)}` });
        }),
      );
      continue;
    }
    const values = [...HOSTILE_STRINGS, ...(schema?.enum ? ['not-a-value'] : [])];
    for (const value of values) add({ what: `query ${p.name}=${value.slice(0, 20)}`, path, query: `${p.name}=${value}` });
    add({ what: `query ${p.name} twice`, path, query: `${p.name}=1&${p.name}=2` });
    add({ what: `query ${p.name}[]`, path, query: `${p.name}[]=1&${p.name}[a]=2` });
  }
  add({ what: 'an unknown query parameter', path, query: 'zzz=1&%00=%00' });
  for (const [name, values] of Object.entries(HOSTILE_HEADERS)) {
    if (isConsole && name === 'authorization') continue;
    for (const value of values) add({ what: `header ${name}: ${value.slice(0, 20)}`, path, headers: { [name]: value } });
  }
  for (const type of types) {
    for (const { what, body } of hostileBodies(type, validBodyOf(operation, type, every))) add({ what: `${type} body: ${what}`, path, headers: { 'content-type': type }, rawBody: body });
  }
  return attempts;
}

function send(baseUrl: string, attempt: Attempt): Promise<TestResponse> {
  const path = attempt.path + (attempt.query === undefined ? '' : `?${attempt.query}`);
  return sendRequest(baseUrl, { method: attempt.method, path, headers: attempt.headers ?? {}, body: attempt.method === 'GET' || attempt.method === 'DELETE' ? undefined : attempt.rawBody });
}


/** The walks the operations are split into: each operation belongs to exactly one. */
export const HOSTILE_GROUPS = ['reads', 'FHIR searches by GET', 'FHIR searches by POST', 'writes'] as const;
export type HostileGroup = (typeof HOSTILE_GROUPS)[number];

/**
 * The group an operation is walked in: the FHIR searches (most of the walk's requests, the
 * FHIR search syntax gone wrong) by their method, then every other read, then every write
 * (what a write changes stays in its own service; deletions still come last).
 */
export function hostileGroupOf(op: ContractOperation): HostileGroup {
  if (op.operation.operationId.startsWith('searchFhir')) return op.method === 'GET' ? 'FHIR searches by GET' : 'FHIR searches by POST';
  return op.method === 'GET' ? 'reads' : 'writes';
}

/** Walks the operations of `group` against a fresh service holding a record of every kind. */
export function describeHostileRequests(group: HostileGroup): void {
  describe(`hostile requests to every operation: the ${group}`, function () {
    this.timeout(600_000);
    let service: TestService;
    let every: RecordsOfEveryKind;

    before(async () => {
      service = await startTestService({ env: { CLIENT_QUOTA_RATE: '1000000', CLIENT_QUOTA_BURST: '1000000', TOKEN_RATE_LIMIT: '1000000', BULK_EXPORT_MAX_JOBS_PER_CLIENT: '1000' } });
      every = await seedRecordsOfEveryKind(service);
    });
    after(() => service?.close());

    /** What the service logged of the request that failed: its error's class, code and first frames. */
    function loggedError(answer: TestResponse): string {
      const requestId = answer.headers.get('x-request-id') ?? '';
      const line = service.logs().split('\n').find((l) => l.includes(requestId) && l.includes('"err"'));
      if (!line) return JSON.stringify(answer.body).slice(0, 300);
      const { err } = JSON.parse(line) as { err: { type: string; code?: string; frames: string[] } };
      return `${err.type}${err.code ? ` ${err.code}` : ''} ${err.frames.slice(0, 4).join(' ')}`;
    }

    const operations = contractOperations().filter((o) => hostileGroupOf(o) === group);

    for (const op of operations.filter((o) => !process.env.HOSTILE_ONLY || process.env.HOSTILE_ONLY.split(',').includes(o.operation.operationId))) {
      it(`${op.operation.operationId}: no 5xx, every answer in the contract`, async () => {
        const failures: string[] = [];
        const attempts = attemptsFor(op, every);
        for (const attempt of attempts) {
          try {
            const answer = await send(service.baseUrl, attempt);
            if (answer.status >= 500) failures.push(`${attempt.what}: ${answer.status} ${loggedError(answer)}`);
          } catch (error) {
            failures.push(`${attempt.what}: ${String(error).slice(0, 500)}`);
          }
        }
        expect(failures, failures.join('\n')).to.deep.equal([]);
      });
    }
  });
}
