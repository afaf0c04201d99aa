import { expect } from 'chai';
import {
  BodyNotRawError,
  HeaderMismatchError,
  InvalidEnvelopeError,
  InvalidJsonError,
  MalformedSignatureError,
  MissingSignatureError,
  SignatureMismatchError,
  WebhookVerificationError,
  verifyDelivery,
  verifyDeliveryAsync,
  type EventDelivery,
  type HeadersInput,
  type RawBody,
  type SigningSecret,
} from '../src/index.js';
import { hmacHex, secret, signedDelivery } from './support/signed-delivery.js';

type Verify = (rawBody: RawBody, headers: HeadersInput, secret: SigningSecret) => Promise<EventDelivery>;

const implementations: [string, Verify][] = [
  ['verifyDelivery', async (body, headers, key) => verifyDelivery(body, headers, key)],
  ['verifyDeliveryAsync (node)', (body, headers, key) => verifyDeliveryAsync(body, headers, key, { crypto: 'node' })],
  ['verifyDeliveryAsync (web)', (body, headers, key) => verifyDeliveryAsync(body, headers, key, { crypto: 'web' })],
];

async function failure(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('expected the verification to fail');
}

/** Headers for `body` signed with `key`, copying the ids from the body. */
function headersFor(body: string, key = secret): Record<string, string> {
  const { delivery_id, event_type } = JSON.parse(body) as EventDelivery;
  return { 'X-Service-Signature': hmacHex(body, key), 'X-Service-Delivery-Id': delivery_id, 'X-Service-Event-Type': event_type };
}

