// The history tables become range partitions by time on PostgreSQL (issue 43; the tables and
// their intervals: db/history-tables.ts; the partitions: db/history-partitions.ts).
// - history_table_moves: one row per table moved, with the watermark of its online copy.
// - For each history table, a partitioned twin beside it, mirrored by trigger from now on
//   (db/history-table-move.ts). A table of up to INLINE_ROWS rows (a new database, a small
//   site) is copied and swapped here and now; a bigger one is copied by the service in the
//   background, in batches while it writes, and swapped in a short transaction at the end
//   (`ops partitions` shows the progress, `ops partitions --move` finishes it now), so upgrading never holds the table for the copy.
// - The foreign keys pointing at these tables (webhook_deliveries.event_id) are dropped: a
//   key pointing at a partitioned table must name its time column too.
// SQLite keeps its tables (a single site's history, purged in batches).
import type { Knex } from 'knex';
import { isPostgres } from '../database.js';
import { HISTORY_TABLES } from '../history-tables.js';
import { MOVES_TABLE, moveToPartitions } from '../history-table-move.js';

export const INLINE_ROWS = 50_000;

/** The tables this migration moved; later ones join by migrations of their own (044). */
const MOVED_HERE = ['audit_events', 'eligibility_exchanges', 'webhook_events', 'inbound_messages'];

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.createTable(MOVES_TABLE, (t) => {
    t.string('table_name', 64).primary();
    t.bigInteger('copy_through').notNullable();
    t.bigInteger('copied_through').notNullable();
    t.string('started_at', 32).notNullable();
    t.string('swapped_at', 32).nullable();
  });
  for (const spec of HISTORY_TABLES.filter((t) => MOVED_HERE.includes(t.table))) await moveToPartitions(db, spec, INLINE_ROWS);
}

export async function down(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  // Back to one table each would copy every row under a lock: restore the backup taken
  // before the upgrade instead (docs/partitions.md).
  throw new Error('039_history_partitions cannot be rolled back in place on PostgreSQL: restore the backup taken before the upgrade');
}
