// A partner's webhook receiver as the end-to-end tests need it: node:http on loopback, every
// request checked with @ofctx/verifier (verifyNodeRequest) against the subscription's secret,
// accepted deliveries kept in order, refusals kept for the test to assert there were none.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyNodeRequest, type EventDelivery } from '@ofctx/verifier';

export interface VerifyingReceiver {
  /** Where deliveries are posted: http://127.0.0.1:<port>/hooks */
  url: string;
  /** The signing secret to verify with, known once the subscription is registered. */
  secret: string;
  accepted: EventDelivery[];
  refused: unknown[];
  /** While set, every request is answered with this status (an endpoint that is down) and not verified. */
  failWith: number | undefined;
  /** Requests answered with failWith. */
  failed: number;
  close(): void;
}

export async function startVerifyingReceiver(): Promise<VerifyingReceiver> {
  const receiver: VerifyingReceiver = { url: '', secret: '', accepted: [], refused: [], failWith: undefined, failed: 0, close: () => server.close() };
  const server = createServer(async (req, res) => {
    if (receiver.failWith !== undefined) {
      receiver.failed++;
      req.resume();
      res.writeHead(receiver.failWith).end();
      return;
    }
    try {
      receiver.accepted.push(await verifyNodeRequest(req, receiver.secret));
      res.writeHead(204).end();
    } catch (error) {
      receiver.refused.push(error);
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
