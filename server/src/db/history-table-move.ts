// Moves an unpartitioned history table to time partitions online (PostgreSQL), while the
// service goes on writing to it:
//
// 1. beginMove (in migration 039): a partitioned twin `<table>_partitioned` is created beside
//    the table, with the same columns (the time column in the "C" collation, so text order is
//    byte order and bounds compare the same whatever the database's locale; the serial key
//    64-bit, as 10^9 audit rows a year need), its primary and unique keys extended with the time column (PostgreSQL's rule for partitioned keys), the
//    other indexes and the table's own foreign keys; partitions from its oldest row to ahead
//    of now, and a DEFAULT one. A row trigger on the table mirrors every insert, update and
//    delete into the twin from then on. The watermark to copy up to is the largest key then.
// 2. copyBatch, repeated (the service in the background, or `ops partitions --move`): copies the
//    next range of keys up to the watermark, `FOR SHARE` so a row being updated meanwhile is
//    copied as it ends up (the update waits, then its trigger replaces the copy), and `ON
//    CONFLICT DO NOTHING` so a row the trigger already mirrored is not copied twice.
// 3. swap, once the watermark is reached: in one short transaction holding the table's lock,
//    the old table is dropped (its sequence now owned by the twin), the twin takes its name,
//    its indexes their names, and the table's other triggers are recreated on it.
//
// Foreign keys pointing at a partitioned table must name its whole key, time included, so
// migration 039 drops the ones pointing at these tables (a delivery's event): retention
// removes children first and events only once no delivery names them.
import type { Knex } from 'knex';
import { rawRows } from './database.js';
import { boundOf, ensurePartitions, relationExists, relationKind } from './history-partitions.js';
import type { HistoryTable } from './history-tables.js';
import { isDeadlock, isLockTimeout, retryOnLockTimeout, withLockTimeout } from './lock-timeout.js';

export const MOVES_TABLE = 'history_table_moves';

export function twinName(table: string): string {
  return `${table}_partitioned`;
}

function mirrorTrigger(table: string): string {
  return `${table}_mirror_to_partitioned`;
}

interface Column {
  name: string;
  type: string;
  not_null: boolean;
  default_expr: string | null;
}

async function columnsOf(db: Knex, table: string): Promise<Column[]> {
  return rawRows<Column>(
    await db.raw(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default_expr
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [table],
    ),
  );
}

const INDEX_DEF = /^CREATE (UNIQUE )?INDEX (\S+) ON (\S+) USING (\w+) \((.*)\)(.*)$/;

/** How the mirror trigger waits for the table's lock: each try briefly, writers queued behind it. */
const TRIGGER_LOCK = { timeout: '2s', attempts: 15, pauseMs: 250 };

/** How many rows are copied (or moved inline by the migration) per statement. */
export const COPY_BATCH = 20_000;

function keyOf(spec: HistoryTable): string {
  if (!spec.key) throw new Error(`${spec.table} has no serial key to be copied to partitions by`);
  return spec.key;
}

