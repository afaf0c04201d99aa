// DiagnosticReport row -> FHIR R4 DiagnosticReport (US Core DiagnosticReport for Laboratory
// Results): its identifiers (placer and filler numbers), `basedOn` the ServiceRequest with its
// placer number when ofctx holds one, status, category (LAB, or the OBR-24 section), code,
// subject, effective and issued, `result` its Observations as ofctx holds them, and a
// narrative report as `presentedForm` (text/plain) and `conclusion`. The references are
// resolved for a whole page at once (withDiagnosticReportReferences), from the identifiers the
// row keeps.
import type { Knex } from 'knex';
import { fhirMeta } from '../fhir-meta.js';
import { identifierElement, identifiersByRow, recordsIdentifiedBy, type Identifier } from './r4-identifiers.js';

export interface R4DiagnosticReportRow {
  id: string;
  facility_id: string;
  resident_id: string;
  version_id: number | string;
  last_updated: string;
  status: string;
  category_system: string | null;
  category_code: string | null;
  category_display: string | null;
  code_system: string;
  code: string;
  display: string;
  effective_at: string;
  issued_at: string | null;
  results: string | null;
  based_on: string | null;
  conclusion: string | null;
  presented_form: string | null;
  /** Set by withDiagnosticReportReferences. */
  identifiers?: Identifier[];
  resultIds?: string[];
  basedOnIds?: string[];
}

const parsed = (json: string | null): Identifier[] => (json ? (JSON.parse(json) as Identifier[]) : []);

export function toR4DiagnosticReport(row: R4DiagnosticReportRow) {
  const category = row.category_system && row.category_code ? [{ coding: [{ system: row.category_system, code: row.category_code, display: row.category_display ?? row.category_code }], text: row.category_display ?? row.category_code }] : undefined;
  return {
    resourceType: 'DiagnosticReport' as const,
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    ...(row.basedOnIds?.length ? { basedOn: row.basedOnIds.map((id) => ({ reference: `ServiceRequest/${id}` })) } : {}),
    status: row.status,
    ...(category ? { category } : {}),
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    subject: { reference: `Patient/${row.resident_id}` },
    effectiveDateTime: row.effective_at,
    ...(row.issued_at ? { issued: row.issued_at } : {}),
    ...(row.resultIds?.length ? { result: row.resultIds.map((id) => ({ reference: `Observation/${id}` })) } : {}),
    ...(row.conclusion ? { conclusion: row.conclusion } : {}),
    ...(row.presented_form ? { presentedForm: [{ contentType: 'text/plain; charset=utf-8', data: Buffer.from(row.presented_form, 'utf8').toString('base64'), title: row.display }] } : {}),
  };
}

/** Sets each row's identifiers, resultIds and basedOnIds: a few queries per page. */
export async function withDiagnosticReportReferences(db: Knex, orgId: string, rows: R4DiagnosticReportRow[]): Promise<void> {
  const identifiers = await identifiersByRow(db, orgId, 'DiagnosticReport', rows.map((row) => row.id));
  for (const facilityId of new Set(rows.map((row) => row.facility_id))) {
    const here = rows.filter((row) => row.facility_id === facilityId);
    const observations = await recordsIdentifiedBy(db, orgId, 'Observation', 'observations', facilityId, here.flatMap((row) => parsed(row.results)));
    const orders = await recordsIdentifiedBy(db, orgId, 'ServiceRequest', 'service_requests', facilityId, here.flatMap((row) => parsed(row.based_on)));
    for (const row of here) {
      row.identifiers = identifiers.get(row.id)!;
      row.resultIds = [...new Set(parsed(row.results).map((i) => observations.get(`${i.system}|${i.value}`)).filter((id): id is string => id !== undefined))];
      row.basedOnIds = [...new Set(parsed(row.based_on).map((i) => orders.get(`${i.system}|${i.value}`)).filter((id): id is string => id !== undefined))];
    }
  }
}
