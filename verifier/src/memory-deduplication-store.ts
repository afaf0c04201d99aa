// An in-process DeduplicationStore: a Map kept in insertion order, whose oldest entries are
// dropped when they expire or when the map is full. Fine for one process; several processes
// or restarts need a shared store (Redis, a database): see DeduplicationStore.
import type { DeduplicationStore } from './deduplication-store.js';

export interface MemoryDeduplicationStoreOptions {
  /** Keys kept at most; the oldest go first. Default 100 000 (a few MB). */
  maxEntries?: number;
  /** The clock, in milliseconds since the epoch. Defaults to Date.now. */
  now?: () => number;
}

export function createMemoryDeduplicationStore(options: MemoryDeduplicationStoreOptions = {}): DeduplicationStore {
  const { maxEntries = 100_000, now = Date.now } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError(`maxEntries must be an integer >= 1, got ${maxEntries}.`);
  const expiries = new Map<string, number>();

  function dropExpired(at: number): void {
    // Insertion order is expiry order while every key gets the same ttl; a key with a longer
    // ttl behind a shorter one only delays the shorter one's removal, never the correctness.
    for (const [key, expiresAt] of expiries) {
      if (expiresAt > at) break;
      expiries.delete(key);
    }
  }

  return {
    addIfAbsent(key, ttlMs) {
      const at = now();
      dropExpired(at);
      const expiresAt = expiries.get(key);
      if (expiresAt !== undefined && expiresAt > at) return false;
      expiries.delete(key);
      expiries.set(key, at + ttlMs);
      while (expiries.size > maxEntries) expiries.delete(expiries.keys().next().value as string);
      return true;
    },
    delete(key) {
      expiries.delete(key);
    },
  };
}
