// The public keys a credential authenticates with (private_key_jwt): a JWKS registered with
// the credential, or the URL of one. A URL is fetched like a webhook callback is called
// (ssrf-guard.ts: https only, every address public, the socket connected to the vetted
// address), cached for a while, and fetched again when an assertion names a `kid` the
// cached set lacks (the client rotated its keys), at most once per cooldown, so unknown
// kids cannot make us hammer the host.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, createLocalJWKSet, errors, type JSONWebKeySet, type JWK, type JWTVerifyGetKey } from 'jose';
import { vetCallbackTarget, type TargetPolicy } from '../webhooks/ssrf-guard.js';

/** Keys of signing algorithms we accept: RSA (RS384) and EC P-384 (ES384). */
const ALLOWED_KEY_TYPES = ['RSA', 'EC'];
const MAX_JWKS_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 5000;
/** A fetched set is used this long before it is fetched again. */
const CACHE_TTL_MS = 10 * 60 * 1000;
/** An unknown kid refetches the set only when the cached copy is older than this. */
const REFRESH_COOLDOWN_MS = 1000;

export class JwksProblem extends Error {}

/**
 * Checks a JWKS document: public RSA or EC keys only, each with a `kid`. Private or
 * symmetric keys are refused (a symmetric "public" key is how HS256 confusion starts).
 */
export function parsePublicJwks(text: string): JSONWebKeySet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new JwksProblem('the JWKS is not valid JSON');
  }
  const keys = (parsed as { keys?: unknown })?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new JwksProblem('the JWKS needs a non-empty "keys" array');
  for (const [index, key] of keys.entries()) {
    const jwk = key as Record<string, unknown>;
    if (jwk === null || typeof jwk !== 'object') throw new JwksProblem(`key ${index} is not an object`);
    if (typeof jwk.kid !== 'string' || jwk.kid === '') throw new JwksProblem(`key ${index} has no "kid"`);
    if (!ALLOWED_KEY_TYPES.includes(jwk.kty as string)) throw new JwksProblem(`key ${jwk.kid} has kty "${String(jwk.kty)}"; only RSA (RS384) and EC P-384 (ES384) keys are accepted`);
    if (jwk.kty === 'EC' && jwk.crv !== 'P-384') throw new JwksProblem(`key ${jwk.kid} is on curve ${String(jwk.crv)}; ES384 needs P-384`);
    if ('d' in jwk || 'p' in jwk || 'q' in jwk) throw new JwksProblem(`key ${jwk.kid} contains private key material: register the PUBLIC keys only`);
  }
  return parsed as JSONWebKeySet;
}

/**
 * The JWKS of a file an operator was given: a JWKS document, or one PEM public key
 * (`openssl pkey -pubout`), which becomes a one-key JWKS whose `kid` is its RFC 7638
 * thumbprint (printed by the CLI, for the partner's `keyId`).
 */
export async function publicJwksFromFile(text: string): Promise<JSONWebKeySet> {
  if (!text.includes('-----BEGIN')) return parsePublicJwks(text);
  if (!text.includes('-----BEGIN PUBLIC KEY-----')) throw new JwksProblem('the PEM file must hold a PUBLIC key (openssl pkey -in key.pem -pubout); never send the private key');
  let jwk: JWK;
  try {
    jwk = createPublicKey(text).export({ format: 'jwk' }) as JWK;
  } catch (error) {
    throw new JwksProblem(`the PEM public key cannot be read (${(error as Error).message})`);
  }
  const alg = jwk.kty === 'RSA' ? 'RS384' : jwk.kty === 'EC' && jwk.crv === 'P-384' ? 'ES384' : undefined;
  if (!alg) throw new JwksProblem(`the key is ${jwk.kty}${jwk.crv ? ` ${jwk.crv}` : ''}; only RSA (RS384) and EC P-384 (ES384) keys are accepted`);
  const keyed = { ...jwk, alg, use: 'sig', kid: await calculateJwkThumbprint(jwk) };
  return parsePublicJwks(JSON.stringify({ keys: [keyed] }));
}

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/** GETs a JWKS through the SSRF guard. Throws JwksProblem with what went wrong (for the log). */
export async function fetchJwks(url: string, policy: TargetPolicy): Promise<JSONWebKeySet> {
  const verdict = await vetCallbackTarget(url, policy);
  if (!verdict.allowed) throw new JwksProblem(`the JWKS URL ${verdict.reason}`);
  const text = await new Promise<string>((resolve, reject) => {
    const send = verdict.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(verdict.url, {
      method: 'GET',
      headers: { Accept: 'application/json' },
      lookup: pinnedLookup(verdict.address.address, verdict.address.family),
      agent: false,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new JwksProblem(`the JWKS URL answered ${res.statusCode} (redirects are not followed)`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_JWKS_BYTES) {
          req.destroy();
          reject(new JwksProblem(`the JWKS is larger than ${MAX_JWKS_BYTES} bytes`));
        } else chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', (error) => reject(new JwksProblem(`the JWKS URL could not be fetched (${(error as NodeJS.ErrnoException).code ?? error.message})`)));
    req.end();
  });
  return parsePublicJwks(text);
}

interface CachedSet {
  keys: JWTVerifyGetKey;
  fetchedAt: number;
}

/** Key resolvers for credentials; one per service, holding the fetched sets. */
export class ClientKeySets {
  private readonly remote = new Map<string, Promise<CachedSet>>();

  constructor(
    private readonly policy: TargetPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  resolverFor(credential: { jwks: string | null; jwks_url: string | null }): JWTVerifyGetKey {
    if (credential.jwks) return createLocalJWKSet(parsePublicJwks(credential.jwks));
    const url = credential.jwks_url;
    if (!url) throw new JwksProblem('the credential has no public keys');
    return async (header, token) => {
      let cached = await this.load(url, false);
      try {
        return await cached.keys(header, token);
      } catch (error) {
        if (!(error instanceof errors.JWKSNoMatchingKey) || this.now() - cached.fetchedAt < REFRESH_COOLDOWN_MS) throw error;
        cached = await this.load(url, true);
        return cached.keys(header, token);
      }
    };
  }

  private load(url: string, refresh: boolean): Promise<CachedSet> {
    const existing = this.remote.get(url);
    if (existing && !refresh) {
      // A stale or failed entry is replaced; concurrent callers share one fetch.
      return existing.then((set) => (this.now() - set.fetchedAt > CACHE_TTL_MS ? this.load(url, true) : set));
    }
    const fetching = fetchJwks(url, this.policy).then((jwks) => ({ keys: createLocalJWKSet(jwks), fetchedAt: this.now() }));
    this.remote.set(url, fetching);
    fetching.catch(() => {
      if (this.remote.get(url) === fetching) this.remote.delete(url);
    });
    return fetching;
  }
}
