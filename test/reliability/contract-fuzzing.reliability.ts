// Bad input never breaks the service: thousands of requests generated from the contract
// (fast-check, fixed seed by default) get no 5xx, answers valid against the contract, every
// error in the error envelope (the RFC 6749 body at the token endpoint), and a success on a
// secured operation only for a credential granted its organization, facility and scope.
// Requests stay within what Node's HTTP parser accepts (methods it knows, encoded targets,
// headers under 16 KiB): what it refuses never reaches the service (docs/reliability.md).
//   FUZZ_SEED=123 FUZZ_RUNS=20000 npm run test:reliability
import { expect } from 'chai';
import fc from 'fast-check';
import { ALL_SCOPES, type TestService } from '../support/service.js';
import { seedTenants } from '../support/tenants.js';
import { revokeClient } from '../../server/src/auth/clients.js';
import { sha256Hex } from '../../server/src/auth/random-token.js';
import { routedOperation, pathOf } from './support/answer-checks.js';
import { figures } from './support/figures.js';
import { contractOperations, fuzzRequestArb, type FuzzFixture, type FuzzRequest, type Grant } from './support/fuzz-requests.js';
import { AddressPool } from './support/raw-http.js';
import { rememberSecret } from './support/secrets.js';
import { bearer, checkedSend, issueToken, jsonBody, seedClient, sendOk, suiteService } from './support/suite.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const CONCURRENCY = 4;
const TABLES = ['residents', 'coverage', 'observations', 'allergies'] as const;

async function buildFixture(service: TestService): Promise<{ fixture: FuzzFixture; facilityOf: Map<string, string> }> {
  const t = await seedTenants(service, 4);
  rememberSecret('client_secret', t.full.client_secret);
  for (const token of [t.fullToken, t.otherOrgToken, t.coverageOnlyToken]) rememberSecret('access_token', token);
  const db = service.running.app.db;
  const allScopes = [...ALL_SCOPES];
  const readScopes = ['residents.read', 'coverage.read', 'clinical.read'];

  const wide = await seedClient(service, { orgId: t.orgA, facilityIds: [t.a1, t.a2], scopes: allScopes });
  const noWebhooks = await seedClient(service, { orgId: t.orgA, facilityIds: [t.a1], scopes: readScopes });
  const revoked = await seedClient(service, { orgId: t.orgA, facilityIds: [t.a1], scopes: allScopes });
  const expiring = await seedClient(service, { orgId: t.orgA, facilityIds: [t.a1], scopes: allScopes });
  const revokedToken = await issueToken(service, revoked);
  await revokeClient(db, revoked.client_id);
  const expiredToken = await issueToken(service, expiring);
  // Expired in the database before its first use, so no cache ever held it as valid.
  await db('access_tokens').where({ token_hash: sha256Hex(expiredToken) }).update({ expires_at: Date.now() - 60_000 });

  const ids = {} as FuzzFixture['ids'];
  const facilityOf = new Map<string, string>();
  for (const table of TABLES) {
    ids[table] = [];
    for (const facility of [t.a1, t.a2, t.b1]) {
      const rows: string[] = await db(table).where({ facility_id: facility }).pluck('id');
      for (const id of rows) facilityOf.set(id, facility);
      ids[table].push(...rows.slice(0, 3));
    }
  }
  const deadCallback = 'http://127.0.0.1:9/fuzz-hook';
  const register = async (org: string, token: string) => {
    const res = await sendOk(service, { method: 'POST', target: `/api/v1/ofctx/${org}/webhooks`, ...jsonBody({ callback_url: deadCallback, event_types: ['resident.admitted'] }, bearer(token)) });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return res.body.data.id as string;
  };
  const subscriptionIds = [await register(t.orgA, t.fullToken), await register(t.orgA, t.fullToken), await register(t.orgB, t.otherOrgToken)];
  await sendOk(service, { method: 'DELETE', target: `/api/v1/ofctx/${t.orgA}/webhooks/${subscriptionIds[1]}`, headers: bearer(t.fullToken) });
  // The event log and deliveries: events of every type in each facility (a1's and b1's fan
  // out to the subscriptions, whose dead callback leaves deliveries pending and failing).
  const eventIds: string[] = [];
  const eventFacility = new Map<string, string>();
  for (const [org, facility] of [[t.orgA, t.a1], [t.orgA, t.a2], [t.orgB, t.b1]] as const) {
    for (const type of ['resident.admitted', 'coverage.updated', 'clinical.order.created']) {
      const { event_id } = await service.running.webhooks.emitEvent({ orgId: org, facilityId: facility, type, residentId: ids.residents[0]! });
      eventIds.push(event_id);
      eventFacility.set(event_id, facility);
    }
  }
  const deliveryIds: string[] = await db('webhook_deliveries').whereIn('subscription_id', subscriptionIds).pluck('id');

  const grants: Record<string, Grant> = {
    full: { orgId: t.orgA, facilityIds: [t.a1], scopes: allScopes },
    wide: { orgId: t.orgA, facilityIds: [t.a1, t.a2], scopes: allScopes },
    otherOrg: { orgId: t.orgB, facilityIds: [t.b1], scopes: allScopes },
    coverageOnly: { orgId: t.orgA, facilityIds: [t.a1], scopes: ['coverage.read'] },
    noWebhooks: { orgId: t.orgA, facilityIds: [t.a1], scopes: readScopes },
  };
  const fixture: FuzzFixture = {
    orgA: t.orgA, orgB: t.orgB, a1: t.a1, a2: t.a2, b1: t.b1, ids, subscriptionIds, eventIds, deliveryIds,
    tokens: {
      full: t.fullToken, wide: await issueToken(service, wide), otherOrg: t.otherOrgToken, coverageOnly: t.coverageOnlyToken,
      noWebhooks: await issueToken(service, noWebhooks), expired: expiredToken, revoked: revokedToken,
    },
    grants,
    client: t.full,
    revokedClient: revoked,
    deadCallback,
  };
  for (const [id, facility] of eventFacility) facilityOf.set(id, facility);
  return { fixture, facilityOf };
}

