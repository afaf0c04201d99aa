// Typed errors, one class per kind of failure, all extending OfctxError (as stripe-node
// does), and the functions that turn an HTTP answer into the right one.
import type { ApiErrorBody, ApiErrorCode, ErrorDetail, OAuthErrorBody, OAuthErrorCode } from './contract-types.js';
import { parseRetryAfter } from './retry.js';

/** Codes the SDK itself gives to failures that have no API code. */
export type SdkErrorCode = 'connection_error' | 'timeout' | 'request_aborted' | 'unexpected_response';

/**
 * A machine code: the API's `error.code`, the token endpoint's `error`, or one of the SDK's.
 * The API may add codes (its contract says so), hence the open `string` end.
 */
export type ErrorCode = ApiErrorCode | OAuthErrorCode | SdkErrorCode | (string & {});

export interface OfctxErrorInit {
  message: string;
  code: ErrorCode;
  status?: number | undefined;
  requestId?: string | undefined;
  details?: ErrorDetail[] | undefined;
  raw?: unknown;
  headers?: Headers | undefined;
  cause?: unknown;
}

/** Every error the SDK raises about a request is an OfctxError. */
export class OfctxError extends Error {
  override readonly name: string = 'OfctxError';
  /** HTTP status, or undefined when no answer arrived. */
  readonly status: number | undefined;
  readonly code: ErrorCode;
  /** The API's request id (`error.request_id` or `X-Request-Id`): quote it to support. */
  readonly requestId: string | undefined;
  /** Per-field problems, such as `{ field: 'query.page_size', issue: 'must be <= 200' }`. */
  readonly details: ErrorDetail[];
  /** The parsed answer body (or its text when it was not JSON). */
  readonly raw: unknown;
  readonly headers: Headers | undefined;

  constructor(init: OfctxErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.raw = init.raw;
    this.headers = init.headers;
  }
}

/** 401: the token was missing, invalid or expired even after a fresh one, or the token endpoint answered `invalid_client` (wrong client id or secret, or a revoked credential). */
export class AuthenticationError extends OfctxError {
  override readonly name: string = 'AuthenticationError';
}

/** 403: the token lacks a scope, or the organization or facility is outside the credential's grant. */
export class PermissionError extends OfctxError {
  override readonly name: string = 'PermissionError';
  /** For `insufficient_scope`: the scope the operation needs. */
  readonly requiredScope: string | undefined;

  constructor(init: OfctxErrorInit) {
    super(init);
    this.requiredScope = requiredScopeOf(init.headers?.get('www-authenticate') ?? null, this.details);
  }
}

/** 404: no such resource in this organization and facility. */
export class NotFoundError extends OfctxError {
  override readonly name: string = 'NotFoundError';
}

/** 400: a parameter or the body is invalid; `details` lists the fields. */
export class ValidationError extends OfctxError {
  override readonly name: string = 'ValidationError';
}

/** 409: the request conflicts with the current state (a revoked subscription, the subscription limit). */
export class ConflictError extends OfctxError {
  override readonly name: string = 'ConflictError';
}

/** 429 after the retries the client was allowed. */
export class RateLimitError extends OfctxError {
  override readonly name: string = 'RateLimitError';
  /** How long the API asked to wait (`Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(init: OfctxErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx after the retries the client was allowed. Nothing was changed; quote `requestId`. */
export class ServerError extends OfctxError {
  override readonly name: string = 'ServerError';
}

/** No answer: the network failed or the attempt timed out (`timedOut`). `cause` holds the underlying error. */
export class ConnectionError extends OfctxError {
  override readonly name: string = 'ConnectionError';
  readonly timedOut: boolean;

  constructor(init: Omit<OfctxErrorInit, 'code'> & { timedOut: boolean }) {
    super({ ...init, code: init.timedOut ? 'timeout' : 'connection_error' });
    this.timedOut = init.timedOut;
  }
}

/** The caller's AbortSignal aborted the call. `cause` is the signal's reason. */
export class RequestAbortedError extends OfctxError {
  override readonly name: string = 'RequestAbortedError';

