// A 271's benefits kept as R4 CoverageEligibilityResponses: EB segments written from the
// 005010X279A1 layouts (deductible, co-payment, coinsurance, limitation, non-covered), and the
// implementation guide's own example subscriber (../shared/samples/x12/, read in place), read
// back through the R4 view, valid R4; AAA rejections as error[]; the same 271 again keeps no
// second response; a FHIR feed cannot write one.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call, tokenFor, type TestResponse } from '../../../test/support/http.js';
import { bundle, postBundle } from '../../../test/support/ingest.js';
import { coverage, patient } from '../../../test/support/fhir-resources.js';
import { checkR4 } from '../../../test/support/r4-validator.js';
import { interchange271 } from '../../../test/support/x12.js';
import { createClient } from '../../src/auth/clients.js';

const SAMPLE = fileURLToPath(new URL('../../../../shared/samples/x12/imsweb-x12-parser-x271.txt', import.meta.url));
const COVERAGE_SYSTEM = 'https://ehr.example/fhir/sid/coverage';
const SERVICE_TYPE = 'https://codesystem.x12.org/005010/1365';

/** EB segments as 005010X279A1 lays them out (EB01..EB12), with a MSG. */
const BENEFITS = [
  'EB*C*IND*30***23*1500*****Y', // deductible $1,500 per calendar year, in network
  'EB*B*IND*98***27*25*****Y', // co-payment $25 per visit, office visit
  'MSG*COPAY APPLIES PER VISIT',
  'EB*A*IND*30*****.2****N', // coinsurance 20 %, out of network
  'EB*F*IND*33***23***VS*20**Y', // limitation: 20 visits per calendar year, chiropractic
  'EB*I**UC', // urgent care not covered
];

