// Deliveries queued by any code of the service's own process (ingestion, HL7, X12, a
// redelivery) are sent at once, not at the worker's next poll: on SQLite the worker is woken
// in-process, on PostgreSQL by the NOTIFY sent at commit.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { emitEvent } from '../../src/webhooks/event-outbox.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type WebhookTestService } from './support/webhook-service.js';

describe('waking the delivery worker when deliveries are queued', function () {
  this.timeout(20_000);
  let service: WebhookTestService;
  let receiver: Receiver;

  before(async () => {
    // A poll a minute away: only a wake-up can deliver within the test.
    service = await startWebhookService({ env: { WEBHOOK_POLL_INTERVAL_MS: '60000' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('delivers an event queued straight into the outbox (as ingestion does) within moments, not at the next poll', async () => {
    const tenant = await service.tenant();
    await service.subscribe(tenant, receiver.url);
    // Let the worker finish its start-up cycles and go idle until its poll.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const emitted = await emitEvent(service.running.app.db, { orgId: tenant.orgId, facilityId: tenant.facilityId, type: 'resident.admitted', residentId: randomUUID() });
    expect(emitted.deliveries).to.equal(1);
    await waitFor('the delivery', () => receiver.received.length >= 1, 5000);
    expect(Date.now() - started).to.be.lessThan(5000);
  });
});
