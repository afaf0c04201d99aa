// The index of the accounting of disclosures, built behind the audit trail (migration 028).
// Each answer's audit row says which residents it disclosed; a trigger queues the row in
// audit_disclosure_backlog, and this turns a batch of queued rows into groups of rows with
// the same disclosures text (a partner polling the same page writes the same text request
// after request: parsed once a batch), each group's seqs written once, and one small index
// row per (organization, resident, group) (migrations 028, 029; over the database's own JSON
// functions); on PostgreSQL one index row per (organization, resident, month, text), in
// tables partitioned by month (migration 045), and no groups: a text's audit rows are found
// through an index on audit_events, and only rows of a text new in its month are queued
// (migration 050): a polled page's requests are in the report from their commit. Writing a row per resident
// within each request's commit had cost 40% of a coverage list on SQLite.
// The report reads the index and the backlog in one statement (audit/disclosures.ts), so it is
// exact whether or not a row was indexed yet; the index only has to catch up. Instances of
// the service share the backlog on PostgreSQL (SKIP LOCKED): a queued row is taken, and
// indexed, in one transaction by one of them.
import type { Knex } from 'knex';
import { isPostgres, rawRows, withoutJit } from '../db/database.js';
import { TimedBatchSize } from '../db/timed-batch-size.js';
import { disclosureTextKey, monthOf } from '../db/disclosure-text-key.js';

/** Audit rows per batch where no time steers it (ops, tests): a few milliseconds on SQLite. */
export const INDEX_BATCH_ROWS = 128;
/**
 * On SQLite the service's batches are sized by time (db/timed-batch-size.ts): a batch holds
 * SQLite's single writer, and the event loop, about this long, whether its rows repeat one
 * text (a polled page: up to the ceiling) or each name 50 residents of their own (a few dozen
 * rows). A PostgreSQL batch holds neither (other instances skip its locked rows), so it takes
 * the ceiling: sized by time there, the wall time of a batch on a busy machine (its backend
 * waiting for a core) shrank the batches to the floor, and each batch of 16-18 polled rows
 * indexed the page's 50 residents again (catch-up 108 µs a request against 38 for a page of
 * 25 residents, pg_stat_statements, 2026-11-26).
 */
export const INDEX_BATCH_TARGET_MS = 5;
export const INDEX_BATCH_MIN_ROWS = 16;
export const INDEX_BATCH_MAX_ROWS = 2_048;
/** After a commit with disclosures: enough time for many more to share the batch. */
const CATCH_UP_DELAY_MS = 1_000;
/** Rows another process queued (an instance stopped before indexing its own). */
const SWEEP_INTERVAL_MS = 60_000;

