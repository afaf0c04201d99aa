// A receiver built with @ofctx/verifier accepts what the real service sends: a delivery of
// a registered subscription, and the test operation's bytes, and refuses a tampered copy.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyDelivery, verifyNodeRequest, WebhookVerificationError, type EventDelivery } from '@ofctx/verifier';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../server/test/webhooks/support/webhook-service.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { call } from '../support/http.js';

describe('@ofctx/verifier against the real service', () => {
  let service: WebhookTestService;
  let tenant: Tenant;
  let receiver: Server;
  let secret = '';
  const accepted: EventDelivery[] = [];
  const refused: string[] = [];

  before(async () => {
    service = await startWebhookService();
    tenant = await service.tenant();
    receiver = createServer(async (req, res) => {
      try {
        accepted.push(await verifyNodeRequest(req, secret));
        res.writeHead(204).end();
      } catch (error) {
        refused.push((error as WebhookVerificationError).code);
        res.writeHead((error as WebhookVerificationError).status ?? 400).end();
      }
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    receiver.close();
    await service.close();
  });

  it('verifies a real delivery of a registered subscription', async () => {
    const { port } = receiver.address() as AddressInfo;
    const subscription = await service.subscribe(tenant, `http://127.0.0.1:${port}/hooks`, ['resident.admitted', 'coverage.updated']);
    secret = subscription.signing_secret;
    const residentId = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
    const emitted = await service.emit(tenant, { type: 'coverage.updated', residentId });
    expect(emitted.deliveries).to.equal(1);
    const delivery = await waitFor('the delivery', () => accepted.find((d) => d.event_id === emitted.event_id));
    expect(delivery).to.deep.include({ api_version: 'v1', event_type: 'coverage.updated' });
    expect(delivery.data).to.deep.equal({ org_id: tenant.orgId, facility_id: tenant.facilityId, resident_id: residentId });
    expect(refused).to.deep.equal([]);
  });

  it("verifies the test operation's bytes, signature and headers, and refuses them altered", async () => {
    const listed = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks`, { token: tenant.token });
    const id = listed.body.data[0].id as string;
    const test = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${id}/test`, { token: tenant.token, json: { event_type: 'resident.discharged' } });
    expect(test.status).to.equal(200);
    const { body, headers, signature } = test.body.data;
    expect(headers['X-Service-Signature']).to.equal(signature);
    const envelope = verifyDelivery(body, headers, secret);
    expect(envelope.event_type).to.equal('resident.discharged');
    expect(envelope.data.org_id).to.equal(tenant.orgId);
    expect(() => verifyDelivery(body.replace('resident.discharged', 'resident.admitted'), headers, secret)).to.throw(WebhookVerificationError);
    expect(() => verifyDelivery(body, headers, `${secret}x`)).to.throw(WebhookVerificationError);
  });
});
