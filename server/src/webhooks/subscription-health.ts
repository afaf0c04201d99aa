// Svix's auto-disable: a subscription whose every attempt has failed for
// WEBHOOK_DISABLE_AFTER_HOURS (120, five days) is disabled, reason `failing`, and its queued
// deliveries cancelled (recoverable once its owner enables it again).
//
// Two halves. The worker notes each attempt's outcome: the first failure after a success
// sets `failing_since`, a success clears it. It writes only when that changes what it last
// saw (remembered a minute per subscription), so a healthy or a steadily failing receiver
// costs no extra statement per attempt. The sweep, every instance on a timer, disables the
// subscriptions failing since before the window, after checking the attempts themselves: a
// success the notes missed (another instance's, within the minute) repairs the note instead.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import type { Logger } from '../logging/logger.js';
import type { AttemptErrorClass } from './delivery-sender.js';
import { endSubscription } from './subscriptions.js';

/** How long a subscription's last written state is trusted before a change is written again. */
const REMEMBER_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Failures that are the receiver's: not ours (`internal`), not our shutdown (`aborted`). */
function verdictOf(errorClass: AttemptErrorClass | null): 'ok' | 'failed' | undefined {
  if (errorClass === null) return 'ok';
  if (errorClass === 'aborted' || errorClass === 'internal') return undefined;
  return 'failed';
}

export class SubscriptionHealth {
  private readonly known = new Map<string, { failing: boolean; until: number }>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
  ) {}

  /** After an attempt was recorded; returns at once. A lost note is repaired by the next one or by the sweep. */
  noteAttempt(subscriptionId: string, errorClass: AttemptErrorClass | null, startedAt: number): void {
    const note = this.note(subscriptionId, errorClass, startedAt).finally(() => this.writing.delete(note));
    this.writing.add(note);
  }

  /** The notes being written (awaited before the database closes). */
  async settled(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  private async note(subscriptionId: string, errorClass: AttemptErrorClass | null, startedAt: number): Promise<void> {
    const verdict = verdictOf(errorClass);
    if (verdict === undefined) return;
    const failing = verdict === 'failed';
    const now = Date.now();
    const known = this.known.get(subscriptionId);
    if (known && known.failing === failing && known.until > now) return;
    try {
      const row = this.db('webhook_subscriptions').where({ id: subscriptionId });
      if (failing) await row.whereNull('failing_since').update({ failing_since: nowIso(startedAt) });
      else await row.whereNotNull('failing_since').update({ failing_since: null });
      if (this.known.size > 10_000) this.known.clear();
      this.known.set(subscriptionId, { failing, until: now + REMEMBER_MS });
    } catch (error) {
      this.logger.warn({ err: error, subscription_id: subscriptionId }, 'could not note a webhook subscription\'s health; noted at its next attempt');
    }
  }
}

/**
 * Disables every active subscription failing since before `now - windowHours`, unless an
 * attempt succeeded since (then its note is repaired). Returns the ids disabled.
 */
export async function disableFailingSubscriptions(db: Knex, windowHours: number, now: number = Date.now()): Promise<string[]> {
  const cutoff = nowIso(now - windowHours * HOUR_MS);
  const candidates = (await db('webhook_subscriptions')
    .where({ status: 'active' })
    .whereNotNull('failing_since')
    .andWhere('failing_since', '<=', cutoff)
    .select('id', 'failing_since')) as Array<{ id: string; failing_since: string }>;
  const disabled: string[] = [];
  for (const { id, failing_since: since } of candidates) {
    const success = await db('webhook_delivery_attempts as a')
      .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .where('d.subscription_id', id)
      .andWhere('a.started_at', '>=', since)
      .whereNull('a.error_class')
      .orderBy('a.started_at', 'desc')
      .first('a.started_at');
    if (success) {
      // The failures since it start the run again (or none did).
      const failure = await db('webhook_delivery_attempts as a')
        .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .where('d.subscription_id', id)
        .andWhere('a.started_at', '>', success.started_at)
        .whereNotNull('a.error_class')
        .whereNotIn('a.error_class', ['aborted', 'internal'])
        .orderBy('a.started_at')
        .first('a.started_at');
      await db('webhook_subscriptions').where({ id, failing_since: since }).update({ failing_since: failure?.started_at ?? null });
      continue;
    }
    if (await endSubscription(db, id, 'disabled', { reason: 'failing', failingSince: since })) disabled.push(id);
  }
  return disabled;
}

/** How often the sweep runs: a tenth of the window, between 250 ms and a minute. */
export function sweepIntervalMs(windowHours: number): number {
  return Math.min(60_000, Math.max(250, (windowHours * HOUR_MS) / 10));
}
