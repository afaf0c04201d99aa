// Claiming due deliveries and recording what became of them.
//
// A claim is a lease: the delivery moves to `sending` with `due_at` = the lease's end and
// a fresh claim token. If its worker dies, the delivery is due again when the lease ends
// and any worker claims it (the lease is longer than the request timeout, so a live worker
// has always finished by then). Only the holder of the current claim token may record the
// outcome, so a worker that outlived its lease cannot overwrite a newer claim.
//
// No double claims: on PostgreSQL rows are locked with FOR UPDATE SKIP LOCKED; SQLite has
// a single writer and the claim runs in one transaction. Per-subscription fairness: each
// subscription is claimed for separately, up to its concurrency cap counted across every
// worker, so one endpoint's backlog can never take all of a worker's slots. On PostgreSQL
// the subscription row is locked (SKIP LOCKED) while claiming for it, so two workers do not
// both fill the same cap.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { isPostgres } from '../db/database.js';
import type { EventType } from './event-types.js';
import type { AttemptDecision } from './retry-policy.js';
import type { AttemptErrorClass } from './delivery-sender.js';
import { endSubscription } from './subscriptions.js';

export interface ClaimedDelivery {
  id: string;
  eventId: string;
  subscriptionId: string;
  eventType: EventType;
  /** The stored body, exactly as serialized at enqueue. */
  body: string;
  /** This attempt's number (X-Service-Attempt), 1-based over the delivery's life. */
  attempt: number;
  /** This attempt's position in the current retry series (1 = first try). */
  attemptInSeries: number;
  claimToken: string;
  callbackUrl: string;
  signingSecretEncrypted: string;
  /** The secret a rotation replaced, while its overlap may still last (secret-rotation.ts). */
  previousSigningSecretEncrypted: string | null;
  previousSecretExpiresAt: string | null;
}

export interface ClaimOptions {
  /** How many deliveries this worker can take now. */
  limit: number;
  perSubscription: number;
  leaseMs: number;
  now?: number;
}

const DUE_STATUSES = ['pending', 'sending'];

interface DueRow {
  seq: number;
  id: string;
  status: string;
  attempts: number;
  last_attempt_at: string | null;
}

export async function claimDueDeliveries(db: Knex, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  const postgres = isPostgres(db);
  const nowMs = options.now ?? Date.now();
  const now = nowIso(nowMs);
  const leaseEnd = nowIso(nowMs + options.leaseMs);
  const claimToken = randomBytes(16).toString('hex');

  const claimedIds = await db.transaction(async (trx) => {
    // Subscriptions with something due, the longest-waiting first.
    const candidates = (await trx('webhook_deliveries as d')
      .join('webhook_subscriptions as s', 's.id', 'd.subscription_id')
      .where('s.status', 'active')
      .whereIn('d.status', DUE_STATUSES)
      .andWhere('d.due_at', '<=', now)
      // Not those already at their cap: they would take the room of claimable ones.
      .whereNotIn('d.subscription_id', (q) =>
        q.from('webhook_deliveries as f').where('f.status', 'sending').andWhere('f.due_at', '>', now).groupBy('f.subscription_id').havingRaw('count(*) >= ?', [options.perSubscription]).select('f.subscription_id'),
      )
      .groupBy('d.subscription_id')
      .orderBy('oldest')
      .limit(options.limit)
      .select('d.subscription_id', trx.raw('min(d.due_at) as oldest'))) as Array<{ subscription_id: string }>;

    const claimed: string[] = [];
    let room = options.limit;
    for (const { subscription_id: subscriptionId } of candidates) {
      if (room <= 0) break;
      if (postgres) {
        const locked = await trx('webhook_subscriptions').where({ id: subscriptionId, status: 'active' }).forUpdate().skipLocked().first('id');
        if (!locked) continue; // another worker is claiming for it right now
      }
      const inFlight = await trx('webhook_deliveries')
        .where({ subscription_id: subscriptionId, status: 'sending' })
        .andWhere('due_at', '>', now)
        .count({ n: '*' })
        .first();
      const take = Math.min(room, options.perSubscription - Number(inFlight?.n ?? 0));
      if (take <= 0) continue;
      let due = trx('webhook_deliveries')
        .where({ subscription_id: subscriptionId })
        .whereIn('status', DUE_STATUSES)
        .andWhere('due_at', '<=', now)
        .orderBy([{ column: 'due_at' }, { column: 'seq' }])
        .limit(take)
        .select('seq', 'id', 'status', 'attempts', 'last_attempt_at');
      if (postgres) due = due.forUpdate().skipLocked();
      const rows = (await due) as DueRow[];
      if (rows.length === 0) continue;
      // The due condition again: on SQLite (no row locks) the UPDATE itself is the claim.
      await trx('webhook_deliveries')
        .whereIn('seq', rows.map((r) => r.seq))
        .whereIn('status', DUE_STATUSES)
        .andWhere('due_at', '<=', now)
        .update({ status: 'sending', due_at: leaseEnd, claim_token: claimToken, attempts: trx.raw('attempts + 1'), last_attempt_at: now });
      // A delivery still `sending` past its lease lost its worker mid-attempt: that attempt
      // is recorded as interrupted (unless its worker records it after all).
      const interrupted = rows.filter((r) => r.status === 'sending');
      if (interrupted.length > 0) {
        await trx('webhook_delivery_attempts')
          .insert(interrupted.map((r) => ({ delivery_id: r.id, attempt: r.attempts, started_at: r.last_attempt_at ?? now, error_class: 'interrupted' satisfies AttemptErrorClass })))
          .onConflict(['delivery_id', 'attempt'])
          .ignore();
      }
      claimed.push(...rows.map((r) => r.id));
      room -= rows.length;
    }
    return claimed;
  });
  if (claimedIds.length === 0) return [];

  const rows = await db('webhook_deliveries as d')
    .join('webhook_subscriptions as s', 's.id', 'd.subscription_id')
    .whereIn('d.id', claimedIds)
    .andWhere('d.claim_token', claimToken)
    .orderBy('d.seq')
    .select('d.id', 'd.event_id', 'd.subscription_id', 'd.event_type', 'd.body', 'd.attempts', 'd.series_start', 's.callback_url', 's.signing_secret_encrypted', 's.previous_signing_secret_encrypted', 's.previous_secret_expires_at');
  return rows.map((r: Record<string, unknown>) => ({
    id: r.id as string,
    eventId: r.event_id as string,
    subscriptionId: r.subscription_id as string,
    eventType: r.event_type as EventType,
    body: r.body as string,
    attempt: Number(r.attempts),
    attemptInSeries: Number(r.attempts) - Number(r.series_start),
    claimToken,
    callbackUrl: r.callback_url as string,
    signingSecretEncrypted: r.signing_secret_encrypted as string,
    previousSigningSecretEncrypted: (r.previous_signing_secret_encrypted as string | null) ?? null,
    previousSecretExpiresAt: (r.previous_secret_expires_at as string | null) ?? null,
  }));
}

