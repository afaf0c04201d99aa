// The Standard Webhooks scheme (www.standardwebhooks.com) that every ofctx delivery also
// carries: `webhook-signature` lists space-separated `v1,<base64 HMAC-SHA256>` entries over
// `webhook-id.webhook-timestamp.body`, with the same key as X-Service-Signature. During a
// secret rotation's overlap it lists two (new secret first), so a receiver holding either
// secret finds its own. The id and timestamp are signed, so here the timestamp check is a
// real replay defence, unlike X-Service-Timestamp's.
import type { AsyncHmacEngine, SyncHmacEngine } from './crypto/hmac-engine.js';
import { headerValue, type HeadersInput } from './delivery-headers.js';
import { MalformedSignatureError } from './errors.js';
import { utf8Bytes } from './raw-body.js';
import { secretKeyBytes } from './signature-check.js';

export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

export interface StandardSignature {
  /** The bytes that are signed: `id.timestamp.` followed by the body. */
  content: Uint8Array;
  /** Every `v1` signature listed, decoded. */
  signatures: Uint8Array[];
}

function single(headers: HeadersInput, name: string): string | undefined {
  const value = headerValue(headers, name);
  if (Array.isArray(value)) throw new MalformedSignatureError(`${name} was sent ${value.length} times; expected exactly one value.`);
  return value;
}

function base64Bytes(text: string): Uint8Array | null {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** The Standard Webhooks signature of a request, or null when it carries no webhook-signature. */
export function readStandardSignature(headers: HeadersInput, body: Uint8Array): StandardSignature | null {
  const header = single(headers, WEBHOOK_SIGNATURE_HEADER);
  if (header === undefined || header.trim() === '') return null;
  const id = single(headers, WEBHOOK_ID_HEADER);
  const timestamp = single(headers, WEBHOOK_TIMESTAMP_HEADER);
  if (!id) throw new MalformedSignatureError('webhook-signature is present but webhook-id is missing; both are signed.');
  if (!timestamp || !/^\d{1,12}$/.test(timestamp.trim())) {
    throw new MalformedSignatureError('webhook-signature is present but webhook-timestamp is missing or not unix seconds; both are signed.');
  }
  const signatures: Uint8Array[] = [];
  for (const entry of header.trim().split(/ +/)) {
    const comma = entry.indexOf(',');
    // Other versions (v1a, ...) are skipped, as the specification asks.
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const bytes = base64Bytes(entry.slice(comma + 1));
    if (bytes && bytes.length === 32) signatures.push(bytes);
  }
  if (signatures.length === 0) throw new MalformedSignatureError('webhook-signature lists no v1 signature (expected `v1,<base64 HMAC-SHA256>`).');
  const prefix = utf8Bytes(`${id}.${timestamp.trim()}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return { content, signatures };
}

/** True when any listed signature matches any secret. Every pair is compared, match or not. */
export function standardSignatureMatches(engine: SyncHmacEngine, signed: StandardSignature, secrets: readonly string[]): boolean {
  let matched = false;
  for (const secret of secrets) {
    const expected = engine.hmacSha256(secretKeyBytes(secret), signed.content);
    for (const signature of signed.signatures) if (engine.equal(expected, signature)) matched = true;
  }
  return matched;
}

export async function standardSignatureMatchesAsync(engine: AsyncHmacEngine, signed: StandardSignature, secrets: readonly string[]): Promise<boolean> {
  const digests = await Promise.all(secrets.map((secret) => engine.hmacSha256(secretKeyBytes(secret), signed.content)));
  return digests.some((expected) => signed.signatures.map((signature) => engine.equal(expected, signature)).includes(true));
}
