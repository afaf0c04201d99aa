// Bulk export jobs as durable rows (bulk_export_jobs): created by the kick-off, claimed and
// advanced page by page by a worker under a lease, read by their own client only.
//
// Claims: a job that is queued, or running under a lease that ran out (its instance died or
// stalled), is taken by setting a new lease. On PostgreSQL the candidate is locked FOR UPDATE
// SKIP LOCKED, as the webhook delivery outbox does, so two instances never take the same job;
// SQLite has a single writer and the claim is one transaction. Every progress write is
// conditional on the lease owner, so an instance that lost its job can never write over the
// one that took it over, and learns it must stop.
import { lastIngestInstant } from '../ingest/ingest-clock.js';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { isPostgres } from '../db/database.js';
import { parseRestrictions, serializeRestrictions } from '../auth/granular-scopes.js';
import type { GranularRestrictions } from '../tenancy/granular-restrictions.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ExportProgress {
  /** Index of the type being written. */
  t: number;
  /** The R4 view's page cursor within it (null: its first page). */
  c: string | null;
  /** Bytes of its file recorded as written. */
  b: number;
  /** Resources written to it. */
  n: number;
  /** Its working file (export-files.ts); absent in jobs recorded before working files: the type's own file. */
  w?: string;
  /** The type is written whole (its working file complete, to be put in place). */
  d?: boolean;
}

export interface ExportOutput {
  type: string;
  file: string;
  count: number;
}

export interface ExportJob {
  id: string;
  org_id: string;
  facility_id: string;
  client_id: string;
  status: JobStatus;
  request_url: string;
  types: string[];
  since: string | null;
  transaction_time: string;
  ignored: string[];
  progress: ExportProgress;
  outputs: ExportOutput[];
  failure: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  completed_at: string | null;
  expires_at: string;
  /** The granular scopes of the token that started it (null: none). */
  restrictions: GranularRestrictions | null;
}

const ACTIVE = ['queued', 'running'];

function jobOf(row: Record<string, unknown>): ExportJob {
  return {
    ...(row as unknown as ExportJob),
    types: JSON.parse(row.types as string) as string[],
    ignored: row.ignored ? (JSON.parse(row.ignored as string) as string[]) : [],
    progress: JSON.parse(row.progress as string) as ExportProgress,
    outputs: JSON.parse(row.outputs as string) as ExportOutput[],
    restrictions: parseRestrictions(row.restrictions),
  };
}

export interface NewJob {
  orgId: string;
  facilityId: string;
  clientId: string;
  requestUrl: string;
  types: string[];
  since?: string;
  ignored: string[];
  restrictions?: GranularRestrictions | null;
  ttlHours: number;
  maxJobsPerClient: number;
}

/** A new queued job, or undefined when the client already has its maximum running. */
export async function createJob(db: Knex, job: NewJob, now = Date.now()): Promise<ExportJob | undefined> {
  return db.transaction(async (trx) => {
    // PostgreSQL: one kick-off of a client at a time counts and inserts (a transaction-scoped
    // advisory lock on the client), so two at once cannot both pass the limit.
    if (isPostgres(trx)) await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`bulk-export:${job.clientId}`]);
    const running = (await trx('bulk_export_jobs').where({ client_id: job.clientId }).whereIn('status', ACTIVE).count({ n: '*' }).first()) as { n: number | string };
    if (Number(running.n) >= job.maxJobsPerClient) return undefined;
    // transactionTime: the last instant the organization's writes were given, once every write
    // that took an earlier one has committed (ingest-clock.ts): the next `_since` of it then
    // misses nothing a page of this export was read too early to see. Never after now.
    const last = await lastIngestInstant(trx, job.orgId);
    const transactionTime = last !== undefined && last < nowIso(now) ? last : nowIso(now);
    const row = {
      id: randomUUID(),
      org_id: job.orgId,
      facility_id: job.facilityId,
      client_id: job.clientId,
      status: 'queued',
      request_url: job.requestUrl,
      types: JSON.stringify(job.types),
      since: job.since ?? null,
      transaction_time: transactionTime,
      ignored: job.ignored.length ? JSON.stringify(job.ignored) : null,
      progress: JSON.stringify({ t: 0, c: null, b: 0, n: 0 } satisfies ExportProgress),
      outputs: '[]',
      failure: null,
      lease_owner: null,
      lease_until: null,
      created_at: nowIso(now),
      completed_at: null,
      expires_at: nowIso(now + job.ttlHours * 3_600_000),
      restrictions: serializeRestrictions(job.restrictions ?? null),
    };
    await trx('bulk_export_jobs').insert(row);
    return jobOf(row);
  });
}