  constructor(reason: unknown) {
    super({ message: 'The request was aborted by its AbortSignal.', code: 'request_aborted', cause: reason });
  }
}

/**
 * The token endpoint refused: `invalid_scope` (a requested scope is not granted),
 * `invalid_request`, `unsupported_grant_type` or `rate_limited`. (`invalid_client` is an
 * AuthenticationError; a 5xx is a ServerError.)
 */
export class OAuthError extends OfctxError {
  override readonly name: string = 'OAuthError';
  /** `error_description` from the answer. */
  readonly errorDescription: string | undefined;
  /** For `rate_limited`: how long the endpoint asked to wait. */
  readonly retryAfterMs: number | undefined;

  constructor(init: OfctxErrorInit & { errorDescription?: string | undefined; retryAfterMs?: number | undefined }) {
    super(init);
    this.errorDescription = init.errorDescription;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * The API's message with what each field needs, as the FHIR view's diagnostics word it
 * (`The request has invalid parameters. (query.page_size must be <= 200)`): a logged
 * `error.message` then says what to fix. `details` keeps them one by one.
 */
function messageWithDetails(message: string, details: ErrorDetail[] | undefined): string {
  const worded = (details ?? []).filter((detail) => isObject(detail) && typeof detail.field === 'string' && typeof detail.issue === 'string');
  if (worded.length === 0) return message;
  return `${message} (${worded.map((detail) => `${detail.field} ${detail.issue}`).join('; ')})`;
}

/**
 * The typed error for a failed API answer (`body` is the parsed envelope, or the text when
 * it was not JSON). Wrapped methods throw it; `client.raw` callers can use it to turn
 * `{ error, response }` into the same error.
 */
export function errorFromResponse(response: Response, body: unknown): OfctxError {
  const apiError = envelopeError(body);
  const init: OfctxErrorInit = {
    status: response.status,
    code: apiError?.code ?? codeForStatus(response.status),
    message: apiError?.message !== undefined ? messageWithDetails(apiError.message, apiError.details) : `The API answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
    requestId: apiError?.request_id ?? response.headers.get('x-request-id') ?? undefined,
    details: apiError?.details,
    raw: body,
    headers: response.headers,
  };
  switch (response.status) {
    case 400:
      return new ValidationError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return new RateLimitError({ ...init, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()) });
    default:
      return response.status >= 500 ? new ServerError(init) : new OfctxError(init);
  }
}

/** The typed error for a failed token endpoint answer (an RFC 6749 section 5.2 body). */
export function errorFromTokenResponse(response: Response, body: unknown): OfctxError {
  const oauth = oauthError(body);
  if (!oauth) return errorFromResponse(response, body);
  const init = {
    status: response.status,
    code: oauth.error,
    message: oauth.error_description ?? `The token endpoint answered ${oauth.error}.`,
    requestId: response.headers.get('x-request-id') ?? undefined,
    raw: body,
    headers: response.headers,
  };
  if (oauth.error === 'invalid_client') return new AuthenticationError(init);
  if (response.status >= 500) return new ServerError(init);
  return new OAuthError({
    ...init,
    errorDescription: oauth.error_description,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()),
  });
}

/** The envelope's `error`, read defensively: a proxy in between may answer anything. */
function envelopeError(body: unknown): Partial<ApiErrorBody> | undefined {
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const error = body.error;
  return {
    ...(typeof error.code === 'string' ? { code: error.code as ApiErrorCode } : {}),
    ...(typeof error.message === 'string' ? { message: error.message } : {}),
    ...(Array.isArray(error.details) ? { details: error.details as ErrorDetail[] } : {}),
    ...(typeof error.request_id === 'string' ? { request_id: error.request_id } : {}),
  };
}

function oauthError(body: unknown): OAuthErrorBody | undefined {
  if (!isObject(body) || typeof body.error !== 'string') return undefined;
  return {
    error: body.error as OAuthErrorCode,
    ...(typeof body.error_description === 'string' ? { error_description: body.error_description } : {}),
  };
}

function codeForStatus(status: number): ErrorCode {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'internal_error';
  return 'unexpected_response';
}

/** The scope named by an RFC 6750 challenge (`scope="coverage.read"`), else by a `scope` detail. */
function requiredScopeOf(challenge: string | null, details: ErrorDetail[]): string | undefined {
  const fromHeader = challenge?.match(/\bscope="([^"]*)"/)?.[1];
  if (fromHeader) return fromHeader;
  const detail = details.find((d) => d.field === 'scope');
  return detail?.issue.match(/^requires (\S+)$/)?.[1];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
