// The eligibility checks as a durable queue (eligibility_checks): one row per Coverage, its
// next ask. Written in the transaction that writes the Coverage (a new Coverage, or a new payer
// or member id, is due now), so a check is never lost between the write and the ask, and a
// Coverage changed five times before the worker looks is asked about once.
//
// Claims: a row that is due, in a facility that can ask (it has an NPI and its organization a
// clearinghouse connection), and not under a live lease, is taken by setting a lease. On
// PostgreSQL the candidates are locked FOR UPDATE SKIP LOCKED, so two instances never take the
// same check; SQLite has a single writer and the claim is one transaction. A killed instance's
// checks are taken again when their lease runs out. Every later write is conditional on the
// lease owner, so a worker that lost its claim never overwrites the one that took it over.
//
// Rechecks are spread over the period: each Coverage has a fixed phase in it (from its id), and
// its next ask is the first instant of that phase at least half a period away, so 10,000
// Coverages configured on one day are asked about evenly across the month, not all at once.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { isPostgres } from '../db/database.js';

export type CheckTrigger = 'admission' | 'change' | 'recheck' | 'operator';

export interface QueuedCheck {
  coverageId: string;
  orgId: string;
  facilityId: string;
  trigger: CheckTrigger;
}

export interface ClaimedCheck {
  coverage_id: string;
  org_id: string;
  facility_id: string;
  trigger: CheckTrigger;
  attempts: number;
  requested_at: string | null;
  due_at: string;
  /** When the lease taken with the claim (or last renewed) runs out, by this process's clock (ms). */
  leaseEndsAt: number;
}

/**
 * Makes each Coverage's check due now, in the caller's transaction. New Coverages are inserted
 * through `insert` (the caller's statement batch); a Coverage that already has a row gets its
 * ask moved to now, keeping an earlier request's time (the queue's age stays honest).
 */
export async function queueChecks(trx: Knex | Knex.Transaction, checks: QueuedCheck[], now: string, insert?: (table: string, rows: Record<string, unknown>[]) => unknown): Promise<void> {
  if (checks.length === 0) return;
  const rowOf = (c: QueuedCheck) => ({ coverage_id: c.coverageId, org_id: c.orgId, facility_id: c.facilityId, due_at: now, trigger: c.trigger, requested_at: now, attempts: 0 });
  const fresh = checks.filter((c) => c.trigger === 'admission');
  const changed = checks.filter((c) => c.trigger !== 'admission');
  if (fresh.length) {
    if (insert) await insert('eligibility_checks', fresh.map(rowOf));
    else await trx('eligibility_checks').insert(fresh.map(rowOf));
  }
  for (const check of changed) {
    await trx('eligibility_checks')
      .insert(rowOf(check))
      .onConflict('coverage_id')
      .merge({
        due_at: now,
        trigger: check.trigger,
        attempts: 0,
        facility_id: check.facilityId,
        // An ask already requested keeps its time (and its place in the queue).
        requested_at: trx.raw('coalesce(eligibility_checks.requested_at, ?)', [now]),
      });
  }
}

/** Facilities that can ask: an NPI, and a clearinghouse connection in their organization. */
export async function checkableFacilities(db: Knex): Promise<string[]> {
  return (await db('facilities as f')
    .whereNotNull('f.npi')
    .whereExists((q) => q.select(db.raw('1')).from('clearinghouse_connections as c').whereRaw('c.org_id = f.org_id'))
    .pluck('f.id')) as string[];
}

/** Takes up to `limit` due checks under a lease; `coverageIds` restricts them (the CLI's own checks). */
export async function claimChecks(db: Knex, owner: string, leaseMs: number, limit: number, options: { facilityIds: string[]; coverageIds?: string[]; now?: number }): Promise<ClaimedCheck[]> {
  if (limit <= 0 || options.facilityIds.length === 0) return [];
  const now = options.now ?? Date.now();
  const at = nowIso(now);
  const due = (q: Knex | Knex.Transaction) => {
    const candidates = q('eligibility_checks')
      .whereIn('facility_id', options.facilityIds)
      .andWhere('due_at', '<=', at)
      .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', at))
      .orderBy('due_at')
      .limit(limit);
    return options.coverageIds ? candidates.whereIn('coverage_id', options.coverageIds) : candidates;
  };
  // The request is taken with the claim: one made while this ask runs (a change, the operator)
  // sets requested_at again, and completeCheck then leaves the check due.
  const lease = { lease_owner: owner, lease_until: nowIso(now + leaseMs), requested_at: null };
  const claimed = (rows: Array<Record<string, unknown>>): ClaimedCheck[] =>
    rows.map((r) => ({ ...(r as unknown as ClaimedCheck), attempts: Number(r.attempts), leaseEndsAt: now + leaseMs })).sort((a, b) => a.due_at.localeCompare(b.due_at));
  if (isPostgres(db)) {
    // One statement: the due checks no other worker holds locked (SKIP LOCKED), leased, each
    // with its request time as it was before the claim took it.
    const rows = (await db
      .with('candidates', due(db).select('coverage_id', 'requested_at').forUpdate().skipLocked())
      .from('eligibility_checks as c')
      .updateFrom('candidates')
      .where('c.coverage_id', db.ref('candidates.coverage_id'))
      .update(lease, ['c.coverage_id', 'c.org_id', 'c.facility_id', 'c.trigger', 'c.attempts', 'candidates.requested_at', 'c.due_at'])) as Array<Record<string, unknown>>;
    return claimed(rows);
  }
  // SQLite: one writer at a time; the due checks read, then leased (those the update took).
  return db.transaction(async (trx) => {
    const found = (await due(trx).select('coverage_id', 'org_id', 'facility_id', 'trigger', 'attempts', 'requested_at', 'due_at')) as Array<Record<string, unknown>>;
    if (found.length === 0) return [];
    const taken = (await trx('eligibility_checks')
      .whereIn('coverage_id', found.map((f) => f.coverage_id as string))
      .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', at))
      .update(lease, ['coverage_id'])) as Array<{ coverage_id: string }>;
    const ids = new Set(taken.map((t) => t.coverage_id));
    return claimed(found.filter((r) => ids.has(r.coverage_id as string)));
  });
}

