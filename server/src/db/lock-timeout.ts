// Statements that take a strong lock on a table the service writes to (a trigger created, a
// partition detached, a table swapped) wait for it at most a short lock_timeout, so writers
// queue behind them briefly, and are tried again a few times (PostgreSQL).
//
// The timeout is set for one transaction, or one savepoint of the caller's transaction (a
// migration's), and put back when that ends: SET LOCAL made inside a savepoint outlives the
// savepoint's release, so a short timeout set by one step would otherwise apply to every
// later statement of the migration (it did: a CREATE TRIGGER failed on it under load).
import type { Knex } from 'knex';
import { rawRows } from './database.js';

/** PostgreSQL's lock_not_available: the lock was not had within lock_timeout. */
export function isLockTimeout(error: unknown): boolean {
  return (error as { code?: string }).code === '55P03';
}

/** PostgreSQL's deadlock_detected: this transaction was the one aborted to break a cycle of lock waits. */
export function isDeadlock(error: unknown): boolean {
  return (error as { code?: string }).code === '40P01';
}

/**
 * Runs `work` in a transaction (a savepoint inside the caller's) whose statements wait at most
 * `timeout` for a lock; the previous setting holds again after it, whether it committed or not.
 */
export async function withLockTimeout<T>(db: Knex, timeout: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    const previous = rawRows<{ value: string }>(await trx.raw(`SELECT current_setting('lock_timeout') AS value`))[0]!.value;
    await trx.raw(`SELECT set_config('lock_timeout', ?, true)`, [timeout]);
    const result = await work(trx);
    // A rolled-back savepoint puts it back by itself; a released one does not.
    await trx.raw(`SELECT set_config('lock_timeout', ?, true)`, [previous]);
    return result;
  });
}

export interface LockRetry {
  /** How long each try waits for the lock. */
  timeout: string;
  attempts: number;
  /** The pause after the n-th failed try is n times this. */
  pauseMs: number;
}

/**
 * Runs `work` under `withLockTimeout`, again after a pause each time the lock was not had, at
 * most `attempts` times. Returns undefined when no try got the lock; other errors are thrown.
 */
export async function retryOnLockTimeout<T>(db: Knex, retry: LockRetry, work: (trx: Knex.Transaction) => Promise<T>): Promise<{ value: T } | undefined> {
  for (let attempt = 1; attempt <= retry.attempts; attempt++) {
    try {
      return { value: await withLockTimeout(db, retry.timeout, work) };
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      if (attempt < retry.attempts) await new Promise((resolve) => setTimeout(resolve, retry.pauseMs * attempt));
    }
  }
  return undefined;
}
