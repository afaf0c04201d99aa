// Two server processes on one PostgreSQL database share the delivery queue. They deliver
// EVENTS events to two subscriptions (one receiver answering at once, one after a short
// delay so requests are always in flight); when part of them has arrived, one instance is
// SIGKILLed and the other carries on, taking over the dead one's claims when their leases
// expire. Pass: none lost, no delivery ever sent twice at once (seen by the receivers),
// attempts gapless and never overlapping, and duplicates only after a lease expiry (an
// `interrupted` attempt on record): they are counted and reported. PostgreSQL only: on
// SQLite the service is a single process by design.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../support/database.js';
import { openDatabase } from '../../../server/src/db/database.js';
import { migrateToLatest } from '../../../server/src/db/migrate.js';
import { waitFor } from '../../../server/test/webhooks/support/receiver.js';
import { spawnServer, type ServerProcess } from '../../../server/test/webhooks/support/processes.js';
import { TEST_ENCRYPTION_KEY } from '../../../server/test/webhooks/support/webhook-service.js';
import { account, settled } from './support/accounting.js';
import { FaultyReceiver } from './support/faulty-receiver.js';
import { webhookFigures } from './support/figures.js';
import { ALL_EVENT_TYPES, createWorld, emitWith, outboxOn, register, type Registered } from './support/world.js';

const EVENTS = Number(process.env.WEBHOOK_TWO_INSTANCE_EVENTS ?? 500);
const SCHEDULE = [0.2, 0.5, 1];

describe('webhook faults: two instances on one PostgreSQL database (skipped on SQLite)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: Knex;
  const servers: ServerProcess[] = [];
  const receivers: FaultyReceiver[] = [];

  before(async function () {
    if (testDatabaseKind !== 'postgres') this.skip(); // one process per SQLite database, by design
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
  });
  after(async () => {
    for (const s of servers) await s.kill('SIGKILL');
    for (const r of receivers) await r.close();
    await db?.destroy();
    await database?.drop();
  });

  it(`deliver ${EVENTS} events with none lost and none sent twice at once, one instance SIGKILLed midway`, async () => {
    const env = {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info', // spawnServer waits for the "listening" line
      WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_LEASE_MS: '2000',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      WEBHOOK_CONCURRENCY: '16',
      WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY: '12',
    };
    for (const [name, healthyDelayMs] of [['fast', 0], ['delayed', 25]] as const) {
      const r = new FaultyReceiver({ name, slowMs: 5000, redirectTo: 'http://127.0.0.1:9/', healthyDelayMs });
      await r.start();
      receivers.push(r);
    }
    servers.push(...(await Promise.all([spawnServer(env), spawnServer(env)])));
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const world = await createWorld(db, { facilities: 1, grants: [[0]] });
    const subscriptions: Registered[] = [];
    for (const r of receivers) subscriptions.push(await register(a.url, world, 0, r.url, ALL_EVENT_TYPES));
    const total = EVENTS * receivers.length;

    const started = Date.now();
    // Emitted through the outbox (its NOTIFY wakes both instances) while both deliver.
    let emittedIn = 0;
    const emitting = (async () => {
      for (let i = 0; i < EVENTS; i += 10) {
        await Promise.all(Array.from({ length: Math.min(10, EVENTS - i) }, (_, j) => emitWith(outboxOn(db), world, ALL_EVENT_TYPES[(i + j) % ALL_EVENT_TYPES.length]!, 0)));
      }
      emittedIn = Date.now() - started;
    })();
    const arrived = () => receivers.reduce((n, r) => n + r.arrivals.length, 0);
    await waitFor('part of the deliveries to arrive', () => arrived() >= total * 0.4, 60_000, 5);
    const workersBefore = (await db('webhook_delivery_attempts').whereNotNull('worker_id').distinct('worker_id')).length;
    await b.kill('SIGKILL');
    const inFlightAtKill = Number((await db('webhook_deliveries').where({ org_id: world.orgId, status: 'sending' }).count({ n: '*' }).first())?.n ?? 0);
    await emitting;
    await waitFor(`all ${total} deliveries delivered`, async () => {
      if (!(await settled(db, world.orgId))) return false;
      const row = await db('webhook_deliveries').where({ org_id: world.orgId, status: 'delivered' }).count({ n: '*' }).first();
      return Number(row?.n) === total;
    }, 60_000, 50);
    const ms = Date.now() - started;

    const result = await account(
      db,
      world.orgId,
      subscriptions.map((s, i) => ({ id: s.id, secret: s.secret, arrivals: () => receivers[i]!.arrivals })),
      { schedule: SCHEDULE, allowInterrupted: true },
    );
    const perWorker = new Map<string, number>();
    for (const attempt of result.attemptRows) perWorker.set(attempt.worker_id ?? '(interrupted)', (perWorker.get(attempt.worker_id ?? '(interrupted)') ?? 0) + 1);
    const byPid = (pid: number | undefined) => [...perWorker.entries()].filter(([id]) => id.split(':')[1] === String(pid)).reduce((n, [, c]) => n + c, 0);
    const attemptsPerWorker = [byPid(a.child.pid), byPid(b.child.pid)];
    const interrupted = result.errorClasses.interrupted ?? 0;
    console.log(
      `      ${EVENTS} events (emitted in ${emittedIn} ms), ${result.deliveries} deliveries in ${ms} ms; attempts per instance ${attemptsPerWorker.join(' / ')} (${workersBefore} workers active before the kill), ` +
        `${inFlightAtKill} in flight at SIGKILL, ${interrupted} interrupted, ${result.arrivals} arrivals, ${result.duplicates} duplicates, ` +
        `${result.concurrentDuplicates} sent twice at once, lost ${result.lost}`,
    );
    expect(result.problems).to.deep.equal([]);
    expect(result.deliveries).to.equal(total);
    expect(result.delivered).to.equal(total);
    expect(result.concurrentDuplicates).to.equal(0);
    // Duplicates only after a lease expiry: each needs an interrupted attempt before it.
    expect(result.duplicates).to.be.at.most(interrupted);
    // Both instances delivered.
    expect(attemptsPerWorker.every((n) => n > 0), `attempts per instance ${attemptsPerWorker.join(' / ')}`).to.equal(true);
    webhookFigures.twoInstances = {
      events: EVENTS,
      deliveries: result.deliveries,
      ms,
      attemptsPerWorker,
      interrupted,
      duplicates: result.duplicates,
      concurrentDuplicates: result.concurrentDuplicates,
      lost: result.lost,
    };
  });
});
