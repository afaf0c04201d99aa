// The identifier index looked up by value: every row holding a value (of every system, or of
// one resource type), in one organization only, however many values are asked at once.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { freshKnexForSuite } from '../../../test/support/database.js';
import { identifierRowsByValue, identifierRowsStatement } from '../../src/db/identifier-rows.js';
import { isPostgres } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createOrganization } from '../../src/organizations/organizations.js';

describe('identifier rows by value', () => {
  const knex = freshKnexForSuite(async (db) => void (await migrateToLatest(db)));
  let orgId: string;
  let otherOrgId: string;
  const patientId = randomUUID();
  const coverageId = randomUUID();

  before(async () => {
    const db = knex();
    orgId = (await createOrganization(db, 'Identifiers')).id;
    otherOrgId = (await createOrganization(db, 'Other identifiers')).id;
    await db('resource_identifiers').insert([
      { org_id: orgId, resource_type: 'Patient', system: 'https://ehr.example/mrn', value: 'V-1', resource_id: patientId },
      { org_id: orgId, resource_type: 'Coverage', system: 'https://payer.example/member', value: 'V-1', resource_id: coverageId },
      { org_id: orgId, resource_type: 'Coverage', system: 'https://payer.example/member', value: 'V-2', resource_id: coverageId },
      { org_id: otherOrgId, resource_type: 'Patient', system: 'https://ehr.example/mrn', value: 'V-1', resource_id: randomUUID() },
    ]);
    const many = Array.from({ length: 1500 }, (_, i) => ({ org_id: orgId, resource_type: 'Observation', system: 'https://lab.example/result', value: `R-${i}`, resource_id: randomUUID() }));
    for (let i = 0; i < many.length; i += 250) await db('resource_identifiers').insert(many.slice(i, i + 250));
  });

  const keys = (rows: Array<{ resource_type: string; system: string; value: string }>) => rows.map((r) => `${r.resource_type}|${r.system}|${r.value}`).sort();

  it('answers every row of the organization holding a value, whatever its type and system', async () => {
    expect(keys(await identifierRowsByValue(knex(), orgId, ['V-1', 'V-3']))).to.deep.equal(['Coverage|https://payer.example/member|V-1', 'Patient|https://ehr.example/mrn|V-1']);
  });

  it('answers each row once when a value is asked twice', async () => {
    expect(keys(await identifierRowsByValue(knex(), orgId, ['V-2', 'V-2'], 'Coverage'))).to.deep.equal(['Coverage|https://payer.example/member|V-2']);
  });

  it('answers only the rows of the type asked for', async () => {
    const rows = await identifierRowsByValue(knex(), orgId, ['V-1', 'V-2'], 'Coverage');
    expect(keys(rows)).to.deep.equal(['Coverage|https://payer.example/member|V-1', 'Coverage|https://payer.example/member|V-2']);
    expect(new Set(rows.map((r) => r.resource_id))).to.deep.equal(new Set([coverageId]));
  });

  it('finds every value of a list longer than one statement takes', async () => {
    const values = Array.from({ length: 1500 }, (_, i) => `R-${i}`);
    const rows = await identifierRowsByValue(knex(), orgId, values, 'Observation');
    expect(new Set(rows.map((r) => r.value)).size).to.equal(1500);
  });

  it('answers nothing for no values, and nothing of another organization', async () => {
    expect(await identifierRowsByValue(knex(), orgId, [])).to.deep.equal([]);
    expect(keys(await identifierRowsByValue(knex(), otherOrgId, ['V-1', 'V-2']))).to.deep.equal(['Patient|https://ehr.example/mrn|V-1']);
  });

  it('keeps one plan on PostgreSQL, probing the index per value: the plan with the values never looks cheaper', async function () {
    if (!isPostgres(knex())) this.skip();
    const { sql } = identifierRowsStatement(orgId, ['V-1']);
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    const fetched = await knex().transaction(async (trx) => {
      await trx.raw(`PREPARE identifier_lookup AS ${text}`);
      const before = Number((await trx.raw(`SELECT idx_tup_fetch AS n FROM pg_stat_xact_user_tables WHERE relname = 'resource_identifiers'`)).rows[0].n ?? 0);
      // A message's lookup: one value or two, again and again (PostgreSQL decides after five).
      for (let i = 0; i < 10; i++) {
        // EXECUTE takes literals (the test's own values: no quotes in them).
        const rows = (await trx.raw(`EXECUTE identifier_lookup('${JSON.stringify([`R-${i}`])}', '${orgId}')`)).rows as Array<{ value: string }>;
        expect(rows.map((r) => r.value)).to.deep.equal([`R-${i}`]);
      }
      const [plans] = (await trx.raw(`SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'identifier_lookup'`)).rows as Array<{ generic_plans: string; custom_plans: string }>;
      expect(Number(plans!.generic_plans), JSON.stringify(plans)).to.be.at.least(5);
      const after = Number((await trx.raw(`SELECT idx_tup_fetch AS n FROM pg_stat_xact_user_tables WHERE relname = 'resource_identifiers'`)).rows[0].n ?? 0);
      await trx.raw('DEALLOCATE identifier_lookup');
      return after - before;
    });
    // Ten probes of one row each, never a read of the organization's 1,500 others.
    expect(fetched).to.be.at.most(10);
  });
});
