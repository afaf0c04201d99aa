// The append-only history tables that PostgreSQL keeps as declarative range partitions by
// time (migration 039, db/history-partitions.ts): one line per table. A new history table
// joins by adding its line here and a migration that calls beginMove for it, as 039 does
// (db/history-table-move.ts); SQLite keeps plain tables and the batch purge (its users are single sites).
//
// Not here: webhook_deliveries is the delivery queue (its rows change status until finished,
// and the claim probes it per subscription several times a second); measured against weekly
// partitions in docs/partitions.md, it stays a plain table, purged in batches.
//
// Intervals: a month for the audit trail and the eligibility log (kept six years: 72
// partitions, and a month is the unit the accounting of disclosures is asked for); a week for
// events, inbound messages and delivery attempts (kept 30 days by default). Reads without a time (an event by id, the
// events of a delivery page) probe one index per partition, so five or six weekly partitions
// cost five or six index probes where daily ones would cost thirty; a week at 300 events a
// second is 1.8e8 rows, still a table PostgreSQL drops in milliseconds. See docs/partitions.md.
export type PartitionInterval = 'month' | 'week' | 'day';

export interface HistoryTable {
  table: string;
  /** The time column the partitions are ranged by: an ISO-8601 UTC text, set once at insert. */
  column: string;
  interval: PartitionInterval;
  /**
   * The table's serial key, by which an existing table is copied to partitions
   * (db/history-table-move.ts); absent for a table created partitioned (migration 045).
   */
  key?: string;
  /** A table only PostgreSQL has (SQLite keeps the accounting of disclosures its own way). */
  postgresOnly?: true;
}

export const HISTORY_TABLES: readonly HistoryTable[] = [
  { table: 'audit_events', column: 'at', interval: 'month', key: 'seq' },
  { table: 'eligibility_exchanges', column: 'finished_at', interval: 'month', key: 'seq' },
  { table: 'webhook_events', column: 'created_at', interval: 'week', key: 'seq' },
  // The message store (migration 036): kept MESSAGE_RETENTION_DAYS (30 by default), as events.
  { table: 'inbound_messages', column: 'received_at', interval: 'week', key: 'seq' },
  // Delivery attempts (migration 044), by their claim's instant: kept DELIVERY_RETENTION_DAYS.
  // Read by delivery (a page of deliveries, a delivery's attempts): one key probe per week.
  { table: 'webhook_delivery_attempts', column: 'started_at', interval: 'week', key: 'seq' },
  // The accounting of disclosures' index (migrations 045, 050), by the month of the audit rows
  // it points to: each month's partitions go with that month's audit partition.
  { table: 'audit_disclosure_texts', column: 'month', interval: 'month', postgresOnly: true },
  { table: 'audit_disclosure_index', column: 'month', interval: 'month' },
];

export function historyTable(table: string): HistoryTable | undefined {
  return HISTORY_TABLES.find((t) => t.table === table);
}
