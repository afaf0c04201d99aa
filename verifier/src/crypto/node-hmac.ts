// HMAC through node:crypto. Loaded only under the `node` export condition (package.json
// "imports" → #node-crypto), so bundles for workers and browsers never see node:crypto.
import { createHmac, timingSafeEqual, webcrypto } from 'node:crypto';
import type { SyncHmacEngine } from './hmac-engine.js';

export const nodeHmacEngine: SyncHmacEngine | undefined = {
  name: 'node',
  hmacSha256: (key, data) => createHmac('sha256', key).update(data).digest(),
  equal: (a, b) => a.length === b.length && timingSafeEqual(a, b),
};

/** Node 18 has Web Crypto here but not yet on globalThis. */
export const nodeSubtleCrypto: SubtleCrypto | undefined = webcrypto.subtle as SubtleCrypto;
