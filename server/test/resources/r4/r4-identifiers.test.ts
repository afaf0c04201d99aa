// Identifiers as held, on every R4 type (issue 41): each record carries the identifiers it was
// sent with, byte for byte (a FHIR feed's `identifier`, an HL7 v2 order's placer and filler
// numbers), read for a whole page at once; ofctx's own match keys for an OBX or OBR are not the
// sender's and are not rendered. Valid R4, every answer checked against the contract.
import { expect } from 'chai';
import { startTestService, ALL_SCOPES, type TestService } from '../../../../test/support/service.js';
import { call, tokenFor } from '../../../../test/support/http.js';
import { checkR4 } from '../../../../test/support/r4-validator.js';
import { allergy, condition, diagnosticReport, medicationRequest, MRN, observation, patient, serviceRequest } from '../../../../test/support/fhir-resources.js';
import { applyChangeSet } from '../../../src/ingest/apply-change-set.js';
import type { IngestResource, ResourceChange } from '../../../src/ingest/change-set.js';
import { applyHl7Text } from '../../../src/hl7/message-applier.js';
import { setFacilityHl7Code } from '../../../src/organizations/organizations.js';
import { hl7Message, pidOf } from '../../../../test/support/adt-messages.js';
import { testDatabaseKind } from '../../../../test/support/database.js';
import { identifiersByRow } from '../../../src/resources/r4/r4-identifiers.js';

describe('the R4 view: identifiers as held, on every type', function () {
  this.timeout(120_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let token: string;
  let base: string;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'identifiers')).id;
    await setFacilityHl7Code(service.running.app.db, facilityId, 'IDS');
    const subject = { reference: `Patient?identifier=${MRN}|ID-1` };
    const changes: ResourceChange[] = [
      { resource: patient('ID-1'), match: { identifier: { system: MRN, value: 'ID-1' } }, at: '0' },
      ...[observation, allergy, condition, serviceRequest, medicationRequest].map((make, i) => ({ resource: make(subject, `XXX-${i}-0042`) as IngestResource, at: `${i + 1}` })),
      // Based on the order above (its identifier), results by identifier: resolved when read.
      { resource: diagnosticReport(subject, 'XXX-5-0042', { basedOn: [{ reference: 'ServiceRequest?identifier=https://ehr.example/fhir/sid/order|XXX-3-0042' }] }) as IngestResource, at: '6' },
    ];
    const result = await applyChangeSet(service.running.app.db, { orgId, facilityId, mode: 'transaction', actor: 'test', emitEvents: false, changes });
    expect(result.rejected, JSON.stringify(result.outcomes)).to.equal(0);
    token = await tokenFor(service.baseUrl, await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES }));
    base = `/api/v1/fhir/R4/${orgId}/${facilityId}`;
  });
  after(async () => service?.close());

  const search = async (path: string) => {
    const response = await call(service.baseUrl, 'GET', `${base}/${path}`, { token, headers: { accept: 'application/fhir+json' } });
    expect(response.status, path).to.equal(200);
    expect(checkR4(response.body), path).to.deep.equal([]);
    return ((response.body as { entry?: Array<{ resource: Record<string, any> }> }).entry ?? []).map((e) => e.resource);
  };

  it('renders the identifiers a FHIR feed sent, as sent, on Observation, AllergyIntolerance, Condition, ServiceRequest, MedicationRequest and DiagnosticReport', async () => {
    const expected: Record<string, string> = {
      Observation: 'https://ehr.example/fhir/sid/observation',
      AllergyIntolerance: 'https://ehr.example/fhir/sid/allergy',
      Condition: 'https://ehr.example/fhir/sid/condition',
      ServiceRequest: 'https://ehr.example/fhir/sid/order',
      MedicationRequest: 'https://ehr.example/fhir/sid/order',
      DiagnosticReport: 'https://lab.example/accession',
    };
    for (const [i, type] of ['Observation', 'AllergyIntolerance', 'Condition', 'ServiceRequest', 'MedicationRequest', 'DiagnosticReport'].entries()) {
      const [resource] = await search(type);
      expect(resource!.identifier, type).to.deep.equal([{ system: expected[type], value: `XXX-${i}-0042` }]);
      // A read renders the same.
      const read = await call(service.baseUrl, 'GET', `${base}/${type}/${resource!.id}`, { token, headers: { accept: 'application/fhir+json' } });
      expect((read.body as { identifier: unknown }).identifier, `${type} read`).to.deep.equal(resource!.identifier);
    }
    // The report is based on the order of the same key, which ofctx holds.
    const [order] = await search('ServiceRequest');
    const [report] = await search('DiagnosticReport');
    expect(report!.basedOn).to.deep.equal([{ reference: `ServiceRequest/${order!.id}` }]);
  });

  it('renders an HL7 v2 order\'s placer and filler numbers on its DiagnosticReport, and no match key of ofctx\'s own on the Observation', async () => {
    const text = hl7Message('ORU^R01^ORU_R01', 'IDS-1', [
      pidOf('ID-2'),
      'PV1|1|I|2W^201^A^IDS',
      'ORC|RE|PL-9^EHR|ACC-9^LAB',
      'OBR|1|PL-9^EHR|ACC-9^LAB|2345-7^Glucose^LN|||20260115070000|||||||||||||||20260115090000|||F',
      'OBX|1|NM|2345-7^Glucose^LN||99|mg/dL|70-99|N|||F',
    ], { facility: 'IDS' });
    const outcome = await applyHl7Text(service.running.app.db, text);
    expect(outcome.result).to.equal('applied');
    const residentId = (await service.running.app.db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', value: 'ID-2' }).first('resource_id')).resource_id as string;
    const [report] = await search(`DiagnosticReport?patient=${residentId}`);
    expect(report!.identifier).to.deep.equal([{ system: 'urn:ofctx:hl7v2:filler-order:LAB', value: 'ACC-9' }, { system: 'urn:ofctx:hl7v2:placer-order:EHR', value: 'PL-9' }]);
    const [result] = await search(`Observation?patient=${residentId}`);
    expect(result).to.not.have.property('identifier');
  });

  it('reads a page\'s identifiers by record id on SQLite, never the organization\'s range of the type', async function () {
    if (testDatabaseKind !== 'sqlite') return this.skip();
    const db = service.running.app.db;
    const seen: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (q: { sql: string; bindings: unknown[] }) => seen.push(q);
    db.on('query', listen);
    try {
      const ids = (await db('observations').where({ facility_id: facilityId }).pluck('id')) as string[];
      const byRow = await identifiersByRow(db, orgId, 'Observation', ids);
      expect([...byRow.values()].flat()).to.deep.include({ system: 'https://ehr.example/fhir/sid/observation', value: 'XXX-0-0042' });
    } finally {
      db.off('query', listen);
    }
    const read = seen.find((q) => /from `resource_identifiers`/.test(q.sql))!;
    const plan = ((await db.raw(`explain query plan ${read.sql}`, read.bindings as never[])) as Array<{ detail: string }>).map((step) => step.detail).join('\n');
    // Without statistics SQLite took (org_id=? AND resource_type=?) of an identifier index: every identifier of the type.
    expect(plan).to.match(/USING INDEX resource_identifiers_resource_id_index \(resource_id=\?\)/);
    expect(plan).to.not.match(/org_id=\?/);
  });
});

