// The time partitions of the history tables on PostgreSQL (db/history-tables.ts): created
// ahead by the service, dropped by retention.
//
// - Every table has a DEFAULT partition: a row whose period has no partition yet (creation
//   ahead fell behind, a clock far off) is written there, never refused. Creating the
//   missing partition later moves such rows out of it in the same transaction.
// - Creation takes a transaction-scoped advisory lock per table, so several instances doing
//   it at once create each partition once; each statement waits at most LOCK_TIMEOUT for its
//   locks, and a partition not created now is created at the next pass.
// - A partition is created beside the table with a CHECK of its range and then attached:
//   ATTACH takes SHARE UPDATE EXCLUSIVE on the table (writers go on) and, thanks to the
//   CHECK, scans nothing but the DEFAULT partition, normally empty.
// - Dropping detaches, then drops. PostgreSQL refuses DETACH ... CONCURRENTLY on a table with
//   a DEFAULT partition, so the plain DETACH is used: catalogue work only, under a lock
//   timeout of 25 ms retried after pauses, so writers queue behind it for at most that long,
//   and committed without waiting for its flush to disk (a lost detach is redone). It holds
//   the table's lock until it commits, so the DROP comes after, in its own statement: removing
//   a month of 1.6x10^6 audit rows took 0.4 s at its commit, and with both in one transaction
//   every audit write waited that long (20 requests of 183 over 50 ms at 10^7 rows, the scale
//   benchmark). The detached partition is renamed `<partition>_dropping` with the detach, so a
//   drop that did not happen (the process stopped between the two) is found and done by the
//   next purge, and no other table is ever taken for one.
import type { Knex } from 'knex';
import { rawRows } from './database.js';
import { HISTORY_TABLES, type HistoryTable, type PartitionInterval } from './history-tables.js';
import { retryOnLockTimeout, withLockTimeout } from './lock-timeout.js';

/** How long a partition statement waits for its locks before giving up until the next pass. */
const LOCK_TIMEOUT = '500ms';
/**
 * The detach's wait for its lock, each try. Its ACCESS EXCLUSIVE request queues every later
 * writer of the table behind it (each request's audit row), so it waits at most this long at a
 * time and tries again after a pause, letting the queue through: a request waits for the
 * detach about this long at worst, where it waited up to LOCK_TIMEOUT.
 */
const DETACH_LOCK_TIMEOUT = '25ms';
const DETACH_ATTEMPTS = 20;
const DETACH_PAUSE_MS = 50;
/** Periods created ahead of the current one. */
const AHEAD: Record<PartitionInterval, number> = { month: 1, week: 2, day: 7 };

export interface Partition {
  name: string;
  /** Inclusive lower and exclusive upper bound (ISO-8601 UTC texts); null for DEFAULT. */
  from: string | null;
  to: string | null;
}

const DAY_MS = 86_400_000;

