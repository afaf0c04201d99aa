// Real HTTP servers on 127.0.0.1, on a free port, closed after each test.
import type { AddressInfo } from 'node:net';
import { createServer, type RequestListener, type Server } from 'node:http';

export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(handler: RequestListener | Server): Promise<LoopbackServer> {
  const server = typeof handler === 'function' ? createServer(handler) : handler;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** POSTs a body (bytes, text, or a stream sent chunked) and returns the status and text of the answer. */
export async function post(
  url: string,
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers, body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
  return { status: response.status, text: await response.text() };
}

/** A stream that sends `bytes` in chunks of `size`, so the server sees several data events and no Content-Length. */
export function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}
