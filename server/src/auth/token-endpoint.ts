// POST /api/v1/oauth/token: the OAuth 2.0 client credentials grant (RFC 6749 section 4.4),
// with client authentication in the form body or with HTTP Basic (section 2.3.1), and the
// plain RFC 6749 bodies (sections 5.1 and 5.2), never cached.
import { OAuthError } from '../errors/oauth-error.js';
import type { OperationResult, PublicOperationRequest } from '../http/operation.js';
import { authenticateClient } from './clients.js';
import { isScope, parseScopes } from './scopes.js';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  viaBasic: boolean;
}

function formFields(body: unknown): Record<string, string> {
  if (body === null || typeof body !== 'object') return {};
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    // RFC 6749 section 3.2: parameters must not be included more than once.
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `The parameter ${name} must be sent once, as text.`, NO_STORE);
    fields[name] = value;
  }
  return fields;
}

function basicCredentials(authorization: string | undefined): { clientId: string; clientSecret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 section 2.3.1: both parts are form-urlencoded before base64.
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
}

function clientCredentials(fields: Record<string, string>, authorization: string | undefined): ClientCredentials {
  const basic = basicCredentials(authorization);
  const inBody = fields.client_id !== undefined || fields.client_secret !== undefined;
  if (authorization && /^Basic/i.test(authorization) && !basic) {
    throw new OAuthError('invalid_request', 'The Authorization header is not valid HTTP Basic.', NO_STORE);
  }
  if (basic && inBody) {
    throw new OAuthError('invalid_request', 'Authenticate the client once: with HTTP Basic or in the body, not both.', NO_STORE);
  }
  if (basic) return { ...basic, viaBasic: true };
  if (!fields.client_id || !fields.client_secret) {
    throw new OAuthError('invalid_request', 'client_id and client_secret are required (in the form body or with HTTP Basic).', NO_STORE);
  }
  return { clientId: fields.client_id, clientSecret: fields.client_secret, viaBasic: false };
}

export async function createToken(request: PublicOperationRequest): Promise<OperationResult> {
  const { app } = request;
  const verdict = await app.tokenRateLimiter.consume(request.ip);
  if (!verdict.allowed) {
    throw new OAuthError(
      'rate_limited',
      `Too many token requests from this address; retry after ${verdict.retryAfterSeconds} seconds.`,
      { ...NO_STORE, 'Retry-After': String(verdict.retryAfterSeconds) },
    );
  }
  const fields = formFields(request.body);
  if (!fields.grant_type) throw new OAuthError('invalid_request', 'grant_type is required.', NO_STORE);
  if (fields.grant_type !== 'client_credentials') {
    throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported.', NO_STORE);
  }
  const authorization = request.headers.authorization as string | undefined;
  const credentials = clientCredentials(fields, authorization);
  const client = await authenticateClient(app.db, credentials.clientId, credentials.clientSecret);
  if (!client) {
    throw new OAuthError('invalid_client', 'Client authentication failed.', {
      ...NO_STORE,
      ...(credentials.viaBasic ? { 'WWW-Authenticate': 'Basic realm="ofctx"' } : {}),
    });
  }
  const requested = fields.scope === undefined || fields.scope.trim() === '' ? client.scopes : parseScopes(fields.scope);
  const beyond = requested.filter((scope) => !isScope(scope) || !client.scopes.includes(scope));
  if (beyond.length > 0) {
    throw new OAuthError('invalid_scope', 'The requested scope exceeds the scopes granted to this client.', NO_STORE);
  }
  const issued = await app.tokens.issue(client, requested);
  return {
    status: 200,
    headers: NO_STORE,
    body: { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope: issued.scope },
  };
}
