// POST /api/v1/ingest/{org_id}/{facility_id}/fhir over HTTP: Bundles, NDJSON, FHIR answers,
// OperationOutcome failures, and the separation of ingest and partner credentials.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor } from '../../../test/support/http.js';
import { bundle, ingestPath, postBundle, postNdjson } from '../../../test/support/ingest.js';
import { byMrn, coverage, MRN, observation, patient, serviceRequest } from '../../../test/support/fhir-resources.js';
import { createClient, revokeClient, type IssuedClient } from '../../src/auth/clients.js';
import { sqliteDriverPath } from '../../src/db/sqlite-driver.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the ingest endpoint', function () {
  this.timeout(60_000);
  let service: TestService;
  let org: string;
  let f1: string;
  let f2: string;
  let source: IssuedClient;
  let token: string;
  let partnerToken: string;

  before(async () => {
    service = await startTestService({ env: { INGEST_MAX_BUNDLE_BYTES: '20000' } });
    org = (await service.seed.org()).id;
    f1 = (await service.seed.facility(org, 'F1')).id;
    f2 = (await service.seed.facility(org, 'F2')).id;
    source = await createClient(service.running.app.db, { orgId: org, facilityIds: [f1], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' });
    token = await tokenFor(service.baseUrl, source);
    partnerToken = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [f1, f2], scopes: ALL_SCOPES }));
  });
  after(() => service?.close());

  const post = (body: unknown, facility = f1, t: string | undefined = token) => postBundle(service.baseUrl, t, org, facility, body);
  const issues = (body: { issue: Array<{ diagnostics: string }> }) => body.issue.map((i) => i.diagnostics).join(' | ');

  it('applies a transaction Bundle: 201 Created with locations, then the same Bundle again is 200 OK with nothing new', async () => {
    const url = 'urn:uuid:0f4c3a52-7d1e-4d7a-9a57-55d0b3f1e001';
    const body = bundle('transaction', [
      { resource: patient('H-1'), fullUrl: url },
      { resource: coverage({ reference: url }, 'HC-1') },
      { resource: observation({ reference: url }, 'HO-1') },
    ]);
    const first = await post(body);
    expect(first.status).to.equal(200);
    expect(first.headers.get('content-type')).to.match(/^application\/fhir\+json/);
    expect(first.body.type).to.equal('transaction-response');
    expect(first.body.entry.map((e: any) => e.response.status)).to.deep.equal(['201 Created', '201 Created', '201 Created']);
    const location = first.body.entry[0].response.location as string;
    expect(location).to.match(/^Patient\/[0-9a-f-]{36}$/);
    expect(first.body.entry[0].response.etag).to.equal('W/"1"');
    const events = await service.running.app.db('webhook_events').count({ n: '*' }).first();

    const again = await post(body);
    expect(again.body.entry.map((e: any) => e.response.status)).to.deep.equal(['200 OK', '200 OK', '200 OK']);
    expect(again.body.entry[0].response.location).to.equal(location);
    expect(again.body.entry[0].response.etag).to.equal('W/"1"');
    expect(await service.running.app.db('webhook_events').count({ n: '*' }).first()).to.deep.equal(events);
  });

  it('records every write in the audit trail with the ingest credential and the request id', async () => {
    const response = await post(bundle('batch', [{ resource: patient('H-2') }]));
    const id = (response.body.entry[0].response.location as string).split('/')[1];
    const writes = await service.running.app.db('ingest_writes').where({ resource_id: id });
    expect(writes.map((w) => [w.actor, w.outcome, w.request_id])).to.deep.equal([[source.client_id, 'created', response.headers.get('x-request-id')]]);
    const audit = await service.running.app.db('audit_events').where({ request_id: response.headers.get('x-request-id') }).first();
    expect(audit).to.include({ operation: 'ingestFhir', client_id: source.client_id, status: 200 });
    expect(JSON.parse(audit.resource_ids)).to.deep.equal([id]);
  });

  it('refuses a whole transaction when one entry cannot be applied: 422 OperationOutcome naming it, nothing written', async () => {
    const response = await post(bundle('transaction', [{ resource: patient('H-3') }, { resource: coverage(byMrn('nobody'), 'HC-3') }]));
    expect(response.status).to.equal(422);
    expect(response.body.resourceType).to.equal('OperationOutcome');
    expect(issues(response.body)).to.contain('Bundle.entry[1]').and.contain('nobody');
    expect(await service.running.app.db('resource_identifiers').where({ value: 'H-3' }).first()).to.equal(undefined);
  });

  it('refuses a transaction with an entry that is not valid FHIR R4: 400 naming the entry and field', async () => {
    const response = await post(bundle('transaction', [{ resource: patient('H-4') }, { resource: { ...patient('H-5'), birthDate: 'soon', favouriteColour: 'blue' } }]));
    expect(response.status).to.equal(400);
    expect(issues(response.body)).to.contain('Bundle.entry[1]');
    expect(response.body.issue[0].expression.join()).to.match(/Patient\.(birthDate|favouriteColour)/);
    expect(await service.running.app.db('resource_identifiers').where({ value: 'H-4' }).first()).to.equal(undefined);
  });

  it('applies a batch entry by entry: good entries written, bad ones answered with their own status and outcome', async () => {
    const response = await post(bundle('batch', [{ resource: patient('H-6') }, { resource: patient('H-7', { gender: 'robot' }) }, { resource: coverage(byMrn('H-6'), 'HC-6') }]));
    expect(response.status).to.equal(200);
    expect(response.body.type).to.equal('batch-response');
    expect(response.body.entry.map((e: any) => e.response.status)).to.deep.equal(['201 Created', '422 Unprocessable Entity', '201 Created']);
    expect(response.body.entry[1].response.outcome.issue[0].diagnostics).to.contain('Patient.gender');
  });

  it('supports POST with ifNoneExist: an existing match is left as it is', async () => {
    await post(bundle('batch', [{ resource: patient('H-8') }]));
    const response = await post(bundle('batch', [{ resource: patient('H-8', { active: false }), request: { method: 'POST', url: 'Patient', ifNoneExist: `identifier=${MRN}|H-8` } }]));
    expect(response.body.entry[0].response.status).to.equal('200 OK');
    expect(response.body.entry[0].response.etag).to.equal('W/"1"');
  });

  describe('request.ifMatch (optimistic concurrency)', () => {
    const put = (resource: Record<string, unknown>, ifMatch: string, url?: string) => {
      const identifier = (resource.identifier as Array<{ system: string; value: string }>)[0]!;
      return { resource, request: { method: 'PUT', url: url ?? `${resource.resourceType as string}?identifier=${identifier.system}|${identifier.value}`, ifMatch } };
    };
    const preconditionCodes = (outcome: { issue: Array<{ code: string; details?: { coding: Array<{ code: string }> } }> }) =>
      outcome.issue.map((i) => [i.code, i.details?.coding[0]?.code]);

    it('batch: an entry at the current version (W/"n" or "n") is applied; a stale one alone is 412 Precondition Failed', async () => {
      const created = await post(bundle('batch', [{ resource: patient('M-1') }]));
      const location = created.body.entry[0].response.location as string;
      const current = await post(bundle('batch', [put(patient('M-1', { gender: 'other' }), created.body.entry[0].response.etag)]));
      expect(current.status).to.equal(200);
      expect(current.body.entry[0].response).to.include({ status: '200 OK', location, etag: 'W/"2"' });
      const strong = await post(bundle('batch', [put(patient('M-1', { gender: 'unknown' }), '"2"', location)]));
      expect(strong.body.entry[0].response).to.include({ status: '200 OK', etag: 'W/"3"' });

      const stale = await post(bundle('batch', [put(patient('M-1', { gender: 'male' }), 'W/"2"'), { resource: patient('M-2') }]));
      expect(stale.status).to.equal(200);
      expect(stale.body.entry.map((e: any) => e.response.status)).to.deep.equal(['412 Precondition Failed', '201 Created']);
      const outcome = stale.body.entry[0].response.outcome;
      expect(preconditionCodes(outcome)).to.deep.equal([['conflict', 'precondition_failed']]);
      expect(outcome.issue[0].diagnostics).to.contain('Bundle.entry[0]').and.contain('is at version 3');
      expect(await service.running.app.db('residents').where({ id: location.split('/')[1] }).first()).to.include({ gender: 'unknown', version_id: 3 });
    });

    it('transaction: a stale entry refuses the whole transaction with 412 and an OperationOutcome naming it; nothing is written', async () => {
      const url = 'urn:uuid:0f4c3a52-7d1e-4d7a-9a57-55d0b3f1e0aa';
      const created = await post(bundle('transaction', [{ resource: patient('M-3'), fullUrl: url }, { resource: coverage({ reference: url }, 'MC-3') }]));
      expect(created.status).to.equal(200);
      const coverageId = (created.body.entry[1].response.location as string).split('/')[1];
      const current = await post(bundle('transaction', [put(coverage(byMrn('M-3'), 'MC-3', { status: 'cancelled' }), 'W/"1"')]));
      expect(current.status).to.equal(200);
      expect(current.body.entry[0].response).to.include({ status: '200 OK', etag: 'W/"2"' });

      const stale = await post(bundle('transaction', [{ resource: patient('M-4') }, put(coverage(byMrn('M-3'), 'MC-3', { order: 3 }), 'W/"1"')]));
      expect(stale.status).to.equal(412);
      expect(stale.body.resourceType).to.equal('OperationOutcome');
      expect(preconditionCodes(stale.body)).to.deep.equal([['conflict', 'precondition_failed']]);
      expect(issues(stale.body)).to.contain('Bundle.entry[1]').and.contain(`Coverage/${coverageId} is at version 2`);
      expect(await service.running.app.db('resource_identifiers').where({ value: 'M-4' }).first()).to.equal(undefined);
      expect(await service.running.app.db('coverage').where({ id: coverageId }).first()).to.include({ status: 'cancelled', coverage_order: 1, version_id: 2 });
      // A stale version beside an entry that cannot be applied at all: 422, both named.
      const mixed = await post(bundle('transaction', [put(coverage(byMrn('M-3'), 'MC-3'), 'W/"1"'), { resource: coverage(byMrn('nobody'), 'MC-5') }]));
      expect(mixed.status).to.equal(422);
      expect(issues(mixed.body)).to.contain('Bundle.entry[0]').and.contain('Bundle.entry[1]');
    });

    it('refuses an ifMatch that is not a version ETag, or on a POST, as 400 naming request.ifMatch', async () => {
      const notAnEtag = await post(bundle('transaction', [put(patient('M-6'), 'yesterday')]));
      expect(notAnEtag.status).to.equal(400);
      expect(notAnEtag.body.issue[0].expression).to.deep.equal(['Bundle.entry[0].request.ifMatch']);
      const onPost = await post(bundle('batch', [{ resource: patient('M-7'), request: { method: 'POST', url: 'Patient', ifMatch: 'W/"1"' } }]));
      expect(onPost.body.entry[0].response.status).to.equal('400 Bad Request');
      expect(onPost.body.entry[0].response.outcome.issue[0].expression).to.deep.equal(['Bundle.entry[0].request.ifMatch']);
    });
  });

  it('answers bad bodies with an OperationOutcome, never a 5xx', async () => {
    for (const [body, status] of [
      ['{not json', 400],
      ['', 400],
      [{ resourceType: 'Patient' }, 400],
      [{ resourceType: 'Bundle', type: 'collection', entry: [] }, 400],
      [{ resourceType: 'Bundle', type: 'batch', entry: {} }, 400],
      ['x'.repeat(30_000), 413],
    ] as const) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body).slice(0, 40)).to.equal(status);
      expect(response.body.resourceType).to.equal('OperationOutcome');
    }
    const wrongType = await call(service.baseUrl, 'POST', ingestPath(org, f1), { token, json: { resourceType: 'Bundle' } });
    expect(wrongType.status).to.equal(415);
    expect(wrongType.body.resourceType).to.equal('OperationOutcome');
  });

  it('streams NDJSON: a summary of created, updated, unchanged, rejected lines and events', async () => {
    const lines = [patient('N-1'), patient('N-2'), '{oops', { resourceType: 'Encounter', id: 'x' }, coverage(byMrn('N-1'), 'NC-1'), '', patient('N-3', { birthDate: '1941' })];
    const first = await postNdjson(service.baseUrl, token, org, f1, lines);
    expect(first.status).to.equal(200);
    expect(first.body).to.include({ created: 3, updated: 0, unchanged: 0, rejected_count: 3, events: 3 });
    expect(first.body.rejected.map((r: { line: number }) => r.line)).to.deep.equal([3, 4, 7]);
    const again = await postNdjson(service.baseUrl, token, org, f1, [patient('N-1'), patient('N-2', { active: false })]);
    expect(again.body).to.include({ created: 0, updated: 1, unchanged: 1, events: 1 });
  });

  describe('ServiceRequest', () => {
    const orderEvents = async () => Number((await service.running.app.db('webhook_events').where({ org_id: org, event_type: 'clinical.order.created' }).count({ n: '*' }).first())!.n);

    it('a transaction creates it (201, clinical.order.created); the same Bundle again is 200 OK with no event', async () => {
      const url = 'urn:uuid:0f4c3a52-7d1e-4d7a-9a57-55d0b3f1e0a1';
      const body = bundle('transaction', [{ resource: patient('SR-1'), fullUrl: url }, { resource: serviceRequest({ reference: url }, 'SRO-1') }]);
      const before = await orderEvents();
      const first = await post(body);
      expect(first.status).to.equal(200);
      expect(first.body.entry[1].response).to.include({ status: '201 Created', etag: 'W/"1"' });
      expect(first.body.entry[1].response.location).to.match(/^ServiceRequest\/[0-9a-f-]{36}$/);
      expect(await orderEvents()).to.equal(before + 1);
      const again = await post(body);
      expect(again.body.entry.map((e: any) => e.response.status)).to.deep.equal(['200 OK', '200 OK']);
      expect(again.body.entry[1].response.location).to.equal(first.body.entry[1].response.location);
      expect(await orderEvents()).to.equal(before + 1);
    });

    it('an update (PUT ServiceRequest?identifier=) is version 2 and emits no clinical.order.created', async () => {
      await post(bundle('batch', [{ resource: patient('SR-2') }, { resource: serviceRequest(byMrn('SR-2'), 'SRO-2') }]));
      const before = await orderEvents();
      const updated = await post(bundle('batch', [{ resource: serviceRequest(byMrn('SR-2'), 'SRO-2', { status: 'completed' }) }]));
      expect(updated.body.entry[0].response).to.include({ status: '200 OK', etag: 'W/"2"' });
      expect(await orderEvents()).to.equal(before);
    });

    it('refuses a ServiceRequest that is not valid FHIR R4: 400 OperationOutcome naming the missing field', async () => {
      for (const missing of ['status', 'intent', 'subject']) {
        const resource: Record<string, unknown> = serviceRequest(byMrn('SR-3'), `SRO-3-${missing}`);
        delete resource[missing];
        const response = await post(bundle('transaction', [{ resource: patient('SR-3') }, { resource }]));
        expect(response.status, missing).to.equal(400);
        expect(response.body.resourceType).to.equal('OperationOutcome');
        expect(issues(response.body)).to.contain('Bundle.entry[1]');
        expect(response.body.issue[0].expression.join(), missing).to.contain(`ServiceRequest.${missing}`);
      }
      expect(await service.running.app.db('resource_identifiers').where({ value: 'SR-3' }).first()).to.equal(undefined);
    });

    it('refuses a status or intent outside R4, and a resident of another facility: 422 naming the field', async () => {
      const other = await service.seed.facility(org, 'F3');
      const elsewhere = await createClient(service.running.app.db, { orgId: org, facilityIds: [other.id], scopes: ['ingest.write'], name: 'F3 EHR', kind: 'ingest' });
      const moved = await postBundle(service.baseUrl, await tokenFor(service.baseUrl, elsewhere), org, other.id, bundle('batch', [{ resource: patient('SR-5') }]));
      const residentElsewhere = moved.body.entry[0].response.location as string;
      await post(bundle('batch', [{ resource: patient('SR-4') }]));
      for (const [resource, field] of [
        [serviceRequest(byMrn('SR-4'), 'SRO-4a', { status: 'done' }), 'ServiceRequest.status'],
        [serviceRequest(byMrn('SR-4'), 'SRO-4b', { intent: 'wish' }), 'ServiceRequest.intent'],
        [serviceRequest({ reference: residentElsewhere }, 'SRO-4c'), 'ServiceRequest.subject'],
      ] as const) {
        const response = await post(bundle('transaction', [{ resource }]));
        expect(response.status, field).to.equal(422);
        expect(response.body.resourceType).to.equal('OperationOutcome');
        expect(response.body.issue[0].expression, field).to.deep.equal([field]);
      }
      const forbidden = await post(bundle('transaction', [{ resource: serviceRequest({ reference: residentElsewhere }, 'SRO-4d') }]));
      expect(issues(forbidden.body)).to.contain('another facility');
    });

    it('streams as NDJSON lines like the other types', async () => {
      const first = await postNdjson(service.baseUrl, token, org, f1, [patient('SR-6'), serviceRequest(byMrn('SR-6'), 'SRO-6'), serviceRequest(byMrn('SR-6'), 'SRO-6b', { intent: 'wish' })]);
      expect(first.body).to.include({ created: 2, rejected_count: 1, events: 2 });
      expect(first.body.rejected[0]).to.include({ line: 3 });
      const again = await postNdjson(service.baseUrl, token, org, f1, [serviceRequest(byMrn('SR-6'), 'SRO-6')]);
      expect(again.body).to.include({ created: 0, unchanged: 1, events: 0 });
    });
  });

  it('answers 503 with Retry-After, not a 500, when another process holds the SQLite writer too long', async function () {
    if (service.database.kind !== 'sqlite') this.skip();
    this.timeout(60_000);
    // Another process (as `ops import` would be) takes the write lock and keeps it 9 s: past the
    // ingest's 5 s busy timeout even if the request reaches the database up to 4 s after the
    // lock was taken (a loaded machine), and within the audit record's own 5 s after it.
    // The service has one SQLite connection: a background writer of its own (such as the
    // disclosure index's catch-up) that starts waiting on the same lock first holds it for its
    // 5 s, and the ingest then reaches the lock late and outlasts it (200; seen once in a CI
    // rehearsal on Node.js 20).
    // Such a try is not the case under test: it is made again, up to three times.
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const holder = spawn(process.execPath, ['-e', `
        const db = new (require(process.argv[2]))(process.argv[1]);
        db.exec('BEGIN IMMEDIATE');
        console.log('locked');
        setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, 9000);
      `, service.database.url.slice('sqlite:'.length), sqliteDriverPath()], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = once(holder, 'exit');
      await once(holder.stdout!, 'data');
      const mrn = `BUSY-${attempt}`;
      const response = await post(bundle('batch', [{ resource: patient(mrn) }]));
      await exited;
      statuses.push(response.status);
      expect(response.status, `try ${attempt}`).to.be.oneOf([503, 200]);
      if (response.status !== 503) continue;
      expect(response.headers.get('retry-after')).to.equal('5');
      expect(response.body.resourceType).to.equal('OperationOutcome');
      expect(await service.running.app.db('resource_identifiers').where({ value: mrn }).first()).to.equal(undefined);
      return;
    }
    expect.fail(`no try reached the lock in time to be refused: ${statuses.join(', ')}`);
  });

  describe('ingest and partner credentials never mix', () => {
    it('an ingest credential cannot read the partner endpoints', async () => {
      const response = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${org}/${f1}/residents`, { token });
      expect(response.status).to.equal(403);
      expect(response.body.error.code).to.equal('insufficient_scope');
    });

    it('a partner credential cannot ingest, and cannot be given ingest.write', async () => {
      const response = await post(bundle('batch', [{ resource: patient('P-1') }]), f1, partnerToken);
      expect(response.status).to.equal(403);
      expect(response.body.issue[0].details.coding[0].code).to.equal('insufficient_scope');
      let refused: Error | undefined;
      try {
        await createClient(service.running.app.db, { orgId: org, facilityIds: [f1], scopes: ['residents.read', 'ingest.write'], name: 'sneaky' });
      } catch (error) {
        refused = error as Error;
      }
      expect(refused?.message).to.contain('cannot hold ingest.write');
    });

    it('an ingest credential gets no partner scope from the token endpoint', async () => {
      const response = await call(service.baseUrl, 'POST', '/api/v1/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: source.client_id, client_secret: source.client_secret, scope: 'residents.read' },
      });
      expect(response.status).to.equal(400);
      expect(response.body.error).to.equal('invalid_scope');
    });

    it('an ingest credential writes only to its own facilities and organization', async () => {
      const other = await post(bundle('batch', [{ resource: patient('P-2') }]), f2);
      expect(other.status).to.equal(403);
      expect(other.body.issue[0].details.coding[0].code).to.equal('facility_forbidden');
      const foreignOrg = (await service.seed.org()).id;
      const foreign = await postBundle(service.baseUrl, token, foreignOrg, f1, bundle('batch', [{ resource: patient('P-3') }]));
      expect(foreign.status).to.equal(403);
      const anonymous = await post(bundle('batch', [{ resource: patient('P-4') }]), f1, '');
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.resourceType).to.equal('OperationOutcome');
    });

    it('a revoked source stops writing', async () => {
      const revoked = await createClient(service.running.app.db, { orgId: org, facilityIds: [f1], scopes: ['ingest.write'], name: 'old EHR', kind: 'ingest' });
      const revokedToken = await tokenFor(service.baseUrl, revoked);
      await revokeClient(service.running.app.db, revoked.client_id);
      const deadline = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < deadline && status !== 401) {
        status = (await post(bundle('batch', [{ resource: patient('P-5') }]), f1, revokedToken)).status;
        if (status !== 401) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).to.equal(401);
    });
  });
});
