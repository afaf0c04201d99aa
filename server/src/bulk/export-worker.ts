// The service's background export worker: one job at a time per instance, claimed from the
// shared table (export-jobs.ts), run page by page (export-runner.ts). It looks for work every
// BULK_EXPORT_POLL_INTERVAL_MS and at once when this instance accepts a kick-off (wake). On
// shutdown the job in hand stops between two pages and is released, so another instance (or
// this one restarted) resumes it; a killed instance's job is taken over when its lease runs
// out. It also removes the files of expired jobs when the retention purger asks.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { BulkExportConfig } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import { claimJob, deleteJob, expiredJobIds, releaseJob, finishJob, type ExportJob } from './export-jobs.js';
import { removeJobFiles } from './export-files.js';
import { runJob } from './export-runner.js';
import { PollingLoop } from '../db/polling-loop.js';

export class BulkExportWorker {
  /** This instance, as the lease owner. */
  readonly owner = `export-${randomUUID()}`;
  private readonly loop: PollingLoop;

  constructor(
    private readonly db: Knex,
    private readonly config: BulkExportConfig,
    private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(() => this.cycle(), config.pollIntervalMs);
  }

  private get running(): boolean {
    return this.loop.isRunning;
  }

  start(): void {
    if (!this.config.workerEnabled || this.config.dir === undefined) return;
    this.loop.start();
  }

  /** Look for a job now; concurrent calls coalesce. */
  wake(): void {
    this.loop.wake();
  }

  private async cycle(): Promise<void> {
    for (;;) {
      let job: ExportJob | undefined;
      try {
        job = await claimJob(this.db, this.owner, this.config.leaseMs);
        if (!job) return;
        const outcome = await runJob(this.db, job, { dir: this.config.dir!, owner: this.owner, leaseMs: this.config.leaseMs, pageSize: this.config.pageSize, ttlHours: this.config.ttlHours, proceed: () => this.running });
        if (outcome === 'stopped') {
          await releaseJob(this.db, job, this.owner);
          return;
        }
        // Cancelled while it ran (DELETE removed the row): its files go too.
        if (outcome === 'lost' && !(await this.db('bulk_export_jobs').where({ id: job.id }).first('id'))) await removeJobFiles(this.config.dir, job.id);
      } catch (error) {
        this.logger.error({ err: error, job_id: job?.id }, 'bulk export job failed');
        if (job) await finishJob(this.db, job, this.owner, this.config.ttlHours, { failure: 'The export could not be completed; start a new one.' }).catch(() => undefined);
        return;
      }
    }
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}

/** Removes expired jobs and their files (the retention purger runs it); returns how many. */
export async function purgeExpiredExports(db: Knex, dir: string | undefined, batchSize: number, now = Date.now()): Promise<number> {
  let removed = 0;
  for (;;) {
    const ids = await expiredJobIds(db, batchSize, now);
    for (const id of ids) {
      await removeJobFiles(dir, id);
      await deleteJob(db, id);
    }
    removed += ids.length;
    if (ids.length < batchSize) return removed;
  }
}