// Where a batch starts (PostgreSQL): a queue whose rows are deleted leaves their index entries
// behind until VACUUM, and a batch that scanned the backlog from its start stepped over every
// one of them: 2.2 ms a batch after 170,000 rows (331 index pages, EXPLAIN ANALYZE,
// 2026-11-26; autovacuum, where it runs, empties them only about once a minute). So a batch
// starts at the first seq of the previous one (`BacklogResume`): what it skips is at most a
// batch of entries. A row below that (its audit row committed after a whole batch of later
// ones: a transaction held open for more than the catch-up's delay) waits for the sweep, which
// starts from the beginning once a minute; the report reads the backlog too, so it is exact
// meanwhile. SQLite deletes index entries with their rows, and commits one writer at a time.
// PostgreSQL (migrations 045, 050): a batch's audit rows are taken by (organization, month
// of the row, text key: db/disclosure-text-key.ts); a text new in its month (not yet in
// audit_disclosure_texts) is written there, and each resident it names gets one index row per
// month and text. The report goes from those rows to the month's audit rows of that text,
// through an index on audit_events, so a batch writes nothing per audit row: a text already
// indexed this month costs its lookup only. Two instances taking the same new text at once:
// the second's insert waits for the first's and, on its commit, inserts nothing (ON CONFLICT
// DO NOTHING ... RETURNING names only the texts this statement wrote), so the residents are
// read once; the rows go in key order, so two such statements wait in one order and never
// deadlock. Both tables are partitioned by month, as audit_events, and go with its month.
// The batch's audit rows are looked up by key and instant (migration 049: the queue keeps each
// row's `at`, so the lookup probes its month's partition alone, not all 72 of six years), one
// LATERAL lookup each (LIMIT 1 keeps PostgreSQL from flattening it into a join): as a plain
// join, with no statistics yet on a growing table (or stale ones), PostgreSQL hashed a
// sequential scan of every audit row at every batch, 60 ms at 35,000 rows and growing with
// the table (2026-11-27; 3 ms now). The queue's entries are deleted by key too
// (`= ANY(ARRAY(...))`): `IN (subquery)` ran as a hash join over a sequential scan of the
// queue, dead entries included until a vacuum (10 -> 3 ms a batch of 1,024 behind 48,000 dead
// entries).
/** One batch of the catch-up, as SQL text (the benchmark's hand-written server runs it too). */
export const POSTGRES_BATCH = `WITH batch AS (
    DELETE FROM audit_disclosure_backlog
    WHERE seq = ANY(ARRAY(SELECT seq FROM audit_disclosure_backlog WHERE seq >= ? ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED))
    RETURNING seq, at
  ), batch_rows AS (
    SELECT a.seq, a.at, a.org_id, a.disclosures, a.disclosures_digest, ${monthOf('a.at')} AS month,
      ${disclosureTextKey('a')} AS text_key
    FROM batch CROSS JOIN LATERAL (SELECT e.seq, e.at, e.org_id, e.disclosures, e.disclosures_digest FROM audit_events e WHERE e.seq = batch.seq AND e.at = batch.at LIMIT 1) a
  ), texts AS (
    SELECT org_id, month, text_key, min(disclosures) AS disclosures, min(disclosures_digest) AS digest
    FROM batch_rows GROUP BY org_id, month, text_key
  ), new_texts AS (
    INSERT INTO audit_disclosure_texts (month, org_id, text_key)
    SELECT month, org_id, text_key FROM texts ORDER BY org_id, text_key, month
    ON CONFLICT DO NOTHING
    RETURNING org_id, month, text_key
  ), named AS (
    SELECT DISTINCT x.org_id, r.key::uuid AS resident_id, x.month, x.text_key
    FROM new_texts n JOIN texts x ON x.org_id = n.org_id AND x.month = n.month AND x.text_key = n.text_key
    LEFT JOIN audit_texts dt ON dt.digest = x.digest
    CROSS JOIN LATERAL jsonb_each(coalesce(x.disclosures, dt.text)::jsonb) t
    CROSS JOIN LATERAL jsonb_object_keys(t.value) r(key)
  ), indexed AS (
    INSERT INTO audit_disclosure_index (org_id, resident_id, month, text_key)
    SELECT org_id, resident_id, month, text_key FROM named ORDER BY org_id, resident_id, month, text_key
    ON CONFLICT DO NOTHING
  )
  SELECT count(*)::int AS rows, min(seq) AS first FROM batch`;

// CROSS JOIN: SQLite joins in the order written, from the batch to its audit rows (it had
// preferred walking every earlier audit row by seq). The groups are written first; the
// residents are then read from each new group's first audit row (its text is the group's).
export const SQLITE_BOUNDS_OF_BATCH = 'SELECT min(seq) AS first, max(seq) AS last, count(*) AS rows FROM (SELECT seq FROM audit_disclosure_backlog ORDER BY seq LIMIT ?)';
export const SQLITE_GROUPS = `INSERT INTO audit_disclosure_groups (first_seq, last_seq, seqs)
  SELECT min(a.seq), max(a.seq), '[' || group_concat(a.seq, ',') || ']'
  FROM audit_disclosure_backlog b CROSS JOIN audit_events a
  WHERE b.seq <= ? AND a.seq = b.seq
  GROUP BY a.org_id, a.disclosures_digest, a.disclosures`;
export const SQLITE_INDEX = `INSERT INTO audit_disclosure_index (org_id, resident_id, first_seq, last_seq, seqs)
  SELECT DISTINCT a.org_id, r.key, g.first_seq, g.last_seq, '[]'
  FROM audit_disclosure_groups g CROSS JOIN audit_events a LEFT JOIN audit_texts dt ON dt.digest = a.disclosures_digest
  CROSS JOIN json_each(coalesce(a.disclosures, dt.text)) t CROSS JOIN json_each(t.value) r
  WHERE g.first_seq >= ? AND g.first_seq <= ? AND a.seq = g.first_seq`;
export const SQLITE_DEQUEUE = 'DELETE FROM audit_disclosure_backlog WHERE seq <= ?';

/** Where the next batch starts looking in the backlog: the first seq of the last batch taken. */
export interface BacklogResume {
  seq: number;
}

/** Indexes one batch of queued audit rows; returns how many rows it took. */
export async function indexQueuedDisclosures(db: Knex, limit = INDEX_BATCH_ROWS): Promise<number> {
  return (await indexBatch(db, limit, { seq: 0 })).rows;
}

