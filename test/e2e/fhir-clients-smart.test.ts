// End to end, as FHIR-native partners connect (issue 45): a SMART Backend Services credential
// (a JWKS, no secret) signs in with a client assertion and asks SMART scopes; fhir-kit-client
// and Medplum's client then search, read, page and _include through the R4 view, unchanged.
// A granular token (`system/Observation.rs?category=...|vital-signs`) gets through the same
// clients only what that search matches. Every answer is checked against the contract and
// every resource validated as R4.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { Client } from 'fhir-kit-client';
import { MedplumClient } from '@medplum/core';
import { startTestService, type TestService } from '../support/service.js';
import { tokenFor } from '../support/http.js';
import { assertMatchesContract } from '../support/contract.js';
import { checkR4 } from '../support/r4-validator.js';
import { bundle, postBundle } from '../support/ingest.js';
import { byMrn, observation, patient } from '../support/fhir-resources.js';
import { createClient } from '../../server/src/auth/clients.js';

type Resource = { resourceType: string; id: string; [element: string]: any };
type Bundle = { total: number; link: Array<{ relation: string; url: string }>; entry?: Array<{ resource: Resource; search: { mode: string } }> };

const CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const VITALS = `system/Observation.rs?category=${CATEGORY}|vital-signs`;
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

