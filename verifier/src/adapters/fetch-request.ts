// A Fetch API Request: Next.js route handlers, Hono (c.req.raw), Cloudflare Workers, Deno,
// Bun. Reads the body stream to bytes with a size limit, then verifies with whichever
// crypto the runtime has. Typed structurally, so no DOM or Node types are required.
import type { EventDelivery } from '../delivery-envelope.js';
import type { HeadersGetter } from '../delivery-headers.js';
import { BodyNotRawError, PayloadTooLargeError } from '../errors.js';
import type { SigningSecret } from '../signing-secret.js';
import { verifyDeliveryAsync } from '../verify-delivery.js';
import { checkedLimit, concatenate, type VerifyRequestOptions } from './node-request.js';

/** Enough of a Fetch `Request`. */
export interface FetchRequestLike {
  readonly headers: HeadersGetter;
  readonly body: { getReader(): ByteStreamReader } | null;
  readonly bodyUsed?: boolean;
}

interface ByteStreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

/** Reads and verifies a delivery from a Fetch Request. Call it before anything reads the body. */
export async function verifyFetchRequest(request: FetchRequestLike, secret: SigningSecret, options: VerifyRequestOptions = {}): Promise<EventDelivery> {
  const body = await readFetchBody(request, checkedLimit(options.limitBytes));
  return verifyDeliveryAsync(body, request.headers, secret, options);
}

async function readFetchBody(request: FetchRequestLike, limitBytes: number): Promise<Uint8Array> {
  if (request.bodyUsed) {
    throw new BodyNotRawError(
      'The request body was already read (request.json() or .text() ran before the verifier): verify first, then use the returned delivery.',
    );
  }
  if (Number(request.headers.get('content-length')) > limitBytes) throw new PayloadTooLargeError(limitBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value) continue;
    length += value.byteLength;
    if (length > limitBytes) {
      await reader.cancel();
      throw new PayloadTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  return concatenate(chunks, length);
}
