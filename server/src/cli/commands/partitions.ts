// `partitions [--move]`: the time partitions of the history tables on PostgreSQL
// (db/history-tables.ts) and any online move still under way; --move creates the partitions
// ahead and carries a pending move, and an upgrade's index build, to its end here and now (the
// service does all three in the background).
import { isPostgres, rawRows } from '../../db/database.js';
import { isPartitioned, listPartitions } from '../../db/history-partitions.js';
import { pendingMoves, type MoveState } from '../../db/history-table-move.js';
import { keepHistoryPartitions } from '../../db/history-partition-keeper.js';
import { HISTORY_TABLES } from '../../db/history-tables.js';
import { pendingOnlineIndexes } from '../../db/online-indexes.js';
import type { Command } from '../command.js';

interface TableReport {
  table: string;
  column: string;
  interval: string;
  partitioned: boolean;
  partitions: Array<{ name: string; from: string | null; to: string | null; approximate_rows: number }>;
}

interface PartitionsReport {
  tables: TableReport[];
  moves_pending: MoveState[];
  /** Indexes an upgrade added that are not yet built on every partition (db/online-indexes.ts). */
  indexes_pending: string[];
}

export const partitions: Command = {
  name: 'partitions',
  summary: 'List the time partitions of the history tables (PostgreSQL), any move to partitions and any index an upgrade added still under way; --move creates the partitions ahead and finishes both now.',
  usage: 'partitions [--move] [--json]',
  options: { move: { type: 'boolean' } },
  async run(args, cli) {
    const db = await cli.db();
    if (!isPostgres(db)) throw new Error('the history tables are partitioned on PostgreSQL only; SQLite keeps plain tables, purged in batches');
    if (args.values.move) {
      await keepHistoryPartitions(db, {
        created: (names) => cli.progress(`created ${names.join(', ')}`),
        moved: (table) => cli.progress(`${table} moved to partitions`),
        indexed: (index) => cli.progress(`${index} built on every partition`),
      });
    }
    const tables: TableReport[] = [];
    for (const spec of HISTORY_TABLES) {
      const partitioned = await isPartitioned(db, spec.table);
      const found = partitioned ? await listPartitions(db, spec.table) : [];
      const estimates = new Map(
        rawRows<{ name: string; n: number }>(await db.raw('SELECT relname AS name, greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE relname = ANY(?)', [found.map((p) => p.name)])).map((r) => [r.name, Number(r.n)]),
      );
      tables.push({ ...spec, partitioned, partitions: found.map((p) => ({ ...p, approximate_rows: estimates.get(p.name) ?? 0 })) });
    }
    const indexesPending = (await pendingOnlineIndexes(db)).map((index) => index.name);
    return { tables, moves_pending: await pendingMoves(db), indexes_pending: indexesPending };
  },
  format: (r: PartitionsReport) =>
    [
      ...r.tables.map((t) =>
        t.partitioned
          ? `${t.table} by ${t.column}, a ${t.interval}: ${t.partitions.map((p) => (p.from === null ? `${p.name} (default, about ${p.approximate_rows} rows)` : `${p.name} (about ${p.approximate_rows} rows)`)).join(', ')}`
          : `${t.table}: not partitioned yet`,
      ),
      ...r.moves_pending.map((m) => `moving ${m.table_name} to partitions: ${m.copied_through} of ${m.copy_through} keys copied (started ${m.started_at}); the service finishes it, or run partitions --move`),
      ...r.indexes_pending.map((name) => `building index ${name} on the partitions an upgrade left to the service; it finishes it, or run partitions --move`),
    ].join('\n'),
};