describe('FHIR clients connect unchanged with SMART Backend Services tokens (fhir-kit-client, Medplum)', function () {
  this.timeout(120_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let base: string;
  let tokenUrl: string;
  let clientId: string;
  let key: { privateKey: CryptoKey; kid: string };
  const ids: Record<string, string> = {};
  const realFetch = globalThis.fetch;
  const idsOf = (b: Bundle, mode = 'match') => (b.entry ?? []).filter((e) => e.search.mode === mode).map((e) => e.resource.id);

  /** A client assertion as a SMART Backend Services client signs it (RS384, aud the token URL). */
  const assertion = async () => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS384', kid: key.kid, typ: 'JWT' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(tokenUrl)
      .setJti(randomUUID())
      .setExpirationTime(now + 240)
      .sign(key.privateKey);
  };
  /** A SMART token request as the partner's code sends it; the answer's JSON. */
  const smartToken = async (scope: string) => {
    const response = await globalThis.fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(), scope }).toString(),
    });
    expect(response.status).to.equal(200);
    return (await response.json()) as { access_token: string; scope: string };
  };

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId, 'smart clients')).id;
    base = `${service.baseUrl}/api/v1/fhir/R4/${orgId}/${facilityId}`;
    tokenUrl = `${service.baseUrl}/api/v1/oauth/token`;
    const { privateKey, publicKey } = await generateKeyPair('RS384', { extractable: true });
    key = { privateKey, kid: 'partner-key-1' };
    const partner = await createClient(service.running.app.db, {
      orgId,
      facilityIds: [facilityId],
      scopes: ['residents.read', 'coverage.read', 'clinical.read'],
      name: 'FHIR-native partner',
      keys: { jwks: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: key.kid, alg: 'RS384', use: 'sig' }] }), jwks_url: null },
      withoutSecret: true,
    });
    clientId = partner.client_id;
    const source = await createClient(service.running.app.db, { orgId, facilityIds: [facilityId], scopes: ['ingest.write'], name: 'EHR', kind: 'ingest' });
    const ingested = await postBundle(service.baseUrl, await tokenFor(service.baseUrl, source), orgId, facilityId, bundle('transaction', [
      { resource: patient('F-1') },
      { resource: patient('F-2', { name: [{ use: 'official', family: 'Adeyemi', given: ['Tunde'] }] }) },
      { resource: patient('F-3', { name: [{ use: 'official', family: 'Brennan', given: ['Siobhan'] }] }) },
      { resource: observation(byMrn('F-1'), 'F-1-HR') },
      { resource: observation(byMrn('F-2'), 'F-2-HR') },
      { resource: observation(byMrn('F-3'), 'F-3-HR') },
      {
        resource: observation(byMrn('F-1'), 'F-1-GLU', {
          category: [{ coding: [{ system: CATEGORY, code: 'laboratory' }] }],
          code: { coding: [{ system: 'http://loinc.org', code: '2345-7', display: 'Glucose' }] },
          valueQuantity: { value: 5.4, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
        }),
      },
    ]));
    expect(ingested.status).to.equal(200);
    [ids.p1, ids.p2, ids.p3, ids.hr1, ids.hr2, ids.hr3, ids.glu1] = ingested.body.entry.map((e: { response: { location: string } }) => e.response.location.split('/')[1]!);
    // Every answer a client gets is checked against the contract, every resource as R4.
    globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await realFetch(request);
      const text = await response.clone().text();
      const body = text === '' ? undefined : JSON.parse(text);
      await assertMatchesContract(request.method, request.url, response.status, response.headers, body);
      if (body?.resourceType) expect(checkR4(body), request.url).to.deep.equal([]);
      return response;
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await service?.close();
  });

  it('fhir-kit-client with a system/*.rs token: search, read, paging by next links, _include', async () => {
    const granted = await smartToken('system/*.rs');
    expect(granted.scope).to.equal('system/*.rs');
    const fhir = new Client({ baseUrl: base, bearerToken: granted.access_token });
    const first = (await fhir.search({ resourceType: 'Patient', searchParams: { _count: 2 } })) as unknown as Bundle;
    expect(first.total).to.equal(3);
    const second = (await fhir.nextPage({ bundle: first as never })) as unknown as Bundle;
    expect([...idsOf(first), ...idsOf(second)]).to.deep.equal([ids.p1, ids.p2, ids.p3]);
    expect(second.link.some((l) => l.relation === 'next')).to.equal(false);
    const read = (await fhir.read({ resourceType: 'Patient', id: ids.p2! })) as unknown as Resource;
    expect(read.name[0].family).to.equal('Adeyemi');
    const included = (await fhir.search({ resourceType: 'Observation', searchParams: { patient: ids.p1!, _include: 'Observation:patient' } })) as unknown as Bundle;
    expect(idsOf(included)).to.deep.equal([ids.hr1, ids.glu1]);
    expect(idsOf(included, 'include')).to.deep.equal([ids.p1]);
  });

  it('fhir-kit-client with a granular category=vital-signs token: the laboratory Observation is neither found nor read', async () => {
    const granted = await smartToken(`${VITALS} system/Patient.rs`);
    expect(granted.scope).to.equal(`${VITALS} system/Patient.rs`);
    const fhir = new Client({ baseUrl: base, bearerToken: granted.access_token });
    const found = (await fhir.search({ resourceType: 'Observation', searchParams: { _count: 2, _include: 'Observation:patient' } })) as unknown as Bundle;
    expect(found.total).to.equal(3);
    const next = (await fhir.nextPage({ bundle: found as never })) as unknown as Bundle;
    expect([...idsOf(found), ...idsOf(next)]).to.deep.equal([ids.hr1, ids.hr2, ids.hr3]);
    expect(idsOf(next, 'include')).to.deep.equal([ids.p3]);
    const status = await fhir.read({ resourceType: 'Observation', id: ids.glu1! }).then(
      () => 200,
      (error: { response: { status: number } }) => error.response.status,
    );
    expect(status).to.equal(404);
    const lab = (await fhir.search({ resourceType: 'Observation', searchParams: { code: 'http://loinc.org|2345-7' } })) as unknown as Bundle;
    expect(lab.total).to.equal(0);
  });

  it("Medplum's client signs in with its client assertion and searches, reads, pages and includes", async () => {
    const medplum = new MedplumClient({
      baseUrl: service.baseUrl,
      tokenUrl,
      clientId,
      fhirUrlPath: new URL(base).pathname.slice(1),
      fetch: (input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init),
    });
    await medplum.startJwtAssertionLogin(await assertion());
    expect(medplum.getAccessToken()).to.match(/^ofx_at_/);
    const patients = await medplum.searchResources('Patient', { _count: '2' });
    expect(patients.bundle.total).to.equal(3);
    const pages: string[][] = [];
    for await (const page of medplum.searchResourcePages('Patient', { _count: '2' })) pages.push(page.map((p) => p.id!));
    expect(pages).to.deep.equal([[ids.p1, ids.p2], [ids.p3]]);
    const read = await medplum.readResource('Patient', ids.p3!);
    expect(read.name?.[0]?.family).to.equal('Brennan');
    const included = await medplum.search('Observation', { patient: `Patient/${ids.p1}`, _include: 'Observation:patient' });
    expect((included.entry ?? []).map((e: { search?: { mode?: string }; resource?: { resourceType: string; id?: string } }) => `${e.search?.mode} ${e.resource?.resourceType}/${e.resource?.id}`)).to.deep.equal([
      `match Observation/${ids.hr1}`,
      `match Observation/${ids.glu1}`,
      `include Patient/${ids.p1}`,
    ]);
    // With a granular token, the same calls see the vital signs only.
    medplum.setAccessToken((await smartToken(VITALS)).access_token);
    const vitals = await medplum.searchResources('Observation', { patient: `Patient/${ids.p1}` });
    expect(vitals.map((o) => o.id)).to.deep.equal([ids.hr1]);
    const hidden = await medplum.readResource('Observation', ids.glu1!).then(
      () => 'found',
      (error: Error) => error.message,
    );
    expect(hidden).to.match(/not known|not found/i);
  });
});
