// At least once across crashes, on SQLite and PostgreSQL: the real server process is
// SIGKILLed twice while deliveries are in flight (one receiver answers slowly, one is down
// for the first seconds), events are queued while it is dead (through the outbox, one of
// them by the ops CLI), and after each restart everything queued arrives at least once.
// Every delivery is accounted for (support/accounting.ts): the attempts lost with the
// process are on record as `interrupted`, duplicates happen only after those, never two
// requests of one delivery at once.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { jsonOf, runOps } from '../../support/ops-cli.js';
import { openDatabase } from '../../../server/src/db/database.js';
import { migrateToLatest } from '../../../server/src/db/migrate.js';
import { waitFor } from '../../../server/test/webhooks/support/receiver.js';
import { spawnServer, type ServerProcess } from '../../../server/test/webhooks/support/processes.js';
import { TEST_ENCRYPTION_KEY } from '../../../server/test/webhooks/support/webhook-service.js';
import { account, settled } from './support/accounting.js';
import { FaultyReceiver } from './support/faulty-receiver.js';
import { webhookFigures } from './support/figures.js';
import { ALL_EVENT_TYPES, createWorld, emitWith, outboxOn, register, type Registered, type World } from './support/world.js';

const SCHEDULE = [0.2, 0.5, 1, 1, 2];
const BATCH = 30;

describe('webhook faults: SIGKILL mid-flight, restart, everything queued arrives', function () {
  this.timeout(90_000);
  let database: TestDatabase;
  let db: Knex;
  let server: ServerProcess | undefined;
  const receivers: FaultyReceiver[] = [];

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
  });
  after(async () => {
    await server?.kill('SIGKILL');
    for (const r of receivers) await r.close();
    await db?.destroy();
    await database?.drop();
  });

  it('delivers every event at least once across two SIGKILLs, the lost attempts on record', async () => {
    const env = {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info', // spawnServer waits for the "listening" line
      WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_LEASE_MS: '1500',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    // r0 answers after 150 ms (so requests are in flight at any moment), r1 at once, r2 is
    // down until after the first crash.
    for (const [name, healthyDelayMs] of [['slow200', 150], ['fast', 0], ['flaky', 0]] as const) {
      const r = new FaultyReceiver({ name, slowMs: 5000, redirectTo: 'http://127.0.0.1:9/', healthyDelayMs });
      await r.start();
      receivers.push(r);
    }
    const [slow, , flaky] = receivers as [FaultyReceiver, FaultyReceiver, FaultyReceiver];
    server = await spawnServer(env);
    const world: World = await createWorld(db, { facilities: 2, grants: [[0, 1]] });
    const subscriptions: Registered[] = [];
    for (const r of receivers) subscriptions.push(await register(server.url, world, 0, r.url, ALL_EVENT_TYPES));
    await flaky.set('down');

    const emit = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const e = await emitWith(outboxOn(db), world, ALL_EVENT_TYPES[i % ALL_EVENT_TYPES.length]!, i % 2);
        expect(e.deliveries).to.equal(receivers.length);
      }
    };
    let kills = 0;
    const killMidFlight = async (arrivalsFirst: number) => {
      const before = slow.arrivals.length;
      await waitFor('requests in flight', () => slow.arrivals.length >= before + arrivalsFirst && slow.arrivals.some((a) => a.answered === undefined), 20_000, 5);
      await server!.kill('SIGKILL');
      kills++;
      const states = await db('webhook_deliveries').where({ org_id: world.orgId }).groupBy('status').select('status', db.raw('count(*) as n'));
      console.log(`      SIGKILL ${kills}: ${states.map((s: { status: string; n: number }) => `${s.n} ${s.status}`).join(', ')}`);
      expect(states.some((s: { status: string }) => s.status === 'sending'), 'deliveries were in flight').to.equal(true);
    };

    await emit(BATCH);
    await killMidFlight(2);
    // Queued while the server is dead: through the outbox, and once through the ops CLI.
    await emit(BATCH);
    const cli = jsonOf(await runOps(['event', 'emit', '--org', world.orgId, '--facility', world.facilityIds[0]!, '--type', 'coverage.updated', '--resident', randomUUID(), '--json'], env));
    expect(cli.deliveries).to.equal(receivers.length);
    await flaky.set('healthy');
    server = await spawnServer(env);
    await killMidFlight(12);
    server = await spawnServer(env);

    const events = 2 * BATCH + 1;
    await waitFor('every delivery delivered and every attempt on record', async () => {
      if (!(await settled(db, world.orgId))) return false;
      const row = await db('webhook_deliveries').where({ org_id: world.orgId, status: 'delivered' }).count({ n: '*' }).first();
      return Number(row?.n) === events * receivers.length;
    }, 40_000, 50);

    const result = await account(
      db,
      world.orgId,
      subscriptions.map((s, i) => ({ id: s.id, secret: s.secret, arrivals: () => receivers[i]!.arrivals })),
      { schedule: SCHEDULE, allowInterrupted: true },
    );
    const interrupted = result.errorClasses.interrupted ?? 0;
    console.log(
      `      ${events} events, ${result.deliveries} deliveries, ${result.attempts} attempts ${JSON.stringify(result.errorClasses)}, ` +
        `${result.arrivals} arrivals, ${result.duplicates} duplicates, lost ${result.lost}`,
    );
    expect(result.problems).to.deep.equal([]);
    expect(result.deliveries).to.equal(events * receivers.length);
    expect(result.delivered).to.equal(result.deliveries);
    expect(interrupted, 'attempts lost with the process are on record').to.be.greaterThan(0);
    expect(result.duplicates).to.be.at.most(interrupted);
    expect(result.concurrentDuplicates).to.equal(0);

    // What operators see: every delivery delivered.
    const listed = jsonOf(await runOps(['deliveries', 'list', '--org', world.orgId, '--json'], env));
    expect(listed.deliveries.filter((d: { status: string }) => d.status === 'delivered')).to.have.length(events * receivers.length);

    await server.kill('SIGTERM');
    expect(server.child.exitCode).to.equal(0);
    server = undefined;
    webhookFigures.crash = { kills, events, deliveries: result.deliveries, interrupted, duplicates: result.duplicates, lost: result.lost };
  });
});
