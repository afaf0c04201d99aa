// Reading X-Service-Signature: lowercase hex HMAC-SHA256 (64 characters). Case and
// surrounding spaces are forgiven; anything else is rejected without throwing, because
// the header is attacker input.

export type SignatureHeaderReading =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly problem: 'missing' | 'malformed'; readonly detail: string };

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

export function readSignatureHeader(value: unknown): SignatureHeaderReading {
  if (Array.isArray(value)) {
    if (value.length === 0) return missing();
    if (value.length > 1) return malformed(`X-Service-Signature was sent ${value.length} times; expected exactly one value.`);
    return readSignatureHeader(value[0]);
  }
  if (value === undefined || value === null) return missing();
  if (typeof value !== 'string') return malformed(`X-Service-Signature must be a string, got ${typeof value}.`);
  // What the service sends: exactly 64 lowercase hex characters, no copy needed.
  if (HEX_SIGNATURE.test(value)) return { ok: true, bytes: hexToBytes(value) };
  const hex = value.trim().toLowerCase();
  if (hex === '') return missing();
  if (!HEX_SIGNATURE.test(hex)) {
    const detail =
      hex.length === 64
        ? 'X-Service-Signature contains characters that are not hexadecimal; expected 64 hex characters (HMAC-SHA256).'
        : `X-Service-Signature has ${hex.length} characters; expected 64 hex characters (HMAC-SHA256).`;
    return malformed(detail);
  }
  return { ok: true, bytes: hexToBytes(hex) };
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

// Verification runs on every delivery, so decoding is on the hot path: Node's native hex
// decoder where there is one, a table lookup elsewhere (no per-byte slice and parseInt).
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: 'hex'): Uint8Array } }).Buffer;
const HEX_VALUE = new Uint8Array(128);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;

/** `hex` is already known to be 64 lowercase hex characters. */
function hexToBytes(hex: string): Uint8Array {
  if (NodeBuffer) return NodeBuffer.from(hex, 'hex');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (HEX_VALUE[hex.charCodeAt(2 * i)]! << 4) | HEX_VALUE[hex.charCodeAt(2 * i + 1)]!;
  return bytes;
}

function missing(): SignatureHeaderReading {
  return { ok: false, problem: 'missing', detail: 'The X-Service-Signature header is missing.' };
}

function malformed(detail: string): SignatureHeaderReading {
  return { ok: false, problem: 'malformed', detail };
}
