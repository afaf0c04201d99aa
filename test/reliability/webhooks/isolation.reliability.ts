// Other subscriptions undelayed: a healthy subscription's arrival latency, measured while
// other endpoints hang (every request held past WEBHOOK_TIMEOUT_MS), stays well below what
// one hung attempt costs. Three measurements, each on a fresh service: no hang (baseline),
// one hanging endpoint with a backlog, and several hanging endpoints with backlogs that hold
// most (not all) of the worker's slots, under the default concurrency settings (32 in all,
// 4 per subscription). The figures are printed and recorded; the bound is loose.
import { expect } from 'chai';
import { waitFor } from '../../../server/test/webhooks/support/receiver.js';
import { startWebhookService, type WebhookTestService } from '../../../server/test/webhooks/support/webhook-service.js';
import { FaultyReceiver } from './support/faulty-receiver.js';
import { latency, webhookFigures, type LatencyFigures } from './support/figures.js';
import { createWorld, emitWith, register } from './support/world.js';

const TIMEOUT_MS = 1000;
const CONCURRENCY = 32; // the defaults, set explicitly
const PER_SUBSCRIPTION = 4;
const BACKLOG_EVENTS = 8; // queued before the measurement: twice the per-subscription cap
const MEASURED_EVENTS = 20;
/** The bound: the healthy subscription never waits for a hung attempt to time out. */
const HEALTHY_MAX_MS = TIMEOUT_MS;

async function measure(hanging: number): Promise<LatencyFigures & { note: string }> {
  const service: WebhookTestService = await startWebhookService({
    env: {
      LOG_LEVEL: 'warn',
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.5',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_LEASE_MS: '5000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_CONCURRENCY: String(CONCURRENCY),
      WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY: String(PER_SUBSCRIPTION),
    },
  });
  const receivers: FaultyReceiver[] = [];
  try {
    const db = service.running.app.db;
    const world = await createWorld(db, { facilities: 1, grants: [[0]] });
    for (let i = 0; i < hanging; i++) {
      const r = new FaultyReceiver({ name: `hang${i}`, slowMs: 10 * TIMEOUT_MS, redirectTo: 'http://127.0.0.1:9/' });
      await r.start();
      await r.set('slow');
      receivers.push(r);
      await register(service.baseUrl, world, 0, r.url, ['resident.discharged', 'resident.admitted']);
    }
    const healthy = new FaultyReceiver({ name: 'healthy', slowMs: 0, redirectTo: 'http://127.0.0.1:9/' });
    await healthy.start();
    receivers.push(healthy);
    const healthySubscription = await register(service.baseUrl, world, 0, healthy.url, ['resident.admitted']);
    const emit = (type: 'resident.admitted' | 'resident.discharged') => emitWith((input) => service.running.webhooks.emitEvent(input), world, type, 0);

    // A backlog for the hanging endpoints only, then wait until they hold their slots.
    for (let i = 0; i < BACKLOG_EVENTS && hanging > 0; i++) await emit('resident.discharged');
    if (hanging > 0) await waitFor('the hanging endpoints to hold their slots', () => receivers.slice(0, hanging).every((r) => r.arrivals.length >= PER_SUBSCRIPTION), 10_000);

    // Events for everyone, the healthy subscription's arrivals timed.
    const emitted = [];
    for (let i = 0; i < MEASURED_EVENTS; i++) {
      emitted.push(await emit('resident.admitted'));
      await new Promise((r) => setTimeout(r, 25));
    }
    const rows = (await db('webhook_deliveries').where({ subscription_id: healthySubscription.id }).select('id', 'event_id')) as Array<{ id: string; event_id: string }>;
    expect(rows).to.have.length(MEASURED_EVENTS);
    await waitFor('every healthy delivery to arrive', () => rows.every((d) => healthy.arrivals.some((a) => a.deliveryId === d.id)), 30_000, 20);
    const samples = emitted.map((e) => {
      const id = rows.find((d) => d.event_id === e.event_id)!.id;
      return healthy.arrivals.find((a) => a.deliveryId === id)!.arrivedAt - e.startedAt;
    });
    const held = receivers.slice(0, hanging).reduce((n, r) => n + r.maxOpen, 0);
    return { ...latency(samples), note: `${hanging} hanging endpoint(s) holding ${held} of ${CONCURRENCY} slots` };
  } finally {
    for (const r of receivers) await r.close();
    await service.close();
  }
}

describe('webhook faults: a healthy subscription is not delayed by hanging ones', function () {
  this.timeout(60_000);

  for (const [name, hanging] of [
    ['no hanging endpoint (baseline)', 0],
    ['one hanging endpoint with a backlog', 1],
    [`${CONCURRENCY / PER_SUBSCRIPTION - 1} hanging endpoints with backlogs, holding all but ${PER_SUBSCRIPTION} slots`, CONCURRENCY / PER_SUBSCRIPTION - 1],
  ] as const) {
    it(`healthy latency stays below ${HEALTHY_MAX_MS} ms: ${name}`, async () => {
      const figures = await measure(hanging);
      webhookFigures.isolation[name] = figures;
      console.log(`      ${figures.note}: healthy latency p50 ${figures.p50} ms, p95 ${figures.p95} ms, max ${figures.max} ms over ${figures.samples} events`);
      expect(figures.max, `healthy subscription's worst latency (${figures.note})`).to.be.below(HEALTHY_MAX_MS);
    });
  }
});
