// The one place where a caller's grant is checked against what it asks for:
// the operation's scope, the path's organization and the path's facility.
// Resource queries then also filter by organization and facility, so a resource of another
// tenant is simply not found (404), indistinguishable from an unknown id.
import { ApiError } from '../errors/api-error.js';
import type { Principal } from '../auth/principal.js';
import { REALM } from '../auth/bearer-authentication.js';

export function authorize(principal: Principal, requiredScopes: readonly string[], params: Record<string, string>): void {
  const missing = requiredScopes.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) {
    const scope = missing.join(' ');
    throw new ApiError(
      'insufficient_scope',
      `This operation needs the scope ${scope}, which the access token does not carry.`,
      [{ field: 'scope', issue: `requires ${scope}` }],
      { 'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` },
    );
  }
  if (params.org_id !== undefined && params.org_id !== principal.orgId) {
    throw new ApiError('organization_forbidden', undefined, [{ field: 'path.org_id', issue: 'is not the organization of this credential' }]);
  }
  if (params.facility_id !== undefined && !principal.facilityIds.has(params.facility_id)) {
    throw new ApiError('facility_forbidden', undefined, [{ field: 'path.facility_id', issue: 'is not granted to this credential' }]);
  }
}
