// Coverage row -> FHIR R4 Coverage. The payer is known by name only, so payor is a Reference
// with `display` (R4 allows a display-only Reference; a name is not a resource id) and, when
// the source named it, the payer's identifier.
import type { CoverageRow } from '../fhir-coverage.js';
import { fhirMeta } from '../fhir-meta.js';

export function toR4Coverage(row: CoverageRow & { version_id: number | string; last_updated: string; period_end?: string | null; payor_id?: string | null }) {
  return {
    resourceType: 'Coverage' as const,
    id: row.id,
    meta: fhirMeta(row),
    status: row.status,
    subscriberId: row.subscriber_id,
    beneficiary: { reference: `Patient/${row.resident_id}` },
    period: { start: row.period_start, ...(row.period_end ? { end: row.period_end } : {}) },
    payor: [{ ...(row.payor_id ? { identifier: { value: row.payor_id } } : {}), display: row.payor_name }],
    order: row.coverage_order,
  };
}
