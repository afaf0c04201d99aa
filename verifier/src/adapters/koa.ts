// Koa has no body parser of its own: read ctx.req directly, or use the raw text a parser kept
// (koa-body with includeUnparsed: true, @koa/bodyparser: ctx.request.rawBody). Typed
// structurally: no runtime or type dependency on koa.
import type { EventDelivery } from '../delivery-envelope.js';
import { BodyNotRawError } from '../errors.js';
import type { SigningSecret } from '../signing-secret.js';
import { verifyDeliveryAsync } from '../verify-delivery.js';
import { readRawBody, type NodeRequestLike, type VerifyRequestOptions } from './node-request.js';

/** Enough of a Koa context. */
export interface KoaContextLike {
  readonly req: NodeRequestLike;
  readonly request: { readonly body?: unknown; readonly rawBody?: unknown };
}

/** Where koaWebhookMiddleware leaves the verified delivery: `ctx.state.ofctxDelivery`. */
export const KOA_DELIVERY_STATE = 'ofctxDelivery';

// Older koa-body versions kept the raw text under this symbol on the parsed body.
const KOA_BODY_UNPARSED = Symbol.for('unparsedBody');

export async function verifyKoaRequest(ctx: KoaContextLike, secret: SigningSecret, options: VerifyRequestOptions = {}): Promise<EventDelivery> {
  return verifyDeliveryAsync(await koaRawBody(ctx, options), ctx.req.headers, secret, options);
}

/**
 * Middleware that verifies the delivery and stores it in `ctx.state.ofctxDelivery`. A failure
 * is thrown as a WebhookVerificationError, whose `status` Koa answers with.
 */
export function koaWebhookMiddleware(
  secret: SigningSecret,
  options: VerifyRequestOptions = {},
): (ctx: KoaContextLike & { state: object }, next: () => Promise<unknown>) => Promise<void> {
  return async (ctx, next) => {
    (ctx.state as Record<string, unknown>)[KOA_DELIVERY_STATE] = await verifyKoaRequest(ctx, secret, options);
    await next();
  };
}

async function koaRawBody(ctx: KoaContextLike, options: VerifyRequestOptions): Promise<string | Uint8Array> {
  const { body, rawBody } = ctx.request;
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) return rawBody;
  const unparsed = typeof body === 'object' && body !== null ? (body as Record<symbol, unknown>)[KOA_BODY_UNPARSED] : undefined;
  if (typeof unparsed === 'string' || unparsed instanceof Uint8Array) return unparsed;
  if (body !== undefined || ctx.req.readableEnded) {
    throw new BodyNotRawError(
      'A body parser already consumed the request without keeping the raw text. Mount the verifier before the parser, ' +
        'or keep the raw body: koa-body({ includeUnparsed: true }) or @koa/bodyparser (both set ctx.request.rawBody).',
    );
  }
  return readRawBody(ctx.req, options);
}
