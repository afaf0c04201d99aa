// The instant written as `last_updated` by one ingest transaction.
//
// WHY: incremental sync (issue #13) pages each facility by the keyset (last_updated, id) and
// resumes after the last pair it saw. That is only safe if, within a facility, a row
// committed later never gets a last_updated smaller than a row committed earlier; otherwise
// a reader that already passed that instant would never see the row. Wall clocks give no
// such promise (two transactions, two instances, a clock step back). So every ingest
// transaction first upserts its organization's row of ingest_clock: that takes the row's
// lock (PostgreSQL: a row lock held until commit; SQLite: the one writer lock), which
// serializes the organization's ingest transactions from this point to their commit. Under
// that lock the transaction takes max(now, last assigned + 1 ms) and stores it, so each
// committed transaction's instant is strictly greater than every earlier one's. A facility
// belongs to one organization, so the promise holds per facility. All rows of one
// transaction share its instant; the id breaks the tie. The same lock is why two importers
// updating one resident never lose an update or duplicate an event: the second one reads
// the first one's committed rows.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { isPostgres, rawRows } from '../db/database.js';
import { transactionRows } from '../db/transaction-statements.js';
import type { CompiledStatement } from '../db/statement-template.js';

const EPOCH = '1970-01-01T00:00:00.000Z';
/** Takes the organization's ingest_clock row lock without moving the clock (bindings: org id, EPOCH). */
const HOLD_CLOCK = 'INSERT INTO ingest_clock (org_id, last_updated) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_updated = ingest_clock.last_updated';

/** The organizations whose ingest_clock row a transaction holds locked: taken once, not again. */
const held = new WeakMap<Knex.Transaction, Set<string>>();

function remember(trx: Knex.Transaction, orgId: string): void {
  const orgs = held.get(trx) ?? new Set<string>();
  orgs.add(orgId);
  held.set(trx, orgs);
}

/** Whether this transaction already holds the organization's ingest_clock row lock. */
export function holdsOrganizationLock(trx: Knex.Transaction, orgId: string): boolean {
  return held.get(trx)?.has(orgId) === true;
}

/**
 * Takes the organization's ingest_clock row lock until the transaction ends, without
 * moving the clock (the event outbox serializes one organization's event commits on it).
 */
export async function lockOrganizationWrites(trx: Knex.Transaction, orgId: string): Promise<void> {
  if (holdsOrganizationLock(trx, orgId)) return;
  remember(trx, orgId);
  await trx.raw(HOLD_CLOCK, [orgId, EPOCH]);
}

/**
 * PostgreSQL: lockOrganizationWrites with reads the transaction needs anyway (an event's
 * subscriptions), in one statement: a round trip fewer. The reads see the statement's snapshot,
 * as tickIngestClockWith's do.
 */
export async function lockOrganizationWritesWith(trx: Knex.Transaction, orgId: string, reads: Record<string, CompiledStatement>): Promise<Record<string, unknown[]>> {
  remember(trx, orgId);
  const entries = Object.entries(reads);
  const rows = await transactionRows(trx, `${HOLD_CLOCK} RETURNING 1 AS locked${readColumns(entries)}`, [
    orgId,
    EPOCH,
    ...entries.flatMap(([, read]) => read.bindings),
  ]);
  return readsOf(entries, rows[0]!);
}

/**
 * A consistent cut of the organization's writes, for a Bulk Data export's `transactionTime`:
 * takes the ingest_clock row lock (so every ingest transaction that took its instant before
 * has committed) and answers the last instant assigned, or undefined when none was. Every
 * later ingest transaction gets a strictly greater instant (tickIngestClock), so a `_since`
 * of this value misses no write that a read after this point could not see.
 */
export async function lastIngestInstant(trx: Knex.Transaction, orgId: string): Promise<string | undefined> {
  remember(trx, orgId);
  const rows = rawRows<{ last_updated: string }>(
    await trx.raw(`${HOLD_CLOCK} RETURNING last_updated`, [orgId, EPOCH]),
  );
  const last = rows[0]?.last_updated;
  return last === undefined || last === EPOCH ? undefined : last;
}

/**
 * PostgreSQL: the lock, max(now, last + 1 ms) and its write in one statement (a round trip per
 * ingest transaction fewer); the instant's text is exactly nowIso's (ISO 8601, UTC, ms).
 */
const TICK_PG_UPSERT = `INSERT INTO ingest_clock (org_id, last_updated) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_updated =
  CASE WHEN excluded.last_updated > ingest_clock.last_updated THEN excluded.last_updated
  ELSE to_char((ingest_clock.last_updated::timestamptz + interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END`;
const TICK_PG = `${TICK_PG_UPSERT}
  RETURNING last_updated`;
/**
 * The same, only when the row it locked is the one the statement's snapshot holds (bindings:
 * org id, now, org id): then no ingest transaction of the organization committed between the
 * snapshot and the lock, and the statement's reads saw every write before it. Else the row is
 * locked, not written, and nothing is returned (PostgreSQL's ON CONFLICT ... WHERE).
 */
const TICK_PG_IF_SNAPSHOT_CURRENT = `${TICK_PG_UPSERT}
  WHERE ingest_clock.last_updated = (SELECT seen.last_updated FROM ingest_clock seen WHERE seen.org_id = ?)
  RETURNING last_updated`;