for (const [name, verify] of implementations) {
  describe(name, () => {
    it('returns the parsed envelope of a correctly signed delivery', async () => {
      const { body, headers, deliveryId } = signedDelivery();
      const delivery = await verify(Buffer.from(body), headers, secret);
      expect(delivery).to.deep.equal(JSON.parse(body));
      expect(delivery.delivery_id).to.equal(deliveryId);
    });

    it('reads headers from a Fetch Headers, lower-case Node headers, or keys in any case', async () => {
      const { body, headers } = signedDelivery();
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
      const arrays = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));
      for (const input of [new Headers(headers), lower, upper, arrays]) {
        expect((await verify(body, input, secret)).delivery_id).to.equal(headers['X-Service-Delivery-Id']);
      }
    });

    it('throws MissingSignatureError without the header, MalformedSignatureError for a bad one', async () => {
      const { body, headers } = signedDelivery();
      const { 'X-Service-Signature': signature, ...unsigned } = headers;
      const missing = await failure(verify(body, unsigned, secret));
      expect(missing).to.be.instanceOf(MissingSignatureError);
      expect(missing).to.include({ code: 'missing_signature', status: 401 });
      const short = await failure(verify(body, { ...unsigned, 'X-Service-Signature': signature!.slice(1) }, secret));
      expect(short).to.be.instanceOf(MalformedSignatureError);
      expect(short.message).to.match(/63 characters; expected 64 hex/);
      const twice = await failure(verify(body, { ...unsigned, 'x-service-signature': [signature!, signature!] }, secret));
      expect(twice).to.be.instanceOf(MalformedSignatureError).with.property('message').that.matches(/2 times/);
    });

    it('throws SignatureMismatchError for a tampered body or a wrong secret', async () => {
      const { body, headers } = signedDelivery();
      const tampered = await failure(verify(body.replace('resident.admitted', 'resident.discharged'), headers, secret));
      expect(tampered).to.be.instanceOf(SignatureMismatchError);
      expect(tampered).to.include({ code: 'signature_mismatch', status: 401 });
      const wrongSecret = await failure(verify(body, headers, `ofx_whs_${'A'.repeat(43)}`));
      expect(wrongSecret).to.be.instanceOf(SignatureMismatchError);
      expect(wrongSecret.message).to.match(/belongs to the subscription/);
    });

    it('explains a mismatch caused by a pretty-printed (re-serialized) body', async () => {
      const { body, headers } = signedDelivery();
      const error = await failure(verify(JSON.stringify(JSON.parse(body), null, 2), headers, secret));
      expect((error as SignatureMismatchError).hints).to.deep.equal([
        "The body was re-formatted (whitespace or escaping changed), i.e. parsed and re-serialized: pass the raw request bytes, e.g. express.raw({ type: 'application/json' }).",
      ]);
    });

    it('suspects JSON.stringify of a parsed body when a compact string does not match', async () => {
      // Escaped slashes are lost by parse + stringify, and the result is compact JSON again.
      const body = signedDelivery().body.replace('"occurred_at"', '"callback":"https:\\/\\/partner.example\\/hooks","occurred_at"');
      const reserialized = JSON.stringify(JSON.parse(body));
      expect(reserialized).to.include('https://partner.example/hooks');
      const error = await failure(verify(reserialized, headersFor(body), secret));
      expect(error.message).to.match(/passed as a string: if it came from JSON\.stringify\(req\.body\)/);
      // Given as bytes, the same mismatch gets no such guess.
      expect((await failure(verify(Buffer.from(reserialized), headersFor(body), secret))).message).to.not.match(/JSON\.stringify/);
    });

    it('explains a mismatch caused by decoding the body as latin1', async () => {
      const body = signedDelivery().body.replace('"occurred_at"', '"note":"Zoë 東京 🏥","occurred_at"');
      const latin1 = Buffer.from(body, 'utf8').toString('latin1');
      const error = await failure(verify(latin1, headersFor(body), secret));
      expect(error.message).to.match(/decoded as latin1/);
    });

    it('explains a mismatch caused by a trailing newline or a byte order mark', async () => {
      const { body, headers } = signedDelivery();
      expect((await failure(verify(`${body}\n`, headers, secret))).message).to.match(/trailing newline/);
      const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]);
      expect((await failure(verify(withBom, headers, secret))).message).to.match(/byte order mark/);
    });

    it('explains a mismatch caused by a secret without its prefix or with surrounding whitespace', async () => {
      const { body, headers } = signedDelivery();
      expect((await failure(verify(body, headers, secret.slice('ofx_whs_'.length)))).message).to.match(/lacks its ofx_whs_ prefix/);
      expect((await failure(verify(body, headers, `${secret}\n`))).message).to.match(/whitespace/);
    });

    it('explains a mismatch once when several secrets are given and one lacks its prefix', async () => {
      const { body, headers } = signedDelivery();
      const stripped = secret.slice('ofx_whs_'.length);
      const error = (await failure(verify(body, headers, [`ofx_whs_${'B'.repeat(43)}`, stripped, stripped]))) as SignatureMismatchError;
      expect(error.hints).to.deep.equal([
        'The secret lacks its ofx_whs_ prefix: the key is the whole string shown at registration, prefix included.',
      ]);
    });

    it('points at base64-decoding when the secret looks like decoded bytes', async () => {
      const { body, headers } = signedDelivery();
      const decoded = Buffer.from(secret.slice('ofx_whs_'.length), 'base64url').toString('latin1');
      expect((await failure(verify(body, headers, decoded))).message).to.match(/as if it had been base64-decoded/);
    });

    it('never accepts a variant that only explains a mismatch', async () => {
      const { body, headers } = signedDelivery();
      await failure(verify(JSON.stringify(JSON.parse(body), null, 2), headers, secret));
      await failure(verify(body, headers, secret.slice('ofx_whs_'.length)));
    });

    it('throws BodyNotRawError (status 500) for a parsed body or no body', async () => {
      const { body, headers } = signedDelivery();
      for (const notRaw of [JSON.parse(body), undefined, null, 42]) {
        const error = await failure(verify(notRaw as RawBody, headers, secret));
        expect(error).to.be.instanceOf(BodyNotRawError);
        expect(error).to.include({ code: 'body_not_raw', status: 500 });
        expect(error.message).to.match(/raw/);
      }
    });

    it('throws InvalidJsonError for a signed body that is not UTF-8 JSON', async () => {
      for (const body of ['{"api_version":', Buffer.from([0x7b, 0xff, 0x7d])]) {
        const error = await failure(verify(body, { 'X-Service-Signature': hmacHex(body) }, secret));
        expect(error).to.be.instanceOf(InvalidJsonError);
        expect(error).to.include({ code: 'invalid_json', status: 400 });
      }
    });

    it('throws InvalidEnvelopeError listing every problem of a signed non-envelope', async () => {
      const body = JSON.stringify({ api_version: 'v2', event_type: 'resident.moved', event_id: 'x', occurred_at: 'yesterday', data: { org_id: 1 } });
      const error = await failure(verify(body, { 'X-Service-Signature': hmacHex(body) }, secret));
      expect(error).to.be.instanceOf(InvalidEnvelopeError);
      expect((error as InvalidEnvelopeError).problems).to.deep.equal([
        'api_version must be "v1", got "v2"',
        'event_type must be one of resident.admitted, resident.discharged, resident.transferred, resident.merged, coverage.updated, clinical.condition.created, clinical.order.created, clinical.result.created, got "resident.moved"',
        'event_id must be a UUID',
        'delivery_id must be a UUID',
        'occurred_at must be an RFC 3339 date-time',
        'data.org_id must be a UUID',
        'data.facility_id must be a UUID',
        'data.resident_id must be a UUID',
      ]);
    });

    it('ignores properties the envelope may gain later', async () => {
      const { body } = signedDelivery();
      const extended = body.replace('"data"', '"future_field":{"x":1},"data"');
      expect(await verify(extended, headersFor(extended), secret)).to.have.property('future_field');
    });

    it('throws HeaderMismatchError when X-Service-Delivery-Id or X-Service-Event-Type differ from the body or are missing', async () => {
      const { body, headers } = signedDelivery();
      const otherId = await failure(verify(body, { ...headers, 'X-Service-Delivery-Id': '00000000-0000-4000-8000-000000000000' }, secret));
      expect(otherId).to.be.instanceOf(HeaderMismatchError);
      expect(otherId).to.include({ code: 'header_mismatch', header: 'X-Service-Delivery-Id' });
      const { 'X-Service-Event-Type': _eventType, ...withoutType } = headers;
      const missingType = await failure(verify(body, withoutType, secret));
      expect(missingType).to.include({ header: 'X-Service-Event-Type' });
      expect(missingType.message).to.match(/missing/);
      // The id header in upper case is the same id.
      const upperId = { ...headers, 'X-Service-Delivery-Id': headers['X-Service-Delivery-Id']!.toUpperCase() };
      expect(await verify(body, upperId, secret)).to.have.property('delivery_id');
    });
  });
}
