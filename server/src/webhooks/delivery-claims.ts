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
import { isPostgres, rawRows } from '../db/database.js';
import type { EventType } from '../db/event-types.js';
import type { AttemptDecision } from './retry-policy.js';
import type { AttemptErrorClass } from './delivery-sender.js';
import { endSubscription } from './subscriptions.js';
import { inPgTransaction, inSqliteTransaction, onPgConnection, type PgSession, type SqliteSession } from '../db/pooled-connection.js';

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
  /**
   * When it was claimed (epoch ms, the `last_attempt_at` written with the claim): the
   * attempt's recorded start. Whoever records the attempt (its worker, or the worker taking
   * its expired lease, as interrupted) knows this instant, so (delivery_id, attempt,
   * started_at) names one attempt, a key that holds across time partitions (PostgreSQL).
   */
  claimedAt: number;
  /** When the claim's lease ends (epoch ms, the `due_at` written with it): past it, another worker may take the delivery. */
  leaseEndsAt: number;
  callbackUrl: string;
  signingSecretEncrypted: string;
  /** The secret a rotation replaced, while its overlap may still last (secret-rotation.ts). */
  previousSigningSecretEncrypted: string | null;
  previousSecretExpiresAt: string | null;
  /** `webhook`, or `fhir-rest-hook` (a FHIR Subscription: sent as it is, with its channel headers, not signed). */
  kind: string;
  channelHeadersEncrypted: string | null;
  /** A FHIR Subscription's settings (its timeout), as JSON. */
  fhirSettings: string | null;
}

export interface ClaimOptions {
  /** How many deliveries this worker can take now. */
  limit: number;
  perSubscription: number;
  leaseMs: number;
  now?: number;
}

const DUE_STATUSES = ['pending', 'sending'];

interface CandidateRow {
  subscription_id: string;
  callback_url: string;
  signing_secret_encrypted: string;
  previous_signing_secret_encrypted: string | null;
  previous_secret_expires_at: string | null;
  kind: string;
  channel_headers_encrypted: string | null;
  fhir_settings: string | null;
}

interface ClaimedRow {
  id: string;
  event_id: string;
  subscription_id: string;
  event_type: string;
  body: string;
  /** Attempts made before this claim. */
  attempts: number;
  series_start: number;
}

// Every active subscription, probed (index webhook_deliveries_claim) for its oldest due
// delivery (pending, or sending past its lease) and its deliveries in flight: the cost of a
// claim follows the number of active subscriptions, not the length of the queue.
const SQLITE_CANDIDATES = `
  SELECT s.id AS subscription_id, s.callback_url, s.signing_secret_encrypted, s.previous_signing_secret_encrypted, s.previous_secret_expires_at,
    s.kind, s.channel_headers_encrypted, s.fhir_settings,
    (SELECT min(due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.due_at <= ?) AS oldest_pending,
    (SELECT min(due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'sending' AND d.due_at <= ?) AS oldest_expired,
    (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'sending' AND d.due_at > ?) AS in_flight
  FROM webhook_subscriptions s WHERE s.status = 'active'`;
const SQLITE_DUE = `
  SELECT seq, id, event_id, subscription_id, event_type, body, status, attempts, series_start, due_at, last_attempt_at
  FROM webhook_deliveries
  WHERE subscription_id = ? AND status = ? AND due_at <= ?
  ORDER BY due_at, seq LIMIT ?`;
const SQLITE_CLAIM_ROW = `UPDATE webhook_deliveries SET status = 'sending', due_at = ?, claim_token = ?, attempts = attempts + 1, last_attempt_at = ? WHERE seq = ?`;
// A delivery still `sending` past its lease lost its worker mid-attempt: that attempt is
// recorded as interrupted (unless its worker records it after all).
const SQLITE_INTERRUPTED = `
  INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, error_class) VALUES (?, ?, ?, 'interrupted')
  ON CONFLICT (delivery_id, attempt) DO NOTHING`;

