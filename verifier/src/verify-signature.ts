// The boolean check of X-Service-Signature. It answers false for any bad header (missing,
// repeated, malformed, wrong) and throws only on programmer errors: no secret, or a body that
// is not raw bytes. verifyDelivery is the fuller check that also explains failures.
import { asyncHmacEngine, syncHmacEngine, type CryptoOptions } from './crypto/hmac-engine.js';
import type { HeaderValue } from './delivery-headers.js';
import { rawBodyBytes, type RawBody } from './raw-body.js';
import { signatureMatches, signatureMatchesAsync } from './signature-check.js';
import { readSignatureHeader } from './signature-header.js';
import { signingSecrets, type SigningSecret } from './signing-secret.js';

/** True when signatureHeader is the HMAC-SHA256 of rawBody under the secret (or any of several). Needs node:crypto. */
export function verifySignature(rawBody: RawBody, signatureHeader: HeaderValue, secret: SigningSecret): boolean {
  const secrets = signingSecrets(secret);
  const body = rawBodyBytes(rawBody);
  const reading = readSignatureHeader(signatureHeader);
  return reading.ok && signatureMatches(syncHmacEngine(), body, reading.bytes, secrets);
}

/** `verifySignature` on any runtime: node:crypto when present, else Web Crypto (or as `options.crypto` forces). */
export async function verifySignatureAsync(
  rawBody: RawBody,
  signatureHeader: HeaderValue,
  secret: SigningSecret,
  options: CryptoOptions = {},
): Promise<boolean> {
  const engine = asyncHmacEngine(options.crypto);
  const secrets = signingSecrets(secret);
  const body = rawBodyBytes(rawBody);
  const reading = readSignatureHeader(signatureHeader);
  return reading.ok && (await signatureMatchesAsync(engine, body, reading.bytes, secrets));
}
