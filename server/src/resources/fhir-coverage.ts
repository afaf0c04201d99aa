// Coverage row -> FHIR R4-aligned Coverage; status carries the X12 271 eligibility outcome.
import type { components } from '@ofctx/sdk/contract';
import { fhirMeta, type VersionedRow } from './fhir-meta.js';

export type Coverage = components['schemas']['Coverage'];

export interface CoverageRow extends VersionedRow {
  /** Insertion order: the stable order of lists. */
  seq: number;
  id: string;
  resident_id: string;
  status: Coverage['status'];
  payor_name: string;
  subscriber_id: string;
  period_start: string;
  coverage_order: number;
}

export function toCoverage(row: CoverageRow): Coverage {
  return {
    resourceType: 'Coverage',
    id: row.id,
    meta: fhirMeta(row),
    status: row.status,
    beneficiary: { reference: `Patient/${row.resident_id}` },
    payor: [{ reference: `Organization/${row.payor_name}` }],
    subscriberId: row.subscriber_id,
    period: { start: row.period_start },
    order: row.coverage_order,
  };
}
