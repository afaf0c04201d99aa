// One CORE real-time exchange over HTTP(S): the request (an envelope from core-envelope.ts)
// is posted, the answer read whole. Like webhook deliveries (webhooks/delivery-sender.ts),
// the target is vetted at every call (webhooks/ssrf-guard.ts) and the socket connected to
// the vetted address while the URL keeps its host name, so the TLS server name and
// certificate check stay the clearinghouse's. TLS is always verified (`ca` adds a trusted
// certificate, it never turns the check off). One deadline covers resolution, connection and
// the whole answer (CORE 156: 20 seconds). Redirects are not followed. An HTTP error status
// with a body is still an answer: clearinghouses put CORE error envelopes in 4xx/5xx bodies.
// The worker's exchanges reuse kept-alive connections to the address their vetting approved
// (webhooks/pinned-connections.ts): a TCP and TLS handshake per inquiry cost a clearinghouse
// round trip or two and a millisecond of CPU each (docs/benchmarks.md, section 11).
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { rootCertificates } from 'node:tls';
import { pinnedLookup, type PinnedConnections } from '../webhooks/pinned-connections.js';
import { vetCallbackTarget, type HostResolver, type ResolvedAddress } from '../webhooks/ssrf-guard.js';

export interface CoreExchangeRequest {
  url: string;
  body: Buffer;
  contentType: string;
  headers?: Record<string, string>;
  /** CORE 156: 20 s. */
  timeoutMs: number;
  allowPrivateTargets: boolean;
  resolve: HostResolver;
  /** Aborts the exchange (the service stops). */
  signal?: AbortSignal;
  /** An extra trusted CA certificate (PEM), for tests and private CAs. */
  ca?: string;
  /** Keep-alive pools and the connection (clearinghouse) whose pool to use; without them, a fresh connection. */
  connections?: { pools: PinnedConnections; key: string };
}

export type CoreExchangeErrorClass = 'timeout' | 'connection_refused' | 'connection_reset' | 'dns' | 'tls' | 'network' | 'redirect' | 'ssrf_blocked' | 'invalid_url' | 'aborted' | 'too_large';

export type CoreExchangeResult =
  | { ok: true; status: number; contentType: string | undefined; body: Buffer; durationMs: number }
  /** `detail` explains the failure for logs: never the body, the credentials or the URL's path. */
  | { ok: false; errorClass: CoreExchangeErrorClass; status: number | null; detail: string; durationMs: number };

/** The most of an answer read: a 271 for one person is a few kilobytes. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
export const USER_AGENT = 'ofctx-eligibility/1.0';

class DeadlineExceeded extends Error {}
class AnswerTooLarge extends Error {
  constructor(readonly status: number) {
    super('answer too large');
  }
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function errorClassOf(error: unknown, signal: AbortSignal): CoreExchangeErrorClass {
  if (error instanceof AnswerTooLarge) return 'too_large';
  if (signal.aborted) return signal.reason instanceof DeadlineExceeded ? 'timeout' : 'aborted';
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME'].includes(code)) return 'dns';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code) || (error as Error).message === 'socket hang up') return 'connection_reset';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (/^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code)) return 'tls';
  return 'network';
}

/**
 * A kept-alive connection the clearinghouse closed just as it was reused (its idle timeout):
 * nothing was answered, so the exchange is made once more on a fresh connection to the same
 * vetted address, within the same deadline.
 */
class StaleConnection extends Error {}

function post(url: URL, vetted: ResolvedAddress, request: CoreExchangeRequest, signal: AbortSignal, agent: Agent | undefined): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const https = url.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Type': request.contentType, 'User-Agent': USER_AGENT, 'Content-Length': String(request.body.length) },
      // Either a pool whose sockets all go to this vetted address, or a fresh connection to it.
      ...(agent ? { agent } : { agent: false, lookup: pinnedLookup(vetted) }),
      // `ca` replaces Node's trusted roots: keep them, the given certificate is an extra one.
      ...(https && request.ca ? { ca: [...rootCertificates, request.ca] } : {}),
    });
    const abort = () => req.destroy(signal.reason as Error);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    let settled = false;
    let responded = false;
    const settle = (error: unknown, answer?: Answer) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', abort);
      if (answer) return resolve(answer);
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (req.reusedSocket && !responded && !signal.aborted && (code === 'ECONNRESET' || code === 'EPIPE')) return reject(new StaleConnection(code));
      reject(error ?? new Error('connection closed before an answer'));
    };
    req.on('response', (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_ANSWER_BYTES) {
          settle(new AnswerTooLarge(res.statusCode ?? 0));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => settle(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (error) => settle(error));
      // A connection closed mid-answer ends neither 'end' nor 'error' on some versions.
      res.on('close', () => settle(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
    });
    req.on('error', (error) => settle(error));
    // Closed before any answer; once one arrived, its own events settle.
    req.on('close', () => {
      if (!responded) settle(undefined);
    });
    req.end(request.body);
  });
}

/** Makes one exchange. Never throws: every failure is classified in the result. */
export async function sendCoreRequest(request: CoreExchangeRequest): Promise<CoreExchangeResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded('deadline')), request.timeoutMs);
  const onStop = () => controller.abort(new Error('service stopping'));
  request.signal?.addEventListener('abort', onStop, { once: true });
  if (request.signal?.aborted) onStop();
  const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
  aborted.catch(() => {});
  try {
    const verdict = await Promise.race([vetCallbackTarget(request.url, request), aborted]);
    if (!verdict.allowed) return { ok: false, errorClass: verdict.errorClass, status: null, detail: `the clearinghouse URL ${verdict.reason}`, durationMs: elapsed() };
    const agent = request.connections?.pools.agentFor(request.connections.key, verdict.url, verdict.address);
    const answer = await post(verdict.url, verdict.address, request, controller.signal, agent).catch((error: unknown) => {
      if (error instanceof StaleConnection) return post(verdict.url, verdict.address, request, controller.signal, undefined);
      throw error;
    });
    if (answer.status >= 300 && answer.status <= 399) {
      return { ok: false, errorClass: 'redirect', status: answer.status, detail: `answered ${answer.status} (a redirect, not followed)`, durationMs: elapsed() };
    }
    const contentType = answer.headers['content-type'];
    return { ok: true, status: answer.status, contentType, body: answer.body, durationMs: elapsed() };
  } catch (error) {
    const errorClass = errorClassOf(error, controller.signal);
    const detail =
      errorClass === 'timeout' ? `no answer within ${request.timeoutMs} ms`
      : errorClass === 'too_large' ? `the answer is larger than ${MAX_ANSWER_BYTES} bytes`
      : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    return { ok: false, errorClass, status: error instanceof AnswerTooLarge ? error.status : null, detail, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onStop);
  }
}
