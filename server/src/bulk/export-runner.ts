// Runs one claimed export job, page by page: each type's rows are read through the R4 view's
// own row reading (fetchSyncPage: the facility's rows the credential may see, in insertion
// order, or in (lastUpdated, id) order after `_since`), rendered by the R4 view's renderer, appended to the
// type's NDJSON file, and the page's cursor and the file's length recorded with the lease
// renewed. Memory holds one page; a job resumed elsewhere continues from the last page
// recorded, in a working file of its own (openWorkingFile: a copy cut at the recorded bytes),
// so an instance that lost the job while it stalled cannot write over the new owner's file;
// a finished type's file is renamed into place before the next type is recorded.
import type { Knex } from 'knex';
import { fetchSyncPage } from '../resources/sync-pages.js';
import { visibilityOfClient } from '../tenancy/authorize.js';
import type { ResourceRow } from '../db/resource-row.js';
import { EXPORT_TYPES } from './export-request.js';
import { withRelated } from '../resources/r4/r4-types.js';
import { fileName, openWorkingFile, publishWorkingFile } from './export-files.js';
import { finishJob, recordProgress, type ExportJob, type ExportOutput, type ExportProgress } from './export-jobs.js';
// The tenancy rules read granular scopes' types through it (tenancy/restrictable-types.ts).
import '../resources/r4/search/restrictable-r4-types.js';

export interface RunSettings {
  dir: string;
  owner: string;
  leaseMs: number;
  pageSize: number;
  ttlHours: number;
  /** Asked before each page: false stops (shutdown), leaving the job to be resumed. */
  proceed: () => boolean;
}

/** 'done', 'stopped' (shutdown; the lease is still held), or 'lost' (cancelled or taken over). */
export async function runJob(db: Knex, job: ExportJob, settings: RunSettings): Promise<'done' | 'stopped' | 'lost'> {
  let progress: ExportProgress = job.progress;
  const outputs: ExportOutput[] = [...job.outputs];
  // The credential's access policy and the kick-off token's granular scopes, inside every
  // page's query, as the searches apply them.
  const filter = await visibilityOfClient(db, job.org_id, job.client_id, job.restrictions);
  for (; progress.t < job.types.length; progress = { t: progress.t + 1, c: null, b: 0, n: 0 }) {
    const r4 = EXPORT_TYPES.find((t) => t.type === job.types[progress.t])!;
    if (!progress.d) {
      let working = progress.b > 0 ? await openWorkingFile(settings.dir, job.id, r4.type, { file: progress.w ?? fileName(r4.type), bytes: progress.b }) : undefined;
      if (!working) {
        progress = { t: progress.t, c: null, b: 0, n: 0 };
        working = (await openWorkingFile(settings.dir, job.id, r4.type))!;
      }
      progress = { ...progress, w: working.file };
      const file = working.handle;
      try {
        for (;;) {
          if (!settings.proceed()) return 'stopped';
          const query: Record<string, unknown> = { page_size: settings.pageSize };
          if (job.since) query._lastUpdated = `gt${job.since}`;
          if (progress.c) query.cursor = progress.c;
          const { rows, page } = await fetchSyncPage<ResourceRow>(db, r4.table, { facility_id: job.facility_id }, query, undefined, filter, false);
          if (rows.length > 0) {
            await withRelated(r4, db, job.org_id, rows);
            const { bytesWritten } = await file.write(rows.map((row) => JSON.stringify(r4.render(row))).join('\n') + '\n');
            progress = { ...progress, c: page.next ?? progress.c, b: progress.b + bytesWritten, n: progress.n + rows.length };
          }
          if (page.next === undefined) break;
          if (!(await recordProgress(db, job, settings.owner, settings.leaseMs, { progress }))) return 'lost';
        }
        await file.sync();
      } finally {
        await file.close();
      }
      // The type is written (its last page has no cursor after it, so `d` says so): recorded
      // while still the owner, then the file put in place, then the next type recorded. Killed
      // after this record, the next owner only puts the file in place (or finds it there).
      progress = { ...progress, d: true };
      if (!(await recordProgress(db, job, settings.owner, settings.leaseMs, { progress }))) return 'lost';
    }
    await publishWorkingFile(settings.dir, job.id, r4.type, progress.w!);
    // A type without resources has no output (the IG: a manifest lists only files with data).
    if (progress.n > 0) outputs.push({ type: r4.type, file: fileName(r4.type), count: progress.n });
    if (!(await recordProgress(db, job, settings.owner, settings.leaseMs, { progress: { t: progress.t + 1, c: null, b: 0, n: 0 }, outputs }))) return 'lost';
  }
  return (await finishJob(db, job, settings.owner, settings.ttlHours, { outputs })) ? 'done' : 'lost';
}
