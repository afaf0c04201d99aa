// The audit trail of the write side: every row applyChangeSet created or updated (who, which
// id, created or updated, the version written, and the request or CLI run), written in the
// same transaction as the row itself. Ids only, never resource contents.
import type { Knex } from 'knex';

export interface IngestWrite {
  at: string;
  actor: string;
  request_id: string | null;
  facility_id: string;
  resource_type: string;
  resource_id: string;
  outcome: 'created' | 'updated';
  version_id: number;
}

export async function queryIngestWrites(
  db: Knex,
  filter: { orgId: string; resourceId?: string; actor?: string; since?: string; limit?: number },
): Promise<IngestWrite[]> {
  const rows = await db('ingest_writes')
    .where({ org_id: filter.orgId })
    .modify((q) => {
      if (filter.resourceId) q.andWhere({ resource_id: filter.resourceId });
      if (filter.actor) q.andWhere({ actor: filter.actor });
      if (filter.since) q.andWhere('at', '>=', filter.since);
    })
    .orderBy('seq')
    .limit(filter.limit ?? 10_000);
  return rows.map((row: Record<string, unknown>) => ({
    at: row.at as string,
    actor: row.actor as string,
    request_id: (row.request_id as string | null) ?? null,
    facility_id: row.facility_id as string,
    resource_type: row.resource_type as string,
    resource_id: row.resource_id as string,
    outcome: row.outcome as IngestWrite['outcome'],
    version_id: Number(row.version_id),
  }));
}
