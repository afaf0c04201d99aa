// End to end, a facility whose EHR speaks only HL7 v2: an ADT^A01 carrying insurance (IN1),
// an allergy (AL1), a diagnosis (DG1) and a weight (OBX) gives the resident those records,
// valid R4 in the R4 view, with their events signed to a partner's @ofctx/verifier receiver;
// a 271 then finds the Coverage by member id; lists follow HL7's snapshot rule; a corrected
// result is a new version of the same Observation; orders emit clinical.order.created once
// and a cancel is a status change; an A40 merges two residents with one resident.merged.
import { expect } from 'chai';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { createClient } from '../../server/src/auth/clients.js';
import { setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { call, tokenFor } from '../support/http.js';
import { checkR4 } from '../support/r4-validator.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../support/verifying-receiver.js';
import { hl7Message, MRN_SYSTEM, pidOf, segment } from '../support/adt-messages.js';
import { mllpClient, msa, type MllpTestClient } from '../support/mllp.js';
import { interchange271 } from '../support/x12.js';

const PV1 = 'PV1|1|I|2W^201^A^WHOLE-HOME';
const IN1 = segment('IN1', { 1: '1', 2: 'MCRA^Medicare Part A', 3: 'CMS^^^&2.16.840.1.113883.3.249&ISO', 4: 'Medicare Part A', 12: '20250101', 22: '1', 36: '1EG4TE5MK73' });
const AL1 = 'AL1|1|DA|70618^Penicillin^RXNORM|SV|Hives~Wheezing|20200101';
const DG1 = 'DG1|1||I10^Essential (primary) hypertension^I10C||20240301|F';
const OBX_WEIGHT = 'OBX|1|NM|29463-7^Body weight^LN||72.5|kg^kilogram^UCUM|||||F|||20260115080000+0000';

describe('HL7 v2 carries the whole record to partners', function () {
  this.timeout(60_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let receiver: VerifyingReceiver;
  let client: MllpTestClient;
  let seq = 0;
  const id = () => `WR-${++seq}`;

  before(async () => {
    service = await startWebhookService({ env: { MLLP_PORT: '0' } });
    tenant = await service.tenant();
    await setFacilityHl7Code(service.running.app.db, tenant.facilityId, 'WHOLE-HOME');
    receiver = await startVerifyingReceiver();
    receiver.secret = (await service.subscribe(tenant, receiver.url, ['resident.admitted', 'resident.merged', 'coverage.updated', 'clinical.condition.created', 'clinical.order.created'])).signing_secret;
    client = await mllpClient(service.running.mllp!.port);
  });
  after(async () => {
    client?.close();
    receiver?.close();
    await service?.close();
  });

  const db = () => service.running.app.db;
  const send = async (type: string, segments: string[]) => {
    const controlId = id();
    const ack = await client.send(hl7Message(type, controlId, segments, { facility: 'WHOLE-HOME' }));
    return { ...msa(ack), ack };
  };
  const residentIdOf = async (mrn: string) => (await db()('resource_identifiers').where({ org_id: tenant.orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id'))?.resource_id as string;
  const r4 = async (path: string) => {
    const answer = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}/${path}`, { token: tenant.token, headers: { accept: 'application/fhir+json' } });
    expect(answer.status, path).to.equal(200);
    expect(checkR4(answer.body), path).to.deep.equal([]);
    return answer.body;
  };
  const resourcesOf = async (type: string, residentId: string) => ((await r4(`${type}?patient=${residentId}`)).entry ?? []).map((e: { resource: Record<string, any> }) => e.resource);
  const eventsOf = async (residentId: string) => (await db()('webhook_events').where({ resident_id: residentId }).orderBy('seq').pluck('event_type')) as string[];

  it('an A01 with IN1, AL1, DG1 and OBX: one Coverage, allergy, condition and observation, valid R4, and their events at the receiver', async () => {
    const { code } = await send('ADT^A01^ADT_A01', ['EVN|A01|20260115083000', pidOf('WR-1'), PV1, IN1, AL1, DG1, OBX_WEIGHT, 'ZPI|custom|segment', 'NK1|1|Okafor^Chidi|SON']);
    expect(code).to.equal('AA');
    const residentId = await residentIdOf('WR-1');
    const [coverages, allergies, observations] = [await resourcesOf('Coverage', residentId), await resourcesOf('AllergyIntolerance', residentId), await resourcesOf('Observation', residentId)];
    expect(coverages).to.have.length(1);
    expect(coverages[0]).to.deep.include({ status: 'active', subscriberId: '1EG4TE5MK73', order: 1, period: { start: '2025-01-01' } });
    expect(coverages[0].payor).to.deep.equal([{ identifier: { value: 'CMS' }, display: 'Medicare Part A' }]);
    expect(allergies).to.have.length(1);
    expect(allergies[0]).to.deep.include({ category: ['medication'], criticality: 'high' });
    expect(allergies[0].code.coding[0]).to.deep.include({ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '70618' });
    expect(allergies[0].reaction[0]).to.deep.equal({ manifestation: [{ text: 'Hives' }, { text: 'Wheezing' }], severity: 'severe' });
    expect(observations).to.have.length(1);
    expect(observations[0]).to.deep.include({ status: 'final', effectiveDateTime: '2026-01-15T08:00:00.000Z' });
    expect(observations[0].valueQuantity).to.deep.equal({ value: 72.5, unit: 'kilogram', system: 'http://unitsofmeasure.org', code: 'kg' });
    expect(observations[0].category[0].coding[0].code).to.equal('vital-signs');
    const conditions = await resourcesOf('Condition', residentId);
    expect(conditions).to.have.length(1);
    expect(conditions[0].code.coding[0]).to.deep.include({ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I10' });
    expect(conditions[0]).to.deep.include({ clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] }, onsetDateTime: '2024-03-01' });
    expect(await eventsOf(residentId)).to.have.members(['resident.admitted', 'coverage.updated', 'clinical.condition.created']);
    for (const type of ['resident.admitted', 'coverage.updated', 'clinical.condition.created']) {
      await waitFor(type, () => receiver.accepted.find((d) => d.event_type === type && d.data.resident_id === residentId));
    }
    expect(receiver.refused).to.deep.equal([]);
  });

  it('the same record re-sent under a new control id changes nothing: no new version, no event', async () => {
    const residentId = await residentIdOf('WR-1');
    const before = await eventsOf(residentId);
    expect((await send('ADT^A08^ADT_A01', ['EVN|A08|20260115090000', pidOf('WR-1'), PV1, IN1, AL1, DG1, OBX_WEIGHT])).code).to.equal('AA');
    expect(await eventsOf(residentId)).to.deep.equal(before);
    for (const type of ['Coverage', 'AllergyIntolerance', 'Observation']) {
      for (const resource of await resourcesOf(type, residentId)) expect(resource.meta.versionId, type).to.equal('1');
    }
  });

  it('a 271 finds the IN1 Coverage by member id (NM109 = IN1-36) and cancels it', async () => {
    const source = await createClient(db(), { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ['ingest.write'], name: 'clearinghouse', kind: 'ingest' });
    const token = await tokenFor(service.baseUrl, source);
    const answer = await call(service.baseUrl, 'POST', `/api/v1/ingest/${tenant.orgId}/${tenant.facilityId}/x12`, { token, headers: { 'content-type': 'application/edi-x12' }, rawBody: interchange271([{ memberId: '1EG4TE5MK73', eligibility: ['6'] }]) });
    expect(answer.status).to.equal(200);
    expect(answer.body.data, JSON.stringify(answer.body.data)).to.include({ matched: 1, updated: 1 });
    const [coverage] = await resourcesOf('Coverage', await residentIdOf('WR-1'));
    expect(coverage).to.deep.include({ status: 'cancelled', subscriberId: '1EG4TE5MK73' });
    expect(coverage.payor[0].identifier).to.deep.equal({ value: 'CMS' });
  });

  it('snapshot rule: an allergy the sender no longer lists turns inactive (a new version), the new one is added, an explicit "" empties the diagnoses', async () => {
    const residentId = await residentIdOf('WR-1');
    const ack = await send('ADT^A08^ADT_A01', ['EVN|A08|20260115100000', pidOf('WR-1'), PV1, 'AL1|1|FA|227493005^Cashew nuts^SCT|MO|Rash', 'DG1|1||""']);
    expect(ack.code).to.equal('AA');
    const allergies = await resourcesOf('AllergyIntolerance', residentId);
    const penicillin = allergies.find((a: any) => a.code.coding[0].code === '70618');
    const cashew = allergies.find((a: any) => a.code.coding[0].code === '227493005');
    expect(penicillin.clinicalStatus.coding[0].code).to.equal('inactive');
    expect(penicillin.meta.versionId).to.equal('2');
    expect(cashew).to.deep.include({ category: ['food'], criticality: 'low' });
    expect((await resourcesOf('Condition', residentId))[0].clinicalStatus.coding[0].code).to.equal('inactive');
    // The Coverage was not listed at all: its list is left as it is.
    expect((await resourcesOf('Coverage', residentId))[0].meta.versionId).to.equal('2');
  });

  it('an ORU^R01, then its corrected result (OBX-11 C): one Observation, at version 2; results of a resident not yet known with placeholder demographics are kept, the resident recorded without a birth date', async () => {
    const residentId = await residentIdOf('WR-1');
    const obr = 'OBR|1|PL-77^EHR|FL-77^LAB|2345-7^Glucose panel^LN|||20260115070000+0000';
    expect((await send('ORU^R01^ORU_R01', [pidOf('WR-1'), PV1, obr, 'OBX|1|NM|2345-7^Glucose^LN||182|mg/dL^^UCUM|70-99|H|||F|||20260115071500+0000'])).code).to.equal('AA');
    expect((await send('ORU^R01^ORU_R01', [pidOf('WR-1'), PV1, obr, 'OBX|1|NM|2345-7^Glucose^LN||128|mg/dL^^UCUM|70-99|H|||C|||20260115071500+0000'])).code).to.equal('AA');
    const glucose = (await resourcesOf('Observation', residentId)).filter((o: any) => o.code.coding[0].code === '2345-7');
    expect(glucose).to.have.length(1);
    expect(glucose[0]).to.deep.include({ status: 'corrected' });
    expect(glucose[0].valueQuantity.value).to.equal(128);
    expect(glucose[0].meta.versionId).to.equal('2');
    // A reference lab's placeholders (PID-7 "DOB", PID-8 "SEX") for a resident not known yet:
    // the result is kept, the resident recorded inactive without a birth date, W warnings.
    const unknown = await send('ORU^R01^ORU_R01', ['PID|1||NOBODY^^^MAPLEMRN&2.16.840.1.113883.19.5&ISO^MR||DOE^J||DOB|SEX', PV1, obr.replace('PL-77', 'PL-78').replace('FL-77', 'FL-78'), 'OBX|1|ST|2345-7^Glucose^LN||high||||||F']);
    expect(unknown.code).to.equal('AA');
    const warnings = unknown.ack.getAllSegments('ERR').map((e) => e.toString());
    expect(warnings.find((e) => e.includes('PID^1^7'))!.split('|')[4]).to.equal('W');
    const nobody = await residentIdOf('NOBODY');
    const patient = await r4(`Patient/${nobody}`);
    expect(patient).to.not.have.property('birthDate');
    expect(patient).to.deep.include({ active: false, gender: 'unknown' });
    expect(await resourcesOf('Observation', nobody)).to.have.length(1);
  });

  it('an ORM^O01 order: one ServiceRequest and one clinical.order.created; its cancel (ORC-1 CA) is a status change without an event', async () => {
    const residentId = await residentIdOf('WR-1');
    const order = ['ORC|NW|ORD-9^EHR||||||||20260115080000+0000', 'OBR|1|ORD-9^EHR||24725-4^CT Head^LN'];
    expect((await send('ORM^O01^ORM_O01', [pidOf('WR-1'), PV1, ...order])).code).to.equal('AA');
    expect((await send('ORM^O01^ORM_O01', [pidOf('WR-1'), PV1, 'ORC|CA|ORD-9^EHR', order[1]!])).code).to.equal('AA');
    const requests = await resourcesOf('ServiceRequest', residentId);
    expect(requests).to.have.length(1);
    expect(requests[0]).to.deep.include({ status: 'revoked', intent: 'order' });
    expect(requests[0].code.coding[0].code).to.equal('24725-4');
    expect(requests[0].meta.versionId).to.equal('2');
    expect((await eventsOf(residentId)).filter((t) => t === 'clinical.order.created')).to.have.length(1);
    const rde = await send('RDE^O11^RDE_O11', [pidOf('WR-1'), PV1, 'ORC|NW|RX-1^EHR', 'RXE||0143963401^NICARDIPINE 40 MG/200 ML^NDC|5||mg']);
    expect(rde.code).to.equal('AA');
    const [medication] = await resourcesOf('MedicationRequest', residentId);
    expect(medication).to.deep.include({ status: 'active', intent: 'order' });
    expect(medication.medicationCodeableConcept.coding[0]).to.deep.include({ system: 'http://hl7.org/fhir/sid/ndc', code: '0143963401' });
  });

  it('an A40 merges the MRG-1 resident into the PID-3 one: records moved, both linked, one resident.merged', async () => {
    expect((await send('ADT^A01^ADT_A01', ['EVN|A01|20260115083000', pidOf('WR-OLD'), PV1, 'AL1|1|DA|7980^Sulfa^RXNORM'])).code).to.equal('AA');
    const prior = await residentIdOf('WR-OLD');
    const survivor = await residentIdOf('WR-1');
    const merge = ['EVN|A40|20260115110000', pidOf('WR-1'), `MRG|WR-OLD^^^MAPLEMRN&2.16.840.1.113883.19.5&ISO^MR`];
    const merged = await send('ADT^A40^ADT_A39', merge);
    expect(merged.code, merged.err).to.equal('AA');
    expect((await send('ADT^A40^ADT_A39', merge)).code, 'the same merge again').to.equal('AA');
    const patient = await r4(`Patient/${survivor}`);
    expect(patient.link).to.deep.equal([{ other: { reference: `Patient/${prior}` }, type: 'replaces' }]);
    const old = await r4(`Patient/${prior}`);
    expect(old).to.deep.include({ active: false, link: [{ other: { reference: `Patient/${survivor}` }, type: 'replaced-by' }] });
    expect((await resourcesOf('AllergyIntolerance', survivor)).map((a: any) => a.code.coding[0].code)).to.include('7980');
    expect(await resourcesOf('AllergyIntolerance', prior)).to.deep.equal([]);
    expect((await eventsOf(survivor)).filter((t) => t === 'resident.merged')).to.have.length(1);
    const delivery = await waitFor('resident.merged', () => receiver.accepted.find((d) => d.event_type === 'resident.merged'));
    expect(delivery.data).to.deep.equal({ org_id: tenant.orgId, facility_id: tenant.facilityId, resident_id: survivor, merged_resident_id: prior });
    expect(receiver.refused).to.deep.equal([]);
  });
});
