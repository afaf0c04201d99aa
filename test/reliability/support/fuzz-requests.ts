// Requests generated from openapi/openapi.yaml with fast-check: for every operation of the
// contract, its path with real, random, boundary and hostile parameter values; its query
// parameters at, inside and beyond their bounds, repeated, malformed or unknown; bodies valid,
// mistyped, incomplete, padded, nested, oversized, malformed or in the wrong content type;
// every kind of credential; odd methods; and paths the contract does not have.
import { METHODS } from 'node:http';
import fc from 'fast-check';
import { loadOpenApiDocument } from '../../../server/src/openapi/openapi-document.js';

export type TokenKind =
  | 'none' | 'garbage' | 'malformed' | 'expired' | 'revoked'
  | 'full' | 'wide' | 'otherOrg' | 'coverageOnly' | 'noWebhooks';

/** What a credential may touch; null when it must never be let in. */
export interface Grant {
  orgId: string;
  facilityIds: string[];
  scopes: string[];
}

export interface FuzzFixture {
  orgA: string;
  orgB: string;
  a1: string;
  a2: string;
  b1: string;
  /** Ids of each resource table, a few from each facility (a1, a2, b1). */
  ids: Record<'residents' | 'coverage' | 'observations' | 'allergies', string[]>;
  subscriptionIds: string[];
  /** Events of a1, a2 and b1, and deliveries of the subscriptions. */
  eventIds: string[];
  deliveryIds: string[];
  tokens: Record<Exclude<TokenKind, 'none' | 'garbage' | 'malformed'>, string>;
  grants: Partial<Record<TokenKind, Grant>>;
  client: { client_id: string; client_secret: string };
  revokedClient: { client_id: string; client_secret: string };
  /** A loopback URL where nothing listens: valid registrations point there. */
  deadCallback: string;
}

export interface FuzzRequest {
  /** A label for the distribution: the operation aimed at, or "odd path". */
  aim: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string;
  chunked: boolean;
  /** The credential sent, when it is one the service could accept. */
  token: TokenKind;
  /** The path parameters as the service decodes them (raw value when undecodable). */
  params: Record<string, string>;
}

interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: { type?: string; format?: string; minimum?: number; maximum?: number } }>;
  bodyTypes: string[];
  scopes: string[];
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function contractOperations(): ContractOperation[] {
  const doc = loadOpenApiDocument().document as any;
  const deref = (p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p);
  const ops: ContractOperation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        query: params.filter((p: any) => p.in === 'query').map((p: any) => ({ name: p.name, schema: p.schema })),
        bodyTypes: Object.keys(op.requestBody?.content ?? {}),
        scopes: (op.security ?? doc.security ?? []).flatMap((s: any) => s.oauth2 ?? []),
      });
    }
  }
  return ops;
}

const ODD_METHODS = METHODS.filter((m) => m !== 'CONNECT');
const EVENT_TYPES = ['resident.admitted', 'resident.discharged', 'resident.transferred', 'resident.merged', 'coverage.updated', 'clinical.condition.created', 'clinical.order.created'];
const SCOPES = ['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage'];

function decodeOr(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '?'));
  }
}

