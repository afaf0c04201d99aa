// Delivery attempts join the partitioned history on PostgreSQL (issue 43): weekly range
// partitions by started_at (db/history-tables.ts), moved online as migration 039 moved the
// others (db/history-table-move.ts).
// - An attempt is written at its outcome, or first as interrupted by the worker taking over
//   an expired lease and then rewritten by its own worker: an upsert on its unique key. A
//   partitioned table's unique keys must hold its partition key, so the key becomes
//   (delivery_id, attempt, started_at): started_at is the claim's instant, which both writers
//   know (webhooks/delivery-claims.ts), so it still names one attempt. The key is built on the
//   table as it is (the upserts name it from now on, during a background copy too); the build
//   holds attempt writes (not reads) for its duration.
// - A table of up to INLINE_ROWS rows is moved here; a bigger one by the service in the background.
// SQLite keeps its table and its (delivery_id, attempt) key.
import type { Knex } from 'knex';
import { isPostgres } from '../database.js';
import { historyTable } from '../history-tables.js';
import { moveToPartitions } from '../history-table-move.js';
import { isPartitioned } from '../history-partitions.js';
import { INLINE_ROWS } from './039_history_partitions.js';

const TABLE = 'webhook_delivery_attempts';

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  if (await isPartitioned(db, TABLE)) return;
  await db.raw(`CREATE UNIQUE INDEX IF NOT EXISTS webhook_delivery_attempts_key ON ${TABLE} (delivery_id, attempt, started_at)`);
  await db.raw(`ALTER TABLE ${TABLE} DROP CONSTRAINT IF EXISTS webhook_delivery_attempts_delivery_id_attempt_unique`);
  await moveToPartitions(db, historyTable(TABLE)!, INLINE_ROWS);
}

export async function down(db: Knex): Promise<void> {
  if (!isPostgres(db)) return;
  throw new Error('044_delivery_attempt_partitions cannot be rolled back in place on PostgreSQL: restore the backup taken before the upgrade');
}
