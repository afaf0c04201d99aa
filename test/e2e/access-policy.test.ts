// End to end: who may see which resident. A payer-scoped credential, consent denials by
// purpose of use, security labels, on every read path (the /ofctx/ lists and reads, the R4
// view, totals, sync pages), webhook deliveries and the event log, and the accounting of
// disclosures of one resident.
import { expect } from 'chai';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { createClient, findClient } from '../../server/src/auth/clients.js';
import { DEFAULT_POLICY, type AccessPolicy } from '../../server/src/tenancy/access-policy.js';
import { disclosuresOfResident } from '../../server/src/audit/disclosures.js';
import { call, tokenFor } from '../support/http.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../support/verifying-receiver.js';
import { bundle, postBundle } from '../support/ingest.js';
import { allergy, byMrn, coverage, diagnosticReport, observation, patient } from '../support/fhir-resources.js';
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import type { IngestResource } from '../../server/src/ingest/change-set.js';
import { ALL_SCOPES } from '../support/service.js';

const PSY = [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'PSY' }];
const RESTRICTED = [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' }];
const acme = { payor: [{ display: 'Acme Health', identifier: { value: 'ACME-01' } }] };
const acmeById = { payor: [{ display: 'Acme (former name)', identifier: { value: 'acme-01' } }] };

function consent(mrn: string, key: string, status: string, type: 'deny' | 'permit', purposes: string[]) {
  return {
    resourceType: 'Consent',
    identifier: [{ system: 'https://ehr.example/fhir/sid/consent', value: key }],
    status,
    scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' }] },
    category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0' }] }],
    patient: byMrn(mrn),
    policyRule: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'OPTOUT' }] },
    provision: { type, purpose: purposes.map((code) => ({ system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code })) },
  };
}