/** The path parameters of the operation the service routed to, decoded as it decodes them. */
function routedParams(template: string, target: string): Record<string, string> {
  const names = template.split('/');
  const values = pathOf(target).replace(/\/+$/, '').split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const m = /^\{(.+)\}$/.exec(name);
    if (m) {
      try {
        params[m[1]!] = decodeURIComponent(values[i] ?? '');
      } catch {
        params[m[1]!] = values[i] ?? '';
      }
    }
  });
  return params;
}

/** A success on a secured operation must be one the credential is granted, showing only its facility's rows. */
async function authorizationFailures(req: FuzzRequest, status: number, body: any, f: FuzzFixture, facilityOf: Map<string, string>): Promise<string[]> {
  if (status < 200 || status >= 300) return [];
  const op = await routedOperation(req.method, req.target);
  // Each security requirement is an alternative (the event log: any one read scope).
  const alternatives = ((op?.security ?? []) as Array<Record<string, string[]>>).map((s) => s.oauth2 ?? []);
  if (!op || alternatives.flat().length === 0) return [];
  // Ids are UUIDs, compared without regard to case: the service lowers them (RFC 4122).
  const params = Object.fromEntries(Object.entries(routedParams(op.path, req.target)).map(([k, v]) => [k, typeof v === 'string' ? v.toLowerCase() : v])) as ReturnType<typeof routedParams>;
  const grant = f.grants[req.token];
  const failures: string[] = [];
  if (!grant) failures.push(`authz: ${status} for a ${req.token} credential`);
  else {
    if (params.org_id !== grant.orgId) failures.push(`authz: ${status} for organization ${params.org_id} outside the grant`);
    if (params.facility_id !== undefined && !grant.facilityIds.includes(params.facility_id)) failures.push(`authz: ${status} for facility ${params.facility_id} outside the grant`);
    if (!alternatives.some((scopes) => scopes.every((s) => grant.scopes.includes(s)))) failures.push(`authz: ${status} without scope ${alternatives.map((a) => a.join(' ')).join(' or ')}`);
  }
  // The event log (no facility in the path): each event of a granted facility.
  if ((op.operationId === 'listEvents' || op.operationId === 'getEvent') && grant && body && body.data) {
    for (const event of Array.isArray(body.data) ? body.data : [body.data]) {
      const facility = facilityOf.get(event.id) ?? event.facility_id;
      if (!grant.facilityIds.includes(facility) || event.data?.org_id !== grant.orgId) failures.push(`leak: ${op.operationId} returned event ${event.id} of facility ${facility}`);
    }
  }
  if (params.facility_id !== undefined && body && body.data) {
    const rows = Array.isArray(body.data) ? body.data : [body.data];
    for (const row of rows) {
      if (facilityOf.get(row.id) !== params.facility_id) failures.push(`leak: ${op.operationId} returned ${row.id} of facility ${facilityOf.get(row.id) ?? 'unknown'}`);
    }
  }
  return failures;
}

