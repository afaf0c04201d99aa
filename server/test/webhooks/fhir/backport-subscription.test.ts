// A backport Subscription read into ofctx's settings and rendered back (webhooks/fhir/backport-subscription.ts).
import { expect } from 'chai';
import { ApiError } from '../../../src/errors/api-error.js';
import { readFilter, readSubscription, toR4Subscription, FILTER_CRITERIA, HEARTBEAT_PERIOD, MAX_COUNT, PAYLOAD_CONTENT, SUBSCRIPTION_PROFILE, TIMEOUT } from '../../../src/webhooks/fhir/backport-subscription.js';
import { SUBSCRIPTION_TOPICS, topicById } from '../../../src/webhooks/fhir/subscription-topics.js';
import { EVENT_TYPES } from '../../../src/db/event-types.js';

const admitted = topicById('resident-admitted')!;
const result = topicById('result-created')!;

function subscription(overrides: Record<string, unknown> = {}, channel: Record<string, unknown> = {}) {
  return {
    resourceType: 'Subscription',
    status: 'requested',
    reason: 'Admissions',
    criteria: admitted.url,
    _criteria: { extension: [{ url: FILTER_CRITERIA, valueString: 'Patient?identifier=urn:oid:1.2.3|MRN-1' }] },
    channel: {
      extension: [
        { url: HEARTBEAT_PERIOD, valueUnsignedInt: 60 },
        { url: TIMEOUT, valueUnsignedInt: 90 },
        { url: MAX_COUNT, valuePositiveInt: 5 },
      ],
      type: 'rest-hook',
      endpoint: 'https://partner.example/hook',
      header: ['Authorization: Bearer abc'],
      payload: 'application/fhir+json',
      _payload: { extension: [{ url: PAYLOAD_CONTENT, valueCode: 'full-resource' }] },
      ...channel,
    },
    ...overrides,
  };
}

