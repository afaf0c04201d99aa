// The FHIR R4 resource types the R4 view serves: the table behind each, its renderer, its
// scope (its search parameters are search/search-parameters.ts). The operations, the
// CapabilityStatement and the tests all read this one table, so what is announced is what
// is served.
import { toR4Patient } from './r4-patient.js';
import type { Knex } from 'knex';
import { toR4Coverage } from './r4-coverage.js';
import { toR4Observation } from './r4-observation.js';
import { toR4AllergyIntolerance } from './r4-allergy-intolerance.js';
import { toR4Condition, toR4MedicationRequest, toR4ServiceRequest } from './r4-clinical-requests.js';
import { toR4CoverageEligibilityResponse } from './r4-coverage-eligibility-response.js';
import { toR4DiagnosticReport, withDiagnosticReportReferences } from './r4-diagnostic-report.js';
import { withIdentifiersOf } from './r4-identifiers.js';

export interface R4Type {
  type: 'Patient' | 'Coverage' | 'Observation' | 'AllergyIntolerance' | 'Condition' | 'ServiceRequest' | 'MedicationRequest' | 'CoverageEligibilityResponse' | 'DiagnosticReport';
  table: string;
  scope: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  render: (row: any) => { resourceType: string; id: string };
  /**
   * What the renderer needs beyond the row's own columns, read for a whole page at once and set
   * on its rows (Coverage: its identifiers). Every path that renders (read, search, $export)
   * calls it first: `withRelated(r4, db, orgId, rows)`.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  related?: (db: Knex, orgId: string, rows: any[]) => Promise<void>;
}

/** Reads what the type's renderer needs beside the rows (R4Type.related), if anything. */
export async function withRelated<Row>(r4: R4Type, db: Knex, orgId: string, rows: Row[]): Promise<Row[]> {
  if (r4.related && rows.length > 0) await r4.related(db, orgId, rows);
  return rows;
}

export const R4_TYPES: R4Type[] = [
  { type: 'Patient', table: 'residents', scope: 'residents.read', render: toR4Patient },
  { type: 'Coverage', table: 'coverage', scope: 'coverage.read', render: toR4Coverage, related: withIdentifiersOf('Coverage') },
  // Each record's identifiers as it was sent with them (resource_identifiers), read per page.
  { type: 'Observation', table: 'observations', scope: 'clinical.read', render: toR4Observation, related: withIdentifiersOf('Observation') },
  { type: 'AllergyIntolerance', table: 'allergies', scope: 'clinical.read', render: toR4AllergyIntolerance, related: withIdentifiersOf('AllergyIntolerance') },
  { type: 'Condition', table: 'conditions', scope: 'clinical.read', render: toR4Condition, related: withIdentifiersOf('Condition') },
  { type: 'ServiceRequest', table: 'service_requests', scope: 'clinical.read', render: toR4ServiceRequest, related: withIdentifiersOf('ServiceRequest') },
  { type: 'MedicationRequest', table: 'medication_requests', scope: 'clinical.read', render: toR4MedicationRequest, related: withIdentifiersOf('MedicationRequest') },
  // What X12 271s said of the Coverages (written by the 271 applier only), with coverage.read.
  { type: 'CoverageEligibilityResponse', table: 'eligibility_responses', scope: 'coverage.read', render: toR4CoverageEligibilityResponse },
  // Lab results (HL7 v2 OBR with its OBX), their Observations and order resolved per page.
  { type: 'DiagnosticReport', table: 'diagnostic_reports', scope: 'clinical.read', render: toR4DiagnosticReport, related: withDiagnosticReportReferences },
];
