// Ending a subscription while deliveries are in flight or being queued. Found by the
// fault-schedule property test on PostgreSQL; these are its minimal, deterministic forms. They
// run on SQLite too, where they pass by construction (one connection per process serializes
// every write transaction), as a guard.
//  1. An event queued while the subscription is being ended (410 or revoked) must not be
//     left `pending` for a subscription that is no longer active: nothing ever claims it
//     (claims skip inactive subscriptions), so it would never become final.
//  2. Several attempts of one subscription answered 410 at the same moment must all be on
//     record, without a deadlock between the transactions that disable the subscription.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { emitEvent } from '../../../server/src/webhooks/event-outbox.js';
import { endSubscription } from '../../../server/src/webhooks/subscriptions.js';
import { waitFor } from '../../../server/test/webhooks/support/receiver.js';
import { startWebhookService, type WebhookTestService } from '../../../server/test/webhooks/support/webhook-service.js';
import { describeUnsettled, settled } from './support/accounting.js';

describe('webhook faults: ending a subscription while deliveries are queued and in flight', function () {
  this.timeout(30_000);
  let service: WebhookTestService;

  before(async () => {
    service = await startWebhookService({ env: { LOG_LEVEL: 'warn', WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY: '4', WEBHOOK_RETRY_SCHEDULE: '0.2,0.5' } });
  });
  after(async () => {
    await service?.close();
  });

  it('does not leave a delivery pending forever when its event is queued while the subscription is being ended', async () => {
    const db = service.running.app.db;
    const tenant = await service.tenant();
    // A target nothing listens on: this test is about what is queued, not what is sent.
    const subscription = await service.subscribe(tenant, 'http://127.0.0.1:9/hooks');
    // The subscription is being ended (as on a 410 answer or a revocation): not committed yet.
    const ending = await db.transaction();
    let emitted: { deliveries: number } | undefined;
    try {
      await endSubscription(ending, subscription.id, 'revoked');
      // Meanwhile an event comes in through the outbox on another connection.
      const emitting = emitEvent(db, { orgId: tenant.orgId, facilityId: tenant.facilityId, type: 'resident.admitted', residentId: randomUUID() }).then((e) => (emitted = e));
      await Promise.race([emitting, new Promise((r) => setTimeout(r, 300))]);
      await ending.commit();
      await emitting;
    } catch (error) {
      if (!ending.isCompleted()) await ending.rollback();
      throw error;
    }
    const left = (await db('webhook_deliveries').where({ subscription_id: subscription.id }).whereIn('status', ['pending', 'sending']).select('id', 'status', 'created_at')) as Array<{ id: string }>;
    expect(left, `queued for subscription ${subscription.id}, which is revoked (emitEvent said ${emitted?.deliveries} deliveries)`).to.deep.equal([]);
  });

  it('records every attempt when several are answered 410 at once, without a deadlock', async () => {
    const db = service.running.app.db;
    const IN_FLIGHT = 4;
    const ROUNDS = 3;
    // Holds the requests until IN_FLIGHT have arrived, then answers them all 410 together.
    let held: ServerResponse[] = [];
    const receiver: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        held.push(res);
        if (held.length >= IN_FLIGHT) {
          for (const r of held) r.writeHead(410).end();
          held = [];
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const problems: string[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const tenant = await service.tenant();
        await service.subscribe(tenant, url);
        for (let i = 0; i < IN_FLIGHT * 2; i++) await service.emit(tenant);
        await waitFor('the subscription to be disabled', async () => (await db('webhook_subscriptions').where({ org_id: tenant.orgId }).first('status'))?.status === 'disabled', 10_000);
        const deadline = Date.now() + 5000;
        while (!(await settled(db, tenant.orgId)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        if (!(await settled(db, tenant.orgId))) problems.push(`round ${round + 1}: ${await describeUnsettled(db, tenant.orgId)}`);
      }
    } finally {
      for (const r of held) r.destroy();
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
    const deadlocks = service.logs().split('\n').filter((line) => line.includes('deadlock detected'));
    expect({ problems, deadlocks: deadlocks.slice(0, 3) }).to.deep.equal({ problems: [], deadlocks: [] });
  });
});
