// End to end: SMART scopes as FHIR clients ask them (issue 45), and what each token answer
// allows. A granular scope (`system/Observation.rs?category=...|vital-signs`) restricts the
// token to what that search matches on every read path: /ofctx/ lists and reads, R4 search and
// read, _include, totals, sync pages, $export and the event log.
import { expect } from 'chai';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { createClient } from '../../server/src/auth/clients.js';
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import type { IngestResource } from '../../server/src/ingest/change-set.js';
import { call } from '../support/http.js';
import { bundle, postBundle } from '../support/ingest.js';
import { byMrn, condition, diagnosticReport, observation, patient } from '../support/fhir-resources.js';
import { ALL_SCOPES } from '../support/service.js';

const CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const VITALS = `system/Observation.rs?category=${CATEGORY}|vital-signs`;
const MRN_SYSTEM = 'https://ehr.example/fhir/sid/mrn';
const laboratory = (code: string) => ({
  category: [{ coding: [{ system: CATEGORY, code: 'laboratory' }] }],
  code: { coding: [{ system: 'http://loinc.org', code, display: 'Lab result' }] },
  valueQuantity: { value: 5.4, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
});

describe('SMART scopes as clients ask them, and granular scopes on every read path', function () {
  this.timeout(120_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let client: { client_id: string; client_secret: string };
  let base: string;
  let r4: string;
  const ids: Record<string, string> = {};
  const sorted = (list: string[]) => [...list].sort();

  const tokenAnswer = async (scope: string) =>
    call(service.baseUrl, 'POST', '/api/v1/oauth/token', { form: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, scope } });
  const tokens = new Map<string, string>();
  const tokenOf = async (scope: string) => {
    if (!tokens.has(scope)) {
      const answer = await tokenAnswer(scope);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      tokens.set(scope, answer.body.access_token);
    }
    return tokens.get(scope)!;
  };
  const get = async (scope: string, path: string) =>
    call(service.baseUrl, 'GET', path.replace(/^http:\/\/[^/]+/, ''), { token: await tokenOf(scope), headers: path.includes('/fhir/') ? { accept: 'application/fhir+json' } : {} });
  /** Every id of a page-numbered /ofctx/ list walked one row a page, checked against its total. */
  const walk = async (scope: string, list: string) => {
    const seen: string[] = [];
    let total = -1;
    for (let page = 1; page < 50; page++) {
      const answer = await get(scope, `${base}/${list}${list.includes('?') ? '&' : '?'}page=${page}&page_size=1`);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      total = answer.body.meta.page.total;
      if (answer.body.data.length === 0) break;
      seen.push(answer.body.data[0].id);
    }
    expect(seen.length, `${list}: the total counts exactly what the pages show`).to.equal(total);
    return seen;
  };
  /** Every id of an R4 search, following next links with _count=1, checked against its total; with its included ids. */
  const search = async (scope: string, query: string) => {
    const seen: string[] = [];
    const included: string[] = [];
    let url: string | undefined = `${r4}/${query}${query.includes('?') ? '&' : '?'}_count=1`;
    let total = -1;
    while (url) {
      const answer = await get(scope, url);
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      total = answer.body.total;
      for (const entry of answer.body.entry ?? []) (entry.search.mode === 'include' ? included : seen).push(entry.resource.id);
      url = answer.body.link.find((l: { relation: string }) => l.relation === 'next')?.url;
    }
    expect(seen.length, `${query}: total`).to.equal(total);
    return { seen, included };
  };
  /** The ids of each type a system-level $export of the token wrote. */
  const exported = async (scope: string, types: string) => {
    const token = await tokenOf(scope);
    const kickOff = await call(service.baseUrl, 'GET', `${r4}/$export?_type=${types}`, { token, headers: { prefer: 'respond-async', accept: 'application/fhir+json' } });
    expect(kickOff.status, JSON.stringify(kickOff.body)).to.equal(202);
    const status = new URL(kickOff.headers.get('content-location')!).pathname;
    let manifest: { output: Array<{ type: string; url: string; count: number }> } | undefined;
    for (let i = 0; i < 400 && !manifest; i++) {
      const answer = await call(service.baseUrl, 'GET', status, { token });
      if (answer.status === 200) manifest = answer.body;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const files: Record<string, string[]> = {};
    for (const output of manifest!.output) {
      const file = await call<string>(service.baseUrl, 'GET', new URL(output.url).pathname, { token, headers: { accept: 'application/fhir+ndjson' } });
      files[output.type] = String(file.body).trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      expect(files[output.type]).to.have.length(output.count);
    }
    return files;
  };
  const events = async (scope: string) => {
    const answer = await get(scope, `/api/v1/ofctx/${tenant.orgId}/events?page_size=200`);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body.data as Array<{ type: string; data: { resident_id: string; diagnostic_report_id?: string } }>;
  };

  before(async () => {
    service = await startWebhookService();
    tenant = await service.tenant();
    base = `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}`;
    r4 = `/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}`;
    const created = await createClient(service.running.app.db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name: 'FHIR partner' });
    client = created;
    const source = await createClient(service.running.app.db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' });
    const form = { grant_type: 'client_credentials', client_id: source.client_id, client_secret: source.client_secret };
    const ingestToken = (await call(service.baseUrl, 'POST', '/api/v1/oauth/token', { form })).body.access_token as string;
    const answer = await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('transaction', [
      { resource: patient('G-1') },
      { resource: observation(byMrn('G-1'), 'G-1-HR') },
      { resource: observation(byMrn('G-1'), 'G-1-GLU', laboratory('2345-7')) },
      { resource: observation(byMrn('G-1'), 'G-1-K', laboratory('2823-3')) },
      { resource: condition(byMrn('G-1'), 'G-1-DM') },
      { resource: patient('G-2') },
      { resource: observation(byMrn('G-2'), 'G-2-HR', { code: { coding: [{ system: 'http://loinc.org', code: '8310-5', display: 'Body temperature' }] }, valueQuantity: { value: 37, unit: 'Cel', system: 'http://unitsofmeasure.org', code: 'Cel' } }) },
      { resource: observation(byMrn('G-2'), 'G-2-GLU', laboratory('2345-7')) },
    ]));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    // Padded so destructuring gives strings.
    [ids.p1, ids.hr1, ids.glu1, ids.k1, ids.dm1, ids.p2, ids.temp2, ids.glu2] = (answer.body.entry as Array<{ response: { location: string } }>).map((e) => e.response.location.split('/')[1]!) as [string, string, string, string, string, string, string, string];
    // A lab report of G-1's two results, as the HL7 v2 translator writes it, with its event.
    const report = diagnosticReport(byMrn('G-1'), 'G-1-BMP', {
      result: ['G-1-GLU', 'G-1-K'].map((key) => ({ reference: `Observation?identifier=${encodeURIComponent('https://ehr.example/fhir/sid/observation')}|${key}` })),
    }) as IngestResource;
    const applied = await applyChangeSet(service.running.app.db, { orgId: tenant.orgId, facilityId: tenant.facilityId, mode: 'transaction', actor: 'test', emitEvents: true, changes: [{ resource: report, at: 'G-1-BMP' }] });
    ids.report = applied.outcomes[0]!.outcome === 'rejected' ? '' : applied.outcomes[0]!.id;
  });
  after(() => service?.close());

  describe('each scope form, its answer, and what the token then may do', () => {
    const observationOps = async (scope: string) => ({
      list: (await get(scope, `${base}/clinical/Observation`)).status,
      read: (await get(scope, `${base}/clinical/Observation/${ids.hr1}`)).status,
      search: (await get(scope, `${r4}/Observation`)).status,
      r4read: (await get(scope, `${r4}/Observation/${ids.hr1}`)).status,
      events: (await get(scope, `/api/v1/ofctx/${tenant.orgId}/events?types=clinical.result.created`)).status,
    });
    const all = { list: 200, read: 200, search: 200, r4read: 200, events: 200 };
    const readOnly = { list: 403, read: 200, search: 403, r4read: 200, events: 403 };
    const searchOnly = { list: 200, read: 403, search: 200, r4read: 403, events: 200 };
    const cases: Array<[string, string, typeof all]> = [
      ['system/Observation.read', 'system/Observation.read system/AllergyIntolerance.read system/Condition.read system/ServiceRequest.read system/MedicationRequest.read system/DiagnosticReport.read', all],
      ['system/*.read', 'system/*.read', all],
      ['system/*.*', 'system/*.read', all],
      ['system/Observation.rs', 'system/Observation.rs system/AllergyIntolerance.rs system/Condition.rs system/ServiceRequest.rs system/MedicationRequest.rs system/DiagnosticReport.rs', all],
      ['system/*.r', 'system/*.r', readOnly],
      ['system/Observation.cruds', 'system/Observation.rs system/AllergyIntolerance.rs system/Condition.rs system/ServiceRequest.rs system/MedicationRequest.rs system/DiagnosticReport.rs', all],
      ['system/*.cs', 'system/*.s', searchOnly],
      [`system/Observation.rus?category=${CATEGORY}|vital-signs system/Patient.cruds`, `${VITALS} system/Patient.rs`, all],
      [`system/Observation.cruds?category=${CATEGORY}|vital-signs`, `${VITALS}`, all],
      ['system/Observation.r?category=vital-signs', 'system/Observation.r?category=vital-signs', readOnly],
    ];
    for (const [asked, stated, allowed] of cases) {
      it(`${asked} -> ${stated}`, async () => {
        const answer = await tokenAnswer(asked);
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
        expect(answer.body.scope).to.equal(stated);
        const ops = await observationOps(asked);
        expect(ops).to.deep.equal(allowed);
      });
    }

    it('refuses c, u or d alone, and malformed granular scopes, with invalid_scope naming the fix', async () => {
      for (const [asked, reason] of [
        ['system/Observation.cud', 'ofctx grants only reading and searching'],
        ['system/Observation.rs?date=ge2026-01-01', 'date is a date parameter, and granular scopes take token parameters; Observation takes category, code, status'],
        ['system/Observation.rs?clinical-status=active', 'clinical-status is not a search parameter of Observation ofctx supports'],
        ['system/Observation.rs?category', 'category has no value'],
        ['system/*.rs?category=laboratory', 'a granular scope names one type'],
      ]) {
        const answer = await tokenAnswer(asked!);
        expect(answer.status, asked).to.equal(400);
        expect(answer.body.error, asked).to.equal('invalid_scope');
        expect(answer.body.error_description, asked).to.contain(reason);
      }
    });
  });

  describe('a granular category=vital-signs token sees no laboratory Observation anywhere', () => {
    const vitalsAndReports = `${VITALS} system/DiagnosticReport.rs system/Patient.rs`;

    it('/ofctx/ lists and reads, with exact totals', async () => {
      expect(sorted(await walk(VITALS, 'clinical/Observation'))).to.deep.equal(sorted([ids.hr1!, ids.temp2!]));
      expect(await walk(VITALS, `clinical/Observation?resident_id=${ids.p1}`)).to.deep.equal([ids.hr1]);
      expect((await get(VITALS, `${base}/clinical/Observation/${ids.hr1}`)).status).to.equal(200);
      const unknown = await get(VITALS, `${base}/clinical/Observation/00000000-0000-4000-8000-000000000000`);
      for (const id of [ids.glu1, ids.k1, ids.glu2]) {
        const hidden = await get(VITALS, `${base}/clinical/Observation/${id}`);
        expect(hidden.status).to.equal(404);
        expect(hidden.body.error.code).to.equal(unknown.body.error.code);
      }
      // The unrestricted token of the same credential sees them all (the page cache keeps them apart).
      expect(await walk('system/Observation.rs', 'clinical/Observation')).to.have.length(5);
      expect(await walk(VITALS, 'clinical/Observation')).to.have.length(2);
    });

    it('R4 search and read, totals, _summary=count, and a search asking for laboratory itself', async () => {
      expect(sorted((await search(VITALS, 'Observation')).seen)).to.deep.equal(sorted([ids.hr1!, ids.temp2!]));
      expect((await search(VITALS, `Observation?category=${CATEGORY}|laboratory`)).seen).to.deep.equal([]);
      expect((await search(VITALS, 'Observation?code=http://loinc.org|2345-7')).seen).to.deep.equal([]);
      expect((await search(VITALS, `Observation?patient=${ids.p2}`)).seen).to.deep.equal([ids.temp2]);
      expect((await get(VITALS, `${r4}/Observation?_summary=count`)).body.total).to.equal(2);
      expect((await get(VITALS, `${r4}/Observation/${ids.glu1}`)).status).to.equal(404);
      expect((await get(VITALS, `${r4}/Observation/${ids.hr1}`)).status).to.equal(200);
      // POST _search is the same search.
      const posted = await call(service.baseUrl, 'POST', `${r4}/Observation/_search`, { token: await tokenOf(VITALS), form: { patient: ids.p1! }, headers: { accept: 'application/fhir+json' } });
      expect(posted.body.entry.map((e: { resource: { id: string } }) => e.resource.id)).to.deep.equal([ids.hr1]);
    });

    it('no other type of its group: the token alone sees no Condition nor DiagnosticReport', async () => {
      expect((await search(VITALS, 'Condition')).seen).to.deep.equal([]);
      expect((await get(VITALS, `${r4}/Condition/${ids.dm1}`)).status).to.equal(404);
      expect((await search(VITALS, 'DiagnosticReport')).seen).to.deep.equal([]);
      expect((await search(`${VITALS} system/Condition.rs`, 'Condition')).seen).to.deep.equal([ids.dm1]);
    });

    it('_include: a report it may see brings none of its laboratory results', async () => {
      const withResults = await search(vitalsAndReports, 'DiagnosticReport?_include=DiagnosticReport:result');
      expect(withResults.seen).to.deep.equal([ids.report]);
      expect(withResults.included).to.deep.equal([]);
      const plain = await search('system/Observation.rs', 'DiagnosticReport?_include=DiagnosticReport:result');
      expect(sorted(plain.included)).to.deep.equal(sorted([ids.glu1!, ids.k1!]));
      const patients = await search(vitalsAndReports, `Observation?_include=Observation:patient`);
      expect(sorted(patients.seen)).to.deep.equal(sorted([ids.hr1!, ids.temp2!]));
      expect(sorted(patients.included)).to.deep.equal(sorted([ids.p1!, ids.p2!]));
    });

    it('sync pages and their cursors', async () => {
      const synced: string[] = [];
      let next: string | undefined;
      do {
        const answer = await get(VITALS, `${base}/clinical/Observation?page_size=1&${next ? `cursor=${next}` : '_lastUpdated=gt2000-01-01'}`);
        expect(answer.status).to.equal(200);
        expect(answer.body.meta.page.total).to.equal(2);
        synced.push(...answer.body.data.map((o: { id: string }) => o.id));
        next = answer.body.meta.page.next;
      } while (next);
      expect(sorted(synced)).to.deep.equal(sorted([ids.hr1!, ids.temp2!]));
    });

    it('$export: the token\'s restriction, not only the credential\'s policy', async () => {
      const files = await exported(vitalsAndReports, 'Observation,DiagnosticReport,Patient');
      expect(sorted(files.Observation ?? [])).to.deep.equal(sorted([ids.hr1!, ids.temp2!]));
      expect(files.DiagnosticReport).to.deep.equal([ids.report]);
      expect(files.Patient).to.have.length(2);
      const whole = await exported('system/Observation.rs', 'Observation');
      expect(whole.Observation).to.have.length(5);
    });

    it('events: a token that sees no report of a result sees no clinical.result.created; one of the other category neither', async () => {
      const all = await events('system/*.rs');
      expect(all.filter((e) => e.type === 'clinical.result.created').map((e) => e.data.diagnostic_report_id)).to.deep.equal([ids.report]);
      expect(await events(VITALS)).to.deep.equal([]);
      expect((await events(vitalsAndReports)).map((e) => e.type)).to.include('clinical.result.created');
      const otherCode = await events(`system/DiagnosticReport.rs?code=http://loinc.org|24331-1 system/Patient.rs`);
      expect(otherCode.map((e) => e.type)).to.not.include('clinical.result.created');
      expect(otherCode.map((e) => e.type)).to.include('resident.admitted');
      const sameCode = await events('system/DiagnosticReport.rs?code=http://loinc.org|24323-8');
      expect(sameCode.map((e) => e.type)).to.deep.equal(['clinical.result.created']);
    });
  });

  it('a granular Patient scope by identifier: one resident on the lists, reads, searches, export and its events; their records stay governed by their own scopes', async () => {
    const one = `system/Patient.rs?identifier=${MRN_SYSTEM}|G-2 system/Observation.rs`;
    expect(await walk(one, 'residents')).to.deep.equal([ids.p2]);
    expect((await get(one, `${base}/residents/${ids.p1}`)).status).to.equal(404);
    expect((await search(one, 'Patient')).seen).to.deep.equal([ids.p2]);
    expect((await search(one, 'Patient?name=okafor')).seen).to.deep.equal([ids.p2]);
    expect((await get(one, `${r4}/Patient/${ids.p1}`)).status).to.equal(404);
    expect((await search(one, 'Observation')).seen).to.have.length(5);
    // Each page of one Observation includes its Patient: G-2 on its two, G-1 never.
    expect((await search(one, 'Observation?_include=Observation:patient')).included).to.deep.equal([ids.p2, ids.p2]);
    expect((await exported(one, 'Patient')).Patient).to.deep.equal([ids.p2]);
    const admitted = (await events(one)).filter((e) => e.type.startsWith('resident.')).map((e) => e.data.resident_id);
    expect(admitted).to.include(ids.p2);
    expect(new Set(admitted)).to.deep.equal(new Set([ids.p2]));
    // Two granular scopes of a type are an OR; a plain one beside them wins.
    expect(sorted(await walk(`system/Patient.rs?identifier=${MRN_SYSTEM}|G-2 system/Patient.rs?identifier=${MRN_SYSTEM}|G-1`, 'residents'))).to.deep.equal(sorted([ids.p1!, ids.p2!]));
    const answer = await tokenAnswer(`system/Patient.rs?identifier=${MRN_SYSTEM}|G-2 system/Patient.s`);
    expect(answer.body.scope).to.equal('system/Patient.rs system/Patient.s');
    expect(await walk(`system/Patient.rs?identifier=${MRN_SYSTEM}|G-2 system/Patient.s`, 'residents')).to.have.length(2);
  });
});
