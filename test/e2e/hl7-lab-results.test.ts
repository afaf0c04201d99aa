// End to end, lab results as a lab sends them (issue 41): an ORU^R01 with a metabolic panel of
// NM results in plain units, a range and flags gives one DiagnosticReport (US Core Laboratory)
// with its Observations as US Core Laboratory Result Observations: numeric valueQuantity,
// referenceRange, interpretation, category laboratory, all valid R4; a corrected re-send is
// version 2 of the same report and the same Observations, never duplicates; the report's event
// clinical.result.created reaches a partner's @ofctx/verifier receiver once, and once more only
// when the report's status changes. A narrative report (TX without OBX-3) is presentedForm.
import { expect } from 'chai';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { call } from '../support/http.js';
import { assertDeliveryMatchesContract } from '../support/contract.js';
import { checkR4 } from '../support/r4-validator.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../support/verifying-receiver.js';
import { hl7Message, MRN_SYSTEM, pidOf } from '../support/adt-messages.js';
import { mllpClient, msa, type MllpTestClient } from '../support/mllp.js';
import { readMessage } from '../../server/src/hl7/message-applier.js';
import { translateMessage } from '../../server/src/hl7/message-translator.js';
import { forgetFacilityCode } from '../../server/src/hl7/remembered-facilities.js';

const PV1 = 'PV1|1|I|2W^201^A^LAB-HOME';
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const V3 = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

/** A metabolic panel: OBR-25 and OBX-11 as given; `glucose` the first result's value. */
const panel = (resultStatus: string, reportedAt: string, glucose: string) => [
  'ORC|RE|PL-41^EHR|ACC-41^LAB||CM',
  `OBR|1|PL-41^EHR|ACC-41^LAB|24323-8^Comprehensive metabolic panel^LN|||20260115070000|||||||||||||||${reportedAt}|||F`,
  `OBX|1|NM|2345-7^Glucose^LN||${glucose}|mg/dL|70-99|H|||${resultStatus}|||20260115071500|||||${reportedAt}`,
  `OBX|2|NM|2823-3^Potassium^LN||2.4|mmol/L|3.5-5.1|LL|||${resultStatus}|||20260115071500|||||${reportedAt}`,
  `OBX|3|NM|2160-0^Creatinine^LN||0.9|mg/dL|0.6-1.2|N|||${resultStatus}|||20260115071500|||||${reportedAt}`,
];

