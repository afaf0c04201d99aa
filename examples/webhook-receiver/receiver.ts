// The webhook endpoint: POST /hooks/ofctx. It verifies X-Service-Signature over the RAW
// body bytes (verifyNodeRequest reads the stream itself, so nothing may parse the body
// first), drops repeats by delivery id, queues the delivery and answers 204 at once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyNodeRequest, WebhookVerificationError, type DeliveryDeduplicator, type EventDelivery, type SigningSecret } from '@ofctx/verifier';

export const WEBHOOK_PATH = '/hooks/ofctx';

/**
 * Attempts whose X-Service-Timestamp is further than this from our clock are refused. The
 * timestamp is not signed, so this drops stale attempts rather than replays; replays are
 * stopped by the de-duplication (a replayed body carries a delivery_id already seen).
 */
const TIMESTAMP_TOLERANCE_SECONDS = 300;

export interface ReceiverOptions {
  /** The subscription's signing secret, or several while moving from one subscription to another. */
  secret: SigningSecret;
  deduplicator: DeliveryDeduplicator;
  /** Called with each new, verified delivery, after which the answer is sent. Must not throw. */
  accept(delivery: EventDelivery): void;
  log(line: string): void;
}

export function createReceiver(options: ReceiverOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const answer = (res: ServerResponse, status: number, headers: Record<string, string> = {}) => res.writeHead(status, headers).end();

  return async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== WEBHOOK_PATH) return answer(res, 404);
    if (req.method !== 'POST') return answer(res, 405, { Allow: 'POST' });

    let delivery: EventDelivery;
    try {
      delivery = await verifyNodeRequest(req, options.secret, { toleranceSeconds: TIMESTAMP_TOLERANCE_SECONDS });
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        // The reason goes to our log, not to the caller: it would help a forger.
        options.log(`rejected ${error.status} ${error.code}: ${error.message}`);
        return answer(res, error.status);
      }
      options.log(`error ${(error as Error).message}`);
      return answer(res, 500);
    }

    // Verified: the delivery id is the signed body's, safe to de-duplicate on.
    if (!(await options.deduplicator.markIfNew(delivery.delivery_id))) {
      // A repeat still gets a 2xx, or ofctx would keep retrying it.
      options.log(`duplicate ${delivery.event_type} delivery=${delivery.delivery_id} (already accepted)`);
      return answer(res, 200);
    }
    try {
      options.accept(delivery);
    } catch (error) {
      // Not queued: forget the id so that ofctx's retry is processed, and ask for that retry.
      await options.deduplicator.forget(delivery.delivery_id);
      options.log(`error queueing delivery=${delivery.delivery_id}: ${(error as Error).message}`);
      return answer(res, 503);
    }
    answer(res, 204);
  };
}