type SqliteCandidate = CandidateRow & { oldest_pending: string | null; oldest_expired: string | null; in_flight: number };
type SqliteDueRow = ClaimedRow & { seq: number; status: string; due_at: string; last_attempt_at: string | null };

/** SQLite: one writer, and this runs synchronously inside one immediate transaction. */
function claimOnSqlite(session: SqliteSession, options: ClaimOptions, now: string, leaseEnd: string, claimToken: string): ClaimedDelivery[] {
  // Subscriptions with something due and room under their cap, the longest-waiting first.
  const candidates = (session.all(SQLITE_CANDIDATES, [now, now, now]) as unknown as SqliteCandidate[])
    .map((c) => ({ ...c, oldest: [c.oldest_pending, c.oldest_expired].filter((at) => at !== null).sort()[0] }))
    .filter((c) => c.oldest !== undefined && Number(c.in_flight) < options.perSubscription)
    .sort((a, b) => (a.oldest! < b.oldest! ? -1 : a.oldest! > b.oldest! ? 1 : 0));
  const claimed: ClaimedDelivery[] = [];
  let room = options.limit;
  for (const candidate of candidates) {
    if (room <= 0) break;
    const take = Math.min(room, options.perSubscription - Number(candidate.in_flight));
    const due = (status: string) => session.all(SQLITE_DUE, [candidate.subscription_id, status, now, take]) as unknown as SqliteDueRow[];
    let rows = due('pending');
    if (candidate.oldest_expired !== null) {
      rows = [...rows, ...due('sending')].sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : a.seq - b.seq)).slice(0, take);
    }
    for (const row of rows) {
      session.run(SQLITE_CLAIM_ROW, [leaseEnd, claimToken, now, row.seq]);
      if (row.status === 'sending') session.run(SQLITE_INTERRUPTED, [row.id, row.attempts, row.last_attempt_at ?? now]);
      claimed.push(claimedDelivery(row, candidate, claimToken, now, leaseEnd));
    }
    room -= rows.length;
  }
  return claimed;
}

// PostgreSQL, step 1: lock the candidate subscriptions (SKIP LOCKED: another worker is
// claiming for them right now), so two workers never both fill one cap. $4: the deliveries
// this cycle records in the same statement (PG_RECORD_AND_LOCK), whose moves that statement
// cannot see yet; they no longer count as in flight. The count only picks candidates: step
// 2, a statement of its own, sees the records and computes the room itself. (OFFSET 0 keeps
// the planner from inlining `c` and running each probe twice, for the filter and the sort.)
const PG_LOCK_CANDIDATES = `
  SELECT s.id AS subscription_id, s.callback_url, s.signing_secret_encrypted,
         s.previous_signing_secret_encrypted, s.previous_secret_expires_at,
         s.kind, s.channel_headers_encrypted, s.fhir_settings
  FROM webhook_subscriptions s
  CROSS JOIN LATERAL (
    SELECT least(
      (SELECT min(d.due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.due_at <= $1),
      (SELECT min(d.due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'sending' AND d.due_at <= $1)
    ) AS oldest,
    (SELECT count(*) FROM webhook_deliveries f WHERE f.subscription_id = s.id AND f.status = 'sending' AND f.due_at > $1 AND f.id <> ALL ($4::uuid[])) AS in_flight
    OFFSET 0
  ) c
  WHERE s.status = 'active' AND c.oldest IS NOT NULL AND c.in_flight < $2
  ORDER BY c.oldest
  LIMIT $3
  FOR UPDATE OF s SKIP LOCKED`;
