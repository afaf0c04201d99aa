// POST /api/v1/oauth/token: the OAuth 2.0 client credentials grant (RFC 6749 section 4.4),
// with client authentication in the form body, with HTTP Basic (section 2.3.1), or with a
// signed JWT assertion (private_key_jwt, RFC 7523; SMART Backend Services), and the plain
// RFC 6749 bodies (sections 5.1 and 5.2), never cached.
import { OAuthError } from '../errors/oauth-error.js';
import type { OperationResult } from '../http/operation.js';
import type { PublicOperationRequest } from '../app-context.js';
import { authenticateClient, type ClientRecord } from './clients.js';
import { AssertionRejected, authenticateAssertion, CLIENT_ASSERTION_TYPE } from './client-assertion.js';
import { parseScopes } from '../tenancy/scopes.js';
import { grantOf, isSmartScope } from './smart-scopes.js';
import { tokenEndpointUrl } from './smart-configuration.js';

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

/** True when the request authenticates with a client assertion (private_key_jwt). */
function usesAssertion(fields: Record<string, string>): boolean {
  return fields.client_assertion !== undefined || fields.client_assertion_type !== undefined;
}

const CLIENT_AUTHENTICATION_FAILED = 'Client authentication failed.';

/** private_key_jwt: the assertion alone authenticates; why it failed goes to the log only. */
async function clientOfAssertion(request: PublicOperationRequest, fields: Record<string, string>): Promise<ClientRecord> {
  if (fields.client_assertion_type !== CLIENT_ASSERTION_TYPE) {
    throw new OAuthError('invalid_request', `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}.`, NO_STORE);
  }
  if (!fields.client_assertion) throw new OAuthError('invalid_request', 'client_assertion is required with client_assertion_type.', NO_STORE);
  if (fields.client_secret !== undefined || request.headers.authorization !== undefined) {
    throw new OAuthError('invalid_request', 'Authenticate the client once: with a client assertion, a client secret or HTTP Basic, not several.', NO_STORE);
  }
  const { app } = request;
  try {
    return await authenticateAssertion(app.clientAssertions, fields.client_assertion, [tokenEndpointUrl(request)], fields.client_id);
  } catch (error) {
    if (!(error instanceof AssertionRejected)) throw error;
    // The reason names no secret; the client id is public.
    app.logger.warn({ request_id: request.requestId, reason: error.message }, 'client assertion rejected');
    throw new OAuthError('invalid_client', CLIENT_AUTHENTICATION_FAILED, NO_STORE);
  }
}

async function clientOfSecret(request: PublicOperationRequest, fields: Record<string, string>): Promise<ClientRecord> {
  const authorization = request.headers.authorization as string | undefined;
  const credentials = clientCredentials(fields, authorization);
  const client = await authenticateClient(request.app.db, credentials.clientId, credentials.clientSecret);
  if (!client) {
    throw new OAuthError('invalid_client', CLIENT_AUTHENTICATION_FAILED, {
      ...NO_STORE,
      ...(credentials.viaBasic ? { 'WWW-Authenticate': 'Basic realm="ofctx"' } : {}),
    });
  }
  return client;
}

export async function createToken(request: PublicOperationRequest): Promise<OperationResult> {
  const { app } = request;
  // The per-IP limit was applied before the body was read (token-rate-limit.ts).
  const fields = formFields(request.body);
  if (!fields.grant_type) throw new OAuthError('invalid_request', 'grant_type is required.', NO_STORE);
  if (fields.grant_type !== 'client_credentials') {
    throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported.', NO_STORE);
  }
  const client = usesAssertion(fields) ? await clientOfAssertion(request, fields) : await clientOfSecret(request, fields);
  const asked = fields.scope === undefined || fields.scope.trim() === '' ? null : parseScopes(fields.scope);
  const grant = asked ? grantOf(asked, client.scopes) : { ok: true as const, granted: client.scopes, stated: '', restrictions: null };
  if (!grant.ok && grant.problem === 'invalid') throw new OAuthError('invalid_scope', `The requested scope is not valid: ${grant.reason}.`, NO_STORE);
  if (!grant.ok) throw new OAuthError('invalid_scope', `The requested scope exceeds the scopes granted to this client: ${grant.reason}.`, NO_STORE);
  const issued = await app.tokens.issue(client, grant.granted, grant.restrictions);
  return {
    status: 200,
    headers: NO_STORE,
    // SMART clients asked in their syntax and read what was granted in it; API scopes come back canonical.
    body: { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresIn, scope: asked && asked.some(isSmartScope) ? grant.stated : issued.scope },
  };
}
