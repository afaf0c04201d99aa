import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { EVENT_TYPES } from '../src/index.js';
import { parseDeliveryEnvelope } from '../src/delivery-envelope.js';
import { goldenVector } from './support/signature-vectors.js';

describe('parseDeliveryEnvelope', () => {
  it('parses the golden vector body into the typed envelope', () => {
    const delivery = parseDeliveryEnvelope(goldenVector.body);
    expect(delivery.event_type).to.equal('resident.admitted');
    expect(delivery.data.resident_id).to.equal('9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a');
  });

  it('accepts date-times with offsets and without fractions, and rejects impossible dates', () => {
    const envelope = JSON.parse(goldenVector.body_utf8!) as Record<string, unknown>;
    const withTime = (occurred_at: string) => new TextEncoder().encode(JSON.stringify({ ...envelope, occurred_at }));
    expect(parseDeliveryEnvelope(withTime('2026-11-22T11:00:00+01:00')).occurred_at).to.equal('2026-11-22T11:00:00+01:00');
    expect(() => parseDeliveryEnvelope(withTime('2026-13-45T10:00:00Z'))).to.throw(/occurred_at/);
    expect(() => parseDeliveryEnvelope(withTime('2026-11-22 10:00:00'))).to.throw(/occurred_at/);
  });

  it('rejects JSON that is not an object', () => {
    for (const text of ['[]', 'null', '"v1"', '1']) {
      expect(() => parseDeliveryEnvelope(new TextEncoder().encode(text)), text).to.throw(/must be a JSON object/);
    }
  });
});

describe('EVENT_TYPES', () => {
  it('lists exactly the event types of the contract', () => {
    const document = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
      components: { schemas: { EventType: { enum: string[] } } };
      webhooks: Record<string, unknown>;
    };
    expect([...EVENT_TYPES]).to.have.members(document.components.schemas.EventType.enum);
    expect([...EVENT_TYPES]).to.have.members(Object.keys(document.webhooks));
  });
});