/** Hostile and boundary forms of an id, already as they go on the wire. */
function oddIdArb(realIds: string[]): fc.Arbitrary<string> {
  const real = fc.constantFrom(...realIds);
  return fc.oneof(
    fc.constantFrom(
      '', '.', '..', '%2e%2e', '%2E%2E%2F', '%2F', 'a%2Fb', '..%2F..%2Fetc%2Fpasswd', '%00', '%ZZ', '%', '%E0%A4%A', '%C0%AF',
      'null', 'undefined', '0', '-1', '*', '%20', '%09', 'true', '%5B%5D', '%7B%7D', '__proto__', 'constructor',
      '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
      '00000000-0000-4000-8000-000000000000', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '%27%20OR%20%271%27%3D%271', '1%3BDROP%20TABLE%20residents',
    ),
    real.map((id) => id.toUpperCase()),
    real.map((id) => `%7B${id}%7D`),
    real.map((id) => id.replace(/-/g, '')),
    real.map((id) => `${id}a`),
    real.map((id) => id.slice(1)),
    real.map((id) => `urn%3Auuid%3A${id}`),
    real.map((id) => `${id}%00`),
    real.map((id) => `${id}%20`),
    real.map((id) => `%20${id}`),
    real.map((id) => `${id}%2F..`),
    real.map((id) => encode(id).replace(/[0-9a-f]/, (c) => `%${c.charCodeAt(0).toString(16)}`)),
    fc.string({ unit: 'grapheme', maxLength: 40 }).map(encode),
    fc.string({ unit: 'binary', maxLength: 20 }).map(encode),
    fc.integer({ min: 300, max: 4000 }).map((n) => 'x'.repeat(n)),
    fc.integer({ min: 30, max: 400 }).map((n) => '%F0%9F%92%A9'.repeat(n)),
  );
}

function idArb(realIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 14, arbitrary: fc.constantFrom(...realIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: oddIdArb(realIds) },
  );
}

/** The value with the given probability, otherwise null. */
function sometimes<T>(probability: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  const scale = 1000;
  const yes = Math.round(probability * scale);
  return fc.oneof({ weight: yes, arbitrary: arb }, { weight: scale - yes, arbitrary: fc.constant(null) });
}

function integerQueryArb(schema: { minimum?: number; maximum?: number }): fc.Arbitrary<string> {
  const min = schema.minimum ?? 0;
  const max = schema.maximum ?? 1_000_000;
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min, max: Math.min(max, 50) }).map(String) },
    { weight: 2, arbitrary: fc.integer({ min, max }).map(String) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        String(min - 1), String(min), String(min + 1), String(max - 1), String(max), String(max + 1), String(max * 10),
        '0', '-1', '-0', '1.5', '1.0', '1e2', '1E1', '+1', '%201', '01', '0x10', '', 'abc', 'NaN', 'Infinity', '-Infinity',
        '99999999999999999999999', '9007199254740993', '%ZZ', '1%00', 'true', 'null', '%5B1%5D', '1,2', '%E2%91%A0',
      ),
    },
    { weight: 1, arbitrary: fc.double({ noNaN: false }).map((d) => encode(String(d))) },
  );
}

/** Values of the query parameters that are not integers: mostly plausible, some hostile. */
function queryValueArb(name: string, f: FuzzFixture): fc.Arbitrary<string> {
  const hostile = idArb(f.ids.residents);
  const plausible: Record<string, fc.Arbitrary<string>> = {
    types: fc.subarray([...EVENT_TYPES, 'resident.nope', ''], { minLength: 1 }).map((t) => encode(t.join(','))),
    status: fc.constantFrom('pending', 'delivered', 'failed', 'cancelled', 'sending', 'FAILED'),
    after: fc.constantFrom(...f.eventIds),
    facility_id: fc.constantFrom(f.a1, f.a2, f.b1),
  };
  const likely = plausible[name];
  return likely ? fc.oneof({ weight: 3, arbitrary: likely }, { weight: 1, arbitrary: hostile }) : hostile;
}

