// Reads a request body that the operation streams itself (x-ofctx-streamed-body), up to a
// limit: checked against Content-Length first, then counted while reading, so an oversize
// or lying sender is cut off without the service buffering more than the limit.
import type { IncomingMessage } from 'node:http';

export async function readBoundedBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
