// eligibility_responses row -> FHIR R4 CoverageEligibilityResponse: what an X12 271 loop said
// of one Coverage (x12/eligibility-response.ts lists the mapping), rebuilt from its columns.
import { fhirMeta, type VersionedRow } from '../fhir-meta.js';

export interface EligibilityResponseRow extends VersionedRow {
  id: string;
  resident_id: string;
  coverage_id: string;
  created: string;
  outcome: string;
  disposition: string | null;
  inforce: boolean | number | null;
  insurer: string;
  request: string;
  items: string | null;
  errors: string | null;
}

export function toR4CoverageEligibilityResponse(row: EligibilityResponseRow) {
  return {
    resourceType: 'CoverageEligibilityResponse' as const,
    id: row.id,
    meta: fhirMeta(row),
    status: 'active',
    purpose: ['validation', 'benefits'],
    patient: { reference: `Patient/${row.resident_id}` },
    created: row.created,
    request: JSON.parse(row.request) as object,
    outcome: row.outcome,
    ...(row.disposition ? { disposition: row.disposition } : {}),
    insurer: JSON.parse(row.insurer) as object,
    insurance: [
      {
        coverage: { reference: `Coverage/${row.coverage_id}` },
        ...(row.inforce === null || row.inforce === undefined ? {} : { inforce: Boolean(row.inforce) }),
        ...(row.items ? { item: JSON.parse(row.items) as object[] } : {}),
      },
    ],
    ...(row.errors ? { error: JSON.parse(row.errors) as object[] } : {}),
  };
}
