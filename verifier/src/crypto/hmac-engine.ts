// The two HMAC-SHA256 implementations behind one shape, and how one is picked. node:crypto is
// synchronous and present on Node, Deno and Bun; Web Crypto (crypto.subtle) is everywhere else
// (edge workers, browsers) but only asynchronous, hence a sync and an async engine type.
import { nodeHmacEngine, nodeSubtleCrypto } from '#node-crypto';
import { webHmacEngine } from './web-hmac.js';

/** Which HMAC implementation the async API uses. `auto`: node:crypto when present, else Web Crypto. */
export type CryptoImplementation = 'auto' | 'node' | 'web';

export interface CryptoOptions {
  /** Force an implementation (tests, or to rule one out). Default `auto`. */
  crypto?: CryptoImplementation;
}

export interface SyncHmacEngine {
  readonly name: 'node';
  hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array;
  /** Constant-time comparison of two equal-length byte arrays. */
  equal(a: Uint8Array, b: Uint8Array): boolean;
}

export interface AsyncHmacEngine {
  readonly name: 'node' | 'web';
  hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array>;
  /** Constant-time comparison of two equal-length byte arrays. */
  equal(a: Uint8Array, b: Uint8Array): boolean;
}

/** The node:crypto engine, or a clear error pointing at the async API where it is missing. */
export function syncHmacEngine(): SyncHmacEngine {
  return requiredNodeEngine(nodeHmacEngine);
}

export function asyncHmacEngine(choice: CryptoImplementation = 'auto'): AsyncHmacEngine {
  return selectAsyncHmacEngine(choice, nodeHmacEngine, globalThis.crypto?.subtle ?? nodeSubtleCrypto);
}

/** The choice among what this runtime has (separate from the module lookups, for tests). */
export function selectAsyncHmacEngine(
  choice: CryptoImplementation,
  nodeEngine: SyncHmacEngine | undefined,
  subtle: SubtleCrypto | undefined,
): AsyncHmacEngine {
  if (choice !== 'auto' && choice !== 'node' && choice !== 'web') {
    throw new TypeError(`crypto must be 'auto', 'node' or 'web', got ${JSON.stringify(choice)}.`);
  }
  if (choice === 'node' || (choice === 'auto' && nodeEngine)) return promisified(requiredNodeEngine(nodeEngine));
  if (!subtle) throw new Error('Web Crypto (crypto.subtle) is not available in this runtime.');
  return webHmacEngine(subtle);
}

function requiredNodeEngine(engine: SyncHmacEngine | undefined): SyncHmacEngine {
  if (engine) return engine;
  throw new Error(
    'node:crypto is not available in this runtime, and the synchronous API (sign, verifySignature, verifyDelivery, ' +
      "verifyExpressRequest) needs it. Use signAsync, verifySignatureAsync or verifyDeliveryAsync, which fall back to Web Crypto.",
  );
}

function promisified(engine: SyncHmacEngine): AsyncHmacEngine {
  return {
    name: engine.name,
    hmacSha256: async (key, data) => engine.hmacSha256(key, data),
    equal: engine.equal,
  };
}
