// Retention: audit rows older than AUDIT_RETENTION_DAYS (and the disclosures recorded with
// them, and the long texts they named, audit/audit-texts.ts; and the eligibility exchanges), webhook history older than
// DELIVERY_RETENTION_DAYS (attempts, finished deliveries with their bodies), and events older
// than EVENT_RETENTION_DAYS that no delivery refers to any more (the event log reads them until then),
// inbound messages (the message store, their content is PHI) received before MESSAGE_RETENTION_DAYS. Deleted in small batches, each its own
// short statement or transaction, with a pause between them: SQLite has a single writer and
// requests must never wait behind a long delete. Deliveries still queued are never touched, whatever their age.
import type { Knex } from 'knex';
import type { RetentionConfig } from '../config/config.js';
import { nowIso } from '../db/clock.js';
import { TEXT_RETAINED_BEYOND_MS } from '../audit/audit-texts.js';

const DAY_MS = 86_400_000;
export const PURGED_TABLES = ['audit_events', 'audit_texts', 'audit_disclosures', 'webhook_delivery_attempts', 'webhook_deliveries', 'webhook_events', 'eligibility_exchanges', 'inbound_messages'] as const;
export type PurgedTable = (typeof PURGED_TABLES)[number];

export interface PurgeReport {
  /** Rows removed per table. */
  removed: Record<PurgedTable, number>;
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
    cutoffs: { audit_events: auditCutoff, webhook_history: historyCutoff, webhook_events: eventCutoff, inbound_messages: messageCutoff },
    batches: 0,
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

  await drain('audit_events', () =>
    db.transaction(async (trx): Promise<number> => {
      const removed = await trx('audit_events')
        .whereIn('seq', trx('audit_events').select('seq').where('at', '<', auditCutoff).orderBy('at').limit(limit))
        .del();
      if (removed === 0) return 0;
      // The accounting of disclosures goes with the rows it points to (migration 028): index
      // rows and queued rows below the oldest audit row left point to purged rows only.
      const oldest = (await trx('audit_events').min({ seq: 'seq' }).first()) as { seq: number | string | null } | undefined;
      const below = oldest?.seq === null || oldest?.seq === undefined ? Number.MAX_SAFE_INTEGER : Number(oldest.seq);
      await trx('audit_disclosure_index').where('last_seq', '<', below).del();
      await trx('audit_disclosure_groups').where('last_seq', '<', below).del();
      await trx('audit_disclosure_backlog').where('seq', '<', below).del();
      return removed;
    }),
  );
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
  await drain('eligibility_exchanges', () =>
    db('eligibility_exchanges')
      .whereIn('seq', db('eligibility_exchanges').select('seq').where('finished_at', '<', auditCutoff).orderBy('finished_at').limit(limit))
      .del(),
  );
  // Messages and reprocess outcomes alike, by their own received_at (a range partition's cut-off).
  await drain('inbound_messages', () =>
    db('inbound_messages')
      .whereIn('seq', db('inbound_messages').select('seq').where('received_at', '<', messageCutoff).orderBy('received_at').limit(limit))
      .del(),
  );
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
