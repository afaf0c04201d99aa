// The requests being handled, so that stopping waits for them. server.close() waits for
// connections, not for handlers: a client that hangs up mid-request (a partner's timeout, a
// load generator stopping) leaves its handler running, and the database closed under it
// ended that request in an "unexpected error" logged at every stop under load, its audit row
// unwritten. The service's close waits for the count to reach zero before the database goes.
import type { Middleware } from 'koa';

export class InFlightRequests {
  private count = 0;
  private waiting: Array<() => void> = [];

  /** The outermost middleware: counts a request from its arrival to its handler's end. */
  middleware(): Middleware {
    return async (_ctx, next) => {
      this.count++;
      try {
        await next();
      } finally {
        this.count--;
        if (this.count === 0) for (const resolve of this.waiting.splice(0)) resolve();
      }
    };
  }

  get size(): number {
    return this.count;
  }

  /** Resolves once no request is being handled. */
  drained(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}
