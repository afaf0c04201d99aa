// End to end, a FHIR-native partner notified the FHIR way (issue 45): with fhir-kit-client it
// creates topic-based Subscriptions (R5 Backport IG on R4) on the R4 view, receives the
// handshake, then an id-only notification when a resident is admitted over MLLP (its MRN
// filter leaving another admission out) and a full-resource one when a lab result arrives
// (ORU^R01), the DiagnosticReport as the partner may read it; $status counts the events,
// $events replays one; a receiver down for a while gets its notification once it answers
// again, seen meanwhile as `error` and in the webhook deliveries list. Every notification is
// valid R4 (Medplum's validator).
import { expect } from 'chai';
import { Client } from 'fhir-kit-client';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { startReceiver, type Receiver, type ReceivedDelivery } from '../../server/test/webhooks/support/receiver.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { createClient, findClient, revokeClient } from '../../server/src/auth/clients.js';
import { DEFAULT_POLICY } from '../../server/src/tenancy/access-policy.js';
import { ALL_SCOPES } from '../support/service.js';
import { call } from '../support/http.js';
import { checkR4 } from '../support/r4-validator.js';
import { disclosuresOfResident } from '../../server/src/audit/disclosures.js';
import { hl7Message, MRN_SYSTEM, pidOf } from '../support/adt-messages.js';
import { mllpClient, msa, type MllpTestClient } from '../support/mllp.js';

const BACKPORT = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';
const TOPIC = 'https://ofctx.dev/fhir/SubscriptionTopic';

type Json = Record<string, any>;

/** A backport Subscription as a partner writes it. */
function subscription(topic: string, endpoint: string, content: string, filters: string[], extra: Json = {}): { resourceType: string; [key: string]: any } {
  return {
    resourceType: 'Subscription',
    meta: { profile: [`${BACKPORT}/backport-subscription`] },
    status: 'requested',
    reason: 'Partner notifications',
    criteria: `${TOPIC}/${topic}`,
    ...(filters.length > 0 ? { _criteria: { extension: filters.map((f) => ({ url: `${BACKPORT}/backport-filter-criteria`, valueString: f })) } } : {}),
    channel: {
      extension: [{ url: `${BACKPORT}/backport-timeout`, valueUnsignedInt: 30 }],
      type: 'rest-hook',
      endpoint,
      header: ['Authorization: Bearer partner-secret'],
      payload: 'application/fhir+json',
      _payload: { extension: [{ url: `${BACKPORT}/backport-payload-content`, valueCode: content }] },
      ...extra,
    },
  };
}

/** The SubscriptionStatus (Parameters) of a notification, as name -> value. */
function statusOf(bundle: Json): { params: Record<string, any>; events: Array<Record<string, any>> } {
  const parameters = bundle.entry[0].resource;
  expect(parameters.resourceType).to.equal('Parameters');
  const params: Record<string, any> = {};
  const events: Array<Record<string, any>> = [];
  for (const p of parameters.parameter) {
    if (p.name === 'notification-event') events.push(Object.fromEntries(p.part.map((x: Json) => [x.name, x.valueString ?? x.valueInstant ?? x.valueReference?.reference])));
    else params[p.name] = p.valueCode ?? p.valueString ?? p.valueCanonical ?? p.valueReference?.reference ?? p.valueCodeableConcept?.text;
  }
  return { params, events };
}

