// What one HL7 message costs the database, and what its savings must never cost: on
// PostgreSQL a sender waiting for each ACK pays every statement in turn, so one ADT^A01 of a
// new resident with a subscriber is BEGIN, one statement for the control id, the clock tick,
// the facility's subscriptions, the remembered facility's check and the identifier match, one
// statement for every insert with its delivery and wake-up, and COMMIT; the match riding with
// the tick must still see a resident another connection admitted while the message waited. A
// result message for a known resident reads that resident with the tick too. A facility remembered
// by its HL7 code is never trusted: a code moved to another facility, or removed, takes effect
// at the next message, on both databases.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { adtMessage, MRN_SYSTEM } from '../../../test/support/adt-messages.js';
import { labObservations, oruMessage } from '../../../test/support/hl7-clinical-messages.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createClient } from '../../src/auth/clients.js';
import { createFacility, createOrganization, setFacilityHl7Code } from '../../src/organizations/organizations.js';
import { createSubscription } from '../../src/webhooks/subscriptions.js';
import { SigningSecretCipher } from '../../src/db/signing-secret-crypto.js';
import { applyHl7Text, applyHl7Texts } from '../../src/hl7/message-applier.js';

describe('one HL7 message and the database', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  let orgId: string;
  let maple: string;
  let birch: string;
  let subscriptionId: string;
  let seq = 0;
  const next = () => `RT${++seq}`;

  before(async () => {
    database = await createTestDatabase();
    db = openDatabase(database.url);
    await migrateToLatest(db);
    orgId = (await createOrganization(db, 'Round trips')).id;
    maple = (await createFacility(db, orgId, 'Maple')).id;
    birch = (await createFacility(db, orgId, 'Birch')).id;
    await setFacilityHl7Code(db, maple, 'MAPLE');
    const partner = await createClient(db, { orgId, facilityIds: [maple, birch], scopes: ['residents.read', 'webhooks.manage'], name: 'subscriber' });
    const clientPk = (await db('clients').where({ client_id: partner.client_id }).first('id')).id as string;
    subscriptionId = (await createSubscription(db, new SigningSecretCipher(randomBytes(32)), { orgId, clientPk, callbackUrl: 'https://hooks.example/ofctx', eventTypes: ['resident.admitted'] })).id;
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const admit = (mrn: string, facility: string) => adtMessage({ event: 'A01', controlId: next(), mrn, facility });
  const residentOf = async (mrn: string) => {
    const hit = await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: mrn }).first('resource_id');
    return hit ? ((await db('residents').where({ id: hit.resource_id }).first('id', 'facility_id')) as { id: string; facility_id: string }) : undefined;
  };
  const deliveriesOf = async (residentId: string) => (await db('webhook_deliveries as d').join('webhook_events as e', 'e.id', 'd.event_id').where({ 'e.resident_id': residentId }).select('d.subscription_id', 'd.status', 'd.body')) as Array<{ subscription_id: string; status: string; body: string }>;

  it('on PostgreSQL, admits a new resident with a subscriber in 4 statements, BEGIN and COMMIT included, its delivery queued with it', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    await applyHl7Text(db, admit('RT-WARM', 'MAPLE')); // the facility's code is now remembered
    const sent: string[] = [];
    const listener = (query: { sql: string }) => sent.push(query.sql);
    db.on('query', listener);
    let outcome;
    try {
      outcome = await applyHl7Text(db, admit('RT-NEW', 'MAPLE'));
    } finally {
      db.removeListener('query', listener);
    }
    expect(outcome.result).to.equal('applied');
    expect(sent, sent.join('\n')).to.have.length(4);
    // The identifier match rides with the control id and the clock tick.
    expect(sent[1]).to.contain('hl7_applied_messages').and.to.contain('resource_identifiers');
    const resident = (await residentOf('RT-NEW'))!;
    const deliveries = await deliveriesOf(resident.id);
    expect(deliveries.map((d) => [d.subscription_id, d.status])).to.deep.equal([[subscriptionId, 'pending']]);
    expect(JSON.parse(deliveries[0]!.body).data.resident_id).to.equal(resident.id);
  });

  it('on PostgreSQL, applies a lab result message for a known resident in 4 statements: the resident is read with the clock tick', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    expect((await applyHl7Text(db, admit('RT-LAB', 'MAPLE'))).result).to.equal('applied');
    const result = (controlId: string) => oruMessage({ controlId, mrn: 'RT-LAB', facility: 'MAPLE', groups: [labObservations(3)] });
    await applyHl7Text(db, result(next()));
    const sent: string[] = [];
    const listener = (query: { sql: string }) => sent.push(query.sql);
    db.on('query', listener);
    let outcome;
    try {
      outcome = await applyHl7Text(db, result(next()));
    } finally {
      db.removeListener('query', listener);
    }
    expect(outcome.result).to.equal('applied');
    expect(sent, sent.join('\n')).to.have.length(4);
    expect(sent[1]).to.contain('to_json(r)');
    // It kept the resident as it was: the results are the resident's, and the resident is not a second one.
    const resident = (await residentOf('RT-LAB'))!;
    expect(Number((await db('observations').where({ resident_id: resident.id }).count({ n: '*' }).first())!.n)).to.equal(6);
  });

  it('on PostgreSQL, parses and plans the clock tick with its riders and the insert batch once per connection, not at every message', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    // One connection, so the statements prepared on it are the ones the messages ran. The
    // tick's riders once read the subscriptions as `s.*`, which kept the tick unnamed: parsed
    // and planned again at every message, a third of the database's CPU for it.
    const single = knexFactory({ ...db.client.config, pool: { min: 1, max: 1 } });
    try {
      for (let i = 0; i < 8; i++) expect((await applyHl7Text(single, admit(`RT-PREPARED-${i}`, 'MAPLE'))).result).to.equal('applied');
      const prepared = (await single.raw(`select statement, generic_plans + custom_plans as plans from pg_prepared_statements`)).rows as Array<{ statement: string; plans: number }>;
      const tick = prepared.filter((p) => p.statement.startsWith('WITH first AS (insert into "hl7_applied_messages"'));
      const inserts = prepared.filter((p) => p.statement.startsWith('with w0 as (insert into "residents"'));
      // A text is named at its second execution and run by name ever after. The first message
      // of the connection may run the tick in a second shape (without the remembered
      // facility's check), hence at least 6 of the 8 ticks by name.
      expect(tick.length, prepared.map((p) => p.statement.slice(0, 80)).join('\n')).to.be.within(1, 2);
      for (const t of tick) expect(t.statement).to.contain('webhook_subscriptions');
      expect(tick.reduce((n, t) => n + t.plans, 0)).to.be.at.least(6);
      // And planned once: the identifier match riding with it must not make the plan with the
      // values look cheaper than the one plan (db/identifier-rows.ts).
      const generic = (await single.raw(`select statement, generic_plans from pg_prepared_statements`)).rows as Array<{ statement: string; generic_plans: number }>;
      expect(generic.filter((p) => p.statement.startsWith('WITH first AS (insert into "hl7_applied_messages"')).reduce((n, t) => n + Number(t.generic_plans), 0)).to.be.at.least(1);
      expect(inserts).to.have.length(1);
      expect(inserts[0]!.plans).to.be.at.least(7);
    } finally {
      await single.destroy();
    }
  });

  /** Applies `second` while another connection's transaction that applied `first` holds the organization's lock, then commits that one. */
  async function whileAnotherWaits(first: string, second: string) {
    const holder = await db.transaction();
    let pending: Promise<Awaited<ReturnType<typeof applyHl7Text>>> | undefined;
    try {
      expect((await applyHl7Text(holder, first)).result).to.equal('applied');
      pending = applyHl7Text(db, second);
      const waiting = async () => Number((await db.raw(`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n);
      for (let tries = 0; (await waiting()) === 0; tries++) {
        if (tries > 500) throw new Error('the second message never waited for the lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await holder.commit();
    } catch (error) {
      await holder.rollback().catch(() => undefined);
      throw error;
    }
    return pending!;
  }

  it('on PostgreSQL, finds the resident another connection admitted while the message waited for the organization\'s lock: one resident, not two', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    await applyHl7Text(db, admit('RT-WARM-RACE', 'MAPLE'));
    // The first admission, applied and not committed yet: its transaction holds the
    // organization's ingest lock. The second message's statement with the lock and the match
    // starts meanwhile (its snapshot without the resident) and waits for that lock.
    expect((await whileAnotherWaits(admit('RT-RACE', 'MAPLE'), admit('RT-RACE', 'MAPLE'))).result).to.equal('applied');
    const matched = await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: 'RT-RACE' }).pluck('resource_id');
    expect(matched).to.have.length(1);
  });

  it('on PostgreSQL, gives a lab result to the resident another connection admitted while it waited for the lock', async function () {
    if (testDatabaseKind !== 'postgres') this.skip();
    const lab = oruMessage({ controlId: next(), mrn: 'RT-RACE-LAB', facility: 'MAPLE', groups: [labObservations(2)] });
    expect((await whileAnotherWaits(admit('RT-RACE-LAB', 'MAPLE'), lab)).result).to.equal('applied');
    const matched = await db('resource_identifiers').where({ org_id: orgId, resource_type: 'Patient', system: MRN_SYSTEM, value: 'RT-RACE-LAB' }).pluck('resource_id');
    expect(matched).to.have.length(1);
    expect(await db('residents').where({ id: matched[0] }).first('active')).to.deep.equal({ active: true });
    expect(Number((await db('observations').where({ resident_id: matched[0] }).count({ n: '*' }).first())!.n)).to.equal(2);
  });

  it('admits into the facility that has the code now, after the code moved to another facility', async () => {
    expect((await applyHl7Text(db, admit('RT-BEFORE', 'MAPLE'))).result).to.equal('applied');
    expect((await residentOf('RT-BEFORE'))!.facility_id).to.equal(maple);
    await setFacilityHl7Code(db, maple, 'MAPLE-OLD');
    await setFacilityHl7Code(db, birch, 'MAPLE');
    const outcome = await applyHl7Text(db, admit('RT-AFTER', 'MAPLE'));
    expect(outcome.result).to.equal('applied');
    const resident = (await residentOf('RT-AFTER'))!;
    expect(resident.facility_id).to.equal(birch);
    expect(await db('webhook_events').where({ resident_id: resident.id }).pluck('facility_id')).to.deep.equal([birch]);
    // A run of queued messages (a sender that does not wait) checks it too.
    await setFacilityHl7Code(db, birch, 'BIRCH');
    await setFacilityHl7Code(db, maple, 'MAPLE');
    const run = await applyHl7Texts(db, [admit('RT-RUN-1', 'MAPLE'), admit('RT-RUN-2', 'MAPLE')]);
    expect(run.map((o) => o.result)).to.deep.equal(['applied', 'applied']);
    expect((await residentOf('RT-RUN-1'))!.facility_id).to.equal(maple);
    expect((await residentOf('RT-RUN-2'))!.facility_id).to.equal(maple);
  });

  it('refuses AE naming the code once the code names no facility, and writes nothing', async () => {
    expect((await applyHl7Text(db, admit('RT-KNOWN', 'MAPLE'))).result).to.equal('applied');
    await setFacilityHl7Code(db, maple, 'MAPLE-RENAMED');
    const outcome = await applyHl7Text(db, admit('RT-ORPHAN', 'MAPLE'));
    expect(outcome.result).to.equal('refused');
    const ack = outcome.ack.toString();
    expect(ack).to.match(/MSA\|AE\|/);
    expect(ack).to.include('no facility has HL7 code "MAPLE"');
    expect(await residentOf('RT-ORPHAN')).to.equal(undefined);
    await setFacilityHl7Code(db, maple, 'MAPLE');
  });

  it('on SQLite, matches the message\'s identifiers by one seek of the value index, whatever the organization holds', async function () {
    if (testDatabaseKind !== 'sqlite') return this.skip();
    for (let i = 0; i < 50; i++) await applyHl7Text(db, admit(`RT-MANY-${i}`, 'MAPLE'));
    const matches: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (q: { sql: string; bindings: unknown[] }) => {
      if (/from `resource_identifiers` where `org_id` = \? and `value` in/.test(q.sql)) matches.push(q);
    };
    db.on('query', listen);
    try {
      expect((await applyHl7Text(db, admit('RT-PLAN', 'MAPLE'))).result).to.equal('applied');
    } finally {
      db.off('query', listen);
    }
    expect(matches).to.have.length(1);
    const plan = ((await db.raw(`explain query plan ${matches[0]!.sql}`, matches[0]!.bindings as never[])) as Array<{ detail: string }>).map((s) => s.detail).join('\n');
    // Not the organization's every identifier of a system (resource_identifiers_system walked them all).
    expect(plan).to.match(/USING COVERING INDEX resource_identifiers_lookup \(org_id=\? AND value=\?\)/);
  });
});
