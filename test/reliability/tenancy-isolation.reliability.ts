// Nobody reads what they are not granted, in worlds fast-check makes up: 2 to 4
// organizations of 1 to 3 facilities with a little data each, and credentials holding random
// subsets of their organization's facilities and of the scopes. For every endpoint and every
// credential: no answer carries an id outside the credential's grant, every list shows
// exactly the granted facility's rows, and every access outside the grant is refused (403
// for an organization, facility or scope, 404 for another tenant's id, the same 404 as for an
// unknown id). Refused writes change nothing.
//   TENANCY_WORLDS=20 TENANCY_SEED=7 npm run test:reliability
import { expect } from 'chai';
import fc from 'fast-check';
import type { TestService } from '../support/service.js';
import { figures } from './support/figures.js';
import type { RawRequest, RawResponse } from './support/raw-http.js';
import { bearer, checkedSend, issueToken, jsonBody, seedClient, suiteService } from './support/suite.js';

const WORLDS = Number(process.env.TENANCY_WORLDS ?? 6);
const SEED = Number(process.env.TENANCY_SEED ?? 8128);
const SCOPES = ['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage'];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

const ENDPOINTS = [
  { list: 'residents', table: 'residents', scope: 'residents.read', patientRef: null },
  { list: 'coverage', table: 'coverage', scope: 'coverage.read', patientRef: 'beneficiary' },
  { list: 'clinical/Observation', table: 'observations', scope: 'clinical.read', patientRef: 'subject' },
  { list: 'clinical/AllergyIntolerance', table: 'allergies', scope: 'clinical.read', patientRef: 'patient' },
] as const;

/** The same tables through the FHIR R4 view: the same grant, refusals as OperationOutcome. */
const R4_ENDPOINTS = [
  { type: 'Patient', table: 'residents', scope: 'residents.read', patientParam: null },
  { type: 'Coverage', table: 'coverage', scope: 'coverage.read', patientParam: 'beneficiary' },
  { type: 'Observation', table: 'observations', scope: 'clinical.read', patientParam: 'subject' },
  { type: 'AllergyIntolerance', table: 'allergies', scope: 'clinical.read', patientParam: 'patient' },
] as const;

interface WorldSpec {
  orgs: Array<{ facilities: number[]; clients: Array<{ facilities: number[]; scopes: string[] }> }>;
  pageSize: number;
}

const orgArb = fc.integer({ min: 1, max: 3 }).chain((facilityCount) => {
  const indices = [...Array(facilityCount).keys()];
  return fc.record({
    // Residents per facility; a facility may be empty.
    facilities: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: facilityCount, maxLength: facilityCount }),
    clients: fc.array(fc.record({ facilities: fc.subarray(indices, { minLength: 1 }), scopes: fc.subarray(SCOPES, { minLength: 1 }) }), { minLength: 1, maxLength: 2 }),
  });
});
const worldArb: fc.Arbitrary<WorldSpec> = fc.record({
  orgs: fc.array(orgArb, { minLength: 2, maxLength: 4 }),
  pageSize: fc.oneof(fc.integer({ min: 1, max: 7 }), fc.constant(200)),
});

interface Credential {
  label: string;
  orgId: string;
  facilityIds: string[];
  scopes: string[];
  token: string;
}

interface World {
  orgIds: string[];
  /** facility -> its organization */
  orgOf: Map<string, string>;
  credentials: Credential[];
  /** org -> its active subscription ids */
  subscriptions: Map<string, string[]>;
}

let worldCount = 0;

