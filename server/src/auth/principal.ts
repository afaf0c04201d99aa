import type { AccessPolicy } from '../tenancy/access-policy.js';
import type { GranularRestrictions } from './granular-scopes.js';
import type { QuotaOverride } from '../quotas/client-quotas.js';

// Who is calling: the credential behind a bearer token, with what the token may touch now.
export interface Principal {
  clientPk: string;
  clientId: string;
  orgId: string;
  scopes: ReadonlySet<string>;
  /** The token's facilities that the credential is still granted. */
  facilityIds: ReadonlySet<string>;
  expiresAt: number;
  /** The credential's access policy (purpose of use, payers, sensitive records). */
  policy: AccessPolicy;
  /** What the token's granular scopes let it see of the types they restrict (null: nothing restricted). */
  restrictions: GranularRestrictions | null;
  /** The credential's own request quota, or null for the default (quotas/client-quotas.ts). */
  quota: QuotaOverride | null;
}
