// The notification Bundles of FHIR Subscriptions (webhooks/fhir/notification-bundle.ts): the
// backport's R4 shapes, valid R4 by Medplum's validator.
import { expect } from 'chai';
import { eventsOfNotification, notificationBundle, statusSearchset, STATUS_PROFILE, NOTIFICATION_PROFILE, type StatusInput } from '../../../src/webhooks/fhir/notification-bundle.js';
import { checkR4 } from '../../../../test/support/r4-validator.js';

const BASE = 'https://api.example/api/v1/fhir/R4/org/fac';
const TOPIC = 'https://ofctx.dev/fhir/SubscriptionTopic/resident-admitted';
const patient = { resourceType: 'Patient', id: '5f0c0d4e-3c1b-4b7a-9a51-0c2d1e3f4a5b', gender: 'female' };
const input = (overrides: Partial<StatusInput> = {}): StatusInput & { timestamp: string } => ({
  base: BASE,
  subscriptionId: 'sub-1',
  topic: TOPIC,
  status: 'active',
  type: 'event-notification',
  eventsSinceStart: 7,
  content: 'id-only',
  events: [{ eventNumber: 7, timestamp: '2026-01-01T10:00:00.000Z', focus: `Patient/${patient.id}`, resource: patient }],
  timestamp: '2026-01-01T10:00:01.000Z',
  ...overrides,
});

const parametersOf = (bundle: { entry: Array<Record<string, unknown>> }) => bundle.entry[0]!.resource as { meta: { profile: string[] }; parameter: Array<{ name: string; [k: string]: unknown }> };

describe('FHIR Subscriptions: notification Bundles', () => {
  it('an id-only event notification: a history Bundle, the SubscriptionStatus first with the event and its focus, no resource', () => {
    const bundle = notificationBundle(input());
    expect(checkR4(bundle)).to.deep.equal([]);
    expect(bundle).to.deep.include({ resourceType: 'Bundle', type: 'history', timestamp: '2026-01-01T10:00:01.000Z', meta: { profile: [NOTIFICATION_PROFILE] } });
    expect(bundle.entry).to.have.length(1);
    expect(bundle.entry[0]).to.deep.include({ request: { method: 'GET', url: `${BASE}/Subscription/sub-1/$status` }, response: { status: '200' } });
    const status = parametersOf(bundle);
    expect(status.meta.profile).to.deep.equal([STATUS_PROFILE]);
    expect(status.parameter).to.deep.equal([
      { name: 'subscription', valueReference: { reference: `${BASE}/Subscription/sub-1` } },
      { name: 'topic', valueCanonical: TOPIC },
      { name: 'status', valueCode: 'active' },
      { name: 'type', valueCode: 'event-notification' },
      { name: 'events-since-subscription-start', valueString: '7' },
      {
        name: 'notification-event',
        part: [
          { name: 'event-number', valueString: '7' },
          { name: 'timestamp', valueInstant: '2026-01-01T10:00:00.000Z' },
          { name: 'focus', valueReference: { reference: `${BASE}/Patient/${patient.id}` } },
        ],
      },
    ]);
  });

  it('full-resource adds the focus as an entry; empty has neither topic nor focus', () => {
    const full = notificationBundle(input({ content: 'full-resource' }));
    expect(checkR4(full)).to.deep.equal([]);
    expect(full.entry[1]).to.deep.equal({ fullUrl: `${BASE}/Patient/${patient.id}`, resource: patient, request: { method: 'PUT', url: `Patient/${patient.id}` }, response: { status: '200' } });
    const empty = notificationBundle(input({ content: 'empty' }));
    expect(checkR4(empty)).to.deep.equal([]);
    const names = parametersOf(empty).parameter.map((p) => p.name);
    expect(names).not.to.include('topic');
    expect(JSON.stringify(empty)).not.to.contain(patient.id);
    expect(empty.entry).to.have.length(1);
  });

  it('handshakes and heartbeats carry no event; an error is said; $status is a searchset of one status', () => {
    const handshake = notificationBundle(input({ type: 'handshake', status: 'requested', eventsSinceStart: 0, events: [] }));
    expect(checkR4(handshake)).to.deep.equal([]);
    expect(parametersOf(handshake).parameter.map((p) => p.name)).to.deep.equal(['subscription', 'topic', 'status', 'type', 'events-since-subscription-start']);
    const status = statusSearchset({ base: BASE, subscriptionId: 'sub-1', topic: TOPIC, status: 'error', eventsSinceStart: 3, content: 'id-only', error: 'the endpoint answered 503' });
    expect(checkR4(status)).to.deep.equal([]);
    expect(status).to.deep.include({ type: 'searchset', total: 1 });
    const parameters = parametersOf(status).parameter;
    expect(parameters.find((p) => p.name === 'type')?.valueCode).to.equal('query-status');
    expect(parameters.find((p) => p.name === 'error')?.valueCodeableConcept).to.deep.equal({ text: 'the endpoint answered 503' });
  });

  it('reads the events back from a stored notification ($events)', () => {
    const stored = JSON.stringify(notificationBundle(input({ content: 'full-resource' })));
    expect(eventsOfNotification(stored, BASE)).to.deep.equal([{ eventNumber: 7, timestamp: '2026-01-01T10:00:00.000Z', focus: `Patient/${patient.id}`, resource: patient }]);
    expect(eventsOfNotification(JSON.stringify(notificationBundle(input())), BASE)[0]!.resource).to.equal(undefined);
  });
});
