// A chunk of changes applied in one transaction. Each change is resolved among the chunk's
// records (chunk-records.ts), checked against the version its writer read (version-check.ts)
// and turned into writes (chunk-writes.ts), written only when it is a real change: a new row
// is version 1; a change of any column bumps version_id by exactly 1 and sets last_updated;
// an identical re-send writes nothing, bumps nothing and emits nothing (change-events.ts).
// Then the whole chunk is written at once (write-chunk.ts).
//
// ELIGIBILITY (issue 40): a new Coverage, or one whose payer id or member id (subscriberId)
// changed, has its eligibility check made due now (eligibility/check-queue.ts), in the same
// transaction: the worker asks the payer within seconds, once however many changes came.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { timeOrderedUuid } from '../db/uuid.js';
import type { EventType } from '../db/event-types.js';
import type { MatchedSubscription } from '../webhooks/event-outbox.js';
import type { BusinessIdentifier, ChangeOutcome, ChangeSet } from './change-set.js';
import type { Columns } from './mapping/resource-mapping.js';
import type { Prepared } from './prepared-change.js';
import { identifierKey, indexIdentifiers } from './business-identifiers.js';
import { linksOf, type RecordRow } from './record-row.js';
import { rejectedBy } from './change-rejection.js';
import { ChunkRecords, type KnownRecord, type ReadIdentifiers } from './chunk-records.js';
import { checkVersion } from './version-check.js';
import { eventsOfCreation, eventsOfUpdate, queuedEvents } from './change-events.js';
import { noWrites, type ChunkWrites } from './chunk-writes.js';
import { TABLES_WITH_CREATED_AT } from './record-tables.js';
import { writeChunk, type AlongsideRows } from './write-chunk.js';

/**
 * A new record's id. Records other than residents get time-ordered ids (db/uuid.ts), so the
 * indexes on ids (the table's own, the identifier index's and the write log's) take a
 * message's new rows on their newest pages: with random ids an ORU^R01's ten results wrote
 * some 33 index pages scattered over those three indexes, a fifth of its log frames on
 * SQLite (docs/benchmarks.md, feeds). A resident keeps a random id: its creation millisecond
 * would tell when the resident arrived, to whoever sees only the id.
 */
function newRecordId(type: string): string {
  return type === 'Patient' ? randomUUID() : timeOrderedUuid();
}

function sameValue(stored: unknown, value: unknown): boolean {
  if (typeof value === 'boolean') return Boolean(stored) === value;
  if (typeof value === 'number') return Number(stored) === value;
  return (stored ?? null) === value;
}

