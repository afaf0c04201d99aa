// changedSince against the real service (SQLite and PostgreSQL): a full first sync, then a
// resumed one that sees exactly the changes written after its mark, each at its new version.
import { expect } from 'chai';
import { contractCheckingFetch } from '../../../test/support/contract.js';
import { ALL_SCOPES, startTestService, type TestService } from '../../../test/support/service.js';
import { applyOne, coverageResource, dischargeResident, touchCoverage } from '../../../test/support/resource-changes.js';
import { createClient, type FacilityClient } from '../../src/index.js';

describe('SDK changedSince against the real service', function () {
  this.timeout(60_000);
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let facility: FacilityClient;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org('sync partner')).id;
    facilityId = (await service.seed.facility(orgId, 'synced')).id;
    await service.seed.data({ orgId, facilityId, residents: 15 });
    const issued = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
    facility = createClient({ baseUrl: service.baseUrl, clientId: issued.client_id, clientSecret: issued.client_secret, fetch: contractCheckingFetch }).facility(orgId, facilityId);
  });
  after(() => service?.close());

  const db = () => service.running.app.db;

  it('syncs everything once, then a resumed feed sees exactly the changes after its mark', async () => {
    const first = facility.coverage.changedSince(new Date(0), { pageSize: 9 });
    const firstIds: string[] = [];
    for await (const record of first) firstIds.push(record.id);
    const all = await db()('coverage').where({ facility_id: facilityId }).orderBy([{ column: 'last_updated' }, { column: 'id' }]).select('id', 'last_updated');
    expect(firstIds).to.deep.equal(all.map((r) => r.id));
    expect(first.mark).to.equal(all[all.length - 1]!.last_updated);

    const updated = await touchCoverage(db(), orgId, facilityId, all[3]!.id, 'SYNC1A');
    const created = await applyOne(db(), orgId, facilityId, { ...(await coverageResource(db(), all[0]!.id)), subscriberId: '*****NEW1A' });
    const again = await touchCoverage(db(), orgId, facilityId, all[3]!.id, 'SYNC2A');

    const resumed = facility.coverage.changedSince(first.mark, { pageSize: 1 });
    const changes: Array<[string, string]> = [];
    for await (const record of resumed) changes.push([record.id, record.meta.versionId]);
    // The twice-updated record once, at its newest version, after the new one.
    expect(changes).to.deep.equal([[created.id, '1'], [updated.id, String(again.versionId)]]);
    expect(resumed.mark).to.equal(again.lastUpdated);

    const quiet = facility.coverage.changedSince(resumed.mark);
    for await (const record of quiet) throw new Error(`unexpected change ${record.id}`);
    expect(quiet.mark).to.equal(resumed.mark);
  });

  it('sees a discharge as a change: the resident stays readable with active false', async () => {
    const mark = (await db()('residents').where({ facility_id: facilityId }).max({ m: 'last_updated' }).first())!.m as string;
    const resident = await db()('residents').where({ facility_id: facilityId, active: true }).first();
    await dischargeResident(db(), orgId, facilityId, resident.id);
    const feed = facility.residents.changedSince(mark);
    const seen: Array<[string, boolean]> = [];
    for await (const patient of feed) seen.push([patient.id, patient.active]);
    expect(seen).to.deep.equal([[resident.id, false]]);
    expect((await facility.residents.get(resident.id)).active).to.equal(false);
  });
});
