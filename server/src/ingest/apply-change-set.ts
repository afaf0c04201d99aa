// applyChangeSet: the only code that writes resource rows and their events. It matches each
// change to the record it updates (by ofctx id, or by business identifier organization-wide),
// maps the FHIR resource to the row's columns, and writes only real changes: a new row is
// version 1; a change of any column bumps version_id by exactly 1 and sets last_updated; an
// identical re-send writes nothing, bumps nothing and emits nothing. The events of the
// changes (see EVENT TABLE below) are queued in the same transaction as the rows
// (webhooks/event-outbox.ts), and every write is recorded in ingest_writes (the audit trail).
//
// EVENT TABLE
//   Patient new and active, or active false -> true     resident.admitted
//   Patient active true -> false                         resident.discharged
//   Patient of the organization ingested under another   resident.transferred (one event; the row
//     facility                                            and its resources move facility)
//   Coverage new, or status/payor/period/subscriberId/   coverage.updated
//     order/type/class/relationship/subscriber changed
//   Condition new                                        clinical.condition.created
//   MedicationRequest or ServiceRequest new              clinical.order.created (data.order_type
//                                                          names which)
//   DiagnosticReport new, or its status changed          clinical.result.created (data names the
//                                                          report and its status)
//   Patient change that `replaces` another resident      resident.merged (data.merged_resident_id
//     (a merge: the prior one turns inactive, its          names the prior one)
//     records move to the surviving one)
//   Consent                                              none
//
// ELIGIBILITY (issue 40): a new Coverage, or one whose payer id or member id (subscriberId)
// changed, has its eligibility check made due now (eligibility/check-queue.ts), in the same
// transaction: the worker asks the payer within seconds, once however many changes came.
// An event about a record carrying a restricted security label is marked restricted: only
// --sensitive credentials receive it (webhooks/event-outbox.ts).
//
// ACCESS POLICY (issue 23): every row keeps its meta.security (security-labels.ts) and
// whether it is restricted. A change that changes who may see a resident's records (a
// Consent written, a Patient's label changed) is a new version of those records (version_id
// + 1, last_updated now, in ingest_writes), so a partner's `_lastUpdated` sync sees them
// appear or vanish. The organization's flags (record-visibility.ts) are set here too.
//
// Changes are applied in chunks: one transaction per chunk (a `transaction` set is one chunk),
// with one identifier lookup and one row read per table for the whole chunk, so a stream of
// NDJSON lines costs a few statements per hundreds of resources. In a `batch` set every
// change still succeeds or fails on its own: each one is checked completely before anything
// of it is written, so a rejected change writes nothing and leaves its neighbours alone.
//
// OPTIMISTIC CONCURRENCY: a change may carry ifMatch, the version its writer read. It is
// compared with the row as read inside the chunk's transaction, after tickIngestClock took the
// organization's ingest lock (ingest-clock.ts): no other ingest transaction of the
// organization can write between that read and this transaction's commit, so of two writers
// holding the same version exactly one passes. A mismatch is a `conflict` (versionConflict).
// Every UPDATE is also conditional on the version it read, so a write that somehow bypassed
// the lock fails the transaction loudly instead of being silently overwritten.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isUuid } from '../db/uuid.js';
import { transactionRows } from '../db/transaction-statements.js';
import { statementTemplate } from '../db/statement-template.js';
import { flagsOfSubscriptions, queueEvents, subscriptionsStatement, type MatchedSubscription, type QueuedEvent } from '../webhooks/event-outbox.js';
import type { EventType } from '../db/event-types.js';
import type { BusinessIdentifier, ChangeIssue, ChangeOutcome, ChangeSet, ChangeSetResult, RecordType, ResourceChange } from './change-set.js';
import { MAPPINGS } from './mapping/index.js';
import { identifiers as identifiersOf, mapped, object, text, MappingIssue, type Columns, type ResourceMapping } from './mapping/resource-mapping.js';
import { tickIngestClock, tickIngestClockWith } from './ingest-clock.js';
import { isPostgres } from '../db/database.js';
import { InsertBatch, insertAll } from '../db/insert-batch.js';
import { writeResidentSearchStrings } from '../db/search-strings.js';
import { securityColumns } from './security-labels.js';
import { queueChecks, type QueuedCheck } from '../eligibility/check-queue.js';

