// A subscription's signing secret, as its receiver is given it once (kept encrypted:
// db/signing-secret-crypto.ts).
import { randomToken } from '../auth/random-token.js';

export const SIGNING_SECRET_PREFIX = 'ofx_whs_';

/** A new signing secret: `ofx_whs_` + base64url of 32 random bytes. */
export function newSigningSecret(): string {
  return randomToken(SIGNING_SECRET_PREFIX, 32);
}
