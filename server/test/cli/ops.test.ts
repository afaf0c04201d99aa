// The operators' CLI, run as a real process against a fresh database (its argument errors in
// the test process, but for two: a process start is most of a second on the 2-core machine).
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps as runOpsInProcess, runOpsProcess as runOps } from '../../../test/support/ops-cli.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { call } from '../../../test/support/http.js';

describe('the ops CLI', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let env: Record<string, string>;

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url };
  });
  after(() => database.drop());

  it('issues an organization, a facility and a credential that gets a token from the running service', async () => {
    expect(jsonOf(await runOps(['migrate', '--json'], env))).to.have.property('total');
    const org = jsonOf(await runOps(['org', 'create', '--name', 'Sunrise Homes', '--json'], env));
    expect(org).to.include({ name: 'Sunrise Homes' });
    const facility = jsonOf(await runOps(['facility', 'create', '--org', org.id, '--name', 'Sunrise East', '--json'], env));
    expect(facility).to.include({ org_id: org.id, name: 'Sunrise East' });
    const client = jsonOf(await runOps(['client', 'create', '--org', org.id, '--facilities', facility.id, '--scopes', 'coverage.read residents.read', '--name', 'Clearinghouse', '--json'], env));
    expect(client).to.have.keys(['client_id', 'client_secret', 'org_id', 'facility_ids', 'scopes', 'auth_methods', 'policy']);
    expect(client.policy, 'the default policy: operations, every resident, no restricted records').to.deep.equal({ purpose: 'HOPERAT', payers: null, sensitive: false });
    expect(client.auth_methods).to.deep.equal(['client_secret']);
    expect(client.scopes).to.deep.equal(['residents.read', 'coverage.read']);

    const seeded = jsonOf(await runOps(['seed', '--org', org.id, '--facility', facility.id, '--residents', '20', '--json'], env));
    expect(seeded.residents).to.equal(20);
    expect(seeded.coverage).to.be.at.least(20);
    expect(seeded.observations).to.equal(20 * 2 * 6);

    const listed = jsonOf(await runOps(['client', 'list', '--org', org.id, '--json'], env));
    expect(listed.clients).to.have.lengthOf(1);
    expect(listed.clients[0].auth_methods).to.deep.equal(['client_secret']);
    expect(JSON.stringify(listed)).to.not.include(client.client_secret);

    const service: TestService = await startTestService({ database });
    try {
      const token = await call(service.baseUrl, 'POST', '/api/v1/oauth/token', {
        form: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret },
      });
      expect(token.status).to.equal(200);
      const residents = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${org.id}/${facility.id}/residents`, { token: token.body.access_token });
      expect(residents.body.meta.page.total).to.equal(20);

      const audit = jsonOf(await runOps(['audit', '--org', org.id, '--client', client.client_id, '--json'], env));
      expect(audit.events.map((e: { operation: string }) => e.operation)).to.include('listResidents');

      const granted = jsonOf(await runOps(['client', 'grant', client.client_id, '--facilities', facility.id, '--json'], env));
      expect(granted.facility_ids).to.deep.equal([facility.id]);
      const revoked = jsonOf(await runOps(['client', 'revoke', client.client_id, '--json'], env));
      expect(revoked).to.include({ status: 'revoked', subscriptions_disabled: 0 });
    } finally {
      await service.close();
    }
  });

  it('creates a whole demo tenant with seed --demo', async () => {
    const demo = jsonOf(await runOps(['seed', '--demo', '--residents', '3', '--json'], env));
    expect(demo.facilities).to.have.lengthOf(2);
    expect(demo.client.scopes).to.deep.equal(['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage']);
    expect(demo.client.facility_ids).to.deep.equal([demo.facilities[0].id]);
  });

  it('refuses bad arguments with a clear message and exit code 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['org', 'create', '--json'], /--name is required/],
      [['facility', 'create', '--org', 'nope', '--name', 'x'], /--org must be a UUID/],
      [['client', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--facilities', '00000000-0000-4000-8000-000000000000', '--scopes', 'coverage.read', '--name', 'x'], /no organization/],
      [['client', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--facilities', 'x', '--scopes', 'root', '--name', 'x'], /facilities must be comma-separated UUIDs|unknown scopes/],
      [['seed', '--org', '00000000-0000-4000-8000-000000000000', '--facility', '00000000-0000-4000-8000-000000000000', '--residents', 'many'], /--residents must be a positive integer/],
      [['audit', '--org', '00000000-0000-4000-8000-000000000000', '--since', 'yesterday'], /--since must be an ISO 8601 time/],
      [['org', 'create', '--name', 'x', '--colour', 'blue'], /Unknown option '--colour'/],
      // Longer than the column: PostgreSQL refused it with its own error, SQLite kept it whole.
      [['org', 'create', '--name', 'x'.repeat(201)], /--name is at most 200 characters, got 201/],
      [['facility', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--name', 'x'.repeat(201)], /--name is at most 200 characters/],
      [['client', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--facilities', '00000000-0000-4000-8000-000000000000', '--scopes', 'coverage.read', '--name', 'x'.repeat(201)], /--name is at most 200 characters/],
      [['source', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--facilities', '00000000-0000-4000-8000-000000000000', '--name', 'x'.repeat(201)], /--name is at most 200 characters/],
      [['audit', 'disclosures', '--org', '00000000-0000-4000-8000-000000000000', '--resident', '00000000-0000-4000-8000-000000000000', '--from', '2026-06-01', '--to', '2026-05-01'], /--from must be before --to/],
      [['frobnicate'], /unknown command/],
    ];
    for (const [i, [args, message]] of cases.entries()) {
      // The first and the last as operators run them: the exit code is the process's own.
      const run = i === 0 || i === cases.length - 1 ? await runOps(args, env) : await runOpsInProcess(args, env);
      expect(run.code, args.join(' ')).to.equal(2);
      expect(run.stderr, args.join(' ')).to.match(message);
      expect(run.stdout, args.join(' ')).to.equal('');
    }
  });
});
