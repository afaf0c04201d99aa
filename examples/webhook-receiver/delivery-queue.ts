// Work done AFTER the 2xx answer. ofctx counts only a 2xx within 15 seconds, and a slow
// answer causes a retry, so the request handler only verifies, de-duplicates and queues;
// this queue does the processing afterwards. It is in memory to keep the example small: a
// production receiver would put the delivery in a durable queue (a table, SQS, Redis...)
// before answering, so that a crash after the answer loses nothing.
import type { EventDelivery } from '@ofctx/verifier';

export type DeliveryProcessor = (delivery: EventDelivery) => Promise<void> | void;

export class DeliveryQueue {
  private readonly waiting: EventDelivery[] = [];
  private draining: Promise<void> | undefined;

  constructor(
    private readonly process: DeliveryProcessor,
    private readonly onError: (delivery: EventDelivery, error: unknown) => void,
  ) {}

  push(delivery: EventDelivery): void {
    this.waiting.push(delivery);
    // setImmediate: the answer is written before any processing starts.
    this.draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  /** Resolves once everything queued so far has been processed (used at shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      for (let delivery = this.waiting.shift(); delivery; delivery = this.waiting.shift()) {
        try {
          await this.process(delivery);
        } catch (error) {
          this.onError(delivery, error);
        }
      }
    } finally {
      this.draining = undefined;
    }
  }
}
