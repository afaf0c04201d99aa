// The fetch function handed to openapi-fetch: adds the bearer token and client headers,
// retries through the transport, and renews the token once when the API answers 401.
import { isRetrySafe } from './retry.js';
import type { TokenManager } from './token-manager.js';
import type { FetchFunction, Send } from './transport.js';
import type { QuotaPacer } from './quota-pacing.js';

export interface AuthenticatedFetchOptions {
  baseUrl: URL;
  send: Send;
  tokens: TokenManager;
  userAgent: string | undefined;
  /** Paces the API's requests by the credential's quota; none: not paced. */
  pacer?: QuotaPacer | undefined;
}

export function createAuthenticatedFetch({ baseUrl, send, tokens, userAgent, pacer }: AuthenticatedFetchOptions): FetchFunction {
  const basePath = baseUrl.pathname.replace(/\/+$/, '');

  return async function authenticatedFetch(request) {
    const url = new URL(request.url);
    // The token is a credential for baseUrl's origin only; a per-call `baseUrl` on the raw
    // client must not carry it anywhere else.
    if (url.origin !== baseUrl.origin) {
      throw new TypeError(`Refusing to send the access token to ${url.origin}: this client is bound to ${baseUrl.origin}.`);
    }
    const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
    const retrySafe = isRetrySafe(request.method, path);
    // Read once: every attempt sends the same bytes.
    const body = request.body ? await request.arrayBuffer() : undefined;

    let usedToken = '';
    const build = async (signal: AbortSignal) => {
      usedToken = await tokens.getToken(signal);
      const headers = new Headers(request.headers);
      headers.set('Authorization', `Bearer ${usedToken}`);
      if (!headers.has('Accept')) headers.set('Accept', 'application/json');
      if (userAgent) headers.set('User-Agent', userAgent);
      // Redirects are not followed: the API never sends one, and following it would send
      // the request (and, on the same origin, the token) somewhere unexpected.
      return new Request(url, { method: request.method, headers, body, signal, redirect: 'manual' });
    };

    const response = await send(build, { retrySafe, signal: request.signal, pacer });
    if (response.status !== 401) return response;
    // The token was revoked or expired early: one more try with a fresh one. A 401 is
    // answered before anything runs, so this is safe for every operation.
    tokens.invalidate(usedToken);
    return send(build, { retrySafe, signal: request.signal, pacer });
  };
}
