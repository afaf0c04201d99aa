// End to end, as partners search (issue 27): a system of record posts residents and records
// with its ingest credential; a partner finds them through the R4 view with fhir-kit-client
// and Medplum's client by the US Core search parameters and their combinations. Every answer
// is checked against the contract and every resource validated as R4.
import { expect } from 'chai';
import { Client } from 'fhir-kit-client';
import { MedplumClient } from '@medplum/core';
import { startTestService, ALL_SCOPES, type TestService } from '../support/service.js';
import { call, tokenFor } from '../support/http.js';
import { assertMatchesContract } from '../support/contract.js';
import { checkR4 } from '../support/r4-validator.js';
import { bundle, postBundle } from '../support/ingest.js';
import { allergy, byMrn, condition, coverage, medicationRequest, observation, patient, serviceRequest } from '../support/fhir-resources.js';
import { createClient } from '../../server/src/auth/clients.js';

type Resource = { resourceType: string; id: string; [element: string]: any };
type Bundle = { total: number; link: Array<{ relation: string; url: string }>; entry?: Array<{ resource: Resource; search: { mode: string } }> };

const MBI = 'http://hl7.org/fhir/sid/us-mbi';
const LOINC = 'http://loinc.org';

describe('partners search the R4 view as FHIR clients do (US Core)', function () {
  this.timeout(120_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let ingestToken: string;
  let token: string;
  let clinicalOnlyToken: string;
  let fhir: Client;
  let base: string;
  const ids: Record<string, string | undefined> = {};
  const realFetch = globalThis.fetch;

  async function ingest(type: 'transaction' | 'batch', resources: Array<Record<string, unknown>>) {
    const answer = await postBundle(service.baseUrl, ingestToken, orgId, facilityId, bundle(type, resources.map((resource) => ({ resource }))));
    expect(answer.status).to.equal(200);
    return answer.body.entry.map((e: { response: { location: string } }) => e.response.location.split('/')[1]!) as string[];
  }

  const idsOf = (b: Bundle, mode = 'match') => (b.entry ?? []).filter((e) => e.search.mode === mode).map((e) => e.resource.id);
  const search = (resourceType: string, searchParams: Record<string, string | string[]>, headers: Record<string, string> = {}) =>
    fhir.search({ resourceType, searchParams, options: { headers } }) as unknown as Promise<Bundle>;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'search')).id;
    const source = await createClient(service.running.app.db, { orgId, facilityIds: [facilityId], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' });
    ingestToken = await tokenFor(service.baseUrl, source);
    token = await tokenFor(service.baseUrl, await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES }));
    clinicalOnlyToken = await tokenFor(service.baseUrl, await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ['clinical.read'] }));
    base = `${service.baseUrl}/api/v1/fhir/R4/${orgId}/${facilityId}`;
    // Every answer a client gets is checked against the contract, every resource as R4.
    globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await realFetch(request);
      const text = await response.clone().text();
      const body = text === '' ? undefined : JSON.parse(text);
      await assertMatchesContract(request.method, request.url, response.status, response.headers, body);
      if (body?.resourceType) expect(checkR4(body), request.url).to.deep.equal([]);
      return response;
    };
    fhir = new Client({ baseUrl: base, bearerToken: token });

    [ids.okafor, ids.nunez, ids.nunezMale, ids.smith, ids.gone] = await ingest('transaction', [
      patient('S-1', { identifier: [{ system: 'https://ehr.example/fhir/sid/mrn', value: 'S-1' }, { system: MBI, value: '1EG4TE5MK73' }] }),
      patient('S-2', { name: [{ use: 'official', family: 'Núñez', given: ['María', 'José'] }], birthDate: '1938-07-02' }),
      patient('S-3', { name: [{ use: 'official', family: 'Nunez', given: ['Pedro'] }], gender: 'male', birthDate: '1950-01-15' }),
      patient('S-4', { name: [{ use: 'official', family: 'Smith', given: ['Okafor'] }], gender: 'male', birthDate: '1941-03-17' }),
      patient('S-5', { name: [{ use: 'official', family: 'Okafor-Bello', given: ['Ada'] }], active: false, birthDate: '1945-12-31' }),
    ]);
    [ids.heartRate, ids.weight, ids.laterHeartRate, ids.otherHeartRate] = await ingest('batch', [
      observation(byMrn('S-1'), 'O-1', { effectiveDateTime: '2026-11-01T08:00:00Z' }),
      observation(byMrn('S-1'), 'O-2', { code: { coding: [{ system: LOINC, code: '29463-7', display: 'Body weight' }] }, valueQuantity: { value: 61, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' }, effectiveDateTime: '2026-11-10T08:00:00Z' }),
      observation(byMrn('S-1'), 'O-3', { effectiveDateTime: '2026-11-20T08:00:00Z', status: 'amended' }),
      observation(byMrn('S-2'), 'O-4', { effectiveDateTime: '2026-11-20T09:00:00Z' }),
    ]);
    [ids.lab] = await ingest('batch', [
      observation(byMrn('S-1'), 'O-5', { code: { coding: [{ system: LOINC, code: '2345-7', display: 'Glucose' }] }, valueQuantity: { value: 5.4, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' } }),
    ]);
    [ids.activeAllergy, ids.resolvedAllergy] = await ingest('batch', [
      allergy(byMrn('S-1'), 'A-1'),
      allergy(byMrn('S-1'), 'A-2', { clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'resolved' }] } }),
    ]);
    [ids.coverage, ids.cancelledCoverage] = await ingest('batch', [
      coverage(byMrn('S-1'), 'MEMBER-77'),
      coverage(byMrn('S-1'), 'MEMBER-78', { status: 'cancelled', order: 2 }),
    ]);
    [ids.condition, ids.order, ids.medication] = await ingest('batch', [
      {
        ...condition(byMrn('S-1'), 'C-1'),
        category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item' }] }],
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      },
      { ...serviceRequest(byMrn('S-1'), 'SR-1'), category: [{ coding: [{ system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' }] }] },
      { ...medicationRequest(byMrn('S-1'), 'MR-1'), category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/medicationrequest-category', code: 'community' }] }] },
    ]);
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await service?.close();
  });

  it('finds a Patient by identifier: system|value, value alone, system| (any value)', async () => {
    expect(idsOf(await search('Patient', { identifier: `${MBI}|1EG4TE5MK73` }))).to.deep.equal([ids.okafor]);
    expect(idsOf(await search('Patient', { identifier: '1EG4TE5MK73' }))).to.deep.equal([ids.okafor]);
    expect(idsOf(await search('Patient', { identifier: 'https://ehr.example/fhir/sid/mrn|S-3' }))).to.deep.equal([ids.nunezMale]);
    expect((await search('Patient', { identifier: `${MBI}|` })).total).to.equal(5);
    expect((await search('Patient', { identifier: 'https://other.example|1EG4TE5MK73' })).total).to.equal(0);
    expect(idsOf(await search('Patient', { identifier: 'https://ehr.example/fhir/sid/mrn|S-2,https://ehr.example/fhir/sid/mrn|S-4' }))).to.deep.equal([ids.nunez, ids.smith]);
  });

  it('finds by name, family and given: starts with, ignoring case and accents; :exact and :contains', async () => {
    expect(idsOf(await search('Patient', { name: 'nunez' }))).to.deep.equal([ids.nunez, ids.nunezMale]);
    expect(idsOf(await search('Patient', { family: 'NÚÑ' }))).to.deep.equal([ids.nunez, ids.nunezMale]);
    expect(idsOf(await search('Patient', { 'family:exact': 'Núñez' }))).to.deep.equal([ids.nunez]);
    expect(idsOf(await search('Patient', { 'family:exact': 'núñez' }))).to.deep.equal([]);
    expect(idsOf(await search('Patient', { name: 'okafor' }))).to.deep.equal([ids.okafor, ids.smith, ids.gone]);
    expect(idsOf(await search('Patient', { family: 'okafor' }))).to.deep.equal([ids.okafor, ids.gone]);
    expect(idsOf(await search('Patient', { given: 'jos' }))).to.deep.equal([ids.nunez]);
    expect(idsOf(await search('Patient', { 'family:contains': 'bell' }))).to.deep.equal([ids.gone]);
    // `ada` starts Adaeze (the first resident's given name) as well as Ada.
    expect(idsOf(await search('Patient', { given: 'pedro,ada' }))).to.deep.equal([ids.okafor, ids.nunezMale, ids.gone]);
  });

  it('finds by birthdate at any precision and with prefixes, by gender and active, and their US Core combinations', async () => {
    expect(idsOf(await search('Patient', { birthdate: '1941-03-17' }))).to.deep.equal([ids.okafor, ids.smith]);
    expect(idsOf(await search('Patient', { birthdate: '1938' }))).to.deep.equal([ids.nunez]);
    expect(idsOf(await search('Patient', { birthdate: '1945-12' }))).to.deep.equal([ids.gone]);
    expect(idsOf(await search('Patient', { birthdate: ['ge1941-03-17', 'lt1946'] }))).to.deep.equal([ids.okafor, ids.smith, ids.gone]);
    expect(idsOf(await search('Patient', { birthdate: 'gt1945-12-31' }))).to.deep.equal([ids.nunezMale]);
    expect(idsOf(await search('Patient', { birthdate: 'le1938-07-02' }))).to.deep.equal([ids.nunez]);
    expect(idsOf(await search('Patient', { birthdate: 'ne1941-03-17' }))).to.deep.equal([ids.nunez, ids.nunezMale, ids.gone]);
    expect(idsOf(await search('Patient', { gender: 'male' }))).to.deep.equal([ids.nunezMale, ids.smith]);
    expect(idsOf(await search('Patient', { gender: 'http://hl7.org/fhir/administrative-gender|female' }))).to.deep.equal([ids.okafor, ids.nunez, ids.gone]);
    expect(idsOf(await search('Patient', { active: 'false' }))).to.deep.equal([ids.gone]);
    expect(idsOf(await search('Patient', { name: 'okafor', birthdate: '1941-03-17' }))).to.deep.equal([ids.okafor, ids.smith]);
    expect(idsOf(await search('Patient', { name: 'okafor', gender: 'female' }))).to.deep.equal([ids.okafor, ids.gone]);
    expect(idsOf(await search('Patient', { family: 'nunez', gender: 'male' }))).to.deep.equal([ids.nunezMale]);
    // Ties keep insertion order, reversed with `-`.
    expect(idsOf(await search('Patient', { name: 'okafor', _sort: '-birthdate' }))).to.deep.equal([ids.gone, ids.smith, ids.okafor]);
  });

  it('finds Observations by patient/subject with category, code, date and status (US Core combinations), sorted by date', async () => {
    const vitals = await search('Observation', { patient: ids.okafor!, category: 'vital-signs' });
    expect(idsOf(vitals)).to.deep.equal([ids.heartRate, ids.weight, ids.laterHeartRate]);
    expect(idsOf(await search('Observation', { subject: `Patient/${ids.okafor}`, category: 'http://terminology.hl7.org/CodeSystem/observation-category|laboratory' }))).to.deep.equal([]);
    expect(idsOf(await search('Observation', { patient: ids.okafor!, code: `${LOINC}|8867-4` }))).to.deep.equal([ids.heartRate, ids.laterHeartRate]);
    expect(idsOf(await search('Observation', { patient: ids.okafor!, code: '2345-7' }))).to.deep.equal([ids.lab]);
    expect(idsOf(await search('Observation', { patient: ids.okafor!, category: 'vital-signs', date: ['ge2026-11-05', 'lt2026-11-20'] }))).to.deep.equal([ids.weight]);
    expect(idsOf(await search('Observation', { patient: ids.okafor!, category: 'vital-signs', date: '2026-11' }))).to.deep.equal([ids.heartRate, ids.weight, ids.laterHeartRate]);
    expect(idsOf(await search('Observation', { code: `${LOINC}|8867-4`, date: 'gt2026-11-20T08:00:00Z' }))).to.deep.equal([ids.otherHeartRate]);
    expect(idsOf(await search('Observation', { status: 'amended' }))).to.deep.equal([ids.laterHeartRate]);
    expect(idsOf(await search('Observation', { patient: ids.okafor!, category: 'vital-signs', _sort: '-date' }))).to.deep.equal([ids.laterHeartRate, ids.weight, ids.heartRate]);
  });

  it('finds AllergyIntolerance by patient and clinical-status, Coverage by beneficiary, identifier and status', async () => {
    expect(idsOf(await search('AllergyIntolerance', { patient: ids.okafor!, 'clinical-status': 'active' }))).to.deep.equal([ids.activeAllergy]);
    expect(idsOf(await search('AllergyIntolerance', { patient: ids.okafor!, 'clinical-status': 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical|resolved' }))).to.deep.equal([ids.resolvedAllergy]);
    expect(idsOf(await search('Coverage', { identifier: 'https://ehr.example/fhir/sid/coverage|MEMBER-77' }))).to.deep.equal([ids.coverage]);
    expect(idsOf(await search('Coverage', { beneficiary: `Patient/${ids.okafor}`, status: 'cancelled' }))).to.deep.equal([ids.cancelledCoverage]);
    expect(idsOf(await search('Coverage', { patient: ids.okafor!, status: 'active,cancelled' }))).to.deep.equal([ids.coverage, ids.cancelledCoverage]);
  });

  it('finds Condition, ServiceRequest and MedicationRequest by patient with category, clinical-status and code', async () => {
    const found = await search('Condition', { patient: ids.okafor!, category: 'problem-list-item', 'clinical-status': 'active', code: 'http://snomed.info/sct|44054006' });
    expect(idsOf(found)).to.deep.equal([ids.condition]);
    expect(found.entry![0]!.resource.category[0].coding[0].code).to.equal('problem-list-item');
    expect((await search('Condition', { patient: ids.okafor!, category: 'encounter-diagnosis' })).total).to.equal(0);
    expect(idsOf(await search('ServiceRequest', { subject: ids.okafor!, category: 'http://snomed.info/sct|108252007', code: '24323-8', status: 'active' }))).to.deep.equal([ids.order]);
    expect(idsOf(await search('MedicationRequest', { patient: ids.okafor!, category: 'community', code: '860975', intent: 'order' }))).to.deep.equal([ids.medication]);
  });

  it('pages by keyset through next links that carry the search: nothing skipped or repeated while records are written', async () => {
    const seen: string[] = [];
    let page = await search('Patient', { gender: 'female,male', _sort: 'birthdate', _count: '2' });
    const next = page.link.find((l) => l.relation === 'next')!.url;
    expect(next).to.include('gender=female%2Cmale').and.include('_sort=birthdate').and.include('_cursor=');
    seen.push(...idsOf(page));
    // Written during the walk: a resident born later than everyone comes at the end, once.
    const [late] = await ingest('batch', [patient('S-6', { name: [{ family: 'Late' }], birthDate: '1960-05-05' })]);
    for (;;) {
      const following = (await fhir.nextPage({ bundle: page as never })) as Bundle | undefined;
      if (!following) break;
      page = following;
      seen.push(...idsOf(page));
    }
    expect(seen).to.deep.equal([ids.nunez, ids.okafor, ids.smith, ids.gone, ids.nunezMale, late]);
    // A cursor only continues the search it was made for.
    const cursor = new URL(next).searchParams.get('_cursor')!;
    const other = await call(service.baseUrl, 'GET', `${new URL(base).pathname}/Patient?gender=male&_sort=birthdate&_count=2&_cursor=${cursor}`, { token, headers: { accept: 'application/fhir+json' } });
    expect(other.status).to.equal(400);
    expect(other.body.issue[0].expression).to.deep.equal(['query._cursor']);
  });

  it('answers _summary=count, _include of the resident, and POST [type]/_search as the GET', async () => {
    const counted = await search('Observation', { patient: ids.okafor!, _summary: 'count' });
    expect(counted.total).to.equal(4);
    expect(counted.entry).to.equal(undefined);
    // FHIR R4 (search.html#count): _count=0 is treated as _summary=count, no entries and no next link.
    const zero = await search('Observation', { patient: ids.okafor!, _count: '0' });
    expect(zero.total).to.equal(4);
    expect(zero.entry).to.equal(undefined);
    expect(zero.link.map((link) => link.relation)).to.deep.equal(['self']);
    expect(zero.link[0]!.url).to.equal(`${base}/Observation?patient=${ids.okafor}&_count=0`);
    const included = await search('Observation', { code: `${LOINC}|8867-4`, _include: 'Observation:patient' });
    expect(idsOf(included)).to.deep.equal([ids.heartRate, ids.laterHeartRate, ids.otherHeartRate]);
    expect(idsOf(included, 'include')).to.deep.equal([ids.okafor, ids.nunez]);
    expect(idsOf(await search('Coverage', { identifier: 'MEMBER-77', _include: 'Coverage:beneficiary' }), 'include')).to.deep.equal([ids.okafor]);
    expect(idsOf(await search('AllergyIntolerance', { 'clinical-status': 'active', _include: 'AllergyIntolerance:patient:Patient' }), 'include')).to.deep.equal([ids.okafor]);
    // Including residents needs residents.read as well.
    const clinicalOnly = new Client({ baseUrl: base, bearerToken: clinicalOnlyToken });
    const refused = await clinicalOnly.search({ resourceType: 'Observation', searchParams: { _include: 'Observation:patient' } }).catch((error: { response: { status: number } }) => error.response.status);
    expect(refused).to.equal(403);
    const byPost = (await fhir.search({ resourceType: 'Patient', searchParams: { name: 'okafor', birthdate: '1941-03-17' }, options: { postSearch: true } })) as unknown as Bundle;
    expect(idsOf(byPost)).to.deep.equal([ids.okafor, ids.smith]);
    expect(byPost.link[0]!.url).to.equal(`${base}/Patient?name=okafor&birthdate=1941-03-17`);
  });

  it('ignores a parameter it does not support (not in the self link), or refuses it with Prefer: handling=strict', async () => {
    const lenient = await search('Patient', { name: 'okafor', 'address-city': 'Springfield', 'name:fuzzy': 'x', _sort: 'family' });
    expect(idsOf(lenient)).to.deep.equal([ids.okafor, ids.smith, ids.gone]);
    expect(lenient.link[0]!.url).to.equal(`${base}/Patient?name=okafor`);
    for (const [name, value] of [['address-city', 'Springfield'], ['name:fuzzy', 'x'], ['_sort', 'family'], ['_summary', 'true'], ['_include', 'Patient:organization']]) {
      const strict = await search('Patient', { [name!]: value! }, { Prefer: 'handling=strict' }).catch((error: { response: { status: number; data: Resource } }) => error.response);
      expect((strict as { status: number }).status, name).to.equal(400);
      expect((strict as { data: Resource }).data.issue[0].expression, name).to.deep.equal([`query.${name}`]);
    }
  });

  it('keeps the name index with the record: a renamed resident is found by the new name only', async () => {
    await ingest('batch', [patient('S-4', { name: [{ use: 'official', family: 'Adeyemi', given: ['Tunde'] }], gender: 'male', birthDate: '1941-03-17' })]);
    expect(idsOf(await search('Patient', { family: 'adeye' }))).to.deep.equal([ids.smith]);
    expect(idsOf(await search('Patient', { family: 'smith' }))).to.deep.equal([]);
    expect(idsOf(await search('Patient', { name: 'okafor' }))).to.deep.equal([ids.okafor, ids.gone]);
  });

  it("Medplum's client searches the same way", async () => {
    const medplum = new MedplumClient({ baseUrl: service.baseUrl, fhirUrlPath: new URL(base).pathname.slice(1), fetch: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init) });
    medplum.setAccessToken(token);
    const found = await medplum.searchResources('Patient', { identifier: `${MBI}|1EG4TE5MK73` });
    expect(found.map((p) => p.id)).to.deep.equal([ids.okafor]);
    const vitals = await medplum.searchResources('Observation', { patient: `Patient/${ids.okafor}`, category: 'vital-signs', date: 'ge2026-11-10' });
    expect(vitals.map((o) => o.id)).to.deep.equal([ids.weight, ids.laterHeartRate]);
  });

  // Last: it adds a resident the earlier tests do not count.
  it('keeps a Patient sent without a birthDate (0..1): read without one, never matched by birthdate, first by _sort=birthdate and last by -birthdate, across pages', async () => {
    const [unborn] = await ingest('batch', [patient('S-7', { name: [{ use: 'official', family: 'Undated' }], birthDate: undefined })]);
    const read = (await fhir.read({ resourceType: 'Patient', id: unborn! })) as unknown as Record<string, unknown>;
    expect(read).to.not.have.property('birthDate');
    expect(idsOf(await search('Patient', { birthdate: 'lt2100' }))).to.not.include(unborn);
    expect(idsOf(await search('Patient', { birthdate: 'ne1941-03-17' }))).to.not.include(unborn);
    const walk = async (sort: string) => {
      const seen: string[] = [];
      let page: Bundle | undefined = await search('Patient', { _sort: sort, _count: '2' });
      while (page) {
        seen.push(...idsOf(page));
        page = (await fhir.nextPage({ bundle: page as never })) as Bundle | undefined;
      }
      return seen;
    };
    const ascending = await walk('birthdate');
    expect(ascending[0]).to.equal(unborn);
    expect(new Set(ascending).size).to.equal(ascending.length);
    expect(await walk('-birthdate')).to.deep.equal([...ascending].reverse());
  });
});
