// Sends one HTTP request with a timeout per attempt and retries with back-off. Knows
// nothing about tokens: authenticated-fetch.ts and token-manager.ts build on it.
import { ConnectionError, OfctxError, RequestAbortedError } from './errors.js';
import { backoffDelay, parseRetryAfter, RETRYABLE_STATUSES } from './retry.js';
import type { Runtime } from './runtime.js';
import type { QuotaPacer } from './quota-pacing.js';

export type FetchFunction = (request: Request) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchFunction;
  /** Per attempt, including reading the body. */
  timeoutMs: number;
  maxRetries: number;
  /** Bound on the total time spent waiting between attempts. */
  maxRetryWaitMs: number;
  runtime: Runtime;
}

export interface SendOptions {
  /** Whether the request may be sent again (see isRetrySafe). */
  retrySafe: boolean;
  /** The caller's signal: aborts the call, including back-off waits. */
  signal?: AbortSignal | null | undefined;
  /** Paces attempts by the credential's quota (quota-pacing.ts): the API's calls, not the token's. */
  pacer?: QuotaPacer | undefined;
}

/**
 * Builds the request of one attempt. Called again for every attempt, because a request
 * body can be read only once and the access token may have been renewed meanwhile.
 * An OfctxError it throws ends the call as it is.
 */
export type BuildRequest = (signal: AbortSignal) => Request | Promise<Request>;

export type Send = (build: BuildRequest, options: SendOptions) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function createTransport(options: TransportOptions): Send {
  const { runtime } = options;

  return async function send(build, { retrySafe, signal, pacer }) {
    let retries = 0;
    let waitedMs = 0;

    // Waits before the next attempt if a retry is allowed and fits the total wait bound.
    // `unhandled`: the server says it did nothing with the request, so even a request that is
    // not safe to send twice may be sent again.
    const mayRetryAfter = async (delayMs: number, unhandled = false): Promise<boolean> => {
      if (!(retrySafe || unhandled) || retries >= options.maxRetries || waitedMs + delayMs > options.maxRetryWaitMs) return false;
      try {
        await runtime.sleep(delayMs, signal ?? undefined);
      } catch {
        throw new RequestAbortedError(signal?.reason);
      }
      retries += 1;
      waitedMs += delayMs;
      return true;
    };

    for (;;) {
      if (signal?.aborted) throw new RequestAbortedError(signal.reason);
      if (pacer) {
        // Before the attempt's own timeout starts: a wait for the quota's refill is not the server's time.
        try {
          await pacer.beforeSend(signal ?? undefined);
        } catch {
          throw new RequestAbortedError(signal?.reason);
        }
      }
      const attempt = attemptSignal(signal, options.timeoutMs);
      let response: Response;
      try {
        const request = await build(attempt.signal);
        response = await readWholly(await options.fetch(request));
      } catch (error) {
        if (signal?.aborted) throw new RequestAbortedError(signal.reason);
        if (error instanceof OfctxError) throw error;
        const failure = attempt.timedOut()
          ? new ConnectionError({ message: `No answer within ${options.timeoutMs} ms.`, timedOut: true, cause: error })
          : new ConnectionError({ message: `The request failed before an answer arrived: ${describe(error)}`, timedOut: false, cause: error });
        if (await mayRetryAfter(backoffDelay(retries, runtime.random))) continue;
        throw failure;
      } finally {
        attempt.dispose();
      }

      pacer?.observe(response.headers);
      if (RETRYABLE_STATUSES.has(response.status)) {
        const asked = parseRetryAfter(response.headers.get('retry-after'), runtime.now());
        // A 429 (a credential's quota, the token endpoint's limit, an export limit) is answered
        // before anything is done: waiting Retry-After and sending it again is always safe.
        if (await mayRetryAfter(asked ?? backoffDelay(retries, runtime.random), response.status === 429)) continue;
      }
      return response;
    }
  };
}

/**
 * Reads the body while the attempt's timeout still runs, so a server that sends headers
 * and then stalls times out too. The API's bodies are small JSON documents.
 */
async function readWholly(response: Response): Promise<Response> {
  if (response.status === 0 || NULL_BODY_STATUSES.has(response.status)) return response;
  const body = await response.arrayBuffer();
  const headers = new Headers(response.headers);
  // The bytes are decoded now: the original encoding and length no longer describe them.
  headers.delete('content-encoding');
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** A signal that aborts when the caller's does or when the attempt's time is up. */
function attemptSignal(callerSignal: AbortSignal | null | undefined, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** `fetch failed (connect ECONNREFUSED 127.0.0.1:8080)`: undici hides the useful part in `cause`. */
function describe(error: unknown): string {
  const message = (value: unknown) =>
    typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string'
      ? (value as { message: string }).message
      : undefined;
  const cause = message((error as { cause?: unknown } | null)?.cause);
  return `${message(error) ?? String(error)}${cause ? ` (${cause})` : ''}`;
}
