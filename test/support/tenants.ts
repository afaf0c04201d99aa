// Two organizations with data in three facilities, and credentials of several shapes, for
// tests of tenancy and resources.
import type { IssuedClient } from '../../server/src/auth/clients.js';
import { ALL_SCOPES, type TestService } from './service.js';
import { tokenFor } from './http.js';

export interface Tenants {
  orgA: string;
  orgB: string;
  /** Facilities of org A: the one granted to `full` and one that is not. */
  a1: string;
  a2: string;
  /** A facility of org B. */
  b1: string;
  full: IssuedClient;
  fullToken: string;
  /** Org B's credential, all scopes on b1. */
  otherOrgToken: string;
  /** Org A, a1, coverage.read only. */
  coverageOnlyToken: string;
}

export async function seedTenants(service: TestService, residentsPerFacility = 12): Promise<Tenants> {
  const orgA = (await service.seed.org('Org A')).id;
  const orgB = (await service.seed.org('Org B')).id;
  const a1 = (await service.seed.facility(orgA, 'A1')).id;
  const a2 = (await service.seed.facility(orgA, 'A2')).id;
  const b1 = (await service.seed.facility(orgB, 'B1')).id;
  for (const [org, facility] of [[orgA, a1], [orgA, a2], [orgB, b1]] as const) {
    await service.seed.data({ orgId: org, facilityId: facility, residents: residentsPerFacility });
  }
  const full = await service.seed.client({ orgId: orgA, facilityIds: [a1], scopes: ALL_SCOPES });
  const other = await service.seed.client({ orgId: orgB, facilityIds: [b1], scopes: ALL_SCOPES });
  const coverageOnly = await service.seed.client({ orgId: orgA, facilityIds: [a1], scopes: ['coverage.read'] });
  return {
    orgA, orgB, a1, a2, b1, full,
    fullToken: await tokenFor(service.baseUrl, full),
    otherOrgToken: await tokenFor(service.baseUrl, other),
    coverageOnlyToken: await tokenFor(service.baseUrl, coverageOnly),
  };
}

/** The facility-scoped resource operations: list path, read path template and scope. */
export const RESOURCE_ENDPOINTS = [
  { name: 'residents', list: 'residents', scope: 'residents.read', table: 'residents' },
  { name: 'coverage', list: 'coverage', scope: 'coverage.read', table: 'coverage' },
  { name: 'observations', list: 'clinical/Observation', scope: 'clinical.read', table: 'observations' },
  { name: 'allergies', list: 'clinical/AllergyIntolerance', scope: 'clinical.read', table: 'allergies' },
] as const;