function repro(req: FuzzRequest): string {
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}...(${v.length})` : v}`).join('; ');
  const body = req.body === undefined ? '' : ` body(${req.body.length}): ${req.body.slice(0, 300)}`;
  return `${req.method} ${req.target.length > 400 ? `${req.target.slice(0, 400)}...(${req.target.length})` : req.target} [${headers}]${req.chunked ? ' chunked' : ''}${body}`;
}

describe('contract fuzzing: generated requests never break the service', function () {
  this.timeout(10 * 60_000);
  let service: TestService;
  let fixture: FuzzFixture;
  let facilityOf: Map<string, string>;

  before(async () => {
    service = await suiteService();
    ({ fixture, facilityOf } = await buildFixture(service));
  });

  it(`answers ${RUNS} generated requests without a 5xx, within the contract, errors in the envelope, successes only within the grant`, async () => {
    console.log(`      fuzz seed ${SEED} (FUZZ_SEED), ${RUNS} requests (FUZZ_RUNS)`);
    figures.fuzz.seed = SEED;
    const requests = fc.sample(fuzzRequestArb(fixture), { seed: SEED, numRuns: RUNS });
    const statuses: Record<string, number> = {};
    const aims: Record<string, number> = {};
    // Broken promises grouped by operation and kind; the shortest repro of each, and a few more.
    const groups = new Map<string, { count: number; example: FuzzRequest; failure: string; others: FuzzRequest[] }>();
    // Token requests come from addresses of their own: the stuffing test owns the throttling.
    const addresses = new AddressPool(1, 20);
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const req = requests[next++]!;
        const isToken = pathOf(req.target).startsWith('/api/v1/oauth/token');
        const { res, failures } = await checkedSend(service, {
          method: req.method,
          target: req.target,
          headers: req.headers,
          ...(req.body !== undefined ? { body: req.body } : {}),
          chunked: req.chunked,
          ...(isToken ? { localAddress: addresses.take() } : {}),
        });
        failures.push(...(await authorizationFailures(req, res.status, res.body, fixture, facilityOf)));
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        aims[req.aim] = (aims[req.aim] ?? 0) + 1;
        figures.fuzz.requests++;
        for (const failure of failures) {
          const key = `${req.aim} | ${failure.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').slice(0, 90)}`;
          const group = groups.get(key);
          if (!group) groups.set(key, { count: 1, example: req, failure, others: [] });
          else {
            group.count++;
            if (group.others.length < 3) group.others.push(req);
            if (repro(req).length < repro(group.example).length) Object.assign(group, { example: req, failure });
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    figures.fuzz.statuses = statuses;

    const sorted = Object.entries(statuses).sort(([a], [b]) => Number(a) - Number(b));
    console.log(`      ${figures.fuzz.requests} requests fuzzed; statuses: ${sorted.map(([s, n]) => `${s}×${n}`).join(' ')}`);
    console.log(`      by aim: ${Object.entries(aims).sort(([, a], [, b]) => b - a).map(([a, n]) => `${a} ${n}`).join(', ')}`);
    const report = [...groups]
      .map(([key, g]) => `\n  [${g.count}×] ${key}\n      ${g.failure.slice(0, 600)}\n      repro: ${repro(g.example)}${g.others.map((o) => `\n      also: ${o.method} ${o.target.slice(0, 300)}`).join('')}`)
      .join('');
    if (groups.size) console.log(`      broken promises:${report}`);
    expect(figures.fuzz.requests).to.equal(RUNS);
    expect(groups.size, `broken promises:${report}`).to.equal(0);
  });

  /** Every operation with path parameters, each parameter in turn replaced by each bad form. */
  async function answersToBadIds(forms: (real: string) => string[]): Promise<string[]> {
    const real: Record<string, string> = {
      org_id: fixture.orgA, facility_id: fixture.a1, resident_id: fixture.ids.residents[0]!, coverage_id: fixture.ids.coverage[0]!,
      resource_id: fixture.ids.observations[0]!, id: fixture.subscriptionIds[0]!, event_id: fixture.eventIds[0]!, delivery_id: fixture.deliveryIds[0]!,
      // No export runs here: a well-formed job id that names none, so only the bad parameter is wrong.
      job_id: '5e6f7081-92a3-4b45-8d6e-7f8091a2b3c4', file: 'Patient.ndjson',
    };
    const wrong: string[] = [];
    for (const op of contractOperations().filter((o) => o.pathParams.length > 0)) {
      if (op.path.includes('AllergyIntolerance')) real.resource_id = fixture.ids.allergies[0]!;
      else if (op.path.includes('Observation')) real.resource_id = fixture.ids.observations[0]!;
      for (const param of op.pathParams) {
        for (const bad of forms(real[param]!)) {
          const target = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === param ? bad : real[name]!));
          const body =
            op.operationId === 'registerWebhook'
              ? { callback_url: fixture.deadCallback, event_types: ['resident.admitted'] }
              : op.operationId === 'recoverWebhookDeliveries'
                ? { since: '2020-01-01T00:00:00Z' }
                : { event_type: 'resident.admitted' };
          // The FHIR write endpoint takes a Bundle and answers errors as OperationOutcome, the catalogue code in its details.
          const fhir = op.operationId === 'ingestFhir';
          // A FHIR Subscription is posted as application/fhir+json too.
          const subscription = op.operationId === 'createFhirSubscription';
          // The X12 endpoint takes an interchange in its own media type.
          const x12 = op.operationId === 'ingestX12';
          // FHIR POST [type]/_search takes a form, as R4 says.
          const search = op.path.endsWith('/_search');
          const posted = search
            ? { headers: { ...bearer(fixture.tokens.full), 'content-type': 'application/x-www-form-urlencoded' }, body: '_count=1' }
            : fhir
            ? { headers: { ...bearer(fixture.tokens.full), 'content-type': 'application/fhir+json' }, body: JSON.stringify({ resourceType: 'Bundle', type: 'batch', entry: [] }) }
            : subscription
            ? { headers: { ...bearer(fixture.tokens.full), 'content-type': 'application/fhir+json' }, body: JSON.stringify({ resourceType: 'Subscription', status: 'requested', reason: 'fuzz', criteria: 'https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted', channel: { type: 'rest-hook', endpoint: fixture.deadCallback } }) }
            : x12
              ? { headers: { ...bearer(fixture.tokens.full), 'content-type': 'application/edi-x12' }, body: 'ISA*00*          *00*          *ZZ*PAYER          *ZZ*OFCTX          *261123*0800*^*00501*000000001*0*P*:~' }
              : jsonBody(body, bearer(fixture.tokens.full));
          const req = { method: op.method, target, ...(op.method === 'POST' ? posted : { headers: bearer(fixture.tokens.full) }) };
          const { res, failures } = await checkedSend(service, req);
          // The operators' console answers its errors as HTML pages (x-ofctx-error-format: html),
          // and asks for a session (401) or a form (415) before it reads a path: any 4xx page.
          if (op.path.startsWith('/console')) {
            if (res.status < 400 || res.status >= 500 || !(res.headers.get('content-type') ?? '').startsWith('text/html') || failures.length) wrong.push(`${op.method} ${target} -> ${res.status} (console page) ${failures.join('; ').slice(0, 200)}`);
            continue;
          }
          const fhirErrors = fhir || op.path.startsWith('/api/v1/fhir/R4/');
          const code = fhirErrors ? res.body?.issue?.[0]?.details?.coding?.[0]?.code : res.body?.error?.code;
          if (res.status !== 400 || code !== 'invalid_parameter' || failures.length) wrong.push(`${op.method} ${target} -> ${res.status} ${code ?? res.text.slice(0, 80)}`);
        }
      }
    }
    return wrong;
  }

  // Found by the fuzzer (seed 20261122): openapi-backend decodes path parameters with
  // decodeURIComponent, which throws on bad percent-encoding; the URIError became a 500.
  it('answers 400 invalid_parameter, never a 5xx, to a path parameter that is not percent-encoded UTF-8', async () => {
    const wrong = await answersToBadIds(() => ['%ZZ', '%', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%FF']);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
  });

  // Found by the fuzzer on PostgreSQL (seed 20261122): ajv-formats' `uuid` accepts a
  // `urn:uuid:` prefix, so such an id passes validation and reaches PostgreSQL's uuid columns
  // (the query, or the audit record of a refusal), which reject it: a 500, and the refusal
  // goes unaudited. On SQLite it answers 403/404 instead of 400.
  it('answers 400 invalid_parameter, never a 5xx, to a urn:uuid: id', async () => {
    const wrong = await answersToBadIds((id) => [`urn:uuid:${id}`, `URN:UUID:${id}`]);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
  });

  it('is still ready after the fuzzing', async () => {
    const res = await sendOk(service, { method: 'GET', target: '/readyz' });
    expect(res.status).to.equal(200);
  });
});
