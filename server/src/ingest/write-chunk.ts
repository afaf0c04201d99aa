// Writes what a chunk's changes came to, in its transaction and in an order each statement
// can rely on: new rows (residents first), conditional updates, the moves and merges and
// visibility changes of residents' records (each a new version), the organization's flags,
// the identifier index, the residents' search strings, the write log (ingest_writes), the
// eligibility checks made due and the events.
//
// ACCESS POLICY (issue 23): every row keeps its meta.security (security-labels.ts) and
// whether it is restricted. A change that changes who may see a resident's records (a
// Consent written, a Patient's label changed) is a new version of those records (version_id
// + 1, last_updated now, in ingest_writes), so a partner's `_lastUpdated` sync sees them
// appear or vanish. The organization's flags (record-visibility.ts) are set here too.
import type { Knex } from 'knex';
import { InsertBatch, insertAll } from '../db/insert-batch.js';
import { writeResidentSearchStrings } from '../db/search-strings.js';
import { flagsOfSubscriptions, queueEvents, type MatchedSubscription } from '../webhooks/event-outbox.js';
import { queueChecks } from '../eligibility/check-queue.js';
import type { ChangeSet } from './change-set.js';
import type { ChunkWrites } from './chunk-writes.js';
import { RECORD_TABLES, RESIDENT_TABLES, TABLE_TYPES } from './record-tables.js';

/** Rows of other tables the caller writes with the chunk's own (ApplyOptions.alongside). */
export type AlongsideRows = Array<{ table: string; rows: Array<Record<string, unknown>> }>;

export async function writeChunk(trx: Knex.Transaction, set: ChangeSet, now: string, writes: ChunkWrites, subscriptions: MatchedSubscription[] | undefined, actor: string, requestId: string | undefined, alongside: AlongsideRows = []): Promise<void> {
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
      await trx(table).whereIn('id', ids).update({ facility_id: move.facilityId, version_id: trx.raw('version_id + 1'), last_updated: now });
      const moved = (await trx(table).whereIn('id', ids).select('id', 'version_id')) as Array<{ id: string; version_id: number }>;
      for (const row of moved) writes.audit.push({ type: TABLE_TYPES[table]!, id: row.id, outcome: 'updated', versionId: Number(row.version_id), facilityId: move.facilityId });
    }
  }
  for (const merge of writes.merges) {
    for (const table of RESIDENT_TABLES) {
      const rows = (await trx(table).where({ resident_id: merge.from }).select('id', 'version_id')) as Array<{ id: string; version_id: number }>;
      if (rows.length === 0) continue;
      await trx(table).where({ resident_id: merge.from }).update({ resident_id: merge.to, facility_id: merge.facilityId, version_id: trx.raw('version_id + 1'), last_updated: now });
      for (const row of rows) writes.audit.push({ type: TABLE_TYPES[table]!, id: row.id, outcome: 'updated', versionId: Number(row.version_id) + 1, facilityId: merge.facilityId });
    }
  }
  for (const [residentId, { withResident }] of writes.touches) {
    for (const table of withResident ? ['residents', ...RECORD_TABLES] : RECORD_TABLES) {
      const where = table === 'residents' ? { id: residentId } : { resident_id: residentId };
      const count = await trx(table).where(where).update({ version_id: trx.raw('version_id + 1'), last_updated: now });
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
  if (Object.keys(flags).length > 0) await trx('organizations').where({ id: set.orgId }).update(flags);
  const reindexed = writes.reindex.filter((r) => writes.updates.some((u) => u.id === r.id)).map((r) => r.id);
  for (let i = 0; i < reindexed.length; i += 500) await trx('resource_identifiers').whereIn('resource_id', reindexed.slice(i, i + 500)).delete();
  const index = writes.reindex.flatMap((r) => r.identifiers.map((identifier) => ({ org_id: set.orgId, resource_type: r.type, system: identifier.system, value: identifier.value, resource_id: r.id })));
  await insert('resource_identifiers', index);
  await writeSearchStrings(trx, set, writes, batch);
  const audit = writes.audit.map((a) => ({
    at: now,
    actor,
    request_id: requestId ?? null,
    org_id: set.orgId,
    facility_id: a.facilityId,
    resource_type: a.type,
    resource_id: a.id,
    outcome: a.outcome,
    version_id: a.versionId,
  }));
  await insert('ingest_writes', audit);
  await queueChecks(trx, writes.checks, now, insert);
  const known = subscriptions && {
    orgId: set.orgId,
    facilityId: set.facilityId,
    rows: subscriptions,
    flags: { restrictedRecords: flagsOfSubscriptions(subscriptions).restrictedRecords || flags.restricted_records === 1, consentDenials: flagsOfSubscriptions(subscriptions).consentDenials || flags.consent_denials === 1 },
  };
  // Before the events: queueing them may write the batch, with the deliveries' NOTIFY last.
  for (const { table, rows } of alongside) await insert(table, rows);
  await queueEvents(trx, writes.events, batch, known);
  await batch?.flush();
}

/** The names residents are searched by (search_strings), for every resident written. */
async function writeSearchStrings(trx: Knex.Transaction, set: ChangeSet, writes: ChunkWrites, batch: InsertBatch | undefined): Promise<void> {
  const named = new Map<string, { id: string; org_id: string; family_name: string; given_names: string }>();
  const fresh = new Set<string>();
  for (const row of writes.inserts.get('residents') ?? []) {
    named.set(row.id, { id: row.id, org_id: set.orgId, family_name: row.family_name as string, given_names: row.given_names as string });
    fresh.add(row.id);
  }
  for (const update of writes.updates) {
    if (update.table !== 'residents' || fresh.has(update.id) || update.set.family_name === undefined) continue;
    named.set(update.id, { id: update.id, org_id: set.orgId, family_name: update.set.family_name as string, given_names: update.set.given_names as string });
  }
  const rows = [...named.values()];
  await writeResidentSearchStrings(trx, rows.filter((r) => fresh.has(r.id)), false, batch);
  await writeResidentSearchStrings(trx, rows.filter((r) => !fresh.has(r.id)), true);
}
