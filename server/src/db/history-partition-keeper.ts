// The service's upkeep of the partitioned history tables (PostgreSQL): at start and then every
// KEEP_INTERVAL_MS, every history table has its partitions for now and ahead
// (db/history-partitions.ts), a table still being moved to partitions after an upgrade
// is copied a batch at a time, with a pause between batches, then swapped
// (db/history-table-move.ts), and an index an upgrade added is built on the partitions the
// migration left to it (db/online-indexes.ts). Several instances may do it at once: the
// partitions are created under an advisory lock, one copier works on a table at a time, and
// one builder on an index.
import type { Knex } from 'knex';
import { isPostgres } from './database.js';
import { ensureAllPartitions } from './history-partitions.js';
import { copyBatch, pendingMoves, swap } from './history-table-move.js';
import { historyTable } from './history-tables.js';
import { buildIndexOnline } from './online-index.js';
import { pendingOnlineIndexes } from './online-indexes.js';

/** Hourly: a partition is created weeks ahead, so a missed pass or two costs nothing. */
export const KEEP_INTERVAL_MS = 3_600_000;
/** Between copy batches: the copy yields to the service's own writes. */
const COPY_PAUSE_MS = 50;
const SWAP_ATTEMPTS = 5;

export interface KeeperEvents {
  created?: (partitions: string[]) => void;
  moved?: (table: string) => void;
  /** An index an upgrade added is built on every partition. */
  indexed?: (index: string) => void;
  failed?: (error: Error) => void;
}

/** Whether an upgrade left work to the keeper: a move to partitions, an index to build. */
export async function hasPendingUpkeep(db: Knex): Promise<boolean> {
  if ((await pendingMoves(db)).length > 0) return true;
  return (await pendingOnlineIndexes(db)).length > 0;
}

/** One pass: partitions ahead, then any pending move and index build to its end. `proceed` false stops it. */
export async function keepHistoryPartitions(db: Knex, events: KeeperEvents = {}, proceed: () => boolean = () => true, pauseMs = COPY_PAUSE_MS): Promise<void> {
  if (!isPostgres(db)) return;
  const created = await ensureAllPartitions(db);
  if (created.length > 0) events.created?.(created);
  for (const move of await pendingMoves(db)) {
    const spec = historyTable(move.table_name);
    if (!spec) continue;
    while (proceed()) {
      const copied = await copyBatch(db, spec);
      if (copied === null) break;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    // The swap waits at most its lock timeout for the table's writers; tried a few times.
    for (let attempt = 1; attempt <= SWAP_ATTEMPTS && proceed(); attempt++) {
      if (await swap(db, spec)) {
        events.moved?.(spec.table);
        // The partitions ahead, under the table's own name now.
        await ensureAllPartitions(db);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
    }
  }
  for (const index of await pendingOnlineIndexes(db)) {
    if (!proceed()) break;
    if ((await buildIndexOnline(db, index, { proceed })) === 'built') events.indexed?.(index.name);
  }
}

export class HistoryPartitionKeeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Knex,
    private readonly events: KeeperEvents = {},
    private readonly intervalMs = KEEP_INTERVAL_MS,
  ) {}

  /** The first pass before the service answers (so today's partition exists), then hourly. */
  async start(): Promise<void> {
    if (!isPostgres(this.db)) return;
    // Partitions only: a pending copy or index build goes on in the background, starting now.
    let moving = false;
    try {
      const created = await ensureAllPartitions(this.db);
      if (created.length > 0) this.events.created?.(created);
      moving = await hasPendingUpkeep(this.db);
    } catch (error) {
      // The DEFAULT partition takes the writes meanwhile; the next pass retries.
      this.events.failed?.(error as Error);
    }
    this.schedule(moving ? 0 : this.intervalMs);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = keepHistoryPartitions(this.db, this.events, () => !this.stopped)
        .catch((error: Error) => this.events.failed?.(error))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.intervalMs);
        });
    }, delay);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
