// The records a chunk's changes match or reference, read for the whole chunk at once (one
// identifier lookup, one row read per table), and what each change resolves to among them:
// the record it updates (by ofctx id, or by business identifier organization-wide), the
// resident it belongs to, the resident a merge replaces. A change that resolves to nothing it
// may touch is rejected (change-rejection.ts). Rows the chunk inserts join them as it goes.
import type { Knex } from 'knex';
import { isUuid } from '../db/uuid.js';
import { identifierRowsByValue, type IdentifierRow } from '../db/identifier-rows.js';
import type { BusinessIdentifier, ChangeSet, RecordType } from './change-set.js';
import { MAPPINGS } from './mapping/index.js';
import { object, text } from './mapping/resource-mapping.js';
import type { Prepared } from './prepared-change.js';
import { identifierKey, parseIdentifierQuery } from './business-identifiers.js';
import { linksOf, type RecordRow } from './record-row.js';
import { rejectedBy } from './change-rejection.js';
import { TABLE_TYPES } from './record-tables.js';

/**
 * A record the caller read in this transaction already, with the identifier it was found by
 * (the HL7 applier's resident): the chunk reads it no second time.
 */
export interface KnownRecord {
  type: RecordType;
  /** The row as `select *` reads it. */
  row: RecordRow;
  /** The identifier that names it, and only it, in the organization. */
  identifier: BusinessIdentifier;
}

/**
 * Identifier rows the caller read in this transaction already, under its organization's lock
 * (the HL7 applier's, with the ingest clock's tick): every row holding each of `values`.
 */
export interface ReadIdentifiers {
  values: readonly string[];
  rows: IdentifierRow[];
}

