// Every eligibility exchange and what came of it (eligibility_exchanges), for `ops eligibility
// log` and `ops eligibility check`: its trigger, times, outcome, the AAA / 999 / CORE / HTTP
// codes, the control number and PayloadID, and the raw 270 and 271 (PHI: shown only with
// --raw). Kept as long as the audit trail (AUDIT_RETENTION_DAYS, retention/purge-expired.ts).
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { CheckTrigger } from './check-queue.js';

export const OUTCOMES = ['active', 'inactive', 'rejected', 'error', 'not_checkable'] as const;
export type EligibilityOutcome = (typeof OUTCOMES)[number];

export interface ExchangeCodes {
  /** AAA segments of the 271: reject reason (AAA03) and follow-up action (AAA04). */
  aaa?: Array<{ code: string; action?: string; reason: string }>;
  /** A 999 that refused the 270. */
  ack?: { code: string; errors: Array<{ segment?: string; element?: string; code: string; description: string }> };
  /** The CORE envelope's ErrorCode when not Success (or what was wrong with the envelope). */
  core?: { code: string; message?: string };
  /** The HTTP status when the answer was not a success. */
  http_status?: number;
  /** The transport failure (timeout, connection_refused, tls...). */
  error_class?: string;
}

/** What one exchange gave (eligibility-exchange.ts), as it is recorded. */
export interface ExchangeFacts {
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  outcome: EligibilityOutcome;
  /** Coverage.status after the exchange. */
  coverageStatus: string | null;
  detail: string;
  codes?: ExchangeCodes;
  payloadId?: string;
  controlNumber?: string;
  requestX12?: string;
  responseX12?: string;
}

export interface ExchangeRecord extends ExchangeFacts {
  orgId: string;
  facilityId: string;
  coverageId: string;
  trigger: CheckTrigger;
  connectionId: string | null;
  retrying: boolean;
}

export interface LoggedExchange {
  id: string;
  coverage_id: string;
  facility_id: string;
  trigger: CheckTrigger;
  connection_id: string | null;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  outcome: EligibilityOutcome;
  retrying: boolean;
  coverage_status: string | null;
  detail: string;
  codes: ExchangeCodes | null;
  payload_id: string | null;
  control_number: string | null;
  /** With --raw only. */
  request_x12?: string | null;
  response_x12?: string | null;
}

/** The exchange's row in eligibility_exchanges, with a new id (written with its check's settlement: exchange-settlement.ts). */
export function exchangeRow(record: ExchangeRecord): Record<string, unknown> & { id: string } {
  return {
    id: randomUUID(),
    org_id: record.orgId,
    facility_id: record.facilityId,
    coverage_id: record.coverageId,
    trigger: record.trigger,
    connection_id: record.connectionId,
    started_at: record.startedAt,
    finished_at: record.finishedAt,
    duration_ms: record.durationMs,
    outcome: record.outcome,
    retrying: record.retrying,
    coverage_status: record.coverageStatus,
    detail: record.detail,
    codes: record.codes && Object.keys(record.codes).length ? JSON.stringify(record.codes) : null,
    payload_id: record.payloadId ?? null,
    control_number: record.controlNumber ?? null,
    request_x12: record.requestX12 ?? null,
    response_x12: record.responseX12 ?? null,
  };
}

function loggedOf(row: Record<string, unknown>, raw: boolean): LoggedExchange {
  return {
    id: row.id as string,
    coverage_id: row.coverage_id as string,
    facility_id: row.facility_id as string,
    trigger: row.trigger as CheckTrigger,
    connection_id: (row.connection_id as string | null) ?? null,
    started_at: row.started_at as string,
    finished_at: row.finished_at as string,
    duration_ms: Number(row.duration_ms),
    outcome: row.outcome as EligibilityOutcome,
    retrying: Boolean(row.retrying),
    coverage_status: (row.coverage_status as string | null) ?? null,
    detail: row.detail as string,
    codes: row.codes ? (JSON.parse(row.codes as string) as ExchangeCodes) : null,
    payload_id: (row.payload_id as string | null) ?? null,
    control_number: (row.control_number as string | null) ?? null,
    ...(raw ? { request_x12: (row.request_x12 as string | null) ?? null, response_x12: (row.response_x12 as string | null) ?? null } : {}),
  };
}

export interface LogQuery {
  orgId: string;
  coverageId?: string;
  facilityId?: string;
  /** ISO instant: exchanges finished at or after it. */
  since?: string;
  limit: number;
  raw?: boolean;
}

/** The organization's exchanges, newest first. */
export async function listExchanges(db: Knex, query: LogQuery): Promise<LoggedExchange[]> {
  let q = db('eligibility_exchanges').where({ org_id: query.orgId });
  if (query.coverageId) q = q.andWhere({ coverage_id: query.coverageId });
  if (query.facilityId) q = q.andWhere({ facility_id: query.facilityId });
  if (query.since) q = q.andWhere('finished_at', '>=', query.since);
  const rows = (await q.orderBy('seq', 'desc').limit(query.limit)) as Array<Record<string, unknown>>;
  return rows.map((r) => loggedOf(r, query.raw === true));
}

/** The first exchange of each Coverage that started at or after `since` (the CLI waits for them). */
export async function exchangesSince(db: Knex, coverageIds: string[], since: string): Promise<Map<string, LoggedExchange>> {
  const found = new Map<string, LoggedExchange>();
  for (let i = 0; i < coverageIds.length; i += 500) {
    const rows = (await db('eligibility_exchanges').whereIn('coverage_id', coverageIds.slice(i, i + 500)).andWhere('started_at', '>=', since)
      // Implied (an exchange finishes after it starts), and names the partition key: on
      // PostgreSQL only the months since `since` are read (db/history-tables.ts).
      .andWhere('finished_at', '>=', since).orderBy('seq')) as Array<Record<string, unknown>>;
    for (const row of rows) if (!found.has(row.coverage_id as string)) found.set(row.coverage_id as string, loggedOf(row, false));
  }
  return found;
}