/** The start of the period holding `instant` (UTC; weeks start on Monday, as ISO 8601's). */
export function periodStart(instant: number, interval: PartitionInterval): number {
  const d = new Date(instant);
  if (interval === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (interval === 'day') return day;
  return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
}

export function nextPeriod(start: number, interval: PartitionInterval): number {
  if (interval === 'month') {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + (interval === 'week' ? 7 : 1) * DAY_MS;
}

/** A bound as the time columns hold instants (db/clock.ts nowIso), so text order is time order. */
export function boundOf(instant: number): string {
  return new Date(instant).toISOString();
}

export function partitionName(table: string, from: number): string {
  return `${table}_p${boundOf(from).slice(0, 10).replaceAll('-', '')}`;
}

export function defaultPartitionName(table: string): string {
  return `${table}_default`;
}

const BOUND = /FROM \('([^']*)'\) TO \('([^']*)'\)/;

/** The partitions of `table` (its DEFAULT one included), oldest first; [] when not partitioned. */
export async function listPartitions(db: Knex, table: string): Promise<Partition[]> {
  const rows = rawRows<{ name: string; bound: string }>(
    await db.raw(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = to_regclass(?)`,
      [table],
    ),
  );
  const partitions = rows.map((row): Partition => {
    const match = BOUND.exec(row.bound);
    return { name: row.name, from: match?.[1] ?? null, to: match?.[2] ?? null };
  });
  return partitions.sort((a, b) => (a.from ?? '').localeCompare(b.from ?? ''));
}

/** pg_class's relkind of the relation of that name (`r` a table, `p` a partitioned one, `i` an index, ...), or undefined when there is none (PostgreSQL). */
export async function relationKind(db: Knex, name: string): Promise<string | undefined> {
  return rawRows<{ kind: string }>(await db.raw('SELECT relkind AS kind FROM pg_class WHERE oid = to_regclass(?)', [name]))[0]?.kind;
}

/** Whether a table or index of that name exists (PostgreSQL). */
export async function relationExists(db: Knex, name: string): Promise<boolean> {
  return (await relationKind(db, name)) !== undefined;
}

export async function isPartitioned(db: Knex, table: string): Promise<boolean> {
  return (await relationKind(db, table)) === 'p';
}

function lockKey(table: string): string {
  return `ofctx.history_partitions.${table}`;
}

/**
 * Creates the partition of `table` for the period starting at `from` unless it exists, moving
 * into it any rows of that period the DEFAULT partition caught. Returns whether it created it.
 */
async function createPartition(db: Knex, spec: HistoryTable, from: number, parent: string, unused: boolean): Promise<boolean> {
  const name = partitionName(spec.table, from);
  const lower = boundOf(from);
  const upper = boundOf(nextPeriod(from, spec.interval));
  return withLockTimeout(db, LOCK_TIMEOUT, async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [lockKey(spec.table)]);
    if ((await listPartitions(trx, parent)).some((p) => p.name === name)) return false;
    if (unused) {
      // A table nobody writes to yet (a twin being built): one statement, its lock harmless.
      await trx.raw(`CREATE TABLE "${name}" PARTITION OF "${parent}" FOR VALUES FROM ('${lower}') TO ('${upper}')`);
      return true;
    }
    const col = `"${spec.column}"`;
    await trx.raw(`CREATE TABLE "${name}" (LIKE "${parent}" INCLUDING DEFAULTS)`);
    await trx.raw(`ALTER TABLE "${name}" ADD CONSTRAINT "${name}_range" CHECK (${col} IS NOT NULL AND ${col} >= '${lower}' AND ${col} < '${upper}')`);
    const fallback = defaultPartitionName(spec.table);
    await trx.raw(
      `WITH moved AS (DELETE FROM "${fallback}" WHERE ${col} >= ? AND ${col} < ? RETURNING *) INSERT INTO "${name}" SELECT * FROM moved`,
      [lower, upper],
    );
    await trx.raw(`ALTER TABLE "${parent}" ATTACH PARTITION "${name}" FOR VALUES FROM ('${lower}') TO ('${upper}')`);
    return true;
  });
}

/**
 * Every period of `spec` from the one holding `since` (default: now) to AHEAD periods after
 * now has its partition. Idempotent; safe from several instances at once. `parent` is the
 * partitioned table when it is not yet under its own name, and `unused` says no one writes
 * to it yet (db/history-table-move.ts).
 */
export async function ensurePartitions(db: Knex, spec: HistoryTable, now = Date.now(), since = now, parent = spec.table, unused = false): Promise<string[]> {
  const created: string[] = [];
  const last = periodStart(now, spec.interval);
  let end = last;
  for (let i = 0; i < AHEAD[spec.interval]; i++) end = nextPeriod(end, spec.interval);
  const existing = new Set((await listPartitions(db, parent)).map((p) => p.name));
  for (let from = periodStart(Math.min(since, now), spec.interval); from <= end; from = nextPeriod(from, spec.interval)) {
    if (existing.has(partitionName(spec.table, from))) continue;
    if (await createPartition(db, spec, from, parent, unused)) created.push(partitionName(spec.table, from));
  }
  return created;
}

/** ensurePartitions for every partitioned history table (the service's pass; PostgreSQL only). */
export async function ensureAllPartitions(db: Knex, now = Date.now()): Promise<string[]> {
  const created: string[] = [];
  for (const spec of HISTORY_TABLES) {
    if (await isPartitioned(db, spec.table)) created.push(...(await ensurePartitions(db, spec, now)));
  }
  return created;
}

/** The partitions of `spec` wholly before `cutoff` (their upper bound at or before it). */
export async function partitionsBefore(db: Knex, table: string, cutoff: string): Promise<Partition[]> {
  return (await listPartitions(db, table)).filter((p) => p.to !== null && p.to <= cutoff);
}

/** What a partition detached for dropping is renamed to, until it is dropped. */
const DETACHED_SUFFIX = '_dropping';

/**
 * Detaches and drops one partition. Returns false when the detach could not get its lock in
 * DETACH_ATTEMPTS short tries (long queries on the table): it is dropped at a later pass.
 */
export async function dropPartition(db: Knex, table: string, partition: string): Promise<boolean> {
  const detachedName = `${partition}${DETACHED_SUFFIX}`;
  const detached = await retryOnLockTimeout(db, { timeout: DETACH_LOCK_TIMEOUT, attempts: DETACH_ATTEMPTS, pauseMs: DETACH_PAUSE_MS }, async (trx) => {
    // The table's lock is held until the commit: not also for the commit's flush to disk. A
    // detach lost in a crash is a partition still attached, detached again by the next purge.
    await trx.raw('SET LOCAL synchronous_commit = off');
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [lockKey(table)]);
    const still = (await listPartitions(trx, table)).some((p) => p.name === partition);
    if (!still) return false;
    await trx.raw(`ALTER TABLE "${table}" DETACH PARTITION "${partition}"`);
    await trx.raw(`ALTER TABLE "${partition}" RENAME TO "${detachedName}"`);
    return true;
  });
  if (detached === undefined) return false;
  // After the detach's commit: the table's writers no longer wait for the files' removal.
  if (detached.value) await db.raw(`DROP TABLE IF EXISTS "${detachedName}"`);
  return true;
}

/** Drops the partitions of `table` detached for dropping and not dropped (a purge stopped between the two); returns their names. */
export async function dropDetachedPartitions(db: Knex, table: string): Promise<string[]> {
  const left = rawRows<{ name: string }>(
    await db.raw(`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND NOT relispartition AND relname LIKE ? ESCAPE '!'`, [
      `${table.replaceAll('_', '!_')}!_p%${DETACHED_SUFFIX.replaceAll('_', '!_')}`,
    ]),
  ).map((r) => r.name);
  for (const name of left) await db.raw(`DROP TABLE IF EXISTS "${name}"`);
  return left;
}
