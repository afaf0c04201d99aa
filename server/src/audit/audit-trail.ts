// HIPAA-style accounting of access: every authenticated API operation records who (client),
// where (org, facility), what (operation, status) and which resource ids it returned.
// Ids only, never resource contents, secrets or tokens.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';

export interface AuditEntry {
  requestId: string;
  clientId: string | null;
  orgId: string | null;
  facilityId: string | null;
  operation: string;
  status: number;
  resourceIds: string[] | null;
}

export interface AuditRecord {
  at: string;
  request_id: string;
  client_id: string | null;
  org_id: string | null;
  facility_id: string | null;
  operation: string;
  status: number;
  resource_ids: string[] | null;
  result_count: number;
}

export class AuditTrail {
  constructor(private readonly db: Knex) {}

  async record(entry: AuditEntry): Promise<void> {
    await this.db('audit_events').insert({
      at: nowIso(),
      request_id: entry.requestId,
      client_id: entry.clientId,
      org_id: entry.orgId,
      facility_id: entry.facilityId,
      operation: entry.operation,
      status: entry.status,
      resource_ids: entry.resourceIds ? JSON.stringify(entry.resourceIds) : null,
      result_count: entry.resourceIds?.length ?? 0,
    });
  }

  async query(filter: { orgId: string; clientId?: string; since?: string; limit?: number }): Promise<AuditRecord[]> {
    let q = this.db('audit_events').where({ org_id: filter.orgId });
    if (filter.clientId) q = q.andWhere({ client_id: filter.clientId });
    if (filter.since) q = q.andWhere('at', '>=', filter.since);
    const rows = await q.orderBy('seq').limit(filter.limit ?? 10_000);
    return rows.map((row: Record<string, unknown>) => ({
      at: row.at as string,
      request_id: row.request_id as string,
      client_id: (row.client_id as string | null) ?? null,
      org_id: (row.org_id as string | null) ?? null,
      facility_id: (row.facility_id as string | null) ?? null,
      operation: row.operation as string,
      status: Number(row.status),
      resource_ids: row.resource_ids ? (JSON.parse(row.resource_ids as string) as string[]) : null,
      result_count: Number(row.result_count),
    }));
  }
}