function queryArb(op: ContractOperation, f: FuzzFixture): fc.Arbitrary<Array<[string, string]>> {
  const declared = op.query.map((q) => {
    const value = q.schema.type === 'integer' ? integerQueryArb(q.schema) : queryValueArb(q.name, f);
    return sometimes(
      1 / 3,
      fc.oneof(
        { weight: 12, arbitrary: value.map((v): Array<[string, string]> => [[q.name, v]]) },
        { weight: 1, arbitrary: fc.tuple(value, value).map(([a, b]): Array<[string, string]> => [[q.name, a], [q.name, b]]) },
        { weight: 1, arbitrary: value.map((v): Array<[string, string]> => [[`${q.name}%5B%5D`, v]]) },
        { weight: 1, arbitrary: value.map((v): Array<[string, string]> => [[`${q.name}[a]`, v]]) },
      ),
    );
  });
  const unknown = sometimes(
    1 / 12,
    fc.tuple(
      fc.oneof(
        fc.constantFrom('foo', 'limit', 'offset', 'sort', 'fields', '__proto__', 'constructor', 'prototype', 'PAGE', 'Page_Size', 'page%20', 'resident_id%5B%5D', '_', '%ZZ', ''),
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).map(encode),
      ),
      fc.string({ unit: 'grapheme', maxLength: 20 }).map(encode),
    ).map(([k, v]): Array<[string, string]> => [[k, v]]),
  );
  return fc.tuple(fc.tuple(...declared), unknown).map(([parts, extra]) => [
    ...parts.flatMap((p) => p ?? []),
    ...(extra ?? []),
  ]);
}

interface BodyChoice {
  contentType?: string;
  body?: string;
  extraHeaders?: Record<string, string>;
}

function deepNest(depth: number, leaf: string): string {
  return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

const jsonContentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constant('application/json; charset=utf-8') },
  {
    weight: 4,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined, '', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml',
      'application/vnd.api+json', 'application/merge-patch+json', 'APPLICATION/JSON', 'application/json; charset=utf-16',
      'application/json; charset=latin1', 'application/json; charset=nonsense', 'application/jsonx', 'text/json', '*/*', 'application/*',
    ),
  },
);

