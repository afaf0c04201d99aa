// Nobody reads what they are not granted, in worlds fast-check makes up: 2 to 4
// organizations of 1 to 3 facilities with a little data each, and credentials holding random
// subsets of their organization's facilities and of the scopes. For every endpoint and every
// credential: no answer carries an id outside the credential's grant, every list shows
// exactly the granted facility's rows, and every access outside the grant is refused (403
// for an organization, facility or scope, 404 for another tenant's id, the same 404 as for an
// unknown id). Refused writes change nothing. The event log shows each credential exactly the
// events of its facilities and read scopes, and a subscription's deliveries only to its own
// organization's credentials, each the deliveries of events in the facilities it is granted.
//   TENANCY_WORLDS=20 TENANCY_SEED=7 npm run test:reliability
// A failure names fast-check's seed and path: TENANCY_SEED=... TENANCY_PATH=... replays that
// world first (the policy worlds' walk).
import { expect } from 'chai';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { READ_SCOPE_OF_EVENT_TYPE } from '../../server/src/tenancy/event-visibility.js';
import type { EventType } from '../../server/src/db/event-types.js';
import type { TestService } from '../support/service.js';
import { figures } from './support/figures.js';
import type { RawRequest, RawResponse } from './support/raw-http.js';
import { bearer, checkedSend, issueToken, jsonBody, seedClient, suiteService } from './support/suite.js';
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import type { IngestResource, ResourceChange } from '../../server/src/ingest/change-set.js';
import { createClient } from '../../server/src/auth/clients.js';
import { DEFAULT_POLICY } from '../../server/src/tenancy/access-policy.js';
import { disclosuresOfResident } from '../../server/src/audit/disclosures.js';
import { indexAllQueuedDisclosures } from '../../server/src/audit/disclosure-index.js';
import { rememberSecret } from './support/secrets.js';
import { allergy, byMrn, coverage, MRN, observation, patient } from '../support/fhir-resources.js';
import {
  consentPeriod, FAMILIES, LABELS, payerValue, POLICY_PAYERS, policyWorldArb, visibleIn, type CredentialSpec, type LabelName, type PolicyWorldSpec, type Visible,
} from './support/policy-world.js';

const WORLDS = Number(process.env.TENANCY_WORLDS ?? 6);
const SEED = Number(process.env.TENANCY_SEED ?? 8128);
const POLICY_WORLDS = Number(process.env.TENANCY_POLICY_WORLDS ?? 6);
const REPLAY = process.env.TENANCY_PATH ? { path: process.env.TENANCY_PATH } : {};
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
  /** event id -> where it happened and its type */
  events: Map<string, { orgId: string; facilityId: string; type: EventType }>;
  /** subscription -> its deliveries */
  deliveries: Map<string, string[]>;
  /** delivery -> the event it delivers */
  eventOfDelivery: Map<string, string>;
}

const WORLD_EVENT_TYPES: EventType[] = ['resident.admitted', 'coverage.updated', 'clinical.condition.created', 'coverage.updated'];
const READ_SCOPES = ['residents.read', 'coverage.read', 'clinical.read'];

let worldCount = 0;

