// The 17 real HL7 v2 messages of ../shared/samples/hl7v2/ (three public projects; read in
// place, never copied into this repository), sent over MLLP as an interface engine sends them
// (segments ended by CR) and once more as stored (ended by LF, some with a byte-order mark),
// which is the same control id and so applied once. Each is answered AA with its resident
// and records readable as valid R4 (all 17 today, one a resident recorded without a birth date),
// or AE with the reason the message itself gives.
// Every result message gives its DiagnosticReports with their results (or the narrative as
// presentedForm), and its numeric results as valueQuantity.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hl7Message } from '@medplum/core';
import { startTestService, type TestService } from '../support/service.js';
import { createClient } from '../../server/src/auth/clients.js';
import { findClient } from '../../server/src/auth/clients.js';
import { createFacility, createOrganization, setFacilityHl7Code } from '../../server/src/organizations/organizations.js';
import { readMessage } from '../../server/src/hl7/message-applier.js';
import { translateMessage } from '../../server/src/hl7/message-translator.js';
import { ALL_SCOPES } from '../support/service.js';
import { call } from '../support/http.js';
import { checkR4 } from '../support/r4-validator.js';
import { hl7Message } from '../support/adt-messages.js';
import { mllpClient, msa, type MllpTestClient } from '../support/mllp.js';

const SAMPLES = fileURLToPath(new URL('../../../shared/samples/hl7v2/', import.meta.url));

const TABLES = { Coverage: 'coverage', AllergyIntolerance: 'allergies', Observation: 'observations', Condition: 'conditions', ServiceRequest: 'service_requests', MedicationRequest: 'medication_requests', DiagnosticReport: 'diagnostic_reports' } as const;
const R4_TYPES = ['Coverage', 'AllergyIntolerance', 'Observation', 'Condition', 'ServiceRequest', 'MedicationRequest', 'DiagnosticReport'] as const;

/** What each sample must give: AA and its records, or AE and the field its ERR names. */
const EXPECTED: Array<{ file: string; ack: 'AA' | 'AE'; err?: string; warn?: string[]; records?: Partial<Record<keyof typeof TABLES, number>>; narrative?: string; noBirthDate?: boolean }> = [
  { file: 'microsoft-fhir-converter/ADT-A01-01.hl7', ack: 'AA', records: { Coverage: 1, AllergyIntolerance: 1, Condition: 1, Observation: 1 } },
  // The same resident, with the same IN1, AL1, DG1 and OBX: nothing new, nothing duplicated.
  { file: 'microsoft-fhir-converter/ADT-A08-01.hl7', ack: 'AA', records: { Coverage: 0, AllergyIntolerance: 0, Condition: 0, Observation: 0 } },
  { file: 'microsoft-fhir-converter/ADT-A03-01.hl7', ack: 'AA', records: { Coverage: 0, AllergyIntolerance: 0, Condition: 0, Observation: 0 } },
  { file: 'microsoft-fhir-converter/ADT-A28-01.hl7', ack: 'AA', records: { Coverage: 0, AllergyIntolerance: 0, Condition: 0, Observation: 0 } },
  { file: 'microsoft-fhir-converter/ADT-A31-01.hl7', ack: 'AA', records: { Coverage: 0, AllergyIntolerance: 0, Condition: 0, Observation: 0 } },
  { file: 'microsoft-fhir-converter/ADT-A40-01.hl7', ack: 'AA' },
  { file: 'microsoft-fhir-converter/ADT04-251.hl7', ack: 'AA' },
  // Five OBX: an RP, a CWE, an RP and an NM are kept; an ED without OBX-3 is named in a W warning.
  { file: 'microsoft-fhir-converter/ORU-R01-01.hl7', ack: 'AA', records: { Observation: 4, DiagnosticReport: 1 } },
  // No PV1 and an empty MSH-4: nothing names the facility, and the source is bound to one
  // (MLLP_SOURCE_FACILITIES): the results go there. Ten OBX, two of them pending without a value.
  { file: 'microsoft-fhir-converter/LAB-ORU-1.hl7', ack: 'AA', records: { Observation: 8, DiagnosticReport: 2 } },
  // Another sending application than the ADT feed: its allergy and diagnosis are its own list items.
  // Its OBR carries a result: a DiagnosticReport besides the ServiceRequest.
  { file: 'microsoft-fhir-converter/ORM-O01-01.hl7', ack: 'AA', records: { ServiceRequest: 1, AllergyIntolerance: 1, Condition: 1, Observation: 1, DiagnosticReport: 1 } },
  // The same placer/filler numbers (1101/1201) and diagnosis id (DG1-20 DG1002) as the ORM: those are updated, not added.
  // Its OBR-4 (a lipid panel) is not the ORM's (CT head): the results are a report of their own.
  { file: 'microsoft-fhir-converter/OML-O21-01.hl7', ack: 'AA', records: { ServiceRequest: 0, Condition: 0, AllergyIntolerance: 1, Coverage: 1, Observation: 4, DiagnosticReport: 1 } },
  { file: 'microsoft-fhir-converter/RDE-O11-01.hl7', ack: 'AA', records: { MedicationRequest: 1, Coverage: 1 } },
  { file: 'linuxforhealth-hl7v2-fhir-converter/sample_unix.hl7', ack: 'AA', records: { AllergyIntolerance: 2, Observation: 1 } },
  // An echo report: three TX OBX without OBX-3 are its narrative, the report's presentedForm.
  { file: 'linuxforhealth-hl7v2-fhir-converter/ORU-multiline-short.hl7', ack: 'AA', records: { Observation: 0, DiagnosticReport: 1 }, narrative: '[PII] Emergency Department\nED Encounter Arrival Date: [ADDRESS] [PERSONALNAME]:' },
  // A reference lab strips PHI: PID-7 is the placeholder "DOB" and PID-8 "SEX", left out with
  // warnings; the resident is not known here and is recorded without a birth date. Three ST
  // results under one OBR: one report.
  { file: 'cdcgov-trusted-intermediary/002_Epic_ORU_R01.hl7', ack: 'AA', warn: ['PID^1^7', 'PID^1^8'], records: { Observation: 3, DiagnosticReport: 1 }, noBirthDate: true },
  { file: 'cdcgov-trusted-intermediary/004_Oracle_ORU_R01.hl7', ack: 'AA', records: { Observation: 3, DiagnosticReport: 1 } },
  // Newborn screening: 15 OBR of one order (one filler number), 110 OBX (CWE, NM, FT), every one kept: 15 reports.
  { file: 'cdcgov-trusted-intermediary/002_Natus_ORU_R01_NBS.hl7', ack: 'AA', records: { Observation: 110, DiagnosticReport: 15 } },
];

