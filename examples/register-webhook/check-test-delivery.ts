// Checks the API's signed test delivery the way a receiver will check real ones: with
// @ofctx/verifier, over the exact body string the API returned (its UTF-8 bytes are what
// was signed), with the headers a real delivery carries. If this passes, a receiver
// configured with the same secret accepts real deliveries too.
import type { TestDelivery } from '@ofctx/sdk';
import { verifyDelivery, type EventDelivery } from '@ofctx/verifier';

export function checkTestDelivery(delivery: TestDelivery, signingSecret: string): EventDelivery {
  // Throws a WebhookVerificationError (with a code and hints) if anything does not match.
  return verifyDelivery(delivery.body, delivery.headers, signingSecret);
}
