// Several gauges filled from one database read: the first gauge's collect starts the read, the
// others of the same scrape share it, and the next scrape reads again. A read that fails gives
// undefined, so the gauges keep their last values and the scrape still succeeds (readiness
// reports a database outage, not the metrics).
export function readOncePerScrape<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let last: Promise<T | undefined> | undefined;
  return () => {
    last ??= read()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (last = undefined)));
    return last;
  };
}
