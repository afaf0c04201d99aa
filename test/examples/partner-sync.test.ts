// examples/partner-sync against a live, seeded service: its --json summary must count
// exactly what was seeded, and its failures must be the documented exit codes.
import { expect } from 'chai';
import type { SeedCounts } from '../../server/src/seed/synthetic-data.js';
import { startTestService, type TestService } from '../support/service.js';
import { runExample } from './support/example-process.js';

describe('examples/partner-sync', function () {
  this.timeout(20_000);
  let service: TestService;
  let env: Record<string, string>;
  let seeded: SeedCounts;
  let facilityId: string;

  before(async () => {
    service = await startTestService();
    const org = await service.seed.org('Partner Sync Org');
    facilityId = (await service.seed.facility(org.id, 'Synced')).id;
    const other = await service.seed.facility(org.id, 'Not granted');
    // 40 residents: 480 observations, so that list takes three 200-row pages.
    seeded = await service.seed.data({ orgId: org.id, facilityId, residents: 40 });
    await service.seed.data({ orgId: org.id, facilityId: other.id, residents: 5 });
    const client = await service.seed.client({ orgId: org.id, facilityIds: [facilityId], scopes: ['residents.read', 'coverage.read', 'clinical.read'] });
    env = {
      OFCTX_BASE_URL: service.baseUrl,
      OFCTX_CLIENT_ID: client.client_id,
      OFCTX_CLIENT_SECRET: client.client_secret,
      OFCTX_ORG_ID: org.id,
      OFCTX_FACILITY_ID: facilityId,
    };
  });
  after(() => service?.close());

  it('--json prints one summary whose counts equal what was seeded, read page by page', async () => {
    const run = await runExample('partner-sync', ['--json'], env);
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).to.have.length(1);
    const summary = JSON.parse(lines[0]!);

    expect(summary.residents.total).to.equal(seeded.residents);
    expect(summary.coverage.total).to.equal(seeded.coverage);
    expect(summary.vitals.observations).to.equal(seeded.observations);
    expect(summary.allergies.total).to.equal(seeded.allergies);
    expect(summary.recordsOfUnlistedResidents).to.equal(0);
    // 200 rows a page: ceil(260/200) = 2 pages of residents, and so on.
    expect(summary.pages).to.deep.equal({
      residents: Math.ceil(seeded.residents / 200),
      coverage: Math.ceil(seeded.coverage / 200),
      observations: Math.ceil(seeded.observations / 200),
      allergies: Math.ceil(seeded.allergies / 200),
    });

    // The tallies, against the database itself.
    const db = service.running.app.db;
    const activeByPayer = (await db('coverage').where({ facility_id: facilityId, status: 'active' }).groupBy('payor_name').select('payor_name').count({ n: '*' })) as Array<{ payor_name: string; n: number | string }>;
    expect(summary.coverage.activeByPayer).to.deep.equal(Object.fromEntries(activeByPayer.map((r) => [r.payor_name, Number(r.n)])));
    const residentsWithActiveCoverage = await db('coverage').where({ facility_id: facilityId, status: 'active' }).countDistinct({ n: 'resident_id' }).first();
    expect(summary.residents.withActiveCoverage).to.equal(Number(residentsWithActiveCoverage!.n));
    const byAllergen = (await db('allergies').where({ facility_id: facilityId }).groupBy('display').select('display').count({ n: '*' })) as Array<{ display: string; n: number | string }>;
    expect(summary.allergies.byAllergen).to.deep.equal(Object.fromEntries(byAllergen.map((r) => [r.display, Number(r.n)])));
    // Every seeded resident has every vital sign (2 rounds of 6).
    expect(summary.vitals.residentsWithVitals).to.equal(seeded.residents);
    expect(Object.values(summary.vitals.residentsWithLatest)).to.deep.equal(Array(6).fill(seeded.residents));
  });

  it('prints a readable summary without --json', async () => {
    const run = await runExample('partner-sync', [], env);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`Residents: ${seeded.residents} (`);
    expect(run.stdout).to.include(`Coverage:  ${seeded.coverage} policies`);
    expect(run.stdout).to.include(`Vitals:    ${seeded.observations} observations`);
    expect(run.stdout).to.include(`Allergies: ${seeded.allergies} recorded`);
  });

  it('exits 1 with the API error code and request id when the facility is not granted, 2 on missing configuration', async () => {
    const forbidden = await runExample('partner-sync', [], { ...env, OFCTX_FACILITY_ID: (await service.seed.facility(env.OFCTX_ORG_ID!, 'Other')).id });
    expect(forbidden.code, forbidden.stderr).to.equal(1);
    expect(forbidden.stderr).to.match(/403 facility_forbidden, request [0-9a-f-]{36}/);
    expect(forbidden.stderr).not.to.include(env.OFCTX_CLIENT_SECRET);

    const { OFCTX_CLIENT_SECRET: _secret, ...withoutSecret } = env;
    const usage = await runExample('partner-sync', [], withoutSecret);
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.include('missing environment variable(s): OFCTX_CLIENT_SECRET');
  });
});
