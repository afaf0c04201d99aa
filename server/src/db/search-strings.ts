// The string search index (search_strings): the names a Patient is found by, normalised the
// way FHIR string search compares them (case- and accent-insensitive), so `name=okafo` is an
// index range scan, never a scan of JSON. Written by applyChangeSet with the row, backfilled by
// migration 015; both build the index rows here, so they cannot disagree.
import type { Knex } from 'knex';
import type { InsertBatch } from './insert-batch.js';

/** Lower case without diacritics: `Ñúñez` -> `nunez` (NFD, combining marks removed). */
export function normalizeText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export interface SearchStringRow {
  org_id: string;
  resource_type: string;
  resource_id: string;
  /** The search parameter: `family` or `given` (`name` searches both). */
  param: string;
  /** As held, for `:exact`. */
  value: string;
  norm: string;
}

/** The index rows of a residents row (family_name, given_names JSON). */
export function residentSearchStrings(row: { id: string; org_id: string; family_name: string; given_names: string }): SearchStringRow[] {
  const entry = (param: string, value: string): SearchStringRow => ({
    org_id: row.org_id,
    resource_type: 'Patient',
    resource_id: row.id,
    param,
    value: value.slice(0, 200),
    norm: normalizeText(value).slice(0, 200),
  });
  const given = [...new Set(JSON.parse(row.given_names) as string[])];
  return [entry('family', row.family_name), ...given.map((name) => entry('given', name))];
}

/** Replaces the index rows of these residents (deleted first, then written again). */
export async function writeResidentSearchStrings(
  trx: Knex | Knex.Transaction,
  rows: Array<{ id: string; org_id: string; family_name: string; given_names: string }>,
  replace: boolean,
  /** New residents' names join the caller's batch (written with its other inserts). */
  batch?: InsertBatch,
): Promise<void> {
  if (replace) for (let i = 0; i < rows.length; i += 500) await trx('search_strings').whereIn('resource_id', rows.slice(i, i + 500).map((r) => r.id)).delete();
  const index = rows.flatMap(residentSearchStrings);
  if (batch && !replace) return batch.add('search_strings', index);
  // Six columns a row: well under both databases' bound-parameter limits, and SQLite's 500 terms.
  for (let i = 0; i < index.length; i += 400) await trx('search_strings').insert(index.slice(i, i + 400));
}