// Step 2, in a statement of its own (so its snapshot sees every claim committed before the
// locks were granted): each locked subscription's room under its cap, shared out in the
// order of step 1 up to the worker's limit; its oldest due deliveries locked (SKIP LOCKED),
// leased, and the interrupted attempts of expired leases recorded. (`subs` is materialized:
// inlined, its two probes per subscription ran once for each use of `room`.)
const PG_CLAIM = `
  WITH subs AS MATERIALIZED (
    SELECT s.id, s.ord,
      LEAST(
        $3::int - (SELECT count(*) FROM webhook_deliveries f WHERE f.subscription_id = s.id AND f.status = 'sending' AND f.due_at > $2)::int,
        (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status IN ('pending', 'sending') AND d.due_at <= $2 LIMIT $3) due)::int
      ) AS room
    FROM unnest($1::uuid[]) WITH ORDINALITY AS s(id, ord)
  ),
  takes AS (
    SELECT id, GREATEST(0, LEAST(room, $4::int - COALESCE(sum(GREATEST(room, 0)) OVER (ORDER BY ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::int)) AS take
    FROM subs
  ),
  -- Pending and expired-lease deliveries apart, each an ordered range of the claim index.
  pending AS (
    SELECT takes.id AS subscription_id, takes.take, d.* FROM takes CROSS JOIN LATERAL (
      SELECT seq, status, attempts, last_attempt_at, due_at FROM webhook_deliveries d
      WHERE d.subscription_id = takes.id AND d.status = 'pending' AND d.due_at <= $2
      ORDER BY d.due_at, d.seq LIMIT takes.take
      FOR UPDATE SKIP LOCKED
    ) d
  ),
  expired AS (
    SELECT takes.id AS subscription_id, takes.take, d.* FROM takes CROSS JOIN LATERAL (
      SELECT seq, status, attempts, last_attempt_at, due_at FROM webhook_deliveries d
      WHERE d.subscription_id = takes.id AND d.status = 'sending' AND d.due_at <= $2
      ORDER BY d.due_at, d.seq LIMIT takes.take
      FOR UPDATE SKIP LOCKED
    ) d
  ),
  picked AS (
    SELECT seq, status AS was, attempts AS tried, last_attempt_at AS tried_at FROM (
      SELECT *, row_number() OVER (PARTITION BY subscription_id ORDER BY due_at, seq) AS n
      FROM (SELECT * FROM pending UNION ALL SELECT * FROM expired) both_kinds
    ) ranked
    WHERE n <= take
  ),
  claimed AS (
    UPDATE webhook_deliveries d
    SET status = 'sending', due_at = $5, claim_token = $6, attempts = d.attempts + 1, last_attempt_at = $2
    FROM picked WHERE d.seq = picked.seq AND d.seq = ANY (ARRAY(SELECT seq FROM picked))
    RETURNING d.seq, d.id, d.event_id, d.subscription_id, d.event_type, d.body, picked.tried AS attempts, d.series_start, picked.was, picked.tried_at
  ),
  interrupted AS (
    INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, error_class)
    SELECT id, attempts, COALESCE(tried_at, $2), 'interrupted' FROM claimed WHERE was = 'sending'
    ON CONFLICT (delivery_id, attempt, started_at) DO NOTHING
  )
  SELECT id, event_id, subscription_id, event_type, body, attempts, series_start FROM claimed ORDER BY seq`;

/** Step 2 for the candidates step 1 locked. */
async function claimOnPostgres(session: PgSession, candidates: readonly CandidateRow[], options: ClaimOptions, now: string, leaseEnd: string, claimToken: string): Promise<ClaimedDelivery[]> {
  if (candidates.length === 0) return [];
  const bySubscription = new Map(candidates.map((c) => [c.subscription_id, c]));
  const rows = (await session.query(PG_CLAIM, [candidates.map((c) => c.subscription_id), now, options.perSubscription, options.limit, leaseEnd, claimToken])) as unknown as ClaimedRow[];
  return rows.map((row) => claimedDelivery(row, bySubscription.get(row.subscription_id)!, claimToken, now, leaseEnd));
}