async function buildWorld(service: TestService, spec: WorldSpec): Promise<World> {
  const n = ++worldCount;
  const world: World = { orgIds: [], orgOf: new Map(), credentials: [], subscriptions: new Map() };
  for (const [o, orgSpec] of spec.orgs.entries()) {
    const orgId = (await service.seed.org(`World ${n} org ${o}`)).id;
    world.orgIds.push(orgId);
    const facilities: string[] = [];
    for (const [f, residents] of orgSpec.facilities.entries()) {
      const facilityId = (await service.seed.facility(orgId, `World ${n} org ${o} facility ${f}`)).id;
      facilities.push(facilityId);
      world.orgOf.set(facilityId, orgId);
      if (residents > 0) await service.seed.data({ orgId, facilityId, residents, vitalRounds: 1 });
    }
    for (const [c, clientSpec] of orgSpec.clients.entries()) {
      const facilityIds = clientSpec.facilities.map((i) => facilities[i]!);
      const client = await seedClient(service, { orgId, facilityIds, scopes: clientSpec.scopes, name: `world ${n} client ${o}.${c}` });
      world.credentials.push({ label: `org ${o} client ${c} [${clientSpec.facilities.join(',')}] {${clientSpec.scopes.join(' ')}}`, orgId, facilityIds, scopes: clientSpec.scopes, token: await issueToken(service, client) });
    }
    // Every organization gets a subscription, through a credential of its own when one may
    // manage webhooks, otherwise through a helper credential.
    let manager = world.credentials.find((c) => c.orgId === orgId && c.scopes.includes('webhooks.manage'))?.token;
    if (!manager) manager = await issueToken(service, await seedClient(service, { orgId, facilityIds: [facilities[0]!], scopes: ['webhooks.manage'], name: 'world helper' }));
    const res = await checkedSend(service, { method: 'POST', target: `/api/v1/ofctx/${orgId}/webhooks`, ...jsonBody({ callback_url: 'http://127.0.0.1:9/tenancy', event_types: ['coverage.updated'] }, bearer(manager)) });
    if (res.res.status !== 201) throw new Error(`subscription not registered: ${res.res.status} ${res.res.text}`);
    world.subscriptions.set(orgId, [res.res.body.data.id]);
  }
  return world;
}

/** What the database holds, per facility: every row id of each table, and the residents. */
async function holdings(service: TestService, facilityIds: string[]) {
  const db = service.running.app.db;
  const rows = new Map<string, Map<string, Set<string>>>();
  for (const facility of facilityIds) {
    const byTable = new Map<string, Set<string>>();
    for (const e of ENDPOINTS) byTable.set(e.table, new Set(await db(e.table).where({ facility_id: facility }).pluck('id')));
    rows.set(facility, byTable);
  }
  return rows;
}

function expectedRefusal(c: Credential, scope: string, orgId: string, facilityId?: string): string | null {
  if (!c.scopes.includes(scope)) return 'insufficient_scope';
  if (orgId !== c.orgId) return 'organization_forbidden';
  if (facilityId !== undefined && !c.facilityIds.includes(facilityId)) return 'facility_forbidden';
  return null;
}

