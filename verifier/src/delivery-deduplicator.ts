// Delivery is at least once: a delivery whose 2xx answer was lost is sent again with the same
// delivery_id. Recording each id on arrival lets a receiver skip the repeats.
import type { DeduplicationStore } from './deduplication-store.js';
import { createMemoryDeduplicationStore, type MemoryDeduplicationStoreOptions } from './memory-deduplication-store.js';

/** ofctx retries for about 27 hours after the first attempt; keep ids well past that. */
const DEFAULT_TTL_MS = 72 * 60 * 60 * 1000;

export interface DeliveryDeduplicatorOptions extends MemoryDeduplicationStoreOptions {
  /** How long an id is remembered. Default 72 hours, beyond ofctx's whole retry schedule. */
  ttlMs?: number;
  /** Shared storage (Redis, a database). Default: in memory, sized by maxEntries. */
  store?: DeduplicationStore;
  /** Prepended to every id in the store, to share one Redis with other data. Default `ofctx:delivery:`. */
  keyPrefix?: string;
}

export interface DeliveryDeduplicator {
  /** True the first time an id is seen (and records it); false for a repeat within ttlMs. */
  markIfNew(deliveryId: string): Promise<boolean>;
  /** Forgets an id: call it when processing a new delivery failed, so that its retry is processed. */
  forget(deliveryId: string): Promise<void>;
}

export function createDeliveryDeduplicator(options: DeliveryDeduplicatorOptions = {}): DeliveryDeduplicator {
  const { ttlMs = DEFAULT_TTL_MS, keyPrefix = 'ofctx:delivery:' } = options;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new TypeError(`ttlMs must be a number > 0, got ${ttlMs}.`);
  const store = options.store ?? createMemoryDeduplicationStore(options);
  return {
    async markIfNew(deliveryId) {
      return store.addIfAbsent(keyPrefix + checkedId(deliveryId), ttlMs);
    },
    async forget(deliveryId) {
      await store.delete(keyPrefix + checkedId(deliveryId));
    },
  };
}

function checkedId(deliveryId: unknown): string {
  if (typeof deliveryId === 'string' && deliveryId !== '') return deliveryId.toLowerCase();
  throw new TypeError('deliveryId must be a non-empty string: the verified delivery_id.');
}
