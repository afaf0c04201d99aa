// An index added to a table that writers keep writing to (PostgreSQL). CREATE INDEX holds
// every INSERT for as long as it builds, hours on years of audit rows; so a partitioned table
// gets the index ON ONLY itself (nothing built, no wait), each partition's is built
// CONCURRENTLY (writes go on) and attached, and the parent's becomes valid with the last one.
// A plain table's is built CONCURRENTLY. None of this may run in a transaction, so it runs on
// a connection of its own, taken from knex's pool, under a session advisory lock: one builder
// per index, whichever instance (a second one finds it busy and leaves it). A run stopped half
// way is taken up by the next one, and an index a failed concurrent build left invalid is
// built again. Partitions created later get the index from the parent as they are attached.
//
// A migration builds what is small at once (`upToRows`) and leaves the rest to the service's
// partition keeper (db/history-partition-keeper.ts), which builds it in the background: an
// upgrade never waits hours for an index before the service answers.
import type { Knex } from 'knex';
import { rawRows } from './database.js';
import { isPartitioned, listPartitions, relationExists } from './history-partitions.js';

export interface OnlineIndex {
  table: string;
  name: string;
  /** What follows `ON <table>`: the columns and any predicate. */
  body: string;
  /** A partition's own index is named `<partition><childSuffix>`. */
  childSuffix: string;
}

interface PgConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export type BuildOutcome = 'built' | 'pending' | 'busy';

/**
 * Builds `index` where it is missing: every partition (or the plain table) of at most
 * `upToRows` rows by the catalogue's estimate, all when not given. 'pending': larger ones
 * are left; 'busy': another builder holds it.
 */
export async function buildIndexOnline(db: Knex, index: OnlineIndex, options: { upToRows?: number; proceed?: () => boolean } = {}): Promise<BuildOutcome> {
  const proceed = options.proceed ?? (() => true);
  const connection = (await db.client.acquireConnection()) as PgConnection;
  const q = async (sql: string, values: unknown[] = []) => (await connection.query(sql, values)).rows;
  const lockKey = `ofctx.online_index.${index.name}`;
  try {
    if (!(await q('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [lockKey]))[0]!.locked) return 'busy';
    try {
      const validity = async (name: string): Promise<'valid' | 'invalid' | 'absent'> => {
        const rows = await q('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [name]);
        return rows.length === 0 ? 'absent' : rows[0]!.valid ? 'valid' : 'invalid';
      };
      const small = async (table: string) =>
        options.upToRows === undefined || Number((await q('SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = to_regclass($1)', [table]))[0]?.n ?? 0) <= options.upToRows;
      const build = async (table: string, name: string): Promise<void> => {
        const state = await validity(name);
        if (state === 'valid') return;
        if (state === 'invalid') await q(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
        await q(`CREATE INDEX CONCURRENTLY "${name}" ON "${table}" ${index.body}`);
      };
      if (!(await isPartitioned(db, index.table))) {
        if (!(await small(index.table))) return 'pending';
        await build(index.table, index.name);
        return 'built';
      }
      await q(`CREATE INDEX IF NOT EXISTS "${index.name}" ON ONLY "${index.table}" ${index.body}`);
      let left = false;
      // Listed after the parent's index exists: a partition created since has it already.
      for (const partition of await listPartitions(db, index.table)) {
        const attached = await q(
          `SELECT 1 FROM pg_inherits h JOIN pg_index i ON i.indexrelid = h.inhrelid WHERE h.inhparent = to_regclass($1) AND i.indrelid = to_regclass($2)`,
          [index.name, partition.name],
        );
        if (attached.length > 0) continue;
        if (!proceed() || !(await small(partition.name))) {
          left = true;
          continue;
        }
        const child = `${partition.name}${index.childSuffix}`;
        await build(partition.name, child);
        await q(`ALTER INDEX "${index.name}" ATTACH PARTITION "${child}"`);
      }
      return left ? 'pending' : 'built';
    } finally {
      await q('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/** Whether `index` still has a partition (or its plain table) to build: absent or not yet valid. */
export async function isIndexPending(db: Knex, index: OnlineIndex): Promise<boolean> {
  if (!(await relationExists(db, index.table))) return false;
  const rows = rawRows<{ valid: boolean }>(await db.raw('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass(?)', [index.name]));
  return rows.length === 0 || !rows[0]!.valid;
}