/** The client's job in this facility; another client's, or an expired one, is not found. */
export async function readJob(db: Knex, id: string, owner: { clientId: string; orgId: string; facilityId: string }, now = Date.now()): Promise<ExportJob | undefined> {
  const row = await db('bulk_export_jobs').where({ id, client_id: owner.clientId, org_id: owner.orgId, facility_id: owner.facilityId }).andWhere('expires_at', '>', nowIso(now)).first();
  return row ? jobOf(row as Record<string, unknown>) : undefined;
}

export async function deleteJob(db: Knex, id: string): Promise<void> {
  await db('bulk_export_jobs').where({ id }).delete();
}

/** Takes one job due for work: queued, or running under a lease that ran out. */
export async function claimJob(db: Knex, owner: string, leaseMs: number, now = Date.now()): Promise<ExportJob | undefined> {
  const at = nowIso(now);
  return db.transaction(async (trx) => {
    const candidates = trx('bulk_export_jobs')
      .whereIn('status', ACTIVE)
      .andWhere((q) => q.whereNull('lease_until').orWhere('lease_until', '<', at))
      .andWhere('expires_at', '>', at)
      .orderBy('created_at')
      .limit(1)
      .select('id');
    const found = (await (isPostgres(trx) ? candidates.forUpdate().skipLocked() : candidates)) as Array<{ id: string }>;
    if (found.length === 0) return undefined;
    const updated = await trx('bulk_export_jobs')
      .where({ id: found[0]!.id })
      .whereIn('status', ACTIVE)
      .andWhere((q) => q.whereNull('lease_until').orWhere('lease_until', '<', at))
      .update({ status: 'running', lease_owner: owner, lease_until: nowIso(now + leaseMs) });
    if (updated !== 1) return undefined;
    return jobOf((await trx('bulk_export_jobs').where({ id: found[0]!.id }).first()) as Record<string, unknown>);
  });
}

/** Records progress and renews the lease; false when the job is gone (cancelled) or was taken over. */
export async function recordProgress(db: Knex, job: ExportJob, owner: string, leaseMs: number, change: { progress: ExportProgress; outputs?: ExportOutput[] }): Promise<boolean> {
  const set: Record<string, unknown> = { progress: JSON.stringify(change.progress), lease_until: nowIso(Date.now() + leaseMs) };
  if (change.outputs) set.outputs = JSON.stringify(change.outputs);
  return (await db('bulk_export_jobs').where({ id: job.id, lease_owner: owner, status: 'running' }).update(set)) === 1;
}

export async function finishJob(db: Knex, job: ExportJob, owner: string, ttlHours: number, outcome: { outputs: ExportOutput[] } | { failure: string }, now = Date.now()): Promise<boolean> {
  const set: Record<string, unknown> = { lease_owner: null, lease_until: null, completed_at: nowIso(now), expires_at: nowIso(now + ttlHours * 3_600_000) };
  if ('failure' in outcome) Object.assign(set, { status: 'failed', failure: outcome.failure });
  else Object.assign(set, { status: 'completed', outputs: JSON.stringify(outcome.outputs) });
  return (await db('bulk_export_jobs').where({ id: job.id, lease_owner: owner, status: 'running' }).update(set)) === 1;
}

/** Gives a job back (service shutdown): another instance, or this one restarted, resumes it. */
export async function releaseJob(db: Knex, job: ExportJob, owner: string): Promise<void> {
  await db('bulk_export_jobs').where({ id: job.id, lease_owner: owner, status: 'running' }).update({ lease_owner: null, lease_until: null });
}

/** Jobs whose files expired (BULK_EXPORT_TTL_HOURS after they finished), up to `limit`. */
export async function expiredJobIds(db: Knex, limit: number, now = Date.now()): Promise<string[]> {
  return (await db('bulk_export_jobs').where('expires_at', '<=', nowIso(now)).orderBy('expires_at').limit(limit).pluck('id')) as string[];
}
