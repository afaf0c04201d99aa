// The accounting of access: every read of patient data is recorded with the ids returned;
// logs and the database never hold secrets, tokens or patient data in clear.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor } from '../../../test/support/http.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { sqlitePath } from '../../src/config/config.js';

describe('the audit trail', () => {
  let service: TestService;
  let orgId: string;
  let facilityId: string;
  let client: { client_id: string; client_secret: string };
  let token: string;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    facilityId = (await service.seed.facility(orgId)).id;
    await service.seed.data({ orgId, facilityId, residents: 5 });
    client = await service.seed.client({ orgId, facilityIds: [facilityId], scopes: ALL_SCOPES });
    token = await tokenFor(service.baseUrl, client);
  });
  after(() => service.close());

  it('records each read with client, organization, facility, operation, status and the ids returned', async () => {
    const list = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/residents?page_size=3`, { token, headers: { 'x-request-id': 'audit-list-1' } });
    const id = list.body.data[0].id;
    await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/residents/${id}`, { token, headers: { 'x-request-id': 'audit-read-1' } });
    await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/coverage/00000000-0000-4000-8000-000000000000`, { token, headers: { 'x-request-id': 'audit-miss-1' } });

    const events = await new AuditTrail(service.running.app.db).query({ orgId, clientId: client.client_id });
    const byRequest = Object.fromEntries(events.map((e) => [e.request_id, e]));
    expect(byRequest['audit-list-1']).to.include({ client_id: client.client_id, org_id: orgId, facility_id: facilityId, operation: 'listResidents', status: 200, result_count: 3 });
    expect(byRequest['audit-list-1']!.resource_ids).to.deep.equal(list.body.data.map((r: { id: string }) => r.id));
    expect(byRequest['audit-read-1']).to.include({ operation: 'getResident', status: 200, result_count: 1 });
    expect(byRequest['audit-read-1']!.resource_ids).to.deep.equal([id]);
    expect(byRequest['audit-miss-1']).to.include({ operation: 'getCoverage', status: 404, result_count: 0 });
  });

  it('records refused reads too', async () => {
    const otherFacility = (await service.seed.facility(orgId, 'not granted')).id;
    await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${otherFacility}/residents`, { token, headers: { 'x-request-id': 'audit-refused-1' } });
    const events = await new AuditTrail(service.running.app.db).query({ orgId });
    expect(events.find((e) => e.request_id === 'audit-refused-1')).to.include({ status: 403, facility_id: otherFacility, result_count: 0 });
  });

  it('commits every row of a batch larger than one insert statement, each request answered after its own', async () => {
    const trail = new AuditTrail(service.running.app.db);
    const entries = Array.from({ length: 75 }, (_, i) => ({
      requestId: `audit-batch-${i}`,
      clientId: client.client_id,
      orgId,
      facilityId,
      operation: 'listCoverage',
      status: 200,
      resourceIds: i % 3 === 0 ? null : [`id-${i}`, 'it"s \\ {a,b}'],
    }));
    // One turn of the event loop: one batch of 75 rows (several statements, one transaction).
    await Promise.all(entries.map((entry) => trail.record(entry)));
    const stored = (await trail.query({ orgId })).filter((e) => e.request_id.startsWith('audit-batch-'));
    expect(stored.map((e) => e.request_id).sort()).to.deep.equal(entries.map((e) => e.requestId).sort());
    const byRequest = Object.fromEntries(stored.map((e) => [e.request_id, e]));
    expect(byRequest['audit-batch-1']).to.include({ operation: 'listCoverage', status: 200, result_count: 2, facility_id: facilityId });
    expect(byRequest['audit-batch-1']!.resource_ids).to.deep.equal(['id-1', 'it"s \\ {a,b}']);
    expect(byRequest['audit-batch-3']).to.include({ result_count: 0, resource_ids: null });
  });

  it('keeps secrets, tokens and patient data out of the logs, and secrets and tokens out of the database', async () => {
    const patients = (await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facilityId}/residents?page_size=5`, { token })).body.data;
    const logs = service.logs();
    expect(logs).to.include('"route":"/api/v1/ofctx/{org_id}/{facility_id}/residents"');
    for (const secret of [client.client_secret, token]) expect(logs).to.not.include(secret);
    for (const patient of patients) {
      expect(logs).to.not.include(patient.id);
      expect(logs).to.not.include(patient.name[0].family);
      expect(logs).to.not.include(patient.birthDate);
    }
    const file = sqlitePath(service.config.databaseUrl);
    if (file) {
      const bytes = [file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1')).join('');
      for (const secret of [client.client_secret, token]) expect(bytes).to.not.include(secret);
    } else {
      for (const table of ['clients', 'access_tokens', 'audit_events']) {
        const dump = JSON.stringify(await service.running.app.db(table).select());
        for (const secret of [client.client_secret, token]) expect(dump, table).to.not.include(secret);
      }
    }
  });
});