function claimedDelivery(row: ClaimedRow, subscription: CandidateRow, claimToken: string, claimedAt: string, leaseEnd: string): ClaimedDelivery {
  const attempt = Number(row.attempts) + 1;
  return {
    id: row.id,
    eventId: row.event_id,
    subscriptionId: row.subscription_id,
    eventType: row.event_type as EventType,
    body: row.body,
    attempt,
    attemptInSeries: attempt - Number(row.series_start),
    claimToken,
    claimedAt: Date.parse(claimedAt),
    leaseEndsAt: Date.parse(leaseEnd),
    callbackUrl: subscription.callback_url,
    signingSecretEncrypted: subscription.signing_secret_encrypted,
    previousSigningSecretEncrypted: subscription.previous_signing_secret_encrypted ?? null,
    previousSecretExpiresAt: subscription.previous_secret_expires_at ?? null,
    kind: subscription.kind ?? 'webhook',
    channelHeadersEncrypted: subscription.channel_headers_encrypted ?? null,
    fhirSettings: subscription.fhir_settings ?? null,
  };
}

export interface RecordedAttempt {
  /** The claim's instant (ClaimedDelivery.claimedAt): part of the attempt's key. */
  startedAt: number;
  durationMs: number | null;
  status: number | null;
  errorClass: AttemptErrorClass | null;
  workerId: string;
}

/** The delivery's new state for a decision; `released` hands it back untouched by the schedule. */
export type DeliveryTransition = AttemptDecision | { kind: 'released' };

/** An attempt whose outcome is to be recorded with others (every transition but `disable`). */
export interface FinishedAttempt {
  claim: ClaimedDelivery;
  attempt: RecordedAttempt;
  transition: Exclude<DeliveryTransition, { kind: 'disable' }>;
}

/** The delivery's columns after a transition. */
function nextState(transition: FinishedAttempt['transition'], now: number): { status: string; dueAt: string | null; completedAt: string | null } {
  const at = nowIso(now);
  switch (transition.kind) {
    case 'delivered':
      return { status: 'delivered', dueAt: null, completedAt: at };
    case 'retry':
      return { status: 'pending', dueAt: nowIso(now + transition.delayMs), completedAt: null };
    case 'released':
      return { status: 'pending', dueAt: at, completedAt: null };
    case 'failed':
      return { status: 'failed', dueAt: null, completedAt: at };
  }
}

const SQLITE_RECORD_ATTEMPT = `
  INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error_class, worker_id)
  VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (delivery_id, attempt) DO UPDATE SET duration_ms = excluded.duration_ms,
    response_status = excluded.response_status, error_class = excluded.error_class, worker_id = excluded.worker_id`;
// Only the holder of the current claim moves the delivery on.
const SQLITE_MOVE_ON = `
  UPDATE webhook_deliveries SET status = ?, due_at = ?, completed_at = coalesce(?, completed_at), last_status = ?, last_error = ?, claim_token = NULL
  WHERE id = ? AND claim_token = ? AND status = 'sending'`;
// PostgreSQL: every outcome of the batch in one statement (arrays, unnested), one round trip.
const PG_RECORD_CTES = `
  o AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
      AS o(id, token, attempt, started_at, duration_ms, response_status, error_class, worker_id, status, due_at, completed_at)
  ),
  attempts AS (
    INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error_class, worker_id)
    SELECT id, attempt, started_at, duration_ms, response_status, error_class, worker_id FROM o
    ON CONFLICT (delivery_id, attempt, started_at) DO UPDATE SET duration_ms = excluded.duration_ms,
      response_status = excluded.response_status, error_class = excluded.error_class, worker_id = excluded.worker_id
  ),
  recorded AS (
    UPDATE webhook_deliveries d
    SET status = o.status, due_at = o.due_at, completed_at = COALESCE(o.completed_at, d.completed_at),
        last_status = o.response_status, last_error = o.error_class, claim_token = NULL
    FROM o WHERE d.id = o.id AND d.id = ANY ($1::uuid[]) AND d.claim_token = o.token AND d.status = 'sending'
    RETURNING d.id
  )`;
