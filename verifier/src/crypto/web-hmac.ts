// HMAC through Web Crypto (crypto.subtle), for runtimes without node:crypto.
import { constantTimeEqual } from './constant-time-equal.js';
import type { AsyncHmacEngine } from './hmac-engine.js';

export function webHmacEngine(subtle: SubtleCrypto): AsyncHmacEngine {
  return {
    name: 'web',
    async hmacSha256(key, data) {
      const cryptoKey = await subtle.importKey('raw', arrayBufferBacked(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      return new Uint8Array(await subtle.sign('HMAC', cryptoKey, arrayBufferBacked(data)));
    },
    equal: constantTimeEqual,
  };
}

/** Web Crypto refuses views over a SharedArrayBuffer; copy those (rare) into a plain ArrayBuffer. */
function arrayBufferBacked(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}
