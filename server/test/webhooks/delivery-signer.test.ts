// The signer against the shared vectors (computed with openssl, independently of any ofctx
// code, and also used by @ofctx/verifier), and the envelope it signs.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { signDelivery, signDeliveryBody, standardWebhooksSecret } from '../../src/webhooks/delivery-signer.js';
import { serializeDeliveryBody } from '../../src/webhooks/event-envelope.js';

interface SignatureVector {
  name: string;
  secret: string;
  body_base64: string;
  body_utf8?: string;
  signature: string;
}

const VECTORS_FILE = new URL('../../../test/vectors/signatures.json', import.meta.url);
const vectors = (JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as { cases: SignatureVector[] }).cases;

describe('the delivery signer', () => {
  it('has shared vectors to check against', () => {
    expect(vectors.length).to.be.at.least(5);
  });

  for (const vector of vectors) {
    it(`matches the shared vector "${vector.name}"`, () => {
      const bytes = Buffer.from(vector.body_base64, 'base64');
      expect(signDeliveryBody(bytes, vector.secret)).to.equal(vector.signature);
      if (vector.body_utf8 !== undefined) {
        expect(Buffer.from(vector.body_utf8, 'utf8').equals(bytes)).to.equal(true);
        expect(signDeliveryBody(vector.body_utf8, vector.secret)).to.equal(vector.signature);
      }
    });
  }

  it('reproduces the golden vector end to end: same envelope bytes, same signature, same headers', () => {
    const golden = vectors.find((v) => v.name === 'golden delivery envelope')!;
    const body = serializeDeliveryBody({
      eventType: 'resident.admitted',
      eventId: '8a9b0c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d',
      deliveryId: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
      occurredAt: '2026-11-22T10:00:00.000Z',
      orgId: '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a60',
      facilityId: '0b7e3c1d-2a4f-4b6e-9c8d-7e6f5a4b3c21',
      residentId: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
    });
    expect(Buffer.from(body, 'utf8').toString('base64')).to.equal(golden.body_base64);
    const signed = signDelivery({ body, secrets: { current: golden.secret }, deliveryId: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e', eventType: 'resident.admitted', attempt: 3, at: 1_795_341_600_500 });
    expect(signed.signature).to.equal(golden.signature);
    expect(signed.body.equals(Buffer.from(golden.body_base64, 'base64'))).to.equal(true);
    expect(signed.headers).to.deep.equal({
      'Content-Type': 'application/json',
      'X-Service-Signature': golden.signature,
      'X-Service-Delivery-Id': '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
      'X-Service-Event-Type': 'resident.admitted',
      'X-Service-Attempt': '3',
      'X-Service-Timestamp': '1795341600',
      'webhook-id': '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
      'webhook-timestamp': '1795341600',
      // Computed independently: base64 HMAC-SHA256 of "id.timestamp.body" with the same key.
      'webhook-signature': `v1,${createHmac('sha256', golden.secret).update(`4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e.1795341600.${body}`).digest('base64')}`,
    });
  });

  it('keys the HMAC with the UTF-8 bytes of the whole secret, prefix included, never base64-decoded', () => {
    const secret = 'ofx_whs_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
    const body = '{"a":1}';
    expect(signDeliveryBody(body, secret)).to.equal(createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex'));
    expect(signDeliveryBody(body, secret)).to.not.equal(createHmac('sha256', Buffer.from(secret.slice(8), 'base64url')).update(body).digest('hex'));
  });

  it('signs only the body: the attempt and the timestamp do not change the signature', () => {
    const input = { body: '{"x":"y"}', secrets: { current: 'ofx_whs_test' }, deliveryId: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e', eventType: 'coverage.updated' as const };
    const first = signDelivery({ ...input, attempt: 1, at: 1_000_000 });
    const later = signDelivery({ ...input, attempt: 7, at: 9_000_000 });
    expect(later.signature).to.equal(first.signature);
    expect(later.headers['X-Service-Attempt']).to.equal('7');
  });

  it('gives the Standard Webhooks secret as whsec_ + base64 of the same key bytes', () => {
    const secret = 'ofx_whs_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
    const whsec = standardWebhooksSecret(secret);
    expect(whsec).to.match(/^whsec_/);
    expect(Buffer.from(whsec.slice(6), 'base64').toString('utf8')).to.equal(secret);
  });

  it('during an overlap: X-Service-Signature under the OLD secret, webhook-signature under the new then the old', () => {
    const body = '{"x":"y"}';
    const id = '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e';
    const signed = signDelivery({ body, secrets: { current: 'ofx_whs_new', previous: 'ofx_whs_old' }, deliveryId: id, eventType: 'coverage.updated', attempt: 1, at: 1_795_341_600_000 });
    const hmac = (key: string, data: string, encoding: 'hex' | 'base64') => createHmac('sha256', key).update(data).digest(encoding);
    expect(signed.headers['X-Service-Signature']).to.equal(hmac('ofx_whs_old', body, 'hex'));
    expect(signed.signature).to.equal(hmac('ofx_whs_old', body, 'hex'));
    expect(signed.headers['webhook-signature']).to.equal(
      `v1,${hmac('ofx_whs_new', `${id}.1795341600.${body}`, 'base64')} v1,${hmac('ofx_whs_old', `${id}.1795341600.${body}`, 'base64')}`,
    );
    const after = signDelivery({ body, secrets: { current: 'ofx_whs_new', previous: null }, deliveryId: id, eventType: 'coverage.updated', attempt: 2, at: 1_795_341_700_000 });
    expect(after.headers['X-Service-Signature']).to.equal(hmac('ofx_whs_new', body, 'hex'));
    expect(after.headers['webhook-signature']).to.equal(`v1,${hmac('ofx_whs_new', `${id}.1795341700.${body}`, 'base64')}`);
  });
});