/**
 * One batch, and how long it held the database: from its first statement to its commit, not
 * the wait for the connection before it (requests hold that, and counting their wait would
 * shrink the batches under load, when the backlog grows fastest).
 */
async function indexBatch(db: Knex, limit: number, resume: BacklogResume): Promise<{ rows: number; heldMs: number }> {
  let started = 0;
  if (isPostgres(db)) {
    const batch = await withoutJit(db, async (trx) => {
      started = performance.now();
      return rawRows<{ rows: number; first: number | string | null }>(await trx.raw(POSTGRES_BATCH, [resume.seq, limit]))[0];
    });
    // Moved once the batch is committed: a batch that failed is taken again from where it was.
    if (batch && batch.first !== null) resume.seq = Math.max(resume.seq, Number(batch.first));
    return { rows: batch?.rows ?? 0, heldMs: performance.now() - started };
  }
  const rows = await db.transaction(async (trx) => {
    started = performance.now();
    const [batch] = rawRows<{ first: number | null; last: number | null; rows: number }>(await trx.raw(SQLITE_BOUNDS_OF_BATCH, [limit]));
    if (!batch || batch.first === null || batch.last === null) return 0;
    await trx.raw(SQLITE_GROUPS, [batch.last]);
    await trx.raw(SQLITE_INDEX, [batch.first, batch.last]);
    await trx.raw(SQLITE_DEQUEUE, [batch.last]);
    return batch.rows;
  });
  return { rows, heldMs: performance.now() - started };
}

/** The batches' size sized by time, as the service's catch-up (and the benchmark's hand-written server) sizes them. */
export function timedIndexBatchSize(): TimedBatchSize {
  return new TimedBatchSize({ targetMs: INDEX_BATCH_TARGET_MS, min: INDEX_BATCH_MIN_ROWS, max: INDEX_BATCH_MAX_ROWS, initial: INDEX_BATCH_ROWS });
}

/**
 * Indexes until the backlog is empty (ops, tests, the benchmark), `limit` rows a batch, or as
 * many as `size` says, told how long each batch took; from the backlog's start, or from where
 * `resume` says (the service's catch-up between its sweeps), which it moves along.
 */
export async function indexAllQueuedDisclosures(
  db: Knex,
  options: { limit?: number; size?: TimedBatchSize; pause?: () => Promise<void>; resume?: BacklogResume } = {},
): Promise<number> {
  const resume = options.resume ?? { seq: 0 };
  let total = 0;
  for (;;) {
    const limit = options.size?.current ?? options.limit ?? INDEX_BATCH_ROWS;
    const { rows, heldMs } = await indexBatch(db, limit, resume);
    options.size?.observe(rows, limit, heldMs);
    total += rows;
    if (rows < limit) return total;
    await options.pause?.();
  }
}

/** The service's background catch-up: woken by the audit trail, and a sweep now and then. */
export class DisclosureIndexer {
  private timer: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Woken while running: rows committed after its last batch was read wait for another run. */
  private wokenWhileRunning = false;
  private readonly batchSize = timedIndexBatchSize();
  private readonly resume: BacklogResume = { seq: 0 };
  /** The next run starts from the backlog's beginning (the sweep: rows committed late). */
  private sweepDue = false;

  constructor(
    private readonly db: Knex,
    private readonly onError: (error: Error) => void,
    private readonly delayMs = CATCH_UP_DELAY_MS,
    private readonly sweepMs = SWEEP_INTERVAL_MS,
  ) {}

  start(): void {
    this.wake();
    this.sweep = setInterval(() => {
      this.sweepDue = true;
      this.wake();
    }, this.sweepMs);
    this.sweep.unref();
  }

  /** Catches up after the delay; wakes while it waits join that run. */
  wake(): void {
    if (this.running !== undefined) this.wokenWhileRunning = true;
    if (this.stopped || this.timer !== undefined || this.running !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.sweepDue) {
        this.sweepDue = false;
        this.resume.seq = 0;
      }
      this.running = indexAllQueuedDisclosures(this.db, {
        ...(isPostgres(this.db) ? { limit: INDEX_BATCH_MAX_ROWS } : { size: this.batchSize }),
        resume: this.resume,
        // Between batches, requests waiting for SQLite's single writer go first.
        pause: () => new Promise((resolve) => setImmediate(resolve)),
      })
        .then(
          () => undefined,
          (error: Error) => this.onError(error),
        )
        .finally(() => {
          this.running = undefined;
          if (this.wokenWhileRunning) {
            this.wokenWhileRunning = false;
            this.wake();
          }
        });
    }, this.delayMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.sweep);
    await this.running;
  }
}
