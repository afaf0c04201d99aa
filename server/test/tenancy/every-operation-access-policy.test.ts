// The access policy on every operation of the contract, read from the document itself: one
// resident of the tenant holding a record of every kind (test/support/records-of-every-kind.ts)
// is hidden from three credentials of the tenant, each by one of the policy's three means: a
// restricted security label on its Patient (a credential not cleared --sensitive), a Consent
// denying the credential's purpose of use (HPAYMT), a payer the resident has no Coverage of
// (--payer); and a fourth's token carries a granular scope (SMART v2) that shows it laboratory
// Observations only, and so no vital sign and no record of the other clinical types. Each
// partner operation's valid request (test/support/contract-operations.ts) is sent by each of
// them, then by a credential that may see everything. No answer to the four names what is
// hidden from it (the resident's records, its MRN, an event about it or a delivery of one; the
// granular token's hidden records) beyond what the request itself named; a request naming one
// finds nothing (404), where the last credential's same request is answered; an export they
// start holds none of them in its files; and no audit row puts the resident in the accounting
// of disclosures for the three it is hidden from. The last credential's answers do name all
// of it, so each check can fail.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createClient, type IssuedClient } from '../../src/auth/clients.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import type { IngestResource } from '../../src/ingest/change-set.js';
import { DEFAULT_POLICY, type AccessPolicy } from '../../src/tenancy/access-policy.js';
import { call, tokenFor, type TestResponse } from '../../../test/support/http.js';
import { ALL_SCOPES, startTestService, type TestService } from '../../../test/support/service.js';
import { seedRecordsOfEveryKind, type RecordsOfEveryKind } from '../../../test/support/records-of-every-kind.js';
import { observation } from '../../../test/support/fhir-resources.js';
import { contractOperations, isIngestOperation, namedBeyond, securityOf, sendRequest, textOf, validRequestOf, type ValidRequest } from '../../../test/support/contract-operations.js';

