// A webhook receiver whose behaviour the test changes over time: healthy, down (the listener
// is closed, so connections are refused, and later reopened on the SAME port), slow beyond
// the sender's timeout, 500s, redirects, 429 with Retry-After, 410 Gone. Every request is
// kept with its raw bytes, what was done with it and when, and how many requests were open
// at once. Loopback only. (The plain receiver of server/test/webhooks/support cannot go down
// and come back on its port, which is what "down for a while then back" needs.)
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const BEHAVIOURS = ['healthy', 'down', 'slow', 'error500', 'redirect', 'throttle429', 'gone410'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface Arrival {
  receiver: string;
  deliveryId: string;
  /** X-Service-Attempt. */
  attempt: number;
  body: Buffer;
  headers: IncomingHttpHeaders;
  arrivedAt: number;
  behaviour: Behaviour;
  /** Healthy or slow: the receiver took the delivery in (a slow answer may come too late). */
  accepted: boolean;
  /** The status written, or undefined when the connection went away before an answer. */
  answered?: number;
  answeredAt?: number;
  /** Requests of this delivery already open at the receiver when this one arrived. */
  concurrentSameDelivery: number;
}

export interface FaultyReceiverOptions {
  name: string;
  /** How long `slow` waits before answering 200 (make it longer than WEBHOOK_TIMEOUT_MS). */
  slowMs: number;
  /** Where `redirect` points (a server that must never be reached). */
  redirectTo: string;
  /** Retry-After sent with 429, in seconds. */
  retryAfterSeconds?: number;
  /** `healthy` answers 200 after this long (within the timeout: keeps requests in flight). */
  healthyDelayMs?: number;
}

export class FaultyReceiver {
  readonly arrivals: Arrival[] = [];
  behaviour: Behaviour = 'healthy';
  port = 0;
  /** Requests open at once (arrived, not yet answered or dropped), the most ever seen. */
  maxOpen = 0;
  downPhases = 0;
  private open = 0;
  private openByDelivery = new Map<string, number>();
  private server: Server | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly responses = new Set<ServerResponse>();

  constructor(readonly options: FaultyReceiverOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/${this.options.name}`;
  }

  get isDown(): boolean {
    return this.server === undefined;
  }

  async start(): Promise<void> {
    await this.listen(0);
  }

  /** Changes the behaviour; `down` closes the listener, leaving `down` reopens it on the same port. */
  async set(behaviour: Behaviour): Promise<void> {
    if (behaviour === 'down' && !this.isDown) {
      this.downPhases++;
      await this.closeListener();
    } else if (behaviour !== 'down' && this.isDown) {
      await this.listen(this.port);
    }
    this.behaviour = behaviour;
  }

  async close(): Promise<void> {
    await this.closeListener();
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req.headers, Buffer.concat(chunks), res));
    });
    // Reopening on the same port can race the kernel releasing it for a moment: retry briefly.
    for (let tries = 0; ; tries++) {
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
          });
        });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 50) throw error;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private async closeListener(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const res of this.responses) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse): void {
    const deliveryId = String(headers['x-service-delivery-id'] ?? '');
    const arrival: Arrival = {
      receiver: this.options.name,
      deliveryId,
      attempt: Number(headers['x-service-attempt']),
      body,
      headers,
      arrivedAt: Date.now(),
      behaviour: this.behaviour,
      accepted: this.behaviour === 'healthy' || this.behaviour === 'slow',
      concurrentSameDelivery: this.openByDelivery.get(deliveryId) ?? 0,
    };
    this.arrivals.push(arrival);
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    this.openByDelivery.set(deliveryId, (this.openByDelivery.get(deliveryId) ?? 0) + 1);
    this.responses.add(res);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.open--;
      const left = (this.openByDelivery.get(deliveryId) ?? 1) - 1;
      if (left === 0) this.openByDelivery.delete(deliveryId);
      else this.openByDelivery.set(deliveryId, left);
      this.responses.delete(res);
    };
    res.on('close', finish);
    const answer = (status: number, extra: Record<string, string> = {}) => {
      if (res.destroyed || res.headersSent) return;
      arrival.answered = status;
      arrival.answeredAt = Date.now();
      res.writeHead(status, extra);
      res.end();
    };
    const later = (ms: number, status: number) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        answer(status);
      }, ms);
      this.timers.add(timer);
    };
    switch (arrival.behaviour) {
      case 'healthy':
      case 'down': // cannot happen (the listener is closed), kept for exhaustiveness
        return this.options.healthyDelayMs ? later(this.options.healthyDelayMs, 200) : answer(200);
      case 'slow':
        return later(this.options.slowMs, 200);
      case 'error500':
        return answer(arrival.attempt % 2 ? 500 : 503);
      case 'redirect':
        return answer(arrival.attempt % 2 ? 302 : 307, { Location: this.options.redirectTo });
      case 'throttle429':
        return answer(429, { 'Retry-After': String(this.options.retryAfterSeconds ?? 1) });
      case 'gone410':
        return answer(410);
    }
  }
}
