// Token endpoint errors: the plain RFC 6749 section 5.2 body, not the envelope.
import type { components } from '@ofctx/sdk/contract';

export type OAuthErrorCode = components['schemas']['OAuthError']['error'];

const statusOf: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_client: 401,
  rate_limited: 429,
  server_error: 500,
};

export class OAuthError extends Error {
  readonly status: number;

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
    status?: number,
  ) {
    super(description);
    this.name = 'OAuthError';
    this.status = status ?? statusOf[error];
  }
}