/** Renews the lease as the exchange starts (a check may wait for its connection); false when it was lost. */
export async function renewLease(db: Knex, check: ClaimedCheck, owner: string, leaseMs: number, now = Date.now()): Promise<boolean> {
  const renewed = (await db('eligibility_checks').where({ coverage_id: check.coverage_id, lease_owner: owner }).update({ lease_until: nowIso(now + leaseMs) })) === 1;
  if (renewed) check.leaseEndsAt = now + leaseMs;
  return renewed;
}

/**
 * Whether the lease left still covers an exchange starting now: its timeout, and half the
 * lease's room beyond it for the answer to be applied and recorded. A check that starts soon
 * after its claim needs no renewal (a round trip saved per check); one that waited for its
 * connection's slot is renewed. Nobody else can have taken a check whose lease has not run out.
 */
export function leaseCovers(check: ClaimedCheck, timeoutMs: number, leaseMs: number, now = Date.now()): boolean {
  return check.leaseEndsAt - now >= timeoutMs + (leaseMs - timeoutMs) / 2;
}

/** The fixed phase of a Coverage in the recheck period, in ms: uniform over the period, from its id. */
export function recheckPhaseMs(coverageId: string, periodMs: number): number {
  const word = createHash('sha256').update(coverageId).digest().readUInt32BE(0);
  return Math.floor((word / 2 ** 32) * periodMs);
}

/** When a Coverage asked about at `now` is asked again: at its phase, at least half a period later. */
export function nextRecheck(coverageId: string, periodMs: number, now: number): number {
  const phase = recheckPhaseMs(coverageId, periodMs);
  const earliest = now + periodMs / 2;
  return phase + Math.ceil((earliest - phase) / periodMs) * periodMs;
}

/** What settles a check once its exchange is recorded: answered (`complete`) or tried again later (`retry`). */
export type Settlement = { complete: { next: number | null; outcome: string; facilityId?: string } } | { retry: { at: number } };

/**
 * The statement settling a check under its lease (not yet run: the caller runs it, or puts it
 * after the exchange's insert, exchange-settlement.ts). Completed: the next ask is `next` (null:
 * none scheduled), unless a new ask was requested while this one ran (a change arrived): that
 * one stays due. Retried: due again at `at`, one attempt more.
 */
export function settlementUpdate(db: Knex, check: ClaimedCheck, owner: string, settlement: Settlement, now = Date.now()): Knex.QueryBuilder {
  const mine = db('eligibility_checks').where({ coverage_id: check.coverage_id, lease_owner: owner });
  if ('retry' in settlement) return mine.update({ lease_owner: null, lease_until: null, attempts: check.attempts + 1, due_at: nowIso(settlement.retry.at) });
  const result = settlement.complete;
  const next = result.next === null ? null : nowIso(result.next);
  return mine.update({
    lease_owner: null,
    lease_until: null,
    attempts: 0,
    last_checked_at: nowIso(now),
    last_outcome: result.outcome,
    ...(result.facilityId ? { facility_id: result.facilityId } : {}),
    // Requested again meanwhile: answered, but due again now, as requested.
    due_at: db.raw('CASE WHEN requested_at IS NULL THEN ? ELSE due_at END', [next]),
    trigger: db.raw(`CASE WHEN requested_at IS NULL THEN 'recheck' ELSE "trigger" END`),
  });
}

/** The ask is answered (or cannot be made): settlementUpdate's `complete`, run; false when the lease was lost. */
export async function completeCheck(db: Knex, check: ClaimedCheck, owner: string, result: { next: number | null; outcome: string; facilityId?: string }, now = Date.now()): Promise<boolean> {
  return (await settlementUpdate(db, check, owner, { complete: result }, now)) === 1;
}

/** A failed attempt that is retried: due again at `retryAt`, one attempt more. */
export async function retryCheck(db: Knex, check: ClaimedCheck, owner: string, retryAt: number): Promise<boolean> {
  return (await settlementUpdate(db, check, owner, { retry: { at: retryAt } })) === 1;
}

/** Gives a check back untried (its connection is paused, or the service stops), due at `dueAt` or as it was. */
export async function releaseCheck(db: Knex, check: ClaimedCheck, owner: string, dueAt?: number): Promise<void> {
  await db('eligibility_checks').where({ coverage_id: check.coverage_id, lease_owner: owner }).update({ lease_owner: null, lease_until: null, ...(dueAt !== undefined ? { due_at: nowIso(dueAt) } : {}) });
}

/** The queue as the metrics see it: checks due now in facilities that can ask, and the oldest one's age. */
export async function queueDepth(db: Knex, now = Date.now()): Promise<{ due: number; oldestAgeSeconds: number }> {
  const facilities = await checkableFacilities(db);
  if (facilities.length === 0) return { due: 0, oldestAgeSeconds: 0 };
  const row = (await db('eligibility_checks').whereIn('facility_id', facilities).andWhere('due_at', '<=', nowIso(now)).first(db.raw('count(*) as n'), db.raw('min(coalesce(requested_at, due_at)) as oldest'))) as { n: number | string; oldest: string | null } | undefined;
  const oldest = row?.oldest ? Math.max(0, (now - Date.parse(row.oldest)) / 1000) : 0;
  return { due: Number(row?.n ?? 0), oldestAgeSeconds: oldest };
}