const PG_RECORD = `WITH ${PG_RECORD_CTES} SELECT id FROM recorded`;
// A cycle's records and step 1 of its claim in one statement, one round trip fewer per cycle
// (the worker on PostgreSQL waits on round trips, not CPU). Data-modifying CTEs always run
// to completion; the first row carries the recorded ids (as text, once: pg parses an array
// column on every row), whether or not a candidate is locked.
const PG_RECORD_AND_LOCK = `
  WITH ${PG_RECORD_CTES},
  locked AS (${PG_LOCK_CANDIDATES.replace(/\$(\d+)\b/g, (_, n: string) => ({ '1': '$12', '2': '$13', '3': '$14', '4': '$1' })[n]!)})
  SELECT CASE WHEN coalesce(locked.n, 1) = 1 THEN (SELECT coalesce(string_agg(id::text, ','), '') FROM recorded) END AS recorded_ids, locked.*
  FROM (SELECT 1) one LEFT JOIN (SELECT *, row_number() OVER () AS n FROM locked) locked ON true`;

/**
 * The unique key an attempt is upserted on. On PostgreSQL it holds the partition key
 * (started_at, migration 044); SQLite keeps (delivery_id, attempt). Either names one attempt:
 * its started_at is its claim's instant, known to everyone recording it.
 */
function attemptKey(db: Knex): string[] {
  return isPostgres(db) ? ['delivery_id', 'attempt', 'started_at'] : ['delivery_id', 'attempt'];
}

type OutcomeRow = FinishedAttempt & ReturnType<typeof nextState>;

function recordOnSqlite(session: SqliteSession, rows: readonly OutcomeRow[]): Set<string> {
  const mine = new Set<string>();
  for (const { claim, attempt, status, dueAt, completedAt } of rows) {
    session.run(SQLITE_RECORD_ATTEMPT, [claim.id, claim.attempt, nowIso(attempt.startedAt), attempt.durationMs, attempt.status, attempt.errorClass, attempt.workerId]);
    if (session.run(SQLITE_MOVE_ON, [status, dueAt, completedAt, attempt.status, attempt.errorClass, claim.id, claim.claimToken]) > 0) mine.add(claim.id);
  }
  return mine;
}

function outcomeColumns(rows: readonly OutcomeRow[]): unknown[][] {
  const column = <T>(pick: (row: OutcomeRow) => T) => rows.map(pick);
  return [
    column((r) => r.claim.id),
    column((r) => r.claim.claimToken),
    column((r) => r.claim.attempt),
    column((r) => nowIso(r.attempt.startedAt)),
    column((r) => r.attempt.durationMs),
    column((r) => r.attempt.status),
    column((r) => r.attempt.errorClass),
    column((r) => r.attempt.workerId),
    column((r) => r.status),
    column((r) => r.dueAt),
    column((r) => r.completedAt),
  ];
}

async function recordOnPostgres(session: PgSession, rows: readonly OutcomeRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const updated = await session.query(PG_RECORD, outcomeColumns(rows));
  return new Set(updated.map((row) => row.id as string));
}

/** Records the outcomes and locks the claim's candidate subscriptions, in one statement. */
async function recordAndLockOnPostgres(session: PgSession, rows: readonly OutcomeRow[], options: ClaimOptions, now: string): Promise<{ recorded: Set<string>; candidates: CandidateRow[] }> {
  if (rows.length === 0) {
    const candidates = (await session.query(PG_LOCK_CANDIDATES, [now, options.perSubscription, options.limit, []])) as unknown as CandidateRow[];
    return { recorded: new Set(), candidates };
  }
  const result = await session.query(PG_RECORD_AND_LOCK, [...outcomeColumns(rows), now, options.perSubscription, options.limit]);
  const ids = (result[0]?.recorded_ids as string | null) ?? '';
  const recorded = new Set(ids === '' ? [] : ids.split(','));
  const candidates = result.filter((row) => row.subscription_id !== null) as unknown as CandidateRow[];
  return { recorded, candidates };
}

export interface CycleResult {
  /** The ids of the recorded attempts whose claim was still this worker's. */
  recorded: Set<string>;
  claimed: ClaimedDelivery[];
}

/**
 * One cycle of the worker, in one transaction: records finished attempts and moves their
 * deliveries on, then (with `claim`) claims up to `claim.limit` due deliveries, fairly
 * between subscriptions and within their caps (which the records just freed). Of the
 * recorded attempts, `recorded` names those whose claim was still this worker's; for the
 * others (lease expired and re-claimed, or cancelled meanwhile) the attempt is recorded and
 * the delivery left to its current owner.
 */
