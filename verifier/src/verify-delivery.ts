// The full check of a delivery: signature over the raw bytes, then the envelope, then the
// unsigned headers against the signed body, then the timestamp. Returns the typed envelope or
// throws a WebhookVerificationError that says what to fix.
// Either signature scheme authenticates: X-Service-Signature (spec 6.3) matching any secret,
// or a Standard Webhooks `webhook-signature` entry matching any secret. During a secret
// rotation's overlap X-Service-Signature carries the OLD secret's signature and
// webhook-signature both, so `[new, old]`, `[old]` and `[new]` all verify every delivery.
// When webhook-timestamp is present (it is signed) its tolerance is enforced: 300 s unless
// toleranceSeconds says otherwise.
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
import { assertSignature, assertSignatureAsync, requiredSignature, signatureMatches, signatureMatchesAsync } from './signature-check.js';
import { readSignatureHeader } from './signature-header.js';
import {
  readStandardSignature,
  standardSignatureMatches,
  standardSignatureMatchesAsync,
  WEBHOOK_ID_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from './standard-webhooks-signature.js';
import { SignatureMismatchError } from './errors.js';
import { signingSecrets, type SigningSecret } from './signing-secret.js';
import { assertTimestampWithinTolerance, type TimestampToleranceOptions } from './timestamp-tolerance.js';

export type VerifyDeliveryOptions = TimestampToleranceOptions;
export interface VerifyDeliveryAsyncOptions extends VerifyDeliveryOptions, CryptoOptions {}

/** Verifies a delivery and returns its envelope. Needs node:crypto; see verifyDeliveryAsync. */
export function verifyDelivery(rawBody: RawBody, headers: HeadersInput, secret: SigningSecret, options: VerifyDeliveryOptions = {}): EventDelivery {
  const secrets = signingSecrets(secret);
  const body = rawBodyBytes(rawBody);
  const engine = syncHmacEngine();
  const serviceHeader = headerValue(headers, SIGNATURE_HEADER);
  const standard = readStandardSignature(headers, body);
  if (!standard) {
    assertSignature(engine, rawBody, body, requiredSignature(serviceHeader), secrets);
  } else {
    const reading = readSignatureHeader(serviceHeader);
    const passes = (reading.ok && signatureMatches(engine, body, reading.bytes, secrets)) || standardSignatureMatches(engine, standard, secrets);
    if (!passes) failBoth(() => assertSignature(engine, rawBody, body, requiredSignature(serviceHeader), secrets), reading.ok);
  }
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
  const serviceHeader = headerValue(headers, SIGNATURE_HEADER);
  const standard = readStandardSignature(headers, body);
  if (!standard) {
    await assertSignatureAsync(engine, rawBody, body, requiredSignature(serviceHeader), secrets);
  } else {
    const reading = readSignatureHeader(serviceHeader);
    const passes = (reading.ok && (await signatureMatchesAsync(engine, body, reading.bytes, secrets))) || (await standardSignatureMatchesAsync(engine, standard, secrets));
    if (!passes) {
      let explained: unknown;
      if (reading.ok) await assertSignatureAsync(engine, rawBody, body, reading.bytes, secrets).catch((error: unknown) => (explained = error));
      throw mismatchOfBoth(explained);
    }
  }
  return verifiedEnvelope(body, headers, options);
}

/** Neither scheme matched: the X-Service-Signature hints when that header could be explained. */
function failBoth(explain: () => void, serviceHeaderWellFormed: boolean): never {
  let explained: unknown;
  if (serviceHeaderWellFormed) {
    try {
      explain();
    } catch (error) {
      explained = error;
    }
  }
  throw mismatchOfBoth(explained);
}

function mismatchOfBoth(explained: unknown): SignatureMismatchError {
  const hints = explained instanceof SignatureMismatchError ? [...explained.hints] : [];
  return new SignatureMismatchError([
    ...hints,
    'Neither X-Service-Signature nor any webhook-signature entry matches the secret(s) given. During a secret rotation pass [newSecret, oldSecret].',
  ]);
}

/** Standard Webhooks: a signed timestamp is always checked, 5 minutes unless told otherwise. */
const STANDARD_TOLERANCE_SECONDS = 300;

/** The checks that follow a valid signature. */
function verifiedEnvelope(body: Uint8Array, headers: HeadersInput, options: VerifyDeliveryOptions): EventDelivery {
  const delivery = parseDeliveryEnvelope(body);
  assertHeaderMatchesBody(headers, DELIVERY_ID_HEADER, 'delivery_id', delivery.delivery_id);
  assertHeaderMatchesBody(headers, EVENT_TYPE_HEADER, 'event_type', delivery.event_type);
  const standardTimestamp = headerValue(headers, WEBHOOK_TIMESTAMP_HEADER);
  if (standardTimestamp !== undefined) {
    if (headerValue(headers, WEBHOOK_ID_HEADER) !== undefined) assertHeaderMatchesBody(headers, WEBHOOK_ID_HEADER, 'delivery_id', delivery.delivery_id);
    assertTimestampWithinTolerance(standardTimestamp, { toleranceSeconds: STANDARD_TOLERANCE_SECONDS, ...options }, WEBHOOK_TIMESTAMP_HEADER);
  } else {
    assertTimestampWithinTolerance(headerValue(headers, TIMESTAMP_HEADER), options);
  }
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
