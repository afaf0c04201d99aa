// Express: mount express.raw({ type: 'application/json' }) on the webhook route so req.body
// is the raw Buffer, then verify it. Typed structurally: no runtime or type dependency on express.
import type { EventDelivery } from '../delivery-envelope.js';
import { BodyNotRawError } from '../errors.js';
import type { SigningSecret } from '../signing-secret.js';
import { verifyDelivery, type VerifyDeliveryOptions } from '../verify-delivery.js';

/** Enough of an Express request. */
export interface ExpressRequestLike {
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
  readonly body?: unknown;
}

/** Where expressWebhookMiddleware leaves the verified delivery: `res.locals.ofctxDelivery`. */
export const EXPRESS_DELIVERY_LOCAL = 'ofctxDelivery';

/** Verifies req.body (a Buffer from express.raw, or a string from express.text). Needs node:crypto. */
export function verifyExpressRequest(req: ExpressRequestLike, secret: SigningSecret, options: VerifyDeliveryOptions = {}): EventDelivery {
  const body = req.body;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) throw new BodyNotRawError(notRawMessage(req));
  return verifyDelivery(body, req.headers, secret, options);
}

/**
 * Middleware that verifies the delivery and stores it in `res.locals.ofctxDelivery`, or passes
 * the WebhookVerificationError to `next` (its `status` is the answer Express will send).
 * Mount it after express.raw({ type: 'application/json' }).
 */
export function expressWebhookMiddleware(
  secret: SigningSecret,
  options: VerifyDeliveryOptions = {},
): (req: ExpressRequestLike, res: { locals: Record<string, unknown> }, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    let delivery: EventDelivery;
    try {
      delivery = verifyExpressRequest(req, secret, options);
    } catch (error) {
      next(error);
      return;
    }
    res.locals[EXPRESS_DELIVERY_LOCAL] = delivery;
    next();
  };
}

function notRawMessage(req: ExpressRequestLike): string {
  if (req.body === undefined) {
    const contentType = req.headers['content-type'];
    return (
      "req.body is undefined: no raw body parser ran. Mount express.raw({ type: 'application/json' }) on the webhook " +
      `route before the verifier (this request's Content-Type: ${JSON.stringify(contentType ?? null)}).`
    );
  }
  return (
    'req.body is already parsed JSON (express.json() or another parser ran first), and re-serializing it cannot ' +
    "reproduce the signed bytes. Mount express.raw({ type: 'application/json' }) on the webhook route and register " +
    'that route before any app-wide express.json().'
  );
}
