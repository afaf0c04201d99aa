// The business identifiers a record was sent with (FHIR `identifier`, HL7 v2 placer and filler
// numbers, IN1 plan and policy), as resource_identifiers holds them (ingest/apply-change-set.ts
// indexes every one): read for a whole page at once, in (system, value) order, since the table
// keeps no order of the sender's and a stable order keeps a version's rendering the same.
import type { Knex } from 'knex';
import { identifierRowsByValue, identifierRowsOfRecords } from '../../db/identifier-rows.js';

export type Identifier = { system: string; value: string };

/**
 * ofctx's own match keys for records the sender gave no identifier (an OBX, an OBR of an order
 * with several): derived from the resident and codes (hl7/hl7-reading.ts derivedValue), never
 * the sender's, so not rendered.
 */
const DERIVED = /^urn:ofctx:hl7v2:(observation|diagnostic-report):/;

/** The `identifier` element of a rendered resource: the identifiers `related` set on its row, if any. */
export function identifierElement(row: { identifiers?: Identifier[] }): { identifier?: Identifier[] } {
  return row.identifiers?.length ? { identifier: row.identifiers.map(({ system, value }) => ({ system, value })) } : {};
}

/** Each row's identifiers, by row id: one query per 500 rows (a page is one). */
export async function identifiersByRow(db: Knex, orgId: string, type: string, ids: readonly string[]): Promise<Map<string, Identifier[]>> {
  const byId = new Map<string, Identifier[]>(ids.map((id) => [id, []]));
  for (const { resource_id, system, value } of await identifierRowsOfRecords(db, orgId, type, ids)) if (!DERIVED.test(system)) byId.get(resource_id)?.push({ system, value });
  return byId;
}

/** The `related` reader of a type whose renderer shows `row.identifiers` (r4-types.ts). */
export function withIdentifiersOf(type: string) {
  return async (db: Knex, orgId: string, rows: Array<{ id: string; identifiers?: Identifier[] }>): Promise<void> => {
    const byId = await identifiersByRow(db, orgId, type, rows.map((row) => row.id));
    for (const row of rows) row.identifiers = byId.get(row.id)!;
  };
}

/**
 * The records of `type` in `table` that these identifiers name, within one facility: by
 * `system|value`, the record's id (an identifier naming two records names neither).
 */
export async function recordsIdentifiedBy(db: Knex, orgId: string, type: string, table: string, facilityId: string, identifiers: readonly Identifier[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const values = [...new Set(identifiers.map((i) => i.value))];
  const wanted = new Set(identifiers.map((i) => `${i.system}|${i.value}`));
  const hits: Array<{ key: string; id: string }> = [];
  for (const row of await identifierRowsByValue(db, orgId, values, type)) {
    if (wanted.has(`${row.system}|${row.value}`)) hits.push({ key: `${row.system}|${row.value}`, id: row.resource_id });
  }
  const ids = [...new Set(hits.map((h) => h.id))];
  const inFacility = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const row of (await db(table).where({ facility_id: facilityId }).whereIn('id', ids.slice(i, i + 500)).select('id')) as Array<{ id: string }>) inFacility.add(row.id);
  }
  const ambiguous = new Set<string>();
  for (const { key, id } of hits) {
    if (!inFacility.has(id)) continue;
    if (found.has(key) && found.get(key) !== id) ambiguous.add(key);
    found.set(key, id);
  }
  for (const key of ambiguous) found.delete(key);
  return found;
}
