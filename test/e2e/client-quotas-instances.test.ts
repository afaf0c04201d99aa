// Two instances on one PostgreSQL share a credential's quota (docs/quotas.md): a client
// hammering both is admitted no more than the documented bound, B + R*t + (N-1)*(B + R*L),
// with L the lag of the shared counts (two sync intervals and a statement), where two
// unshared buckets would admit N*(B + R*t); and no less than most of R*t.
import { expect } from 'chai';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../support/database.js';
import { tokenFor } from '../support/http.js';
import { ALL_SCOPES, startTestService, type TestService } from '../support/service.js';

const RATE = 5;
const BURST = 5;
const SYNC_MS = 200;
const INSTANCES = 2;
/** Two sync intervals, and time for the statements. */
const LAG_SECONDS = (2 * SYNC_MS + 200) / 1000;

describe('a credential quota shared by two instances on one PostgreSQL', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  const services: TestService[] = [];

  before(async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    database = await createTestDatabase();
    const env = { CLIENT_QUOTA_RATE: String(RATE), CLIENT_QUOTA_BURST: String(BURST), CLIENT_QUOTA_SYNC_MS: String(SYNC_MS) };
    for (let i = 0; i < INSTANCES; i++) services.push(await startTestService({ database, env }));
  });
  after(async () => {
    for (const service of services) await service.close();
    await database?.drop();
  });

  it('holds the combined rate within the documented bound while both instances are flooded', async () => {
    const [a, b] = services as [TestService, TestService];
    const orgId = (await a.seed.org('Shared Homes')).id;
    const facilityId = (await a.seed.facility(orgId, 'One')).id;
    await a.seed.data({ orgId, facilityId, residents: 2 });
    const flooder = await a.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
    const token = await tokenFor(a.baseUrl, flooder);
    const path = `/api/v1/ofctx/${orgId}/${facilityId}/coverage`;

    const admitted = [0, 0];
    const refused = [0, 0];
    const started = performance.now();
    const until = started + 5_000;
    // Four connections on each instance, each sending as fast as it is answered.
    await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const instance = n % 2;
        const base = services[instance]!.baseUrl;
        while (performance.now() < until) {
          const response = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
          await response.arrayBuffer();
          if (response.status === 200) admitted[instance]! += 1;
          else if (response.status === 429) refused[instance]! += 1;
          else throw new Error(`unexpected ${response.status}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const total = admitted[0]! + admitted[1]!;
    const bound = BURST + RATE * seconds + (INSTANCES - 1) * (BURST + RATE * LAG_SECONDS);
    const unshared = INSTANCES * (BURST + RATE * seconds);
    const report = `admitted ${admitted.join(' + ')} = ${total} in ${seconds.toFixed(2)} s (refused ${refused.join(' + ')}); bound ${bound.toFixed(0)}, unshared ${unshared.toFixed(0)}`;
    expect(total, report).to.be.at.most(bound);
    expect(total, report).to.be.at.least(0.7 * RATE * seconds);
    // Both instances served the client: the quota is shared, not pinned to one.
    expect(admitted[0], report).to.be.at.least(3);
    expect(admitted[1], report).to.be.at.least(3);
    expect(refused[0]! + refused[1]!, report).to.be.at.least(20);
  });

  it('keeps one running total per instance and client in client_quota_usage, written once a sync interval', async () => {
    const [a] = services as [TestService];
    const rows = await a.running.app.db('client_quota_usage').select('instance_id', 'consumed');
    const instances = new Set(rows.map((r) => r.instance_id as string));
    expect(instances.size).to.equal(INSTANCES);
    for (const row of rows) expect(Number(row.consumed)).to.be.greaterThan(0);
  });
});
