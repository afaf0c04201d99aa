// Matching a signature against one or more secrets, and explaining a mismatch, with either
// the synchronous (node:crypto) or the asynchronous (node:crypto or Web Crypto) engine.
import type { AsyncHmacEngine, SyncHmacEngine } from './crypto/hmac-engine.js';
import { MalformedSignatureError, MissingSignatureError, SignatureMismatchError } from './errors.js';
import { heuristicHints, mismatchCandidates } from './mismatch-hints.js';
import { utf8Bytes } from './raw-body.js';
import { readSignatureHeader } from './signature-header.js';

/** The expected signature bytes, or MissingSignatureError / MalformedSignatureError. */
export function requiredSignature(signatureHeader: unknown): Uint8Array {
  const reading = readSignatureHeader(signatureHeader);
  if (reading.ok) return reading.bytes;
  if (reading.problem === 'missing') throw new MissingSignatureError();
  throw new MalformedSignatureError(reading.detail);
}

// A receiver verifies every delivery with the same one or two secrets: keep their UTF-8
// bytes instead of encoding them on each call. Bounded, so rotating secrets cannot grow it.
const keyCache = new Map<string, Uint8Array>();
const KEY_CACHE_LIMIT = 16;

export function secretKeyBytes(secret: string): Uint8Array {
  let bytes = keyCache.get(secret);
  if (!bytes) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    bytes = utf8Bytes(secret);
    keyCache.set(secret, bytes);
  }
  return bytes;
}

/** True when the signature is the HMAC of body under any of the secrets. Every secret is tried, match or not. */
export function signatureMatches(engine: SyncHmacEngine, body: Uint8Array, signature: Uint8Array, secrets: readonly string[]): boolean {
  let matched = false;
  for (const secret of secrets) {
    if (engine.equal(engine.hmacSha256(secretKeyBytes(secret), body), signature)) matched = true;
  }
  return matched;
}

export async function signatureMatchesAsync(
  engine: AsyncHmacEngine,
  body: Uint8Array,
  signature: Uint8Array,
  secrets: readonly string[],
): Promise<boolean> {
  const digests = await Promise.all(secrets.map((secret) => engine.hmacSha256(secretKeyBytes(secret), body)));
  return digests.map((digest) => engine.equal(digest, signature)).includes(true);
}

/** Throws SignatureMismatchError (with hints) unless the signature matches. */
export function assertSignature(engine: SyncHmacEngine, rawBody: unknown, body: Uint8Array, signature: Uint8Array, secrets: readonly string[]): void {
  if (signatureMatches(engine, body, signature, secrets)) return;
  const candidates = mismatchCandidates(rawBody, body, secrets);
  const proven = candidates.filter((c) => engine.equal(engine.hmacSha256(c.key, c.body), signature)).map((c) => c.hint);
  throw new SignatureMismatchError(unique(proven.length > 0 ? proven : heuristicHints(rawBody, body, secrets)));
}

export async function assertSignatureAsync(
  engine: AsyncHmacEngine,
  rawBody: unknown,
  body: Uint8Array,
  signature: Uint8Array,
  secrets: readonly string[],
): Promise<void> {
  if (await signatureMatchesAsync(engine, body, signature, secrets)) return;
  const candidates = mismatchCandidates(rawBody, body, secrets);
  const digests = await Promise.all(candidates.map((c) => engine.hmacSha256(c.key, c.body)));
  const proven = candidates.filter((_, i) => engine.equal(digests[i]!, signature)).map((c) => c.hint);
  throw new SignatureMismatchError(unique(proven.length > 0 ? proven : heuristicHints(rawBody, body, secrets)));
}

function unique(hints: string[]): string[] {
  return [...new Set(hints)];
}
