// createClient: options, defaults, and the wiring of token, transport and resources.
import createOpenApiClient, { type Client } from 'openapi-fetch';
import { createAuthenticatedFetch } from './authenticated-fetch.js';
import type { Scope } from './contract-types.js';
import { createFacilityClient, type FacilityClient } from './facility.js';
import type { paths } from './generated/openapi.js';
import { type Runtime, systemRuntime } from './runtime.js';
import { TokenManager } from './token-manager.js';
import {
  ASSERTION_ALGORITHMS,
  clientSecretAuthentication,
  privateKeyJwtAuthentication,
  type AssertionAlgorithm,
  type ClientAuthentication,
  type PrivateKeyInput,
} from './client-authentication.js';
import { createTransport, type FetchFunction } from './transport.js';
import { QuotaPacer } from './quota-pacing.js';
import { userAgentHeader } from './user-agent.js';
import { WebhooksClient } from './webhooks.js';
import { EventsClient } from './events.js';

export interface ClientOptions {
  /** Where the API is served, such as `https://api.ofctx.example`. The token is only ever sent to this origin. */
  baseUrl: string;
  clientId: string;
  /** The client secret. Give this, or `privateKey` (SMART Backend Services), not both. */
  clientSecret?: string | undefined;
  /**
   * The private key of a credential registered with public keys (private_key_jwt, SMART
   * Backend Services): PKCS#8 PEM, a private JWK or a CryptoKey. The client signs its own
   * assertions with it (a fresh `jti` and a 5-minute `exp` per token request).
   */
  privateKey?: PrivateKeyInput | undefined;
  /** The `kid` of the registered public key matching `privateKey`. Required with `privateKey`. */
  keyId?: string | undefined;
  /** `RS384` (RSA key) or `ES384` (EC P-384 key). Required with `privateKey`. */
  algorithm?: AssertionAlgorithm | undefined;
  /**
   * The assertion's `aud`: the token URL as the service names it (its SMART configuration's
   * `token_endpoint`). Default: `${baseUrl}/api/v1/oauth/token`.
   */
  tokenAudience?: string | undefined;
  /** Scopes to request; default: every scope the client holds. */
  scopes?: readonly (Scope | (string & {}))[] | undefined;
  /** The fetch to use; default: `globalThis.fetch`, looked up at each request. */
  fetch?: FetchFunction | undefined;
  /** Time limit of one attempt, body included. Default 30 000 ms. */
  timeoutMs?: number | undefined;
  /** Retries after network errors, timeouts, 408, 429, 502, 503 and 504. Default 3. */
  maxRetries?: number | undefined;
  /** Bound on the total time spent waiting between retries of one call. Default 60 000 ms. */
  maxRetryWaitMs?: number | undefined;
  /**
   * Pace requests by the credential's quota: when an answer's `RateLimit` field says no more
   * than this many units are left, the next request waits until the quota has refilled
   * enough (at most `maxQuotaWaitMs`, cancellable by the call's `signal`). Default 0: wait
   * only once the quota is spent. `false` turns pacing off (a 429 is still waited out and retried).
   */
  quotaReserve?: number | false | undefined;
  /** The longest one request waits for the quota's refill before it is sent anyway. Default 10 000 ms. */
  maxQuotaWaitMs?: number | undefined;
  /** Renew the token this long before it expires. Default 60 000 ms. */
  renewTokenBeforeExpiryMs?: number | undefined;
  /** Appended to the User-Agent, such as `acme-eligibility/2.3`. */
  userAgent?: string | undefined;
  /** Allow an `http:` baseUrl on a non-loopback host (the client secret and tokens would travel in clear text). */
  allowInsecureHttp?: boolean | undefined;
}

export interface OfctxClient {
  /** The API origin and base path this client talks to. */
  readonly baseUrl: string;
  /** Residents, coverage, observations and allergies of one facility. */
  facility(orgId: string, facilityId: string): FacilityClient;
  /** The organization's webhook subscriptions, their deliveries, redelivery and recovery. */
  webhooks(orgId: string): WebhooksClient;
  /** The organization's event log (any read scope): what the credential may see, in commit order. */
  events(orgId: string): EventsClient;
  /**
   * The typed openapi-fetch client, with the same token, retries, timeout and origin guard,
   * for anything the methods above do not cover. It answers `{ data, error, response }`
   * rather than throwing on 4xx/5xx; `errorFromResponse(response, error)` gives the typed error.
   */
  readonly raw: Client<paths>;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  maxRetries: 3,
  maxRetryWaitMs: 60_000,
  quotaReserve: 0,
  maxQuotaWaitMs: 10_000,
  renewTokenBeforeExpiryMs: 60_000,
} as const;

/**
 * A client for the ofctx API. Nothing is sent until the first call, which obtains the
 * access token.
 */