function refusal(body: unknown): ApiError {
  try {
    readSubscription(body, 30);
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a refusal');
}

describe('FHIR Subscriptions: the backport Subscription mapping', () => {
  it('has one topic per event type, each with its own canonical', () => {
    expect(SUBSCRIPTION_TOPICS.map((t) => t.eventType)).to.have.members(EVENT_TYPES.map((t) => t.event_type));
    expect(new Set(SUBSCRIPTION_TOPICS.map((t) => t.url)).size).to.equal(SUBSCRIPTION_TOPICS.length);
    expect(result.focus).to.equal('DiagnosticReport');
  });

  it('reads the topic, filters, content, heartbeat, timeout (capped at the server\'s), max count and headers', () => {
    const read = readSubscription(subscription(), 30);
    expect(read.topic).to.equal(admitted);
    expect(read.endpoint).to.equal('https://partner.example/hook');
    expect(read.headers).to.deep.equal(['Authorization: Bearer abc']);
    expect(read.status).to.equal('requested');
    expect(read.settings).to.deep.equal({
      topic: admitted.url,
      filters: [{ text: 'Patient?identifier=urn:oid:1.2.3|MRN-1', resource: 'Patient', parameter: 'identifier', system: 'urn:oid:1.2.3', value: 'MRN-1' }],
      content: 'full-resource',
      reason: 'Admissions',
      end: null,
      heartbeatPeriod: 60,
      timeout: 30,
      maxCount: 5,
    });
    expect(readSubscription(subscription({}, { extension: [] }), 30).settings).to.deep.include({ heartbeatPeriod: null, timeout: 30, maxCount: null });
    expect(readSubscription(subscription({ status: 'active' }), 30).status, 'active is asked as requested').to.equal('requested');
    expect(readSubscription(subscription({ status: 'error' }), 30).status, 'so is error (read and sent back)').to.equal('requested');
    expect(readSubscription(subscription({ status: 'off' }), 30).status).to.equal('off');
  });

  it('defaults the content to id-only and reads a filter without a system', () => {
    const { _payload: _, ...channel } = subscription().channel;
    const read = readSubscription({ ...subscription(), channel }, 30);
    expect(read.settings.content).to.equal('id-only');
    expect(readFilter('Observation?category=laboratory', result, 'f')).to.deep.include({ resource: 'Observation', parameter: 'category', system: null, value: 'laboratory' });
    expect(readFilter('Patient?identifier=urn%3Aoid%3A1.2%7CX', admitted, 'f')).to.deep.include({ system: 'urn:oid:1.2', value: 'X' });
  });

  it('refuses, naming the element: an unknown topic, a filter the topic lacks, another channel or payload, a bad content, a bad header, no reason', () => {
    expect(refusal(subscription({ criteria: 'https://elsewhere/SubscriptionTopic/x' })).details?.[0]?.field).to.equal('body.criteria');
    expect(refusal(subscription({ _criteria: { extension: [{ url: FILTER_CRITERIA, valueString: 'Observation?category=laboratory' }] } })).details?.[0]?.issue).to.contain('is not a filter of');
    expect(refusal(subscription({ _criteria: { extension: [{ url: FILTER_CRITERIA, valueString: 'Patient?identifier=a&_id=b' }] } })).details?.[0]?.field).to.contain('_criteria');
    expect(refusal(subscription({}, { type: 'websocket' })).details?.[0]?.field).to.equal('body.channel.type');
    expect(refusal(subscription({}, { payload: 'application/fhir+xml' })).details?.[0]?.field).to.equal('body.channel.payload');
    expect(refusal(subscription({}, { _payload: { extension: [{ url: PAYLOAD_CONTENT, valueCode: 'everything' }] } })).details?.[0]?.field).to.contain('valueCode');
    expect(refusal(subscription({}, { header: ['Bad Header\r\nInjected: yes'] })).details?.[0]?.field).to.equal('body.channel.header[0]');
    expect(refusal(subscription({}, { header: ['Content-Type: text/plain'] })).details?.[0]?.issue).to.contain('set by ofctx');
    expect(refusal(subscription({}, { extension: [{ url: HEARTBEAT_PERIOD, valueUnsignedInt: 0 }] })).details?.[0]?.field).to.contain('heartbeat');
    expect(refusal(subscription({ reason: undefined })).details?.[0]?.field).to.equal('body.reason');
    expect(refusal(subscription({ status: 'entered-in-error' })).details?.[0]?.field).to.equal('body.status');
    expect(refusal({ resourceType: 'Patient' }).details?.[0]?.field).to.equal('body.resourceType');
    // Whatever the shape, a refusal and never a crash.
    expect(refusal(subscription({ _criteria: { extension: [null] } })).details?.[0]?.field).to.equal('body._criteria.extension');
    expect(refusal(subscription({}, { extension: 'x' })).details?.[0]?.field).to.equal('body.channel.extension');
    expect(refusal(subscription({}, { _payload: 3 })).details?.[0]?.field).to.equal('body.channel._payload');
    expect(refusal(subscription({ channel: 'rest-hook' })).details?.[0]?.field).to.equal('body.channel');
  });

  it('renders the Subscription back with the backport profile, the settings as honoured and the headers masked', () => {
    const read = readSubscription(subscription(), 30);
    const rendered = toR4Subscription({ id: 'abc', endpoint: read.endpoint, settings: { base: 'https://x/fhir', ...read.settings }, status: 'error', error: 'the endpoint answered 503', headerNames: ['Authorization'], lastUpdated: '2026-01-01T00:00:00.000Z' });
    expect(rendered).to.deep.equal({
      resourceType: 'Subscription',
      id: 'abc',
      meta: { lastUpdated: '2026-01-01T00:00:00.000Z', profile: [SUBSCRIPTION_PROFILE] },
      status: 'error',
      reason: 'Admissions',
      criteria: admitted.url,
      _criteria: { extension: [{ url: FILTER_CRITERIA, valueString: 'Patient?identifier=urn:oid:1.2.3|MRN-1' }] },
      error: 'the endpoint answered 503',
      channel: {
        extension: [
          { url: HEARTBEAT_PERIOD, valueUnsignedInt: 60 },
          { url: TIMEOUT, valueUnsignedInt: 30 },
          { url: MAX_COUNT, valuePositiveInt: 5 },
        ],
        type: 'rest-hook',
        endpoint: 'https://partner.example/hook',
        payload: 'application/fhir+json',
        _payload: { extension: [{ url: PAYLOAD_CONTENT, valueCode: 'full-resource' }] },
        header: ['Authorization: ***'],
      },
    });
    // Read again, it is the same Subscription (the timeout as honoured).
    expect(readSubscription(rendered, 30).settings).to.deep.equal(read.settings);
  });
});