export async function recordAndClaim(db: Knex, finished: readonly FinishedAttempt[], claim?: ClaimOptions): Promise<CycleResult> {
  const nowMs = claim?.now ?? Date.now();
  const rows = finished.map((f) => ({ ...f, ...nextState(f.transition, nowMs) }));
  const claiming = claim !== undefined && claim.limit > 0;
  if (!claiming && rows.length === 0) return { recorded: new Set(), claimed: [] };
  const now = nowIso(nowMs);
  const leaseEnd = nowIso(nowMs + (claim?.leaseMs ?? 0));
  const claimToken = randomBytes(16).toString('hex');
  if (isPostgres(db)) {
    if (!claiming) return { recorded: await onPgConnection(db, (session) => recordOnPostgres(session, rows)), claimed: [] };
    return inPgTransaction(db, async (session) => {
      const { recorded, candidates } = await recordAndLockOnPostgres(session, rows, claim, now);
      return { recorded, claimed: await claimOnPostgres(session, candidates, claim, now, leaseEnd, claimToken) };
    });
  }
  return inSqliteTransaction(db, (session) => ({
    recorded: recordOnSqlite(session, rows),
    claimed: claiming ? claimOnSqlite(session, claim, now, leaseEnd, claimToken) : [],
  }));
}

/** Claims up to `limit` due deliveries in one transaction, fairly between subscriptions and within their caps. */
export async function claimDueDeliveries(db: Knex, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  return (await recordAndClaim(db, [], options)).claimed;
}

/** Records finished attempts in one transaction; the ids whose claim was still this worker's. */
export async function recordAttempts(db: Knex, finished: readonly FinishedAttempt[]): Promise<Set<string>> {
  return (await recordAndClaim(db, finished)).recorded;
}

/**
 * Records one attempt and moves the delivery on. Returns false when the claim was no
 * longer this worker's. A 410 (`disable`) ends the subscription in the same transaction.
 */
export async function recordAttempt(db: Knex, claim: ClaimedDelivery, attempt: RecordedAttempt, transition: DeliveryTransition): Promise<boolean> {
  if (transition.kind !== 'disable') return (await recordAttempts(db, [{ claim, attempt, transition }])).has(claim.id);
  const at = nowIso();
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
      .onConflict(attemptKey(trx))
      .merge(['duration_ms', 'response_status', 'error_class', 'worker_id']);
    // 410 Gone: the receiver says this endpoint is gone for good.
    // The subscription row first: concurrent 410s of one subscription then queue here
    // instead of each locking its delivery and then waiting for the others' (deadlock).
    if (isPostgres(trx)) await trx('webhook_subscriptions').where({ id: claim.subscriptionId }).forUpdate().first('id');
    const updated = await trx('webhook_deliveries')
      .where({ id: claim.id, claim_token: claim.claimToken, status: 'sending' })
      .update({ last_status: attempt.status, last_error: attempt.errorClass, claim_token: null, status: 'failed', due_at: null, completed_at: at });
    await endSubscription(trx, claim.subscriptionId, 'disabled', { exceptDeliveryId: claim.id, reason: 'endpoint_gone' });
    return updated > 0;
  });
}

// The earliest due time of each subscription's pending and sending deliveries: two ranges of
// the claim index per subscription (migration 010 dropped the (status, due_at) index).
const NEXT_DUE_SQL = `
  SELECT min(at) AS at FROM (
    ${DUE_STATUSES.map((status) => `SELECT (SELECT min(d.due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = '${status}') AS at FROM webhook_subscriptions s`).join(' UNION ALL ')}
  ) due`;

/** The earliest time anything becomes due (a retry or an expiring lease), or null. */
export async function nextDueAt(db: Knex): Promise<number | null> {
  const at = rawRows<{ at: string | null }>(await db.raw(NEXT_DUE_SQL))[0]?.at;
  return at ? Date.parse(at) : null;
}
