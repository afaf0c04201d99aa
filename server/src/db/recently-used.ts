// A bounded cache that keeps what was used last: prepared statements whose SQL varies with the
// request (searches, insert batches), so a hot text is prepared once and a stream of distinct
// texts cannot grow it without bound. A Map's insertion order is the recency order.

/** The value of `key`, made by `make` when absent; at most `limit` entries, the least recently used dropped first. */
export function recentlyUsed<K, V>(cache: Map<K, V>, key: K, limit: number, make: () => V): V {
  let value = cache.get(key);
  if (value !== undefined) cache.delete(key);
  else {
    value = make();
    if (cache.size >= limit) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, value);
  return value;
}
