// Obtains, caches and renews the access token (OAuth 2.0 client credentials). The API has
// no refresh token: renewing means asking for a new token with the client credentials.
import { errorFromTokenResponse, OfctxError } from './errors.js';
import type { ClientAuthentication } from './client-authentication.js';
import type { Runtime } from './runtime.js';
import type { Send } from './transport.js';

export interface TokenManagerOptions {
  tokenUrl: string;
  /** Adds the client's credentials (a secret, or a freshly signed assertion) to each attempt's form. */
  authenticate: ClientAuthentication;
  /** Requested scopes; none means every scope the client holds. */
  scopes: readonly string[];
  /** Renew this long before the token expires, so a call never carries a token about to lapse. */
  renewBeforeExpiryMs: number;
  send: Send;
  runtime: Runtime;
  userAgent: string | undefined;
}

interface CachedToken {
  accessToken: string;
  renewAt: number;
}

export class TokenManager {
  private cached: CachedToken | undefined;
  private pending: Promise<CachedToken> | undefined;

  constructor(private readonly options: TokenManagerOptions) {}

  /**
   * A valid access token. Concurrent callers share one token request; a caller's signal
   * stops its own wait without cancelling the request the others wait for.
   */
  async getToken(signal?: AbortSignal): Promise<string> {
    const { cached } = this;
    if (cached && this.options.runtime.now() < cached.renewAt) return cached.accessToken;
    if (!this.pending) {
      this.pending = this.requestToken().finally(() => {
        this.pending = undefined;
      });
    }
    return (await untilAborted(this.pending, signal)).accessToken;
  }

  /** Forgets `accessToken` after the API refused it, unless a newer one replaced it already. */
  invalidate(accessToken: string): void {
    if (this.cached?.accessToken === accessToken) this.cached = undefined;
  }

  private async requestToken(): Promise<CachedToken> {
    const { tokenUrl, authenticate, scopes, send, runtime, userAgent } = this.options;
    const requestedAt = runtime.now();
    const response = await send(
      async (signal) => {
        const form = new URLSearchParams({ grant_type: 'client_credentials' });
        await authenticate(form);
        if (scopes.length > 0) form.set('scope', scopes.join(' '));
        const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' });
        if (userAgent) headers.set('User-Agent', userAgent);
        return new Request(tokenUrl, { method: 'POST', headers, body: form.toString(), signal, redirect: 'manual' });
      },
      { retrySafe: true },
    );
    const body = await parseJson(response);
    if (!response.ok) throw errorFromTokenResponse(response, body);
    const token = body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (typeof token?.access_token !== 'string' || typeof token.expires_in !== 'number' || token.expires_in <= 0) {
      throw new OfctxError({
        message: 'The token endpoint answered 200 without an access_token and a positive expires_in.',
        code: 'unexpected_response',
        status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined,
        raw: body,
        headers: response.headers,
      });
    }
    const lifetimeMs = token.expires_in * 1000;
    const cached = {
      accessToken: token.access_token,
      renewAt: requestedAt + lifetimeMs - Math.min(this.options.renewBeforeExpiryMs, lifetimeMs / 2),
    };
    this.cached = cached;
    return cached;
  }
}

async function parseJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Rejects with the signal's reason (the transport classifies it) when it aborts first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
