// The read-only FHIR resources: shapes, pagination, filters, identifiers as held, bad input.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';
import { seedTenants, RESOURCE_ENDPOINTS, type Tenants } from '../../../test/support/tenants.js';
import { touchCoverage } from '../../../test/support/resource-changes.js';
import { rowsBySeq } from '../../src/resources/resource-rows.js';
import type { ResourceRow } from '../../src/db/resource-row.js';
import { RecordFilter } from '../../src/tenancy/record-visibility.js';
import { DEFAULT_POLICY } from '../../src/tenancy/access-policy.js';
import { createChangeTrigger, dropChangeTrigger } from '../../src/db/migrations/030_facility_resource_changes.js';

describe('the resource endpoints', () => {
  let service: TestService;
  let t: Tenants;
  let base: string;
  const get = (path: string, token = t.fullToken) => call(service.baseUrl, 'GET', path, { token });

  before(async () => {
    service = await startTestService();
    t = await seedTenants(service, 15);
    base = `/api/v1/ofctx/${t.orgA}/${t.a1}`;
  });
  after(() => service.close());

  for (const endpoint of RESOURCE_ENDPOINTS) {
    it(`pages through every ${endpoint.name} row exactly once, in a stable order, with the total`, async () => {
      const expected = await service.running.app.db(endpoint.table).where({ facility_id: t.a1 }).orderBy('seq').pluck('id');
      const seen: string[] = [];
      for (let page = 1; page <= 100; page++) {
        const response = await get(`${base}/${endpoint.list}?page=${page}&page_size=13`);
        expect(response.status).to.equal(200);
        const { next, ...numbered } = response.body.meta.page;
        expect(numbered).to.deep.equal({ page, page_size: 13, total: expected.length });
        // The keyset cursor of the following page, on every page but the last.
        expect(next !== undefined, `next on page ${page}`).to.equal(page * 13 < expected.length);
        expect(response.body.error).to.equal(null);
        if (response.body.data.length === 0) break;
        seen.push(...response.body.data.map((r: { id: string }) => r.id));
      }
      expect(seen).to.deep.equal(expected);
    });
  }

  for (const reads of [1, 30]) {
    // After 30 reads of one page its rows' texts are kept, and the list reads only their keys.
    it(`lists a changed row at its new version on the next page read, the others as they were (after ${reads} read${reads > 1 ? 's' : ''})`, async () => {
      let first = await get(`${base}/coverage?page_size=5`);
      for (let i = 1; i < reads; i++) {
        const again = await get(`${base}/coverage?page_size=5`);
        expect(again.body).to.deep.equal(first.body);
        first = again;
      }
      const changed = first.body.data[reads > 1 ? 3 : 2];
      const touched = await touchCoverage(service.running.app.db, t.orgA, t.a1, changed.id, `relisted${reads}`);
      const again = await get(`${base}/coverage?page_size=5`);
      const at = reads > 1 ? 3 : 2;
      expect(again.body.data[at]).to.deep.include({ id: changed.id, subscriberId: `*****relisted${reads}`, meta: { versionId: String(touched.versionId), lastUpdated: touched.lastUpdated } });
      expect(again.body.data.filter((_: unknown, i: number) => i !== at)).to.deep.equal(first.body.data.filter((_: unknown, i: number) => i !== at));
      expect(again.headers.get('etag')).to.not.equal(first.headers.get('etag'));
    });
  }

  it('answers a page polled again byte for byte the same, each request still audited with the page\'s ids and residents', async () => {
    const path = `${base}/coverage?page_size=7&page=2`;
    const requestIds = [0, 1, 2, 3].map((i) => `poll-${i}-${randomUUID()}`);
    const answers = [];
    for (const requestId of requestIds) answers.push(await call(service.baseUrl, 'GET', path, { token: t.fullToken, headers: { 'x-request-id': requestId } }));
    for (const answer of answers) {
      expect(answer.status).to.equal(200);
      // The ETag is a digest of the bytes sent: the same tag, the same bytes.
      expect(answer.headers.get('etag')).to.equal(answers[0]!.headers.get('etag'));
      expect(answer.body).to.deep.equal(answers[0]!.body);
    }
    const ids = answers[0]!.body.data.map((r: { id: string }) => r.id);
    const db = service.running.app.db;
    const audited = await db('audit_events').whereIn('request_id', requestIds).orderBy('seq').select('resource_ids', 'disclosures', 'status');
    expect(audited).to.have.length(4);
    const residents = await db('coverage').whereIn('id', ids).select('id', 'resident_id');
    const residentOf = new Map(residents.map((r: { id: string; resident_id: string }) => [r.id, r.resident_id]));
    for (const row of audited) {
      expect(JSON.parse(row.resource_ids)).to.deep.equal(ids);
      const named = Object.entries(JSON.parse(row.disclosures).Coverage as Record<string, number[]>).flatMap(([resident, at]) => at.map((i) => [ids[i], resident]));
      expect(new Map(named as Array<[string, string]>)).to.deep.equal(residentOf);
    }
    // A 304 to the kept answer's ETag, audited without disclosures.
    const unchanged = await call(service.baseUrl, 'GET', path, { token: t.fullToken, headers: { 'if-none-match': answers[0]!.headers.get('etag')! } });
    expect(unchanged.status).to.equal(304);
  });

  it('answers a polled page from its facility\'s stamp without reading its rows again, until a write to them moves the stamp', async () => {
    const db = service.running.app.db;
    const path = `${base}/coverage?page_size=4&page=3`;
    const first = await get(path);
    expect((await get(path)).body).to.deep.equal(first.body);
    const row = first.body.data[1];
    // A write the change trigger does not see (it is dropped for the test): the kept page is
    // answered from the stamp alone, so the change does not show.
    await dropChangeTrigger(db, 'coverage');
    try {
      await db('coverage').where({ id: row.id }).update({ subscriber_id: 'BEHINDTHESTAMP', version_id: db.raw('version_id + 1'), last_updated: new Date().toISOString() });
      expect((await get(path)).body).to.deep.equal(first.body);
    } finally {
      await createChangeTrigger(db, 'coverage');
    }
    // Any counted write moves the stamp: the rows are read again, and the page is rebuilt.
    const touched = await touchCoverage(db, t.orgA, t.a1, first.body.data[2].id, 'stamped');
    const again = await get(path);
    expect(again.body.data[2]).to.deep.include({ subscriberId: '*****stamped', meta: { versionId: String(touched.versionId), lastUpdated: touched.lastUpdated } });
    expect(again.body.data[1].meta.versionId).to.equal(String(Number(row.meta.versionId) + 1));
  });

  it('reads whole rows by their keys only inside the facility and through the policy, as they are now', async () => {
    const db = service.running.app.db;
    const mine = await db('coverage').where({ facility_id: t.a1 }).orderBy('seq').limit(3).select('seq', 'id', 'resident_id');
    const elsewhere = await db('coverage').where({ facility_id: t.a2 }).orderBy('seq').first('seq', 'id');
    const everyone = new RecordFilter(DEFAULT_POLICY, { restrictedRecords: false, consentDenials: false });
    const rows = await rowsBySeq<{ id: string; seq: number } & ResourceRow>(db, 'coverage', t.a1, [...mine.map((r) => r.seq), elsewhere.seq], everyone);
    expect(rows.map((r) => r.id).sort()).to.deep.equal(mine.map((r) => r.id).sort());
    expect(rows[0]).to.include.keys('payor_name', 'subscriber_id', 'status', 'version_id', 'last_updated');
    // A payer-scoped credential's filter: only its payer's Coverages come back.
    const payer = (await db('coverage').where({ id: mine[0]!.id }).first('payor_name')).payor_name as string;
    const scoped = new RecordFilter({ ...DEFAULT_POLICY, payers: [payer.toLowerCase()] }, { restrictedRecords: false, consentDenials: false });
    const visible = await rowsBySeq<ResourceRow & { payor_name: string }>(db, 'coverage', t.a1, mine.map((r) => r.seq), scoped);
    expect(visible.length).to.be.greaterThan(0);
    for (const row of visible) expect(row.payor_name.toLowerCase()).to.equal(payer.toLowerCase());
    const members = await db('coverage').whereIn('seq', mine.map((r) => r.seq)).whereRaw('lower(payor_name) = ?', [payer.toLowerCase()]).pluck('id');
    expect(visible.map((r) => r.id).sort()).to.deep.equal([...members].sort());
  });

  it('pages through a facility the same whether its rows are read whole or by their keys', async () => {
    const pages = async () => {
      const bodies = [];
      for (let page = 1; page <= 4; page++) bodies.push((await get(`${base}/clinical/Observation?page=${page}&page_size=10`)).body);
      return bodies;
    };
    const cold = await pages();
    for (let i = 0; i < 20; i++) await pages();
    expect(await pages()).to.deep.equal(cold);
  });

  it('answers patient data with Cache-Control: no-store and nosniff, errors included', async () => {
    for (const path of [`${base}/residents`, `${base}/coverage/zzz`]) {
      const response = await get(path);
      expect(response.headers.get('cache-control'), path).to.equal('no-store');
      expect(response.headers.get('x-content-type-options'), path).to.equal('nosniff');
    }
  });

  it('defaults to page 1 of 50', async () => {
    const response = await get(`${base}/clinical/Observation`);
    expect(response.body.meta.page).to.include({ page: 1, page_size: 50 });
    expect(response.body.data).to.have.lengthOf(50);
  });

  it('filters coverage, observations and allergies by resident_id', async () => {
    const resident = (await get(`${base}/residents?page_size=1`)).body.data[0];
    for (const list of ['coverage', 'clinical/Observation', 'clinical/AllergyIntolerance']) {
      const response = await get(`${base}/${list}?resident_id=${resident.id}&page_size=200`);
      expect(response.status).to.equal(200);
      for (const row of response.body.data) {
        expect(row.beneficiary?.reference ?? row.subject?.reference ?? row.patient?.reference).to.equal(`Patient/${resident.id}`);
      }
      const counted = await service.running.app.db(list === 'coverage' ? 'coverage' : list.endsWith('Observation') ? 'observations' : 'allergies')
        .where({ resident_id: resident.id }).count({ n: '*' }).first();
      expect(response.body.meta.page.total).to.equal(Number(counted!.n));
    }
  });

  it('shows the version and last change of each resource as FHIR meta', async () => {
    for (const list of ['residents', 'coverage', 'clinical/Observation', 'clinical/AllergyIntolerance']) {
      const row = (await get(`${base}/${list}?page_size=1`)).body.data[0];
      const table = { residents: 'residents', coverage: 'coverage', 'clinical/Observation': 'observations', 'clinical/AllergyIntolerance': 'allergies' }[list]!;
      const stored = await service.running.app.db(table).where({ id: row.id }).first();
      expect(row.meta).to.deep.equal({ versionId: String(stored.version_id), lastUpdated: stored.last_updated });
    }
  });

  it('returns FHIR-aligned residents, coverage, observations and allergies', async () => {
    const patient = (await get(`${base}/residents?page_size=1`)).body.data[0];
    expect(patient).to.include({ resourceType: 'Patient' });
    expect(patient.managingOrganization).to.deep.equal({ reference: `Organization/${t.a1}` });
    const read = await get(`${base}/residents/${patient.id}`);
    expect(read.body).to.deep.equal({ data: patient, meta: null, error: null });

    const coverage = (await get(`${base}/coverage?resident_id=${patient.id}`)).body.data;
    expect(coverage.map((c: { order: number }) => c.order)).to.deep.equal(coverage.map((_: unknown, i: number) => i + 1));
    expect(coverage[0].payor[0].reference).to.match(/^Organization\/.+/);

    const observations = (await get(`${base}/clinical/Observation?resident_id=${patient.id}&page_size=200`)).body.data;
    const bloodPressure = observations.find((o: any) => o.code.code === '85354-9');
    expect(bloodPressure.component.map((c: any) => c.code.code)).to.deep.equal(['8480-6', '8462-4']);
    expect(bloodPressure.valueString).to.equal(`${bloodPressure.component[0].valueQuantity.value}/${bloodPressure.component[1].valueQuantity.value} mm[Hg]`);
    const weight = observations.find((o: any) => o.code.code === '29463-7');
    expect(weight.valueQuantity).to.include({ unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' });
    expect(weight.valueString).to.equal(`${weight.valueQuantity.value} kg`);
    expect(weight.effectiveDateTime).to.match(/Z$/);
  });

  it('returns identifier values byte for byte as held, masked ones still masked', async () => {
    const held = [
      { system: 'http://hl7.org/fhir/sid/us-ssn', value: 'XXX-XX-1234' },
      { system: 'http://hl7.org/fhir/sid/us-mbi', value: '*****6789A' },
      { system: 'https://ofctx.example/fhir/sid/mrn', value: '  MRN 0042/é\u00a0ü😀 ' },
    ];
    const id = randomUUID();
    const db = service.running.app.db;
    await db('residents').insert({
      id, org_id: t.orgA, facility_id: t.a1, identifiers: JSON.stringify(held), family_name: 'Ñúñez', given_names: JSON.stringify(['Zoë']),
      gender: 'other', birth_date: '1930-02-28', active: true, created_at: new Date().toISOString(),
    });
    const coverageId = randomUUID();
    await db('coverage').insert({
      id: coverageId, org_id: t.orgA, facility_id: t.a1, resident_id: id, status: 'active', payor_name: 'Medicaid',
      subscriber_id: '*****0000Z', period_start: '2024-01-01', coverage_order: 1, created_at: new Date().toISOString(),
    });
    const patient = (await get(`${base}/residents/${id}`)).body.data;
    expect(patient.identifier).to.deep.equal(held);
    expect(patient.name).to.deep.equal([{ use: 'official', family: 'Ñúñez', given: ['Zoë'] }]);
    expect((await get(`${base}/coverage/${coverageId}`)).body.data.subscriberId).to.equal('*****0000Z');
  });

  describe('bad input gets a 4xx with the error envelope, never a 500', () => {
    const cases: Array<[string, string, number, string]> = [
      ['a malformed organization id', '/api/v1/ofctx/not-a-uuid/{a1}/coverage', 400, 'invalid_parameter'],
      ['a malformed facility id', '/api/v1/ofctx/{orgA}/12345/coverage', 400, 'invalid_parameter'],
      ['a malformed resource id', '/api/v1/ofctx/{orgA}/{a1}/coverage/zzz', 400, 'invalid_parameter'],
      ['page 0', '/api/v1/ofctx/{orgA}/{a1}/coverage?page=0', 400, 'invalid_parameter'],
      ['page_size 201', '/api/v1/ofctx/{orgA}/{a1}/coverage?page_size=201', 400, 'invalid_parameter'],
      ['page_size 0', '/api/v1/ofctx/{orgA}/{a1}/coverage?page_size=0', 400, 'invalid_parameter'],
      ['a non-numeric page', '/api/v1/ofctx/{orgA}/{a1}/coverage?page=two', 400, 'invalid_parameter'],
      ['a fractional page_size', '/api/v1/ofctx/{orgA}/{a1}/coverage?page_size=1.5', 400, 'invalid_parameter'],
      ['a repeated page', '/api/v1/ofctx/{orgA}/{a1}/coverage?page=1&page=2', 400, 'invalid_parameter'],
      ['an unknown query parameter', '/api/v1/ofctx/{orgA}/{a1}/coverage?status=active', 400, 'invalid_parameter'],
      ['a malformed resident filter', '/api/v1/ofctx/{orgA}/{a1}/coverage?resident_id=1', 400, 'invalid_parameter'],
      ['a urn:uuid: id', '/api/v1/ofctx/{orgA}/urn:uuid:{a1}/coverage', 400, 'invalid_parameter'],
      ['a urn:uuid: resident filter', '/api/v1/ofctx/{orgA}/{a1}/coverage?resident_id=urn:uuid:{a1}', 400, 'invalid_parameter'],
      ['a resident filter on residents', '/api/v1/ofctx/{orgA}/{a1}/residents?resident_id={a1}', 400, 'invalid_parameter'],
      ['an unknown path', '/api/v1/ofctx/{orgA}/{a1}/medications', 404, 'not_found'],
      ['an unknown FHIR type', '/api/v1/ofctx/{orgA}/{a1}/clinical/Condition', 404, 'not_found'],
      ['no API at all', '/nothing-here', 404, 'not_found'],
    ];
    for (const [what, template, status, code] of cases) {
      it(`${what}: ${status} ${code}`, async () => {
        const path = template.replace('{orgA}', t.orgA).replace(/\{a1\}/g, t.a1);
        const response = await get(path);
        expect(response.status).to.equal(status);
        expect(response.body.error.code).to.equal(code);
        expect(response.body.error.request_id).to.equal(response.headers.get('x-request-id'));
      });
    }

    it('reads ids sent in upper case like their lower-case form, on both databases', async () => {
      const row = (await get(`${base}/coverage?page_size=1`)).body.data[0];
      const upper = await get(`/api/v1/ofctx/${t.orgA.toUpperCase()}/${t.a1.toUpperCase()}/coverage/${row.id.toUpperCase()}`);
      expect(upper.status).to.equal(200);
      expect(upper.body.data).to.deep.equal(row);
    });

    it('names the offending field in details', async () => {
      const response = await get(`${base}/coverage?page_size=500`);
      expect(response.body.error.details).to.deep.include({ field: 'query.page_size', issue: 'must be <= 200' });
    });

    it('answers 405 with Allow to a write on a read-only resource', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const response = await call(service.baseUrl, method, `${base}/coverage`, { token: t.fullToken, json: {} });
        expect(response.status, method).to.equal(405);
        expect(response.body.error.code).to.equal('method_not_allowed');
        expect(response.headers.get('allow')).to.equal('GET, HEAD');
      }
    });

    it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
      const sane = await call(service.baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': 'partner-trace.42' } });
      expect(sane.headers.get('x-request-id')).to.equal('partner-trace.42');
      const unsafe = await call(service.baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': 'a b<script>' } });
      expect(unsafe.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });
  });
});
