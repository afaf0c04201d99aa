// The request headers' size limit (16 KiB, as Node's own default), answered in the error format
// of the operation asked: the envelope, a FHIR OperationOutcome, the RFC 6749 body at the token
// endpoint, the console's HTML page. Node's parser, which would refuse them before routing with
// no way to tell which format the client reads, is given a hard limit four times as large
// (service.ts); only what is over that is answered before routing (malformed-request.ts).
import type { Context } from 'koa';
import { ApiError } from '../errors/api-error.js';
import { OAuthError } from '../errors/oauth-error.js';
import { TOKEN_PATH } from '../errors/token-endpoint.js';

/** The documented limit on a request's line and headers. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Node's parser's limit (`maxHeaderSize`): past it a request is refused before routing. */
export const HARD_MAX_HEADER_BYTES = 4 * MAX_HEADER_BYTES;

/** The bytes of the request line and headers as sent (rawHeaders are latin1: one character, one byte). */
function headerBytes(ctx: Context): number {
  const { method, url, rawHeaders } = ctx.req;
  // "METHOD target HTTP/1.1\r\n"
  let bytes = (method?.length ?? 0) + (url?.length ?? 0) + 12;
  // "name: value\r\n" each
  for (let i = 0; i < rawHeaders.length; i += 2) bytes += rawHeaders[i]!.length + rawHeaders[i + 1]!.length + 4;
  return bytes;
}

/** Throws the operation's 431 when the request's headers are over MAX_HEADER_BYTES. */
export function refuseOversizeHeaders(ctx: Context): void {
  if (headerBytes(ctx) <= MAX_HEADER_BYTES) return;
  const error = new ApiError('headers_too_large');
  // The token endpoint answers in RFC 6749's form, with the catalogue's message and status.
  if (ctx.path === TOKEN_PATH) throw new OAuthError('invalid_request', error.message, { 'Cache-Control': 'no-store' }, error.status);
  throw error;
}
