// RFC 9110 section 9.3.2: HEAD wherever GET is served, with the same status and headers and
// no body. Checked on every GET operation of the contract, read from the document itself,
// so an operation added later is checked without touching this test.
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { openApiDocumentCopy } from '../../src/openapi/openapi-document.js';
import { call } from '../../../test/support/http.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { seedTenants, type Tenants } from '../../../test/support/tenants.js';
import { interchange271 } from '../../../test/support/x12.js';
import { applyEligibility } from '../../src/x12/eligibility-applier.js';
import { diagnosticReport } from '../../../test/support/fhir-resources.js';
import { consoleLinkToken, signInToConsole } from '../../../test/support/console.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function send(baseUrl: string, method: string, path: string, token: string, cookie?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // The console's pages open with its session cookie (a bearer token opens nothing there).
    const credentials: Record<string, string> = cookie ? { cookie } : { authorization: `Bearer ${token}` };
    const req = httpRequest(`${baseUrl}${path}`, { method, headers: { ...credentials, accept: 'application/json', 'x-request-id': 'head-check' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Headers that legitimately differ between two answers: `ratelimit` tells what is left of the
 * credential's quota, which each request spends (its `ratelimit-policy` is compared).
 */
const VARYING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'ratelimit']);

function comparable(headers: RawAnswer['headers']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !VARYING.has(name)));
}

