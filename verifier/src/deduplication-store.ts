// Where a deduplicator records the deliveries it has seen. Implement it over Redis or a
// database when several processes receive deliveries, or seen ids must survive a restart.

export interface DeduplicationStore {
  /**
   * Records `key` for `ttlMs` unless it is already recorded and unexpired; answers true when
   * it recorded it now. Must be atomic: Redis `SET key 1 NX PX ttlMs` (true when it answers OK),
   * SQL `INSERT ... ON CONFLICT DO NOTHING` (true when a row was inserted).
   */
  addIfAbsent(key: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets `key`, so that the next attempt of that delivery is processed again. */
  delete(key: string): void | Promise<void>;
}