const RESTRICTED = [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' }];

/** The tables whose rows are a resident's records, by their resident column. */
const RESIDENT_TABLES: Array<[table: string, residentColumn: string]> = [
  ['residents', 'id'],
  ['coverage', 'resident_id'],
  ['observations', 'resident_id'],
  ['allergies', 'resident_id'],
  ['conditions', 'resident_id'],
  ['service_requests', 'resident_id'],
  ['medication_requests', 'resident_id'],
  ['diagnostic_reports', 'resident_id'],
  ['eligibility_responses', 'resident_id'],
];

interface Credential {
  name: string;
  /** What it must not be told (ids, the MRN); none for the credential that may see everything. */
  hidden: string[];
  /** Whether its policy hides the resident from it. */
  hidesResident: boolean;
  client: IssuedClient;
  token: string;
}

const SIGHTED = 'cleared to see everything';
const LABORATORY_ONLY = 'residents.read coverage.read webhooks.manage system/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory';

/** Everything that says something about the hidden resident: its records' ids, its MRN, its events and their deliveries. */
async function tokensOfResident(db: Knex, orgId: string, residentId: string, mrn: string): Promise<string[]> {
  const ids: string[] = [mrn];
  for (const [table, column] of RESIDENT_TABLES) ids.push(...(await db(table).where({ [column]: residentId }).pluck('id')));
  const events: string[] = await db('webhook_events').where({ org_id: orgId, resident_id: residentId }).pluck('id');
  ids.push(...events, ...(await db('webhook_deliveries').whereIn('event_id', events).pluck('id')));
  return ids;
}

describe('the access policy on every operation', function () {
  this.timeout(180_000);
  let service: TestService;
  let every: RecordsOfEveryKind;
  let db: Knex;
  let hidden: string;
  /** What names the hidden resident. */
  let residentTokens: string[];
  let laboratoryResult: string;
  const credentials: Credential[] = [];
  /** Operations whose answer to the credential that sees the resident names it beyond the request. */
  const seenBySighted: string[] = [];

  before(async () => {
    service = await startTestService({ env: { CLIENT_QUOTA_RATE: '1000000', CLIENT_QUOTA_BURST: '1000000', BULK_EXPORT_MAX_JOBS_PER_CLIENT: '20' } });
    every = await seedRecordsOfEveryKind(service);
    db = service.running.app.db;
    const { t } = every;
    hidden = every.ids.residents!;
    const r4 = `/api/v1/fhir/R4/${t.orgA}/${t.a1}`;
    const read = await call(service.baseUrl, 'GET', `${r4}/Patient/${hidden}`, { token: t.fullToken });
    expect(read.status).to.equal(200);
    const { id: _id, meta: _meta, ...patient } = read.body as { id: string; meta: unknown; identifier: Array<{ system: string; value: string }> };
    const mrn = patient.identifier.find((i) => /mrn/i.test(i.system))!;
    // Its Patient labelled restricted, and a Consent of its own denying payment (HPAYMT), through the one road.
    const consent = {
      resourceType: 'Consent',
      status: 'active',
      scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' }] },
      category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0' }] }],
      patient: { reference: `Patient?identifier=${mrn.system}|${mrn.value}` },
      policyRule: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'OPTOUT' }] },
      provision: { type: 'deny', purpose: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'HPAYMT' }] },
    };
    const applied = await applyChangeSet(db, {
      orgId: t.orgA,
      facilityId: t.a1,
      mode: 'transaction',
      actor: 'test',
      emitEvents: true,
      changes: [
        { resource: { ...patient, meta: { security: RESTRICTED } } as unknown as IngestResource, match: { id: hidden }, at: 'Patient' },
        { resource: consent as unknown as IngestResource, at: 'Consent' },
        // A laboratory result, which the laboratory-only token is shown.
        { resource: observation({ reference: `Patient/${hidden}` }, 'POLICY-WALK-LAB', { category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }], code: { coding: [{ system: 'http://loinc.org', code: '2345-7', display: 'Glucose' }] }, valueQuantity: { value: 95, unit: 'mg/dL', system: 'http://unitsofmeasure.org', code: 'mg/dL' } }) as unknown as IngestResource, at: 'Observation' },
      ],
    });
    expect(applied.committed, JSON.stringify(applied.outcomes)).to.equal(true);
    laboratoryResult = (applied.outcomes[2] as { id: string }).id;
    // A payer another resident of the facility has, and the hidden one has not.
    const itsPayers: string[] = (await db('coverage').where({ resident_id: hidden }).pluck('payor_name')).map((p: string) => p.toLowerCase());
    const payer = (await db('coverage').where({ facility_id: t.a1 }).whereNot({ resident_id: hidden }).pluck('payor_name')).find((p: string) => !itsPayers.includes(p.toLowerCase()));
    expect(payer, 'a payer of another resident').to.be.a('string');
    const ofResident = await tokensOfResident(db, t.orgA, hidden, mrn.value);
    // Every record the laboratory-only token may not see: vital signs, and the other clinical types whole.
    const notLaboratory = [
      ...(await db('observations').where({ facility_id: t.a1 }).where((q) => q.whereNull('category_code').orWhereNot({ category_code: 'laboratory' })).pluck('id')),
      ...(await Promise.all(['allergies', 'conditions', 'service_requests', 'medication_requests', 'diagnostic_reports'].map((table) => db(table).where({ facility_id: t.a1 }).pluck('id')))).flat(),
    ];
    const credentialsOf: Array<[string, string[], Partial<AccessPolicy>, string?]> = [
      ['not cleared for restricted records', ofResident, {}],
      ['denied by the resident\'s consent (HPAYMT)', ofResident, { purpose: 'HPAYMT', sensitive: true }],
      ['scoped to a payer the resident has not', ofResident, { payers: [payer.toLowerCase()], sensitive: true }],
      ['granted laboratory Observations only', notLaboratory, { sensitive: true }, LABORATORY_ONLY],
      [SIGHTED, [], { sensitive: true }],
    ];
    for (const [name, hiddenFromIt, policy, scope] of credentialsOf) {
      const client = await createClient(db, { orgId: t.orgA, facilityIds: [t.a1], scopes: ALL_SCOPES, name, policy: { ...DEFAULT_POLICY, ...policy } });
      credentials.push({ name, hidden: hiddenFromIt, hidesResident: hiddenFromIt === ofResident, client, token: await tokenFor(service.baseUrl, client, scope) });
    }
    residentTokens = ofResident;
  });
  after(() => service?.close());

  const send = (request: ValidRequest): Promise<TestResponse> => sendRequest(service.baseUrl, request);
  const names = (request: ValidRequest, tokens: string[]) => tokens.some((token) => request.path.includes(token));

  /** An export an answer started, followed to its files, each downloaded as a partner would: their text. */
  async function exportedFiles(answer: TestResponse, token: string): Promise<string[]> {
    const location = answer.headers.get('content-location');
    if (answer.status !== 202 || !location) return [];
    const status = new URL(location).pathname;
    let manifest: TestResponse;
    for (;;) {
      manifest = await call(service.baseUrl, 'GET', status, { token });
      if (manifest.status !== 202) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(manifest.status, `${status}: ${JSON.stringify(manifest.body)}`).to.equal(200);
    const files: string[] = [];
    for (const output of (manifest.body as { output: Array<{ url: string }> }).output) {
      const file = await call(service.baseUrl, 'GET', new URL(output.url).pathname, { token, headers: { accept: 'application/fhir+ndjson' } });
      expect(file.status).to.equal(200);
      files.push(textOf(file));
    }
    return files;
  }

  // Partner operations: a system of record's ingestion writes, it does not read; the console
  // is the organization's own operators; the public and separately secured ones name no record.
  const partnerOperations = contractOperations().filter((op) => {
    const schemes = securityOf(op.operation).flatMap((requirement) => Object.keys(requirement));
    return schemes.includes('oauth2') && !isIngestOperation(op.operation) && !op.template.startsWith('/console');
  });

  it('covers every partner operation of the contract', () => {
    expect(partnerOperations.length).to.be.at.least(60);
  });

  for (const op of partnerOperations) {
    it(`${op.operation.operationId}: tells a credential nothing of a resident its policy hides`, async () => {
      const valid = validRequestOf(op, every);
      const failures: string[] = [];
      const statuses: Record<string, number> = {};
      // The hiding credentials first (the one that sees everything is last in the list): where
      // an operation changes something (a revocation), that one then finds it changed, not the reverse.
      for (const credential of credentials) {
        const request = { ...valid, headers: { ...valid.headers, authorization: `Bearer ${credential.token}` } };
        const answer = await send(request);
        statuses[credential.name] = answer.status;
        if (answer.status >= 500) failures.push(`${credential.name}: ${answer.status}`);
        const text = [textOf(answer), ...(await exportedFiles(answer, credential.token))].join('\n');
        if (credential.name === SIGHTED) {
          if (namedBeyond(text, request, residentTokens).length > 0) seenBySighted.push(op.operation.operationId);
          continue;
        }
        const named = namedBeyond(text, request, credential.hidden);
        if (named.length > 0) failures.push(`${credential.name}: the answer names ${named.join(', ')}`);
        if (names(request, credential.hidden) && answer.status !== 404 && op.method !== 'DELETE') failures.push(`${credential.name}: ${answer.status} for a request naming a record hidden from it, where it must find nothing (404)`);
      }
      // The same request naming a record finds it for the credential that may see everything
      // (a delivery still queued is 409 to it: not sent again while queued).
      const sighted = statuses[SIGHTED]!;
      if (credentials.some((c) => names(valid, c.hidden)) && op.method !== 'DELETE' && sighted === 404) failures.push(`${SIGHTED}: ${sighted}, where its request names a record it may see`);
      expect(failures, failures.join('\n')).to.deep.equal([]);
    });
  }

  it('the credential that may see everything is shown the resident by the lists, reads, searches, exports and event log', () => {
    // A walk whose answers never named the resident could not have caught a leak.
    for (const operationId of ['listResidents', 'listCoverage', 'listObservations', 'listAllergies', 'searchFhirPatient', 'searchFhirDiagnosticReport', 'kickOffFhirExport', 'kickOffFhirPatientExport', 'kickOffFhirGroupExport', 'listEvents', 'listWebhookDeliveries']) {
      expect(seenBySighted, operationId).to.include(operationId);
    }
  });

  it('the laboratory-only token is shown the laboratory result, and no other Observation', async () => {
    const granular = credentials.find((c) => c.name === 'granted laboratory Observations only')!;
    expect(granular.hidden.length).to.be.at.least(20);
    const listed = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${every.t.orgA}/${every.t.a1}/clinical/Observation?page_size=100`, { token: granular.token });
    expect(listed.status).to.equal(200);
    expect(listed.body.data.map((o: { id: string }) => o.id)).to.deep.equal([laboratoryResult]);
  });

  it('no audit row puts the resident in the accounting of disclosures for a credential it is hidden from', async () => {
    const clientIds = credentials.filter((c) => c.hidesResident || c.name === SIGHTED).map((c) => c.client.client_id);
    const disclosed = new Set<string>();
    for (const row of await db('audit_events').whereIn('client_id', clientIds).select('client_id', 'disclosures', 'disclosures_digest')) {
      const text = row.disclosures ?? (row.disclosures_digest ? (await db('audit_texts').where({ digest: row.disclosures_digest }).first('text'))?.text : null);
      if (text && String(text).includes(hidden)) disclosed.add(row.client_id);
    }
    expect([...disclosed]).to.deep.equal([credentials.find((c) => c.name === SIGHTED)!.client.client_id]);
  });
});
