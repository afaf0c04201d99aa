// At-least-once across a crash: the real server process is SIGKILLed while deliveries are
// in flight to a slow receiver; after a restart every delivery still arrives (the claims
// of the dead process expire and are taken again), and the lost attempts are on record.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { call } from '../../../test/support/http.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { AccessTokens } from '../../src/auth/access-tokens.js';
import { createClient, findClient } from '../../src/auth/clients.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { emitEvent } from '../../src/webhooks/event-outbox.js';
import { attemptsOf, listDeliveries } from '../../src/webhooks/delivery-store.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { spawnServer, type ServerProcess } from './support/processes.js';
import { TEST_ENCRYPTION_KEY } from './support/webhook-service.js';

const EVENTS = 20;

describe('webhook deliveries survive a server crash (SIGKILL)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let receiver: Receiver;
  let server: ServerProcess | undefined;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    receiver = await startReceiver(() => ({ status: 200, delayMs: 400 }));
  });
  after(async () => {
    await server?.kill('SIGKILL');
    await receiver?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('delivers every event at least once after the process is killed mid-delivery and restarted', async () => {
    const env = {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_RETRY_SCHEDULE: '0,0,0',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_LEASE_MS: '1500',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    server = await spawnServer(env);

    const org = await createOrganization(db, 'Crash Test Org');
    const facility = await createFacility(db, org.id, 'Crash Test Facility');
    const issued = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['webhooks.manage'], name: 'crash test' });
    const { token } = await new AccessTokens(db, 0).issue((await findClient(db, issued.client_id))!, ['webhooks.manage']);
    const registered = await call(server.url, 'POST', `/api/v1/ofctx/${org.id}/webhooks`, { token, json: { callback_url: receiver.url, event_types: ['resident.admitted'] } });
    expect(registered.status).to.equal(201);

    // Events enter through the outbox on the same database, as from another process.
    for (let i = 0; i < EVENTS; i++) {
      const emitted = await emitEvent(db, { orgId: org.id, facilityId: facility.id, type: 'resident.admitted', residentId: randomUUID() });
      expect(emitted.deliveries).to.equal(1);
    }
    await waitFor('deliveries in flight', () => receiver.received.length >= 2, 10_000);
    await server.kill('SIGKILL');
    const atCrash = await listDeliveries(db, { orgId: org.id });
    const inFlight = atCrash.filter((d) => d.status === 'sending');
    console.log(`      at SIGKILL: ${receiver.received.length} request(s) received, ${inFlight.length} in flight, ${atCrash.filter((d) => d.status === 'pending').length} pending, ${atCrash.filter((d) => d.status === 'delivered').length} delivered`);
    expect(inFlight.length, 'deliveries were in flight when the process died').to.be.greaterThan(0);

    server = await spawnServer(env);
    const ids = atCrash.map((d) => d.id);
    await waitFor('every delivery to arrive and be recorded', async () => {
      const arrived = ids.every((id) => receiver.deliveriesOf(id).length > 0);
      const recorded = (await listDeliveries(db, { orgId: org.id, status: 'delivered' })).length === EVENTS;
      return arrived && recorded;
    }, 30_000);

    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery-id'])).size).to.equal(EVENTS);
    // The attempts the dead process never finished are on record as interrupted, and their
    // deliveries went out again as the next attempt, with the same bytes.
    for (const delivery of inFlight) {
      const attempts = await attemptsOf(db, delivery.id);
      expect(attempts.map((a) => a.error_class)).to.deep.equal(['interrupted', null]);
      // The first attempt was claimed before the kill, but on a busy machine the process may
      // die before its request leaves: then only the second attempt arrives.
      const arrivals = receiver.deliveriesOf(delivery.id);
      const attemptHeaders = arrivals.map((a) => a.headers['x-service-attempt']);
      expect([['1', '2'], ['2']], `attempts that arrived: ${attemptHeaders.join(',')}`).to.deep.include(attemptHeaders);
      const sent = (await listDeliveries(db, { orgId: org.id })).find((d) => d.id === delivery.id)!;
      expect(arrivals.every((a) => a.body.equals(arrivals[0]!.body)), 'every attempt carries the same bytes').to.equal(true);
      expect(sent.status).to.equal('delivered');
    }
    await server.kill('SIGTERM');
    expect(server.child.exitCode).to.equal(0);
  });
});