export interface ApplyOptions {
  /** The HTTP request (or CLI run) this change set came from, for the audit trail. */
  requestId?: string;
  /** Changes per transaction in batch mode. */
  chunkSize?: number;
  /**
   * The instant the caller's transaction already took from the ingest clock (with its own
   * first write: tickIngestClockWith); the first chunk uses it instead of ticking again.
   * Only inside the caller's transaction.
   */
  tickedAt?: string;
  /** The facility's subscriptions, read with that tick (PostgreSQL: `subscriptionsQuery` as one of its reads). */
  subscriptions?: MatchedSubscription[];
}

const DEFAULT_CHUNK = 500;
const TABLES_WITH_CREATED_AT = new Set(['residents', 'coverage', 'conditions', 'medication_requests', 'service_requests', 'consents', 'eligibility_responses', 'diagnostic_reports']);
/** The tables whose rows belong to a resident and move with it on a transfer. */
const RESIDENT_TABLES = ['coverage', 'observations', 'allergies', 'conditions', 'medication_requests', 'service_requests', 'consents', 'eligibility_responses', 'diagnostic_reports'];
/** The resident's records a partner may read, whose visibility a consent or a Patient label decides. */
const RECORD_TABLES = RESIDENT_TABLES.filter((table) => table !== 'consents');
const TABLE_TYPES: Record<string, RecordType> = Object.fromEntries(Object.values(MAPPINGS).map((m) => [m.table, m.type]));

interface Prepared {
  index: number;
  change: ResourceChange;
  mapping?: ResourceMapping;
  columns?: Columns;
  issue?: ChangeIssue;
}

type Row = Record<string, unknown> & { id: string; org_id: string; facility_id: string; version_id: number; last_updated: string };

function rejectedBy(issue: ChangeIssue): never {
  throw new MappingIssue(issue);
}

function identifierKey(type: string, identifier: BusinessIdentifier): string {
  return `${type}|${identifier.system}|${identifier.value}`;
}

/** `identifier=SYSTEM|VALUE` (FHIR token search), as used by conditional updates and references. */
export function parseIdentifierQuery(query: string): BusinessIdentifier | undefined {
  const match = /^identifier=([^|&]+)\|([^&]+)$/.exec(query);
  if (!match) return undefined;
  try {
    return { system: decodeURIComponent(match[1]!), value: decodeURIComponent(match[2]!) };
  } catch {
    return undefined;
  }
}

function prepare(change: ResourceChange, index: number): Prepared {
  const resource = change.resource as Record<string, unknown> | undefined;
  const mapping = resource ? MAPPINGS[resource.resourceType as RecordType] : undefined;
  if (!mapping || !Object.hasOwn(MAPPINGS, resource!.resourceType as string)) {
    return { index, change, issue: { code: 'not-supported', diagnostics: `resourceType ${JSON.stringify(resource?.resourceType ?? null)} cannot be ingested; send one of ${Object.keys(MAPPINGS).join(', ')}`, expression: ['resourceType'] } };
  }
  // PostgreSQL text cannot hold NUL; no FHIR string may contain one anyway.
  if (JSON.stringify(resource).includes('\\u0000')) {
    return { index, change, mapping, issue: { code: 'value', diagnostics: 'FHIR strings may not contain the NUL character', expression: [mapping.type] } };
  }
  const match = change.match;
  if (match && 'id' in match && !isUuid(match.id)) {
    return { index, change, mapping, issue: { code: 'not-found', diagnostics: `no ${mapping.type} with id ${JSON.stringify(match.id)}: ofctx ids are UUIDs`, expression: [mapping.type] } };
  }
  if (match && 'identifier' in match) {
    const { system, value } = match.identifier;
    if (!text(system) || !text(value) || system.length > 300 || value.length > 300) {
      return { index, change, mapping, issue: { code: 'value', diagnostics: 'the matching identifier needs a system and a value of at most 300 characters', expression: [`${mapping.type}.identifier`] } };
    }
  }
  if (change.ifMatch !== undefined) {
    if (!Number.isSafeInteger(change.ifMatch) || change.ifMatch < 1) {
      return { index, change, mapping, issue: { code: 'value', diagnostics: `ifMatch must be a versionId (a positive integer); got ${JSON.stringify(change.ifMatch)}`, expression: [mapping.type] } };
    }
    if (change.createOnly) {
      return { index, change, mapping, issue: { code: 'not-supported', diagnostics: 'ifMatch applies to updates; a create-only change (ifNoneExist) has no version to match', expression: [mapping.type] } };
    }
  }
  const mappedColumns = mapping.toColumns(change.resource);
  if ('issue' in mappedColumns) return { index, change, mapping, issue: mappedColumns.issue };
  const security = mapped(() => ({ ...securityColumns(change.resource as Record<string, unknown>) }));
  if ('issue' in security) return { index, change, mapping, issue: security.issue };
  if (mapping.matchOwnIdentifier && !change.match) {
    let own: BusinessIdentifier[] = [];
    try {
      own = identifiersOf(change.resource as Record<string, unknown>);
    } catch (error) {
      if (error instanceof MappingIssue) return { index, change, mapping, issue: error.issue };
      throw error;
    }
    if (own[0]) change = { ...change, match: { identifier: own[0] } };
  }
  return { index, change, mapping, columns: { ...mappedColumns.columns, ...security.columns } };
}

