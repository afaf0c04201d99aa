// The signing secret: the HMAC key is the UTF-8 bytes of the whole secret string, `ofx_whs_`
// prefix included, never base64-decoded. The same key in its Standard Webhooks form
// (`standard_webhooks_secret`: `whsec_` + base64 of those bytes) is accepted too, and read
// back into the `ofx_whs_` form. Several secrets may be given: `[new, old]` during a secret
// rotation's overlap, or the secrets of two subscriptions.

export const STANDARD_WEBHOOKS_PREFIX = 'whsec_';

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
    if (secret.startsWith(STANDARD_WEBHOOKS_PREFIX)) return fromStandardWebhooksSecret(secret);
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

/** `whsec_` + base64 of an ofctx key, back to the `ofx_whs_...` string whose bytes are the key. */
function fromStandardWebhooksSecret(secret: string): string {
  let decoded = '';
  try {
    // atob: in every runtime this package supports, no dependency needed.
    decoded = atob(secret.slice(STANDARD_WEBHOOKS_PREFIX.length).trim());
  } catch {
    // reported below
  }
  if (!SECRET_PATTERN.test(decoded)) {
    throw new TypeError(
      'secret starts with whsec_ but is not an ofctx standard_webhooks_secret: pass the standard_webhooks_secret or the signing_secret (ofx_whs_...) exactly as returned at registration or rotation.',
    );
  }
  return decoded;
}
