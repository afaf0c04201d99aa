// The signing secret: the HMAC key is the UTF-8 bytes of the whole secret string, `ofx_whs_`
// prefix included, never base64-decoded. Several secrets may be given to accept deliveries of
// two subscriptions (e.g. while moving from an old subscription to a new one).

/** One secret, or several of which any may match. */
export type SigningSecret = string | readonly string[];

export const SECRET_PREFIX = 'ofx_whs_';

/** The shape ofctx issues: the prefix and 43 base64url characters (32 random bytes). */
export const SECRET_PATTERN = /^ofx_whs_[A-Za-z0-9_-]{43}$/;

/** The secrets as a list. Throws TypeError on a programmer error (missing, empty, bytes). */
export function signingSecrets(secret: unknown): string[] {
  const secrets = Array.isArray(secret) ? (secret as unknown[]) : [secret];
  if (secrets.length === 0) throw new TypeError('secret is an empty array: pass at least one signing secret (ofx_whs_...).');
  return secrets.map(checkedSecret);
}

function checkedSecret(secret: unknown): string {
  if (typeof secret === 'string') {
    if (/\S/.test(secret)) return secret; // not blank (without allocating a trimmed copy per call)
    throw new TypeError(
      'secret is an empty string: pass the signing_secret (ofx_whs_...) returned when the subscription was registered. Is the environment variable set?',
    );
  }
  if (secret === undefined || secret === null) {
    throw new TypeError(
      `secret is ${secret}: pass the signing_secret (ofx_whs_...) returned when the subscription was registered. Is the environment variable set?`,
    );
  }
  if (secret instanceof Uint8Array || secret instanceof ArrayBuffer) {
    throw new TypeError(
      'secret must be the signing secret string (ofx_whs_...), not bytes: the HMAC key is the UTF-8 bytes of the whole string; do not base64-decode it.',
    );
  }
  throw new TypeError(`secret must be a string (ofx_whs_...), got ${typeof secret}.`);
}
