// What a raw body is and how it becomes bytes. The signature covers the exact bytes sent, so
// only bytes (or text that is those bytes decoded as UTF-8) can be verified; a parsed object
// cannot, because re-serializing it rarely reproduces the original bytes.
import { BodyNotRawError } from './errors.js';

/** The request body exactly as received: bytes (Buffer, Uint8Array, ArrayBuffer) or their UTF-8 text. */
export type RawBody = string | Uint8Array | ArrayBuffer;

const utf8Encoder = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/**
 * The bytes of a raw body. Throws BodyNotRawError for anything else, with a message naming
 * the likely cause; `source` names where the value came from (e.g. `req.body`).
 */
export function rawBodyBytes(rawBody: unknown, source = 'rawBody'): Uint8Array {
  if (typeof rawBody === 'string') return utf8Bytes(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  if (ArrayBuffer.isView(rawBody)) return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw new BodyNotRawError(notRawMessage(rawBody, source));
}

function notRawMessage(value: unknown, source: string): string {
  if (value === undefined || value === null) {
    return (
      `${source} is ${value}: the raw request body never reached the verifier. Pass the exact request bytes, ` +
      `e.g. mount express.raw({ type: 'application/json' }) on the webhook route.`
    );
  }
  return (
    `${source} is ${describe(value)}, not the raw bytes: the body was parsed (and would have to be re-serialized) ` +
    `by a body parser such as express.json(). Re-serializing cannot reproduce the signed bytes; pass the raw ` +
    `request bytes, e.g. express.raw({ type: 'application/json' }) on the webhook route.`
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array (parsed JSON)';
  if (typeof value === 'object') return 'an object (parsed JSON)';
  return `a ${typeof value}`;
}
