// A clearinghouse that keeps failing is paused instead of hammered: after
// ELIGIBILITY_BREAKER_FAILURES consecutive transport failures (timeouts, refused or reset
// connections, 5xx), its connection is paused for ELIGIBILITY_BREAKER_PAUSE_MS, doubling while
// it keeps failing, up to ELIGIBILITY_RETRY_MAX_MS. Checks routed to a paused connection stay
// queued (due when the pause ends), so nothing is lost. The state lives in the connection's row,
// so every instance sees the same pause. Any answer from the clearinghouse closes it again.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { rawRows } from '../db/database.js';

export interface BreakerSettings {
  failures: number;
  pauseMs: number;
  maxPauseMs: number;
}

/** Counts one failure; returns when the connection is paused until, if it now is. */
export async function recordConnectionFailure(db: Knex, connectionId: string, settings: BreakerSettings, now = Date.now()): Promise<string | undefined> {
  const rows = rawRows<{ failures: number | string }>(await db.raw('UPDATE clearinghouse_connections SET failures = failures + 1 WHERE id = ? RETURNING failures', [connectionId]));
  const failures = Number(rows[0]?.failures ?? 0);
  if (failures < settings.failures) return undefined;
  const pause = Math.min(settings.maxPauseMs, settings.pauseMs * 2 ** Math.min(20, failures - settings.failures));
  const until = nowIso(now + pause);
  await db('clearinghouse_connections').where({ id: connectionId }).update({ paused_until: until });
  return until;
}

/** The clearinghouse answered: the count starts again and any pause ends (one write only when there was one). */
export async function recordConnectionAnswer(db: Knex, connectionId: string): Promise<void> {
  await db('clearinghouse_connections')
    .where({ id: connectionId })
    .andWhere((q) => q.where('failures', '>', 0).orWhereNotNull('paused_until'))
    .update({ failures: 0, paused_until: null });
}