export function createClient(options: ClientOptions): OfctxClient {
  return createClientWithRuntime(options, systemRuntime);
}

/** createClient with a replaceable clock, sleep and randomness (for tests). */
export function createClientWithRuntime(options: ClientOptions, runtime: Runtime): OfctxClient {
  const baseUrl = checkedBaseUrl(options);
  const baseUrlText = baseUrl.href.replace(/\/+$/, '');
  if (typeof options.clientId !== 'string' || options.clientId.length === 0) throw new TypeError('createClient: clientId is required.');
  const tokenUrl = baseUrlText + ('/api/v1/oauth/token' satisfies keyof paths);
  const fetchImpl: FetchFunction = options.fetch ?? ((request) => globalThis.fetch(request));
  const userAgent = userAgentHeader(options.userAgent);
  const send = createTransport({
    fetch: fetchImpl,
    timeoutMs: numberOption(options, 'timeoutMs', 1, MAX_TIMER_MS),
    maxRetries: numberOption(options, 'maxRetries', 0, 10, true),
    maxRetryWaitMs: numberOption(options, 'maxRetryWaitMs', 0, MAX_TIMER_MS),
    runtime,
  });
  const tokens = new TokenManager({
    tokenUrl,
    authenticate: clientAuthentication(options, tokenUrl, runtime),
    scopes: options.scopes ?? [],
    renewBeforeExpiryMs: numberOption(options, 'renewTokenBeforeExpiryMs', 0, Number.MAX_SAFE_INTEGER),
    send,
    runtime,
    userAgent,
  });
  // One pacer per client: the quota is the credential's, shared by all its calls.
  const pacer =
    options.quotaReserve === false
      ? undefined
      : new QuotaPacer(runtime, { reserve: numberOption(options, 'quotaReserve', 0, Number.MAX_SAFE_INTEGER), maxWaitMs: numberOption(options, 'maxQuotaWaitMs', 0, MAX_TIMER_MS) });
  const raw = createOpenApiClient<paths>({
    baseUrl: baseUrlText,
    fetch: createAuthenticatedFetch({ baseUrl, send, tokens, userAgent, pacer }),
  });

  return {
    baseUrl: baseUrlText,
    facility: (orgId, facilityId) => createFacilityClient(raw, orgId, facilityId),
    webhooks: (orgId) => new WebhooksClient(raw, orgId),
    events: (orgId) => new EventsClient(raw, orgId),
    raw,
  };
}

function clientAuthentication(options: ClientOptions, tokenUrl: string, runtime: Runtime): ClientAuthentication {
  const { clientSecret, privateKey } = options;
  if (clientSecret !== undefined && privateKey !== undefined) {
    throw new TypeError('createClient: give clientSecret or privateKey, not both.');
  }
  if (privateKey === undefined) {
    if (typeof clientSecret !== 'string' || clientSecret.length === 0) {
      throw new TypeError('createClient: clientSecret is required (or privateKey, keyId and algorithm for a credential registered with public keys).');
    }
    return clientSecretAuthentication(options.clientId, clientSecret);
  }
  if (typeof options.keyId !== 'string' || options.keyId.length === 0) throw new TypeError('createClient: keyId (the kid of the registered public key) is required with privateKey.');
  if (!ASSERTION_ALGORITHMS.includes(options.algorithm as AssertionAlgorithm)) {
    throw new TypeError(`createClient: algorithm must be ${ASSERTION_ALGORITHMS.join(' or ')} with privateKey, got ${String(options.algorithm)}.`);
  }
  return privateKeyJwtAuthentication({
    clientId: options.clientId,
    privateKey,
    keyId: options.keyId,
    algorithm: options.algorithm!,
    audience: options.tokenAudience ?? tokenUrl,
    runtime,
  });
}

function checkedBaseUrl(options: ClientOptions): URL {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`createClient: baseUrl must be an absolute URL such as https://api.ofctx.example, got ${JSON.stringify(options.baseUrl)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`createClient: baseUrl must be https, got ${url.protocol}.`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !options.allowInsecureHttp) {
    throw new TypeError('createClient: baseUrl must be https (the client secret and tokens travel with every request); pass allowInsecureHttp: true to override.');
  }
  if (url.search || url.hash) throw new TypeError('createClient: baseUrl must not have a query or fragment.');
  return url;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Longest delay setTimeout honours; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function numberOption(options: ClientOptions, name: keyof typeof DEFAULTS, min: number, max: number, integer = false): number {
  const value = options[name] ?? DEFAULTS[name];
  if (typeof value !== 'number' || !(value >= min && value <= max) || (integer && !Number.isInteger(value))) {
    throw new TypeError(`createClient: ${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got ${String(value)}.`);
  }
  return value;
}
