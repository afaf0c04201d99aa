// What a run of a road wrote, read back from the ingest audit trail (ingest_writes, by the
// run's request id): for the roads that apply in several transactions (X12 271 loop by loop,
// NDJSON chunk by chunk) and so cannot hand their records to the store from one of them.
// The trail has no index by request id (one more B-tree on every write of every road): a run
// notes where the trail ends before it starts (`ingestWritesMark`), and its writes are read
// from there, a range of the (org_id, seq) index, not the organization's whole history.
import type { Knex } from 'knex';
import type { ChangedRecord } from './message-types.js';

/** At most this many records are kept per message (an NDJSON stream may write millions). */
export const MAX_RECORDS = 1000;

/**
 * The last sequence number of the trail now. A run's writes come after it: sequence numbers
 * are handed out in order when rows are inserted (PostgreSQL's sequence, SQLite's one writer),
 * so whatever the run inserts later numbers higher, even past a transaction still open now.
 */
export async function ingestWritesMark(db: Knex): Promise<number> {
  const row = (await db('ingest_writes').max({ seq: 'seq' }).first()) as { seq: number | string | null } | undefined;
  return Number(row?.seq ?? 0);
}

/** The records run `requestId` wrote, from the trail after `mark` (`ingestWritesMark` before the run). */
export async function writtenRecords(db: Knex, orgId: string, requestId: string, mark: number): Promise<ChangedRecord[]> {
  const rows = (await db('ingest_writes').where({ org_id: orgId }).andWhere('seq', '>', mark).andWhere({ request_id: requestId }).orderBy('seq').limit(MAX_RECORDS).select('resource_type', 'resource_id', 'version_id', 'outcome')) as Array<{ resource_type: string; resource_id: string; version_id: number; outcome: string }>;
  return rows.map((r) => ({ type: r.resource_type, id: r.resource_id, version: Number(r.version_id), outcome: r.outcome === 'created' ? 'created' : 'updated' }));
}
