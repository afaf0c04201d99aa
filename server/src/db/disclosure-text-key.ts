// A disclosures text's key on PostgreSQL (migrations 045, 050): the stored text's SHA-256
// (audit_texts) when the row names it by digest, the md5 of the text when the row keeps it.
// One expression for the index on audit_events (migration 050), the disclosure catch-up and
// the report, because PostgreSQL uses an expression index only where a query writes the same
// expression (and the same collation: "C", byte order, as the keys are hex).
export const DISCLOSURE_TEXT_INDEX = 'audit_events_disclosure_text';

/** The key of the disclosures text of the audit row aliased `alias`. */
export function disclosureTextKey(alias: string): string {
  return `(coalesce(${alias}.disclosures_digest, md5(${alias}.disclosures)) COLLATE "C")`;
}

/** Whether the audit row aliased `alias` disclosed anyone (the index's predicate: rows without disclosures are not in it). */
export function disclosesAnyone(alias: string): string {
  return `(${alias}.disclosures IS NOT NULL OR ${alias}.disclosures_digest IS NOT NULL)`;
}

/** The index's columns and predicate, after `ON <table>` (unqualified column names). */
export const DISCLOSURE_TEXT_INDEX_BODY =
  '(org_id, (coalesce(disclosures_digest, md5(disclosures)) COLLATE "C")) WHERE disclosures IS NOT NULL OR disclosures_digest IS NOT NULL';

/** The first instant after the month that starts at `month` (an ISO-8601 UTC text column), as the same kind of text. */
export function monthEndOf(month: string): string {
  return `to_char(${month}::timestamp + interval '1 month', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The month of an instant column, as the accounting of disclosures names it (its first instant). */
export function monthOf(at: string): string {
  return `(substr(${at}, 1, 7) || '-01T00:00:00.000Z')`;
}
