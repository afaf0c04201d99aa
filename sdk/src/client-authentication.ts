// How the client proves who it is at the token endpoint: a client secret (RFC 6749), or a
// JWT assertion signed with its private key (private_key_jwt, RFC 7523; SMART Backend
// Services). An assertion is signed afresh for every attempt (new `jti`, `exp` 5 minutes
// ahead): the service accepts each jti once, so a retried request must not resend one.
import { importJWK, importPKCS8, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { Runtime } from './runtime.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export type AssertionAlgorithm = 'RS384' | 'ES384';
export const ASSERTION_ALGORITHMS: readonly AssertionAlgorithm[] = ['RS384', 'ES384'];
/** SMART Backend Services: an assertion expires at most 5 minutes after it is made. */
const ASSERTION_LIFETIME_SECONDS = 300;

/** A private key: PKCS#8 PEM text (`-----BEGIN PRIVATE KEY-----`), a private JWK, or a WebCrypto CryptoKey. */
export type PrivateKeyInput = string | JWK | CryptoKey;

/** Adds the client's credentials to a token request form (once per attempt). */
export type ClientAuthentication = (form: URLSearchParams) => Promise<void> | void;

export function clientSecretAuthentication(clientId: string, clientSecret: string): ClientAuthentication {
  return (form) => {
    form.set('client_id', clientId);
    form.set('client_secret', clientSecret);
  };
}

function importPrivateKey(privateKey: PrivateKeyInput, algorithm: AssertionAlgorithm): Promise<CryptoKey | Uint8Array> {
  if (typeof privateKey === 'string') {
    if (!privateKey.includes('-----BEGIN PRIVATE KEY-----')) {
      throw new TypeError(
        'createClient: privateKey must be PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"). Convert an RSA or EC key with: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem',
      );
    }
    return importPKCS8(privateKey, algorithm);
  }
  if (typeof (privateKey as CryptoKey).type === 'string' && 'algorithm' in privateKey) {
    if ((privateKey as CryptoKey).type !== 'private') throw new TypeError('createClient: privateKey is a public key; pass the PRIVATE key (the service holds the public one).');
    return Promise.resolve(privateKey as CryptoKey);
  }
  if (!('d' in privateKey)) throw new TypeError('createClient: privateKey is a public JWK; pass the PRIVATE key (the service holds the public one).');
  return importJWK(privateKey as JWK, algorithm);
}

export function privateKeyJwtAuthentication(options: {
  clientId: string;
  privateKey: PrivateKeyInput;
  keyId: string;
  algorithm: AssertionAlgorithm;
  /** The token URL as the service names it (its SMART configuration's token_endpoint). */
  audience: string;
  runtime: Runtime;
}): ClientAuthentication {
  let key: Promise<CryptoKey | Uint8Array> | undefined;
  return async (form) => {
    key ??= importPrivateKey(options.privateKey, options.algorithm);
    const issuedAt = Math.floor(options.runtime.now() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: options.algorithm, kid: options.keyId, typ: 'JWT' })
      .setIssuer(options.clientId)
      .setSubject(options.clientId)
      .setAudience(options.audience)
      .setJti(globalThis.crypto.randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ASSERTION_LIFETIME_SECONDS)
      .sign(await key);
    form.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
    form.set('client_assertion', assertion);
  };
}
