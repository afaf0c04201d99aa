// Shares each client's quota between the instances on one PostgreSQL without a write per
// request. Every `intervalMs` each instance adds what it admitted since its last report to
// its own row per client (one statement for all clients), then reads the other instances'
// rows and debits their growth from its buckets. A client thus gets one quota across the
// instances, learned at most about two intervals late (docs/quotas.md: the bound).
// Rows carry the database's clock only, so the instances' clocks need not agree.
import type { Knex } from 'knex';
import type { Logger } from '../logging/logger.js';
import { rawRows } from '../db/database.js';
import { PollingLoop } from '../db/polling-loop.js';
import type { ClientQuotas } from './client-quotas.js';

/** Rows of instances silent this long are deleted (a stopped or killed instance's). */
export const STALE_USAGE_MS = 10 * 60_000;
/** Rows read: those reported within this long (older ones bring nothing new). */
const READ_WINDOW_MS = 60_000;
const DB_NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

interface UsageRow {
  instance_id: string;
  client_pk: string;
  consumed: string | number;
  first_at: string | number;
}

export class QuotaReconciler {
  private readonly loop: PollingLoop;
  /** The database's clock when this instance started sharing: rows first written after it are wholly new to it. */
  private startedAt: number | undefined;
  /** What each other instance had reported for each client when last read. */
  private readonly seen = new Map<string, { consumed: number; readAt: number }>();
  private cycles = 0;

  constructor(
    private readonly db: Knex,
    private readonly quotas: ClientQuotas,
    intervalMs: number,
    private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(() => this.reconcileLogged(), intervalMs);
  }

  start(): void {
    this.loop.start();
  }

  /** Reports what is left to report, then stops. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.reconcileLogged();
  }

  private async reconcileLogged(): Promise<void> {
    try {
      await this.reconcile();
    } catch (error) {
      this.logger.warn({ err: error }, 'could not share client quota usage with the other instances; retrying');
    }
  }

  /** One report and one read (the loop runs it every interval; tests call it directly). */
  async reconcile(): Promise<void> {
    if (this.startedAt === undefined) {
      const [row] = rawRows<{ now: string }>(await this.db.raw(`select ${DB_NOW_MS} as now`));
      this.startedAt = Number(row!.now);
    }
    const report = this.quotas.takeUnreported();
    if (report.size > 0) {
      try {
        await this.db.raw(
          `insert into client_quota_usage (instance_id, client_pk, consumed, first_at, updated_at)
           select ?::uuid, u.client_pk, u.units, ${DB_NOW_MS}, ${DB_NOW_MS}
             from unnest(?::uuid[], ?::bigint[]) as u(client_pk, units)
           on conflict (instance_id, client_pk) do update
             set consumed = client_quota_usage.consumed + excluded.consumed, updated_at = excluded.updated_at`,
          [this.quotas.instanceId, [...report.keys()], [...report.values()].map((n) => Math.ceil(n))],
        );
      } catch (error) {
        this.quotas.restoreUnreported(report);
        throw error;
      }
    }
    const rows = rawRows<UsageRow>(
      await this.db.raw(
        `select instance_id, client_pk, consumed, first_at from client_quota_usage
          where instance_id <> ?::uuid and updated_at > ${DB_NOW_MS} - ?`,
        [this.quotas.instanceId, READ_WINDOW_MS],
      ),
    );
    const readAt = Date.now();
    for (const row of rows) {
      const key = `${row.instance_id} ${row.client_pk}`;
      const consumed = Number(row.consumed);
      const before = this.seen.get(key);
      this.seen.set(key, { consumed, readAt });
      // First sight of a row written before this instance started: its count is history.
      if (before === undefined && Number(row.first_at) < this.startedAt) continue;
      // A row deleted as stale and written again starts from zero.
      const grown = before === undefined || consumed < before.consumed ? consumed : consumed - before.consumed;
      this.quotas.debit(row.client_pk, grown);
    }
    this.quotas.forgetIdle();
    if (++this.cycles % 60 === 0) {
      await this.db('client_quota_usage').whereRaw(`updated_at < ${DB_NOW_MS} - ?`, [STALE_USAGE_MS]).delete();
      for (const [key, entry] of this.seen) if (readAt - entry.readAt > STALE_USAGE_MS) this.seen.delete(key);
    }
  }
}
