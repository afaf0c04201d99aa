// Node's http.IncomingMessage: read the stream to bytes (with a size limit), then verify.
// Typed structurally, so this package needs neither @types/node nor any framework.
import type { EventDelivery } from '../delivery-envelope.js';
import { BodyNotRawError, PayloadTooLargeError } from '../errors.js';
import type { SigningSecret } from '../signing-secret.js';
import { verifyDeliveryAsync, type VerifyDeliveryAsyncOptions } from '../verify-delivery.js';

/** Enough of http.IncomingMessage (or any Node readable with headers) to read a body. */
export interface NodeRequestLike {
  readonly headers: { readonly [name: string]: string | readonly string[] | undefined };
  readonly readableEnded?: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause?(): unknown;
}

export interface RawBodyLimitOptions {
  /** Largest body accepted, in bytes. Default 1 MiB; ofctx deliveries are well under 1 KiB. */
  limitBytes?: number;
}

export interface VerifyRequestOptions extends VerifyDeliveryAsyncOptions, RawBodyLimitOptions {}

export const DEFAULT_LIMIT_BYTES = 1024 * 1024;

/** Reads the whole request body as bytes. PayloadTooLargeError past the limit; BodyNotRawError if already read. */
export async function readRawBody(req: NodeRequestLike, options: RawBodyLimitOptions = {}): Promise<Uint8Array> {
  const limitBytes = checkedLimit(options.limitBytes);
  if (req.readableEnded) {
    throw new BodyNotRawError(
      'The request body was already read (by a body parser?) before the verifier: mount the verifier first, or pass the raw bytes it kept.',
    );
  }
  const declaredLength = Number(singleValue(req.headers['content-length']));
  if (declaredLength > limitBytes) throw new PayloadTooLargeError(limitBytes);

  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let length = 0;
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      length += bytes.byteLength;
      if (length > limitBytes) {
        // Stop reading; Node discards the rest once the response is sent.
        cleanup();
        req.pause?.();
        reject(new PayloadTooLargeError(limitBytes));
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(concatenate(chunks, length));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => onError(new Error('The request was closed before its body was complete.'));
    function cleanup(): void {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Reads and verifies a delivery from a Node request. */
export async function verifyNodeRequest(req: NodeRequestLike, secret: SigningSecret, options: VerifyRequestOptions = {}): Promise<EventDelivery> {
  const body = await readRawBody(req, options);
  return verifyDeliveryAsync(body, req.headers, secret, options);
}

export function checkedLimit(limitBytes: number | undefined): number {
  if (limitBytes === undefined) return DEFAULT_LIMIT_BYTES;
  if (Number.isInteger(limitBytes) && limitBytes > 0) return limitBytes;
  throw new TypeError(`limitBytes must be an integer > 0, got ${limitBytes}.`);
}

export function concatenate(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function singleValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
