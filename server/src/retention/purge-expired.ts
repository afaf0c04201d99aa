// Retention: audit rows older than AUDIT_RETENTION_DAYS (and the disclosures recorded with
// them, and the long texts they named, audit/audit-texts.ts; and the eligibility exchanges), webhook history older than
// DELIVERY_RETENTION_DAYS (attempts, finished deliveries with their bodies), and events older
// than EVENT_RETENTION_DAYS that no delivery refers to any more (the event log reads them until then),
// inbound messages (the message store, their content is PHI) received before MESSAGE_RETENTION_DAYS. Deleted in small batches, each its own
// short statement or transaction, with a pause between them: SQLite has a single writer and
// requests must never wait behind a long delete. Deliveries still queued are never touched, whatever their age.
// On PostgreSQL the history tables are partitioned by time (db/history-tables.ts): a partition
// wholly before its table's cut-off is detached and dropped at once (no row deleted, no WAL
// for them, no dead rows to vacuum), and the batches then delete only in the partition that
// straddles the cut-off (and the DEFAULT one).
import type { Knex } from 'knex';
import { isPostgres } from '../db/database.js';
import { dropDetachedPartitions, dropPartition, isPartitioned, partitionsBefore } from '../db/history-partitions.js';
import type { RetentionConfig } from '../config/config.js';
import { nowIso } from '../db/clock.js';
import { TEXT_RETAINED_BEYOND_MS } from '../audit/audit-texts.js';
import { BEFORE_045, hasIndexBefore045 } from '../db/disclosure-index-before-045.js';

const DAY_MS = 86_400_000;
export const PURGED_TABLES = ['audit_events', 'audit_texts', 'audit_disclosures', 'webhook_delivery_attempts', 'webhook_deliveries', 'webhook_events', 'eligibility_exchanges', 'inbound_messages'] as const;
export type PurgedTable = (typeof PURGED_TABLES)[number];

export interface DroppedPartition {
  table: string;
  partition: string;
  from: string;
  to: string;
  /** PostgreSQL's estimate of its rows (pg_class.reltuples) when it was dropped. */
  approximate_rows: number;
}

export interface PurgeReport {
  /** Rows removed per table by batch deletes (not counting the partitions dropped). */
  removed: Record<PurgedTable, number>;
  /** Whole partitions dropped (PostgreSQL). */
  partitions_dropped: DroppedPartition[];
  /** Rows older than these instants were purged. */
  cutoffs: { audit_events: string; webhook_history: string; webhook_events: string; inbound_messages: string };
  batches: number;
}

export interface PurgeOptions {
  now?: number;
  /** Between batches: lets waiting requests through. */
  pause?: () => Promise<void>;
  /** Asked before each batch; false stops the purge (service shutdown). */
  proceed?: () => boolean;
  /** Told after each batch, for metrics. */
  onBatch?: (table: PurgedTable, rows: number) => void;
  /** Told after each partition dropped. */
  onPartitionDropped?: (dropped: DroppedPartition) => void;
}

const FINISHED = ['delivered', 'failed', 'cancelled'];

