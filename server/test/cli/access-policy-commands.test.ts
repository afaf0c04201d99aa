// The operator's side of the access policy, run as the real ops CLI: a credential's purpose,
// payers and clearance (client create / update / list), a resident's refusal recorded and
// lifted (consent deny / lift / list), and the accounting of disclosures (audit disclosures).
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';

describe('ops: access policy, consent and disclosures', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let env: Record<string, string>;
  let org: string;
  let facility: string;

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url };
    org = jsonOf(await runOps(['org', 'create', '--name', 'Policy Homes', '--json'], env)).id;
    facility = jsonOf(await runOps(['facility', 'create', '--org', org, '--name', 'East', '--json'], env)).id;
    jsonOf(await runOps(['seed', '--org', org, '--facility', facility, '--residents', '6', '--json'], env));
  });
  after(() => database.drop());

  it('client create and update set the policy, client list shows it; bad values are usage errors', async () => {
    const payer = jsonOf(await runOps(['client', 'create', '--org', org, '--facilities', facility, '--scopes', 'residents.read coverage.read', '--name', 'Payer', '--purpose', 'hpaymt', '--payer', 'Medicaid', '--payer', ' MEDICARE PART A ', '--json'], env));
    expect(payer.policy).to.deep.equal({ purpose: 'HPAYMT', payers: ['medicaid', 'medicare part a'], sensitive: false });
    const updated = jsonOf(await runOps(['client', 'update', payer.client_id, '--sensitive', '--payer', 'Medicaid', '--json'], env));
    expect(updated.policy).to.deep.equal({ purpose: 'HPAYMT', payers: ['medicaid'], sensitive: true });
    const widened = jsonOf(await runOps(['client', 'update', payer.client_id, '--all-payers', '--no-sensitive', '--purpose', 'TREAT', '--json'], env));
    expect(widened.policy).to.deep.equal({ purpose: 'TREAT', payers: null, sensitive: false });
    const listed = await runOps(['client', 'list', '--org', org], env);
    expect(listed.stdout).to.contain('policy: purpose TREAT; every resident; no restricted records');
    const bad = await runOps(['client', 'update', payer.client_id, '--purpose', 'SNOOPING'], env);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain('PurposeOfUse');
  });

  it('consent deny hides a resident from that purpose only, lift shows it again; consent list and audit disclosures tell what happened', async () => {
    const make = async (purpose: string) => {
      const client = jsonOf(await runOps(['client', 'create', '--org', org, '--facilities', facility, '--scopes', 'residents.read', '--name', purpose, '--purpose', purpose, '--json'], env));
      return client as { client_id: string; client_secret: string };
    };
    const payer = await make('HPAYMT');
    const treat = await make('TREAT');
    const service: TestService = await startTestService({ database });
    try {
      const token = async (c: { client_id: string; client_secret: string }) =>
        (await call(service.baseUrl, 'POST', '/api/v1/oauth/token', { form: { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret } })).body.access_token as string;
      const [payerToken, treatToken] = [await token(payer), await token(treat)];
      const residents = async (t: string) => (await call(service.baseUrl, 'GET', `/api/v1/ofctx/${org}/${facility}/residents?page_size=200`, { token: t })).body;
      const all = await residents(payerToken);
      expect(all.meta.page.total).to.equal(6);
      const resident = all.data[0].id as string;

      const denied = jsonOf(await runOps(['consent', 'deny', '--org', org, '--resident', resident, '--purpose', 'HPAYMT', '--until', '2999-12-31', '--json'], env));
      expect(denied).to.include({ resident_id: resident, purpose: 'HPAYMT', status: 'active', outcome: 'created' });
      expect((await residents(payerToken)).data.map((r: { id: string }) => r.id)).to.not.include(resident);
      expect((await residents(payerToken)).meta.page.total).to.equal(5);
      expect((await residents(treatToken)).data.map((r: { id: string }) => r.id)).to.include(resident);
      expect((await call(service.baseUrl, 'GET', `/api/v1/ofctx/${org}/${facility}/residents/${resident}`, { token: payerToken })).status).to.equal(404);

      const lifted = jsonOf(await runOps(['consent', 'lift', '--org', org, '--resident', resident, '--purpose', 'HPAYMT', '--json'], env));
      expect(lifted).to.include({ status: 'inactive', outcome: 'updated', version_id: 2 });
      expect((await residents(payerToken)).meta.page.total).to.equal(6);
      const consents = jsonOf(await runOps(['consent', 'list', '--org', org, '--resident', resident, '--json'], env));
      expect(consents.consents).to.have.lengthOf(1);
      expect(consents.consents[0]).to.include({ status: 'inactive', decision: 'deny', version_id: 2 });
      expect(consents.consents[0].purposes).to.deep.equal(['HPAYMT']);
      const nothing = await runOps(['consent', 'lift', '--org', org, '--resident', resident, '--purpose', 'PUBHLTH'], env);
      expect(nothing.code).to.equal(2);

      const report = jsonOf(await runOps(['audit', 'disclosures', '--org', org, '--resident', resident, '--json'], env));
      const purposes = report.disclosures.map((d: { purpose: string }) => d.purpose);
      // Two payer lists showed the resident (one before the deny, one after the lift), the TREAT list one; the lists during the deny and the read answered 404 disclose nothing.
      expect(purposes.filter((p: string) => p === 'HPAYMT')).to.have.lengthOf(2);
      expect(purposes.filter((p: string) => p === 'TREAT')).to.have.lengthOf(1);
      for (const d of report.disclosures) {
        expect(d).to.include({ channel: 'api', operation: 'listResidents' });
        expect(d.resource_ids).to.deep.equal([resident]);
        expect(d.client_name).to.be.oneOf(['HPAYMT', 'TREAT']);
      }
      const csv = await runOps(['audit', 'disclosures', '--org', org, '--resident', resident, '--csv', '--from', '2000-01-01', '--to', '2999-01-01'], env);
      expect(csv.stdout.split('\n')[0]).to.equal('at,client_id,client_name,purpose,channel,operation,resource_types,resource_ids\r');
      expect(csv.stdout.trim().split('\n')).to.have.lengthOf(4);
      const none = jsonOf(await runOps(['audit', 'disclosures', '--org', org, '--resident', resident, '--to', '2000-01-01', '--json'], env));
      expect(none.disclosures).to.deep.equal([]);
    } finally {
      await service.close();
    }
  });
});
