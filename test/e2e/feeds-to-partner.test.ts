// End to end, the feeds a facility really runs: an ADT^A01 over a real MLLP socket and an A02
// across facilities reach a partner's @ofctx/verifier receiver as signed resident events, and
// the partner's SDK reads the Patient; an X12 271 with EB01 6 cancels a Coverage and is heard
// as coverage.updated. A dependent's Coverage, from a FHIR feed and from an IN1, reaches the
// R4 view with what an X12 270 needs (type, class, relationship, subscriber, identifiers).
import { expect } from 'chai';
import { createClient as createSdkClient } from '@ofctx/sdk';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { createClient } from '../../server/src/auth/clients.js';
import { setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { contractCheckingFetch } from '../support/contract.js';
import { call, tokenFor } from '../support/http.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../support/verifying-receiver.js';
import { bundle, postBundle } from '../support/ingest.js';
import { coverage, patient } from '../support/fhir-resources.js';
import { adtMessage, hl7Message, MRN_SYSTEM, pidOf, segment } from '../support/adt-messages.js';
import { checkR4 } from '../support/r4-validator.js';
import { mllpClient, msa } from '../support/mllp.js';
import { interchange271 } from '../support/x12.js';

describe('HL7 v2 and X12 feeds reach a partner', function () {
  this.timeout(60_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let receiver: VerifyingReceiver;

  before(async () => {
    service = await startWebhookService({ env: { MLLP_PORT: '0' } });
    tenant = await service.tenant();
    await setFacilityHl7Code(service.running.app.db, tenant.facilityId, 'E2E-HOME');
    await setFacilityHl7Code(service.running.app.db, tenant.otherFacilityId, 'E2E-OTHER');
    receiver = await startVerifyingReceiver();
    receiver.secret = (await service.subscribe(tenant, receiver.url, ['resident.admitted', 'resident.transferred', 'coverage.updated'])).signing_secret;
  });
  after(async () => {
    receiver?.close();
    await service?.close();
  });

  const residentIdOf = async (mrn: string) => (await service.running.app.db('resource_identifiers').where({ org_id: tenant.orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id')).resource_id as string;
  const partner = () => createSdkClient({ baseUrl: service.baseUrl, clientId: tenant.client.client_id, clientSecret: tenant.client.client_secret, fetch: contractCheckingFetch }).facility(tenant.orgId, tenant.facilityId);

  it('an A01 over MLLP: AA, a signed resident.admitted at the receiver, the Patient through the SDK', async () => {
    const client = await mllpClient(service.running.mllp!.port);
    const ack = msa(await client.send(adtMessage({ event: 'A01', controlId: 'E2E-A01', mrn: 'E2E-HL7-1', facility: 'E2E-HOME', family: 'Nakamura', given: 'Hiro' })));
    client.close();
    expect(ack).to.include({ code: 'AA', controlId: 'E2E-A01' });
    const residentId = await residentIdOf('E2E-HL7-1');
    const delivery = await waitFor('the admission delivery', () => receiver.accepted.find((d) => d.event_type === 'resident.admitted' && d.data.resident_id === residentId));
    expect(delivery.data).to.deep.equal({ org_id: tenant.orgId, facility_id: tenant.facilityId, resident_id: residentId });
    const resident = await partner().residents.get(residentId);
    expect(resident.active).to.equal(true);
    expect(resident.meta.versionId).to.equal('1');
    expect(JSON.stringify(resident)).to.include('Nakamura');
    expect(receiver.refused).to.deep.equal([]);
  });

  it('an A02 from another facility of the organization: exactly one resident.transferred', async () => {
    const client = await mllpClient(service.running.mllp!.port);
    expect(msa(await client.send(adtMessage({ event: 'A01', controlId: 'E2E-A01-2', mrn: 'E2E-HL7-2', facility: 'E2E-OTHER' }))).code).to.equal('AA');
    expect(msa(await client.send(adtMessage({ event: 'A02', controlId: 'E2E-A02', mrn: 'E2E-HL7-2', facility: 'E2E-HOME' }))).code).to.equal('AA');
    // The sender re-sends the A02 (it missed our ACK): applied once.
    expect(msa(await client.send(adtMessage({ event: 'A02', controlId: 'E2E-A02', mrn: 'E2E-HL7-2', facility: 'E2E-HOME' }))).code).to.equal('AA');
    client.close();
    const residentId = await residentIdOf('E2E-HL7-2');
    const delivery = await waitFor('the transfer delivery', () => receiver.accepted.find((d) => d.event_type === 'resident.transferred' && d.data.resident_id === residentId));
    expect(delivery.data.facility_id).to.equal(tenant.facilityId);
    const transfers = await service.running.app.db('webhook_events').where({ resident_id: residentId, event_type: 'resident.transferred' }).count({ n: '*' }).first();
    expect(Number(transfers!.n)).to.equal(1);
    expect((await partner().residents.get(residentId)).meta.versionId).to.equal('2');
  });

  it('a 271 with EB01 6: the Coverage is cancelled and coverage.updated is delivered', async () => {
    const db = service.running.app.db;
    const source = await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ['ingest.write'], name: 'EHR and clearinghouse', kind: 'ingest' });
    const token = await tokenFor(service.baseUrl, source);
    const url = 'urn:uuid:5b7d2c10-1b2e-4c5f-8a9b-0c1d2e3f4a5b';
    const created = await postBundle(service.baseUrl, token, tenant.orgId, tenant.facilityId, bundle('transaction', [{ resource: patient('E2E-X12-1'), fullUrl: url }, { resource: coverage({ reference: url }, 'E2E-COV-1') }]));
    expect(created.status).to.equal(200);
    const coverageId = (created.body.entry[1].response.location as string).split('/')[1]!;
    await waitFor('the coverage creation delivery', () => receiver.accepted.find((d) => d.event_type === 'coverage.updated'));
    const before = receiver.accepted.filter((d) => d.event_type === 'coverage.updated').length;

    const answer = await call(service.baseUrl, 'POST', `/api/v1/ingest/${tenant.orgId}/${tenant.facilityId}/x12`, { token, headers: { 'content-type': 'application/edi-x12' }, rawBody: interchange271([{ trace: 'E2E-COV-1', memberId: '1EG4TE5MK73', eligibility: ['6'] }]) });
    expect(answer.status).to.equal(200);
    expect(answer.body.data).to.include({ matched: 1, updated: 1, events: 1 });
    await waitFor('the coverage.updated delivery', () => (receiver.accepted.filter((d) => d.event_type === 'coverage.updated').length > before ? true : undefined));
    const [row] = (await partner().coverage.list({})).data.filter((c) => c.id === coverageId);
    expect(row!.status).to.equal('cancelled');
    expect(row!.meta.versionId).to.equal('2');
    expect(receiver.refused).to.deep.equal([]);
  });

  it('a dependent\'s Coverage from a FHIR feed and from an IN1 comes back in the R4 view with type, class, relationship and subscriber; /ofctx/ keeps its shape', async () => {
    const db = service.running.app.db;
    const CLASS = 'http://terminology.hl7.org/CodeSystem/coverage-class';
    const RELATIONSHIP = 'http://terminology.hl7.org/CodeSystem/subscriber-relationship';
    const r4 = async (path: string) => {
      const answer = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}/${path}`, { token: tenant.token, headers: { accept: 'application/fhir+json' } });
      expect(answer.status, path).to.equal(200);
      expect(checkR4(answer.body), path).to.deep.equal([]);
      return answer.body;
    };
    const ofctxShape = async (id: string) => {
      const answer = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/coverage/${id}`, { token: tenant.token });
      expect(answer.status).to.equal(200);
      return Object.keys(answer.body.data ?? answer.body).sort();
    };
    const OFCTX_KEYS = ['beneficiary', 'id', 'meta', 'order', 'payor', 'period', 'resourceType', 'status', 'subscriberId'];

    // The FHIR feed: a spouse's Medicare Advantage plan, the subscriber contained.
    const source = await createClient(db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ['ingest.write'], name: 'EHR with dependents', kind: 'ingest' });
    const token = await tokenFor(service.baseUrl, source);
    const url = 'urn:uuid:7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
    const details = {
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'HMO', display: 'health maintenance organization policy' }] },
      class: [{ type: { coding: [{ system: CLASS, code: 'group' }] }, value: 'GRP-100', name: 'Retirees' }, { type: { coding: [{ system: CLASS, code: 'plan' }] }, value: 'MA-GOLD' }],
      relationship: { coding: [{ system: RELATIONSHIP, code: 'spouse' }] },
      contained: [{ resourceType: 'RelatedPerson', id: 'sub', patient: { reference: url }, name: [{ family: 'Okafor', given: ['Chidi'] }], birthDate: '1938-02-11', gender: 'male' }],
      subscriber: { reference: '#sub' },
    };
    const created = await postBundle(service.baseUrl, token, tenant.orgId, tenant.facilityId, bundle('transaction', [{ resource: patient('E2E-DEP-1'), fullUrl: url }, { resource: coverage({ reference: url }, 'E2E-COV-DEP', details) }]));
    expect(created.status).to.equal(200);
    const fhirCoverageId = (created.body.entry[1].response.location as string).split('/')[1]!;
    const fromFhir = await r4(`Coverage/${fhirCoverageId}`);
    expect(fromFhir).to.deep.include({ identifier: [{ system: 'https://ehr.example/fhir/sid/coverage', value: 'E2E-COV-DEP' }], type: details.type, class: details.class, relationship: details.relationship, subscriber: { reference: '#subscriber' } });
    expect(fromFhir.contained[0]).to.deep.include({ resourceType: 'RelatedPerson', id: 'subscriber', patient: fromFhir.beneficiary, name: [{ family: 'Okafor', given: ['Chidi'] }], birthDate: '1938-02-11', gender: 'male' });
    expect(await ofctxShape(fhirCoverageId)).to.deep.equal(OFCTX_KEYS);

    // HL7 v2: an A01 whose IN1 insures the resident as the child of the insured.
    const in1 = segment('IN1', { 1: '1', 2: 'MCD-PLAN^Medicaid Plus', 3: 'MCD', 4: 'State Medicaid', 8: 'GRP-7', 9: 'Family plan', 12: '20250101', 15: 'MC', 16: 'Nakamura^Kenji', 17: 'CHD', 18: '19500304', 36: 'MCD-555', 43: 'M' });
    const client = await mllpClient(service.running.mllp!.port);
    const ack = msa(await client.send(hl7Message('ADT^A01^ADT_A01', 'E2E-A01-IN1', ['EVN|A01|20260115083000', pidOf('E2E-HL7-DEP', 'Nakamura'), 'PV1|1|I|2W^202^A^E2E-HOME', in1], { facility: 'E2E-HOME' })));
    client.close();
    expect(ack).to.include({ code: 'AA', controlId: 'E2E-A01-IN1' });
    const residentId = await residentIdOf('E2E-HL7-DEP');
    const search = await r4(`Coverage?beneficiary=Patient/${residentId}`);
    expect(search.entry).to.have.length(1);
    const fromHl7 = search.entry[0].resource;
    expect(fromHl7).to.deep.include({
      type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0086', code: 'MC' }] },
      class: [
        { type: { coding: [{ system: CLASS, code: 'group' }] }, value: 'GRP-7', name: 'Family plan' },
        { type: { coding: [{ system: CLASS, code: 'plan' }] }, value: 'MCD-PLAN', name: 'Medicaid Plus' },
      ],
      relationship: { coding: [{ system: RELATIONSHIP, code: 'child' }] },
      subscriber: { reference: '#subscriber' },
      subscriberId: 'MCD-555',
    });
    expect(fromHl7.identifier).to.deep.equal([{ system: 'urn:ofctx:hl7v2:coverage:TESTADT:MCD-PLAN', value: 'MCD-555' }]);
    expect(fromHl7.contained[0]).to.deep.include({ patient: { reference: `Patient/${residentId}` }, name: [{ family: 'Nakamura', given: ['Kenji'] }], birthDate: '1950-03-04', gender: 'male' });
    expect(await ofctxShape(fromHl7.id)).to.deep.equal(OFCTX_KEYS);
  });
});
