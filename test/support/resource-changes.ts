// Changing resource rows in tests the one way the service does: through applyChangeSet, so
// version_id and last_updated move exactly as ingestion moves them.
import type { Knex } from 'knex';
import { applyChangeSet } from '../../server/src/ingest/apply-change-set.js';
import type { IngestResource } from '../../server/src/ingest/change-set.js';
import { coverageDetailElements } from '../../server/src/ingest/mapping/coverage.js';

export async function applyOne(db: Knex, orgId: string, facilityId: string, resource: IngestResource, id?: string): Promise<{ id: string; versionId: number; lastUpdated: string }> {
  const result = await applyChangeSet(db, {
    orgId, facilityId, mode: 'transaction', actor: 'test', emitEvents: false,
    changes: [{ resource, at: 'test', ...(id ? { match: { id } } : {}) }],
  });
  const outcome = result.outcomes[0]!;
  if (outcome.outcome === 'rejected') throw new Error(`change rejected: ${outcome.issue.diagnostics}`);
  return { id: outcome.id, versionId: outcome.versionId, lastUpdated: outcome.lastUpdated };
}

/** A coverage row as the FHIR R4 Coverage ingestion takes, with some elements changed. */
export async function coverageResource(db: Knex, id: string, changes: Record<string, unknown> = {}): Promise<IngestResource> {
  const row = await db('coverage').where({ id }).first();
  return {
    // Its type, class, relationship and subscriber as they are (a resource left without them erases them).
    ...coverageDetailElements(row, `Patient/${row.resident_id}`),
    resourceType: 'Coverage',
    status: row.status,
    beneficiary: { reference: `Patient/${row.resident_id}` },
    payor: [{ display: row.payor_name }],
    subscriberId: row.subscriber_id,
    period: { start: row.period_start },
    order: row.coverage_order,
    ...changes,
  };
}

/** Changes one coverage row's subscriber id: a real change (version + 1, new last_updated). */
export async function touchCoverage(db: Knex, orgId: string, facilityId: string, id: string, mark: string) {
  return applyOne(db, orgId, facilityId, await coverageResource(db, id, { subscriberId: `*****${mark}` }), id);
}

/** Discharges a resident (Patient.active false), as its system of record would. */
export async function dischargeResident(db: Knex, orgId: string, facilityId: string, residentId: string) {
  const resident = await db('residents').where({ id: residentId }).first();
  return applyOne(db, orgId, facilityId, {
    resourceType: 'Patient',
    identifier: JSON.parse(resident.identifiers),
    active: false,
    name: [{ use: 'official', family: resident.family_name, given: JSON.parse(resident.given_names) }],
    gender: resident.gender,
    birthDate: resident.birth_date,
  }, residentId);
}