async function checkWorld(service: TestService, spec: WorldSpec, world: World): Promise<{ cases: number; requests: number; violations: string[] }> {
  const violations: string[] = [];
  let cases = 0;
  let requests = 0;
  const facilities = [...world.orgOf.keys()];
  const held = await holdings(service, facilities);
  const all = await holdings(service, await service.running.app.db('facilities').pluck('id'));
  const allSubscriptions = new Map<string, string>(
    (await service.running.app.db('webhook_subscriptions').select('id', 'org_id')).map((r: { id: string; org_id: string }) => [r.id, r.org_id]),
  );

  const send = async (c: Credential, req: RawRequest): Promise<RawResponse> => {
    requests++;
    const { res, failures } = await checkedSend(service, { ...req, headers: { ...req.headers, ...bearer(c.token) } });
    for (const f of failures) violations.push(`${c.label}: ${req.method} ${req.target}: ${f}`);
    return res;
  };
  const refused = (c: Credential, what: string, res: RawResponse, status: number, code: string) => {
    cases++;
    if (res.status !== status || res.body?.error?.code !== code) violations.push(`${c.label}: ${what}: expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 200)}`);
  };

  for (const c of world.credentials) {
    // Every id this credential may ever see.
    const allowed = new Set<string>([c.orgId, ...c.facilityIds, ...(world.subscriptions.get(c.orgId) ?? [])]);
    for (const [id, org] of allSubscriptions) if (org === c.orgId) allowed.add(id);
    for (const f of c.facilityIds) for (const ids of all.get(f)!.values()) for (const id of ids) allowed.add(id);
    const leaks = (what: string, data: unknown) => {
      cases++;
      for (const id of JSON.stringify(data).match(UUID) ?? []) {
        if (!allowed.has(id.toLowerCase())) violations.push(`${c.label}: ${what}: answered ${id}, outside the grant`);
      }
    };

    for (const e of ENDPOINTS) {
      for (const f of facilities) {
        const base = `/api/v1/ofctx/${world.orgOf.get(f)}/${f}/${e.list}`;
        const refusal = expectedRefusal(c, e.scope, world.orgOf.get(f)!, f);
        if (refusal) {
          refused(c, `list ${base}`, await send(c, { method: 'GET', target: `${base}?page_size=${spec.pageSize}` }), 403, refusal);
          const anyId = [...held.get(f)!.get(e.table)!][0] ?? '00000000-0000-4000-8000-000000000000';
          refused(c, `read ${base}/${anyId}`, await send(c, { method: 'GET', target: `${base}/${anyId}` }), 403, refusal);
          // The credential's own organization in the path does not open another's facility.
          if (world.orgOf.get(f) !== c.orgId) {
            const own = `/api/v1/ofctx/${c.orgId}/${f}/${e.list}`;
            refused(c, `list ${own}`, await send(c, { method: 'GET', target: own }), 403, expectedRefusal(c, e.scope, c.orgId, f)!);
          }
          continue;
        }
        // Granted: walk every page; exactly this facility's rows, each once.
        const seen: string[] = [];
        for (let page = 1; page <= 200; page++) {
          const res = await send(c, { method: 'GET', target: `${base}?page=${page}&page_size=${spec.pageSize}` });
          cases++;
          if (res.status !== 200) {
            violations.push(`${c.label}: list ${base} page ${page}: ${res.status} ${res.text.slice(0, 200)}`);
            break;
          }
          leaks(`list ${base}`, res.body.data);
          for (const row of res.body.data) {
            seen.push(row.id);
            if (e.table === 'residents' && row.managingOrganization?.reference !== `Organization/${f}`) violations.push(`${c.label}: resident ${row.id} managed by ${row.managingOrganization?.reference}, listed under ${f}`);
            if (e.patientRef && !held.get(f)!.get('residents')!.has(String(row[e.patientRef]?.reference).replace('Patient/', ''))) violations.push(`${c.label}: ${e.table} ${row.id} of ${row[e.patientRef]?.reference}, not a resident of ${f}`);
          }
          if (res.body.meta.page.total !== held.get(f)!.get(e.table)!.size) violations.push(`${c.label}: list ${base}: total ${res.body.meta.page.total}, holds ${held.get(f)!.get(e.table)!.size}`);
          if (res.body.data.length < spec.pageSize) break;
        }
        const expected = [...held.get(f)!.get(e.table)!].sort();
        if (JSON.stringify([...seen].sort()) !== JSON.stringify(expected)) violations.push(`${c.label}: list ${base}: pages showed ${seen.length} rows (${new Set(seen).size} distinct), the facility holds ${expected.length}`);

        // Reads: this facility's ids answer; every other facility's ids are unknown here.
        const unknown = await send(c, { method: 'GET', target: `${base}/00000000-0000-4000-8000-000000000000` });
        const strip = (body: any) => JSON.stringify({ ...body, error: { ...body?.error, request_id: null } });
        for (const g of facilities) {
          const id = [...held.get(g)!.get(e.table)!][0];
          if (!id) continue;
          const res = await send(c, { method: 'GET', target: `${base}/${id}` });
          cases++;
          if (g === f) {
            if (res.status !== 200 || res.body.data.id !== id) violations.push(`${c.label}: read own ${base}/${id}: ${res.status}`);
            else leaks(`read ${base}/${id}`, res.body.data);
          } else if (res.status !== 404 || strip(res.body) !== strip(unknown.body)) {
            violations.push(`${c.label}: read ${base}/${id} (a row of ${g}): expected the unknown-id 404, got ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
        // A resident filter naming another facility's resident finds nothing.
        if (e.table !== 'residents') {
          for (const g of facilities) {
            const foreignResident = g === f ? undefined : [...held.get(g)!.get('residents')!][0];
            if (!foreignResident) continue;
            const res = await send(c, { method: 'GET', target: `${base}?resident_id=${foreignResident}` });
            cases++;
            if (res.status !== 200 || res.body.data.length !== 0 || res.body.meta.page.total !== 0) violations.push(`${c.label}: ${base}?resident_id=<resident of ${g}>: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
      }
    }

    // The FHIR R4 view: refusals are OperationOutcome with the same catalogue code; a granted
    // search followed through its `next` links shows exactly the facility's rows, each once.
    const outcomeCode = (res: RawResponse) => res.body?.issue?.[0]?.details?.coding?.[0]?.code;
    for (const e of R4_ENDPOINTS) {
      for (const f of facilities) {
        const base = `/api/v1/fhir/R4/${world.orgOf.get(f)}/${f}/${e.type}`;
        const refusal = expectedRefusal(c, e.scope, world.orgOf.get(f)!, f);
        const anyId = [...held.get(f)!.get(e.table)!][0] ?? '00000000-0000-4000-8000-000000000000';
        if (refusal) {
          for (const target of [`${base}?_count=${spec.pageSize}`, `${base}/${anyId}`]) {
            const res = await send(c, { method: 'GET', target });
            cases++;
            if (res.status !== 403 || outcomeCode(res) !== refusal) violations.push(`${c.label}: R4 ${target}: expected 403 ${refusal}, got ${res.status} ${res.text.slice(0, 200)}`);
          }
          continue;
        }
        const seen: string[] = [];
        let target: string | undefined = `${base}?_count=${spec.pageSize}`;
        for (let page = 0; target && page < 200; page++) {
          const res = await send(c, { method: 'GET', target });
          cases++;
          if (res.status !== 200) {
            violations.push(`${c.label}: R4 search ${target}: ${res.status} ${res.text.slice(0, 200)}`);
            break;
          }
          leaks(`R4 search ${base}`, res.body.entry.map((entry: { resource: unknown }) => entry.resource));
          seen.push(...res.body.entry.map((entry: { resource: { id: string } }) => entry.resource.id));
          const next = res.body.link.find((l: { relation: string }) => l.relation === 'next')?.url as string | undefined;
          target = next === undefined ? undefined : next.slice(next.indexOf('/api/'));
        }
        const expected = [...held.get(f)!.get(e.table)!].sort();
        if (JSON.stringify([...seen].sort()) !== JSON.stringify(expected)) violations.push(`${c.label}: R4 search ${base}: next links showed ${seen.length} rows (${new Set(seen).size} distinct), the facility holds ${expected.length}`);
        for (const g of facilities) {
          const id = [...held.get(g)!.get(e.table)!][0];
          if (!id) continue;
          const res = await send(c, { method: 'GET', target: `${base}/${id}` });
          cases++;
          if (g === f ? res.status !== 200 || res.body.id !== id : res.status !== 404) violations.push(`${c.label}: R4 read ${base}/${id} (a row of ${g}): ${res.status}`);
          const foreignResident = g === f ? undefined : [...held.get(g)!.get('residents')!][0];
          if (e.patientParam && foreignResident) {
            const filtered = await send(c, { method: 'GET', target: `${base}?${e.patientParam}=Patient/${foreignResident}` });
            cases++;
            if (filtered.status !== 200 || filtered.body.total !== 0) violations.push(`${c.label}: R4 ${base}?${e.patientParam}=<resident of ${g}>: ${filtered.status} ${filtered.text.slice(0, 200)}`);
          }
        }
      }
    }

    // Webhook management, organization by organization.
    for (const o of world.orgIds) {
      const refusal = expectedRefusal(c, 'webhooks.manage', o);
      const base = `/api/v1/ofctx/${o}/webhooks`;
      const theirs = world.subscriptions.get(o)![0]!;
      if (refusal) {
        refused(c, `list ${base}`, await send(c, { method: 'GET', target: base }), 403, refusal);
        refused(c, `event types ${base}`, await send(c, { method: 'GET', target: `${base}/event-types` }), 403, refusal);
        refused(c, `register ${base}`, await send(c, { method: 'POST', target: base, ...jsonBody({ callback_url: 'http://127.0.0.1:9/x', event_types: ['resident.admitted'] }) }), 403, refusal);
        refused(c, `test ${base}/${theirs}`, await send(c, { method: 'POST', target: `${base}/${theirs}/test`, ...jsonBody({ event_type: 'resident.admitted' }) }), 403, refusal);
        refused(c, `revoke ${base}/${theirs}`, await send(c, { method: 'DELETE', target: `${base}/${theirs}` }), 403, refusal);
        continue;
      }
      const list = await send(c, { method: 'GET', target: `${base}?page_size=200` });
      cases++;
      if (list.status !== 200) violations.push(`${c.label}: list ${base}: ${list.status}`);
      else {
        leaks(`list ${base}`, list.body.data);
        const shown = list.body.data.map((s: { id: string }) => s.id).sort();
        const own = [...allSubscriptions].filter(([, org]) => org === o).map(([id]) => id).sort();
        if (JSON.stringify(shown) !== JSON.stringify(own)) violations.push(`${c.label}: list ${base} showed ${shown.length} subscriptions, the organization has ${own.length}`);
      }
      const test = await send(c, { method: 'POST', target: `${base}/${theirs}/test`, ...jsonBody({ event_type: 'resident.admitted' }) });
      cases++;
      if (test.status !== 200) violations.push(`${c.label}: test ${base}/${theirs}: ${test.status}`);
      else {
        const delivered = JSON.parse(test.body.data.body);
        if (delivered.data.org_id !== c.orgId || !c.facilityIds.includes(delivered.data.facility_id)) violations.push(`${c.label}: test delivery names ${delivered.data.org_id}/${delivered.data.facility_id}`);
      }
      // Another organization's subscription through this organization's path: unknown.
      for (const other of world.orgIds.filter((x) => x !== o)) {
        const foreign = world.subscriptions.get(other)![0]!;
        const notFound = (res: RawResponse, what: string) => {
          cases++;
          if (res.status !== 404 || res.body?.error?.code !== 'not_found') violations.push(`${c.label}: ${what} ${base}/${foreign} (of another organization): ${res.status} ${res.text.slice(0, 200)}`);
        };
        notFound(await send(c, { method: 'POST', target: `${base}/${foreign}/test`, ...jsonBody({ event_type: 'resident.admitted' }) }), 'test');
        notFound(await send(c, { method: 'DELETE', target: `${base}/${foreign}` }), 'revoke');
      }
    }
  }

  // Refused writes changed nothing: every subscription is still there and active.
  const after = await service.running.app.db('webhook_subscriptions').whereIn('org_id', world.orgIds).select('id', 'status');
  cases++;
  const expectedIds = [...world.subscriptions.values()].flat().sort();
  if (JSON.stringify(after.map((s: { id: string }) => s.id).sort()) !== JSON.stringify(expectedIds)) violations.push(`subscriptions of the world changed: ${after.length}, expected ${expectedIds.length}`);
  for (const s of after) if (s.status !== 'active') violations.push(`subscription ${s.id} became ${s.status} through a refused call`);
  return { cases, requests, violations };
}

describe('tenancy isolation in generated worlds', function () {
  this.timeout(10 * 60_000);
  let service: TestService;

  before(async () => {
    service = await suiteService();
  });

  it(`never answers an id outside the grant and refuses every access outside it, in ${WORLDS} generated worlds`, async () => {
    console.log(`      tenancy seed ${SEED} (TENANCY_SEED), ${WORLDS} worlds (TENANCY_WORLDS)`);
    await fc.assert(
      fc.asyncProperty(worldArb, async (spec) => {
        const world = await buildWorld(service, spec);
        const { cases, requests, violations } = await checkWorld(service, spec, world);
        figures.tenancy.worlds++;
        figures.tenancy.cases += cases;
        figures.tenancy.requests += requests;
        console.log(`      world ${figures.tenancy.worlds}: ${spec.orgs.length} organizations, ${world.orgOf.size} facilities, ${world.credentials.length} credentials, page size ${spec.pageSize}: ${cases} cases, ${requests} requests, ${violations.length} violations`);
        expect(violations, violations.slice(0, 30).join('\n')).to.deep.equal([]);
      }),
      { numRuns: WORLDS, seed: SEED, endOnFailure: true },
    );
    expect(figures.tenancy.worlds).to.equal(WORLDS);
  });
});
