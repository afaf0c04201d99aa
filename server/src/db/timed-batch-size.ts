// The size of a background batch, steered by how long the last full one held the database.
// A batch of the disclosure catch-up holds SQLite's single writer (and, with better-sqlite3,
// the event loop) while it runs, and its cost depends on what its rows hold: a partner polling
// one page writes the same disclosures text request after request (a batch of any size indexes
// its 50 residents once), a partner walking pages writes a new text each time (every row
// indexes its residents). A fixed count is wrong for one of them: 128 rows re-indexed the
// polled page's residents every 128 requests (19 µs of catch-up a request, SQLite, 2026-11-26,
// against 7 at 512), while 512 distinct texts of 50 residents would hold the writer for tens
// of milliseconds. So the count follows the time: each full batch scales the next toward the
// target duration, by at most half or double a step, between a floor and a ceiling.

export interface TimedBatchSizeOptions {
  /** How long a batch should hold the database. */
  targetMs: number;
  min: number;
  max: number;
  initial: number;
}

export class TimedBatchSize {
  private rows: number;

  constructor(private readonly options: TimedBatchSizeOptions) {
    this.rows = clamp(options.initial, options.min, options.max);
  }

  /** Rows to take in the next batch. */
  get current(): number {
    return this.rows;
  }

  /**
   * Learns from a batch that took `rows` of the `limit` it was given in `elapsedMs`. A short
   * batch (the backlog ran out) says nothing of what a full one costs, so only full ones count.
   */
  observe(rows: number, limit: number, elapsedMs: number): void {
    if (rows < limit) return;
    const scale = Math.min(2, Math.max(0.5, this.options.targetMs / Math.max(elapsedMs, 0.01)));
    this.rows = clamp(Math.round(limit * scale), this.options.min, this.options.max);
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