describe('X12 271 benefits as CoverageEligibilityResponse', function () {
  this.timeout(120_000);
  let service: TestService;
  let org: string;
  let facility: string;
  let source: string;
  let reader: string;
  let coverageOnly: string;
  let clinicalOnly: string;

  before(async () => {
    service = await startTestService();
    org = (await service.seed.org()).id;
    facility = (await service.seed.facility(org, 'F1')).id;
    source = await tokenFor(service.baseUrl, await createClient(service.running.app.db, { orgId: org, facilityIds: [facility], scopes: ['ingest.write'], name: 'Clearinghouse', kind: 'ingest' }));
    coverageOnly = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [facility], scopes: ['coverage.read'] }));
    clinicalOnly = await tokenFor(service.baseUrl, await service.seed.client({ orgId: org, facilityIds: [facility], scopes: ['clinical.read'] }));
    reader = coverageOnly;
  });
  after(async () => service?.close());

  const db = () => service.running.app.db;
  const base = () => `/api/v1/fhir/R4/${org}/${facility}`;
  const postX12 = (text: string) => call(service.baseUrl, 'POST', `/api/v1/ingest/${org}/${facility}/x12`, { token: source, headers: { 'content-type': 'application/edi-x12' }, rawBody: text });
  async function fhir(path: string, token = reader): Promise<TestResponse> {
    const response = await call(service.baseUrl, 'GET', path, { token, headers: { accept: 'application/fhir+json' } });
    if (response.status === 200) expect(checkR4(response.body), path).to.deep.equal([]);
    return response;
  }

  /** A resident with Coverages named by key, as a FHIR feed sent them; their ids by key. */
  async function seed(mrn: string, keys: string[]): Promise<{ residentId: string; ids: Record<string, string> }> {
    const url = 'urn:uuid:9d6c3a52-7d1e-4d7a-9a57-55d0b3f1e001';
    const answer = await postBundle(service.baseUrl, source, org, facility, bundle('transaction', [{ resource: patient(mrn), fullUrl: url }, ...keys.map((key) => ({ resource: coverage({ reference: url }, key) }))]));
    expect(answer.status).to.equal(200);
    const ids: Record<string, string> = {};
    for (const key of keys) ids[key] = (await db()('resource_identifiers').where({ system: COVERAGE_SYSTEM, value: key }).first('resource_id')).resource_id;
    return { residentId: (await db()('coverage').where({ id: ids[keys[0]!] }).first('resident_id')).resident_id, ids };
  }

  it('keeps each applied loop as a valid R4 CoverageEligibilityResponse with its deductible, co-payment, coinsurance, limitation and exclusion', async () => {
    const { residentId, ids } = await seed('CER-1', ['CER-A', 'CER-R']);
    const text = interchange271([
      { trace: ids['CER-A'], memberId: 'M-A', eligibility: ['1'], segments: BENEFITS },
      { trace: ids['CER-R'], memberId: 'M-R', reject: '72' },
    ]);
    const answer = await postX12(text);
    expect(answer.status).to.equal(200);
    expect(answer.body.data).to.include({ matched: 1, responses: 2 });

    const search = await fhir(`${base()}/CoverageEligibilityResponse?patient=Patient/${residentId}`);
    expect(search.status).to.equal(200);
    expect(search.body.total).to.equal(2);
    const [applied, rejected] = search.body.entry.map((e: { resource: any }) => e.resource);
    expect(applied).to.deep.include({ patient: { reference: `Patient/${residentId}` }, outcome: 'complete', disposition: 'Active coverage', created: '2026-01-15' });
    expect(applied.insurer).to.deep.equal({ identifier: { value: 'CMS' }, display: 'MEDICARE PART A' });
    expect(applied.insurance[0]).to.include({ inforce: true });
    expect(applied.insurance[0].coverage).to.deep.equal({ reference: `Coverage/${ids['CER-A']}` });
    const items = applied.insurance[0].item as any[];
    const byCategory = (code: string) => items.filter((i) => i.category.coding[0].system === SERVICE_TYPE && i.category.coding[0].code === code);
    // EB*1*IND*30^1: one item per service type.
    expect(items.map((i) => i.category.coding[0].code)).to.deep.equal(['30', '1', '30', '98', '30', '33', 'UC']);
    const deductible = byCategory('30')[1];
    expect(deductible.network.coding[0].code).to.equal('in');
    expect(deductible.unit.coding[0].code).to.equal('individual');
    expect(deductible.term.coding[0].code).to.equal('annual');
    expect(deductible.benefit).to.deep.equal([{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/benefit-type', code: 'deductible', display: 'Deductible' }], text: 'Deductible' }, allowedMoney: { value: 1500, currency: 'USD' } }]);
    const copay = byCategory('98')[0];
    expect(copay.description).to.equal('COPAY APPLIES PER VISIT');
    expect(copay.term.coding[0]).to.deep.equal({ system: 'https://codesystem.x12.org/005010/615', code: '27' });
    expect(copay.benefit[0].type.coding[0].code).to.equal('copay');
    expect(copay.benefit[0].allowedMoney).to.deep.equal({ value: 25, currency: 'USD' });
    const coinsurance = byCategory('30')[2];
    expect(coinsurance.network.coding[0].code).to.equal('out');
    expect(coinsurance.benefit[0]).to.deep.include({ allowedString: '20%' });
    expect(coinsurance.benefit[0].type.coding[0].code).to.equal('copay-percent');
    const limitation = byCategory('33')[0];
    expect(limitation.benefit[0]).to.deep.include({ allowedUnsignedInt: 20 });
    expect(limitation.benefit[0].type.coding.map((c: { code: string }) => c.code)).to.deep.equal(['benefit', 'VS']);
    expect(byCategory('UC')[0]).to.include({ excluded: true });

    expect(rejected).to.deep.include({ outcome: 'error', disposition: 'AAA 72: Invalid/missing subscriber/insured ID' });
    expect(rejected.insurance[0]).to.not.have.property('inforce');
    expect(rejected.error).to.deep.equal([{ code: { coding: [{ system: 'https://codesystem.x12.org/005010/901', code: '72' }], text: 'AAA 72: Invalid/missing subscriber/insured ID' } }]);
    // The rejected Coverage itself is unchanged.
    expect(await db()('coverage').where({ id: ids['CER-R'] }).first('version_id')).to.include({ version_id: 1 });

    const read = await fhir(`${base()}/CoverageEligibilityResponse/${applied.id}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.deep.equal(applied);
    expect(read.headers.get('etag')).to.equal('W/"1"');

    // The same 271 again: the Coverage and the responses are unchanged, no second response.
    const again = await postX12(text);
    expect(again.body.data).to.include({ unchanged: 1, responses: 0 });
    expect((await fhir(`${base()}/CoverageEligibilityResponse?patient=${residentId}`)).body.total).to.equal(2);
  });

  it('needs coverage.read (clinical.read is not enough), and a FHIR feed cannot write one', async () => {
    expect((await fhir(`${base()}/CoverageEligibilityResponse`, clinicalOnly)).status).to.equal(403);
    const answer = await postBundle(service.baseUrl, source, org, facility, bundle('batch', [{ resource: { resourceType: 'CoverageEligibilityResponse', status: 'active', purpose: ['benefits'], patient: { reference: 'Patient/x' }, created: '2026-01-01', request: { display: 'x' }, outcome: 'complete', insurer: { display: 'x' } }, request: { method: 'POST', url: 'CoverageEligibilityResponse' } }]));
    expect(JSON.stringify(answer.body)).to.contain('cannot be ingested');
    expect(Number((await db()('eligibility_responses').where({ org_id: org }).count({ n: '*' }).first())!.n)).to.equal(2);
  });

  it('reads the implementation guide\'s example subscriber (../shared/samples/x12/) with benefits added, into a valid response', async function () {
    if (!existsSync(SAMPLE)) this.skip();
    const { residentId, ids } = await seed('CER-2', ['CER-G']);
    // The example's segments from its subscriber HL up to SE, its trace pointed at our Coverage.
    const segments = readFileSync(SAMPLE, 'utf8').split('~').map((s) => s.trim()).filter(Boolean);
    const loop = segments.slice(segments.findIndex((s) => s.startsWith('HL*3*')), segments.findIndex((s) => s.startsWith('SE*')));
    const traced = loop.map((s) => (s.startsWith('TRN*2*') ? `TRN*2*${ids['CER-G']}*9877281234` : s));
    const answer = await postX12(interchange271([], 906, [[...traced, ...BENEFITS.slice(0, 4)]]));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body.data).to.include({ matched: 1, responses: 1 });
    const found = (await fhir(`${base()}/CoverageEligibilityResponse?patient=${residentId}`)).body.entry.map((e: { resource: any }) => e.resource);
    expect(found).to.have.length(1);
    const items = found[0].insurance[0].item as any[];
    expect(items[0]).to.deep.include({ description: 'GOLD 123 PLAN' });
    expect(items[0].category.coding[0].code).to.equal('30');
    expect(found[0].insurance[0].inforce).to.equal(true);
    expect(items.flatMap((i) => i.benefit ?? []).map((b: any) => b.type.coding[0].code)).to.deep.equal(['deductible', 'copay', 'copay-percent']);
  });
});
