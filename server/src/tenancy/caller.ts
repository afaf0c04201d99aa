// What the tenancy rules read of a caller: its organization, the scopes and facilities its
// token holds, its access policy and its granular scopes. auth/principal.ts's Principal is one.
import type { AccessPolicy } from './access-policy.js';
import type { GranularRestrictions } from './granular-restrictions.js';

export interface Caller {
  orgId: string;
  scopes: ReadonlySet<string>;
  /** The token's facilities that the credential is still granted. */
  facilityIds: ReadonlySet<string>;
  /** The credential's access policy (purpose of use, payers, sensitive records). */
  policy: AccessPolicy;
  /** What the token's granular scopes let it see of the types they restrict (null: nothing restricted). */
  restrictions: GranularRestrictions | null;
}