describe('who may see which resident (access policy, consent, security labels)', function () {
  this.timeout(120_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let ingestToken: string;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let base: string;
  let r4: string;

  const ingest = async (entries: Array<{ resource: Record<string, unknown>; fullUrl?: string }>) => {
    const answer = await postBundle(service.baseUrl, ingestToken, tenant.orgId, tenant.facilityId, bundle('transaction', entries));
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    // Padded so destructuring gives strings: callers name only the entries they sent.
    return (answer.body.entry as Array<{ response: { location: string } }>).map((e) => e.response.location.split('/')[1]!) as [string, string, string, string, string];
  };
  const credential = async (name: string, policy: Partial<AccessPolicy>) => {
    const client = await createClient(service.running.app.db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ALL_SCOPES, name, policy: { ...DEFAULT_POLICY, ...policy } });
    tokens[name] = await tokenFor(service.baseUrl, client);
    return client;
  };
  const get = (who: string, path: string) => call(service.baseUrl, 'GET', path, { token: tokens[who]!, headers: path.startsWith('/api/v1/fhir') ? { accept: 'application/fhir+json' } : {} });
  /** Every id of a page-numbered list, walked with page_size 1 (each page full but the last), and its total. */
  const walk = async (who: string, list: string) => {
    const seen: string[] = [];
    let total = -1;
    for (let page = 1; page < 50; page++) {
      const answer = await get(who, `${base}/${list}${list.includes('?') ? '&' : '?'}page=${page}&page_size=1`);
      expect(answer.status).to.equal(200);
      total = answer.body.meta.page.total;
      if (answer.body.data.length === 0) break;
      seen.push(answer.body.data[0].id);
    }
    expect(seen.length, `${list}: the total counts exactly what the pages show`).to.equal(total);
    return seen;
  };
  /** Every id an R4 search returns, following its next links with _count=1, and its total. */
  const search = async (who: string, query: string) => {
    const seen: string[] = [];
    let url: string | undefined = `${r4}/${query}${query.includes('?') ? '&' : '?'}_count=1`;
    let total = -1;
    while (url) {
      const answer = await get(who, url.replace(service.baseUrl, '').replace(/^http:\/\/[^/]+/, ''));
      expect(answer.status).to.equal(200);
      total = answer.body.total;
      seen.push(...(answer.body.entry ?? []).map((e: { resource: { id: string } }) => e.resource.id));
      url = answer.body.link.find((l: { relation: string }) => l.relation === 'next')?.url;
    }
    expect(seen.length, `${query}: total`).to.equal(total);
    return seen;
  };
  const sorted = (list: string[]) => [...list].sort();

  before(async () => {
    service = await startWebhookService();
    tenant = await service.tenant();
    base = `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}`;
    r4 = `/api/v1/fhir/R4/${tenant.orgId}/${tenant.facilityId}`;
    const source = await createClient(service.running.app.db, { orgId: tenant.orgId, facilityIds: [tenant.facilityId], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' });
    ingestToken = await tokenFor(service.baseUrl, source);
    [ids.r1, ids.r1Acme, ids.r1Obs, ids.r1Psy, ids.r1Allergy] = await ingest([
      { resource: patient('P-1') },
      { resource: coverage(byMrn('P-1'), 'C-1', acme) },
      { resource: observation(byMrn('P-1'), 'O-1') },
      { resource: observation(byMrn('P-1'), 'O-1-PSY', { meta: { security: PSY } }) },
      { resource: allergy(byMrn('P-1'), 'A-1') },
    ]);
    [ids.r2, ids.r2Medicare, ids.r2Obs] = await ingest([
      { resource: patient('P-2') },
      { resource: coverage(byMrn('P-2'), 'C-2') },
      { resource: observation(byMrn('P-2'), 'O-2') },
    ]);
    [ids.r3, ids.r3Acme, ids.r3Medicare, ids.r3Obs] = await ingest([
      { resource: patient('P-3') },
      { resource: coverage(byMrn('P-3'), 'C-3A', acmeById) },
      { resource: coverage(byMrn('P-3'), 'C-3M', { order: 2 }) },
      { resource: observation(byMrn('P-3'), 'O-3') },
    ]);
    [ids.r4, ids.r4Acme, ids.r4Obs] = await ingest([
      { resource: patient('P-4', { meta: { security: RESTRICTED } }) },
      { resource: coverage(byMrn('P-4'), 'C-4', acme) },
      { resource: observation(byMrn('P-4'), 'O-4') },
    ]);
    await credential('operations', {});
    await credential('payer', { purpose: 'HPAYMT', payers: ['acme-01'] });
    await credential('treatment', { purpose: 'TREAT' });
    await credential('sensitive', { sensitive: true });
  });
  after(() => service?.close());

  it('a --payer credential sees exactly its payer\'s members and their coverages, on every list, with exact totals and full pages', async () => {
    expect(sorted(await walk('payer', 'residents'))).to.deep.equal(sorted([ids.r1!, ids.r3!]));
    expect(sorted(await walk('payer', 'coverage'))).to.deep.equal(sorted([ids.r1Acme!, ids.r3Acme!]));
    expect(sorted(await walk('payer', 'clinical/Observation'))).to.deep.equal(sorted([ids.r1Obs!, ids.r3Obs!]));
    expect(await walk('payer', 'clinical/AllergyIntolerance')).to.deep.equal([ids.r1Allergy]);
    expect(await walk('payer', `coverage?resident_id=${ids.r3}`)).to.deep.equal([ids.r3Acme]);
    expect(await walk('payer', `coverage?resident_id=${ids.r2}`)).to.deep.equal([]);
  });

  it('a hidden record answers exactly like an unknown id (404), on /ofctx/ reads and R4 reads', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const unknownAnswer = await get('payer', `${base}/coverage/${unknown}`);
    for (const [path, id] of [[`${base}/coverage/`, ids.r3Medicare], [`${base}/residents/`, ids.r2], [`${base}/clinical/Observation/`, ids.r2Obs], [`${base}/residents/`, ids.r4]] as const) {
      const answer = await get('payer', `${path}${id}`);
      expect(answer.status, path).to.equal(404);
      expect(answer.body.error.code).to.equal(unknownAnswer.body.error.code);
    }
    expect((await get('payer', `${base}/coverage/${ids.r3Acme}`)).status).to.equal(200);
    expect((await get('payer', `${r4}/Patient/${ids.r2}`)).status).to.equal(404);
    expect((await get('payer', `${r4}/Patient/${ids.r1}`)).status).to.equal(200);
    expect((await get('operations', `${r4}/Observation/${ids.r1Psy}`)).status).to.equal(404);
    expect((await get('sensitive', `${r4}/Observation/${ids.r1Psy}`)).status).to.equal(200);
  });

  it('the R4 view and its sync show the same: searches, totals, _lastUpdated pages and cursors', async () => {
    expect(sorted(await search('payer', 'Patient'))).to.deep.equal(sorted([ids.r1!, ids.r3!]));
    expect(sorted(await search('payer', 'Coverage?_lastUpdated=gt2000-01-01'))).to.deep.equal(sorted([ids.r1Acme!, ids.r3Acme!]));
    expect(sorted(await search('payer', `Observation?patient=${ids.r1}`))).to.deep.equal([ids.r1Obs]);
    expect(await search('payer', `Coverage?patient=${ids.r2}`)).to.deep.equal([]);
    const synced: string[] = [];
    let next: string | undefined;
    do {
      const answer = await get('payer', `${base}/clinical/Observation?page_size=1&${next ? `cursor=${next}` : '_lastUpdated=gt2000-01-01'}`);
      synced.push(...answer.body.data.map((o: { id: string }) => o.id));
      expect(answer.body.meta.page.total).to.equal(2);
      next = answer.body.meta.page.next;
    } while (next);
    expect(sorted(synced)).to.deep.equal(sorted([ids.r1Obs!, ids.r3Obs!]));
  });

  it('a Bulk Data export holds what its credential may see: a --payer credential exports exactly its members and their coverages', async () => {
    const kickOff = await call(service.baseUrl, 'GET', `${r4}/$export?_type=Patient,Coverage`, { token: tokens.payer!, headers: { prefer: 'respond-async', accept: 'application/fhir+json' } });
    expect(kickOff.status).to.equal(202);
    const status = new URL(kickOff.headers.get('content-location')!).pathname;
    let manifest: { output: Array<{ type: string; url: string; count: number }> } | undefined;
    for (let i = 0; i < 400 && !manifest; i++) {
      const answer = await call(service.baseUrl, 'GET', status, { token: tokens.payer! });
      if (answer.status === 200) manifest = answer.body;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const exported: Record<string, string[]> = {};
    for (const output of manifest!.output) {
      const file = await call<string>(service.baseUrl, 'GET', new URL(output.url).pathname, { token: tokens.payer!, headers: { accept: 'application/fhir+ndjson' } });
      expect(file.status).to.equal(200);
      exported[output.type] = String(file.body).trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      expect(exported[output.type]).to.have.length(output.count);
    }
    expect(sorted(exported.Patient ?? [])).to.deep.equal(sorted([ids.r1!, ids.r3!]));
    expect(sorted(exported.Coverage ?? [])).to.deep.equal(sorted([ids.r1Acme!, ids.r3Acme!]));
  });

  it('security labels: a labelled Observation and a labelled Patient\'s whole record are seen only with --sensitive', async () => {
    const operations = await walk('operations', 'clinical/Observation');
    expect(operations).to.not.include(ids.r1Psy);
    expect(operations).to.not.include(ids.r4Obs);
    expect(await walk('operations', 'residents')).to.not.include(ids.r4);
    expect(await walk('operations', 'coverage')).to.not.include(ids.r4Acme);
    expect(sorted(await walk('sensitive', 'clinical/Observation'))).to.deep.equal(sorted([ids.r1Obs!, ids.r1Psy!, ids.r2Obs!, ids.r3Obs!, ids.r4Obs!]));
    expect(await walk('sensitive', 'residents')).to.have.lengthOf(4);
  });

  it('lab reports (DiagnosticReport) follow the same policy: payer scope, security labels, and their included results', async () => {
    // Written as the HL7 v2 translator writes them (no FHIR feed sends DiagnosticReport).
    const report = (mrn: string, key: string, extra: Record<string, unknown> = {}) => ({
      resource: diagnosticReport(byMrn(mrn), key, { result: [{ reference: `Observation?identifier=${encodeURIComponent('https://ehr.example/fhir/sid/observation')}|O-${mrn.slice(2)}` }], ...extra }) as IngestResource,
      at: key,
    });
    const result = await applyChangeSet(service.running.app.db, {
      orgId: tenant.orgId, facilityId: tenant.facilityId, mode: 'transaction', actor: 'test', emitEvents: false,
      changes: [report('P-1', 'DR-1'), report('P-2', 'DR-2'), report('P-1', 'DR-1-PSY', { meta: { security: PSY } })],
    });
    const [r1Report, r2Report, r1PsyReport] = result.outcomes.map((o) => (o.outcome === 'rejected' ? '' : o.id));
    expect(await search('payer', 'DiagnosticReport')).to.deep.equal([r1Report]);
    expect((await get('payer', `${r4}/DiagnosticReport/${r2Report}`)).status).to.equal(404);
    expect(await search('operations', `DiagnosticReport?patient=${ids.r1}`)).to.deep.equal([r1Report]);
    expect(sorted(await search('sensitive', `DiagnosticReport?patient=${ids.r1}`))).to.deep.equal(sorted([r1Report!, r1PsyReport!]));
    // Its results come with it, as the credential may see them.
    const included = await get('payer', `${r4}/DiagnosticReport?patient=${ids.r1}&_include=DiagnosticReport:result`);
    expect(included.body.entry.map((e: { resource: { id: string }; search: { mode: string } }) => `${e.search.mode} ${e.resource.id}`)).to.deep.equal([`match ${r1Report}`, `include ${ids.r1Obs}`]);
  });

  it('a Consent denying HPAYMT hides the resident from an HPAYMT credential, not from a TREAT one; lifting it shows it again, as a change the sync sees', async () => {
    await ingest([{ resource: consent('P-1', 'CONSENT-1', 'active', 'deny', ['HPAYMT']) }]);
    expect(await walk('payer', 'residents')).to.deep.equal([ids.r3]);
    expect((await get('payer', `${base}/clinical/Observation/${ids.r1Obs}`)).status).to.equal(404);
    expect(await search('payer', `Coverage?patient=${ids.r1}`)).to.deep.equal([]);
    expect(await walk('treatment', 'residents')).to.include(ids.r1);
    expect(await walk('operations', 'residents')).to.include(ids.r1);

    const before = new Date(Date.now() - 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await ingest([{ resource: consent('P-1', 'CONSENT-1', 'inactive', 'deny', ['HPAYMT']) }]);
    expect(sorted(await walk('payer', 'residents'))).to.deep.equal(sorted([ids.r1!, ids.r3!]));
    const since = await get('payer', `${base}/residents?_lastUpdated=ge${before}`);
    expect(since.body.data.map((r: { id: string }) => r.id)).to.deep.equal([ids.r1]);
    const coverageSince = await get('payer', `${base}/coverage?_lastUpdated=ge${before}`);
    expect(coverageSince.body.data.map((r: { id: string }) => r.id)).to.deep.equal([ids.r1Acme]);
    const consents = await service.running.app.db('consents').where({ resident_id: ids.r1 });
    expect(consents, 'a later Consent of the same identifier replaces the earlier').to.have.lengthOf(1);
    expect(Number(consents[0].version_id)).to.equal(2);
  });

  it('webhook deliveries and the event log: an event about a resident the credential cannot see is not delivered to it, nor listed', async () => {
    const payerClient = await findClient(service.running.app.db, (await credential('payer-hooks', { purpose: 'HPAYMT', payers: ['Acme Health'] })).client_id);
    const payerReceiver: VerifyingReceiver = await startVerifyingReceiver();
    const allReceiver: VerifyingReceiver = await startVerifyingReceiver();
    try {
      const register = async (who: string, receiver: VerifyingReceiver) => {
        const answer = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks`, { token: tokens[who]!, json: { callback_url: receiver.url, event_types: ['resident.admitted', 'coverage.updated'] } });
        expect(answer.status).to.equal(201);
        receiver.secret = answer.body.data.signing_secret;
      };
      await register('payer-hooks', payerReceiver);
      await register('operations', allReceiver);
      expect(payerClient!.policy.payers).to.deep.equal(['acme health']);
      const [member] = await ingest([{ resource: patient('P-5') }, { resource: coverage(byMrn('P-5'), 'C-5', acme) }]);
      const [other] = await ingest([{ resource: patient('P-6') }, { resource: coverage(byMrn('P-6'), 'C-6') }]);
      const [labelled] = await ingest([{ resource: patient('P-7', { meta: { security: RESTRICTED } }) }, { resource: coverage(byMrn('P-7'), 'C-7', acme) }]);
      await waitFor('the unrestricted credential\'s deliveries', () => (allReceiver.accepted.filter((d) => [member, other].includes(d.data.resident_id as string)).length >= 4 ? true : undefined));
      await waitFor('the payer credential\'s deliveries', () => (payerReceiver.accepted.length >= 2 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(new Set(payerReceiver.accepted.map((d) => d.data.resident_id))).to.deep.equal(new Set([member]));
      expect(allReceiver.accepted.map((d) => d.data.resident_id)).to.not.include(labelled);
      expect(payerReceiver.refused).to.deep.equal([]);
      const log = await get('payer-hooks', `/api/v1/ofctx/${tenant.orgId}/events?page_size=200`);
      expect(log.status).to.equal(200);
      const residents = new Set(log.body.data.map((e: { data: { resident_id: string } }) => e.data.resident_id));
      expect(residents.has(member)).to.equal(true);
      for (const hidden of [other, labelled, ids.r2]) expect(residents.has(hidden), hidden).to.equal(false);
    } finally {
      payerReceiver.close();
      allReceiver.close();
    }
  });

  it('the accounting of disclosures lists the reads and deliveries of the resident and nothing else, oldest first', async () => {
    const reads = await disclosuresOfResident(service.running.app.db, { orgId: tenant.orgId, residentId: ids.r2! });
    expect(reads.length).to.be.greaterThan(0);
    for (const d of reads) {
      expect(d.channel).to.equal('api');
      // Only credentials that may see R2: never the payer-scoped ones.
      expect(d.purpose).to.not.equal('HPAYMT');
      for (const id of d.resource_ids) expect([ids.r2, ids.r2Medicare, ids.r2Obs]).to.include(id);
    }
    expect(reads.map((d) => d.at)).to.deep.equal([...reads.map((d) => d.at)].sort());
    const read = await get('treatment', `${base}/coverage/${ids.r2Medicare}`);
    expect(read.status).to.equal(200);
    const after = await disclosuresOfResident(service.running.app.db, { orgId: tenant.orgId, residentId: ids.r2!, from: new Date(Date.now() - 5_000).toISOString() });
    expect(after.at(-1)).to.include({ channel: 'api', operation: 'getCoverage', purpose: 'TREAT' });
    expect(after.at(-1)!.resource_ids).to.deep.equal([ids.r2Medicare]);
    const member = (await service.running.app.db('residents').where({ org_id: tenant.orgId }).orderBy('seq', 'desc').offset(2).first('id')).id as string;
    const delivered = await disclosuresOfResident(service.running.app.db, { orgId: tenant.orgId, residentId: member });
    expect(delivered.filter((d) => d.channel === 'webhook').map((d) => d.resource_ids)).to.deep.include([member]);
    expect(new Set(delivered.filter((d) => d.channel === 'webhook').map((d) => d.purpose))).to.deep.equal(new Set(['HPAYMT', 'HOPERAT']));
  });
});
