// The operators' webhook commands, run as real processes: `event emit` queues deliveries
// that a running service (another process) picks up, `deliveries list/show/redeliver`.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { createClient } from '../../src/auth/clients.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { createSubscription, endSubscription } from '../../src/webhooks/subscriptions.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { startReceiver, waitFor, type Receiver } from '../webhooks/support/receiver.js';
import { startWebhookService, TEST_ENCRYPTION_KEY, type WebhookTestService } from '../webhooks/support/webhook-service.js';

describe('the ops CLI for events and deliveries', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let service: WebhookTestService;
  let receiver: Receiver;
  let db: Knex;
  let env: Record<string, string>;
  let org: { id: string };
  let facility: { id: string };
  let foreignFacility: { id: string };
  const subscriptionIds: string[] = [];

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url };
    // On PostgreSQL the service polls only once a minute here: a CLI event reaching it at
    // once proves the NOTIFY wake-up. SQLite has no cross-process signal; polling it is.
    service = await startWebhookService({ database, env: { WEBHOOK_POLL_INTERVAL_MS: testDatabaseKind === 'postgres' ? '60000' : '100' } });
    receiver = await startReceiver();
    db = service.running.app.db;
    org = await createOrganization(db, 'CLI Org');
    facility = await createFacility(db, org.id, 'CLI Facility');
    const otherOrg = await createOrganization(db, 'Other Org');
    foreignFacility = await createFacility(db, otherOrg.id, 'Foreign Facility');
    const client = await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['webhooks.manage'], name: 'cli test' });
    const clientPk = (await db('clients').where({ client_id: client.client_id }).first('id')).id;
    const cipher = new SigningSecretCipher(Buffer.from(TEST_ENCRYPTION_KEY, 'base64'));
    for (const eventTypes of [['resident.admitted'], ['resident.admitted', 'resident.discharged'], ['coverage.updated']] as const) {
      const created = await createSubscription(db, cipher, { orgId: org.id, clientPk, callbackUrl: receiver.url, eventTypes: [...eventTypes] });
      subscriptionIds.push(created.id);
    }
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('event emit --json prints {"event_id","deliveries"}, and the running service delivers them', async () => {
    const residentId = randomUUID();
    const run = await runOps(['event', 'emit', '--org', org.id, '--facility', facility.id, '--type', 'resident.admitted', '--resident', residentId, '--json'], env);
    const exitedAt = Date.now();
    const result = jsonOf(run);
    expect(Object.keys(result)).to.deep.equal(['event_id', 'deliveries']);
    expect(result.deliveries).to.equal(2);
    const arrived = await waitFor('both deliveries', () => {
      const got = receiver.received.filter((r) => JSON.parse(r.body.toString()).event_id === result.event_id);
      return got.length === 2 ? got : undefined;
    });
    const latest = Math.max(...arrived.map((a) => a.receivedAt)) - exitedAt;
    console.log(`      CLI event -> delivered in another process: ${latest} ms after the CLI exited (${testDatabaseKind === 'postgres' ? 'LISTEN/NOTIFY' : 'polling'})`);
    if (testDatabaseKind === 'postgres') expect(latest).to.be.below(5000); // not the 60 s poll
    for (const a of arrived) expect(JSON.parse(a.body.toString()).data).to.deep.equal({ org_id: org.id, facility_id: facility.id, resident_id: residentId });
  });

  it('event emit prints a sentence without --json', async () => {
    const run = await runOps(['event', 'emit', '--org', org.id, '--facility', facility.id, '--type', 'coverage.updated', '--resident', randomUUID()], env);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/^event [0-9a-f-]{36} queued for 1 subscription\(s\)\n$/);
  });

  it('event emit refuses bad arguments with a clear message and a non-zero exit', async () => {
    const base = ['event', 'emit', '--org', org.id, '--facility', facility.id, '--type', 'resident.admitted', '--resident', randomUUID(), '--json'];
    const set = (name: string, value: string | null) => {
      const args = [...base];
      const at = args.indexOf(name);
      if (value === null) args.splice(at, 2);
      else args[at + 1] = value;
      return args;
    };
    const cases: Array<[string[], RegExp]> = [
      [set('--type', null), /--type is required/],
      [set('--type', 'resident.deleted'), /--type must be one of resident\.admitted, .*clinical\.order\.created/],
      [set('--org', 'not-a-uuid'), /--org must be a UUID/],
      [set('--org', randomUUID()), /no organization/],
      [set('--facility', foreignFacility.id), /no facility .* in organization/],
    ];
    const runs = await Promise.all(cases.map(([args]) => runOps(args, env)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]![0].join(' ')).to.not.equal(0);
      expect(run.stderr).to.match(cases[i]![1]);
      expect(run.stdout).to.equal('');
    });
  });

  it('deliveries list, show and redeliver', async () => {
    const emitted = jsonOf(await runOps(['event', 'emit', '--org', org.id, '--facility', facility.id, '--type', 'resident.discharged', '--resident', randomUUID(), '--json'], env));
    expect(emitted.deliveries).to.equal(1);
    const [delivery] = await db('webhook_deliveries').where({ event_id: emitted.event_id }).pluck('id');
    await waitFor('the delivery', async () => (await db('webhook_deliveries').where({ id: delivery }).first('status')).status === 'delivered');
    // As if its retries had been exhausted.
    await db('webhook_deliveries').where({ id: delivery }).update({ status: 'failed', last_status: 500, last_error: 'http_status' });

    const [failed, badStatus] = await Promise.all([
      runOps(['deliveries', 'list', '--org', org.id, '--status', 'failed', '--json'], env),
      runOps(['deliveries', 'list', '--org', org.id, '--status', 'lost', '--json'], env),
    ]);
    const listed = jsonOf(failed).deliveries;
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ id: delivery, event_id: emitted.event_id, event_type: 'resident.discharged', subscription_id: subscriptionIds[1], status: 'failed', attempts: 1, last_status: 500, last_error: 'http_status' });
    expect(listed[0]).to.have.all.keys('id', 'subscription_id', 'event_id', 'event_type', 'status', 'attempts', 'last_status', 'last_error', 'last_attempt_at', 'next_attempt_at', 'lease_until', 'created_at', 'completed_at');
    expect(badStatus.code).to.equal(2);
    expect(badStatus.stderr).to.match(/--status must be one of pending, sending, delivered, failed, cancelled/);

    const before = receiver.deliveriesOf(delivery).length;
    const requeued = jsonOf(await runOps(['deliveries', 'redeliver', delivery, '--json'], env));
    expect(requeued).to.include({ id: delivery, status: 'pending' });
    await waitFor('the redelivery', () => receiver.deliveriesOf(delivery).length > before);
    const [first, again] = receiver.deliveriesOf(delivery);
    expect(again!.body.equals(first!.body)).to.equal(true);
    expect(again!.headers['x-service-attempt']).to.equal('2');

    await waitFor('the redelivery outcome', async () => (await db('webhook_deliveries').where({ id: delivery }).first('status')).status === 'delivered');
    const shown = jsonOf(await runOps(['deliveries', 'show', delivery, '--json'], env));
    expect(shown.delivery).to.include({ id: delivery, status: 'delivered', attempts: 2 });
    expect(shown.attempts.map((a: { attempt: number; response_status: number }) => [a.attempt, a.response_status])).to.deep.equal([
      [1, 200],
      [2, 200],
    ]);
  });

  it('redeliver refuses a delivery of a revoked subscription, an unknown id and a malformed one', async () => {
    const emitted = jsonOf(await runOps(['event', 'emit', '--org', org.id, '--facility', facility.id, '--type', 'coverage.updated', '--resident', randomUUID(), '--json'], env));
    const [delivery] = await db('webhook_deliveries').where({ event_id: emitted.event_id }).pluck('id');
    await waitFor('the delivery', async () => (await db('webhook_deliveries').where({ id: delivery }).first('status')).status === 'delivered');
    await endSubscription(db, subscriptionIds[2]!, 'revoked');
    const [revoked, unknown, malformed] = await Promise.all([
      runOps(['deliveries', 'redeliver', delivery, '--json'], env),
      runOps(['deliveries', 'redeliver', randomUUID(), '--json'], env),
      runOps(['deliveries', 'redeliver', 'nope', '--json'], env),
    ]);
    expect(revoked.code).to.equal(1);
    expect(revoked.stderr).to.match(/subscription .* is revoked: nothing is delivered to it any more \(register a new subscription\)/);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.match(/no delivery/);
    expect(malformed.code).to.equal(2);
    expect(malformed.stderr).to.match(/DELIVERY_ID must be a UUID/);
  });
});
