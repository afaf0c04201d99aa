// Migration 048: an organization that holds HL7 results stored with the match keys of releases
// before 2026-11-29 is flagged, once, so the HL7 applier looks those keys up for it alone; an
// organization with only FHIR results, none, or made later is not; its down drops the flag.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../../test/support/database.js';
import { migrateToLatest } from '../../../src/db/migrate.js';
import { createOrganization, createFacility, findFacilityByHl7Code, setFacilityHl7Code } from '../../../src/organizations/organizations.js';
import * as hl7FormerResultKeys from '../../../src/db/migrations/048_hl7_former_result_keys.js';

describe('organizations with HL7 results under former match keys (migration 048)', function () {
  this.timeout(60_000);
  const knex = freshKnexForSuite(async (db) => {
    await migrateToLatest(db);
  });
  let db: Knex;
  before(() => {
    db = knex();
  });

  const identifier = (orgId: string, resourceType: string, system: string) => ({ org_id: orgId, resource_type: resourceType, system, value: randomUUID().replace(/-/g, '').slice(0, 40), resource_id: randomUUID() });
  const flagOf = async (orgId: string) => Boolean(Number((await db('organizations').where({ id: orgId }).first('hl7_former_result_keys'))!.hl7_former_result_keys));

  it('flags only the organizations holding HL7 result identifiers, and its down drops the flag', async () => {
    const withResults = await createOrganization(db, 'HL7 results before');
    const withFhir = await createOrganization(db, 'FHIR results only');
    const empty = await createOrganization(db, 'Nothing yet');
    await db('resource_identifiers').insert([
      identifier(withResults.id, 'Observation', 'urn:ofctx:hl7v2:observation:LAB'),
      identifier(withFhir.id, 'Observation', 'https://lab.example/results'),
      identifier(withFhir.id, 'DiagnosticReport', 'urn:ofctx:hl7v2:diagnostic-report:LAB'),
    ]);
    await hl7FormerResultKeys.down(db);
    expect(await db('organizations').columnInfo()).to.not.have.property('hl7_former_result_keys');
    await hl7FormerResultKeys.up(db);
    expect([await flagOf(withResults.id), await flagOf(withFhir.id), await flagOf(empty.id)]).to.deep.equal([true, false, false]);
    const later = await createOrganization(db, 'Made after');
    expect(await flagOf(later.id)).to.equal(false);
  });

  it('is read with the facility an HL7 code names, in a transaction or not', async () => {
    const org = await createOrganization(db, 'Flag read');
    const facility = await createFacility(db, org.id, 'Flag read facility');
    await setFacilityHl7Code(db, facility.id, 'FLAG-READ');
    expect((await findFacilityByHl7Code(db, 'FLAG-READ'))!.former_result_keys).to.equal(false);
    await db('organizations').where({ id: org.id }).update({ hl7_former_result_keys: true });
    expect((await findFacilityByHl7Code(db, 'FLAG-READ'))!.former_result_keys).to.equal(true);
    expect(await db.transaction(async (trx) => (await findFacilityByHl7Code(trx, 'FLAG-READ'))!.former_result_keys)).to.equal(true);
  });
});