/** Step 1. Returns false when the table is partitioned already or a move is under way. */
export async function beginMove(db: Knex, spec: HistoryTable, now = Date.now()): Promise<boolean> {
  const { table, column } = spec;
  const key = keyOf(spec);
  const twin = twinName(table);
  if ((await relationKind(db, table)) !== 'r') return false;
  if (await relationExists(db, twin)) return false;

  // Keys elsewhere pointing at this table cannot point at a partitioned one (header).
  const referencing = rawRows<{ name: string; child: string }>(
    await db.raw(`SELECT conname AS name, conrelid::regclass::text AS child FROM pg_constraint WHERE confrelid = ?::regclass AND contype = 'f'`, [table]),
  );
  for (const fk of referencing) await db.raw(`ALTER TABLE ${fk.child} DROP CONSTRAINT "${fk.name}"`);

  const columns = await columnsOf(db, table);
  const defs = columns.map((c) => {
    const collate = c.name === column ? ' COLLATE "C"' : '';
    // A history's serial key outgrows 32 bits (10^9 audit rows a year at 300 a second).
    const type = c.name === key && c.type === 'integer' ? 'bigint' : c.type;
    return `"${c.name}" ${type}${collate}${c.not_null ? ' NOT NULL' : ''}${c.default_expr !== null ? ` DEFAULT ${c.default_expr}` : ''}`;
  });
  await db.raw(`CREATE TABLE "${twin}" (${defs.join(', ')}) PARTITION BY RANGE ("${column}")`);
  await db.raw(`CREATE TABLE "${table}_default" PARTITION OF "${twin}" DEFAULT`);

  const indexes = rawRows<{ def: string; primary: boolean }>(
    await db.raw('SELECT pg_get_indexdef(indexrelid) AS def, indisprimary AS primary FROM pg_index WHERE indrelid = ?::regclass', [table]),
  );
  for (const index of indexes) {
    const m = INDEX_DEF.exec(index.def);
    if (!m) throw new Error(`${table}: index not understood for the move to partitions: ${index.def}`);
    const [, unique, name, , method, cols, rest] = m;
    const withTime = unique && !cols!.split(',').some((c) => c.trim().replaceAll('"', '') === column) ? `${cols}, "${column}"` : cols;
    if (index.primary) await db.raw(`ALTER TABLE "${twin}" ADD CONSTRAINT "${name}_twin" PRIMARY KEY (${withTime})`);
    else await db.raw(`CREATE ${unique ?? ''}INDEX "${name}_twin" ON "${twin}" USING ${method} (${withTime})${rest}`);
  }
  const outgoing = rawRows<{ name: string; def: string }>(
    await db.raw(`SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'f'`, [table]),
  );
  for (const fk of outgoing) await db.raw(`ALTER TABLE "${twin}" ADD CONSTRAINT "${fk.name}_twin" ${fk.def}`);

  // Partitions for every period the table holds, and ahead.
  const oldest = rawRows<{ at: string | null }>(await db.raw(`SELECT min("${column}") AS at FROM "${table}"`))[0]?.at;
  const since = oldest ? Math.min(Date.parse(oldest), now) : now;
  await ensurePartitions(db, spec, now, Number.isNaN(since) ? now : since, twin, true);

  const names = columns.map((c) => `"${c.name}"`).join(', ');
  const values = columns.map((c) => `NEW."${c.name}"`).join(', ');
  await db.raw(`CREATE OR REPLACE FUNCTION "${mirrorTrigger(table)}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM "${twin}" WHERE "${key}" = OLD."${key}" AND "${column}" = OLD."${column}";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "${twin}" (${names}) VALUES (${values}) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$`);
  // Takes SHARE ROW EXCLUSIVE: writes in flight finish first, every later one is mirrored.
  // Writers queue behind the waiting statement, so it waits briefly and tries again.
  const created = await retryOnLockTimeout(db, TRIGGER_LOCK, async (trx) => {
    await trx.raw(`CREATE TRIGGER "${mirrorTrigger(table)}" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${mirrorTrigger(table)}"()`);
  });
  if (!created) {
    throw new Error(
      `${table}: the move to partitions could not lock the table to add its mirror trigger (${TRIGGER_LOCK.attempts} tries of ${TRIGGER_LOCK.timeout}); ` +
        `long-running statements or transactions hold it (see pg_stat_activity): let them finish and run the upgrade again`,
    );
  }
  const sequence = rawRows<{ name: string | null }>(await db.raw('SELECT pg_get_serial_sequence(?, ?) AS name', [table, key]))[0]?.name;
  if (sequence) await db.raw(`ALTER SEQUENCE ${sequence} AS bigint`);
  const top = rawRows<{ top: number | null }>(await db.raw(`SELECT max("${key}") AS top FROM "${table}"`))[0]?.top ?? 0;
  await db(MOVES_TABLE).insert({ table_name: table, copy_through: Number(top ?? 0), copied_through: 0, started_at: boundOf(now) });
  return true;
}

export interface MoveState {
  table_name: string;
  copy_through: number;
  copied_through: number;
  started_at: string;
  swapped_at: string | null;
}

/**
 * A batch that deadlocked is tried again this many times, after 250 ms times the try. Its rows
 * are locked in key order; retention's batch delete locks the rows it removes in its plan's
 * order, so the two can wait on each other, and PostgreSQL aborts one of them. The batch
 * aborted copied nothing (one transaction), and the move would otherwise wait for the
 * keeper's next pass, an hour later (found by the online-move test under CI's load).
 */
const DEADLOCK_RETRY = { attempts: 5, pauseMs: 250 };

/** Step 2: the next batch. Returns the rows copied, or null when the watermark is reached. */
export async function copyBatch(db: Knex, spec: HistoryTable, batch = COPY_BATCH): Promise<number | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await copyBatchOnce(db, spec, batch);
    } catch (error) {
      if (!isDeadlock(error) || attempt >= DEADLOCK_RETRY.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, DEADLOCK_RETRY.pauseMs * attempt));
    }
  }
}

