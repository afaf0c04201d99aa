// GET .well-known/smart-configuration (SMART App Launch 2.0, backend services), at the API
// root and under the FHIR R4 base: one public document, so one handler serves both.
import type { OperationResult } from '../http/operation.js';
import type { PublicOperationRequest } from '../app-context.js';
import { SCOPES } from '../tenancy/scopes.js';
import { supportedScopes } from './smart-scopes.js';
import { ASSERTION_ALGORITHMS } from './client-assertion.js';
import { TOKEN_PATH } from '../errors/token-endpoint.js';

/**
 * The token URL as clients must name it in `aud`: from PUBLIC_BASE_URL when set (behind a
 * proxy the request's own URL is the proxy's business), else as this request reached us.
 */
export function tokenEndpointUrl(request: PublicOperationRequest): string {
  // (koa 3's ctx.origin is the Origin header, not this.)
  const base = request.app.config.publicBaseUrl ?? `${request.koa.protocol}://${request.koa.host}`;
  return `${base.replace(/\/+$/, '')}${TOKEN_PATH}`;
}

export async function getSmartConfiguration(request: PublicOperationRequest): Promise<OperationResult> {
  return {
    status: 200,
    body: {
      token_endpoint: tokenEndpointUrl(request),
      token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic', 'client_secret_post'],
      token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
      grant_types_supported: ['client_credentials'],
      scopes_supported: supportedScopes(SCOPES),
      // permission-v1 and -v2: both scope syntaxes are read (auth/smart-scopes.ts).
      capabilities: ['client-confidential-asymmetric', 'permission-v1', 'permission-v2'],
    },
  };
}

export const smartConfigurationOperations = {
  getSmartConfiguration,
  getFhirSmartConfiguration: getSmartConfiguration,
};
