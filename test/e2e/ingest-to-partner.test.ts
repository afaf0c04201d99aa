// End to end: the facility's system of record posts a FHIR Bundle with its ingest credential;
// a partner's receiver built with @ofctx/verifier gets the signed events of those changes,
// and the partner's SDK reads the new versions.
import { expect } from 'chai';
import { createClient as createSdkClient } from '@ofctx/sdk';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { createClient } from '../../server/src/auth/clients.js';
import { assertDeliveryMatchesContract, contractCheckingFetch } from '../support/contract.js';
import { call, tokenFor } from '../support/http.js';
import { checkR4 } from '../support/r4-validator.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../support/verifying-receiver.js';
import { bundle, postBundle } from '../support/ingest.js';
import { byMrn, coverage, medicationRequest, observation, patient, serviceRequest } from '../support/fhir-resources.js';
import { ALL_SCOPES } from '../support/service.js';

describe('a system of record writes, a partner hears and reads', function () {
  this.timeout(60_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let receiver: VerifyingReceiver;
  let ingestToken: string;

  before(async () => {
    service = await startWebhookService();
    tenant = await service.tenant();
    receiver = await startVerifyingReceiver();
    receiver.secret = (await service.subscribe(tenant, receiver.url, ['resident.admitted', 'resident.discharged', 'coverage.updated', 'clinical.order.created'])).signing_secret;
    const source = await createClient(service.running.app.db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' });
    ingestToken = await tokenFor(service.baseUrl, source);
  });
  after(async () => {
    receiver?.close();
    await service?.close();
  });

  it('a posted Bundle yields verified deliveries, and the SDK reads each new version', async () => {
    const url = 'urn:uuid:3a7d2c10-1b2e-4c5f-8a9b-0c1d2e3f4a5b';
    const admitted = await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('transaction', [
      { resource: patient('E2E-1'), fullUrl: url },
      { resource: coverage({ reference: url }, 'E2E-C1') },
    ]));
    expect(admitted.status).to.equal(200);
    const residentId = (admitted.body.entry[0].response.location as string).split('/')[1]!;

    const first = await waitFor('admission and coverage deliveries', () => {
      const mine = receiver.accepted.filter((d) => d.data.resident_id === residentId);
      return mine.length >= 2 ? mine : undefined;
    });
    expect(first.map((d) => d.event_type).sort()).to.deep.equal(['coverage.updated', 'resident.admitted']);
    expect(first[0]!.data).to.deep.equal({ org_id: tenant.orgId, facility_id: tenant.facilityId, resident_id: residentId });

    const partner = createSdkClient({ baseUrl: service.baseUrl, clientId: tenant.client.client_id, clientSecret: tenant.client.client_secret, fetch: contractCheckingFetch });
    const facility = partner.facility(tenant.orgId, tenant.facilityId);
    const v1 = await facility.residents.get(residentId);
    expect(v1.meta.versionId).to.equal('1');
    expect(v1.active).to.equal(true);

    const discharged = await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('batch', [{ resource: patient('E2E-1', { active: false }) }]));
    expect(discharged.body.entry[0].response).to.include({ status: '200 OK', etag: 'W/"2"' });
    const delivery = await waitFor('the discharge delivery', () => receiver.accepted.find((d) => d.data.resident_id === residentId && d.event_type === 'resident.discharged'));
    expect(delivery.data.facility_id).to.equal(tenant.facilityId);
    const v2 = await facility.residents.get(residentId);
    expect(v2.meta.versionId).to.equal('2');
    expect(v2.active).to.equal(false);
    expect(Date.parse(v2.meta.lastUpdated)).to.be.greaterThan(Date.parse(v1.meta.lastUpdated));
    const [coverageRow] = await facility.coverage.list({ residentId }).then((page) => page.data);
    expect(coverageRow!.meta.versionId).to.equal('1');
    expect(receiver.refused).to.deep.equal([]);

    // The same Bundle again: nothing changes, nothing is delivered.
    const before = receiver.accepted.length;
    await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('batch', [{ resource: patient('E2E-1', { active: false }) }, { resource: coverage(byMrn('E2E-1'), 'E2E-C1') }]));
    expect((await service.running.app.db('webhook_events').where({ resident_id: residentId }).count({ n: '*' }).first())!.n).to.equal(3);
    expect(receiver.accepted.length).to.equal(before);
  });

  it('a new MedicationRequest and a new ServiceRequest are each one clinical.order.created naming the kind of order', async () => {
    const admitted = await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('batch', [{ resource: patient('E2E-2') }]));
    const residentId = (admitted.body.entry[0].response.location as string).split('/')[1]!;
    const orders = bundle('batch', [{ resource: medicationRequest(byMrn('E2E-2'), 'E2E-M1') }, { resource: serviceRequest(byMrn('E2E-2'), 'E2E-S1') }]);
    expect((await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, orders)).status).to.equal(200);
    const delivered = await waitFor('the two order deliveries', () => {
      const mine = receiver.accepted.filter((d) => d.data.resident_id === residentId && d.event_type === 'clinical.order.created');
      return mine.length >= 2 ? mine : undefined;
    });
    expect(delivered.map((d) => d.data.order_type).sort()).to.deep.equal(['MedicationRequest', 'ServiceRequest']);
    for (const delivery of delivered) {
      await assertDeliveryMatchesContract(delivery);
      expect(Object.keys(delivery.data)).to.deep.equal(['org_id', 'facility_id', 'resident_id', 'order_type']);
    }
    const admission = await waitFor('the admission delivery', () => receiver.accepted.find((d) => d.data.resident_id === residentId && d.event_type === 'resident.admitted'));
    expect(admission.data).to.not.have.property('order_type');

    // Sent again, and one of them updated: no new order.
    await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('batch', [{ resource: medicationRequest(byMrn('E2E-2'), 'E2E-M1') }, { resource: serviceRequest(byMrn('E2E-2'), 'E2E-S1', { status: 'completed' }) }]));
    expect((await service.running.app.db('webhook_events').where({ resident_id: residentId, event_type: 'clinical.order.created' }).count({ n: '*' }).first())!.n).to.equal(2);
    expect(receiver.refused).to.deep.equal([]);
  });

  it('a lab result posted as FHIR keeps a unit that is not UCUM, its reference range, interpretation and category, in the R4 view', async () => {
    const admitted = await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('batch', [{ resource: patient('E2E-3') }]));
    const residentId = (admitted.body.entry[0].response.location as string).split('/')[1]!;
    const lab = observation(byMrn('E2E-3'), 'E2E-LAB-1', {
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '26515-7', display: 'Platelets' }] },
      valueQuantity: { value: 250, unit: 'K/uL' },
      referenceRange: [{ low: { value: 150, unit: 'K/uL' }, high: { value: 400, unit: 'K/uL' } }],
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'N' }] }],
    });
    const posted = await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('batch', [{ resource: lab }]));
    expect(posted.body.entry[0].response.status, JSON.stringify(posted.body)).to.match(/^201/);
    const reader = await createClient(service.running.app.db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name: 'lab reader' });
    const found = await call(service.baseUrl, 'GET', `/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}/Observation?patient=${residentId}&category=laboratory`, { token: await tokenFor(service.baseUrl, reader), headers: { accept: 'application/fhir+json' } });
    expect(found.status).to.equal(200);
    expect(checkR4(found.body)).to.deep.equal([]);
    const [result] = found.body.entry.map((e: { resource: Record<string, unknown> }) => e.resource);
    expect(result).to.deep.include({
      valueQuantity: { value: 250, unit: 'K/uL' },
      referenceRange: [{ low: { value: 150, unit: 'K/uL' }, high: { value: 400, unit: 'K/uL' } }],
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'N' }] }],
      identifier: [{ system: 'https://ehr.example/fhir/sid/observation', value: 'E2E-LAB-1' }],
    });
  });
});
