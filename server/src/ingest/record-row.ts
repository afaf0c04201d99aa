// A record's row as a chunk reads and writes it, and the Patient links merges keep on it.
export type RecordRow = Record<string, unknown> & { id: string; org_id: string; facility_id: string; version_id: number; last_updated: string };

/** Patient.link as stored (residents.links), written only by merges. */
export function linksOf(row: RecordRow): Array<{ other: string; type: 'replaced-by' | 'replaces' }> {
  return typeof row.links === 'string' ? (JSON.parse(row.links) as Array<{ other: string; type: 'replaced-by' | 'replaces' }>) : [];
}