/** The identifiers a row is found by: its own, plus the one it was matched on. */
function indexIdentifiers(item: Prepared): BusinessIdentifier[] {
  let own: BusinessIdentifier[] = [];
  try {
    own = identifiersOf(item.change.resource as Record<string, unknown>);
  } catch {
    own = [];
  }
  const match = item.change.match && 'identifier' in item.change.match ? [item.change.match.identifier] : [];
  const seen = new Set<string>();
  return [...own, ...match].filter((identifier) => {
    const key = `${identifier.system}|${identifier.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Patient.link as stored (residents.links), written only by merges. */
function linksOf(row: Row): Array<{ other: string; type: 'replaced-by' | 'replaces' }> {
  return typeof row.links === 'string' ? (JSON.parse(row.links) as Array<{ other: string; type: 'replaced-by' | 'replaces' }>) : [];
}

function sameValue(stored: unknown, value: unknown): boolean {
  if (typeof value === 'boolean') return Boolean(stored) === value;
  if (typeof value === 'number') return Number(stored) === value;
  return (stored ?? null) === value;
}

interface ChunkWrites {
  inserts: Map<string, Row[]>;
  /** `from`: the version the row had when read, which the UPDATE is conditional on (none for a row this chunk inserts). */
  updates: Array<{ table: string; id: string; from?: number; set: Record<string, unknown> }>;
  moves: Array<{ residentId: string; facilityId: string }>;
  /** Merges: every record of `from` moves to the resident `to` (in `facilityId`). */
  merges: Array<{ from: string; to: string; facilityId: string }>;
  reindex: Array<{ type: RecordType; id: string; identifiers: BusinessIdentifier[] }>;
  audit: Array<{ type: RecordType; id: string; outcome: 'created' | 'updated'; versionId: number; facilityId: string }>;
  events: QueuedEvent[];
  /** Residents whose records' visibility changed: `withResident` also touches the Patient row. */
  touches: Map<string, { withResident: boolean }>;
  /** Coverages whose eligibility check is due now. */
  checks: QueuedCheck[];
}

/** The identifier rows holding any of these values, its text compiled once per number of values (db/statement-template.ts). */
const identifierMatches = statementTemplate((db: Knex, orgId: string, ...values: string[]) =>
  db('resource_identifiers').where({ org_id: orgId }).whereIn('value', values).select('resource_type', 'system', 'value', 'resource_id'),
);

class Chunk {
  private readonly rows = new Map<string, { type: RecordType; row: Row }>();
  private readonly byIdentifier = new Map<string, string[]>();
  private readonly fullUrls = new Map<string, { type: RecordType; id: string }>();
  private readonly inserted = new Set<string>();
  readonly writes: ChunkWrites = { inserts: new Map(), updates: [], moves: [], merges: [], reindex: [], audit: [], events: [], touches: new Map(), checks: [] };

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly set: ChangeSet,
    private readonly now: string,
    /** The facility's subscriptions when read already (with the tick), so the deliveries can ride with the inserts. */
    private readonly subscriptions?: MatchedSubscription[],
  ) {}

  /** Reads, for the whole chunk at once, every row its changes may match or reference. */
  async load(items: Prepared[]): Promise<void> {
    const keys = new Map<string, [string, string, string]>();
    const ids = new Map<string, Set<string>>();
    const wantId = (type: RecordType, id: string) => {
      if (!isUuid(id)) return;
      const table = MAPPINGS[type].table;
      if (!ids.has(table)) ids.set(table, new Set());
      ids.get(table)!.add(id.toLowerCase());
    };
    const wantKey = (type: string, identifier: BusinessIdentifier) => keys.set(identifierKey(type, identifier), [type, identifier.system, identifier.value]);
    for (const item of items) {
      if (item.issue || !item.mapping) continue;
      const match = item.change.match;
      if (match && 'id' in match) wantId(item.mapping.type, match.id);
      if (match && 'identifier' in match) wantKey(item.mapping.type, match.identifier);
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
    // By value alone (an index on (org_id, value)), type and system checked here: one plain
    // `= ANY` probe per value; a row-value IN list of hundreds of tuples plans badly on PostgreSQL.
    // Planned with its values each time: a generic plan of this text read the whole organization.
    const values = [...new Set([...keys.values()].filter(([, system, value]) => system.length <= 300 && value.length <= 300).map(([, , value]) => value))];
    for (let i = 0; i < values.length; i += 1000) {
      const match = identifierMatches(this.trx, this.set.orgId, ...values.slice(i, i + 1000));
      const found = await transactionRows<{ resource_type: RecordType; system: string; value: string; resource_id: string }>(this.trx, match.sql, match.bindings, { planEachTime: true });
      for (const hit of found) {
        const key = identifierKey(hit.resource_type, hit);
        if (!keys.has(key)) continue;
        const list = this.byIdentifier.get(key) ?? [];
        if (!list.includes(hit.resource_id)) list.push(hit.resource_id);
        this.byIdentifier.set(key, list);
        wantId(hit.resource_type, hit.resource_id);
      }
    }
    for (const [table, wanted] of ids) {
      const list = [...wanted];
      for (let i = 0; i < list.length; i += 500) {
        const rows = (await this.trx(table).where({ org_id: this.set.orgId }).whereIn('id', list.slice(i, i + 500))) as Row[];
        for (const row of rows) this.rows.set(row.id, { type: TABLE_TYPES[table]!, row });
      }
    }
  }

  private lookup(type: RecordType, identifier: BusinessIdentifier): string[] {
    return this.byIdentifier.get(identifierKey(type, identifier)) ?? [];
  }

  private single(type: RecordType, identifier: BusinessIdentifier, where: string): string | undefined {
    const found = this.lookup(type, identifier);
    if (found.length > 1) {
      rejectedBy({ code: 'conflict', diagnostics: `${found.length} ${type} records match identifier ${identifier.system}|${identifier.value}; the match must be unique`, expression: [where] });
    }
    return found[0];
  }

  private rowOf(type: RecordType, id: string): Row | undefined {
    const entry = this.rows.get(id.toLowerCase());
    return entry && entry.type === type ? entry.row : undefined;
  }

  /** The resident a clinical or coverage resource belongs to: it must be in this facility. */
  private resident(item: Prepared): Row {
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

  private target(item: Prepared): Row | undefined {
    const type = item.mapping!.type;
    const match = item.change.match;
    if (!match) return undefined;
    if ('id' in match) {
      const row = this.rowOf(type, match.id);
      // With ifMatch, a missing record is a version conflict (checkVersion), not a 404.
      if (!row && item.change.ifMatch === undefined) rejectedBy({ code: 'not-found', diagnostics: `no ${type}/${match.id} in this organization (ids are assigned by ofctx; match on an identifier to create)`, expression: [type] });
      return row;
    }
    const id = this.single(type, match.identifier, `${type}.identifier`);
    return id ? this.rowOf(type, id) : undefined;
  }

  /** ifMatch: the record must exist and still be at the version the writer read. */
  private checkVersion(item: Prepared, existing: Row | undefined): void {
    const expected = item.change.ifMatch;
    if (expected === undefined) return;
    const type = item.mapping!.type;
    if (!existing) {
      rejectedBy({ code: 'conflict', versionConflict: true, diagnostics: `ifMatch version ${expected}: no ${type} matches this change, so there is no version to match (it may never have existed); read it again`, expression: [type] });
    }
    const current = Number(existing.version_id);
    if (current !== expected) {
      rejectedBy({ code: 'conflict', versionConflict: true, diagnostics: `ifMatch version ${expected}: ${type}/${existing.id} is at version ${current}; it changed since it was read. Read it again and resend the change`, expression: [type] });
    }
  }

  /**
   * The resident a merging Patient change replaces; undefined when that merge is already done
   * (a re-sent A40). Found by identifier, organization-wide, never the surviving resident.
   */
  private priorOf(item: Prepared, survivorId: string | undefined): Row | undefined {
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

  /** The prior resident of a merge: inactive, linked to the survivor, its records moved. */
  private retire(prior: Row, survivor: Row): void {
    const set = { active: false, links: JSON.stringify([...linksOf(prior), { other: survivor.id, type: 'replaced-by' }]), version_id: Number(prior.version_id) + 1, last_updated: this.now };
    const from = this.inserted.has(prior.id) ? undefined : Number(prior.version_id);
    Object.assign(prior, set);
    this.writes.updates.push({ table: 'residents', id: prior.id, from, set });
    this.writes.audit.push({ type: 'Patient', id: prior.id, outcome: 'updated', versionId: Number(prior.version_id), facilityId: prior.facility_id });
    this.writes.merges.push({ from: prior.id, to: survivor.id, facilityId: survivor.facility_id });
    for (const { row } of this.rows.values()) {
      if (row.resident_id === prior.id) {
        row.resident_id = survivor.id;
        row.facility_id = survivor.facility_id;
      }
    }
  }

  /** The resident's records change visibility: they become a new version at flush (see ACCESS POLICY). */
  private touch(residentId: string, withResident: boolean): void {
    const touched = this.writes.touches.get(residentId);
    this.writes.touches.set(residentId, { withResident: withResident || (touched?.withResident ?? false) });
  }

  apply(item: Prepared): ChangeOutcome {
    const mapping = item.mapping!;
    const type = mapping.type;
    const columns = item.columns!;
    const facilityId = this.set.facilityId;
    const residentId = mapping.residentElement ? this.resident(item).id : undefined;
    const existing = this.target(item);
    const remember = (row: Row) => {
      if (item.change.fullUrl) this.fullUrls.set(item.change.fullUrl, { type, id: row.id });
    };
    const outcome = (row: Row, kind: 'created' | 'updated' | 'unchanged', events: EventType[]): ChangeOutcome => ({
      at: item.change.at,
      outcome: kind,
      resourceType: type,
      id: row.id,
      versionId: Number(row.version_id),
      lastUpdated: row.last_updated,
      events: this.set.emitEvents ? events : [],
    });
    const queue = (row: Row, events: EventType[], merged?: Row) => {
      if (!this.set.emitEvents) return;
      for (const event of events) {
        const residentId = type === 'Patient' ? row.id : (row.resident_id as string);
        const orderType = event === 'clinical.order.created' && (type === 'MedicationRequest' || type === 'ServiceRequest') ? type : undefined;
        const mergedResidentId = event === 'resident.merged' ? merged!.id : undefined;
        const report = event === 'clinical.result.created' ? { diagnosticReportId: row.id, diagnosticReportStatus: row.status as string } : {};
        const restricted = Number(row.restricted ?? 0) === 1;
        this.writes.events.push({ orgId: this.set.orgId, facilityId, type: event, residentId, occurredAt: this.now, ...(orderType ? { orderType } : {}), ...(mergedResidentId ? { mergedResidentId } : {}), ...report, ...(restricted ? { restricted } : {}) });
      }
    };

    if (existing && item.change.createOnly) {
      remember(existing);
      return outcome(existing, 'unchanged', []);
    }
    if (existing && type !== 'Patient' && existing.facility_id !== facilityId) {
      rejectedBy({ code: 'forbidden', diagnostics: `${type}/${existing.id} belongs to another facility of the organization`, expression: [type] });
    }
    this.checkVersion(item, existing);
    const prior = item.change.replaces ? this.priorOf(item, existing?.id) : undefined;

    if (existing) {
      remember(existing);
      const moved = type === 'Patient' && existing.facility_id !== facilityId;
      const changedColumns = Object.keys(columns).filter((column) => !sameValue(existing[column], columns[column]));
      const residentChanged = residentId !== undefined && existing.resident_id !== residentId;
      if (changedColumns.length === 0 && !moved && !residentChanged && !prior) return outcome(existing, 'unchanged', []);
      const before: Columns = Object.fromEntries(Object.keys(columns).map((c) => [c, existing[c] as Columns[string]]));
      const set: Record<string, unknown> = { ...columns, version_id: Number(existing.version_id) + 1, last_updated: this.now };
      if (residentId !== undefined) set.resident_id = residentId;
      if (moved) set.facility_id = facilityId;
      if (prior) set.links = JSON.stringify([...linksOf(existing), { other: prior.id, type: 'replaces' }]);
      let events: EventType[];
      if (type === 'Patient') {
        const wasActive = Boolean(existing.active);
        events = moved ? ['resident.transferred'] : !wasActive && columns.active === true ? ['resident.admitted'] : wasActive && columns.active === false ? ['resident.discharged'] : [];
      } else {
        events = mapping.events(before, columns);
      }
      if (prior) events = [...events, 'resident.merged'];
      // A row inserted by this chunk is inserted as it ends up (the insert holds this object).
      const from = this.inserted.has(existing.id) ? undefined : Number(existing.version_id);
      Object.assign(existing, set);
      this.writes.updates.push({ table: mapping.table, id: existing.id, from, set });
      if (moved) {
        this.writes.moves.push({ residentId: existing.id, facilityId });
        for (const { row } of this.rows.values()) if (row.resident_id === existing.id) row.facility_id = facilityId;
      }
      this.writes.reindex.push({ type, id: existing.id, identifiers: indexIdentifiers(item) });
      this.writes.audit.push({ type, id: existing.id, outcome: 'updated', versionId: Number(existing.version_id), facilityId });
      if (type === 'Coverage' && (changedColumns.includes('payor_id') || changedColumns.includes('subscriber_id'))) {
        this.writes.checks.push({ coverageId: existing.id, orgId: this.set.orgId, facilityId, trigger: 'change' });
      }
      if (type === 'Consent') this.touch(residentId!, true);
      if (type === 'Patient' && changedColumns.includes('restricted')) this.touch(existing.id, false);
      if (prior) this.retire(prior, existing);
      queue(existing, events, prior);
      return outcome(existing, 'updated', events);
    }

    const row: Row = {
      id: randomUUID(),
      org_id: this.set.orgId,
      facility_id: facilityId,
      ...(residentId !== undefined ? { resident_id: residentId } : {}),
      ...columns,
      version_id: 1,
      last_updated: this.now,
      ...(TABLES_WITH_CREATED_AT.has(mapping.table) ? { created_at: this.now } : {}),
      ...(prior ? { links: JSON.stringify([{ other: prior.id, type: 'replaces' }]) } : {}),
    };
    let events: EventType[] = type === 'Patient' ? (columns.active === true ? ['resident.admitted'] : []) : mapping.events(undefined, columns);
    if (prior) events = [...events, 'resident.merged'];
    this.rows.set(row.id, { type, row });
    this.inserted.add(row.id);
    const indexed = indexIdentifiers(item);
    for (const identifier of indexed) {
      const key = identifierKey(type, identifier);
      this.byIdentifier.set(key, [...(this.byIdentifier.get(key) ?? []), row.id]);
    }
    remember(row);
    if (!this.writes.inserts.has(mapping.table)) this.writes.inserts.set(mapping.table, []);
    this.writes.inserts.get(mapping.table)!.push(row);
    this.writes.reindex.push({ type, id: row.id, identifiers: indexed });
    this.writes.audit.push({ type, id: row.id, outcome: 'created', versionId: 1, facilityId });
    if (type === 'Coverage') this.writes.checks.push({ coverageId: row.id, orgId: this.set.orgId, facilityId, trigger: 'admission' });
    if (type === 'Consent') this.touch(residentId!, true);
    if (prior) this.retire(prior, row);
    queue(row, events, prior);
    return outcome(row, 'created', events);
  }

  /** The names residents are searched by (search_strings), for every resident written. */
  private async writeSearchStrings(batch: InsertBatch | undefined): Promise<void> {
    const named = new Map<string, { id: string; org_id: string; family_name: string; given_names: string }>();
    const fresh = new Set<string>();
    for (const row of this.writes.inserts.get('residents') ?? []) {
      named.set(row.id, { id: row.id, org_id: this.set.orgId, family_name: row.family_name as string, given_names: row.given_names as string });
      fresh.add(row.id);
    }
    for (const update of this.writes.updates) {
      if (update.table !== 'residents' || fresh.has(update.id) || update.set.family_name === undefined) continue;
      named.set(update.id, { id: update.id, org_id: this.set.orgId, family_name: update.set.family_name as string, given_names: update.set.given_names as string });
    }
    const rows = [...named.values()];
    await writeResidentSearchStrings(this.trx, rows.filter((r) => fresh.has(r.id)), false, batch);
    await writeResidentSearchStrings(this.trx, rows.filter((r) => !fresh.has(r.id)), true);
  }

  async flush(actor: string, requestId: string | undefined): Promise<void> {
    const { trx, writes } = this;
    // A chunk that only adds rows (a new resident and its records, new records) writes them
    // all in one statement on PostgreSQL (db/insert-batch.ts), its event with them. One that
    // updates, moves, merges or touches rows writes each insert first, as those statements
    // must see the new rows.
    const batch = writes.updates.length === 0 && writes.moves.length === 0 && writes.merges.length === 0 && writes.touches.size === 0 ? new InsertBatch(trx) : undefined;
    const insert = (table: string, rows: Record<string, unknown>[]) => (batch ? batch.add(table, rows) : insertAll(trx, table, rows));
    // Residents first: the other rows reference them.
    const tables = [...writes.inserts.keys()].sort((a, b) => Number(b === 'residents') - Number(a === 'residents'));
    for (const table of tables) {
      await insert(table, writes.inserts.get(table)!);
    }
    for (const update of writes.updates) {
      const written = await trx(update.table).where(update.from === undefined ? { id: update.id } : { id: update.id, version_id: update.from }).update(update.set);
      if (written !== 1) throw new Error(`${update.table} row ${update.id} left version ${update.from} while the ingest lock was held; nothing of this chunk was written`);
    }
    for (const move of writes.moves) {
      for (const table of RESIDENT_TABLES) {
        const ids = (await trx(table).where({ resident_id: move.residentId }).whereNot({ facility_id: move.facilityId }).pluck('id')) as string[];
        if (ids.length === 0) continue;
        await trx(table).whereIn('id', ids).update({ facility_id: move.facilityId, version_id: trx.raw('version_id + 1'), last_updated: this.now });
        const moved = (await trx(table).whereIn('id', ids).select('id', 'version_id')) as Array<{ id: string; version_id: number }>;
        for (const row of moved) writes.audit.push({ type: TABLE_TYPES[table]!, id: row.id, outcome: 'updated', versionId: Number(row.version_id), facilityId: move.facilityId });
      }
    }
    for (const merge of writes.merges) {
      for (const table of RESIDENT_TABLES) {
        const rows = (await trx(table).where({ resident_id: merge.from }).select('id', 'version_id')) as Array<{ id: string; version_id: number }>;
        if (rows.length === 0) continue;
        await trx(table).where({ resident_id: merge.from }).update({ resident_id: merge.to, facility_id: merge.facilityId, version_id: trx.raw('version_id + 1'), last_updated: this.now });
        for (const row of rows) writes.audit.push({ type: TABLE_TYPES[table]!, id: row.id, outcome: 'updated', versionId: Number(row.version_id) + 1, facilityId: merge.facilityId });
      }
    }
    for (const [residentId, { withResident }] of writes.touches) {
      for (const table of withResident ? ['residents', ...RECORD_TABLES] : RECORD_TABLES) {
        const where = table === 'residents' ? { id: residentId } : { resident_id: residentId };
        const count = await trx(table).where(where).update({ version_id: trx.raw('version_id + 1'), last_updated: this.now });
        if (count === 0) continue;
        const versions = (await trx(table).where(where).select('id', 'version_id', 'facility_id')) as Array<{ id: string; version_id: number; facility_id: string }>;
        for (const row of versions) writes.audit.push({ type: TABLE_TYPES[table]!, id: row.id, outcome: 'updated', versionId: Number(row.version_id), facilityId: row.facility_id });
      }
    }
    // What the organization now holds that a policy may hide (never cleared: see record-visibility.ts).
    const written = [...[...writes.inserts.values()].flat(), ...writes.updates.map((u) => u.set)];
    const flags: Record<string, number> = {};
    if (written.some((row) => Number(row.restricted ?? 0) === 1)) flags.restricted_records = 1;
    if (written.some((row) => row.decision === 'deny')) flags.consent_denials = 1;
    if (Object.keys(flags).length > 0) await trx('organizations').where({ id: this.set.orgId }).update(flags);
    const reindexed = writes.reindex.filter((r) => writes.updates.some((u) => u.id === r.id)).map((r) => r.id);
    for (let i = 0; i < reindexed.length; i += 500) await trx('resource_identifiers').whereIn('resource_id', reindexed.slice(i, i + 500)).delete();
    const index = writes.reindex.flatMap((r) => r.identifiers.map((identifier) => ({ org_id: this.set.orgId, resource_type: r.type, system: identifier.system, value: identifier.value, resource_id: r.id })));
    await insert('resource_identifiers', index);
    await this.writeSearchStrings(batch);
    const audit = writes.audit.map((a) => ({
      at: this.now,
      actor,
      request_id: requestId ?? null,
      org_id: this.set.orgId,
      facility_id: a.facilityId,
      resource_type: a.type,
      resource_id: a.id,
      outcome: a.outcome,
      version_id: a.versionId,
    }));
    await insert('ingest_writes', audit);
    await queueChecks(trx, writes.checks, this.now, insert);
    const known = this.subscriptions && {
      orgId: this.set.orgId,
      facilityId: this.set.facilityId,
      rows: this.subscriptions,
      flags: { restrictedRecords: flagsOfSubscriptions(this.subscriptions).restrictedRecords || flags.restricted_records === 1, consentDenials: flagsOfSubscriptions(this.subscriptions).consentDenials || flags.consent_denials === 1 },
    };
    await queueEvents(trx, writes.events, batch, known);
    await batch?.flush();
  }
}

async function applyChunk(db: Knex, set: ChangeSet, items: Prepared[], allOrNothing: boolean, options: ApplyOptions): Promise<Array<[number, ChangeOutcome]>> {
  // Inside the caller's own transaction (the HL7 applier records the control id in it), the
  // chunk runs in that transaction: a savepoint would cost two round trips per message, and
  // could not let the caller go on after an error anyway, since the error reaches it.
  const inCallersTransaction = (db as Knex.Transaction).isTransaction === true;
  const run = <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => (inCallersTransaction ? work(db as Knex.Transaction) : db.transaction(work));
  return run(async (trx) => {
    let now: string;
    let subscriptions: MatchedSubscription[] | undefined;
    if (inCallersTransaction && options.tickedAt !== undefined) {
      now = options.tickedAt;
      subscriptions = options.subscriptions;
    } else if (set.emitEvents && isPostgres(trx as unknown as Knex)) {
      // The facility's subscriptions ride with the tick (one round trip fewer, and the
      // deliveries can then ride with the inserts).
      const tick = await tickIngestClockWith(trx, set.orgId, { reads: { subscriptions: subscriptionsStatement(trx, set.orgId, set.facilityId) } });
      now = tick.instant;
      subscriptions = tick.reads.subscriptions as MatchedSubscription[];
    } else now = await tickIngestClock(trx, set.orgId);
    const chunk = new Chunk(trx, set, now, subscriptions);
    await chunk.load(items);
    // Patients first, so the other resources of the chunk can reference them.
    const ordered = [...items].sort((a, b) => Number(b.mapping?.type === 'Patient') - Number(a.mapping?.type === 'Patient') || a.index - b.index);
    const outcomes: Array<[number, ChangeOutcome]> = [];
    for (const item of ordered) {
      if (item.issue) {
        outcomes.push([item.index, { at: item.change.at, outcome: 'rejected', issue: item.issue }]);
        continue;
      }
      try {
        outcomes.push([item.index, chunk.apply(item)]);
      } catch (error) {
        if (!(error instanceof MappingIssue)) throw error;
        outcomes.push([item.index, { at: item.change.at, outcome: 'rejected', issue: error.issue }]);
      }
    }
    if (allOrNothing && outcomes.some(([, o]) => o.outcome === 'rejected')) {
      return outcomes.map(([index, o]): [number, ChangeOutcome] =>
        o.outcome === 'rejected'
          ? [index, o]
          : [index, { at: o.at, outcome: 'rejected', refused: true, issue: { code: 'invalid', diagnostics: 'not applied: another change of this transaction was rejected' } }],
      );
    }
    await chunk.flush(set.actor, options.requestId);
    return outcomes;
  });
}

export async function applyChangeSet(db: Knex, changeSet: ChangeSet, options: ApplyOptions = {}): Promise<ChangeSetResult> {
  const prepared = changeSet.changes.map(prepare);
  const outcomes: ChangeOutcome[] = new Array(prepared.length);
  const size = changeSet.mode === 'transaction' ? Math.max(prepared.length, 1) : (options.chunkSize ?? DEFAULT_CHUNK);
  for (let start = 0; start < prepared.length; start += size) {
    const chunk = prepared.slice(start, start + size);
    const chunkOptions = start === 0 ? options : { ...options, tickedAt: undefined, subscriptions: undefined };
    for (const [index, outcome] of await applyChunk(db, changeSet, chunk, changeSet.mode === 'transaction', chunkOptions)) outcomes[index] = outcome;
  }
  const result: ChangeSetResult = { outcomes, created: 0, updated: 0, unchanged: 0, rejected: 0, events: 0, committed: true };
  for (const outcome of outcomes) {
    if (outcome.outcome === 'rejected') {
      if (outcome.refused) result.committed = false;
      else result.rejected++;
    } else {
      result[outcome.outcome]++;
      result.events += outcome.events.length;
    }
  }
  if (changeSet.mode === 'transaction' && result.rejected > 0) {
    result.committed = false;
    result.created = result.updated = result.unchanged = result.events = 0;
  }
  return result;
}
