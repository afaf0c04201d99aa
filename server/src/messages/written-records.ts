// What a run of a road wrote, read back from the ingest audit trail (ingest_writes, by the
// run's request id): for the roads that apply in several transactions (X12 271 loop by loop,
// NDJSON chunk by chunk) and so cannot hand their records to the store from one of them.
import type { Knex } from 'knex';
import type { ChangedRecord } from './message-types.js';

/** At most this many records are kept per message (an NDJSON stream may write millions). */
export const MAX_RECORDS = 1000;

export async function writtenRecords(db: Knex, orgId: string, requestId: string): Promise<ChangedRecord[]> {
  const rows = (await db('ingest_writes').where({ org_id: orgId, request_id: requestId }).orderBy('seq').limit(MAX_RECORDS).select('resource_type', 'resource_id', 'version_id', 'outcome')) as Array<{ resource_type: string; resource_id: string; version_id: number; outcome: string }>;
  return rows.map((r) => ({ type: r.resource_type, id: r.resource_id, version: Number(r.version_id), outcome: r.outcome === 'created' ? 'created' : 'updated' }));
}
