// What #node-crypto resolves to outside the `node` export condition (edge workers, browsers).
import type { SyncHmacEngine } from './hmac-engine.js';

export const nodeHmacEngine: SyncHmacEngine | undefined = undefined;
export const nodeSubtleCrypto: SubtleCrypto | undefined = undefined;
