// A partner's webhook receiver for the instance-churn world: every request is verified with
// @ofctx/verifier (verifyDelivery over the raw bytes, against the subscription's secret) and
// kept as the webhook accounting (webhooks/support/accounting.ts) reads arrivals. It may be
// slow (answers after delayMs, requests stay in flight while instances die) or failing (the
// first attempt of every third delivery answered 503, so it is retried, possibly by another
// instance than the one that tried first).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyDelivery } from '@ofctx/verifier';
import type { ArrivalLike } from '../webhooks/support/accounting.js';

export interface ChurnReceiverOptions {
  name: string;
  delayMs?: number;
  /** Answer 503 to attempt 1 of every third delivery (by its id). */
  failFirstAttempts?: boolean;
}

export class ChurnReceiver {
  readonly arrivals: ArrivalLike[] = [];
  /** Requests the verifier refused (must stay empty). */
  readonly refused: string[] = [];
  /** 503s answered on purpose. */
  failed = 0;
  secret = '';
  private server: Server | undefined;
  private readonly openByDelivery = new Map<string, number>();

  constructor(readonly options: ChurnReceiverOptions) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks/${this.options.name}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const deliveryId = String(req.headers['x-service-delivery-id'] ?? '');
        const attempt = Number(req.headers['x-service-attempt'] ?? 0);
        const open = this.openByDelivery.get(deliveryId) ?? 0;
        const arrival: ArrivalLike = { deliveryId, attempt, body, headers: req.headers, arrivedAt: Date.now(), concurrentSameDelivery: open, accepted: false };
        this.arrivals.push(arrival);
        this.openByDelivery.set(deliveryId, open + 1);
        const done = () => {
          const left = (this.openByDelivery.get(deliveryId) ?? 1) - 1;
          if (left <= 0) this.openByDelivery.delete(deliveryId);
          else this.openByDelivery.set(deliveryId, left);
        };
        res.once('finish', () => {
          arrival.answered = res.statusCode;
          done();
        });
        res.once('close', () => {
          if (!res.writableFinished) done();
        });
        if (this.options.failFirstAttempts && attempt === 1 && parseInt(deliveryId.replace(/-/g, '').slice(-4), 16) % 3 === 0) {
          this.failed++;
          res.writeHead(503, { 'retry-after': '0' }).end();
          return;
        }
        try {
          verifyDelivery(body, req.headers, this.secret);
        } catch (error) {
          this.refused.push(`${deliveryId} attempt ${attempt}: ${(error as Error).message}`);
          res.writeHead(400).end();
          return;
        }
        arrival.accepted = true;
        const answer = () => {
          if (!res.destroyed) res.writeHead(204).end();
        };
        if (this.options.delayMs) setTimeout(answer, this.options.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
