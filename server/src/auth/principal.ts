import type { Caller } from '../tenancy/caller.js';
import type { QuotaOverride } from '../quotas/client-quotas.js';

// Who is calling: the credential behind a bearer token, with what the token may touch now
// (the Caller the tenancy rules read) and what the service needs of it beside.
export interface Principal extends Caller {
  clientPk: string;
  clientId: string;
  expiresAt: number;
  /** The credential's own request quota, or null for the default (quotas/client-quotas.ts). */
  quota: QuotaOverride | null;
}
