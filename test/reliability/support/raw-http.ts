// A raw HTTP/1.1 client for attacks: any method the server's parser knows, the request
// target byte for byte (no URL normalization: `..`, `%2F` and `%ZZ` arrive as written), any
// headers and body, and a chosen loopback source address (127.0.0.0/8 all reaches the service).
import { request, type OutgoingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent: path and query string. */
  target: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Source address of the connection, e.g. 127.0.0.2. */
  localAddress?: string;
  /** Send the body with Transfer-Encoding: chunked, in two chunks, instead of Content-Length. */
  chunked?: boolean;
  /** How long to wait for the answer (15 s unless told). */
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, the text when it is not JSON, undefined when empty. */
  body: any;
  /** Wall time from sending to the last byte, in milliseconds. */
  ms: number;
}

const TIMEOUT_MS = 15_000;

export function send(baseUrl: string, r: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  if (!/^127\./.test(url.hostname)) throw new Error(`the reliability suite only talks to 127.0.0.0/8, not ${url.hostname}`);
  const headers: OutgoingHttpHeaders = { ...r.headers };
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  // Node's client frames a body on GET, DELETE, OPTIONS or TRACE only when told how: without
  // a length the bytes would reach the server as a second, garbage request.
  if (body !== undefined) {
    if (r.chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: url.hostname, port: url.port, method: r.method, path: r.target, headers, localAddress: r.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - started;
          const headers = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text === '' ? undefined : text;
          try {
            if (text !== '') body = JSON.parse(text);
          } catch {
            // not JSON: the checks report it
          }
          resolve({ status: res.statusCode!, headers, text, body, ms });
        });
      },
    );
    const timeoutMs = r.timeoutMs ?? TIMEOUT_MS;
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms: ${r.method} ${r.target.slice(0, 200)}`)));
    req.on('error', reject);
    if (body !== undefined && r.chunked && body.length > 1) {
      req.write(body.subarray(0, body.length >> 1));
      req.end(body.subarray(body.length >> 1));
    } else {
      req.end(body);
    }
  });
}

/** Source addresses for traffic that must not share a rate-limit bucket: 127.<block>.x.y. */
export class AddressPool {
  private next = 0;
  constructor(private readonly block: number, private readonly perAddress = 10) {}
  /** A fresh loopback address every `perAddress` calls. */
  take(): string {
    const n = Math.floor(this.next++ / this.perAddress);
    return `127.${this.block}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  }
}
