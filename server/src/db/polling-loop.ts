// The loop a background worker runs over a shared table: one cycle at a time, again after
// pollIntervalMs, and at once when woken (a kick-off in this process, a check made due). Wakes
// that arrive during a cycle coalesce into one more cycle right after it, so nothing woken
// for waits a whole interval, and a burst of wakes costs one cycle.
export class PollingLoop {
  private running = false;
  private cycling: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  /** @param cycle one pass over the work; it handles its own errors (a rejection is ignored). */
  constructor(
    private readonly cycle: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    this.running = true;
    this.wake();
  }

  /** Run a cycle now; concurrent calls coalesce. */
  wake(): void {
    if (!this.running) return;
    if (this.cycling) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.cycling = this.cycle()
      .catch(() => undefined)
      .finally(() => {
        this.cycling = undefined;
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), this.intervalMs);
        this.timer.unref();
      });
  }

  /** No cycle starts after this; resolves when the one under way has ended. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.cycling;
  }
}
