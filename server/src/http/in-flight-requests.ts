// The requests being handled, so that stopping waits for them. server.close() waits for
// connections, not for handlers: a client that hangs up mid-request (a partner's timeout, a
// load generator stopping) leaves its handler running, and the database closed under it
// ended that request in an "unexpected error" logged at every stop under load, its audit row
// unwritten. The service's close waits for the count to reach zero before the database goes.
export class InFlightRequests {
  private count = 0;
  private waiting: Array<() => void> = [];

  /** A request arrived (http/request-frame.ts counts it until its handler ends). */
  enter(): void {
    this.count++;
  }

  /** Its handler ended, answered or failed. */
  leave(): void {
    this.count--;
    if (this.count === 0) for (const resolve of this.waiting.splice(0)) resolve();
  }

  get size(): number {
    return this.count;
  }

  /** Resolves once no request is being handled. */
  drained(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}
