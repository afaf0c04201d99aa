// What operators see of deliveries and their attempts, and redelivery. A redelivery
// re-queues the same delivery (same id, same body bytes) due now, with a fresh retry
// schedule; X-Service-Attempt keeps counting so receivers can tell it from the originals.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { notifyDeliveriesQueued } from './delivery-wakeup.js';

export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryRecord {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  /** When a pending delivery is next attempted; null otherwise. */
  next_attempt_at: string | null;
  /** While `sending`: when the claim's lease ends. */
  lease_until: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AttemptRecord {
  attempt: number;
  started_at: string;
  duration_ms: number | null;
  response_status: number | null;
  error_class: string | null;
  worker_id: string | null;
}

const COLUMNS = ['id', 'subscription_id', 'event_id', 'event_type', 'status', 'attempts', 'last_status', 'last_error', 'last_attempt_at', 'due_at', 'created_at', 'completed_at'];

function toRecord(row: Record<string, unknown>): DeliveryRecord {
  const status = row.status as DeliveryStatus;
  const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: row.id as string,
    subscription_id: row.subscription_id as string,
    event_id: row.event_id as string,
    event_type: row.event_type as string,
    status,
    attempts: Number(row.attempts),
    last_status: nullableNumber(row.last_status),
    last_error: (row.last_error as string | null) ?? null,
    last_attempt_at: (row.last_attempt_at as string | null) ?? null,
    next_attempt_at: status === 'pending' ? (row.due_at as string) : null,
    lease_until: status === 'sending' ? (row.due_at as string) : null,
    created_at: row.created_at as string,
    completed_at: (row.completed_at as string | null) ?? null,
  };
}

export async function listDeliveries(
  db: Knex,
  filter: { orgId: string; status?: DeliveryStatus | undefined; subscriptionId?: string | undefined; limit?: number },
): Promise<DeliveryRecord[]> {
  let query = db('webhook_deliveries').where({ org_id: filter.orgId });
  if (filter.status) query = query.andWhere({ status: filter.status });
  if (filter.subscriptionId) query = query.andWhere({ subscription_id: filter.subscriptionId });
  const rows = await query.orderBy('seq', 'desc').limit(filter.limit ?? 1000).select(COLUMNS);
  return rows.map(toRecord);
}

/** The delivery, or undefined; with `orgId`, only a delivery of that organization (the console's). */
export async function findDelivery(db: Knex, id: string, orgId?: string): Promise<DeliveryRecord | undefined> {
  const row = await db('webhook_deliveries').where(orgId === undefined ? { id } : { id, org_id: orgId }).first(COLUMNS);
  return row ? toRecord(row) : undefined;
}

export async function attemptsOf(db: Knex, deliveryId: string): Promise<AttemptRecord[]> {
  const rows = await db('webhook_delivery_attempts').where({ delivery_id: deliveryId }).orderBy('attempt').select('attempt', 'started_at', 'duration_ms', 'response_status', 'error_class', 'worker_id');
  return rows.map((r: Record<string, unknown>) => ({
    attempt: Number(r.attempt),
    started_at: r.started_at as string,
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
    response_status: r.response_status === null ? null : Number(r.response_status),
    error_class: (r.error_class as string | null) ?? null,
    worker_id: (r.worker_id as string | null) ?? null,
  }));
}

/** Why a redelivery was refused, in words for the operator. */
export class RedeliveryRefused extends Error {}

export async function redeliver(db: Knex, id: string): Promise<DeliveryRecord> {
  // The record as this command left it, read before the commit: once committed, a worker may
  // claim it at once (on PostgreSQL the NOTIFY wakes one), and it would show as sending.
  return db.transaction(async (trx) => {
    const row = await trx('webhook_deliveries').where({ id }).first('status', 'subscription_id', 'attempts');
    if (!row) throw new RedeliveryRefused(`no delivery ${id}`);
    if (row.status === 'pending' || row.status === 'sending') throw new RedeliveryRefused(`delivery ${id} is already queued (${row.status})`);
    const subscription = await trx('webhook_subscriptions').where({ id: row.subscription_id }).first('status');
    if (subscription?.status !== 'active') {
      throw new RedeliveryRefused(`delivery ${id} belongs to subscription ${row.subscription_id}, which is ${subscription?.status ?? 'gone'}: nothing is delivered to it any more (register a new subscription)`);
    }
    const now = nowIso();
    await trx('webhook_deliveries')
      .where({ id })
      .whereIn('status', ['delivered', 'failed', 'cancelled'])
      .update({ status: 'pending', due_at: now, series_start: row.attempts, claim_token: null, completed_at: null });
    await notifyDeliveriesQueued(trx);
    return (await findDelivery(trx, id))!;
  });
}