export class ChangeChunk {
  readonly records: ChunkRecords;
  readonly writes: ChunkWrites = noWrites();

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly set: ChangeSet,
    private readonly now: string,
    /** The facility's subscriptions when read already (with the tick), so the deliveries can ride with the inserts. */
    private readonly subscriptions?: MatchedSubscription[],
  ) {
    this.records = new ChunkRecords(trx, set);
  }

  /** Reads, for the whole chunk at once, every row its changes may match or reference. */
  load(items: Prepared[], known: KnownRecord[] = [], read?: ReadIdentifiers): Promise<void> {
    return this.records.load(items, known, read);
  }

  /** The prior resident of a merge: inactive, linked to the survivor, its records moved. */
  private retire(prior: RecordRow, survivor: RecordRow): void {
    const set = { active: false, links: JSON.stringify([...linksOf(prior), { other: survivor.id, type: 'replaced-by' }]), version_id: Number(prior.version_id) + 1, last_updated: this.now };
    const from = this.records.inserted.has(prior.id) ? undefined : Number(prior.version_id);
    Object.assign(prior, set);
    this.writes.updates.push({ table: 'residents', id: prior.id, from, set });
    this.writes.audit.push({ type: 'Patient', id: prior.id, outcome: 'updated', versionId: Number(prior.version_id), facilityId: prior.facility_id });
    this.writes.merges.push({ from: prior.id, to: survivor.id, facilityId: survivor.facility_id });
    for (const { row } of this.records.rows.values()) {
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

  /** The change's match by identifier when the record `id` holds its `formerly` in the identifier index (read with the chunk). */
  private formerMatchOf(item: Prepared, id: string): { identifier: BusinessIdentifier; formerly: BusinessIdentifier } | undefined {
    const match = item.change.match;
    if (!match || !('identifier' in match) || !match.formerly) return undefined;
    return this.records.lookup(item.mapping!.type, match.formerly).includes(id) ? { identifier: match.identifier, formerly: match.formerly } : undefined;
  }

  apply(item: Prepared): ChangeOutcome {
    const mapping = item.mapping!;
    const type = mapping.type;
    const columns = item.columns!;
    const facilityId = this.set.facilityId;
    const residentId = mapping.residentElement ? this.records.resident(item).id : undefined;
    const existing = this.records.target(item);
    const remember = (row: RecordRow) => {
      if (item.change.fullUrl) this.records.fullUrls.set(item.change.fullUrl, { type, id: row.id });
    };
    const outcome = (row: RecordRow, kind: 'created' | 'updated' | 'unchanged', events: EventType[]): ChangeOutcome => ({
      at: item.change.at,
      outcome: kind,
      resourceType: type,
      id: row.id,
      versionId: Number(row.version_id),
      lastUpdated: row.last_updated,
      events: this.set.emitEvents ? events : [],
    });
    const queue = (row: RecordRow, events: EventType[], merged?: RecordRow) => {
      if (!this.set.emitEvents) return;
      this.writes.events.push(...queuedEvents(this.set, facilityId, this.now, type, row, events, merged));
    };

    if (existing && item.change.createOnly) {
      remember(existing);
      return outcome(existing, 'unchanged', []);
    }
    if (existing && type !== 'Patient' && existing.facility_id !== facilityId) {
      rejectedBy({ code: 'forbidden', diagnostics: `${type}/${existing.id} belongs to another facility of the organization`, expression: [type] });
    }
    checkVersion(item, existing);
    const prior = item.change.replaces ? this.records.priorOf(item, existing?.id) : undefined;

    if (existing) {
      remember(existing);
      // Found by what an earlier release derived (change-set.ts, `match.formerly`): indexed by
      // today's identifier too from now on, and by that one still, which records written then
      // name it by (a report's results, until the report is sent again).
      const former = this.formerMatchOf(item, existing.id);
      const newlyNamed = former !== undefined && this.records.lookup(type, former.identifier).length === 0;
      if (newlyNamed) this.records.byIdentifier.set(identifierKey(type, former.identifier), [existing.id]);
      const moved = type === 'Patient' && existing.facility_id !== facilityId;
      const changedColumns = Object.keys(columns).filter((column) => !sameValue(existing[column], columns[column]));
      const residentChanged = residentId !== undefined && existing.resident_id !== residentId;
      if (changedColumns.length === 0 && !moved && !residentChanged && !prior) {
        if (newlyNamed) this.writes.reindex.push({ type, id: existing.id, identifiers: [former.identifier] });
        return outcome(existing, 'unchanged', []);
      }
      const before: Columns = Object.fromEntries(Object.keys(columns).map((c) => [c, existing[c] as Columns[string]]));
      const set: Record<string, unknown> = { ...columns, version_id: Number(existing.version_id) + 1, last_updated: this.now };
      if (residentId !== undefined) set.resident_id = residentId;
      if (moved) set.facility_id = facilityId;
      if (prior) set.links = JSON.stringify([...linksOf(existing), { other: prior.id, type: 'replaces' }]);
      const events = eventsOfUpdate(mapping, existing, before, columns, moved, prior !== undefined);
      // A row inserted by this chunk is inserted as it ends up (the insert holds this object).
      const from = this.records.inserted.has(existing.id) ? undefined : Number(existing.version_id);
      Object.assign(existing, set);
      this.writes.updates.push({ table: mapping.table, id: existing.id, from, set });
      if (moved) {
        this.writes.moves.push({ residentId: existing.id, facilityId });
        for (const { row } of this.records.rows.values()) if (row.resident_id === existing.id) row.facility_id = facilityId;
      }
      this.writes.reindex.push({ type, id: existing.id, identifiers: [...indexIdentifiers(item.change), ...(former ? [former.formerly] : [])] });
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

    const row: RecordRow = {
      id: newRecordId(type),
      org_id: this.set.orgId,
      facility_id: facilityId,
      ...(residentId !== undefined ? { resident_id: residentId } : {}),
      ...columns,
      version_id: 1,
      last_updated: this.now,
      ...(TABLES_WITH_CREATED_AT.has(mapping.table) ? { created_at: this.now } : {}),
      ...(prior ? { links: JSON.stringify([{ other: prior.id, type: 'replaces' }]) } : {}),
    };
    const events = eventsOfCreation(mapping, columns, prior !== undefined);
    this.records.rows.set(row.id, { type, row });
    this.records.inserted.add(row.id);
    const indexed = indexIdentifiers(item.change);
    for (const identifier of indexed) {
      const key = identifierKey(type, identifier);
      this.records.byIdentifier.set(key, [...(this.records.byIdentifier.get(key) ?? []), row.id]);
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

  flush(actor: string, requestId: string | undefined, alongside: AlongsideRows = []): Promise<void> {
    return writeChunk(this.trx, this.set, this.now, this.writes, this.subscriptions, actor, requestId, alongside);
  }
}
