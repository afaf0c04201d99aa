// The event log: every event a credential may see (its organization, its facilities, the
// types its read scopes cover), oldest first, each with exactly the `data` its deliveries
// carried; pages stay full; a poller following `after` while events are committed
// concurrently sees each one once, none missed.
import { expect } from 'chai';
import { disclosuresOfResident } from '../../src/audit/disclosures.js';
import { randomUUID } from 'node:crypto';
import { call } from '../../../test/support/http.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../../../test/support/verifying-receiver.js';
import { findClient } from '../../src/auth/clients.js';
import { waitFor } from '../webhooks/support/receiver.js';

describe('the event log', function () {
  this.timeout(30_000);
  let service: TestService;
  let orgA: string;
  let orgB: string;
  let a1: string;
  let a2: string;
  let b1: string;

  async function token(orgId: string, facilityIds: string[], scopes: string[]): Promise<string> {
    const client = await service.seed.client({ orgId, facilityIds, scopes });
    return (await service.running.app.tokens.issue((await findClient(service.running.app.db, client.client_id))!, scopes)).token;
  }
  const emit = (orgId: string, facilityId: string, type = 'resident.admitted') =>
    service.running.webhooks.emitEvent({ orgId, facilityId, type, residentId: randomUUID() });
  const events = (orgId: string, tokenValue: string, query = '') => call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgId}/events${query}`, { token: tokenValue });

  before(async () => {
    service = await startTestService({ env: { WEBHOOK_RETRY_SCHEDULE: '0', WEBHOOK_POLL_INTERVAL_MS: '50' } });
    orgA = (await service.seed.org('A')).id;
    orgB = (await service.seed.org('B')).id;
    a1 = (await service.seed.facility(orgA, 'A1')).id;
    a2 = (await service.seed.facility(orgA, 'A2')).id;
    b1 = (await service.seed.facility(orgB, 'B1')).id;
  });
  after(() => service?.close());

  it('lists the credential\'s events oldest first, full pages, following meta.page.next, none of another facility or organization', async () => {
    const reader = await token(orgA, [a1], ['residents.read']);
    const mine: string[] = [];
    for (let i = 0; i < 7; i++) {
      mine.push((await emit(orgA, a1)).event_id);
      await emit(orgA, a2);
      await emit(orgB, b1);
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await events(orgA, reader, `?page_size=3${after ? `&after=${after}` : ''}`);
      expect(page.status).to.equal(200);
      for (const event of page.body.data) expect(event.facility_id).to.equal(a1);
      seen.push(...page.body.data.map((e: { id: string }) => e.id));
      if (page.body.meta.page.next === null) break;
      expect(page.body.data).to.have.length(3);
      after = page.body.meta.page.next;
    }
    expect(seen).to.deep.equal(mine);
    // Caught up: a poll after the last one is empty until something new is committed.
    const caughtUp = await events(orgA, reader, `?after=${seen.at(-1)}`);
    expect(caughtUp.body).to.deep.equal({ data: [], meta: { page: { page_size: 50, next: null } }, error: null });
    const next = (await emit(orgA, a1)).event_id;
    expect((await events(orgA, reader, `?after=${seen.at(-1)}`)).body.data.map((e: { id: string }) => e.id)).to.deep.equal([next]);
  });

  it('shows only the types whose read scope the token carries; types and facility_id narrow it, beyond the grant is 403', async () => {
    const coverageOnly = await token(orgA, [a1, a2], ['coverage.read']);
    const start = (await emit(orgA, a1, 'resident.discharged')).event_id;
    const coverage = (await emit(orgA, a2, 'coverage.updated')).event_id;
    const condition = (await emit(orgA, a1, 'clinical.condition.created')).event_id;
    const coverageA1 = (await emit(orgA, a1, 'coverage.updated')).event_id;
    const list = await events(orgA, coverageOnly, `?after=${start}`);
    expect(list.body.data.map((e: { id: string }) => e.id)).to.deep.equal([coverage, coverageA1]);
    const a1Only = await events(orgA, coverageOnly, `?after=${start}&facility_id=${a1}`);
    expect(a1Only.body.data.map((e: { id: string }) => e.id)).to.deep.equal([coverageA1]);
    const typed = await events(orgA, coverageOnly, `?after=${start}&types=coverage.updated`);
    expect(typed.body.data).to.have.length(2);
    const refused = await events(orgA, coverageOnly, '?types=clinical.condition.created,coverage.updated');
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.include({ code: 'insufficient_scope' });
    expect(refused.headers.get('www-authenticate')).to.include('scope="clinical.read"');
    const narrow = await token(orgA, [a1], ['clinical.read']);
    expect((await events(orgA, narrow, `?facility_id=${a2}`)).body.error.code).to.equal('facility_forbidden');
    expect((await events(orgA, narrow, `?after=${start}`)).body.data.map((e: { id: string }) => e.id)).to.deep.equal([condition]);
    expect((await events(orgA, narrow, '?types=resident.nope')).status).to.equal(400);
    // Without any read scope; another organization; an unknown position.
    expect((await events(orgA, await token(orgA, [a1], ['webhooks.manage']))).status).to.equal(403);
    expect((await events(orgB, narrow)).body.error.code).to.equal('organization_forbidden');
    const unknown = await events(orgA, narrow, `?after=${randomUUID()}`);
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.details[0].field).to.equal('query.after');
    const foreignPosition = await events(orgA, narrow, `?after=${(await emit(orgB, b1)).event_id}`);
    expect(foreignPosition.status).to.equal(400);
  });

  it('reads one event under the same visibility; others are 404', async () => {
    const reader = await token(orgA, [a1], ['residents.read']);
    const { event_id } = await emit(orgA, a1);
    const read = await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgA}/events/${event_id}`, { token: reader });
    expect(read.status).to.equal(200);
    expect(read.body.data).to.include({ id: event_id, type: 'resident.admitted', api_version: 'v1', facility_id: a1 });
    for (const hidden of [(await emit(orgA, a2)).event_id, (await emit(orgA, a1, 'coverage.updated')).event_id, randomUUID()]) {
      expect((await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgA}/events/${hidden}`, { token: reader })).status).to.equal(404);
    }
  });

  it('puts each event read or listed in the accounting of disclosures of its resident, as its webhook delivery is (found by the tenancy walk: the log disclosed no one)', async () => {
    const reader = await token(orgA, [a1], ['residents.read']);
    const resident = randomUUID();
    const { event_id } = await service.running.webhooks.emitEvent({ orgId: orgA, facilityId: a1, type: 'resident.admitted', residentId: resident });
    expect((await call(service.baseUrl, 'GET', `/api/v1/ofctx/${orgA}/events/${event_id}`, { token: reader })).status).to.equal(200);
    let after = '';
    for (;;) {
      const page = await events(orgA, reader, `?page_size=200${after}`);
      expect(page.status).to.equal(200);
      if (!page.body.meta.page.next) break;
      after = `&after=${page.body.meta.page.next}`;
    }
    const accounted = (await disclosuresOfResident(service.running.app.db, { orgId: orgA, residentId: resident })).filter((d) => d.channel === 'api');
    expect(accounted.map((d) => d.operation).sort()).to.deep.equal(['getEvent', 'listEvents']);
    for (const record of accounted) expect(record).to.deep.include({ resource_types: ['Patient'], resource_ids: [resident] });
    // Another resident's events were on the same pages: each is accounted to its own resident only.
    expect((await disclosuresOfResident(service.running.app.db, { orgId: orgA, residentId: randomUUID() }))).to.deep.equal([]);
  });

  it('gives each event exactly the data, id and type its delivery carried', async () => {
    const receiver: VerifyingReceiver = await startVerifyingReceiver();
    try {
      const manager = await token(orgA, [a1], ['webhooks.manage', 'clinical.read']);
      const registered = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${orgA}/webhooks`, { token: manager, json: { callback_url: receiver.url, event_types: ['clinical.order.created'] } });
      receiver.secret = registered.body.data.signing_secret;
      const before = (await emit(orgA, a1, 'resident.admitted')).event_id;
      await service.running.app.db.transaction(async (trx) => {
        const { queueEvents } = await import('../../src/webhooks/event-outbox.js');
        await queueEvents(trx, [{ orgId: orgA, facilityId: a1, type: 'clinical.order.created', residentId: randomUUID(), occurredAt: new Date().toISOString(), orderType: 'ServiceRequest' }]);
      });
      service.running.webhooks.wake();
      const [delivery] = await waitFor('the delivery', () => (receiver.accepted.length > 0 ? receiver.accepted : undefined));
      const log = await events(orgA, manager, `?after=${before}`);
      expect(log.body.data).to.have.length(1);
      const [event] = log.body.data;
      expect(event.id).to.equal(delivery!.event_id);
      expect(event.type).to.equal(delivery!.event_type);
      expect(event.occurred_at).to.equal(delivery!.occurred_at);
      expect(event.data).to.deep.equal(delivery!.data);
      expect(event.data.order_type).to.equal('ServiceRequest');
      await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${orgA}/webhooks/${registered.body.data.id}`, { token: manager });
    } finally {
      receiver.close();
    }
  });

  it('misses nothing and repeats nothing for a poller following after while events are committed concurrently', async () => {
    const reader = await token(orgA, [a1, a2], ['residents.read']);
    const start = (await emit(orgA, a1)).event_id;
    const emitted: string[] = [];
    let emitting = true;
    const writers = (async () => {
      for (let round = 0; round < 10; round++) {
        const batch = await Promise.all([emit(orgA, a1), emit(orgA, a2), emit(orgA, a1), emit(orgA, a2), emit(orgB, b1)]);
        emitted.push(...batch.slice(0, 4).map((e) => e.event_id));
      }
      emitting = false;
    })();
    const seen: string[] = [];
    let after = start;
    const poll = async () => {
      for (;;) {
        const page = await events(orgA, reader, `?after=${after}&page_size=7`);
        seen.push(...page.body.data.map((e: { id: string }) => e.id));
        if (page.body.data.length > 0) after = page.body.data.at(-1).id;
        if (page.body.meta.page.next === null) return;
      }
    };
    while (emitting) await poll();
    await writers;
    await poll();
    expect(new Set(seen).size).to.equal(seen.length);
    expect([...seen].sort()).to.deep.equal([...emitted].sort());
  });
});
