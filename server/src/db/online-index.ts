// An index added to a table that writers keep writing to (PostgreSQL). CREATE INDEX holds
// every INSERT for as long as it builds, hours on years of audit rows; so a partitioned table
// gets the index ON ONLY itself (nothing built, no wait), each partition's is built
// CONCURRENTLY (writes go on) and attached, and the parent's becomes valid with the last one.
// A plain table's is built CONCURRENTLY. None of this may run in a transaction (a migration
// that calls it says `config: { transaction: false }`). Idempotent: a run that stopped half
// way is taken up again, an index a failed concurrent build left invalid is built again.
// Partitions created later get the index from the parent as they are attached.
import type { Knex } from 'knex';
import { rawRows } from './database.js';
import { isPartitioned, listPartitions } from './history-partitions.js';

async function validity(db: Knex, index: string): Promise<'valid' | 'invalid' | 'absent'> {
  const rows = rawRows<{ valid: boolean }>(
    await db.raw('SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass(?)', [index]),
  );
  if (rows.length === 0) return 'absent';
  return rows[0]!.valid ? 'valid' : 'invalid';
}

async function buildConcurrently(db: Knex, table: string, index: string, body: string): Promise<void> {
  const state = await validity(db, index);
  if (state === 'valid') return;
  if (state === 'invalid') await db.raw(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`);
  await db.raw(`CREATE INDEX CONCURRENTLY "${index}" ON "${table}" ${body}`);
}

/** Whether a partition `partition` has an index attached to the partitioned index `index`. */
async function hasAttached(db: Knex, index: string, partition: string): Promise<boolean> {
  const rows = rawRows(
    await db.raw(
      `SELECT 1 FROM pg_inherits h JOIN pg_index i ON i.indexrelid = h.inhrelid
       WHERE h.inhparent = to_regclass(?) AND i.indrelid = to_regclass(?)`,
      [index, partition],
    ),
  );
  return rows.length > 0;
}

/**
 * Creates index `name` on `table` with `body` (what follows `ON table`: columns, predicate)
 * without holding its writers; a partition's own index is named `<partition><childSuffix>`.
 */
export async function createIndexOnline(db: Knex, table: string, name: string, body: string, childSuffix: string): Promise<void> {
  if (!(await isPartitioned(db, table))) {
    await buildConcurrently(db, table, name, body);
    return;
  }
  await db.raw(`CREATE INDEX IF NOT EXISTS "${name}" ON ONLY "${table}" ${body}`);
  // Listed after the parent's index exists: a partition created since has it already.
  for (const partition of await listPartitions(db, table)) {
    if (await hasAttached(db, name, partition.name)) continue;
    const child = `${partition.name}${childSuffix}`;
    await buildConcurrently(db, partition.name, child, body);
    await db.raw(`ALTER INDEX "${name}" ATTACH PARTITION "${child}"`);
  }
}
