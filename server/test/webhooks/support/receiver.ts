// A real webhook receiver for tests: node:http on 127.0.0.1, port 0. It keeps every
// request's raw body bytes and headers, and answers what the test tells it to.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  /** The raw body bytes, exactly as received. */
  body: Buffer;
  headers: IncomingHttpHeaders;
  path: string;
  receivedAt: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
}

/** Decides the answer to the n-th request (0-based) this receiver gets. */
export type Responder = (request: ReceivedDelivery, index: number) => Answer;

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  respond(responder: Responder): void;
  /** Requests carrying this delivery id, in arrival order. */
  deliveriesOf(deliveryId: string): ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startReceiver(responder: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  let answer = responder;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery: ReceivedDelivery = { body: Buffer.concat(chunks), headers: req.headers, path: req.url ?? '', receivedAt: Date.now() };
      const index = received.push(delivery) - 1;
      const { status, headers, delayMs } = answer(delivery, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(status, headers);
        res.end();
      };
      if (!delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/ofctx`,
    port,
    received,
    respond(next) {
      answer = next;
    },
    deliveriesOf: (id) => received.filter((r) => r.headers['x-service-delivery-id'] === id),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls until the condition holds; fails with `what` after the deadline. No fixed sleeps. */
export async function waitFor<T>(what: string, condition: () => T | Promise<T>, timeoutMs = 10_000, everyMs = 10): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