export interface RecordedAttempt {
  startedAt: number;
  durationMs: number | null;
  status: number | null;
  errorClass: AttemptErrorClass | null;
  workerId: string;
}

/** The delivery's new state for a decision; `released` hands it back untouched by the schedule. */
export type DeliveryTransition = AttemptDecision | { kind: 'released' };

/**
 * Records an attempt and moves the delivery on, in one transaction. Returns false when the
 * claim was no longer this worker's (lease expired and re-claimed, or cancelled meanwhile):
 * the attempt is still recorded, the delivery is left to its current owner.
 */
export async function recordAttempt(db: Knex, claim: ClaimedDelivery, attempt: RecordedAttempt, transition: DeliveryTransition): Promise<boolean> {
  const now = Date.now();
  const at = nowIso(now);
  return db.transaction(async (trx) => {
    await trx('webhook_delivery_attempts')
      .insert({
        delivery_id: claim.id,
        attempt: claim.attempt,
        started_at: nowIso(attempt.startedAt),
        duration_ms: attempt.durationMs,
        response_status: attempt.status,
        error_class: attempt.errorClass,
        worker_id: attempt.workerId,
      })
      .onConflict(['delivery_id', 'attempt'])
      .merge();
    const last = { last_status: attempt.status, last_error: attempt.errorClass, claim_token: null };
    const mine = () => trx('webhook_deliveries').where({ id: claim.id, claim_token: claim.claimToken, status: 'sending' });
    switch (transition.kind) {
      case 'delivered':
        return (await mine().update({ ...last, status: 'delivered', due_at: null, completed_at: at })) > 0;
      case 'retry':
        return (await mine().update({ ...last, status: 'pending', due_at: nowIso(now + transition.delayMs) })) > 0;
      case 'released':
        return (await mine().update({ ...last, status: 'pending', due_at: at })) > 0;
      case 'failed':
        return (await mine().update({ ...last, status: 'failed', due_at: null, completed_at: at })) > 0;
      case 'disable': {
        // 410 Gone: the receiver says this endpoint is gone for good.
        // The subscription row first: concurrent 410s of one subscription then queue here
        // instead of each locking its delivery and then waiting for the others' (deadlock).
        if (isPostgres(trx)) await trx('webhook_subscriptions').where({ id: claim.subscriptionId }).forUpdate().first('id');
        const updated = await mine().update({ ...last, status: 'failed', due_at: null, completed_at: at });
        await endSubscription(trx, claim.subscriptionId, 'disabled', { exceptDeliveryId: claim.id });
        return updated > 0;
      }
    }
  });
}

/** The earliest time anything becomes due (a retry or an expiring lease), or null. */
export async function nextDueAt(db: Knex): Promise<number | null> {
  const row = await db('webhook_deliveries').whereIn('status', DUE_STATUSES).min({ at: 'due_at' }).first();
  return row?.at ? Date.parse(row.at as string) : null;
}
