// The SDK against the real service (fresh database, real Koa app on a loopback port), with
// every answer checked against openapi/openapi.yaml by contractCheckingFetch.
import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import { contractCheckingFetch } from '../../../test/support/contract.js';
import { ALL_SCOPES, startTestService, type TestService } from '../../../test/support/service.js';
import {
  AuthenticationError,
  ConflictError,
  createClient,
  NotFoundError,
  OAuthError,
  PermissionError,
  ValidationError,
  type ClientOptions,
  type FacilityClient,
  type OfctxClient,
  type ResourceCollection,
} from '../../src/index.js';
import { rejectionOf } from '../fixtures/api.js';

describe('SDK against the real service', function () {
  this.timeout(60_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let ungrantedFacilityId: string;
  let counts: { residents: number; coverage: number; observations: number; allergies: number };
  let credentials: Pick<ClientOptions, 'clientId' | 'clientSecret'>;
  let client: OfctxClient;
  let facility: FacilityClient;

  const clientFor = (options: Partial<ClientOptions> = {}): OfctxClient =>
    createClient({ baseUrl: service.baseUrl, ...credentials, fetch: contractCheckingFetch, ...options } as ClientOptions);

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org('SDK partner org')).id;
    facilityId = (await service.seed.facility(orgId, 'Granted facility')).id;
    ungrantedFacilityId = (await service.seed.facility(orgId, 'Facility outside the grant')).id;
    counts = await service.seed.data({ orgId, facilityId, residents: 30 });
    await service.seed.data({ orgId, facilityId: ungrantedFacilityId, residents: 3 });
    const issued = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES, name: 'sdk integration' });
    credentials = { clientId: issued.client_id, clientSecret: issued.client_secret };
    client = clientFor();
    facility = client.facility(orgId, facilityId);
  });

  after(async () => {
    await service?.close();
  });

  describe('reads every resource type', () => {
    for (const name of ['residents', 'coverage', 'observations', 'allergies'] as const) {
      it(`${name}: list() pages, get() reads one, all() walks every row exactly once`, async () => {
        const collection: ResourceCollection<{ id: string }, object> = facility[name];
        const expected = counts[name];
        expect(expected, 'the seed created rows').to.be.greaterThan(0);

        const first = await collection.list({ page: 1, pageSize: 7 });
        const { next, ...numbered } = first.page;
        expect(numbered).to.deep.equal({ page: 1, pageSize: 7, total: expected });
        expect(next !== undefined, 'the cursor of page 2').to.equal(expected > 7);
        expect(first.data).to.have.length(Math.min(7, expected));

        expect(await collection.get(first.data[0]!.id)).to.deep.equal(first.data[0]);

        const ids: string[] = [];
        for await (const item of collection.all({ pageSize: 7 })) ids.push(item.id);
        expect(ids).to.have.length(expected);
        expect(new Set(ids).size, 'no row repeated').to.equal(expected);
        expect(ids.slice(0, first.data.length)).to.deep.equal(first.data.map((item) => item.id));
      });
    }

    it('pages() numbers its pages and covers total', async () => {
      const seen: number[] = [];
      let rows = 0;
      for await (const page of facility.residents.pages({ pageSize: 8 })) {
        seen.push(page.page.page);
        rows += page.data.length;
      }
      expect(seen).to.deep.equal([1, 2, 3, 4]);
      expect(rows).to.equal(counts.residents);
    });

    it('toArray({ limit }) stops at the limit', async () => {
      const residents = await facility.residents.toArray({ limit: 10 });
      expect(residents).to.have.length(10);
      expect(residents.every((r) => r.resourceType === 'Patient')).to.equal(true);
    });

    it('filters coverage, observations and allergies by resident', async () => {
      const [resident] = (await facility.residents.list({ pageSize: 1 })).data;
      const residentId = resident!.id;
      const coverage = await facility.coverage.toArray({ residentId, limit: 50 });
      expect(coverage.length).to.be.greaterThan(0);
      expect(coverage.every((c) => c.beneficiary.reference === `Patient/${residentId}`)).to.equal(true);
      const observations = await facility.observations.toArray({ residentId, limit: 500 });
      expect(observations.length).to.be.greaterThan(0);
      expect(observations.every((o) => o.subject.reference === `Patient/${residentId}`)).to.equal(true);
      const allergies = await facility.allergies.toArray({ residentId, limit: 50 });
      expect(allergies.every((a) => a.patient.reference === `Patient/${residentId}`)).to.equal(true);
    });
  });

  describe('errors', () => {
    it('a facility outside the grant is a PermissionError (facility_forbidden)', async () => {
      const error = await rejectionOf(client.facility(orgId, ungrantedFacilityId).residents.list());
      expect(error).to.be.instanceOf(PermissionError);
      expect(error).to.include({ status: 403, code: 'facility_forbidden' });
      expect((error as PermissionError).requestId).to.be.a('string').and.not.equal('');
    });

    it('another organization is a PermissionError (organization_forbidden)', async () => {
      const otherOrg = (await service.seed.org('Someone else')).id;
      const error = await rejectionOf(client.facility(otherOrg, facilityId).coverage.list());
      expect(error).to.be.instanceOf(PermissionError);
      expect(error).to.include({ code: 'organization_forbidden' });
    });

    it('a missing scope is a PermissionError naming the scope', async () => {
      const narrow = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ['residents.read'] });
      const narrowClient = clientFor({ clientId: narrow.client_id, clientSecret: narrow.client_secret });
      const error = await rejectionOf(narrowClient.facility(orgId, facilityId).coverage.list());
      expect(error).to.be.instanceOf(PermissionError);
      expect(error).to.include({ code: 'insufficient_scope', requiredScope: 'coverage.read' });
    });

    it('an unknown id is a NotFoundError', async () => {
      for (const collection of [facility.residents, facility.coverage, facility.observations, facility.allergies] as Array<ResourceCollection<unknown, object>>) {
        const error = await rejectionOf(collection.get(randomUUID()));
        expect(error).to.be.instanceOf(NotFoundError);
        expect(error).to.include({ status: 404, code: 'not_found' });
      }
    });

    it('an out-of-range page size is a ValidationError naming the field', async () => {
      const error = await rejectionOf(facility.residents.list({ pageSize: 500 }));
      expect(error).to.be.instanceOf(ValidationError);
      expect((error as ValidationError).details.map((d) => d.field)).to.include('query.page_size');
    });

    it('a wrong client secret is an AuthenticationError (invalid_client)', async () => {
      const error = await rejectionOf(clientFor({ clientSecret: 'not-the-secret' }).facility(orgId, facilityId).residents.list());
      expect(error).to.be.instanceOf(AuthenticationError);
      expect(error).to.include({ status: 401, code: 'invalid_client' });
    });

    it('a scope beyond the grant is an OAuthError (invalid_scope)', async () => {
      const narrow = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ['residents.read'] });
      const error = await rejectionOf(
        clientFor({ clientId: narrow.client_id, clientSecret: narrow.client_secret, scopes: ['webhooks.manage'] }).facility(orgId, facilityId).residents.list(),
      );
      expect(error).to.be.instanceOf(OAuthError);
      expect(error).to.include({ status: 400, code: 'invalid_scope' });
    });
  });

  describe('webhook management', () => {
    it('eventTypes() lists the contract event types', async () => {
      const types = await client.webhooks(orgId).eventTypes();
      expect(types.map((t) => t.event_type)).to.include.members(['resident.admitted', 'coverage.updated']);
    });

    it('register() answers the signing secret once; list() never shows it; test() signs with it; revoke() ends it', async () => {
      const webhooks = client.webhooks(orgId);
      const created = await webhooks.register({
        // An IP literal: the test service allows private targets, and nothing resolves DNS.
        callbackUrl: 'https://127.0.0.1/ofctx-hook',
        eventTypes: ['resident.admitted', 'coverage.updated'],
        description: 'SDK integration test',
      });
      expect(created).to.include({ status: 'active', callback_url: 'https://127.0.0.1/ofctx-hook', signature_header: 'X-Service-Signature' });
      expect(created.signing_secret).to.match(/^ofx_whs_/);

      const listed = await webhooks.toArray({ limit: 100 });
      const mine = listed.find((s) => s.id === created.id);
      expect(mine).to.not.equal(undefined);
      expect(mine).to.not.have.property('signing_secret');

      const delivery = await webhooks.test(created.id, 'resident.admitted');
      expect(delivery.signatureHeader).to.equal('X-Service-Signature');
      const expected = createHmac('sha256', created.signing_secret).update(delivery.body, 'utf8').digest('hex');
      expect(delivery.signature).to.equal(expected);
      expect(delivery.headers['X-Service-Signature']).to.equal(expected);
      expect(JSON.parse(delivery.body)).to.include({ event_type: 'resident.admitted', api_version: 'v1' });

      const revoked = await webhooks.revoke(created.id);
      expect(revoked).to.include({ id: created.id, status: 'revoked' });
      expect(revoked.revoked_at).to.be.a('string');

      const error = await rejectionOf(webhooks.test(created.id, 'resident.admitted'));
      expect(error).to.be.instanceOf(ConflictError);
      expect(error).to.include({ code: 'subscription_not_active' });
    });

    it('revoke() of an unknown subscription is a NotFoundError', async () => {
      const error = await rejectionOf(client.webhooks(orgId).revoke(randomUUID()));
      expect(error).to.be.instanceOf(NotFoundError);
    });
  });
});
