// One HTTP attempt of one delivery. The target is vetted (ssrf-guard.ts) at every attempt
// and the socket is connected to the vetted address through a custom `lookup`, while the
// URL keeps its host name, so the Host header and the TLS server name (and certificate
// check) stay the callback's. The worker's attempts reuse keep-alive connections to the
// address their vetting approved (pinned-connections.ts); others (the test operation) open
// a fresh one. Redirects are never followed (node:http does not follow them) and count as
// failures. One deadline covers resolution, connection and the answer.
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { isSuccessStatus } from './retry-policy.js';
import { USER_AGENT } from './delivery-signer.js';
import { pinnedLookup, type PinnedConnections } from './pinned-connections.js';
import { vetCallbackTarget, type HostResolver, type ResolvedAddress } from './ssrf-guard.js';

export type AttemptErrorClass =
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns'
  | 'tls'
  | 'network'
  | 'redirect'
  | 'http_status'
  | 'ssrf_blocked'
  | 'invalid_url'
  /** The service shut down during the attempt; the delivery was released. */
  | 'aborted'
  /** Recorded when a lease expired: the worker making this attempt stopped before recording it. */
  | 'interrupted'
  /** A failure on our side (for example a signing secret that cannot be decrypted). */
  | 'internal';

export interface AttemptResult {
  /** The answered status, or null when none arrived. */
  status: number | null;
  /** Null on success. */
  errorClass: AttemptErrorClass | null;
  durationMs: number;
  retryAfter?: string | undefined;
  /** The callback's host, for logs (never the path, which may carry anything). */
  host: string;
  /** A short explanation of a failure for logs; never contains the body or the secret. */
  detail?: string;
}

export interface AttemptRequest {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  resolve: HostResolver;
  /** Aborts the attempt when the service stops. */
  signal?: AbortSignal;
  /** Keep-alive pools and the subscription whose pool to use; without them, a fresh connection. */
  connections?: { pools: PinnedConnections; subscriptionId: string };
}

/** Drains at most this much of an answer's body; nobody reads it. */
const MAX_RESPONSE_BYTES = 64 * 1024;

class DeadlineExceeded extends Error {}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function errorClassOf(error: unknown, signal: AbortSignal): AttemptErrorClass {
  if (signal.aborted) return signal.reason instanceof DeadlineExceeded ? 'timeout' : 'aborted';
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME'].includes(code)) return 'dns';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code)) return 'connection_reset';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (/^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code)) return 'tls';
  return 'network';
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
}

/**
 * A kept-alive connection the receiver closed just as it was reused (its idle timeout):
 * nothing was answered, so the attempt tries once more on a fresh connection to the same
 * vetted address, within the same deadline.
 */
class StaleConnection extends Error {}

function post(url: URL, vetted: ResolvedAddress, body: Buffer, headers: Record<string, string>, signal: AbortSignal, agent: Agent | undefined): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'User-Agent': USER_AGENT, 'Content-Length': String(body.length) },
      // Either a pool whose sockets all go to this vetted address, or a fresh connection to it.
      ...(agent ? { agent } : { agent: false, lookup: pinnedLookup(vetted) }),
    });
    // Aborting destroys the request. (Not node:http's own `signal` option, which costs about
    // 15-20 µs more per request in listeners and wrappers: docs/benchmarks.md.)
    const abort = () => req.destroy(signal.reason as Error);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    let answer: Answer | undefined;
    const settle = (error?: unknown) => {
      signal.removeEventListener('abort', abort);
      if (answer) return resolve(answer);
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (req.reusedSocket && !signal.aborted && (code === 'ECONNRESET' || code === 'EPIPE')) return reject(new StaleConnection(code));
      reject(error ?? new Error('connection closed before an answer'));
    };
    req.on('response', (res) => {
      answer = { status: res.statusCode ?? 0, retryAfter: header(res.headers, 'retry-after') };
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) req.destroy();
      });
      res.on('end', () => settle());
      res.on('error', () => settle());
    });
    req.on('error', settle);
    req.on('close', () => settle());
    req.end(body);
  });
}

/** Makes one attempt. Never throws: every failure is classified in the result. */
export async function sendAttempt(attempt: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let host = '';
  try {
    host = new URL(attempt.url).host;
  } catch {
    // reported as invalid_url below
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded('deadline')), attempt.timeoutMs);
  const onStop = () => controller.abort(new Error('service stopping'));
  attempt.signal?.addEventListener('abort', onStop, { once: true });
  if (attempt.signal?.aborted) onStop();
  const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
  aborted.catch(() => {});
  try {
    const verdict = await Promise.race([vetCallbackTarget(attempt.url, attempt), aborted]);
    if (!verdict.allowed) return { status: null, errorClass: verdict.errorClass, durationMs: elapsed(), host, detail: verdict.reason };
    const agent = attempt.connections?.pools.agentFor(attempt.connections.subscriptionId, verdict.url, verdict.address);
    const { status, retryAfter } = await post(verdict.url, verdict.address, attempt.body, attempt.headers, controller.signal, agent).catch((error: unknown) => {
      if (error instanceof StaleConnection) return post(verdict.url, verdict.address, attempt.body, attempt.headers, controller.signal, undefined);
      throw error;
    });
    if (isSuccessStatus(status)) return { status, errorClass: null, durationMs: elapsed(), host };
    const errorClass = status >= 300 && status <= 399 ? 'redirect' : 'http_status';
    return { status, errorClass, durationMs: elapsed(), host, retryAfter };
  } catch (error) {
    const errorClass = errorClassOf(error, controller.signal);
    const detail = errorClass === 'timeout' ? `no answer within ${attempt.timeoutMs} ms` : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    return { status: null, errorClass, durationMs: elapsed(), host, detail };
  } finally {
    clearTimeout(timer);
    attempt.signal?.removeEventListener('abort', onStop);
  }
}