/**
 * SQLite: the same in one statement (it was a read of the clock and an update: a statement
 * fewer in every ingest transaction). SQLite keeps time in whole milliseconds, so adding one
 * is exact, and strftime's `%f` writes seconds with three decimals, as nowIso does.
 */
const TICK_SQLITE = `INSERT INTO ingest_clock (org_id, last_updated) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_updated =
  CASE WHEN excluded.last_updated > ingest_clock.last_updated THEN excluded.last_updated
  ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ingest_clock.last_updated, '+0.001 seconds') END
  RETURNING last_updated`;
/** What rides with the tick on PostgreSQL: the caller's first write, and reads of the same transaction. */
export interface TickRiders {
  /** A data-modifying statement (the HL7 control id's insert): how many rows it returned is answered. */
  first?: CompiledStatement;
  /** Reads answered as arrays of row objects (`json_agg`): only columns whose JSON is their value (text, integers). */
  reads?: Record<string, CompiledStatement>;
  /**
   * The reads must see every ingest write committed before the lock (a lookup of what the
   * transaction will write, as the HL7 applier's identifiers): Tick.readsCurrent says whether
   * they did. Without it they may miss what committed while the statement waited for the lock.
   */
  readsMustBeCurrent?: boolean;
}

export interface Tick {
  instant: string;
  /** Rows the `first` statement returned. */
  firstRows: number;
  reads: Record<string, unknown[]>;
  /**
   * With readsMustBeCurrent: whether the reads saw every ingest write committed before the lock.
   * When not (another ingest transaction of the organization committed meanwhile), the caller
   * reads what it needs again, under the lock this transaction now holds.
   */
  readsCurrent: boolean;
}

/**
 * PostgreSQL: the tick with a data-modifying statement of the caller (the HL7 control id's
 * insert) and reads the transaction needs anyway (the subscriptions, a facility's HL7 code),
 * in one statement: a round trip per statement fewer, for a sender waiting for each ACK. The
 * tick stands even when the first statement wrote nothing: the caller then rolls back. The
 * reads see the statement's snapshot; what they read under a row lock (FOR SHARE) is re-read
 * at its newest version, so only rows committed while this statement waited for the
 * organization's lock can be missed, as if they had come after it.
 */
export async function tickIngestClockWith(trx: Knex.Transaction, orgId: string, riders: TickRiders): Promise<Tick> {
  remember(trx, orgId);
  const reads = Object.entries(riders.reads ?? {});
  const columns = readColumns(reads);
  const first = riders.first;
  const bindings = [...(first?.bindings ?? []), orgId, nowIso()];
  let sql: string;
  if (riders.readsMustBeCurrent) {
    // The tick as a statement of its own (WITH): it answers nothing when it did not write.
    sql = `WITH ${first ? `first AS (${first.sql}), ` : ''}tick AS (${TICK_PG_IF_SNAPSHOT_CURRENT}) SELECT (SELECT last_updated FROM tick) AS last_updated${first ? ', (SELECT count(*) FROM first) AS first_rows' : ''}${columns}`;
    bindings.push(orgId);
  } else sql = `${first ? `WITH first AS (${first.sql}) ` : ''}${TICK_PG}${first ? ', (SELECT count(*) FROM first) AS first_rows' : ''}${columns}`;
  // Run as a named statement once it recurs: its planning cost as much as its execution.
  const rows = await transactionRows(trx, sql, [...bindings, ...reads.flatMap(([, read]) => read.bindings)]);
  const row = rows[0]!;
  let instant = row.last_updated as string | null;
  let readsCurrent = riders.readsMustBeCurrent === true;
  if (instant === null) {
    // Another ingest transaction committed after the statement's snapshot: the row is locked
    // now, and a statement of its own (a new snapshot) moves the clock on from that one's tick.
    instant = rawRows<{ last_updated: string }>(await trx.raw(TICK_PG, [orgId, nowIso()]))[0]!.last_updated;
    readsCurrent = false;
  }
  return {
    instant,
    firstRows: Number(row.first_rows ?? 0),
    reads: readsOf(reads, row),
    readsCurrent,
  };
}

/** Each read as a column of the statement's one row: its rows as a JSON array. */
const readColumns = (reads: Array<[string, CompiledStatement]>) => reads.map(([, read], i) => `, (SELECT coalesce(json_agg(r${i}), '[]') FROM (${read.sql}) r${i}) AS read_${i}`).join('');

/** The reads' rows, by name, from the statement's row. */
const readsOf = (reads: Array<[string, CompiledStatement]>, row: Record<string, unknown>): Record<string, unknown[]> =>
  Object.fromEntries(reads.map(([name], i) => [name, (typeof row[`read_${i}`] === 'string' ? JSON.parse(row[`read_${i}`] as string) : row[`read_${i}`]) as unknown[]]));

export async function tickIngestClock(trx: Knex.Transaction, orgId: string, now: number = Date.now()): Promise<string> {
  remember(trx, orgId);
  if (!isPostgres(trx)) return (await transactionRows<{ last_updated: string }>(trx, TICK_SQLITE, [orgId, nowIso(now)]))[0]!.last_updated;
  return rawRows<{ last_updated: string }>(await trx.raw(TICK_PG, [orgId, nowIso(now)]))[0]!.last_updated;
}
