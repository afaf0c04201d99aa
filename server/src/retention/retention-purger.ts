// The service's background retention: a purge soon after start and then every
// RETENTION_INTERVAL_MINUTES, in small batches with a pause between them. Several instances
// may purge at once; each batch deletes what is still there, so they only share the work.
import type { Knex } from 'knex';
import type { BulkExportConfig, RetentionConfig } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { purgeExpired } from './purge-expired.js';
import { purgeExpiredExports } from '../bulk/export-worker.js';

const FIRST_RUN_DELAY_MS = 60_000;
/** Between batches: a request waiting for SQLite's single writer gets it first. */
const PAUSE_MS = 20;

export class RetentionPurger {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Knex,
    private readonly config: RetentionConfig,
    private readonly logger: Logger,
    private readonly metrics: ServiceMetrics,
    private readonly bulkExport?: Pick<BulkExportConfig, 'dir'>,
  ) {}

  start(): void {
    if (this.config.intervalMs === 0) return;
    this.schedule(Math.min(FIRST_RUN_DELAY_MS, this.config.intervalMs));
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => {
        this.running = undefined;
        this.schedule(this.config.intervalMs);
      });
    }, delay);
    this.timer.unref();
  }

  async runOnce(): Promise<void> {
    try {
      const report = await purgeExpired(this.db, this.config, {
        pause: () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS)),
        proceed: () => !this.stopped,
        onBatch: (table, rows) => this.metrics.purgedRows.inc({ table }, rows),
      });
      // Bulk exports past BULK_EXPORT_TTL_HOURS: their rows and their files.
      const exports = await purgeExpiredExports(this.db, this.bulkExport?.dir, this.config.batchSize);
      if (exports > 0) this.metrics.purgedRows.inc({ table: 'bulk_export_jobs' }, exports);
      const total = Object.values(report.removed).reduce((a, b) => a + b, 0) + exports;
      if (total > 0) this.logger.info({ removed: { ...report.removed, bulk_export_jobs: exports }, cutoffs: report.cutoffs }, 'retention purge');
    } catch (error) {
      this.logger.warn({ err: error }, 'retention purge failed; it is retried at the next interval');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