function webhookRegistrationArb(f: FuzzFixture): fc.Arbitrary<unknown> {
  const url = fc.oneof(
    { weight: 6, arbitrary: fc.constant(f.deadCallback) },
    { weight: 2, arbitrary: fc.webPath().map((p) => `${f.deadCallback}${p}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '', 'not a url', 'javascript:alert(1)', 'ftp://127.0.0.1/x', 'file:///etc/passwd', 'http://user:pass@127.0.0.1:9/h', 'https://',
        'http://[::1]:99999/', 'http://127.0.0.1:9/' + 'p'.repeat(2100), 'gopher://127.0.0.1:9/', '//127.0.0.1:9/h', 'http:/127.0.0.1:9',
        'https://example.invalid/hook', 'http://127.0.0.1:9/\u0000', 'http://127.0.0.1:9/h#frag', 'data:text/plain,x',
      ),
    },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 })) },
  );
  const events = fc.oneof(
    { weight: 6, arbitrary: fc.subarray(EVENT_TYPES, { minLength: 1 }) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constant([]),
        fc.constant(['resident.admitted', 'resident.admitted']),
        fc.constant(Array.from({ length: 33 }, () => 'resident.admitted')),
        fc.array(fc.string({ maxLength: 30 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('resident.admitted', 42, null, { a: 1 }, [1, 2], [null], ['RESIDENT.ADMITTED'], ['resident.*']),
      ),
    },
  );
  const description = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(500), 'x'.repeat(501), null, 7, ['a'], { a: 1 }) },
  );
  return fc.record({ callback_url: url, event_types: events, description }, { requiredKeys: [] });
}

function recoverRequestArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => ({ since: d.toISOString() })) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(
        {}, { since: 'yesterday' }, { since: null }, { since: 0 }, { since: '2026-13-45T99:99:99Z' }, { since: '2026-11-22' }, { since: '2026-11-22T10:00:00Z', extra: 1 },
        { since: '+275760-09-13T00:00:00.000Z' }, { since: '0000-01-01T00:00:00Z' }, [], null,
      ),
    },
  );
}

function testRequestArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...EVENT_TYPES).map((event_type) => ({ event_type })) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(
        {}, { event_type: 'nope' }, { event_type: null }, { event_type: 1 }, { event_type: ['resident.admitted'] },
        { event_type: 'resident.admitted', extra: 1 }, { eventType: 'resident.admitted' }, [], 'resident.admitted', null,
      ),
    },
  );
}

/** JSON bodies: a value of the operation's schema, or a broken version of it. */
function jsonBodyArb(valid: fc.Arbitrary<unknown>): fc.Arbitrary<BodyChoice> {
  const shaped = fc.oneof(
    { weight: 10, arbitrary: valid.map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.tuple(valid, fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 })).map(([v, extra]) => JSON.stringify(typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, ...extra } : extra)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 5000 }).map((d) => deepNest(d, '1')) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 5000 }).map((d) => '['.repeat(d) + ']'.repeat(d)) },
    { weight: 1, arbitrary: fc.tuple(valid, fc.integer({ min: 66_000, max: 200_000 })).map(([v, n]) => JSON.stringify({ ...(v as object), description: 'x'.repeat(n) })) },
    { weight: 1, arbitrary: fc.integer({ min: 65_537, max: 140_000 }).map((n) => ' '.repeat(n) + '{}') },
    { weight: 2, arbitrary: fc.tuple(valid, fc.nat()).map(([v, cut]) => { const s = JSON.stringify(v) ?? ''; return s.slice(0, cut % Math.max(1, s.length)); }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '', '{', '}', '{"a":}', "{'a':1}", '{"a":1,}', 'null', 'true', '0', '"x"', '[]', 'undefined', 'NaN', '{"__proto__":{"polluted":1}}',
        '{"constructor":{"prototype":{"polluted":1}}}', '\uFEFF{}', '{"a":"\\ud800"}', '{"a":1}{"b":2}', '\u0000', '{"callback_url":1e999}',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  );
  return fc.record({ contentType: jsonContentType, body: shaped }).map((c) => ({
    ...c,
    extraHeaders: {},
  })).chain((c) =>
    fc.oneof(
      { weight: 19, arbitrary: fc.constant(c) },
      { weight: 1, arbitrary: fc.constantFrom<BodyChoice>({ ...c, extraHeaders: { 'content-encoding': 'gzip' } }, { ...c, extraHeaders: { 'content-encoding': 'identity' } }, { contentType: 'application/json', body: undefined }) },
    ),
  );
}

function tokenBodyArb(f: FuzzFixture): fc.Arbitrary<BodyChoice> {
  const known = fc.constantFrom(f.client, f.revokedClient);
  const clientId = fc.oneof(
    { weight: 4, arbitrary: known.map((c) => c.client_id) },
    { weight: 2, arbitrary: fc.constantFrom('ofx_ci_000000000000000000000000', '', 'x'.repeat(65), 'x'.repeat(5000), '%00', '\u00e9') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }) },
  );
  const secret = fc.oneof(
    { weight: 4, arbitrary: fc.constant(f.client.client_secret) },
    { weight: 2, arbitrary: fc.constantFrom(f.revokedClient.client_secret, `${f.client.client_secret}x`, '', 'guess', 'x'.repeat(10_000)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }) },
  );
  const grant = fc.oneof(
    { weight: 6, arbitrary: fc.constant('client_credentials') },
    { weight: 2, arbitrary: fc.constantFrom('password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS', '', 'client_credentials ', 'urn:ietf:params:oauth:grant-type:jwt-bearer') },
  );
  const scope = sometimes(
    1 / 2,
    fc.oneof(
      fc.subarray(SCOPES).map((s) => s.join(' ')),
      fc.constantFrom('admin', 'residents.read  coverage.read', ' residents.read', 'residents.read,coverage.read', 'webhooks.manage webhooks.manage', 'x'.repeat(3000)),
    ),
  );
  const fields = fc.record({ grant_type: sometimes(7 / 8, grant), client_id: sometimes(7 / 8, clientId), client_secret: sometimes(7 / 8, secret), scope });
  return fc.tuple(fields, fc.nat(9), fc.nat(19), fc.constantFrom(...[undefined, undefined, undefined, 'application/x-www-form-urlencoded; charset=utf-8', 'application/json', 'text/plain', 'multipart/form-data; boundary=x', 'APPLICATION/X-WWW-FORM-URLENCODED'])).map(([fl, basicRoll, oddRoll, odd]) => {
    const form = new URLSearchParams();
    const useBasic = basicRoll < 2 && fl.client_id != null && fl.client_secret != null;
    for (const [k, v] of Object.entries(fl)) {
      if (v == null) continue;
      if (useBasic && (k === 'client_id' || k === 'client_secret') && basicRoll === 0) continue;
      form.set(k, v);
    }
    const extraHeaders: Record<string, string> = {};
    if (useBasic) {
      extraHeaders.authorization = `Basic ${Buffer.from(`${encode(fl.client_id!)}:${encode(fl.client_secret!)}`).toString('base64')}`;
    }
    let body = form.toString();
    if (oddRoll === 0) body += `&grant_type=client_credentials`; // repeated parameter
    if (oddRoll === 1) body = '%ZZ=1&' + body;
    if (oddRoll === 2) body = 'a[b]=1&' + body;
    if (oddRoll === 3) body = `${body}&scope=${'s'.repeat(70_000)}`;
    if (oddRoll === 4) body = '';
    if (oddRoll === 5) body = JSON.stringify(Object.fromEntries(form));
    if (oddRoll === 6) extraHeaders.authorization = 'Basic !!!';
    if (oddRoll === 7) extraHeaders.authorization = `Basic ${Buffer.from('no-colon').toString('base64')}`;
    if (oddRoll === 8) extraHeaders.authorization = 'Bearer ofx_at_something';
    return { contentType: odd ?? 'application/x-www-form-urlencoded', body, extraHeaders };
  });
}

function bodyArb(op: ContractOperation, f: FuzzFixture): fc.Arbitrary<BodyChoice> {
  if (op.operationId === 'createToken') return tokenBodyArb(f);
  if (op.operationId === 'registerWebhook') return jsonBodyArb(webhookRegistrationArb(f));
  if (op.operationId === 'testWebhook') return jsonBodyArb(testRequestArb());
  if (op.operationId === 'recoverWebhookDeliveries') return jsonBodyArb(recoverRequestArb());
  // Operations without a body: mostly none, sometimes one anyway.
  return fc.oneof(
    { weight: 9, arbitrary: fc.constant<BodyChoice>({}) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v): BodyChoice => ({ contentType: 'application/json', body: JSON.stringify(v) })) },
  );
}

function tokenArb(f: FuzzFixture): fc.Arbitrary<{ kind: TokenKind; header?: string }> {
  const valid = fc.constantFrom<TokenKind>('full', 'full', 'full', 'full', 'full', 'wide', 'wide', 'otherOrg', 'coverageOnly', 'noWebhooks', 'expired', 'revoked');
  const spelled = fc.tuple(valid, fc.constantFrom('Bearer ', 'Bearer ', 'Bearer ', 'bearer ', 'BEARER ', 'Bearer   '), fc.constantFrom('', '', '', ' ')).map(
    ([kind, scheme, tail]) => ({ kind, header: `${scheme}${f.tokens[kind as keyof FuzzFixture['tokens']]}${tail}` }),
  );
  const garbage = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 200 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, 'a')}`),
    fc.base64String({ minLength: 4, maxLength: 100 }).map((s) => `Bearer ofx_at_${s}`),
    fc.integer({ min: 1000, max: 8000 }).map((n) => `Bearer ${'A'.repeat(n)}`),
  ).map((header) => ({ kind: 'garbage' as TokenKind, header }));
  const malformed = fc.oneof(
    fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Token abc', 'Bearer a b', 'Bearer ab$cd', 'Bearer "abc"', ' ', 'Digest x', 'Bearer=abc', 'Bearer\tabc'),
    valid.map((k) => f.tokens[k as keyof FuzzFixture['tokens']]), // no scheme
    valid.map((k) => `Bearer ${f.tokens[k as keyof FuzzFixture['tokens']]}x`),
    valid.map((k) => `Bearer ${f.tokens[k as keyof FuzzFixture['tokens']]!.toUpperCase()}`),
    valid.map((k) => `Bearer ${f.tokens[k as keyof FuzzFixture['tokens']]}, Bearer ${f.tokens.full}`),
    valid.map((k) => `Bearer ${f.tokens[k as keyof FuzzFixture['tokens']]!.slice(0, -1)}`),
  ).map((header) => ({ kind: 'malformed' as TokenKind, header }));
  return fc.oneof(
    { weight: 16, arbitrary: spelled },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as TokenKind }) },
    { weight: 1, arbitrary: garbage },
    { weight: 1, arbitrary: malformed },
  );
}

