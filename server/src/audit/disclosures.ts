// The accounting of disclosures (HIPAA 164.528): every disclosure of one resident's data to a
// partner, oldest first, from the two places that record them: the audit trail's per-resident
// rows (audit_disclosures: reads and lists that returned the resident's records) and the
// delivery log (webhook deliveries of events about the resident that were sent). Both are
// read through an index on (organization, resident), so one resident is found among millions
// of rows (the bench measures it).
import type { Knex } from 'knex';
import type { Disclosure } from './audit-trail.js';

export interface DisclosureRecord {
  at: string;
  client_id: string;
  client_name: string | null;
  purpose: string;
  channel: 'api' | 'webhook';
  operation: string;
  resource_types: string[];
  resource_ids: string[];
}

export interface DisclosureQuery {
  orgId: string;
  residentId: string;
  /** Inclusive ISO 8601 instant. */
  from?: string | undefined;
  /** Exclusive ISO 8601 instant. */
  to?: string | undefined;
}

/** What an answer that returned `rows` of `resourceType` disclosed, resident by resident. */
export function disclosuresOf(resourceType: string, rows: ReadonlyArray<{ id: string; resident_id?: unknown }>): Disclosure[] {
  const byResident = new Map<string, string[]>();
  for (const row of rows) {
    const residentId = resourceType === 'Patient' ? row.id : String(row.resident_id);
    const ids = byResident.get(residentId) ?? [];
    ids.push(row.id);
    byResident.set(residentId, ids);
  }
  return [...byResident].map(([residentId, resourceIds]) => ({ residentId, resourceType, resourceIds }));
}

export async function disclosuresOfResident(db: Knex, query: DisclosureQuery): Promise<DisclosureRecord[]> {
  const bounded = <Q extends Knex.QueryBuilder>(q: Q, column: string): Q => {
    if (query.from !== undefined) q.andWhere(column, '>=', query.from);
    if (query.to !== undefined) q.andWhere(column, '<', query.to);
    return q;
  };
  const reads = (await bounded(
    db('audit_disclosures as d')
      .leftJoin('clients as c', 'c.client_id', 'd.client_id')
      .where({ 'd.org_id': query.orgId, 'd.resident_id': query.residentId })
      .orderBy([{ column: 'd.at' }, { column: 'd.seq' }])
      .select('d.at', 'd.client_id', 'c.name as client_name', 'd.purpose', 'd.operation', 'd.resource_type', 'd.resource_ids'),
    'd.at',
  )) as Array<{ at: string; client_id: string; client_name: string | null; purpose: string; operation: string; resource_type: string; resource_ids: string }>;
  // A delivery discloses its event once it was sent (attempted), whatever the receiver answered.
  const sentAt = 'coalesce(w.completed_at, w.last_attempt_at)';
  const deliveries = (await bounded(
    db('webhook_events as e')
      .join('webhook_deliveries as w', 'w.event_id', 'e.id')
      .join('webhook_subscriptions as s', 's.id', 'w.subscription_id')
      .join('clients as c', 'c.id', 's.client_pk')
      .where({ 'e.org_id': query.orgId, 'e.resident_id': query.residentId })
      .andWhere('w.attempts', '>', 0)
      .select(db.raw(`${sentAt} as at`), 'c.client_id', 'c.name as client_name', 'w.purpose', 'c.purpose as current_purpose', 'e.event_type', 'e.resident_id'),
    db.raw(sentAt) as unknown as string,
  )) as Array<{ at: string; client_id: string; client_name: string; purpose: string | null; current_purpose: string; event_type: string; resident_id: string }>;
  const records: DisclosureRecord[] = [
    ...reads.map((r) => ({
      at: r.at,
      client_id: r.client_id,
      client_name: r.client_name ?? null,
      purpose: r.purpose,
      channel: 'api' as const,
      operation: r.operation,
      resource_types: [r.resource_type],
      resource_ids: JSON.parse(r.resource_ids) as string[],
    })),
    ...deliveries.map((d) => ({
      at: d.at,
      client_id: d.client_id,
      client_name: d.client_name,
      purpose: d.purpose ?? d.current_purpose,
      channel: 'webhook' as const,
      operation: d.event_type,
      resource_types: ['Patient'],
      resource_ids: [d.resident_id],
    })),
  ];
  // Stable: reads keep their commit order among equal instants.
  return records.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** RFC 4180 CSV of the report (lists joined by spaces). */
export function disclosuresCsv(records: DisclosureRecord[]): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const header = 'at,client_id,client_name,purpose,channel,operation,resource_types,resource_ids';
  const lines = records.map((r) => [r.at, r.client_id, r.client_name ?? '', r.purpose, r.channel, r.operation, r.resource_types.join(' '), r.resource_ids.join(' ')].map(cell).join(','));
  return [header, ...lines].join('\r\n') + '\r\n';
}
