// Which resident each returned record belongs to, as audit_events.disclosures holds it: one
// small JSON text per request, written with the request's audit row (migration 028). Records
// are named by their position in the row's resource_ids, which already lists every id the
// answer returned, so a page of 50 Coverages adds about 2 KB, not the ids again:
//   {"Coverage": {"<resident id>": [0, 1], "<resident id>": [2, 3]}, "Patient": {"<id>": [4]}}
// Residents are keys, so the index's catch-up reads them without parsing the lists
// (audit/disclosure-index.ts). An id missing from resource_ids is written as itself instead of
// a position: an event read discloses its resident's Patient, while the row's resource_ids
// are the events' (audit/disclosures.ts eventDisclosures).

/** The records of one resident that an answer returned (what the audit trail records of it). */
export interface Disclosure {
  residentId: string;
  resourceType: string;
  resourceIds: string[];
  /** Where those records sit in the answer's resource ids, when the caller knows (disclosuresOf). */
  positions?: number[];
}

/** Resource type -> resident id -> the resident's records (positions in resource_ids). */
type Encoded = Record<string, Record<string, Array<number | string>>>;

/** FHIR ids and type names need no escaping, and JSON.stringify costs 0.13 µs a string. */
const PLAIN = /^[A-Za-z0-9.-]*$/;
/**
 * Texts already found plain: the same residents are named request after request, and the
 * test cost 0.1-0.2 µs a resident id in the service (a page names 25 to 50), a Set lookup a
 * fraction of it (disclosuresOf has already hashed the string). Emptied when full.
 */
const plainTexts = new Set<string>();
const PLAIN_TEXTS_KEPT = 8_192;

function quoted(text: string): string {
  if (plainTexts.has(text)) return `"${text}"`;
  if (!PLAIN.test(text)) return JSON.stringify(text);
  if (plainTexts.size >= PLAIN_TEXTS_KEPT) plainTexts.clear();
  plainTexts.add(text);
  return `"${text}"`;
}

/**
 * Written as text in one pass: building an object keyed by 50 resident ids and stringifying
 * it cost 16 µs a list request. Positions come from disclosuresOf when it knows them (checked
 * against resource_ids), else from a lookup built only then. The work is per resident (a
 * payer's page of 50 Coverages names 50 residents, an unrestricted one 25), so the loop makes
 * no array or closure per resident: one text of records each, one Map entry.
 */
export function encodeDisclosures(disclosures: readonly Disclosure[], resourceIds: readonly string[] | null): string | null {
  if (disclosures.length === 0) return null;
  let lookup: Map<string, number> | undefined;
  // Type -> resident -> its records as text (one key per resident and type, however given).
  const byType = new Map<string, Map<string, string>>();
  for (const d of disclosures) {
    const ids = d.resourceIds;
    const positions = d.positions;
    let records = '';
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      let at = positions?.[k];
      if (at === undefined || resourceIds?.[at] !== id) {
        if (!lookup) {
          lookup = new Map();
          if (resourceIds) {
            for (let i = 0; i < resourceIds.length; i++) if (!lookup.has(resourceIds[i]!)) lookup.set(resourceIds[i]!, i);
          }
        }
        at = lookup.get(id);
      }
      const record = at === undefined ? quoted(id) : String(at);
      records = k === 0 ? record : `${records},${record}`;
    }
    let residents = byType.get(d.resourceType);
    if (!residents) byType.set(d.resourceType, (residents = new Map()));
    const earlier = residents.get(d.residentId);
    residents.set(d.residentId, !earlier ? records : records === '' ? earlier : `${earlier},${records}`);
  }
  let text = '{';
  for (const [type, residents] of byType) {
    text += `${text === '{' ? '' : ','}${quoted(type)}:{`;
    let first = true;
    for (const [residentId, records] of residents) {
      text += `${first ? '' : ','}${quoted(residentId)}:[${records}]`;
      first = false;
    }
    text += '}';
  }
  return `${text}}`;
}

/** A resident's records back to ids: a position in resource_ids, or the id written as itself. */
function idsOf(records: ReadonlyArray<number | string>, resourceIds: readonly string[] | null | undefined): string[] {
  return records.map((r) => (typeof r === 'number' ? resourceIds?.[r] ?? String(r) : r));
}

export function decodeDisclosures(text: string, resourceIds: readonly string[] | null): Disclosure[] {
  const encoded = JSON.parse(text) as Encoded;
  const disclosures: Disclosure[] = [];
  for (const [resourceType, residents] of Object.entries(encoded)) {
    for (const [residentId, records] of Object.entries(residents)) {
      disclosures.push({ residentId, resourceType, resourceIds: idsOf(records, resourceIds) });
    }
  }
  return disclosures;
}

/**
 * One resident's part of an audit row's disclosures, found without parsing the whole row: the
 * report reads tens of thousands of rows for a resident every list request showed. Resident
 * ids and resource types are written by encodeDisclosures as plain keys (FHIR ids and type
 * names hold no quotes or backslashes), so the resident's key is found by its text.
 */
export function disclosuresOfResidentIn(text: string, resourceIdsText: string | null, residentId: string): Disclosure[] {
  const key = `"${residentId}":[`;
  const found: Disclosure[] = [];
  let resourceIds: string[] | null | undefined;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + key.length)) {
    const typeEnd = text.lastIndexOf('":{', at);
    const type = text.slice(text.lastIndexOf('"', typeEnd - 1) + 1, typeEnd);
    const listStart = at + key.length - 1;
    const records = JSON.parse(text.slice(listStart, text.indexOf(']', listStart) + 1)) as Array<number | string>;
    resourceIds ??= resourceIdsText === null ? null : (JSON.parse(resourceIdsText) as string[]);
    found.push({ residentId, resourceType: type, resourceIds: idsOf(records, resourceIds) });
  }
  return found;
}