const headerArb = fc.record(
  {
    accept: fc.constantFrom('application/json', 'application/json', '*/*', 'text/html', 'application/xml', 'application/problem+json'),
    'x-request-id': fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/),
      fc.constantFrom('', 'x'.repeat(65), 'a b', '<script>', '../../etc', 'id;drop', '%00'),
    ),
    'x-forwarded-for': fc.constantFrom('10.0.0.1', '127.0.0.9, 10.0.0.1', 'garbage', '::1'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', '*'),
  },
  { requiredKeys: [] },
);

function build(
  aim: string,
  method: string,
  pathTemplate: string,
  params: Record<string, string>,
  query: Array<[string, string]>,
  token: { kind: TokenKind; header?: string },
  body: BodyChoice,
  headers: Record<string, string | undefined>,
  chunked: boolean,
  trailingSlash: boolean,
): FuzzRequest {
  let path = pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? '');
  if (trailingSlash) path += '/';
  const qs = query.map(([k, v]) => `${k}=${v}`).join('&');
  const all: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) all[k] = v;
  if (token.header !== undefined) all.authorization = token.header;
  if (body.contentType !== undefined && body.body !== undefined) all['content-type'] = body.contentType;
  Object.assign(all, body.extraHeaders ?? {});
  const decoded: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) decoded[k] = decodeOr(v);
  const authenticated = token.header !== undefined && all.authorization === token.header && !['garbage', 'malformed', 'none'].includes(token.kind);
  return {
    aim,
    method,
    target: qs ? `${path}?${qs}` : path,
    headers: all,
    ...(body.body !== undefined ? { body: body.body } : {}),
    chunked: chunked && body.body !== undefined,
    token: authenticated ? token.kind : token.header === undefined ? 'none' : 'malformed',
    params: decoded,
  };
}