describe('HL7 v2 lab results reach partners as US Core lab results', function () {
  this.timeout(60_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let receiver: VerifyingReceiver;
  let client: MllpTestClient;
  let seq = 0;

  before(async () => {
    service = await startWebhookService({ env: { MLLP_PORT: '0' } });
    tenant = await service.tenant();
    await setFacilityHl7Code(service.running.app.db, tenant.facilityId, 'LAB-HOME');
    receiver = await startVerifyingReceiver();
    receiver.secret = (await service.subscribe(tenant, receiver.url, ['clinical.result.created'])).signing_secret;
    client = await mllpClient(service.running.mllp!.port);
  });
  after(async () => {
    client?.close();
    receiver?.close();
    await service?.close();
  });

  const db = () => service.running.app.db;
  const send = async (segments: string[]) => msa(await client.send(hl7Message('ORU^R01^ORU_R01', `LAB-${++seq}`, segments, { facility: 'LAB-HOME' })));
  const residentIdOf = async (mrn: string) => (await db()('resource_identifiers').where({ org_id: tenant.orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id'))?.resource_id as string;
  const r4 = async (path: string) => {
    const answer = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}/${path}`, { token: tenant.token, headers: { accept: 'application/fhir+json' } });
    expect(answer.status, path).to.equal(200);
    expect(checkR4(answer.body), path).to.deep.equal([]);
    return answer.body;
  };
  const resultEvents = (residentId: string) => receiver.accepted.filter((d) => d.event_type === 'clinical.result.created' && d.data.resident_id === residentId);

  it('a panel and its corrected re-send: one DiagnosticReport at version 2, its Observations at version 2 with numbers, ranges, flags, category laboratory; one clinical.result.created', async () => {
    expect((await send([pidOf('LAB-1'), PV1, ...panel('F', '20260115090000', '182')])).code).to.equal('AA');
    // The lab corrects the glucose: OBX-11 C, a new OBR-22; the report stays final.
    expect((await send([pidOf('LAB-1'), PV1, ...panel('C', '20260115113000', '128')])).code).to.equal('AA');
    const residentId = await residentIdOf('LAB-1');

    const bundle = await r4(`DiagnosticReport?patient=${residentId}&category=LAB&_include=DiagnosticReport:result`);
    const reports = bundle.entry.filter((e: { search: { mode: string } }) => e.search.mode === 'match').map((e: { resource: Record<string, any> }) => e.resource);
    const included = bundle.entry.filter((e: { search: { mode: string } }) => e.search.mode === 'include').map((e: { resource: Record<string, any> }) => e.resource);
    expect(reports).to.have.length(1);
    const [report] = reports;
    expect(report).to.deep.include({
      status: 'final',
      subject: { reference: `Patient/${residentId}` },
      effectiveDateTime: '2026-01-15T07:00:00.000Z',
      issued: '2026-01-15T11:30:00.000Z',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB', display: 'Laboratory' }], text: 'Laboratory' }],
    });
    expect(report.meta.versionId).to.equal('2');
    expect(report.code.coding[0]).to.deep.include({ system: LOINC, code: '24323-8' });
    // The lab's accession and the order's placer number, as they were sent.
    expect(report.identifier).to.deep.equal([{ system: 'urn:ofctx:hl7v2:filler-order:LAB', value: 'ACC-41' }, { system: 'urn:ofctx:hl7v2:placer-order:EHR', value: 'PL-41' }]);
    expect(report.result).to.have.length(3);
    expect(included.map((o: { id: string }) => `Observation/${o.id}`)).to.have.members(report.result.map((r: { reference: string }) => r.reference));

    const observations = (await r4(`Observation?patient=${residentId}&category=laboratory`)).entry.map((e: { resource: Record<string, any> }) => e.resource);
    expect(observations, 'no duplicates').to.have.length(3);
    const glucose = observations.find((o: any) => o.code.coding[0].code === '2345-7');
    expect(glucose).to.deep.include({
      status: 'corrected',
      effectiveDateTime: '2026-01-15T07:15:00.000Z',
      issued: '2026-01-15T11:30:00.000Z',
      valueQuantity: { value: 128, unit: 'mg/dL', system: UCUM, code: 'mg/dL' },
      interpretation: [{ coding: [{ system: V3, code: 'H', display: 'High' }], text: 'High' }],
    });
    expect(glucose.meta.versionId).to.equal('2');
    expect(glucose.referenceRange).to.deep.equal([{ low: { value: 70, unit: 'mg/dL', system: UCUM, code: 'mg/dL' }, high: { value: 99, unit: 'mg/dL', system: UCUM, code: 'mg/dL' }, text: '70-99' }]);
    for (const observation of observations) {
      // What US Core's Laboratory Result Observation requires.
      expect(observation.category.map((c: any) => c.coding[0].code)).to.include('laboratory');
      expect(observation.valueQuantity.value).to.be.a('number');
      expect(observation).to.include.keys('status', 'code', 'subject', 'effectiveDateTime');
      expect(observation.meta.versionId).to.equal('2');
    }
    const potassium = observations.find((o: any) => o.code.coding[0].code === '2823-3');
    expect(potassium.interpretation[0].coding[0].code).to.equal('LL');

    // The spec's Observation keeps its shape: the value with its unit as text.
    const plain = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/clinical/Observation/${glucose.id}`, { token: tenant.token });
    expect(plain.status).to.equal(200);
    expect((plain.body as { data: Record<string, unknown> }).data).to.deep.include({ valueString: '128 mg/dL', valueQuantity: { value: 128, unit: 'mg/dL', system: UCUM, code: 'mg/dL' } });

    const delivery = await waitFor('clinical.result.created', () => resultEvents(residentId)[0]);
    expect(delivery.data).to.deep.include({ diagnostic_report_id: report.id, diagnostic_report_status: 'final' });
    await assertDeliveryMatchesContract(delivery);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(resultEvents(residentId), 'one event: the re-send did not change the status').to.have.length(1);
    expect(receiver.refused).to.deep.equal([]);
  });

  it('a preliminary report made final: a new version and a second clinical.result.created with the new status', async () => {
    const preliminary = panel('P', '20260116090000', '150').map((s) => s.replace('PL-41', 'PL-42').replace('ACC-41', 'ACC-42').replace(/\|\|\|F$/, '|||P'));
    expect((await send([pidOf('LAB-2'), PV1, ...preliminary])).code).to.equal('AA');
    const final = panel('F', '20260116100000', '150').map((s) => s.replace('PL-41', 'PL-42').replace('ACC-41', 'ACC-42'));
    expect((await send([pidOf('LAB-2'), PV1, ...final])).code).to.equal('AA');
    const residentId = await residentIdOf('LAB-2');
    await waitFor('two clinical.result.created', () => (resultEvents(residentId).length === 2 ? true : undefined));
    expect(resultEvents(residentId).map((d) => d.data.diagnostic_report_status)).to.deep.equal(['preliminary', 'final']);
    const [report] = (await r4(`DiagnosticReport?patient=${residentId}&status=final`)).entry.map((e: { resource: Record<string, any> }) => e.resource);
    expect(report.meta.versionId).to.equal('2');
  });

  /** An order's final panel sent, then its rows rewritten as a release before 2026-11-29 left them: each result's identifier the whole digest (`formerly` now), the report naming its results by it. */
  const storedByEarlierRelease = async (mrn: string, order: string) => {
    const ofOrder = (segments: string[]) => segments.map((s) => s.replace('PL-41', `PL-${order}`).replace('ACC-41', `ACC-${order}`));
    const final = [pidOf(mrn), PV1, ...ofOrder(panel('F', '20260118090000', '182'))];
    expect((await send(final)).code).to.equal('AA');
    const residentId = await residentIdOf(mrn);
    const records = translateMessage(readMessage(hl7Message('ORU^R01^ORU_R01', 'X', final, { facility: 'LAB-HOME' }))).records.filter((r) => r.formerly);
    expect(records).to.have.length(3);
    const reportRow = await db()('diagnostic_reports').where({ resident_id: residentId }).first('id', 'results');
    let results = reportRow.results as string;
    for (const { identifier, formerly } of records) {
      expect(await db()('resource_identifiers').where({ org_id: tenant.orgId, value: identifier.value }).update({ value: formerly!.value })).to.equal(1);
      results = results.replace(identifier.value, formerly!.value);
    }
    await db()('diagnostic_reports').where({ id: reportRow.id }).update({ results });
    return { final, residentId, records, reportRow, corrected: [pidOf(mrn), PV1, ...ofOrder(panel('C', '20260118113000', '128'))] };
  };
  const versions = async (residentId: string) => (await r4(`Observation?patient=${residentId}`)).entry.map((e: { resource: Record<string, any> }) => `${e.resource.code.coding[0].code}@${e.resource.meta.versionId}`).sort();
  /** Set as migration 048 sets it for an organization that held HL7 results then (and the facility read afresh). */
  const flagFormerKeys = async (on: boolean) => {
    await db()('organizations').where({ id: tenant.orgId }).update({ hl7_former_result_keys: on });
    forgetFacilityCode(db(), 'LAB-HOME');
  };

  it('results stored by a release before 2026-11-29 (identifiers not grouped): found by their former identifiers, updated by a corrected re-send, never duplicated', async () => {
    await flagFormerKeys(true);
    try {
      await storedBeforeAndCorrected();
    } finally {
      await flagFormerKeys(false);
    }
  });

  it('an organization migration 048 found no such results in does not look former identifiers up: a result rewritten to one is not found', async () => {
    const { residentId, corrected } = await storedByEarlierRelease('LAB-5', '45');
    expect((await send(corrected)).code).to.equal('AA');
    expect(await versions(residentId)).to.have.length(6);
  });

  const storedBeforeAndCorrected = async () => {
    const { final, residentId, records, reportRow, corrected } = await storedByEarlierRelease('LAB-4', '44');
    const before = (await r4(`DiagnosticReport/${reportRow.id}`)).result.map((r: { reference: string }) => r.reference);
    expect(before).to.have.length(3);

    // The same message again changes no result: each is found by its former identifier and named by today's from now on.
    expect((await send(final)).code).to.equal('AA');
    expect(await versions(residentId)).to.deep.equal(['2160-0@1', '2345-7@1', '2823-3@1']);
    const indexed = async () => (await db()('resource_identifiers').where({ org_id: tenant.orgId }).whereIn('value', records.flatMap((r) => [r.identifier.value, r.formerly!.value])).select('value', 'resource_id')) as Array<{ value: string; resource_id: string }>;
    expect(await indexed()).to.have.length(6);

    // The lab corrects the glucose: version 2 of the same three results and of the report.
    expect((await send(corrected)).code).to.equal('AA');
    expect(await versions(residentId), 'no duplicates').to.deep.equal(['2160-0@2', '2345-7@2', '2823-3@2']);
    const reports = (await r4(`DiagnosticReport?patient=${residentId}`)).entry.map((e: { resource: Record<string, any> }) => e.resource);
    expect(reports).to.have.length(1);
    expect(reports[0].result.map((r: { reference: string }) => r.reference)).to.have.members(before);
    // Each result keeps its former identifier beside today's.
    const rows = await indexed();
    expect(rows).to.have.length(6);
    expect(new Set(rows.map((r) => r.resource_id)).size).to.equal(3);
  };

  it('a narrative report (TX lines without OBX-3): presentedForm and conclusion, no code-less Observation, no warning', async () => {
    const ack = await client.send(hl7Message('ORU^R01^ORU_R01', `LAB-${++seq}`, [
      pidOf('LAB-3'),
      PV1,
      'OBR|1|PL-43^EHR|ACC-43^LAB|34552-0^Echocardiogram study^LN|||20260117080000|||||||||||||||20260117093000||CUS|F',
      'OBX|1|TX|||Left ventricle normal in size.||||||F',
      'OBX|2|TX|||Ejection fraction 60%.~No effusion.||||||F',
    ], { facility: 'LAB-HOME' }));
    expect(msa(ack).code).to.equal('AA');
    expect(ack.segments.filter((s) => s.name === 'ERR')).to.have.length(0);
    const residentId = await residentIdOf('LAB-3');
    const [report] = (await r4(`DiagnosticReport?patient=${residentId}`)).entry.map((e: { resource: Record<string, any> }) => e.resource);
    expect(report.category[0].coding[0]).to.deep.include({ code: 'CUS', display: 'Cardiac Ultrasound' });
    expect(report.conclusion).to.equal('Left ventricle normal in size.\nEjection fraction 60%.\nNo effusion.');
    expect(report.presentedForm).to.have.length(1);
    expect(report.presentedForm[0].contentType).to.match(/^text\/plain/);
    expect(Buffer.from(report.presentedForm[0].data, 'base64').toString('utf8')).to.equal(report.conclusion);
    expect(report).to.not.have.property('result');
    expect((await r4(`Observation?patient=${residentId}`)).total).to.equal(0);
    // Read by id, as the event names it.
    expect((await r4(`DiagnosticReport/${report.id}`)).id).to.equal(report.id);
  });
});
