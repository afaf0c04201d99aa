// webhook-receiver: a partner's endpoint for ofctx webhooks, on node:http and
// @ofctx/verifier, nothing else.
//
//   OFCTX_SIGNING_SECRET=ofx_whs_... PORT=3000 npm run -s example:webhook-receiver
//
// Logs one line per request it decides on: `accepted <event type> ...`, `duplicate ...`,
// `rejected <status> <code>: ...`. SIGINT/SIGTERM stop it after the queue is processed.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeliveryDeduplicator, type EventDelivery } from '@ofctx/verifier';
import { DeliveryQueue } from './delivery-queue.js';
import { createReceiver, WEBHOOK_PATH } from './receiver.js';

const USAGE = `usage: OFCTX_SIGNING_SECRET=ofx_whs_... [PORT=3000] [HOST=...] webhook-receiver
OFCTX_SIGNING_SECRET may list two secrets separated by a comma while moving from one subscription to another.`;

const secrets = (process.env.OFCTX_SIGNING_SECRET ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const port = Number(process.env.PORT || 3000);
if (secrets.length === 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`webhook-receiver: ${secrets.length === 0 ? 'OFCTX_SIGNING_SECRET is not set' : `PORT must be a port number, got "${process.env.PORT}"`}\n${USAGE}`);
  process.exit(2);
}

const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
const acceptedByType = new Map<string, number>();

// What this receiver "does" with an event: log it. Yours would update its own records,
// reading the current state through the API (deliveries may arrive out of order).
const queue = new DeliveryQueue(
  (delivery: EventDelivery) => {
    acceptedByType.set(delivery.event_type, (acceptedByType.get(delivery.event_type) ?? 0) + 1);
    log(`accepted ${delivery.event_type} delivery=${delivery.delivery_id} event=${delivery.event_id} resident=${delivery.data.resident_id} occurred_at=${delivery.occurred_at}`);
  },
  (delivery, error) => log(`error processing delivery=${delivery.delivery_id}: ${(error as Error).message}`),
);

const server = createServer(
  createReceiver({
    secret: secrets.length === 1 ? secrets[0]! : secrets,
    // In memory: one process. Several processes, or surviving restarts, need a shared store (see @ofctx/verifier's README).
    deduplicator: createDeliveryDeduplicator(),
    accept: (delivery) => queue.push(delivery),
    log,
  }),
);
// Deliveries arrive on fresh connections and are tiny: a short header timeout sheds slow clients.
server.headersTimeout = 10_000;
server.requestTimeout = 15_000;

server.listen(port, process.env.HOST || undefined, () => {
  const { port: actual } = server.address() as AddressInfo;
  log(`webhook-receiver listening on http://localhost:${actual}${WEBHOOK_PATH}`);
});

const stop = async (signal: string) => {
  log(`${signal}: stopping`);
  server.close();
  server.closeIdleConnections();
  await queue.idle();
  const totals = [...acceptedByType].map(([type, count]) => `${type} ${count}`).join(', ');
  log(`accepted by event type: ${totals || 'none'}`);
  process.exit(0);
};
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