describe('FHIR Subscriptions (R5 Backport IG on R4): a partner notified the FHIR way', function () {
  this.timeout(60_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let receiver: Receiver;
  let mllp: MllpTestClient;
  let fhir: Client;
  let base: string;
  let seq = 0;
  /** Paths the receiver answers 503 to, for now. */
  const down = new Set<string>();

  before(async () => {
    service = await startWebhookService({ env: { MLLP_PORT: '0', WEBHOOK_RETRY_SCHEDULE: '0,1,1,1,1,1,1,1' } });
    tenant = await service.tenant();
    await setFacilityHl7Code(service.running.app.db, tenant.facilityId, 'SUB-HOME');
    receiver = await startReceiver((request) => ({ status: [...down].some((p) => request.path.endsWith(p)) ? 503 : 200 }));
    base = `${service.baseUrl}/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}`;
    fhir = new Client({ baseUrl: base, bearerToken: tenant.token });
  });
  after(async () => {
    mllp?.close();
    await receiver?.close();
    await service?.close();
  });

  const path = (p: string) => `/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}/${p}`;
  const r4 = async (p: string, method = 'GET', json?: unknown, token = tenant.token) => {
    const answer = await call(service.baseUrl, method, path(p), { token, headers: { accept: 'application/fhir+json', ...(json ? { 'content-type': 'application/fhir+json' } : {}) }, ...(json ? { rawBody: JSON.stringify(json) } : {}) });
    return answer;
  };
  const at = (p: string) => receiver.received.filter((r) => r.path.endsWith(p));
  const bundles = (p: string) => at(p).map((r: ReceivedDelivery) => JSON.parse(r.body.toString('utf8')) as Json);
  const ofType = (p: string, type: string) => bundles(p).filter((b) => statusOf(b).params.type === type);
  // A connection per message: the listener closes idle ones.
  const send = async (type: string, segments: string[]) => {
    mllp = await mllpClient(service.running.mllp!.port);
    try {
      return msa(await mllp.send(hl7Message(type, `SUB-${++seq}`, segments, { facility: 'SUB-HOME' })));
    } finally {
      mllp.close();
    }
  };
  const residentIdOf = async (mrn: string) =>
    (await service.running.app.db('resource_identifiers').where({ org_id: tenant.orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id'))?.resource_id as string;
  const statusNow = async (id: string) => (await r4(`Subscription/${id}`)).body.status as string;

  it('declares a topic per event type in the CapabilityStatement and as R4 Basic resources', async () => {
    const statement = (await call(service.baseUrl, 'GET', path('metadata'), { headers: { accept: 'application/fhir+json' } })).body;
    expect(checkR4(statement)).to.deep.equal([]);
    const declared = statement.rest[0].resource.find((r: Json) => r.type === 'Subscription');
    const canonicals = declared.extension.filter((e: Json) => e.url === `${BACKPORT}/capabilitystatement-subscriptiontopic-canonical`).map((e: Json) => e.valueCanonical);
    const eventTypes = (await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks/event-types`, { token: tenant.token })).body.data.map((t: Json) => t.event_type);
    expect(canonicals).to.have.length(eventTypes.length).and.to.include(`${TOPIC}/result-created`).and.to.include(`${TOPIC}/resident-admitted`);
    expect(declared.interaction.map((i: Json) => i.code)).to.include.members(['create', 'read', 'update', 'delete', 'search-type']);
    const topics = await r4('Basic?code=SubscriptionTopic');
    expect(topics.status).to.equal(200);
    expect(checkR4(topics.body)).to.deep.equal([]);
    const urls = topics.body.entry.map((e: Json) => e.resource.extension.find((x: Json) => x.url.endsWith('SubscriptionTopic.url')).valueUri);
    expect(urls).to.have.members(canonicals);
    const one = await r4('Basic/result-created');
    expect(one.body.extension.filter((x: Json) => x.url.endsWith('canFilterBy')).map((x: Json) => x.extension.find((y: Json) => y.url === 'filterParameter').valueString)).to.include('category');
  });

  it('refuses what it cannot honour with an OperationOutcome naming the element', async () => {
    const bad = async (body: Json, field: string) => {
      const answer = await r4('Subscription', 'POST', body);
      expect(answer.status, field).to.equal(400);
      expect(answer.body.resourceType).to.equal('OperationOutcome');
      expect(JSON.stringify(answer.body), field).to.contain(field);
    };
    await bad(subscription('no-such-topic', `${receiver.url}/x`, 'id-only', []), 'criteria');
    await bad(subscription('resident-admitted', `${receiver.url}/x`, 'id-only', ['Observation?category=laboratory']), '_criteria');
    await bad(subscription('resident-admitted', `${receiver.url}/x`, 'everything', []), 'valueCode');
    await bad({ ...subscription('resident-admitted', `${receiver.url}/x`, 'id-only', []), channel: { ...subscription('resident-admitted', `${receiver.url}/x`, 'id-only', []).channel, type: 'websocket' } }, 'channel.type');
    await bad(subscription('resident-admitted', 'ftp://partner.example/hook', 'id-only', []), 'channel.endpoint');
  });

  it('id-only on admissions of one MRN: the handshake, then one notification with the Patient reference; $status counts it', async () => {
    const created = (await fhir.create({ resourceType: 'Subscription', body: subscription('resident-admitted', `${receiver.url}/id-only`, 'id-only', [`Patient?identifier=${MRN_SYSTEM}|SUB-1`]) })) as Json;
    expect(created.status).to.equal('requested');
    expect(created.channel.header).to.deep.equal(['Authorization: ***']);
    const handshake = await waitFor('handshake', () => ofType('/id-only', 'handshake')[0]);
    expect(checkR4(handshake)).to.deep.equal([]);
    expect(handshake.type).to.equal('history');
    expect(statusOf(handshake).params).to.deep.include({ status: 'requested', 'events-since-subscription-start': '0', subscription: `${base}/Subscription/${created.id}` });
    const first = at('/id-only')[0]!;
    expect(first.headers.authorization).to.equal('Bearer partner-secret');
    expect(first.headers['content-type']).to.match(/^application\/fhir\+json/);
    await waitFor('active', async () => ((await statusNow(created.id)) === 'active' ? true : undefined), 10_000, 100);

    expect((await send('ADT^A01^ADT_A01', [pidOf('SUB-2'), 'PV1|1|I|2W^201^A^SUB-HOME'])).code).to.equal('AA');
    expect((await send('ADT^A01^ADT_A01', [pidOf('SUB-1'), 'PV1|1|I|2W^202^A^SUB-HOME'])).code).to.equal('AA');
    const residentId = await residentIdOf('SUB-1');
    const notification = await waitFor('event notification', () => ofType('/id-only', 'event-notification')[0]);
    expect(checkR4(notification)).to.deep.equal([]);
    const { params, events } = statusOf(notification);
    expect(params).to.deep.include({ status: 'active', topic: `${TOPIC}/resident-admitted`, 'events-since-subscription-start': '1' });
    expect(events).to.have.length(1);
    expect(events[0]).to.deep.include({ 'event-number': '1', focus: `${base}/Patient/${residentId}` });
    expect(notification.entry, 'id-only: the status alone').to.have.length(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ofType('/id-only', 'event-notification'), 'SUB-2 is filtered out').to.have.length(1);

    const status = await r4(`Subscription/${created.id}/$status`);
    expect(status.status).to.equal(200);
    expect(checkR4(status.body)).to.deep.equal([]);
    expect(statusOf(status.body).params).to.deep.include({ type: 'query-status', status: 'active', 'events-since-subscription-start': '1' });
    const viaClient = (await fhir.operation({ name: '$status', resourceType: 'Subscription', id: created.id, method: 'GET' })) as Json;
    expect(statusOf(viaClient).params['events-since-subscription-start']).to.equal('1');
    const search = await r4('Subscription?status=active');
    expect(search.body.entry.map((e: Json) => e.resource.id)).to.include(created.id);
  });

  it('full-resource on new lab results: the DiagnosticReport in the notification; $events replays it by number', async () => {
    const created = (await fhir.create({ resourceType: 'Subscription', body: subscription('result-created', `${receiver.url}/full`, 'full-resource', ['Observation?category=laboratory']) })) as Json;
    await waitFor('handshake', () => ofType('/full', 'handshake')[0]);
    expect((await send('ORU^R01^ORU_R01', [
      pidOf('SUB-3'),
      'PV1|1|I|2W^203^A^SUB-HOME',
      'ORC|RE|PL-S1^EHR|ACC-S1^LAB||CM',
      'OBR|1|PL-S1^EHR|ACC-S1^LAB|24323-8^Comprehensive metabolic panel^LN|||20260115070000|||||||||||||||20260115090000|||F',
      'OBX|1|NM|2345-7^Glucose^LN||182|mg/dL|70-99|H|||F|||20260115071500|||||20260115090000',
    ])).code).to.equal('AA');
    const notification = await waitFor('result notification', () => ofType('/full', 'event-notification')[0]);
    expect(checkR4(notification)).to.deep.equal([]);
    const { params, events } = statusOf(notification);
    expect(params['events-since-subscription-start']).to.equal('1');
    const report = notification.entry[1].resource;
    expect(report.resourceType).to.equal('DiagnosticReport');
    expect(events[0]!.focus).to.equal(`${base}/DiagnosticReport/${report.id}`);
    expect(notification.entry[1]).to.deep.include({ fullUrl: `${base}/DiagnosticReport/${report.id}`, response: { status: '200' } });
    // What the partner reads through the R4 view is what it was sent.
    const read = await r4(`DiagnosticReport/${report.id}`);
    expect(read.body).to.deep.equal(report);

    const replay = await r4(`Subscription/${created.id}/$events?eventsSinceNumber=1&eventsUntilNumber=1`);
    expect(replay.status).to.equal(200);
    expect(checkR4(replay.body)).to.deep.equal([]);
    const replayed = statusOf(replay.body);
    expect(replayed.params).to.deep.include({ type: 'query-event', 'events-since-subscription-start': '1' });
    expect(replayed.events.map((e) => e['event-number'])).to.deep.equal(['1']);
    expect(replay.body.entry[1].resource).to.deep.equal(report);
    expect((await r4(`Subscription/${created.id}/$events?eventsSinceNumber=2`)).body.entry, 'nothing after').to.have.length(1);
    // Replayed, the event is disclosed again: in its resident's accounting, as its delivery is.
    const resident = (report.subject.reference as string).split('/')[1]!;
    const accounted = await disclosuresOfResident(service.running.app.db, { orgId: tenant.orgId, residentId: resident });
    // Once: the second replay held no event.
    const replays = accounted.filter((d) => d.operation === 'fhirSubscriptionEvents');
    expect(replays).to.have.length(1);
    expect(replays[0]).to.deep.include({ channel: 'api', resource_types: ['Patient'], resource_ids: [resident] });
  });

  it('a receiver down for a while: error meanwhile, the notification once it answers again; off and on by status; delete', async () => {
    down.add('/down');
    const created = (await fhir.create({ resourceType: 'Subscription', body: subscription('resident-admitted', `${receiver.url}/down`, 'full-resource', [`Patient?identifier=${MRN_SYSTEM}|SUB-4`]) })) as Json;
    await waitFor('error', async () => ((await statusNow(created.id)) === 'error' ? true : undefined), 10_000, 100);
    const inError = (await r4(`Subscription/${created.id}`)).body;
    expect(inError.error).to.contain('503');
    expect((await send('ADT^A01^ADT_A01', [pidOf('SUB-4'), 'PV1|1|I|2W^204^A^SUB-HOME'])).code).to.equal('AA');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(ofType('/down', 'event-notification').length, 'refused so far').to.be.greaterThan(0);
    const refused = ofType('/down', 'event-notification').length;
    down.delete('/down');
    // The next attempt (the retry schedule's) is answered 200.
    const notification = await waitFor('delivered after the receiver returned', () => ofType('/down', 'event-notification')[refused], 15_000);
    expect(checkR4(notification)).to.deep.equal([]);
    expect(notification.entry[1].resource.resourceType).to.equal('Patient');
    await waitFor('active again', async () => ((await statusNow(created.id)) === 'active' ? true : undefined), 10_000, 100);

    // The same deliveries list as webhooks: the event notification with its failed and then successful attempts.
    const deliveries = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks/${created.id}/deliveries`, { token: tenant.token });
    expect(deliveries.status).to.equal(200);
    const delivery = deliveries.body.data[0];
    expect(delivery).to.deep.include({ event_type: 'resident.admitted', status: 'delivered' });
    expect(delivery.attempts.length).to.be.greaterThan(1);
    expect(delivery.attempts.at(-1).status_code).to.equal(200);
    // Redelivered on demand, the same bytes.
    const before = at('/down').length;
    expect((await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${created.id}/deliveries/${delivery.id}/redeliver`, { token: tenant.token })).status).to.equal(202);
    await waitFor('redelivered', () => (at('/down').length > before ? true : undefined), 10_000, 100);
    expect(at('/down').at(-1)!.body.toString('utf8')).to.equal(JSON.stringify(notification));

    // off, then requested again: a new handshake.
    const off = await r4(`Subscription/${created.id}`, 'PUT', { ...subscription('resident-admitted', `${receiver.url}/down`, 'full-resource', [`Patient?identifier=${MRN_SYSTEM}|SUB-4`]), id: created.id, status: 'off' });
    expect(off.status).to.equal(200);
    expect(off.body.status).to.equal('off');
    const handshakes = ofType('/down', 'handshake').length;
    const on = await r4(`Subscription/${created.id}`, 'PUT', { ...subscription('resident-admitted', `${receiver.url}/down`, 'full-resource', [`Patient?identifier=${MRN_SYSTEM}|SUB-4`]), id: created.id });
    expect(on.body.status).to.equal('requested');
    await waitFor('a new handshake', () => (ofType('/down', 'handshake').length > handshakes ? true : undefined), 10_000, 100);
    expect((await r4(`Subscription/${created.id}`, 'DELETE')).status).to.equal(200);
    expect((await r4(`Subscription/${created.id}`)).status).to.equal(404);
    // A FHIR id that is not one of ours names no Subscription, for each interaction on it.
    for (const [path, method] of [['Subscription/sub-1', 'GET'], ['Subscription/sub-1/$status', 'GET'], ['Subscription/sub-1/$events', 'GET'], ['Subscription/sub-1', 'DELETE']] as const) {
      const unknown = await r4(path, method);
      expect(unknown.status, `${method} ${path}`).to.equal(404);
      expect(unknown.body.issue[0].code).to.equal('not-found');
    }
  });

  it("full-resource carries only what the owner's access policy lets it read: a payer's credential hears nothing of a resident it may not see", async () => {
    const db = service.running.app.db;
    const payer = await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name: 'payer', policy: { ...DEFAULT_POLICY, purpose: 'HPAYMT', payers: ['acme-01'] } });
    const { token } = await service.running.app.tokens.issue((await findClient(db, payer.client_id))!, ALL_SCOPES);
    const payerFhir = new Client({ baseUrl: base, bearerToken: token });
    await payerFhir.create({ resourceType: 'Subscription', body: subscription('resident-admitted', `${receiver.url}/payer`, 'full-resource', []) });
    await fhir.create({ resourceType: 'Subscription', body: subscription('resident-admitted', `${receiver.url}/everyone`, 'full-resource', []) });
    await waitFor('handshakes', () => (ofType('/payer', 'handshake')[0] && ofType('/everyone', 'handshake')[0] ? true : undefined));
    expect((await send('ADT^A01^ADT_A01', [pidOf('SUB-5'), 'PV1|1|I|2W^205^A^SUB-HOME'])).code).to.equal('AA');
    const residentId = await residentIdOf('SUB-5');
    const seen = await waitFor('the unrestricted notification', () => ofType('/everyone', 'event-notification').find((b) => b.entry[1]?.resource.id === residentId));
    expect(seen.entry[1].resource.resourceType).to.equal('Patient');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(JSON.stringify(bundles('/payer')), 'not a word of the resident').not.to.contain(residentId);
    expect(ofType('/payer', 'event-notification')).to.deep.equal([]);
  });

  it("a credential that points another's Subscription at its own endpoint takes it over: notified there is what its own policy lets it see, and $events replays it nothing more", async () => {
    const db = service.running.app.db;
    const payer = await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name: 'payer taking over', policy: { ...DEFAULT_POLICY, purpose: 'HPAYMT', payers: ['acme-01'] } });
    const { token } = await service.running.app.tokens.issue((await findClient(db, payer.client_id))!, ALL_SCOPES);
    const asPayer = (p: string, method = 'GET', json?: unknown) => r4(p, method, json, token);
    const created = (await fhir.create({ resourceType: 'Subscription', body: subscription('resident-admitted', `${receiver.url}/owned`, 'full-resource', []) })) as Json;
    await waitFor('handshake', () => ofType('/owned', 'handshake')[0]);
    expect((await send('ADT^A01^ADT_A01', [pidOf('SUB-7'), 'PV1|1|I|2W^207^A^SUB-HOME'])).code).to.equal('AA');
    const before = await residentIdOf('SUB-7');
    await waitFor('notified to its owner', () => ofType('/owned', 'event-notification').find((b) => b.entry[1]?.resource.id === before));
    // The Subscription's events so far: its owner is replayed the resident, the payer's credential is not.
    expect(JSON.stringify((await r4(`Subscription/${created.id}/$events`)).body)).to.contain(before);
    const replayed = await asPayer(`Subscription/${created.id}/$events`);
    expect(replayed.status).to.equal(200);
    expect(JSON.stringify(replayed.body), 'not a word of the resident').not.to.contain(before);
    // Pointed at the payer's own endpoint, by the payer's credential.
    const taken = await asPayer(`Subscription/${created.id}`, 'PUT', { ...subscription('resident-admitted', `${receiver.url}/taken`, 'full-resource', []), id: created.id });
    expect(taken.status, JSON.stringify(taken.body)).to.equal(200);
    await waitFor('handshake at the new endpoint', () => ofType('/taken', 'handshake')[0]);
    expect((await send('ADT^A01^ADT_A01', [pidOf('SUB-8'), 'PV1|1|I|2W^208^A^SUB-HOME'])).code).to.equal('AA');
    const after = await residentIdOf('SUB-8');
    // Another Subscription of the organization, whose owner may see every resident, is notified of it...
    await waitFor('notified where the resident may be seen', () => ofType('/everyone', 'event-notification').find((b) => b.entry[1]?.resource.id === after));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // ...the one the payer's credential took over is not: it follows that credential's policy now.
    expect(JSON.stringify(bundles('/taken')), 'not a word of the resident').not.to.contain(after);
    expect(ofType('/taken', 'event-notification')).to.deep.equal([]);
  });

  it("is off once the credential that owns it is revoked, says why, and another credential's PUT (status requested) takes it over", async () => {
    const db = service.running.app.db;
    const owner = await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name: 'rotated away' });
    const { token } = await service.running.app.tokens.issue((await findClient(db, owner.client_id))!, ALL_SCOPES);
    const created = (await new Client({ baseUrl: base, bearerToken: token }).create({ resourceType: 'Subscription', body: subscription('resident-admitted', `${receiver.url}/rotated`, 'id-only', []) })) as Json;
    await waitFor('handshake', () => ofType('/rotated', 'handshake')[0]);
    await revokeClient(db, owner.client_id);
    const off = (await r4(`Subscription/${created.id}`)).body;
    expect(off.status).to.equal('off');
    expect(off.error).to.contain('the credential that owned it was revoked');
    const on = await r4(`Subscription/${created.id}`, 'PUT', { ...subscription('resident-admitted', `${receiver.url}/rotated`, 'id-only', []), id: created.id });
    expect(on.status, JSON.stringify(on.body)).to.equal(200);
    await waitFor('a new handshake', () => ofType('/rotated', 'handshake')[1]);
    expect((await send('ADT^A01^ADT_A01', [pidOf('SUB-9'), 'PV1|1|I|2W^209^A^SUB-HOME'])).code).to.equal('AA');
    const admitted = await residentIdOf('SUB-9');
    await waitFor('notified under its new owner', () => ofType('/rotated', 'event-notification').find((b) => JSON.stringify(b).includes(admitted)));
  });

  it('heartbeats when nothing else was sent for the period', async () => {
    const created = (await fhir.create({ resourceType: 'Subscription', body: subscription('coverage-updated', `${receiver.url}/heartbeat`, 'empty', [], {}) })) as Json;
    const withHeartbeat: Json = { ...subscription('coverage-updated', `${receiver.url}/heartbeat`, 'empty', []), id: created.id };
    withHeartbeat.channel.extension.push({ url: `${BACKPORT}/backport-heartbeat-period`, valueUnsignedInt: 1 });
    await waitFor('handshake', () => ofType('/heartbeat', 'handshake')[0]);
    expect((await r4(`Subscription/${created.id}`, 'PUT', withHeartbeat)).status).to.equal(200);
    const heartbeat = await waitFor('heartbeat', () => ofType('/heartbeat', 'heartbeat')[0]);
    expect(checkR4(heartbeat)).to.deep.equal([]);
    expect(statusOf(heartbeat).params).to.deep.include({ status: 'active', 'events-since-subscription-start': '0' });
    expect(statusOf(heartbeat).params.topic, 'empty: no topic').to.equal(undefined);
  });
});
