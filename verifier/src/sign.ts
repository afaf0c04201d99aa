// Producing X-Service-Signature, exactly as ofctx does, for a receiver's own tests.
import { asyncHmacEngine, syncHmacEngine, type CryptoOptions } from './crypto/hmac-engine.js';
import { rawBodyBytes, utf8Bytes, type RawBody } from './raw-body.js';
import { bytesToHex } from './signature-header.js';

/** Lowercase hex HMAC-SHA256 of the body bytes (a string is taken as UTF-8), keyed with the secret's UTF-8 bytes. Needs node:crypto. */
export function sign(rawBody: RawBody, secret: string): string {
  return bytesToHex(syncHmacEngine().hmacSha256(utf8Bytes(checkedSecret(secret)), rawBodyBytes(rawBody)));
}

/** `sign` on any runtime: node:crypto when present, else Web Crypto (or as `options.crypto` forces). */
export async function signAsync(rawBody: RawBody, secret: string, options: CryptoOptions = {}): Promise<string> {
  const engine = asyncHmacEngine(options.crypto);
  return bytesToHex(await engine.hmacSha256(utf8Bytes(checkedSecret(secret)), rawBodyBytes(rawBody)));
}

function checkedSecret(secret: unknown): string {
  if (typeof secret === 'string' && secret !== '') return secret;
  throw new TypeError('secret must be a non-empty string: the signing secret (ofx_whs_...).');
}