export async function purgeExpired(
  db: Knex,
  config: Pick<RetentionConfig, 'auditDays' | 'deliveryDays' | 'batchSize'> & Partial<Pick<RetentionConfig, 'eventDays' | 'messageDays'>>,
  options: PurgeOptions = {},
): Promise<PurgeReport> {
  const now = options.now ?? Date.now();
  const auditCutoff = nowIso(now - config.auditDays * DAY_MS);
  const historyCutoff = nowIso(now - config.deliveryDays * DAY_MS);
  const eventCutoff = nowIso(now - (config.eventDays ?? config.deliveryDays) * DAY_MS);
  const messageCutoff = nowIso(now - (config.messageDays ?? 30) * DAY_MS);
  const limit = config.batchSize;
  const report: PurgeReport = {
    removed: { audit_events: 0, audit_texts: 0, audit_disclosures: 0, webhook_delivery_attempts: 0, webhook_deliveries: 0, webhook_events: 0, eligibility_exchanges: 0, inbound_messages: 0 },
    partitions_dropped: [],
    cutoffs: { audit_events: auditCutoff, webhook_history: historyCutoff, webhook_events: eventCutoff, inbound_messages: messageCutoff },
    batches: 0,
  };
  const postgres = isPostgres(db);
  /** Drops `table`'s partitions wholly before `cutoff` that `droppable` (if given) allows. */
  const dropWhole = async (table: string, cutoff: string, droppable?: (partition: string, from: string) => Promise<boolean>) => {
    if (!postgres || !(await isPartitioned(db, table))) return;
    await dropDetachedPartitions(db, table);
    for (const partition of await partitionsBefore(db, table, cutoff)) {
      if (!proceed()) return;
      if (droppable && !(await droppable(partition.name, partition.from!))) continue;
      const estimate = (await db.raw('SELECT reltuples::bigint AS n FROM pg_class WHERE oid = to_regclass(?)', [partition.name])) as { rows: Array<{ n: number }> };
      if (!(await dropPartition(db, table, partition.name))) continue;
      const dropped = { table, partition: partition.name, from: partition.from!, to: partition.to!, approximate_rows: Math.max(0, Number(estimate.rows[0]?.n ?? 0)) };
      report.partitions_dropped.push(dropped);
      options.onPartitionDropped?.(dropped);
    }
  };
  const proceed = options.proceed ?? (() => true);
  const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));

  /** Runs one kind of batch until it removes fewer rows than a full batch. */
  const drain = async (table: PurgedTable, batch: () => Promise<number>) => {
    while (proceed()) {
      const rows = await batch();
      report.batches++;
      report.removed[table] += rows;
      if (rows > 0) options.onBatch?.(table, rows);
      if (rows < limit) return;
      await pause();
    }
  };

  await dropWhole('audit_events', auditCutoff);
  // The accounting of disclosures of those months (migrations 045, 050): partitions of the same months.
  await dropWhole('audit_disclosure_texts', auditCutoff);
  await dropWhole('audit_disclosure_index', auditCutoff);
  if (report.partitions_dropped.length > 0) await db.transaction((trx) => dropDisclosuresOfPurgedRows(trx));
  await drain('audit_events', () =>
    db.transaction(async (trx): Promise<number> => {
      const removed = await trx('audit_events')
        .whereIn('seq', trx('audit_events').select('seq').where('at', '<', auditCutoff).orderBy('at').limit(limit))
        .del();
      if (removed === 0) return 0;
      await dropDisclosuresOfPurgedRows(trx);
      return removed;
    }),
  );
  // Disclosure index rows of months wholly past the cut-off that no partition held (rows of
  // an old month caught by the DEFAULT partitions: a backfill, a clock far off), once none of
  // those months' audit rows is left; with no such row, a probe of the DEFAULT partitions.
  if (postgres && (await isPartitioned(db, 'audit_disclosure_index'))) {
    const month = `${auditCutoff.slice(0, 7)}-01T00:00:00.000Z`;
    for (const table of ['audit_disclosure_index', 'audit_disclosure_texts']) {
      await db.raw(`DELETE FROM ${table} WHERE month < ? AND NOT EXISTS (SELECT 1 FROM audit_events WHERE at < ?)`, [month, month]);
    }
  }
  // Texts no writer has confirmed since well before the cut-off: every row that named one was
  // written before it plus TEXT_CONFIRMED_FOR_MS, so is gone above (audit/audit-texts.ts).
  const textCutoff = nowIso(now - config.auditDays * DAY_MS - TEXT_RETAINED_BEYOND_MS);
  await drain('audit_texts', () =>
    db('audit_texts')
      .whereIn('digest', db('audit_texts').select('digest').where('used_at', '<', textCutoff).orderBy('used_at').limit(limit))
      .del(),
  );
  // Disclosure rows written before migration 028, by the same cut-off.
  await drain('audit_disclosures', () =>
    db('audit_disclosures')
      .whereIn('seq', db('audit_disclosures').select('seq').where('at', '<', auditCutoff).orderBy('at').limit(limit))
      .del(),
  );
  // The eligibility log (270s and 271s asked and answered) is kept as long as the audit trail.
  await dropWhole('eligibility_exchanges', auditCutoff);
  await drain('eligibility_exchanges', () =>
    db('eligibility_exchanges')
      .whereIn('seq', db('eligibility_exchanges').select('seq').where('finished_at', '<', auditCutoff).orderBy('finished_at').limit(limit))
      .del(),
  );
  // Messages and reprocess outcomes alike, by their own received_at (a range partition's cut-off).
  await dropWhole('inbound_messages', messageCutoff);
  await drain('inbound_messages', () =>
    db('inbound_messages')
      .whereIn('seq', db('inbound_messages').select('seq').where('received_at', '<', messageCutoff).orderBy('received_at').limit(limit))
      .del(),
  );
  // Attempts by their start (the claim's instant): whole weeks past the cut-off dropped.
  await dropWhole('webhook_delivery_attempts', historyCutoff);
  await drain('webhook_delivery_attempts', () =>
    db('webhook_delivery_attempts')
      .whereIn('seq', db('webhook_delivery_attempts').select('seq').where('started_at', '<', historyCutoff).orderBy('started_at').limit(limit))
      .del(),
  );
  await drain('webhook_deliveries', () =>
    db.transaction(async (trx): Promise<number> => {
      const ids = (await trx('webhook_deliveries').whereIn('status', FINISHED).andWhere('completed_at', '<', historyCutoff).orderBy('completed_at').limit(limit).pluck('id')) as string[];
      if (ids.length === 0) return 0;
      // Attempts recorded after the cut-off (a late redelivery) go with their delivery.
      report.removed.webhook_delivery_attempts += await trx('webhook_delivery_attempts').whereIn('delivery_id', ids).del();
      // Re-checked in the delete: a delivery redelivered meanwhile is queued again and stays.
      return trx('webhook_deliveries').whereIn('id', ids).whereIn('status', FINISHED).del();
    }),
  );
  // A partition of events goes whole once no delivery names any of its events (a delivery is
  // made after its event: only deliveries created since the partition began are looked at).
  await dropWhole('webhook_events', eventCutoff, async (partition, from) => {
    const named = await db.raw(
      `SELECT 1 FROM "${partition}" e WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.created_at >= ?) LIMIT 1`,
      [from],
    );
    return (named as { rows: unknown[] }).rows.length === 0;
  });
  await drain('webhook_events', () =>
    db('webhook_events')
      .whereIn(
        'seq',
        db('webhook_events as e')
          .select('e.seq')
          .where('e.created_at', '<', eventCutoff)
          .whereNotExists(db('webhook_deliveries as d').select(db.raw('1')).whereRaw('d.event_id = e.id'))
          .orderBy('e.created_at')
          .limit(limit),
      )
      .del(),
  );
  return report;
}

