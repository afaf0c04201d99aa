// How many exchanges one clearinghouse connection has under way in this instance, against its
// `--concurrency`: CORE expects no hammering, and a clearinghouse's account has a limit of its
// own. A check waits here for a slot (its lease is renewed when it gets one).
export class ConnectionSlots {
  private readonly busy = new Map<string, { active: number; waiting: Array<() => void> }>();

  async acquire(connectionId: string, limit: number): Promise<void> {
    const entry = this.busy.get(connectionId) ?? { active: 0, waiting: [] };
    this.busy.set(connectionId, entry);
    if (entry.active < limit) {
      entry.active++;
      return;
    }
    await new Promise<void>((resolve) => entry.waiting.push(resolve));
  }

  release(connectionId: string): void {
    const entry = this.busy.get(connectionId);
    if (!entry) return;
    const next = entry.waiting.shift();
    // The slot passes straight to the next waiter; otherwise it is freed.
    if (next) next();
    else if (--entry.active === 0) this.busy.delete(connectionId);
  }

  /** Exchanges under way or waiting, all connections together. */
  get size(): number {
    let n = 0;
    for (const entry of this.busy.values()) n += entry.active + entry.waiting.length;
    return n;
  }
}
