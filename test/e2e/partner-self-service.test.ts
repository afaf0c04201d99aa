// Issue 24 end to end, as a partner does it with @ofctx/sdk and @ofctx/verifier against the
// real service: its receiver answers 500 for a while; the partner reads the failed
// deliveries and their attempts, sees its subscription disabled after the failure window,
// fixes the receiver, enables it, redelivers one delivery and recovers the rest, each event
// arriving exactly once more (verified); and the event log lists, in order and without
// gaps, every event of its facilities and none of another facility or organization.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { contractCheckingFetch } from '../support/contract.js';
import { ALL_SCOPES, startTestService, type TestService } from '../support/service.js';
import { startVerifyingReceiver, type VerifyingReceiver } from '../support/verifying-receiver.js';
import { waitFor } from '../../server/test/webhooks/support/receiver.js';
import { ConflictError, createClient, type Event, type OfctxClient } from '../../sdk/src/index.js';

describe('a partner recovers on its own (SDK, verifier, real service)', function () {
  this.timeout(60_000);
  let service: TestService;
  let receiver: VerifyingReceiver;
  let client: OfctxClient;
  let orgId: string;
  let granted: string;
  let ungranted: string;
  let otherOrg: string;
  let otherFacility: string;

  before(async () => {
    // Two attempts per delivery, at once; a subscription failing for 2.5 s is disabled.
    service = await startTestService({ env: { WEBHOOK_RETRY_SCHEDULE: '0', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_DISABLE_AFTER_HOURS: '0.0007' } });
    receiver = await startVerifyingReceiver();
    orgId = (await service.seed.org('Partner org')).id;
    granted = (await service.seed.facility(orgId, 'Granted')).id;
    ungranted = (await service.seed.facility(orgId, 'Not granted')).id;
    otherOrg = (await service.seed.org('Other org')).id;
    otherFacility = (await service.seed.facility(otherOrg, 'Elsewhere')).id;
    const issued = await service.seed.client({ orgId, facilityIds: [granted], scopes: ALL_SCOPES });
    client = createClient({ baseUrl: service.baseUrl, clientId: issued.client_id, clientSecret: issued.client_secret, fetch: contractCheckingFetch });
  });
  after(async () => {
    receiver?.close();
    await service?.close();
  });

  const emit = (orgIdOf: string, facilityId: string, type = 'resident.admitted') =>
    service.running.webhooks.emitEvent({ orgId: orgIdOf, facilityId, type, residentId: randomUUID() });

  it('reads failed attempts, is disabled and enabled again, redelivers and recovers each event exactly once more, and catches up from the event log', async () => {
    const webhooks = client.webhooks(orgId);
    const subscription = await webhooks.register({ callbackUrl: receiver.url, eventTypes: ['resident.admitted', 'coverage.updated'] });
    receiver.secret = subscription.signing_secret;

    // The receiver is down.
    receiver.failWith = 500;
    const emitted: string[] = [];
    for (const type of ['resident.admitted', 'coverage.updated', 'resident.admitted']) {
      emitted.push((await emit(orgId, granted, type)).event_id);
      await emit(orgId, ungranted, type);
      await emit(otherOrg, otherFacility, type);
    }
    const failed = await waitFor('three failed deliveries', async () => {
      const page = await webhooks.deliveries(subscription.id, { status: 'failed' });
      return page.data.length === 3 ? page : undefined;
    }, 15_000, 100);
    expect(failed.page.total).to.equal(3);
    expect(failed.data.map((d) => d.event_id)).to.deep.equal([...emitted].reverse());
    for (const delivery of failed.data) {
      expect(delivery.facility_id).to.equal(granted);
      expect(delivery.attempts.map((a) => [a.status_code, a.error])).to.deep.equal([
        [500, 'http_status'],
        [500, 'http_status'],
      ]);
    }

    // Failing for the whole window: disabled, and it says why.
    const disabled = await waitFor('the subscription to be disabled', async () => {
      const read = await webhooks.get(subscription.id);
      return read.status === 'disabled' ? read : undefined;
    }, 15_000, 200);
    expect(disabled.disabled_reason).to.equal('failing');
    expect(disabled.failing_since).to.be.a('string');
    const refused = await webhooks.redeliver(subscription.id, failed.data[0]!.id).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(ConflictError);

    // Fixed: enable, redeliver one, recover the rest.
    receiver.failWith = undefined;
    expect((await webhooks.enable(subscription.id)).status).to.equal('active');
    const newest = failed.data[0]!;
    const again = await webhooks.redeliver(subscription.id, newest.id);
    expect(again).to.include({ id: newest.id, event_id: newest.event_id });
    await waitFor('the redelivery', () => (receiver.accepted.length === 1 ? true : undefined));
    const recovered = await webhooks.recover(subscription.id, new Date(Date.now() - 3_600_000));
    expect(recovered.queued).to.equal(2);
    await waitFor('the recovered deliveries', () => (receiver.accepted.length === 3 ? true : undefined));
    // Nothing more comes: each event exactly once more, every one verified.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.refused).to.deep.equal([]);
    expect(receiver.accepted.map((d) => d.event_id).sort()).to.deep.equal([...emitted].sort());
    const delivered = await webhooks.deliveries(subscription.id, { status: 'delivered' });
    expect(delivered.data).to.have.length(3);

    // The event log: in order, without gaps, only the partner's facility.
    const log = client.events(orgId).list({ pageSize: 2 });
    const seen: Event[] = [];
    for await (const event of log) seen.push(event);
    expect(seen.map((e) => e.id)).to.deep.equal(emitted);
    expect(log.after).to.equal(emitted.at(-1));
    for (const event of seen) {
      const delivery = receiver.accepted.find((d) => d.event_id === event.id)!;
      expect(event).to.include({ type: delivery.event_type, occurred_at: delivery.occurred_at, facility_id: granted });
      expect(event.data).to.deep.equal(delivery.data);
    }
    // Resumed from where it stopped: only what came since.
    const later = (await emit(orgId, granted, 'coverage.updated')).event_id;
    await emit(orgId, ungranted, 'coverage.updated');
    const resumed: string[] = [];
    for await (const event of client.events(orgId).list({ after: log.after, types: ['coverage.updated'] })) resumed.push(event.id);
    expect(resumed).to.deep.equal([later]);
    expect((await client.events(orgId).get(later)).id).to.equal(later);
  });
});