/**
 * The accounting of disclosures goes with the rows it points to (migration 028): index rows
 * and queued rows below the oldest audit row left point to purged rows only. On PostgreSQL
 * the index is partitioned by the audit rows' months since migration 045 and goes with them
 * (above): an index row whose month's audit rows are gone reads nothing. Only the rows indexed before
 * it are deleted here, and their tables dropped once empty.
 */
async function dropDisclosuresOfPurgedRows(trx: Knex.Transaction): Promise<void> {
  const oldest = (await trx('audit_events').min({ seq: 'seq' }).first()) as { seq: number | string | null } | undefined;
  const below = oldest?.seq === null || oldest?.seq === undefined ? Number.MAX_SAFE_INTEGER : Number(oldest.seq);
  await trx('audit_disclosure_backlog').where('seq', '<', below).del();
  if (!isPostgres(trx)) {
    await trx('audit_disclosure_index').where('last_seq', '<', below).del();
    await trx('audit_disclosure_groups').where('last_seq', '<', below).del();
    return;
  }
  if (!(await hasIndexBefore045(trx))) return;
  await trx(BEFORE_045.index).where('last_seq', '<', below).del();
  await trx(BEFORE_045.groups).where('last_seq', '<', below).del();
  const left = (await trx(BEFORE_045.index).first(trx.raw('1 AS one'))) ?? (await trx(BEFORE_045.groups).first(trx.raw('1 AS one')));
  if (left) return;
  await trx.raw(`DROP TABLE ${BEFORE_045.index}, ${BEFORE_045.groups}`);
}
