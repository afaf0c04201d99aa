// Bearer tokens follow their credential: revocation and a shrunk facility grant bite within
// seconds, expired tokens stop working, and tokens are never stored in clear.
import { expect } from 'chai';
import { startTestService, ALL_SCOPES, type TestService } from '../../../test/support/service.js';
import { call, tokenFor } from '../../../test/support/http.js';
import { grantFacilities, revokeClient } from '../../src/auth/clients.js';
import { sha256Hex } from '../../src/auth/random-token.js';

/** Polls until `check` passes; returns how long it took. Fails after `deadlineMs`. */
async function within(deadlineMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < deadlineMs) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`condition not met within ${deadlineMs} ms`);
}

describe('access tokens', () => {
  let service: TestService;
  let orgId: string;
  let f1: string;
  let f2: string;

  before(async () => {
    service = await startTestService();
    orgId = (await service.seed.org()).id;
    f1 = (await service.seed.facility(orgId, 'F1')).id;
    f2 = (await service.seed.facility(orgId, 'F2')).id;
  });
  after(() => service.close());

  const list = (token: string, facility: string) => call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/${facility}/coverage`, { token });

  it("stop working within 5 seconds of their client's revocation", async () => {
    const client = await service.seed.client({ orgId, facilityIds: [f1], scopes: ALL_SCOPES });
    const token = await tokenFor(service.baseUrl, client);
    expect((await list(token, f1)).status).to.equal(200); // now cached
    await revokeClient(service.running.app.db, client.client_id);
    await within(5000, async () => (await list(token, f1)).status === 401);
    const refused = await call(service.baseUrl, 'POST', '/api/v1/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret },
    });
    expect(refused.status).to.equal(401);
    expect(refused.body.error).to.equal('invalid_client');
  });

  it('lose a facility within 5 seconds of its removal from the grant, and never gain one', async () => {
    const client = await service.seed.client({ orgId, facilityIds: [f1, f2], scopes: ALL_SCOPES });
    const token = await tokenFor(service.baseUrl, client);
    expect((await list(token, f2)).status).to.equal(200);
    await grantFacilities(service.running.app.db, client.client_id, [f1]);
    await within(5000, async () => {
      const response = await list(token, f2);
      return response.status === 403 && response.body.error.code === 'facility_forbidden';
    });
    expect((await list(token, f1)).status).to.equal(200);
    // A token issued under the narrower grant stays narrow when the grant widens again.
    const narrow = await tokenFor(service.baseUrl, client);
    await grantFacilities(service.running.app.db, client.client_id, [f1, f2]);
    await new Promise((r) => setTimeout(r, service.config.tokenCacheTtlMs + 200));
    const response = await list(narrow, f2);
    expect(response.status).to.equal(403);
    expect(response.body.error.code).to.equal('facility_forbidden');
  });

  it('carry only the scopes they were issued with', async () => {
    const client = await service.seed.client({ orgId, facilityIds: [f1], scopes: ALL_SCOPES });
    const token = await tokenFor(service.baseUrl, client, 'residents.read');
    const response = await list(token, f1);
    expect(response.status).to.equal(403);
    expect(response.body.error.code).to.equal('insufficient_scope');
  });

  it('expire after their lifetime', async () => {
    const client = await service.seed.client({ orgId, facilityIds: [f1], scopes: ALL_SCOPES });
    const token = await tokenFor(service.baseUrl, client);
    await service.running.app.db('access_tokens').where({ token_hash: sha256Hex(token) }).update({ expires_at: Date.now() - 1 });
    await within(5000, async () => {
      const response = await list(token, f1);
      return response.status === 401 && response.body.error.code === 'invalid_token';
    });
  });

  it('are stored only as SHA-256 hashes', async () => {
    const client = await service.seed.client({ orgId, facilityIds: [f1], scopes: ALL_SCOPES });
    const token = await tokenFor(service.baseUrl, client);
    const rows = await service.running.app.db('access_tokens').select('token_hash');
    expect(rows.map((r: { token_hash: string }) => r.token_hash)).to.include(sha256Hex(token));
    expect(JSON.stringify(rows)).to.not.include(token);
  });
});
