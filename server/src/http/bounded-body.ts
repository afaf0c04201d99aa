// Reads a request body that the operation streams itself (x-ofctx-streamed-body), up to a
// limit: checked against Content-Length first, then counted while reading, so an oversize
// or lying sender is cut off without the service buffering more than the limit. `tooLarge` is
// told the size known when the body was refused (its Content-Length, else what was read).
import type { IncomingMessage } from 'node:http';

export async function readBoundedBody(req: IncomingMessage, maxBytes: number, tooLarge: (bytesKnown: number) => Error): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw tooLarge(declared);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(size);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
