// Waking delivery workers as soon as deliveries are queued, instead of at their next poll.
// In-process, the enqueuer calls the worker directly. Across processes (the ops CLI,
// other instances) PostgreSQL carries a NOTIFY, sent inside the enqueue transaction so it
// fires at commit, to a LISTEN on a dedicated connection. Polling stays the fallback: a
// lost notification (listener reconnecting) only delays a delivery until the next poll.
import type { Knex } from 'knex';
import pg from 'pg';
import { isPostgres } from '../db/database.js';
import type { Logger } from '../logging/logger.js';

export const DELIVERY_CHANNEL = 'ofctx_webhook_deliveries';
const RECONNECT_DELAY_MS = 1000;

/** The delivery workers of this process on SQLite (normally one), woken by every enqueue. */
const sqliteWorkers = new Set<() => void>();

/** Wakes `wake` whenever deliveries are queued in this process on SQLite; returns the way out. */
export function wakeOnSqliteEnqueue(wake: () => void): () => void {
  sqliteWorkers.add(wake);
  return () => sqliteWorkers.delete(wake);
}

/**
 * Inside the enqueuing transaction. PostgreSQL delivers the notification at commit. On
 * SQLite one process holds the database, so its worker is woken directly, whichever code
 * queued (ingestion, HL7, X12, a redelivery): its claim waits for the single connection,
 * that is for this transaction to end, then sees the new deliveries. Without it they waited
 * for the next poll (up to WEBHOOK_POLL_INTERVAL_MS, 1 s by default).
 */
export async function notifyDeliveriesQueued(db: Knex | Knex.Transaction): Promise<void> {
  if (isPostgres(db as Knex)) await db.raw('SELECT pg_notify(?, ?)', [DELIVERY_CHANNEL, '']);
  else for (const wake of sqliteWorkers) setImmediate(wake);
}

/** Runs an insert of deliveries and their wake-up: on PostgreSQL as one statement (a data-modifying CTE and the NOTIFY), one round trip instead of two. */
export async function insertAndNotifyDeliveriesQueued(trx: Knex.Transaction, insert: Knex.QueryBuilder): Promise<void> {
  if (!isPostgres(trx as unknown as Knex)) {
    await insert;
    await notifyDeliveriesQueued(trx);
    return;
  }
  const { sql, bindings } = insert.toSQL();
  await trx.raw(`with queued as (${sql}) select pg_notify(?, ?)`, [...bindings, DELIVERY_CHANNEL, ''] as Knex.RawBinding[]);
}

/** PostgreSQL: the wake-up as a query, to ride as the primary query of a statement of inserts (db/insert-batch.ts). */
export function deliveriesQueuedNotice(trx: Knex.Transaction): Knex.QueryBuilder {
  return trx.select(trx.raw('pg_notify(?, ?)', [DELIVERY_CHANNEL, '']));
}

export class PostgresWakeupListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly onWake: () => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    this.client = client;
    const lost = (reason: string) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      if (this.stopped) return;
      this.logger.warn({ reason }, 'webhook wake-up listener lost its connection; reconnecting (polling continues)');
      this.retry = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
      this.retry.unref();
    };
    client.on('notification', () => this.onWake());
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection ended'));
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
      // Anything queued while not listening is picked up now rather than at the next poll.
      this.onWake();
    } catch (error) {
      lost((error as Error).message);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
