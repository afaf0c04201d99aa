// The loopback receiver of the delivery benchmark: node:http, reads the raw body, verifies
// X-Service-Signature with @ofctx/verifier under the secret of the subscription its path
// names, and records when each delivery arrived and how long after its event was emitted.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '@ofctx/verifier';

export interface DeliveryReceiver {
  url: string;
  /** Secrets by path (`/hooks/3`), set once the subscriptions are registered. */
  secrets: Map<string, string>;
  /** Verified deliveries so far. */
  verified: number;
  failedVerification: number;
  duplicates: number;
  firstArrival: number;
  lastArrival: number;
  /** Milliseconds from emit (occurred_at) to arrival, for each verified delivery since reset(). */
  latencies: number[];
  reset(): void;
  waitFor(verified: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startDeliveryReceiver(): Promise<DeliveryReceiver> {
  const seen = new Set<string>();
  const state: DeliveryReceiver = {
    url: '',
    secrets: new Map(),
    verified: 0,
    failedVerification: 0,
    duplicates: 0,
    firstArrival: 0,
    lastArrival: 0,
    latencies: [],
    reset() {
      state.verified = 0;
      state.failedVerification = 0;
      state.duplicates = 0;
      state.firstArrival = 0;
      state.lastArrival = 0;
      state.latencies = [];
    },
    async waitFor(verified, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (state.verified < verified && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return state.verified >= verified;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = Date.now();
      const body = Buffer.concat(chunks);
      const secret = state.secrets.get(req.url ?? '');
      if (!secret || !verifySignature(body, req.headers['x-service-signature'], secret)) {
        state.failedVerification += 1;
        res.writeHead(401).end();
        return;
      }
      res.writeHead(204).end();
      const delivery = JSON.parse(body.toString('utf8')) as { delivery_id: string; occurred_at: string };
      if (seen.has(delivery.delivery_id)) {
        state.duplicates += 1;
        return;
      }
      seen.add(delivery.delivery_id);
      state.verified += 1;
      if (state.firstArrival === 0) state.firstArrival = now;
      state.lastArrival = now;
      state.latencies.push(now - Date.parse(delivery.occurred_at));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