const BOUND_FACILITY = 'SAMPLES-LAB';

/**
 * The codes (OBX-3.1) of the message's numeric results (OBX-2 NM with a value) that it uses for
 * nothing else: each such Observation it writes must be a valueQuantity in the R4 view.
 */
function numericCodes(raw: string): Set<string> {
  const obx = raw.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).filter((line) => line.startsWith('OBX|')).map((line) => line.split('|'));
  const codeOf = (f: string[]) => (f[3] ?? '').split('^')[0]!;
  const other = new Set(obx.filter((f) => f[2] !== 'NM').map(codeOf));
  return new Set(obx.filter((f) => f[2] === 'NM' && (f[5] ?? '') !== '').map(codeOf).filter((code) => !other.has(code)));
}


describe('real HL7 v2 messages from public projects', function () {
  this.timeout(120_000);
  if (!existsSync(SAMPLES)) {
    it.skip(`needs ../shared/samples/hl7v2/ (absent in this clone: ${SAMPLES})`);
    return;
  }
  let service: TestService;
  let client: MllpTestClient;
  let orgId: string;
  let token: string;
  const facilities = new Map<string, string>();

  before(async () => {
    // The test's own address is bound to one facility, for the sample that names none.
    service = await startTestService({ env: { MLLP_PORT: '0', MLLP_SOURCE_FACILITIES: `127.0.0.1=${BOUND_FACILITY}` } });
    const db = service.running.app.db;
    orgId = (await createOrganization(db, 'Samples Org')).id;
    // One facility per code the samples name (PV1-3.4, else MSH-4), as an operator maps them.
    for (const { file } of EXPECTED) {
      const t = translateMessage(readMessage(readFileSync(join(SAMPLES, file), 'utf8')), undefined, BOUND_FACILITY);
      if (facilities.has(t.facilityCode)) continue;
      const facility = await createFacility(db, orgId, t.facilityCode);
      await setFacilityHl7Code(db, facility.id, t.facilityCode);
      facilities.set(t.facilityCode, facility.id);
    }
    const partner = await createClient(db, { orgId, facilityIds: [...facilities.values()], scopes: ALL_SCOPES, name: 'samples partner' });
    token = (await service.running.app.tokens.issue((await findClient(db, partner.client_id))!, ALL_SCOPES)).token;
    client = await mllpClient(service.running.mllp!.port);
    // ADT-A40-01 merges MRG-1 56789 (BCBS) into 12345: that prior resident comes first, from the same sender.
    const prior = await client.send(hl7Message('ADT^A28^ADT_A05', 'SAMPLES-PRIOR', ['EVN|A28|20190423150000', 'PID|1||56789^^^BCBS^MR||Test^Prior||20180205|F'], { application: 'Ntierprise', facility: 'Ntierprise Clinic' }));
    expect(msa(prior).code).to.equal('AA');
  });
  after(async () => {
    client?.close();
    await service?.close();
  });

  const countsOf = async (residentId: string) => {
    const counts: Record<string, number> = {};
    for (const [type, table] of Object.entries(TABLES)) counts[type] = Number((await service.running.app.db(table).where({ resident_id: residentId }).count({ n: '*' }).first())!.n);
    return counts;
  };

  for (const expected of EXPECTED) {
    it(`${expected.file}: ${expected.ack}${expected.err ? ` naming ${expected.err}` : ''}`, async () => {
      const raw = readFileSync(join(SAMPLES, expected.file), 'utf8');
      const asSent = raw.replace(/^\uFEFF/, '').replace(/\r?\n/g, '\r');
      const t = expected.ack === 'AA' ? translateMessage(readMessage(raw), undefined, BOUND_FACILITY) : undefined;
      const residentOf = async () => (t ? ((await service.running.app.db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system: t.match.system, value: t.match.value }).pluck('resource_id')) as string[])[0] : undefined);
      const known = await residentOf();
      const before = known ? await countsOf(known) : {};
      const sentAt = new Date(Date.now() - 1000).toISOString();
      const first = await client.send(asSent);
      const again = await client.send(raw);
      const ack = msa(first);
      expect(ack.code, ack.err).to.equal(expected.ack);
      expect(msa(again).code, 'the same message as stored (LF, BOM)').to.equal(expected.ack);
      expect(ack.controlId).to.equal(Hl7Message.parse(asSent.trim()).getSegment('MSH')!.getField(10)!.toString());
      if (expected.ack === 'AE') {
        expect(first.getSegment('ERR')!.toString()).to.include(expected.err);
        return;
      }
      const resident = await service.running.app.db('residents').where({ id: await residentOf() }).first();
      expect(resident, 'the resident').to.not.equal(undefined);
      for (const field of expected.warn ?? []) {
        const errs = first.getAllSegments('ERR').map((e) => e.toString());
        expect(errs.some((e) => e.includes(field) && e.split('|')[4] === 'W'), `a W warning naming ${field}: ${errs.join(' / ')}`).to.equal(true);
      }
      const base = `/api/v1/fhir/R4/${orgId}/${resident.facility_id}`;
      const patient = await call(service.baseUrl, 'GET', `${base}/Patient/${resident.id}`, { token, headers: { accept: 'application/fhir+json' } });
      expect(patient.status).to.equal(200);
      expect(checkR4(patient.body)).to.deep.equal([]);
      if (expected.noBirthDate) expect(patient.body, 'no birth date made up').to.not.have.property('birthDate');
      for (const type of R4_TYPES) {
        const found = await call(service.baseUrl, 'GET', `${base}/${type}?patient=${resident.id}&_count=200`, { token, headers: { accept: 'application/fhir+json' } });
        expect(found.status).to.equal(200);
        expect(checkR4(found.body), type).to.deep.equal([]);
        if (type === 'Observation') {
          const numeric = numericCodes(raw);
          const entries = (found.body as { entry?: Array<{ resource: { meta: { lastUpdated: string }; code: { coding: Array<{ code: string }> }; valueQuantity?: { value: unknown } } }> }).entry ?? [];
          const written = entries.filter((e) => e.resource.meta.lastUpdated >= sentAt);
          const asText = written.filter((e) => e.resource.code.coding.some((c) => numeric.has(c.code)) && typeof e.resource.valueQuantity?.value !== 'number');
          expect(asText.map((e) => e.resource.code.coding[0]!.code), 'numeric results as valueQuantity').to.deep.equal([]);
        }
      }
      // Each report this message wrote, with its results (and they are the resident's own), or its narrative.
      const reports = await call(service.baseUrl, 'GET', `${base}/DiagnosticReport?patient=${resident.id}&_include=DiagnosticReport:result&_count=200`, { token, headers: { accept: 'application/fhir+json' } });
      expect(reports.status).to.equal(200);
      expect(checkR4(reports.body)).to.deep.equal([]);
      type Entry = { resource: { resourceType: string; id: string; meta: { lastUpdated: string }; result?: Array<{ reference: string }>; presentedForm?: Array<{ data: string }>; category?: unknown[]; effectiveDateTime?: string; subject?: unknown }; search: { mode: string } };
      const entries = ((reports.body as { entry?: Entry[] }).entry ?? []);
      const included = new Set(entries.filter((e) => e.search.mode === 'include').map((e) => `Observation/${e.resource.id}`));
      for (const { resource: report } of entries.filter((e) => e.search.mode === 'match' && e.resource.meta.lastUpdated >= sentAt)) {
        expect(report.category, 'US Core: category').to.have.length.greaterThan(0);
        expect(report.effectiveDateTime, 'US Core: effective').to.be.a('string');
        expect(report.result?.length || report.presentedForm?.length, 'results or a narrative').to.be.greaterThan(0);
        for (const result of report.result ?? []) expect(included.has(result.reference), `${result.reference} included`).to.equal(true);
        if (expected.narrative) expect(Buffer.from(report.presentedForm![0]!.data, 'base64').toString('utf8')).to.equal(expected.narrative);
      }
      const counts = await countsOf(resident.id);
      // What this message added (a resident several samples share keeps the others' records).
      for (const [type, n] of Object.entries(expected.records ?? {})) expect(counts[type]! - (before[type] ?? 0), `new ${type}: ${JSON.stringify(counts)} after ${JSON.stringify(before)}`).to.equal(n);
    });
  }
});