async function copyBatchOnce(db: Knex, spec: HistoryTable, batch: number): Promise<number | null> {
  return db.transaction(async (trx) => {
    // One copier per table at a time (several instances): the others have nothing to do.
    const locked = rawRows<{ locked: boolean }>(await trx.raw('SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked', [`ofctx.history_move.${spec.table}`]))[0]?.locked;
    if (!locked) return 0;
    const state = (await trx(MOVES_TABLE).where({ table_name: spec.table }).first()) as MoveState | undefined;
    if (!state || state.swapped_at !== null) return null;
    const from = Number(state.copied_through);
    const through = Number(state.copy_through);
    if (from >= through) return null;
    const upTo = Math.min(from + batch, through);
    const names = (await columnsOf(trx, spec.table)).map((c) => `"${c.name}"`).join(', ');
    const key = keyOf(spec);
    const result = (await trx.raw(
      `WITH source AS (SELECT ${names} FROM "${spec.table}" WHERE "${key}" > ? AND "${key}" <= ? ORDER BY "${key}" FOR SHARE)
       INSERT INTO "${twinName(spec.table)}" (${names}) SELECT ${names} FROM source ON CONFLICT DO NOTHING`,
      [from, upTo],
    )) as { rowCount: number };
    await trx(MOVES_TABLE).where({ table_name: spec.table }).update({ copied_through: upTo });
    return result.rowCount;
  });
}

/** Step 3. Returns false when the copy is not finished (or the lock was not had in time). */
export async function swap(db: Knex, spec: HistoryTable, now = Date.now()): Promise<boolean> {
  const { table } = spec;
  const key = keyOf(spec);
  const twin = twinName(table);
  const swapped = await withLockTimeout(db, '2s', async (trx): Promise<boolean> => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`ofctx.history_move.${table}`]);
    const state = (await trx(MOVES_TABLE).where({ table_name: table }).first()) as MoveState | undefined;
    if (!state || state.swapped_at !== null || Number(state.copied_through) < Number(state.copy_through)) return false;
    try {
      await trx.raw('SAVEPOINT before_lock');
      await trx.raw(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    } catch (error) {
      // 55P03: writers held the table for lock_timeout; the caller tries again shortly.
      if (!isLockTimeout(error)) throw error;
      await trx.raw('ROLLBACK TO SAVEPOINT before_lock');
      return false;
    }
    const triggers = rawRows<{ name: string; def: string }>(
      await trx.raw('SELECT tgname AS name, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = ?::regclass AND NOT tgisinternal', [table]),
    ).filter((t) => t.name !== mirrorTrigger(table));
    const sequence = rawRows<{ name: string | null }>(await trx.raw('SELECT pg_get_serial_sequence(?, ?) AS name', [table, key]))[0]?.name;
    if (sequence) await trx.raw(`ALTER SEQUENCE ${sequence} OWNED BY "${twin}"."${key}"`);
    await trx.raw(`DROP TABLE "${table}"`);
    await trx.raw(`DROP FUNCTION IF EXISTS "${mirrorTrigger(table)}"()`);
    await trx.raw(`ALTER TABLE "${twin}" RENAME TO "${table}"`);
    const renamed = rawRows<{ name: string }>(
      await trx.raw(`SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = ?::regclass AND c.relname LIKE '%\\_twin'`, [table]),
    );
    for (const { name } of renamed) await trx.raw(`ALTER INDEX "${name}" RENAME TO "${name.slice(0, -'_twin'.length)}"`);
    const fks = rawRows<{ name: string }>(await trx.raw(`SELECT conname AS name FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'f' AND conname LIKE '%\\_twin'`, [table]));
    for (const { name } of fks) await trx.raw(`ALTER TABLE "${table}" RENAME CONSTRAINT "${name}" TO "${name.slice(0, -'_twin'.length)}"`);
    for (const trigger of triggers) await trx.raw(trigger.def);
    await trx(MOVES_TABLE).where({ table_name: table }).update({ swapped_at: boundOf(now) });
    return true;
  });
  // Autovacuum analyzes partitions, never the partitioned table: its own statistics now.
  if (swapped) await db.raw(`ANALYZE "${table}"`);
  return swapped;
}

/**
 * What a migration does for a table joining the partitioned history: beginMove, then, for a
 * table of up to `inlineRows` rows (a new database, a small site), the copy and the swap right
 * there; a bigger one is left to the service's keeper. Returns what happened.
 */
export async function moveToPartitions(db: Knex, spec: HistoryTable, inlineRows: number): Promise<'skipped' | 'begun' | 'moved'> {
  if (!(await beginMove(db, spec))) return 'skipped';
  const small = rawRows<{ n: number }>(await db.raw(`SELECT count(*)::int AS n FROM (SELECT 1 FROM "${spec.table}" LIMIT ${inlineRows + 1}) t`))[0]!;
  if (small.n > inlineRows) return 'begun';
  while ((await copyBatch(db, spec, inlineRows * 1_000)) !== null);
  if (!(await swap(db, spec))) throw new Error(`${spec.table}: the swap to partitions did not happen`);
  return 'moved';
}

/** The moves begun and not yet swapped. */
export async function pendingMoves(db: Knex): Promise<MoveState[]> {
  if (!(await relationExists(db, MOVES_TABLE))) return [];
  return (await db(MOVES_TABLE).whereNull('swapped_at').orderBy('table_name')) as MoveState[];
}
