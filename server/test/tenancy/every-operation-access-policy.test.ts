// The access policy on every operation of the contract, read from the document itself: one
// resident of the tenant holding a record of every kind (test/support/records-of-every-kind.ts)
// is hidden from three credentials of the tenant, each by one of the policy's three means: a
// restricted security label on its Patient (a credential not cleared --sensitive), a Consent
// denying the credential's purpose of use (HPAYMT), a payer the resident has no Coverage of
// (--payer). Each partner operation's valid request (test/support/contract-operations.ts) is
// sent by each of them, then by a credential that may see the resident. No answer to the three
// names one of the resident's records, its MRN, an event about it or a delivery of one, beyond
// what the request itself named; a request naming one of them finds nothing (404), where the
// fourth credential's same request is answered; an export they start holds none of them in
// its files; and no audit row puts the resident in the accounting of disclosures for them.
// The fourth credential's answers do name the resident, so each check can fail.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createClient, type IssuedClient } from '../../src/auth/clients.js';
import { applyChangeSet } from '../../src/ingest/apply-change-set.js';
import type { IngestResource } from '../../src/ingest/change-set.js';
import { DEFAULT_POLICY, type AccessPolicy } from '../../src/tenancy/access-policy.js';
import { call, tokenFor, type TestResponse } from '../../../test/support/http.js';
import { ALL_SCOPES, startTestService, type TestService } from '../../../test/support/service.js';
import { seedRecordsOfEveryKind, type RecordsOfEveryKind } from '../../../test/support/records-of-every-kind.js';
import { contractOperations, isIngestOperation, securityOf, validRequestOf, type ValidRequest } from '../../../test/support/contract-operations.js';

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
  /** Whether the policy hides the resident from it. */
  hides: boolean;
  client: IssuedClient;
  token: string;
}

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
  let hiddenTokens: string[];
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
      ],
    });
    expect(applied.committed, JSON.stringify(applied.outcomes)).to.equal(true);
    // A payer another resident of the facility has, and the hidden one has not.
    const itsPayers: string[] = (await db('coverage').where({ resident_id: hidden }).pluck('payor_name')).map((p: string) => p.toLowerCase());
    const payer = (await db('coverage').where({ facility_id: t.a1 }).whereNot({ resident_id: hidden }).pluck('payor_name')).find((p: string) => !itsPayers.includes(p.toLowerCase()));
    expect(payer, 'a payer of another resident').to.be.a('string');
    const policies: Array<[string, boolean, Partial<AccessPolicy>]> = [
      ['not cleared for restricted records', true, {}],
      ['denied by the resident\'s consent (HPAYMT)', true, { purpose: 'HPAYMT', sensitive: true }],
      ['scoped to a payer the resident has not', true, { payers: [payer.toLowerCase()], sensitive: true }],
      ['cleared to see the resident', false, { sensitive: true }],
    ];
    for (const [name, hides, policy] of policies) {
      const client = await createClient(db, { orgId: t.orgA, facilityIds: [t.a1], scopes: ALL_SCOPES, name, policy: { ...DEFAULT_POLICY, ...policy } });
      credentials.push({ name, hides, client, token: await tokenFor(service.baseUrl, client) });
    }
    hiddenTokens = await tokensOfResident(db, t.orgA, hidden, mrn.value);
  });
  after(() => service?.close());

  const send = (request: ValidRequest): Promise<TestResponse> =>
    call(service.baseUrl, request.method, request.path, { headers: request.headers, ...(request.body === undefined ? {} : { rawBody: request.body }), redirect: 'manual' });
  const textOf = (answer: TestResponse) => (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? ''));
  /** What the answer says about the hidden resident that its request did not. */
  const namedBeyond = (text: string, request: ValidRequest) => hiddenTokens.filter((token) => text.includes(token) && !request.path.includes(token) && !(request.body ?? '').includes(token));
  const namesHidden = (request: ValidRequest) => hiddenTokens.some((token) => request.path.includes(token));

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
      // The hiding credentials first: where an operation changes something (a revocation), the
      // one that sees the resident then finds it changed, not the reverse.
      for (const credential of [...credentials.filter((c) => c.hides), ...credentials.filter((c) => !c.hides)]) {
        const request = { ...valid, headers: { ...valid.headers, authorization: `Bearer ${credential.token}` } };
        const answer = await send(request);
        statuses[credential.name] = answer.status;
        if (answer.status >= 500) failures.push(`${credential.name}: ${answer.status}`);
        const named = namedBeyond([textOf(answer), ...(await exportedFiles(answer, credential.token))].join('\n'), request);
        if (!credential.hides) {
          if (named.length > 0) seenBySighted.push(op.operation.operationId);
          continue;
        }
        if (named.length > 0) failures.push(`${credential.name}: the answer names ${named.join(', ')}`);
        if (namesHidden(request) && answer.status !== 404 && op.method !== 'DELETE') failures.push(`${credential.name}: ${answer.status} for a request naming the hidden resident's record, where it must find nothing (404)`);
      }
      // The same request naming the resident's record finds it for the credential that may see
      // it (a delivery still queued is 409 to it: not sent again while queued).
      const sighted = statuses['cleared to see the resident']!;
      if (namesHidden(valid) && op.method !== 'DELETE' && sighted === 404) failures.push(`cleared to see the resident: ${sighted}, where its request names a record it may see`);
      expect(failures, failures.join('\n')).to.deep.equal([]);
    });
  }

  it('the credential that may see the resident is shown it by the lists, reads, searches, exports and event log', () => {
    // A walk whose answers never named the resident could not have caught a leak.
    for (const operationId of ['listResidents', 'listCoverage', 'listObservations', 'listAllergies', 'searchFhirPatient', 'searchFhirDiagnosticReport', 'kickOffFhirExport', 'kickOffFhirPatientExport', 'kickOffFhirGroupExport', 'listEvents', 'listWebhookDeliveries']) {
      expect(seenBySighted, operationId).to.include(operationId);
    }
  });

  it('no audit row puts the resident in the accounting of disclosures for a credential it is hidden from', async () => {
    const clientIds = credentials.map((c) => c.client.client_id);
    const disclosed = new Set<string>();
    for (const row of await db('audit_events').whereIn('client_id', clientIds).select('client_id', 'disclosures', 'disclosures_digest')) {
      const text = row.disclosures ?? (row.disclosures_digest ? (await db('audit_texts').where({ digest: row.disclosures_digest }).first('text'))?.text : null);
      if (text && String(text).includes(hidden)) disclosed.add(row.client_id);
    }
    expect([...disclosed]).to.deep.equal([credentials.find((c) => !c.hides)!.client.client_id]);
  });
});
