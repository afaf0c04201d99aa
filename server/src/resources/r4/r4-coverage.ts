// Coverage row -> FHIR R4 Coverage. The payer is known by name only, so payor is a Reference
// with `display` (R4 allows a display-only Reference; a name is not a resource id) and, when
// the source named it, the payer's identifier. What a 270 needs beside (migration 032) is
// rendered as the columns stand for it (ingest/mapping/coverage.ts coverageDetailElements):
// type, class[], relationship, subscriber (the beneficiary, or a contained RelatedPerson).
// The Coverage's own identifiers are the ones it is found by (resource_identifiers, written by
// applyChangeSet with the row: they change only with a new version), read for a whole page
// at once by withIdentifiersOf('Coverage') (r4-identifiers.ts), in (system, value) order: the table keeps no order of
// the sender's, and a stable order keeps a version's rendering the same.
import type { CoverageRow } from '../fhir-coverage.js';
import { fhirMeta } from '../fhir-meta.js';
import { coverageDetailElements, type CoverageDetailColumns } from '../../ingest/mapping/coverage.js';

export interface R4CoverageRow extends CoverageRow, CoverageDetailColumns {
  version_id: number | string;
  last_updated: string;
  period_end?: string | null;
  payor_id?: string | null;
  /** Set by withIdentifiersOf('Coverage') (r4-identifiers.ts). */
  identifiers?: Array<{ system: string; value: string }>;
}

export function toR4Coverage(row: R4CoverageRow) {
  const beneficiary = `Patient/${row.resident_id}`;
  const { contained, ...details } = coverageDetailElements(row, beneficiary);
  return {
    resourceType: 'Coverage' as const,
    id: row.id,
    meta: fhirMeta(row),
    ...(contained ? { contained } : {}),
    ...(row.identifiers?.length ? { identifier: row.identifiers.map(({ system, value }) => ({ system, value })) } : {}),
    status: row.status,
    ...(details.type ? { type: details.type } : {}),
    ...(details.subscriber ? { subscriber: details.subscriber } : {}),
    subscriberId: row.subscriber_id,
    beneficiary: { reference: beneficiary },
    ...(details.relationship ? { relationship: details.relationship } : {}),
    period: { start: row.period_start, ...(row.period_end ? { end: row.period_end } : {}) },
    payor: [{ ...(row.payor_id ? { identifier: { value: row.payor_id } } : {}), display: row.payor_name }],
    ...(details.class ? { class: details.class } : {}),
    order: row.coverage_order,
  };
}
