// FHIR `meta` of every partner-facing resource: the row's version (a string, as FHIR has it)
// and the instant of its last change.
export interface VersionedRow {
  version_id: number | string;
  last_updated: string;
}

export function fhirMeta(row: VersionedRow): { versionId: string; lastUpdated: string } {
  return { versionId: String(row.version_id), lastUpdated: row.last_updated };
}