async function buildWorld(service: TestService, spec: WorldSpec): Promise<World> {
  const n = ++worldCount;
  const world: World = { orgIds: [], orgOf: new Map(), credentials: [], subscriptions: new Map(), events: new Map(), deliveries: new Map(), eventOfDelivery: new Map() };
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
    // Events in every facility, of several types; coverage.updated fans out to the subscription.
    for (const facilityId of facilities) {
      for (const type of WORLD_EVENT_TYPES) {
        const { event_id } = await service.running.webhooks.emitEvent({ orgId, facilityId, type, residentId: randomUUID() });
        world.events.set(event_id, { orgId, facilityId, type });
      }
    }
  }
  const db = service.running.app.db;
  for (const id of [...world.subscriptions.values()].flat()) {
    const rows = (await db('webhook_deliveries').where({ subscription_id: id }).select('id', 'event_id')) as Array<{ id: string; event_id: string }>;
    world.deliveries.set(id, rows.map((r) => r.id));
    for (const r of rows) world.eventOfDelivery.set(r.id, r.event_id);
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
          // A searchset without matches has no entry (R4 allows it).
          const entries = (res.body.entry ?? []) as Array<{ resource: { id: string } }>;
          leaks(`R4 search ${base}`, entries.map((entry) => entry.resource));
          seen.push(...entries.map((entry) => entry.resource.id));
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

  // The event log and the deliveries: exactly what the grant shows, nothing else.
  const eventIds = [...world.events.keys()];
  for (const c of world.credentials) {
    const visible = (id: string) => {
      const e = world.events.get(id)!;
      return e.orgId === c.orgId && c.facilityIds.includes(e.facilityId) && c.scopes.includes(READ_SCOPE_OF_EVENT_TYPE[e.type]);
    };
    const readsEvents = READ_SCOPES.some((scope) => c.scopes.includes(scope));
    for (const o of world.orgIds) {
      const base = `/api/v1/ofctx/${o}/events`;
      const refusal = !readsEvents ? 'insufficient_scope' : o !== c.orgId ? 'organization_forbidden' : null;
      if (refusal) {
        refused(c, `list ${base}`, await send(c, { method: 'GET', target: `${base}?page_size=${spec.pageSize}` }), 403, refusal);
        refused(c, `read ${base}/<event>`, await send(c, { method: 'GET', target: `${base}/${eventIds[0]}` }), 403, refusal);
        continue;
      }
      // Walk the whole log of this world: every visible event once, in order, no other.
      const first = (await service.running.app.db('webhook_events').whereIn('id', eventIds).min({ seq: 'seq' }).first())!.seq as number;
      const start = await service.running.app.db('webhook_events').where({ org_id: o }).andWhere('seq', '<', first).orderBy('seq', 'desc').first('id');
      const seen: string[] = [];
      let after: string | undefined = start?.id;
      for (let pages = 0; pages < 200; pages++) {
        const page = await send(c, { method: 'GET', target: `${base}?page_size=${spec.pageSize}${after ? `&after=${after}` : ''}` });
        cases++;
        if (page.status !== 200) {
          violations.push(`${c.label}: list ${base}: ${page.status} ${page.text.slice(0, 200)}`);
          break;
        }
        for (const event of page.body.data as Array<{ id: string; facility_id: string; data: { org_id: string } }>) {
          if (world.events.has(event.id) && !visible(event.id)) violations.push(`${c.label}: leak: list ${base} answered event ${event.id} outside the grant`);
          if (!world.events.has(event.id) && (event.data.org_id !== c.orgId || !c.facilityIds.includes(event.facility_id))) violations.push(`${c.label}: leak: list ${base} answered event ${event.id} of another tenant`);
          seen.push(event.id);
        }
        if (page.body.meta.page.next === null) break;
        after = page.body.meta.page.next;
      }
      const expected = eventIds.filter(visible);
      const shown = seen.filter((id) => world.events.has(id));
      cases++;
      if (JSON.stringify(shown) !== JSON.stringify(expected)) violations.push(`${c.label}: list ${base} showed ${shown.length} of this world's events, expected ${expected.length} in order`);
      for (const id of eventIds) {
        const res = await send(c, { method: 'GET', target: `${base}/${id}` });
        cases++;
        if (visible(id) ? res.status !== 200 || res.body.data.id !== id : res.status !== 404) violations.push(`${c.label}: read ${base}/${id}: ${res.status} (visible: ${visible(id)})`);
      }
    }
    for (const o of world.orgIds) {
      const base = `/api/v1/ofctx/${o}/webhooks`;
      const theirs = world.subscriptions.get(o)![0]!;
      const delivery = world.deliveries.get(theirs)![0] ?? randomUUID();
      const refusal = expectedRefusal(c, 'webhooks.manage', o);
      if (refusal) {
        refused(c, `deliveries ${base}/${theirs}`, await send(c, { method: 'GET', target: `${base}/${theirs}/deliveries` }), 403, refusal);
        refused(c, `read ${base}/${theirs}`, await send(c, { method: 'GET', target: `${base}/${theirs}` }), 403, refusal);
        refused(c, `redeliver ${base}/${theirs}`, await send(c, { method: 'POST', target: `${base}/${theirs}/deliveries/${delivery}/redeliver` }), 403, refusal);
        refused(c, `recover ${base}/${theirs}`, await send(c, { method: 'POST', target: `${base}/${theirs}/recover`, ...jsonBody({ since: '2020-01-01T00:00:00Z' }) }), 403, refusal);
        refused(c, `enable ${base}/${theirs}`, await send(c, { method: 'POST', target: `${base}/${theirs}/enable` }), 403, refusal);
        continue;
      }
      const list = await send(c, { method: 'GET', target: `${base}/${theirs}/deliveries?page_size=200` });
      cases++;
      if (list.status !== 200) violations.push(`${c.label}: deliveries ${base}/${theirs}: ${list.status}`);
      else {
        // The organization's subscription: the credential is shown the deliveries of events in its facilities.
        const own = new Set(world.deliveries.get(theirs)!.filter((id) => c.facilityIds.includes(world.events.get(world.eventOfDelivery.get(id)!)!.facilityId)));
        for (const d of list.body.data as Array<{ id: string; event_id: string; facility_id: string }>) {
          const event = world.events.get(d.event_id);
          if (!own.has(d.id) || !event || event.orgId !== o || world.orgOf.get(d.facility_id) !== o) violations.push(`${c.label}: leak: deliveries ${base}/${theirs} answered ${d.id} (event ${d.event_id}, facility ${d.facility_id})`);
        }
        if (list.body.data.length !== own.size) violations.push(`${c.label}: deliveries ${base}/${theirs}: ${list.body.data.length} shown, ${own.size} in its facilities`);
      }
      for (const other of world.orgIds.filter((x) => x !== o)) {
        const foreign = world.subscriptions.get(other)![0]!;
        const foreignDelivery = world.deliveries.get(foreign)![0] ?? randomUUID();
        const notFound = (res: RawResponse, what: string) => {
          cases++;
          if (res.status !== 404 || res.body?.error?.code !== 'not_found') violations.push(`${c.label}: ${what} (of another organization): ${res.status} ${res.text.slice(0, 200)}`);
        };
        notFound(await send(c, { method: 'GET', target: `${base}/${foreign}` }), `read ${base}/${foreign}`);
        notFound(await send(c, { method: 'GET', target: `${base}/${foreign}/deliveries` }), `deliveries ${base}/${foreign}`);
        notFound(await send(c, { method: 'POST', target: `${base}/${foreign}/deliveries/${foreignDelivery}/redeliver` }), `redeliver ${base}/${foreign}`);
        notFound(await send(c, { method: 'POST', target: `${base}/${theirs}/deliveries/${foreignDelivery}/redeliver` }), `redeliver ${base}/${theirs} of a foreign delivery`);
        notFound(await send(c, { method: 'POST', target: `${base}/${foreign}/recover`, ...jsonBody({ since: '2020-01-01T00:00:00Z' }) }), `recover ${base}/${foreign}`);
        notFound(await send(c, { method: 'POST', target: `${base}/${foreign}/enable` }), `enable ${base}/${foreign}`);
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

// ---------------------------------------------------------------------------------------------
// Policy worlds (issue 23): one organization whose residents carry coverages of several payers,
// security labels and consents, read by credentials of every kind of policy. Each answer is
// compared with the suite's own model (support/policy-world.ts), on every read path.

const POLICY_EVENT_TYPES: EventType[] = ['resident.admitted', 'coverage.updated', 'clinical.condition.created'];

interface PolicyResident {
  id: string;
  mrn: string;
  facilityId: string;
  coverage: string[];
  observations: string[];
  allergies: string[];
}

interface PolicyCredential {
  label: string;
  clientId: string;
  spec: CredentialSpec;
  token: string;
  subscriptionId: string;
}

interface PolicyWorld {
  orgId: string;
  facilityIds: string[];
  residents: PolicyResident[];
  credentials: PolicyCredential[];
  /** event id -> the resident it is about (index) */
  events: Map<string, number>;
}

function labelled(label: LabelName): Record<string, unknown> {
  const l = LABELS[label];
  return l ? { meta: { security: [{ system: l.system, code: l.code }] } } : {};
}

async function ingestAll(service: TestService, orgId: string, facilityId: string, changes: ResourceChange[]) {
  const result = await applyChangeSet(service.running.app.db, { orgId, facilityId, mode: 'transaction', actor: 'seed', emitEvents: false, changes });
  for (const outcome of result.outcomes) if (outcome.outcome === 'rejected') throw new Error(`policy world data rejected at ${outcome.at}: ${outcome.issue.diagnostics}`);
  return result.outcomes.map((o) => (o.outcome === 'rejected' ? '' : o.id));
}

async function buildPolicyWorld(service: TestService, spec: PolicyWorldSpec): Promise<PolicyWorld> {
  const n = ++worldCount;
  const orgId = (await service.seed.org(`Policy world ${n}`)).id;
  const facilityIds: string[] = [];
  for (let f = 0; f < spec.facilities; f++) facilityIds.push((await service.seed.facility(orgId, `Policy world ${n} facility ${f}`)).id);
  const world: PolicyWorld = { orgId, facilityIds, residents: [], credentials: [], events: new Map() };
  for (const [i, r] of spec.residents.entries()) {
    const mrn = `PW${n}-${i}`;
    const facilityId = facilityIds[r.facility]!;
    const change = (resource: Record<string, unknown>, at: string): ResourceChange => ({ resource: resource as IngestResource, at });
    const changes: ResourceChange[] = [change(patient(mrn, { name: [{ use: 'official', family: FAMILIES[r.family], given: ['Ada'] }], ...labelled(r.label) }), 'patient')];
    for (const [k, c] of r.coverages.entries()) {
      const cased = (value: string) => (c.upper ? value.toUpperCase() : value.toLowerCase());
      const payer = POLICY_PAYERS[c.payer]!;
      // The mapping needs a display; a Coverage naming its payer by identifier only shows a neutral one.
      const payor = { display: c.by === 'id' ? 'Health plan' : cased(payer.display), ...(c.by === 'display' ? {} : { identifier: { value: cased(payer.id) } }) };
      changes.push(change(coverage(byMrn(mrn), `${mrn}-C${k}`, { payor: [payor], order: k + 1, ...labelled(c.label) }), `coverage ${k}`));
    }
    for (const [k, label] of r.observations.entries()) changes.push(change(observation(byMrn(mrn), `${mrn}-O${k}`, labelled(label)), `observation ${k}`));
    for (const [k, label] of r.allergies.entries()) changes.push(change(allergy(byMrn(mrn), `${mrn}-A${k}`, labelled(label)), `allergy ${k}`));
    const ids = await ingestAll(service, orgId, facilityId, changes);
    let next = 1;
    const take = (count: number) => ids.slice(next, (next += count));
    world.residents.push({ id: ids[0]!, mrn, facilityId, coverage: take(r.coverages.length), observations: take(r.observations.length), allergies: take(r.allergies.length) });
    // Consents: an active deny, then perhaps a later Consent of the same identifier that lifts it.
    for (const [k, c] of r.consents.entries()) {
      const consent = (status: string, type: 'deny' | 'permit') => ({
        resourceType: 'Consent',
        identifier: [{ system: 'https://ehr.example/fhir/sid/consent', value: `${mrn}-K${k}` }],
        status,
        scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' }] },
        category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0' }] }],
        patient: byMrn(mrn),
        policyRule: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'OPTOUT' }] },
        provision: {
          type,
          purpose: c.purposes.map((code) => ({ system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code })),
          ...(consentPeriod(c.period) ? { period: consentPeriod(c.period) } : {}),
        },
      });
      await ingestAll(service, orgId, facilityId, [change(consent('active', 'deny'), `consent ${k}`)]);
      if (c.lift !== 'no') await ingestAll(service, orgId, facilityId, [change(c.lift === 'inactive' ? consent('inactive', 'deny') : consent('active', 'permit'), `consent ${k} lifted`)]);
    }
  }
  for (const [c, cs] of spec.credentials.entries()) {
    const payers = cs.payers?.map((p) => payerValue(p.payer, p.by, p.upper)) ?? null;
    const client = await createClient(service.running.app.db, { orgId, facilityIds, scopes: SCOPES, name: `policy world ${n} client ${c}`, policy: { ...DEFAULT_POLICY, purpose: cs.purpose, payers, sensitive: cs.sensitive } });
    rememberSecret('client_secret', client.client_secret);
    const token = await issueToken(service, client);
    const res = await checkedSend(service, { method: 'POST', target: `/api/v1/ofctx/${orgId}/webhooks`, ...jsonBody({ callback_url: 'http://127.0.0.1:9/policy', event_types: POLICY_EVENT_TYPES }, bearer(token)) });
    if (res.res.status !== 201) throw new Error(`subscription not registered: ${res.res.status} ${res.res.text}`);
    world.credentials.push({ label: `client ${c} {${cs.purpose}${payers ? ` payers ${payers.join('|')}` : ''}${cs.sensitive ? ' sensitive' : ''}}`, clientId: client.client_id, spec: cs, token, subscriptionId: res.res.body.data.id });
  }
  // Events about every resident, after the data and the consents: deliveries are decided now.
  for (const [i, r] of world.residents.entries()) {
    for (const type of POLICY_EVENT_TYPES) {
      const { event_id } = await service.running.webhooks.emitEvent({ orgId, facilityId: r.facilityId, type, residentId: r.id });
      world.events.set(event_id, i);
    }
  }
  return world;
}

async function checkPolicyWorld(service: TestService, spec: PolicyWorldSpec, world: PolicyWorld): Promise<{ cases: number; requests: number; hiddenPairs: number; violations: string[] }> {
  const violations: string[] = [];
  /** (credential, record) pairs the model hides: the worlds must hide something to test anything. */
  let hiddenPairs = 0;
  let cases = 0;
  let requests = 0;
  const { orgId } = world;
  const every = new Set(world.residents.flatMap((r) => [r.id, ...r.coverage, ...r.observations, ...r.allergies]));
  const sorted = (ids: Iterable<string>) => JSON.stringify([...ids].sort());

  for (const c of world.credentials) {
    const model: Visible[] = spec.residents.map((r) => visibleIn(r, c.spec));
    const shown = (r: number, kind: 'resident' | 'coverage' | 'observations' | 'allergies') => {
      const resident = world.residents[r]!;
      if (kind === 'resident') return model[r]!.resident ? [resident.id] : [];
      const flags = kind === 'coverage' ? model[r]!.coverages : model[r]![kind];
      return resident[kind].filter((_, k) => flags[k]);
    };
    const visible = new Set(world.residents.flatMap((_, r) => [...shown(r, 'resident'), ...shown(r, 'coverage'), ...shown(r, 'observations'), ...shown(r, 'allergies')]));
    const hidden = [...every].filter((id) => !visible.has(id));
    hiddenPairs += hidden.length;
    const send = async (req: RawRequest): Promise<RawResponse> => {
      requests++;
      const { res, failures } = await checkedSend(service, { ...req, headers: { ...req.headers, ...bearer(c.token) } });
      for (const f of failures) violations.push(`${c.label}: ${req.method} ${req.target}: ${f}`);
      // 0 records shown to a credential that may not see them: no hidden id anywhere in any
      // answer (but the id the request itself named, which a 404 or a self link echoes).
      cases++;
      for (const id of hidden) if (res.text.includes(id) && !req.target.includes(id)) violations.push(`${c.label}: leak: ${req.method} ${req.target} answered hidden record ${id}`);
      return res;
    };
    const same = (what: string, got: Iterable<string>, expected: Iterable<string>) => {
      cases++;
      if (sorted(got) !== sorted(expected)) violations.push(`${c.label}: ${what}: showed ${sorted(got)}, the model shows ${sorted(expected)}`);
    };
    const total = (what: string, got: unknown, expected: number) => {
      cases++;
      if (got !== expected) violations.push(`${c.label}: ${what}: total ${String(got)}, the model counts ${expected}`);
    };
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const strip = (body: any) => JSON.stringify({ ...body, error: { ...body?.error, request_id: null } });

    const kinds = [
      { list: 'residents', r4: 'Patient', kind: 'resident', patientParam: null },
      { list: 'coverage', r4: 'Coverage', kind: 'coverage', patientParam: 'beneficiary' },
      { list: 'clinical/Observation', r4: 'Observation', kind: 'observations', patientParam: 'subject' },
      { list: 'clinical/AllergyIntolerance', r4: 'AllergyIntolerance', kind: 'allergies', patientParam: 'patient' },
    ] as const;
    for (const f of world.facilityIds) {
      const here = [...world.residents.keys()].filter((r) => world.residents[r]!.facilityId === f);
      for (const e of kinds) {
        const expected = here.flatMap((r) => shown(r, e.kind));
        const everyOfKind = world.residents.flatMap((r) => (e.kind === 'resident' ? [r.id] : r[e.kind]));
        const base = `/api/v1/ofctx/${orgId}/${f}/${e.list}`;
        // Page-numbered pages: full pages, an exact total.
        const seen: string[] = [];
        for (let page = 1; page <= 100; page++) {
          const res = await send({ method: 'GET', target: `${base}?page=${page}&page_size=${spec.pageSize}` });
          if (res.status !== 200) {
            violations.push(`${c.label}: list ${base} page ${page}: ${res.status}`);
            break;
          }
          total(`list ${base}`, res.body.meta.page.total, expected.length);
          seen.push(...res.body.data.map((row: { id: string }) => row.id));
          if (res.body.data.length < spec.pageSize) break;
        }
        same(`list ${base}`, seen, expected);
        // The sync: _lastUpdated and its cursors.
        const synced: string[] = [];
        let target: string | undefined = `${base}?_lastUpdated=gt2000-01-01&page_size=${spec.pageSize}`;
        for (let page = 0; target && page < 100; page++) {
          const res: RawResponse = await send({ method: 'GET', target });
          if (res.status !== 200) {
            violations.push(`${c.label}: sync ${target}: ${res.status}`);
            break;
          }
          total(`sync ${base}`, res.body.meta.page.total, expected.length);
          synced.push(...res.body.data.map((row: { id: string }) => row.id));
          target = res.body.meta.page.next ? `${base}?page_size=${spec.pageSize}&cursor=${encodeURIComponent(res.body.meta.page.next)}` : undefined;
        }
        same(`sync ${base}`, synced, expected);
        // Reads: a visible record of this facility answers, any other answers like an unknown id.
        const unknown = await send({ method: 'GET', target: `${base}/${unknownId}` });
        for (const id of everyOfKind) {
          const res = await send({ method: 'GET', target: `${base}/${id}` });
          cases++;
          if (expected.includes(id) ? res.status !== 200 || res.body.data.id !== id : res.status !== 404 || strip(res.body) !== strip(unknown.body)) {
            violations.push(`${c.label}: read ${base}/${id}: ${res.status} (the model ${expected.includes(id) ? 'shows' : 'hides'} it)`);
          }
        }
        // A resident filter shows that resident's visible records only.
        if (e.kind !== 'resident') {
          for (const r of here) {
            const res = await send({ method: 'GET', target: `${base}?resident_id=${world.residents[r]!.id}&page_size=200` });
            same(`list ${base}?resident_id=<resident ${r}>`, res.body.data.map((row: { id: string }) => row.id), shown(r, e.kind));
            total(`list ${base}?resident_id=<resident ${r}>`, res.body.meta.page.total, shown(r, e.kind).length);
          }
        }

        // The R4 view: searches followed through next links, totals, reads.
        const r4 = `/api/v1/fhir/R4/${orgId}/${f}/${e.r4}`;
        const search = async (query: string) => {
          const ids: string[] = [];
          const included: string[] = [];
          let next: string | undefined = `${r4}?${query}${query ? '&' : ''}_count=${spec.pageSize}`;
          let bundleTotal: unknown;
          for (let page = 0; next && page < 100; page++) {
            const res: RawResponse = await send({ method: 'GET', target: next });
            if (res.status !== 200) {
              violations.push(`${c.label}: R4 ${next}: ${res.status} ${res.text.slice(0, 200)}`);
              break;
            }
            bundleTotal = res.body.total;
            for (const entry of (res.body.entry ?? []) as Array<{ resource: { id: string }; search?: { mode?: string } }>) (entry.search?.mode === 'include' ? included : ids).push(entry.resource.id);
            const link = res.body.link.find((l: { relation: string }) => l.relation === 'next')?.url as string | undefined;
            next = link === undefined ? undefined : link.slice(link.indexOf('/api/'));
          }
          return { ids, included, total: bundleTotal };
        };
        const all = await search('');
        same(`R4 search ${r4}`, all.ids, expected);
        total(`R4 search ${r4}`, all.total, expected.length);
        const unknownR4 = await send({ method: 'GET', target: `${r4}/${unknownId}` });
        for (const id of everyOfKind) {
          const res = await send({ method: 'GET', target: `${r4}/${id}` });
          cases++;
          if (expected.includes(id) ? res.status !== 200 || res.body.id !== id : res.status !== 404 || res.body?.issue?.[0]?.code !== unknownR4.body?.issue?.[0]?.code) {
            violations.push(`${c.label}: R4 read ${r4}/${id}: ${res.status} (the model ${expected.includes(id) ? 'shows' : 'hides'} it)`);
          }
        }
        if (e.kind === 'resident') {
          // US Core: identifier and name.
          for (const r of here) {
            const byIdentifier = await search(`identifier=${encodeURIComponent(`${MRN}|${world.residents[r]!.mrn}`)}`);
            same(`R4 ${r4}?identifier=<resident ${r}>`, byIdentifier.ids, shown(r, 'resident'));
            total(`R4 ${r4}?identifier=<resident ${r}>`, byIdentifier.total, shown(r, 'resident').length);
          }
          for (const [family, name] of FAMILIES.entries()) {
            const wanted = here.filter((r) => spec.residents[r]!.family === family).flatMap((r) => shown(r, 'resident'));
            const byName = await search(`name=${name.toLowerCase()}`);
            same(`R4 ${r4}?name=${name}`, byName.ids, wanted);
            total(`R4 ${r4}?name=${name}`, byName.total, wanted.length);
          }
        } else {
          // A resident's records with _include of the resident: the included Patient only when visible and matched.
          for (const r of here) {
            const resident = world.residents[r]!;
            const found = await search(`${e.patientParam}=Patient/${resident.id}&_include=${e.r4}:${e.patientParam}`);
            same(`R4 ${r4}?${e.patientParam}=<resident ${r}>`, found.ids, shown(r, e.kind));
            total(`R4 ${r4}?${e.patientParam}=<resident ${r}>`, found.total, shown(r, e.kind).length);
            // Each page includes the resident of its matches: the distinct includes are compared.
            same(`R4 ${r4}?${e.patientParam}=<resident ${r}>&_include`, new Set(found.included), shown(r, e.kind).length > 0 ? shown(r, 'resident') : []);
          }
        }
      }
    }

    // The event log and the credential's deliveries: events about the residents it may see, no other.
    const expectedEvents = [...world.events].filter(([, r]) => model[r]!.resident).map(([id]) => id);
    const logged: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 200; page++) {
      const res = await send({ method: 'GET', target: `/api/v1/ofctx/${orgId}/events?page_size=${spec.pageSize}${after ? `&after=${after}` : ''}` });
      if (res.status !== 200) {
        violations.push(`${c.label}: event log: ${res.status}`);
        break;
      }
      logged.push(...res.body.data.map((event: { id: string }) => event.id));
      if (res.body.meta.page.next === null) break;
      after = res.body.meta.page.next;
    }
    same('event log', logged, expectedEvents);
    for (const [id, r] of world.events) {
      const res = await send({ method: 'GET', target: `/api/v1/ofctx/${orgId}/events/${id}` });
      cases++;
      if (model[r]!.resident ? res.status !== 200 : res.status !== 404) violations.push(`${c.label}: read event ${id}: ${res.status} (the model ${model[r]!.resident ? 'shows' : 'hides'} its resident)`);
    }
    const deliveries = await send({ method: 'GET', target: `/api/v1/ofctx/${orgId}/webhooks/${c.subscriptionId}/deliveries?page_size=200` });
    same('deliveries', deliveries.body.data.map((d: { event_id: string }) => d.event_id), expectedEvents);

    // The accounting of disclosures: the requests above walked every path, so what they
    // disclosed of each resident is exactly the records the model shows this credential, under
    // its purpose; nothing hidden, whether the disclosure index has caught up or not.
    for (const [r, resident] of world.residents.entries()) {
      const report = await disclosuresOfResident(service.running.app.db, { orgId, residentId: resident.id });
      const mine = report.filter((d) => d.channel === 'api' && d.client_id === c.clientId);
      cases++;
      same(`disclosures of resident ${r}`, new Set(mine.flatMap((d) => d.resource_ids)), [...shown(r, 'resident'), ...shown(r, 'coverage'), ...shown(r, 'observations'), ...shown(r, 'allergies')]);
      const purposes = [...new Set(mine.map((d) => d.purpose))];
      if (purposes.some((p) => p !== c.spec.purpose)) violations.push(`${c.label}: disclosures of resident ${r} name purposes ${purposes.join(', ')}`);
    }
  }
  // Indexed, the report says the same of the API's answers as it did from the queue (the
  // deliveries' records move on meanwhile: this world's callbacks fail and are retried).
  const apiReport = () =>
    Promise.all(world.residents.map(async (resident) => (await disclosuresOfResident(service.running.app.db, { orgId, residentId: resident.id })).filter((d) => d.channel === 'api')));
  const before = await apiReport();
  await indexAllQueuedDisclosures(service.running.app.db);
  const after = await apiReport();
  cases++;
  if (JSON.stringify(after) !== JSON.stringify(before)) violations.push('the accounting of disclosures changed when the disclosure index caught up');
  return { cases, requests, hiddenPairs, violations };
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

  it(`shows a credential exactly what its policy, the residents' consents and the security labels let it see, on every read path, in ${POLICY_WORLDS} generated worlds`, async () => {
    console.log(`      policy seed ${SEED} (TENANCY_SEED), ${POLICY_WORLDS} worlds (TENANCY_POLICY_WORLDS)`);
    let worlds = 0;
    let hiddenInAll = 0;
    await fc.assert(
      fc.asyncProperty(policyWorldArb, async (spec) => {
        const world = await buildPolicyWorld(service, spec);
        const { cases, requests, hiddenPairs, violations } = await checkPolicyWorld(service, spec, world);
        worlds++;
        hiddenInAll += hiddenPairs;
        figures.tenancy.worlds++;
        figures.tenancy.cases += cases;
        figures.tenancy.requests += requests;
        console.log(`      policy world ${worlds}: ${spec.facilities} facilities, ${spec.residents.length} residents, ${world.credentials.length} credentials, page size ${spec.pageSize}: ${hiddenPairs} (credential, record) pairs hidden, ${cases} cases, ${requests} requests, ${violations.length} violations`);
        expect(violations, violations.slice(0, 30).join('\n')).to.deep.equal([]);
      }),
      { numRuns: POLICY_WORLDS, seed: SEED, endOnFailure: true, ...REPLAY },
    );
    expect(worlds).to.equal(POLICY_WORLDS);
    expect(hiddenInAll, 'the generated worlds hide records from some credentials').to.be.greaterThan(0);
  });
});
