// RFC 6750 bearer authentication: the Authorization header -> the calling principal.
import { ApiError } from '../errors/api-error.js';
import { REALM } from '../errors/bearer-realm.js';
import type { AccessTokens } from './access-tokens.js';
import type { Principal } from './principal.js';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export async function authenticateBearer(authorization: string | undefined, tokens: AccessTokens): Promise<Principal> {
  if (!authorization) {
    throw new ApiError('missing_token', undefined, [], { 'WWW-Authenticate': `Bearer realm="${REALM}"` });
  }
  const match = BEARER.exec(authorization);
  const principal = match ? await tokens.resolve(match[1]!) : null;
  if (!principal) {
    throw new ApiError('invalid_token', undefined, [], {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="The access token is invalid, expired or revoked"`,
    });
  }
  return principal;
}
