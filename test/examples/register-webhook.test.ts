// examples/register-webhook against a live service: it registers the callback, prints the
// signing secret once (with the warning), and verifies the API's signed test delivery with
// @ofctx/verifier. Without WEBHOOK_ALLOW_PRIVATE_TARGETS a local callback is refused, and
// the example says how to allow it.
import { expect } from 'chai';
import { createClient } from '@ofctx/sdk';
import { contractCheckingFetch } from '../support/contract.js';
import { startTestService, type TestService } from '../support/service.js';
import { runExample } from './support/example-process.js';

const CALLBACK_URL = 'http://127.0.0.1:3999/hooks/ofctx';

async function tenantOf(service: TestService) {
  const org = await service.seed.org('Register Org');
  const facility = await service.seed.facility(org.id);
  const client = await service.seed.client({ orgId: org.id, facilityIds: [facility.id], scopes: ['webhooks.manage'] });
  const env = {
    OFCTX_BASE_URL: service.baseUrl,
    OFCTX_CLIENT_ID: client.client_id,
    OFCTX_CLIENT_SECRET: client.client_secret,
    OFCTX_ORG_ID: org.id,
    WEBHOOK_CALLBACK_URL: CALLBACK_URL,
  };
  return { org, client, env };
}

describe('examples/register-webhook', function () {
  this.timeout(20_000);
  let service: TestService;
  after(() => service?.close());

  it('registers the callback, prints the secret once with a warning, and verifies the signed test delivery', async () => {
    service = await startTestService();
    const { org, client, env } = await tenantOf(service);
    const run = await runExample('register-webhook', ['--json'], { ...env, WEBHOOK_EVENT_TYPES: 'coverage.updated,resident.admitted' });
    expect(run.code, run.stderr).to.equal(0);
    const result = JSON.parse(run.stdout);
    expect(result.signing_secret).to.match(/^ofx_whs_[A-Za-z0-9_-]{43}$/);
    expect(result.subscription).to.include({ callback_url: CALLBACK_URL, status: 'active' });
    expect(result.subscription).not.to.have.property('signing_secret');
    expect(result.subscription.event_types).to.deep.equal(['coverage.updated', 'resident.admitted']);
    // The test delivery is of the first type named.
    expect(result.test_delivery).to.include({ verified: true, event_type: 'coverage.updated' });
    expect(run.stderr).to.match(/WARNING: This signing secret is shown ONCE/);
    // The secret appears exactly once in everything printed.
    expect((run.stdout + run.stderr).split(result.signing_secret)).to.have.length(2);

    const ofctx = createClient({ baseUrl: service.baseUrl, clientId: client.client_id, clientSecret: client.client_secret, fetch: contractCheckingFetch });
    const listed = await ofctx.webhooks(org.id).toArray({ limit: 10 });
    expect(listed.map((s) => s.id)).to.deep.equal([result.subscription.id]);
  });

  it('exits 1 and names WEBHOOK_ALLOW_PRIVATE_TARGETS when the service refuses a local callback', async () => {
    const strict = await startTestService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' } });
    try {
      const { env } = await tenantOf(strict);
      const run = await runExample('register-webhook', [], env);
      expect(run.code, run.stderr).to.equal(1);
      expect(run.stderr).to.include('callback_url_not_allowed');
      expect(run.stderr).to.include('WEBHOOK_ALLOW_PRIVATE_TARGETS=1');
      expect(run.stdout).to.equal('');
    } finally {
      await strict.close();
    }
  });
});
