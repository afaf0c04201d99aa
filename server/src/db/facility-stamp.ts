// The stamp of a facility's rows of one resource: its facility_resource_counts row's count,
// layout version (deletes, moves) and changes (updates; migration 030), all kept by triggers
// in the transaction of every write, whoever writes. Equal stamps: the same rows, at the same
// versions, in the same order. A kept list page is answered again on it (http/rendered-pages.ts);
// the list reads it with the organization's flags (tenancy/record-visibility.ts).

/** The columns of a facility_resource_counts row a stamp is made of. */
export interface FacilityCounts {
  total?: unknown;
  layout_version?: unknown;
  changes?: unknown;
}

/** The stamp of a counters row, or of none yet (no row of the facility was ever written). */
export function stampOf(counts: FacilityCounts | undefined): string {
  return counts === undefined ? 'none' : `${counts.total} ${counts.layout_version} ${counts.changes}`;
}
