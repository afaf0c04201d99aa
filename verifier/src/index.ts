// @ofctx/verifier: verify ofctx webhook deliveries (X-Service-Signature, HMAC-SHA256 of the
// raw body, or the Standard Webhooks webhook-signature; one secret or several). Synchronous functions need node:crypto (Node, Deno, Bun); the *Async ones and the
// Fetch adapter run anywhere, falling back to Web Crypto.
export { sign, signAsync } from './sign.js';
export { verifySignature, verifySignatureAsync } from './verify-signature.js';
export { verifyDelivery, verifyDeliveryAsync, type VerifyDeliveryOptions, type VerifyDeliveryAsyncOptions } from './verify-delivery.js';
export type { TimestampToleranceOptions } from './timestamp-tolerance.js';
export type { CryptoImplementation, CryptoOptions } from './crypto/hmac-engine.js';
export type { RawBody } from './raw-body.js';
export { SECRET_PREFIX, STANDARD_WEBHOOKS_PREFIX, type SigningSecret } from './signing-secret.js';
export { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from './standard-webhooks-signature.js';
export { EVENT_TYPES, type EventDelivery, type EventType } from './delivery-envelope.js';
export {
  ATTEMPT_HEADER,
  DELIVERY_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type HeaderValue,
  type HeadersGetter,
  type HeadersInput,
} from './delivery-headers.js';
export {
  BodyNotRawError,
  HeaderMismatchError,
  InvalidEnvelopeError,
  InvalidJsonError,
  InvalidTimestampError,
  MalformedSignatureError,
  MissingSignatureError,
  PayloadTooLargeError,
  SignatureMismatchError,
  TimestampOutsideToleranceError,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './errors.js';
export { createDeliveryDeduplicator, type DeliveryDeduplicator, type DeliveryDeduplicatorOptions } from './delivery-deduplicator.js';
export type { DeduplicationStore } from './deduplication-store.js';
export { createMemoryDeduplicationStore, type MemoryDeduplicationStoreOptions } from './memory-deduplication-store.js';
export {
  DEFAULT_LIMIT_BYTES,
  readRawBody,
  verifyNodeRequest,
  type NodeRequestLike,
  type RawBodyLimitOptions,
  type VerifyRequestOptions,
} from './adapters/node-request.js';
export { EXPRESS_DELIVERY_LOCAL, expressWebhookMiddleware, verifyExpressRequest, type ExpressRequestLike } from './adapters/express.js';
export { KOA_DELIVERY_STATE, koaWebhookMiddleware, verifyKoaRequest, type KoaContextLike } from './adapters/koa.js';
export { verifyFetchRequest, type FetchRequestLike } from './adapters/fetch-request.js';
