// Typed verification failures. Each has a stable `code` to branch on and an HTTP `status`
// to answer with (Express's and Koa's default error handlers use `status`): 401 for a bad
// signature, 400 for a bad body or header, 413 for an oversized body, and 500 for receiver
// misconfiguration, so that ofctx retries the delivery once the receiver is fixed.

export type WebhookVerificationErrorCode =
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'body_not_raw'
  | 'payload_too_large'
  | 'invalid_json'
  | 'invalid_envelope'
  | 'header_mismatch'
  | 'invalid_timestamp'
  | 'timestamp_outside_tolerance';

/** Every verification failure. Programmer errors (no secret, bad options) are TypeErrors instead. */
export class WebhookVerificationError extends Error {
  override readonly name: string = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;
  /** The HTTP status a receiver should answer with. */
  readonly status: number;

  constructor(code: WebhookVerificationErrorCode, status: number, message: string) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** No X-Service-Signature header (or an empty one). */
export class MissingSignatureError extends WebhookVerificationError {
  override readonly name = 'MissingSignatureError';
  constructor(message = 'The X-Service-Signature header is missing.') {
    super('missing_signature', 401, message);
  }
}

/** X-Service-Signature is not 64 hex characters, or was sent more than once. */
export class MalformedSignatureError extends WebhookVerificationError {
  override readonly name = 'MalformedSignatureError';
  constructor(message: string) {
    super('malformed_signature', 401, message);
  }
}

/** The signature is well formed but is not the HMAC of these bytes under this secret. */
export class SignatureMismatchError extends WebhookVerificationError {
  override readonly name = 'SignatureMismatchError';
  /** Likely causes, most specific first (re-serialized body, secret without its prefix...). */
  readonly hints: readonly string[];

  constructor(hints: readonly string[]) {
    super(
      'signature_mismatch',
      401,
      ['X-Service-Signature does not match the HMAC-SHA256 of the body under the given secret.', ...hints].join(' '),
    );
    this.hints = hints;
  }
}

/** The verifier was handed something other than the raw request bytes: a receiver bug. */
export class BodyNotRawError extends WebhookVerificationError {
  override readonly name = 'BodyNotRawError';
  constructor(message: string) {
    super('body_not_raw', 500, message);
  }
}

/** The body is larger than the configured limit. */
export class PayloadTooLargeError extends WebhookVerificationError {
  override readonly name = 'PayloadTooLargeError';
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super('payload_too_large', 413, `The request body exceeds the ${limitBytes}-byte limit (option limitBytes).`);
    this.limitBytes = limitBytes;
  }
}

/** Correctly signed, but not UTF-8 JSON. */
export class InvalidJsonError extends WebhookVerificationError {
  override readonly name = 'InvalidJsonError';
  constructor(message: string) {
    super('invalid_json', 400, message);
  }
}

/** Correctly signed JSON that is not a v1 delivery envelope. */
export class InvalidEnvelopeError extends WebhookVerificationError {
  override readonly name = 'InvalidEnvelopeError';
  /** One entry per problem, such as `data.org_id must be a UUID`. */
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super('invalid_envelope', 400, `The body is not a valid delivery envelope: ${problems.join('; ')}.`);
    this.problems = problems;
  }
}

/** X-Service-Delivery-Id or X-Service-Event-Type is missing or differs from the signed body. */
export class HeaderMismatchError extends WebhookVerificationError {
  override readonly name = 'HeaderMismatchError';
  readonly header: string;
  constructor(header: string, message: string) {
    super('header_mismatch', 400, message);
    this.header = header;
  }
}

/** Tolerance checking is on and X-Service-Timestamp is missing or not unix seconds. */
export class InvalidTimestampError extends WebhookVerificationError {
  override readonly name = 'InvalidTimestampError';
  constructor(message: string) {
    super('invalid_timestamp', 400, message);
  }
}

/** X-Service-Timestamp is further from now than `toleranceSeconds`. */
export class TimestampOutsideToleranceError extends WebhookVerificationError {
  override readonly name = 'TimestampOutsideToleranceError';
  /** The attempt's X-Service-Timestamp, unix seconds. */
  readonly timestamp: number;
  /** The receiver's clock when checked, unix seconds. */
  readonly now: number;
  constructor(timestamp: number, now: number, toleranceSeconds: number, headerName = 'X-Service-Timestamp') {
    const skew = now - timestamp;
    super(
      'timestamp_outside_tolerance',
      400,
      `${headerName} ${timestamp} is ${Math.abs(skew)} s in the ${skew >= 0 ? 'past' : 'future'}, ` +
        `outside the ${toleranceSeconds} s tolerance. Every retry carries a fresh timestamp, so a stale one means a ` +
        `replayed or long-delayed request, or a wrong clock on this host (check NTP).`,
    );
    this.timestamp = timestamp;
    this.now = now;
  }
}
