// FHIR R4 DiagnosticReport (US Core DiagnosticReport for Laboratory Results; an HL7 v2 OBR
// with its OBX) -> diagnostic_reports row: status, category, code, effective and issued
// instants, conclusion and the narrative report (presentedForm text/plain, kept as text).
// `result` and `basedOn` are kept as the business identifiers their references name
// (`Observation?identifier=SYSTEM|VALUE`, `ServiceRequest?identifier=...`) and resolved when
// read, so results written in the same message, or an order known later, are found.
// clinical.result.created: a new report, or a new status.
import type { EventType } from '../../db/event-types.js';
import { parseIdentifierQuery } from '../business-identifiers.js';
import { bounded, categoryColumns, firstCoding, instant, issue, mapped, object, oneOf, text, type Columns, type ResourceMapping } from './resource-mapping.js';

export const DIAGNOSTIC_REPORT_STATUSES = ['registered', 'partial', 'preliminary', 'final', 'amended', 'corrected', 'appended', 'cancelled', 'entered-in-error', 'unknown'] as const;

/** A list of conditional references to one type, as the identifiers they name. */
function identifiersReferenced(value: unknown, type: 'Observation' | 'ServiceRequest', where: string): Array<{ system: string; value: string }> | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) issue('structure', `${where} must be an array`, where);
  const found = value.map((entry, index) => {
    const reference = text(object(entry)?.reference);
    const identifier = reference?.startsWith(`${type}?`) ? parseIdentifierQuery(reference.slice(type.length + 1)) : undefined;
    if (!identifier) issue('value', `${where}[${index}] must reference a ${type} by identifier: ${type}?identifier=SYSTEM|VALUE`, `${where}[${index}]`);
    return identifier;
  });
  return found.length ? found : null;
}

/** presentedForm: the text/plain attachments' text, in order. */
function narrative(value: unknown): string | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) issue('structure', 'DiagnosticReport.presentedForm must be an array', 'DiagnosticReport.presentedForm');
  const texts = value.map((entry, index) => {
    const where = `DiagnosticReport.presentedForm[${index}]`;
    const attachment = object(entry);
    if (!text(attachment?.contentType)?.startsWith('text/plain')) issue('not-supported', `${where}.contentType must be text/plain`, `${where}.contentType`);
    if (typeof attachment!.data !== 'string') issue('required', `${where}.data is required`, `${where}.data`);
    return Buffer.from(attachment!.data as string, 'base64').toString('utf8');
  });
  return texts.length ? bounded(texts.join('\n'), 200_000, 'DiagnosticReport.presentedForm') : null;
}

export const diagnosticReportMapping: ResourceMapping = {
  type: 'DiagnosticReport',
  table: 'diagnostic_reports',
  residentElement: 'subject',
  toColumns: (resource) =>
    mapped(() => {
      const code = firstCoding(resource.code, 'DiagnosticReport.code');
      const results = identifiersReferenced(resource.result, 'Observation', 'DiagnosticReport.result');
      const basedOn = identifiersReferenced(resource.basedOn, 'ServiceRequest', 'DiagnosticReport.basedOn');
      return {
        status: oneOf(resource.status, DIAGNOSTIC_REPORT_STATUSES, 'DiagnosticReport.status'),
        ...categoryColumns(resource, 'DiagnosticReport'),
        code_system: bounded(code.code_system, 200, 'DiagnosticReport.code.coding[0].system'),
        code: bounded(code.code, 64, 'DiagnosticReport.code.coding[0].code'),
        display: bounded(code.display, 200, 'DiagnosticReport.code.coding[0].display'),
        effective_at: instant(resource.effectiveDateTime, 'DiagnosticReport.effectiveDateTime'),
        issued_at: resource.issued !== undefined ? instant(resource.issued, 'DiagnosticReport.issued') : null,
        results: results ? JSON.stringify(results) : null,
        based_on: basedOn ? JSON.stringify(basedOn) : null,
        conclusion: text(resource.conclusion) ? bounded(resource.conclusion as string, 200_000, 'DiagnosticReport.conclusion') : null,
        presented_form: narrative(resource.presentedForm),
      };
    }),
  events: (before: Columns | undefined, after: Columns): EventType[] => (!before || before.status !== after.status ? ['clinical.result.created'] : []),
};