describe('HEAD on every GET operation', function () {
  this.timeout(30_000);
  let service: TestService;
  let t: Tenants;
  const ids: Record<string, string> = {};
  let consoleCookie: string;

  before(async () => {
    service = await startTestService();
    t = await seedTenants(service, 2);
    const db = service.running.app.db;
    for (const table of ['residents', 'coverage', 'observations', 'allergies']) ids[table] = (await db(table).where({ facility_id: t.a1 }).first('id')).id;
    // The seed writes no diagnoses or orders: one of each, through the ingest road.
    const subject = { reference: `Patient/${ids.residents}` };
    const code = { coding: [{ system: 'http://loinc.org', code: '24725-4', display: 'CT Head' }] };
    const written = await applyChangeSet(db, {
      orgId: t.orgA,
      facilityId: t.a1,
      mode: 'transaction',
      actor: 'test',
      emitEvents: false,
      changes: [
        { resource: { resourceType: 'Condition', subject, code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I10' }] } }, at: 'Condition' },
        { resource: { resourceType: 'ServiceRequest', subject, code, status: 'active', intent: 'order' }, at: 'ServiceRequest' },
        { resource: { resourceType: 'MedicationRequest', subject, medicationCodeableConcept: code, status: 'active', intent: 'order' }, at: 'MedicationRequest' },
        { resource: diagnosticReport(subject, 'HEAD-REPORT', { basedOn: undefined }), at: 'DiagnosticReport' },
      ],
    });
    for (const [i, table] of ['conditions', 'service_requests', 'medication_requests', 'diagnostic_reports'].entries()) ids[table] = (written.outcomes[i] as { id: string }).id;
    const registered = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${t.orgA}/webhooks`, { token: t.fullToken, json: { callback_url: 'http://127.0.0.1:9/hooks', event_types: ['resident.admitted'] } });
    ids.subscription = registered.body.data.id;
    const fhirSubscription = {
      resourceType: 'Subscription',
      status: 'requested',
      reason: 'HEAD checks',
      criteria: 'https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted',
      channel: { type: 'rest-hook', endpoint: 'http://127.0.0.1:9/fhir-hooks', payload: 'application/fhir+json' },
    };
    const created = await call(service.baseUrl, 'POST', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/Subscription`, { token: t.fullToken, headers: { 'content-type': 'application/fhir+json' }, rawBody: JSON.stringify(fhirSubscription) });
    ids.fhirSubscription = created.body.id;
    ids.topic = 'resident-admitted';
    ids.event = (await service.running.webhooks.emitEvent({ orgId: t.orgA, facilityId: t.a1, type: 'resident.admitted', residentId: ids.residents! })).event_id;
    // A 271's CoverageEligibilityResponse, and a completed $export with its file.
    await applyEligibility(db, interchange271([{ trace: ids.coverage!, memberId: 'M', eligibility: ['1'] }]), { orgId: t.orgA, facilityId: t.a1, actor: 'test' });
    ids.eligibility = (await db('eligibility_responses').where({ facility_id: t.a1 }).first('id')).id;
    const kickOff = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${t.orgA}/${t.a1}/$export?_type=Patient`, { token: t.fullToken, headers: { prefer: 'respond-async' } });
    ids.job = kickOff.headers.get('content-location')!.split('/').at(-1)!;
    while ((await call(service.baseUrl, 'GET', new URL(kickOff.headers.get('content-location')!).pathname, { token: t.fullToken })).status !== 200) await new Promise((r) => setTimeout(r, 50));
    // The console: a session of organization A, a delivery of its subscription, a stored message.
    consoleCookie = (await signInToConsole(service.baseUrl, await consoleLinkToken(db, t.orgA))).cookie;
    ids.delivery = (await db('webhook_deliveries').where({ subscription_id: ids.subscription }).first('id')).id;
    const store = service.running.app.messages;
    const source = { client_id: null, peer: null, sending_application: null, sending_facility: null };
    const stored = store.row({ road: 'fhir', format: 'fhir-bundle', orgId: t.orgA, facilityId: t.a1, source, messageType: 'Bundle', controlId: null, content: '{}' }, { status: 'refused', answer: { code: '400', errors: [] }, records: [] });
    await store.insert(db, [stored]);
    ids.message = stored.id;
  });
  after(() => service?.close());

  /** A path of the operation naming real records of the granted tenant. */
  function concrete(template: string): string {
    const resourceOf = (segment: string) =>
      ({ Patient: 'residents', residents: 'residents', coverage: 'coverage', Coverage: 'coverage', Observation: 'observations', AllergyIntolerance: 'allergies', CoverageEligibilityResponse: 'eligibility', Condition: 'conditions', ServiceRequest: 'service_requests', MedicationRequest: 'medication_requests', DiagnosticReport: 'diagnostic_reports', webhooks: 'subscription', Subscription: 'fhirSubscription', Basic: 'topic' })[segment];
    const parts = template.split('/');
    return parts
      .map((part, i) => {
        if (part === '{org_id}') return t.orgA;
        if (part === '{facility_id}') return t.a1;
        if (part === '{event_id}') return ids.event;
        if (part === '{job_id}') return ids.job;
        if (part === '{file}') return 'Patient.ndjson';
        if (part === '{name}') return 'console.css';
        if (part === '{delivery_id}') return ids.delivery;
        if (part === '{message_id}') return ids.message;
        if (/^\{.+\}$/.test(part)) return ids[resourceOf(parts[i - 1]!) ?? ''] ?? part;
        return part;
      })
      .join('/');
  }

  const document = openApiDocumentCopy() as unknown as { paths: Record<string, Record<string, { operationId: string }>> };
  // A Bulk Data kick-off by GET starts an export (the IG allows GET for it): not a read to
  // repeat as HEAD here.
  const gets = Object.entries(document.paths).flatMap(([path, item]) => (item.get && !item.get.operationId.startsWith('kickOff') ? [{ path, operationId: item.get.operationId }] : []));

  it('covers every GET operation of the contract', () => {
    expect(gets.length).to.be.at.least(30);
    expect(gets.map((g) => g.operationId)).to.include.members(['listEvents', 'getEvent', 'listWebhookDeliveries', 'getWebhook', 'listCoverage']);
  });

  for (const { path, operationId } of gets) {
    it(`${operationId}: the same status and headers, no body`, async () => {
      const target = concrete(path);
      expect(target, 'every path parameter filled').to.not.match(/[{}]/);
      const cookie = target.startsWith('/console') ? consoleCookie : undefined;
      const get = await send(service.baseUrl, 'GET', target, t.fullToken, cookie);
      const head = await send(service.baseUrl, 'HEAD', target, t.fullToken, cookie);
      // /metrics is off unless the operator turns it on: its 404 is the answer to compare.
      if (operationId !== 'getMetrics') expect(get.status, `GET ${target}`).to.be.within(200, 299);
      expect(head.status).to.equal(get.status);
      expect(comparable(head.headers)).to.deep.equal(comparable(get.headers));
      expect(head.body.length).to.equal(0);
      expect(get.body.length).to.be.above(0);
    });
  }

  it('lists HEAD in Allow beside GET when a method is not allowed', async () => {
    const answer = await call(service.baseUrl, 'PUT', `/api/v1/ofctx/${t.orgA}/events`, { token: t.fullToken });
    expect(answer.status).to.equal(405);
    expect(answer.headers.get('allow')).to.equal('GET, HEAD');
  });
});
