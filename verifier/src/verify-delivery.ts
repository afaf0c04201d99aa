// The full check of a delivery: signature over the raw bytes, then the envelope, then the
// unsigned headers against the signed body, then (optionally) the timestamp. Returns the
// typed envelope or throws a WebhookVerificationError that says what to fix.
import { asyncHmacEngine, syncHmacEngine, type CryptoOptions } from './crypto/hmac-engine.js';
import { parseDeliveryEnvelope, type EventDelivery } from './delivery-envelope.js';
import {
  DELIVERY_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  headerValue,
  type HeadersInput,
} from './delivery-headers.js';
import { HeaderMismatchError } from './errors.js';
import { rawBodyBytes, type RawBody } from './raw-body.js';
import { assertSignature, assertSignatureAsync, requiredSignature } from './signature-check.js';
import { signingSecrets, type SigningSecret } from './signing-secret.js';
import { assertTimestampWithinTolerance, type TimestampToleranceOptions } from './timestamp-tolerance.js';

export type VerifyDeliveryOptions = TimestampToleranceOptions;
export interface VerifyDeliveryAsyncOptions extends VerifyDeliveryOptions, CryptoOptions {}

/** Verifies a delivery and returns its envelope. Needs node:crypto; see verifyDeliveryAsync. */
export function verifyDelivery(rawBody: RawBody, headers: HeadersInput, secret: SigningSecret, options: VerifyDeliveryOptions = {}): EventDelivery {
  const secrets = signingSecrets(secret);
  const body = rawBodyBytes(rawBody);
  const engine = syncHmacEngine();
  const signature = requiredSignature(headerValue(headers, SIGNATURE_HEADER));
  assertSignature(engine, rawBody, body, signature, secrets);
  return verifiedEnvelope(body, headers, options);
}

/** `verifyDelivery` on any runtime: node:crypto when present, else Web Crypto (or as `options.crypto` forces). */
export async function verifyDeliveryAsync(
  rawBody: RawBody,
  headers: HeadersInput,
  secret: SigningSecret,
  options: VerifyDeliveryAsyncOptions = {},
): Promise<EventDelivery> {
  const engine = asyncHmacEngine(options.crypto);
  const secrets = signingSecrets(secret);
  const body = rawBodyBytes(rawBody);
  const signature = requiredSignature(headerValue(headers, SIGNATURE_HEADER));
  await assertSignatureAsync(engine, rawBody, body, signature, secrets);
  return verifiedEnvelope(body, headers, options);
}

/** The checks that follow a valid signature. */
function verifiedEnvelope(body: Uint8Array, headers: HeadersInput, options: VerifyDeliveryOptions): EventDelivery {
  const delivery = parseDeliveryEnvelope(body);
  assertHeaderMatchesBody(headers, DELIVERY_ID_HEADER, 'delivery_id', delivery.delivery_id);
  assertHeaderMatchesBody(headers, EVENT_TYPE_HEADER, 'event_type', delivery.event_type);
  assertTimestampWithinTolerance(headerValue(headers, TIMESTAMP_HEADER), options);
  return delivery;
}

// These headers are not signed; a receiver that routes or de-duplicates on them must be able
// to trust that they agree with the signed body.
function assertHeaderMatchesBody(headers: HeadersInput, header: string, field: string, signedValue: string): void {
  const value = headerValue(headers, header);
  if (value === undefined) {
    throw new HeaderMismatchError(header, `The ${header} header is missing; it must equal the body's ${field}.`);
  }
  if (typeof value !== 'string' || value.trim().toLowerCase() !== signedValue.toLowerCase()) {
    throw new HeaderMismatchError(
      header,
      `The ${header} header does not equal the signed body's ${field} (${signedValue}): the header was altered, or belongs to another request.`,
    );
  }
}