function operationRequestArb(op: ContractOperation, f: FuzzFixture): fc.Arbitrary<FuzzRequest> {
  const realIds: Record<string, string[]> = {
    org_id: [f.orgA, f.orgA, f.orgA, f.orgB],
    facility_id: [f.a1, f.a1, f.a1, f.a2, f.b1],
    resident_id: f.ids.residents,
    coverage_id: f.ids.coverage,
    resource_id: op.path.includes('Observation') ? f.ids.observations : f.ids.allergies,
    id: f.subscriptionIds,
    event_id: f.eventIds,
    delivery_id: f.deliveryIds,
  };
  const params = fc.record(Object.fromEntries(op.pathParams.map((name) => [name, idArb(realIds[name] ?? [f.orgA])])));
  const method = fc.oneof({ weight: 12, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) });
  return fc
    .tuple(method, params, queryArb(op, f), tokenArb(f), bodyArb(op, f), headerArb, fc.nat(19), fc.nat(29))
    .map(([m, p, q, t, b, h, chunkRoll, slashRoll]) =>
      build(op.operationId, m, op.path, p, q, t, m === 'GET' || m === 'HEAD' ? (chunkRoll === 0 ? b : {}) : b, h, chunkRoll === 1, slashRoll === 0),
    );
}

function oddPathArb(f: FuzzFixture): fc.Arbitrary<FuzzRequest> {
  const literal = fc.constantFrom(
    '/', '/api', '/api/', '/api/v1', '/api/v1/', '/api/v2/oauth/token', '/API/V1/OAUTH/TOKEN', '/api/v1/ofctx', `/api/v1/ofctx/${f.orgA}`,
    `/api/v1/ofctx/${f.orgA}/${f.a1}`, `/api/v1/ofctx/${f.orgA}/${f.a1}/clinical`, `/api/v1/ofctx/${f.orgA}/${f.a1}/clinical/Condition`,
    `/api/v1/ofctx/${f.orgA}/${f.a1}/residents/${f.ids.residents[0]}/coverage`, `/api/v1/ofctx/${f.orgA}/${f.a1}/../${f.a2}/residents`,
    `/api/v1/ofctx/${f.orgA}/${f.a1}/residents/..`, `/api/v1/ofctx/${f.orgA}/webhooks/event-types/x`, `/api/v1/ofctx/${f.orgA}/webhooks/%2e%2e/event-types`,
    '/api/v1/oauth/token/..', '/api/v1/oauth/token/x', '/api/v1/oauth', '/openapi.yaml/..%2f..%2fpackage.json', '/docs/../openapi.yaml', '/docs/%2e%2e/package.json',
    '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2f..%2fetc%2fpasswd', '//healthz', '/healthz;jsessionid=1', '/healthz%00', '/healthz%2F', '/healthz/x',
    '/.env', '/.git/config', '/server/src/main.ts', '/node_modules/', '/package.json', '/docs/redoc.standalone.js.map', '/openapi.yml',
    '/api/v1/ofctx/x/y/residents/a/b/c', '*', '/%ZZ', '/%', '/%E0%A4%A', '/api/v1/ofctx/%ZZ', '/wp-admin/', '/actuator/env', '/metrics', '/favicon.ico',
  );
  const segments = fc.array(
    fc.oneof(
      fc.constantFrom('api', 'v1', 'ofctx', 'oauth', 'token', 'webhooks', 'residents', 'coverage', 'clinical', 'Observation', 'AllergyIntolerance', 'test', 'event-types', '..', '.', '', '%2F', '%2e%2e'),
      fc.constantFrom(f.orgA, f.orgB, f.a1, f.a2, f.b1, ...f.ids.residents.slice(0, 2)),
      fc.string({ unit: 'grapheme', maxLength: 12 }).map(encode),
    ),
    { minLength: 1, maxLength: 9 },
  ).map((parts) => `/${parts.join('/')}`);
  const long = fc.integer({ min: 100, max: 2000 }).map((n) => '/a'.repeat(n));
  const path = fc.oneof({ weight: 4, arbitrary: literal }, { weight: 4, arbitrary: segments }, { weight: 1, arbitrary: long });
  const method = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('GET', 'POST') }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) });
  return fc.tuple(method, path, tokenArb(f), headerArb, sometimes(1 / 4, fc.jsonValue({ maxDepth: 2 }))).map(([m, p, t, h, json]) =>
    build('odd path', m, p, {}, [], t, json === null || m === 'GET' || m === 'HEAD' ? {} : { contentType: 'application/json', body: JSON.stringify(json) ?? 'null' }, h, false, false),
  );
}

/** Weights: the API's operations most, the token endpoint and the public documents less. */
function weightOf(op: ContractOperation): number {
  if (op.operationId === 'createToken') return 5;
  if (op.scopes.length === 0) return op.operationId === 'getApiReferenceScript' ? 1 : 2;
  return 8;
}

export function fuzzRequestArb(f: FuzzFixture): fc.Arbitrary<FuzzRequest> {
  const ops = contractOperations();
  return fc.oneof(
    ...ops.map((op) => ({ weight: weightOf(op), arbitrary: operationRequestArb(op, f) })),
    { weight: 10, arbitrary: oddPathArb(f) },
  );
}
