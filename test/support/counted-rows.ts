// Rows written straight into the tables, bypassing ingestion, for the tests of what triggers
// keep beside them (the counters of migrations 027 and 030): an organization's facilities,
// one resident each, and Coverages of that resident.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';

export interface CountedFacilities {
  orgId: string;
  facilities: string[];
  /** Each facility's one resident. */
  residentOf: Record<string, string>;
}

export async function facilitiesWithAResident(db: Knex, organization: string, names: string[]): Promise<CountedFacilities> {
  const orgId = (await createOrganization(db, organization)).id;
  const facilities: string[] = [];
  const residentOf: Record<string, string> = {};
  for (const name of names) {
    const facilityId = (await createFacility(db, orgId, name)).id;
    facilities.push(facilityId);
    residentOf[facilityId] = randomUUID();
    await db('residents').insert({
      id: residentOf[facilityId], org_id: orgId, facility_id: facilityId, identifiers: '[]', family_name: 'Doe', given_names: '["Jo"]',
      gender: 'unknown', birth_date: '1940-01-01', active: true, created_at: new Date().toISOString(),
    });
  }
  return { orgId, facilities, residentOf };
}

/** The row of a Coverage of the facility's resident, as a plain INSERT writes it. */
export function coverageRow(counted: CountedFacilities, facilityId: string, payorName = 'Acme Health', payorId: string | null = 'ACME-01', id: string = randomUUID()): Record<string, unknown> & { id: string } {
  return {
    id, org_id: counted.orgId, facility_id: facilityId, resident_id: counted.residentOf[facilityId], status: 'active', payor_name: payorName,
    payor_id: payorId, subscriber_id: 'S1', period_start: '2025-01-01', coverage_order: 1, created_at: new Date().toISOString(),
  };
}

/** A Coverage of the facility's resident, written by a plain INSERT; its id. */
export async function insertCoverageRow(trx: Knex, counted: CountedFacilities, facilityId: string, payorName = 'Acme Health', payorId: string | null = 'ACME-01'): Promise<string> {
  const row = coverageRow(counted, facilityId, payorName, payorId);
  await trx('coverage').insert(row);
  return row.id;
}
