// Two service instances on one PostgreSQL database share the delivery queue: claims with
// FOR UPDATE SKIP LOCKED never hand a delivery to both, and none is lost. PostgreSQL only:
// on SQLite the service is a single process by design.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type WebhookTestService } from './support/webhook-service.js';

const EVENTS = 1000;

describe('two delivery workers on one PostgreSQL database (skipped on SQLite, which serves a single process)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let instances: WebhookTestService[] = [];
  let receiver: Receiver;

  before(async function () {
    if (testDatabaseKind !== 'postgres') {
      this.skip(); // SQLite serves one process: there is no second worker to race with
    }
    database = await createTestDatabase();
    const env = { WEBHOOK_CONCURRENCY: '16', WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY: '24', LOG_LEVEL: 'warn' };
    instances = [await startWebhookService({ database, env }), await startWebhookService({ database, env })];
    receiver = await startReceiver();
  });
  after(async () => {
    for (const instance of instances) await instance.close();
    await receiver?.close();
    await database?.drop();
  });

  it(`delivers ${EVENTS} events, none lost, each claimed by one worker at a time`, async () => {
    const [a, b] = instances as [WebhookTestService, WebhookTestService];
    const tenant = await a.tenant();
    await a.subscribe(tenant, receiver.url);
    const started = Date.now();
    // Emitted through both instances, a few at a time, while both deliver.
    for (let i = 0; i < EVENTS; i += 20) {
      await Promise.all(Array.from({ length: Math.min(20, EVENTS - i) }, (_, j) => ((i + j) % 2 ? b : a).emit(tenant, { residentId: randomUUID() })));
    }
    const db = a.running.app.db;
    await waitFor(`all ${EVENTS} deliveries`, async () => {
      const row = await db('webhook_deliveries').where({ org_id: tenant.orgId, status: 'delivered' }).count({ n: '*' }).first();
      return Number(row?.n) === EVENTS;
    }, 90_000, 50);
    const elapsed = Date.now() - started;

    const ids = await db('webhook_deliveries').where({ org_id: tenant.orgId }).pluck('id');
    expect(ids).to.have.length(EVENTS);
    const received = new Set(receiver.received.map((r) => r.headers['x-service-delivery-id']));
    expect(ids.every((id: string) => received.has(id)), 'every delivery arrived').to.equal(true);
    const attempts = await db('webhook_delivery_attempts').whereIn('delivery_id', ids).select('delivery_id', 'attempt', 'worker_id', 'error_class');
    const byWorker = new Map<string, number>();
    for (const attempt of attempts) byWorker.set(attempt.worker_id, (byWorker.get(attempt.worker_id) ?? 0) + 1);
    console.log(`      ${EVENTS} deliveries in ${elapsed} ms; ${receiver.received.length} requests received; attempts per worker: ${[...byWorker.values()].join(' / ')}`);
    // No double claims: exactly one successful attempt per delivery, and no duplicate requests.
    expect(attempts.filter((x: { error_class: string | null }) => x.error_class === null)).to.have.length(EVENTS);
    expect(receiver.received).to.have.length(EVENTS);
    expect([...byWorker.keys()].sort()).to.deep.equal([a.running.webhooks.workerId, b.running.webhooks.workerId].sort());
  });
});
