// Emitting one event (`ops event emit`, in-process callers): the event and one delivery per
// subscription that lists its type and whose credential may see its resident, written in one
// transaction; on PostgreSQL in four statements (the organization's lock carrying the
// subscriptions' read, then the event, its deliveries and their wake-up as one), BEGIN and
// COMMIT aside, after one read that checks the organization and the facility.
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite, testDatabaseKind } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createClient } from '../../src/auth/clients.js';
import { createFacility, createOrganization } from '../../src/organizations/organizations.js';
import { createSubscription } from '../../src/webhooks/subscriptions.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { emitEvent, InvalidEvent } from '../../src/webhooks/event-outbox.js';
import type { EventType } from '../../src/db/event-types.js';

describe('emitting an event', function () {
  this.timeout(60_000);
  let db: Knex;
  let orgId: string;
  let maple: string;
  let birch: string;
  const subscriptions: Record<string, string> = {};
  const cipher = new SigningSecretCipher(randomBytes(32));

  /** A subscription of its own credential, holding these facilities, under this payer restriction. */
  const subscribe = async (name: string, facilityIds: string[], eventTypes: EventType[], payers: string[] | null = null) => {
    const issued = await createClient(db, { orgId, facilityIds, scopes: ['residents.read', 'webhooks.manage'], name, policy: { purpose: 'HOPERAT', payers, sensitive: false } });
    const clientPk = (await db('clients').where({ client_id: issued.client_id }).first('id')).id as string;
    subscriptions[name] = (await createSubscription(db, cipher, { orgId, clientPk, callbackUrl: 'https://hooks.example/ofctx', eventTypes })).id;
    return subscriptions[name];
  };

  const knex = freshKnexForSuite(async (fresh) => {
    db = fresh;
    await migrateToLatest(db);
    orgId = (await createOrganization(db, 'Outbox')).id;
    maple = (await createFacility(db, orgId, 'Maple')).id;
    birch = (await createFacility(db, orgId, 'Birch')).id;
    await subscribe('admissions', [maple], ['resident.admitted']);
    await subscribe('admissions and coverage', [maple, birch], ['resident.admitted', 'coverage.updated']);
    await subscribe('coverage only', [maple], ['coverage.updated']);
    await subscribe('birch only', [birch], ['resident.admitted']);
  });
  beforeEach(() => (db = knex()));

  const deliveriesOf = async (eventId: string) => ((await db('webhook_deliveries').where({ event_id: eventId }).orderBy('subscription_id').pluck('subscription_id')) as string[]).sort();

  it('queues the event and a delivery for each subscription listing its type whose credential holds the facility', async () => {
    const residentId = randomUUID();
    const emitted = await emitEvent(db, { orgId, facilityId: maple, type: 'resident.admitted', residentId });
    expect(emitted.deliveries).to.equal(2);
    expect(await db('webhook_events').where({ id: emitted.event_id }).first('org_id', 'facility_id', 'resident_id', 'event_type')).to.deep.equal({ org_id: orgId, facility_id: maple, resident_id: residentId, event_type: 'resident.admitted' });
    expect(await deliveriesOf(emitted.event_id)).to.deep.equal([subscriptions.admissions, subscriptions['admissions and coverage']].sort());
    const body = JSON.parse((await db('webhook_deliveries').where({ event_id: emitted.event_id }).first('body')).body as string) as { event_id: string; event_type: string };
    expect(body).to.include({ event_id: emitted.event_id, event_type: 'resident.admitted' });
  });

  it('queues no delivery for a credential whose payers restrict what it sees, when the resident has no such coverage', async () => {
    const bound = await subscribe('payer-bound', [birch], ['resident.admitted'], ['medicare part a']);
    const emitted = await emitEvent(db, { orgId, facilityId: birch, type: 'resident.admitted', residentId: randomUUID() });
    expect(await deliveriesOf(emitted.event_id)).to.deep.equal([subscriptions['admissions and coverage'], subscriptions['birch only']].sort());
    expect(await deliveriesOf(emitted.event_id)).not.to.include(bound);
  });

  it('refuses an unknown organization and a facility of another organization, writing nothing', async () => {
    const other = (await createOrganization(db, 'Other')).id;
    const events = Number((await db('webhook_events').count({ n: '*' }))[0]!.n);
    let refused = await emitEvent(db, { orgId: randomUUID(), facilityId: maple, type: 'resident.admitted', residentId: randomUUID() }).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(InvalidEvent);
    expect((refused as Error).message).to.match(/^no organization /);
    refused = await emitEvent(db, { orgId: other, facilityId: maple, type: 'resident.admitted', residentId: randomUUID() }).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(InvalidEvent);
    expect((refused as Error).message).to.equal(`no facility ${maple} in organization ${other}`);
    expect(Number((await db('webhook_events').count({ n: '*' }))[0]!.n)).to.equal(events);
  });

  it('on PostgreSQL, writes an event for unrestricted subscribers in four statements with BEGIN and COMMIT, after one check', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    const sent: string[] = [];
    const listener = (query: { sql: string }) => sent.push(query.sql);
    db.on('query', listener);
    let emitted;
    try {
      emitted = await emitEvent(db, { orgId, facilityId: maple, type: 'coverage.updated', residentId: randomUUID() });
    } finally {
      db.removeListener('query', listener);
    }
    expect(emitted.deliveries).to.equal(2);
    expect(sent.map((sql) => sql.slice(0, 40))).to.have.length(5);
    expect(sent[1]).to.match(/^BEGIN/);
    expect(sent[2]).to.match(/^INSERT INTO ingest_clock .*webhook_subscriptions/s);
    expect(sent[3]).to.match(/^with w0 as \(insert into "webhook_events".*insert into "webhook_deliveries".*pg_notify/s);
    expect(sent[4]).to.match(/^COMMIT/);
  });
});