export class ChunkRecords {
  /** Every record read or inserted, by id. */
  readonly rows = new Map<string, { type: RecordType; row: RecordRow }>();
  /** Record ids by identifierKey. */
  readonly byIdentifier = new Map<string, string[]>();
  /** The records written by this request's entries, by their fullUrl (urn:uuid references). */
  readonly fullUrls = new Map<string, { type: RecordType; id: string }>();
  /** The rows this chunk inserts (written as they end up: no conditional UPDATE for them). */
  readonly inserted = new Set<string>();

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly set: ChangeSet,
  ) {}

  /** Reads, for the whole chunk at once, every row its changes may match or reference (but those `known` or `read` already). */
  async load(items: Prepared[], known: KnownRecord[] = [], read?: ReadIdentifiers): Promise<void> {
    for (const record of known) {
      this.rows.set(record.row.id, { type: record.type, row: record.row });
      this.byIdentifier.set(identifierKey(record.type, record.identifier), [record.row.id]);
    }
    const keys = new Map<string, [string, string, string]>();
    const ids = new Map<string, Set<string>>();
    const wantId = (type: RecordType, id: string) => {
      if (!isUuid(id) || this.rows.has(id.toLowerCase())) return;
      const table = MAPPINGS[type].table;
      if (!ids.has(table)) ids.set(table, new Set());
      ids.get(table)!.add(id.toLowerCase());
    };
    const wantKey = (type: string, identifier: BusinessIdentifier) => {
      const key = identifierKey(type, identifier);
      if (!this.byIdentifier.has(key)) keys.set(key, [type, identifier.system, identifier.value]);
    };
    for (const item of items) {
      if (item.issue || !item.mapping) continue;
      const match = item.change.match;
      if (match && 'id' in match) wantId(item.mapping.type, match.id);
      if (match && 'identifier' in match) wantKey(item.mapping.type, match.identifier);
      if (match && 'identifier' in match && match.formerly) wantKey(item.mapping.type, match.formerly);
      if (item.change.replaces) wantKey('Patient', item.change.replaces);
      if (item.mapping.residentElement) {
        const reference = object(item.change.resource[item.mapping.residentElement]);
        const target = text(reference?.reference);
        const byId = target ? /^Patient\/([0-9a-fA-F-]{36})(\/_history\/\d+)?$/.exec(target) : null;
        if (byId) wantId('Patient', byId[1]!);
        const query = target?.startsWith('Patient?') ? parseIdentifierQuery(target.slice('Patient?'.length)) : undefined;
        if (query) wantKey('Patient', query);
        const logical = object(reference?.identifier);
        if (!target && text(logical?.system) && text(logical?.value)) wantKey('Patient', { system: logical!.system as string, value: logical!.value as string });
      }
    }
    // By value alone (db/identifier-rows.ts: one probe per value), type and system checked
    // here; a row-value IN list of hundreds of tuples plans badly on PostgreSQL.
    const values = [...new Set([...keys.values()].filter(([, system, value]) => system.length <= 300 && value.length <= 300).map(([, , value]) => value))];
    const readAlready = new Set(read?.values);
    const hits = [...(read?.rows ?? []), ...(await identifierRowsByValue(this.trx, this.set.orgId, values.filter((value) => !readAlready.has(value))))];
    for (const hit of hits) {
      const key = identifierKey(hit.resource_type, hit);
      if (!keys.has(key)) continue;
      const list = this.byIdentifier.get(key) ?? [];
      if (!list.includes(hit.resource_id)) list.push(hit.resource_id);
      this.byIdentifier.set(key, list);
      wantId(hit.resource_type as RecordType, hit.resource_id);
    }
    for (const [table, wanted] of ids) {
      const list = [...wanted];
      for (let i = 0; i < list.length; i += 500) {
        const rows = (await this.trx(table).where({ org_id: this.set.orgId }).whereIn('id', list.slice(i, i + 500))) as RecordRow[];
        for (const row of rows) this.rows.set(row.id, { type: TABLE_TYPES[table]!, row });
      }
    }
  }

  lookup(type: RecordType, identifier: BusinessIdentifier): string[] {
    return this.byIdentifier.get(identifierKey(type, identifier)) ?? [];
  }

  single(type: RecordType, identifier: BusinessIdentifier, where: string): string | undefined {
    const found = this.lookup(type, identifier);
    if (found.length > 1) {
      rejectedBy({ code: 'conflict', diagnostics: `${found.length} ${type} records match identifier ${identifier.system}|${identifier.value}; the match must be unique`, expression: [where] });
    }
    return found[0];
  }

  rowOf(type: RecordType, id: string): RecordRow | undefined {
    const entry = this.rows.get(id.toLowerCase());
    return entry && entry.type === type ? entry.row : undefined;
  }

  /** The resident a clinical or coverage resource belongs to: it must be in this facility. */
  resident(item: Prepared): RecordRow {
    const element = item.mapping!.residentElement!;
    const where = `${item.mapping!.type}.${element}`;
    const reference = object(item.change.resource[element]);
    if (!reference) rejectedBy({ code: 'required', diagnostics: `${where} is required: the resident this ${item.mapping!.type} belongs to`, expression: [where] });
    const target = text(reference.reference);
    let id: string | undefined;
    if (target?.startsWith('urn:uuid:')) {
      const entry = this.fullUrls.get(target);
      if (!entry || entry.type !== 'Patient') rejectedBy({ code: 'not-found', diagnostics: `${where} references ${target}, which no Patient entry of this request has as its fullUrl`, expression: [where] });
      id = entry.id;
    } else if (target?.startsWith('Patient?')) {
      const query = parseIdentifierQuery(target.slice('Patient?'.length));
      if (!query) rejectedBy({ code: 'value', diagnostics: `${where} must be Patient?identifier=SYSTEM|VALUE`, expression: [where] });
      id = this.single('Patient', query, where);
      if (!id) rejectedBy({ code: 'not-found', diagnostics: `${where}: no resident of this organization has identifier ${query.system}|${query.value}`, expression: [where] });
    } else if (target) {
      const byId = /^Patient\/([^/]+)(\/_history\/\d+)?$/.exec(target);
      if (!byId) rejectedBy({ code: 'value', diagnostics: `${where} must reference a Patient: Patient/<id>, Patient?identifier=SYSTEM|VALUE or a urn:uuid fullUrl`, expression: [where] });
      id = byId[1]!.toLowerCase();
    } else {
      const logical = object(reference.identifier);
      if (!text(logical?.system) || !text(logical?.value)) rejectedBy({ code: 'required', diagnostics: `${where} needs a reference or an identifier`, expression: [where] });
      const identifier = { system: logical!.system as string, value: logical!.value as string };
      id = this.single('Patient', identifier, where);
      if (!id) rejectedBy({ code: 'not-found', diagnostics: `${where}: no resident of this organization has identifier ${identifier.system}|${identifier.value}`, expression: [where] });
    }
    const row = this.rowOf('Patient', id);
    if (!row) rejectedBy({ code: 'not-found', diagnostics: `${where}: no resident Patient/${id} in this organization`, expression: [where] });
    if (row.facility_id !== this.set.facilityId) {
      rejectedBy({ code: 'forbidden', diagnostics: `${where}: Patient/${id} belongs to another facility; ingest the Patient under this facility first (a transfer), or send this resource to its facility`, expression: [where] });
    }
    return row;
  }

  target(item: Prepared): RecordRow | undefined {
    const type = item.mapping!.type;
    const match = item.change.match;
    if (!match) return undefined;
    if ('id' in match) {
      const row = this.rowOf(type, match.id);
      // With ifMatch, a missing record is a version conflict (checkVersion), not a 404.
      if (!row && item.change.ifMatch === undefined) rejectedBy({ code: 'not-found', diagnostics: `no ${type}/${match.id} in this organization (ids are assigned by ofctx; match on an identifier to create)`, expression: [type] });
      return row;
    }
    const id = this.single(type, match.identifier, `${type}.identifier`) ?? (match.formerly ? this.single(type, match.formerly, `${type}.identifier`) : undefined);
    return id ? this.rowOf(type, id) : undefined;
  }

  /**
   * The resident a merging Patient change replaces; undefined when that merge is already done
   * (a re-sent A40). Found by identifier, organization-wide, never the surviving resident.
   */
  priorOf(item: Prepared, survivorId: string | undefined): RecordRow | undefined {
    const identifier = item.change.replaces!;
    const where = 'Patient.link';
    if (item.mapping!.type !== 'Patient') rejectedBy({ code: 'not-supported', diagnostics: 'only a Patient change can replace a resident', expression: [where] });
    const id = this.single('Patient', identifier, where);
    if (!id) rejectedBy({ code: 'not-found', diagnostics: `no resident of this organization has identifier ${identifier.system}|${identifier.value}, so there is nothing to merge`, expression: [where] });
    const prior = this.rowOf('Patient', id)!;
    if (prior.id === survivorId) {
      const links = linksOf(prior);
      if (links.some((l) => l.type === 'replaces')) return undefined;
      rejectedBy({ code: 'value', diagnostics: `identifier ${identifier.system}|${identifier.value} names the surviving resident itself`, expression: [where] });
    }
    if (linksOf(prior).some((l) => l.type === 'replaced-by')) {
      if (linksOf(prior).some((l) => l.type === 'replaced-by' && l.other === survivorId)) return undefined;
      rejectedBy({ code: 'conflict', diagnostics: `Patient/${prior.id} was already merged into another resident`, expression: [where] });
    }
    return prior;
  }
}
