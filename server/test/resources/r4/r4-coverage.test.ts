// The R4 view of a Coverage carries what an X12 270 needs, as the system of record sent it:
// type, class[], relationship, subscriber (the beneficiary, or a contained RelatedPerson) and
// the Coverage's own identifiers, read for a whole page in one query. Valid R4 (Medplum's
// validator), every answer checked against the contract; the /ofctx/ Coverage keeps its shape.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { startTestService, ALL_SCOPES, type TestService } from '../../../../test/support/service.js';
import { call, tokenFor, type TestResponse } from '../../../../test/support/http.js';
import { checkR4 } from '../../../../test/support/r4-validator.js';
import { coverage, MRN, patient } from '../../../../test/support/fhir-resources.js';
import { applyChangeSet } from '../../../src/ingest/apply-change-set.js';
import type { ResourceChange } from '../../../src/ingest/change-set.js';
import { toR4Coverage, type R4CoverageRow } from '../../../src/resources/r4/r4-coverage.js';

const CLASS = 'http://terminology.hl7.org/CodeSystem/coverage-class';
const RELATIONSHIP = 'http://terminology.hl7.org/CodeSystem/subscriber-relationship';
const COVERAGE_SYSTEM = 'https://ehr.example/fhir/sid/coverage';

const row = (overrides: Partial<R4CoverageRow> = {}): R4CoverageRow => ({
  seq: 1,
  id: '0a3f6c1e-5b2d-4e8f-9a7b-1c2d3e4f5a6b',
  resident_id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
  status: 'active',
  payor_name: 'Acme Health',
  subscriber_id: 'POL-7',
  period_start: '2024-01-01',
  coverage_order: 1,
  version_id: 1,
  last_updated: '2026-01-31T08:15:00.000Z',
  ...overrides,
});

