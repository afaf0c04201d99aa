// The figures of the console's overview, each read in one query scoped to the session's
// organization: its webhook subscriptions (queued deliveries, failing since, disabled), its
// bulk exports under way, its eligibility checks (queued, and exchanges of the last 24 hours
// by outcome), and the MLLP connections open on this instance by source address.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';

export interface SubscriptionFigures {
  id: string;
  callback_url: string;
  status: string;
  disabled_reason: string | null;
  failing_since: string | null;
  queued: number;
  failed: number;
}

export interface ExportFigures {
  id: string;
  facility_id: string;
  client_id: string;
  status: string;
  created_at: string;
}

export interface EligibilityFigures {
  queued: number;
  /** Exchanges of the last 24 hours by outcome. */
  lastDay: Array<{ outcome: string; count: number }>;
}

export interface ConnectionFigures {
  source: string;
  open: number;
}

export interface OverviewFigures {
  subscriptions: SubscriptionFigures[];
  exports: ExportFigures[];
  eligibility: EligibilityFigures;
  /** Undefined when this instance runs no MLLP listener. */
  connections: ConnectionFigures[] | undefined;
}

export async function subscriptionFigures(db: Knex, orgId: string): Promise<SubscriptionFigures[]> {
  const counts = db('webhook_deliveries')
    .where({ org_id: orgId })
    .whereIn('status', ['pending', 'sending', 'failed'])
    .groupBy('subscription_id')
    .select('subscription_id')
    .select(db.raw("sum(case when status = 'failed' then 0 else 1 end) as queued"), db.raw("sum(case when status = 'failed' then 1 else 0 end) as failed"))
    .as('c');
  const rows = (await db('webhook_subscriptions as s')
    .leftJoin(counts, 'c.subscription_id', 's.id')
    .where('s.org_id', orgId)
    .orderBy('s.seq')
    .select('s.id', 's.callback_url', 's.status', 's.disabled_reason', 's.failing_since', 'c.queued', 'c.failed')) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    id: r.id as string,
    callback_url: r.callback_url as string,
    status: r.status as string,
    disabled_reason: (r.disabled_reason as string | null) ?? null,
    failing_since: (r.failing_since as string | null) ?? null,
    queued: Number(r.queued ?? 0),
    failed: Number(r.failed ?? 0),
  }));
}

export async function runningExports(db: Knex, orgId: string): Promise<ExportFigures[]> {
  return (await db('bulk_export_jobs').where({ org_id: orgId }).whereIn('status', ['queued', 'running']).orderBy('created_at').limit(100).select('id', 'facility_id', 'client_id', 'status', 'created_at')) as ExportFigures[];
}

export async function eligibilityFigures(db: Knex, orgId: string, now = Date.now()): Promise<EligibilityFigures> {
  const [queued, lastDay] = await Promise.all([
    db('eligibility_checks').where({ org_id: orgId }).whereNotNull('due_at').andWhere('due_at', '<=', nowIso(now)).count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
    db('eligibility_exchanges').where({ org_id: orgId }).andWhere('started_at', '>=', nowIso(now - 86_400_000)).groupBy('outcome').orderBy('outcome').select('outcome').count({ n: '*' }) as Promise<Array<{ outcome: string; n: number | string }>>,
  ]);
  return { queued: Number(queued?.n ?? 0), lastDay: lastDay.map((r) => ({ outcome: r.outcome, count: Number(r.n) })) };
}

export interface FeedRow {
  road: string;
  source: string;
  peer: string | null;
  messagesLastHour: number;
  refusedLastHour: number;
  refusedLastDay: number;
  lastMessageAt: string;
}

/**
 * The organization's feeds: every source (MLLP peer address, ingest credential) that sent in
 * the last 24 hours, by road, from the message store's rows (inbound_messages, through its
 * (org_id, received_at) index). A reprocess is no message received: its rows are left out.
 */
export async function feedFigures(db: Knex, orgId: string, now = Date.now()): Promise<FeedRow[]> {
  const hourAgo = nowIso(now - 3_600_000);
  const rows = (await db('inbound_messages')
    .where('org_id', orgId)
    .andWhere('received_at', '>=', nowIso(now - 86_400_000))
    .whereNull('reprocess_of')
    .groupBy('road', 'source_peer', 'source_client_id')
    .select('road', 'source_peer', 'source_client_id')
    .select(
      db.raw('sum(case when received_at >= ? then 1 else 0 end) as last_hour', [hourAgo]),
      db.raw("sum(case when received_at >= ? and status = 'refused' then 1 else 0 end) as refused_last_hour", [hourAgo]),
      db.raw("sum(case when status = 'refused' then 1 else 0 end) as refused_last_day"),
      db.raw('max(received_at) as last_at'),
    )
    .orderBy('road')) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    road: r.road as string,
    source: (r.source_peer as string | null) ?? (r.source_client_id as string | null) ?? 'ops import',
    peer: (r.source_peer as string | null) ?? null,
    messagesLastHour: Number(r.last_hour ?? 0),
    refusedLastHour: Number(r.refused_last_hour ?? 0),
    refusedLastDay: Number(r.refused_last_day ?? 0),
    lastMessageAt: r.last_at as string,
  }));
}