describe('the R4 view of a Coverage: what a 270 needs', function () {
  this.timeout(120_000);

  describe('toR4Coverage', () => {
    it('a dependent: type, class, relationship, the subscriber as a contained RelatedPerson of the beneficiary, identifiers; valid R4', () => {
      const rendered = toR4Coverage(row({
        coverage_type: JSON.stringify({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0086', code: 'HMO' }], text: 'HMO' }),
        classes: JSON.stringify([{ type: 'group', value: 'GRP-100', name: 'Retirees' }, { type: 'plan', value: 'PLAN-B' }]),
        relationship: 'child',
        subscriber_name: JSON.stringify({ family: 'Okafor', given: ['Chidi', 'Emeka'] }),
        subscriber_birth_date: '1938-02-11',
        subscriber_gender: 'male',
        identifiers: [{ system: COVERAGE_SYSTEM, value: 'COV-1' }],
      }));
      expect(checkR4(rendered)).to.deep.equal([]);
      expect(rendered).to.deep.include({
        identifier: [{ system: COVERAGE_SYSTEM, value: 'COV-1' }],
        type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0086', code: 'HMO' }], text: 'HMO' },
        class: [
          { type: { coding: [{ system: CLASS, code: 'group' }] }, value: 'GRP-100', name: 'Retirees' },
          { type: { coding: [{ system: CLASS, code: 'plan' }] }, value: 'PLAN-B' },
        ],
        relationship: { coding: [{ system: RELATIONSHIP, code: 'child' }] },
        subscriber: { reference: '#subscriber' },
        contained: [
          {
            resourceType: 'RelatedPerson',
            id: 'subscriber',
            patient: { reference: 'Patient/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a' },
            // The subscriber is the parent of a beneficiary who is its child.
            relationship: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode', code: 'PRN', display: 'parent' }] }],
            name: [{ family: 'Okafor', given: ['Chidi', 'Emeka'] }],
            gender: 'male',
            birthDate: '1938-02-11',
          },
        ],
      });
    });

    it('self: the subscriber is the beneficiary, nothing contained; without details, none of these elements', () => {
      const self = toR4Coverage(row({ relationship: 'self' }));
      expect(checkR4(self)).to.deep.equal([]);
      expect(self.subscriber).to.deep.equal(self.beneficiary);
      expect(self).to.not.have.property('contained');
      const bare = toR4Coverage(row());
      expect(checkR4(bare)).to.deep.equal([]);
      for (const element of ['identifier', 'type', 'class', 'relationship', 'subscriber', 'contained']) expect(bare, element).to.not.have.property(element);
    });
  });

  describe('served', () => {
    let service: TestService;
    let orgId: string;
    let facilityId: string;
    let token: string;
    let base: string;
    let coverageIds: string[];
    const db = (): Knex => service.running.app.db;

    before(async () => {
      service = await startTestService();
      orgId = (await service.seed.org()).id;
      facilityId = (await service.seed.facility(orgId, 'details')).id;
      const mrn = 'R4-DETAILS';
      const beneficiary = { reference: `Patient?identifier=${MRN}|${mrn}` };
      const dependent = {
        identifier: [{ system: COVERAGE_SYSTEM, value: 'COV-DEP' }, { system: 'https://payer.example/member', value: 'M-77' }],
        type: { text: 'Medicare Advantage' },
        class: [{ type: { coding: [{ system: CLASS, code: 'group' }] }, value: 'GRP-100', name: 'Retirees' }],
        relationship: { coding: [{ system: RELATIONSHIP, code: 'spouse' }] },
        contained: [{ resourceType: 'RelatedPerson', id: 'sub', patient: beneficiary, name: [{ family: 'Okafor', given: ['Chidi'] }], birthDate: '1938-02-11', gender: 'male' }],
        subscriber: { reference: '#sub' },
      };
      const changes: ResourceChange[] = [
        { resource: patient(mrn), match: { identifier: { system: MRN, value: mrn } }, at: '0' },
        { resource: coverage(beneficiary, 'COV-DEP', dependent), at: '1' },
        { resource: coverage(beneficiary, 'COV-SELF', { subscriber: beneficiary, order: 2 }), at: '2' },
        ...Array.from({ length: 5 }, (_, i) => ({ resource: coverage(beneficiary, `COV-${i}`, { order: 3 + i }), at: `${3 + i}` })),
      ];
      const result = await applyChangeSet(db(), { orgId, facilityId, mode: 'transaction', actor: 'test', emitEvents: false, changes });
      coverageIds = result.outcomes.slice(1).map((o) => (o as { id: string }).id);
      token = await tokenFor(service.baseUrl, await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES }));
      base = `/api/v1/fhir/R4/${orgId}/${facilityId}`;
    });
    after(async () => {
      await service?.close();
    });

    async function fhir(path: string): Promise<TestResponse> {
      const response = await call(service.baseUrl, 'GET', path, { token, headers: { accept: 'application/fhir+json' } });
      expect(response.status, path).to.equal(200);
      expect(checkR4(response.body), path).to.deep.equal([]);
      return response;
    }

    it('reads a dependent\'s Coverage with its identifiers, type, class, relationship and contained subscriber', async () => {
      const { body } = await fhir(`${base}/Coverage/${coverageIds[0]}`);
      expect(body.identifier).to.have.deep.members([{ system: COVERAGE_SYSTEM, value: 'COV-DEP' }, { system: 'https://payer.example/member', value: 'M-77' }]);
      expect(body.type).to.deep.equal({ text: 'Medicare Advantage' });
      expect(body.class).to.deep.equal([{ type: { coding: [{ system: CLASS, code: 'group' }] }, value: 'GRP-100', name: 'Retirees' }]);
      expect(body.relationship).to.deep.equal({ coding: [{ system: RELATIONSHIP, code: 'spouse' }] });
      expect(body.subscriber).to.deep.equal({ reference: '#subscriber' });
      expect(body.contained[0]).to.deep.include({ resourceType: 'RelatedPerson', patient: body.beneficiary, name: [{ family: 'Okafor', given: ['Chidi'] }], birthDate: '1938-02-11', gender: 'male' });
    });

    it('searches (with _include of the Patient) reading the page\'s identifiers in one query, each Coverage with its own', async () => {
      const queries: string[] = [];
      const listen = (query: { sql: string }) => {
        if (/resource_identifiers/.test(query.sql) && /resource_id. in|resource_id" in/i.test(query.sql)) queries.push(query.sql);
      };
      db().on('query', listen);
      let body: any;
      try {
        body = (await fhir(`${base}/Coverage?_include=Coverage:beneficiary`)).body;
      } finally {
        db().removeListener('query', listen);
      }
      expect(queries).to.have.length(1);
      const coverages = body.entry.filter((e: any) => e.search.mode === 'match').map((e: any) => e.resource);
      expect(coverages).to.have.length(7);
      expect(body.entry.filter((e: any) => e.search.mode === 'include')).to.have.length(1);
      const byId = new Map(coverages.map((c: any) => [c.id, c]));
      expect((byId.get(coverageIds[0]) as any).identifier).to.have.length(2);
      const self = byId.get(coverageIds[1]) as any;
      expect(self).to.deep.include({ identifier: [{ system: COVERAGE_SYSTEM, value: 'COV-SELF' }], relationship: { coding: [{ system: RELATIONSHIP, code: 'self' }] } });
      expect(self.subscriber).to.deep.equal(self.beneficiary);
      coverageIds.slice(2).forEach((id, i) => expect((byId.get(id) as any).identifier, id).to.deep.equal([{ system: COVERAGE_SYSTEM, value: `COV-${i}` }]));
    });

    it('the /ofctx/ Coverage keeps its shape: none of these elements', async () => {
      const response = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/coverage/${coverageIds[0]}`, { token });
      expect(response.status).to.equal(200);
      expect(Object.keys(response.body.data ?? response.body).sort()).to.deep.equal(['beneficiary', 'id', 'meta', 'order', 'payor', 'period', 'resourceType', 'status', 'subscriberId']);
    });
  });
});
