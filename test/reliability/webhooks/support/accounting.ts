// Accounts for every delivery of an organization: read back from the database (deliveries and
// every attempt) and checked against what the receivers actually got. Returns the problems
// found (empty when all is well) and the figures. The promises checked:
//   - none silently lost: every delivery ends delivered (and arrived, answered 2xx), failed
//     after its whole schedule or on 410, or cancelled because its subscription was disabled;
//   - every arrival is signed (plain HMAC-SHA256 over the raw bytes received) and carries the
//     same bytes and the same delivery id on every arrival;
//   - attempts are numbered 1..n without gaps, recorded in order, never overlapping, and
//     spaced at least as the retry schedule and Retry-After ask;
//   - what the database says of each attempt is what the receiver saw (status answered,
//     refused connection = no arrival, a dropped answer = a timeout or a reset);
//   - no delivery is ever sent twice at once, and any duplicate has a reason on record.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { IncomingHttpHeaders } from 'node:http';

export interface ArrivalLike {
  deliveryId: string;
  attempt: number;
  body: Buffer;
  headers: IncomingHttpHeaders;
  arrivedAt: number;
  /** The status answered; undefined when the connection went away first. */
  answered?: number;
  /** The receiver took the delivery in (meant to answer 2xx), whether or not its answer got back. */
  accepted?: boolean;
  concurrentSameDelivery: number;
}

export interface SubscriptionUnderTest {
  id: string;
  secret: string;
  arrivals: () => ArrivalLike[];
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  subscription_id: string;
  event_type: string;
  body: string;
  status: string;
  attempts: number;
  series_start: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number | null;
  response_status: number | null;
  error_class: string | null;
  worker_id: string | null;
}

export interface AccountingOptions {
  /** Seconds, as WEBHOOK_RETRY_SCHEDULE. */
  schedule: number[];
  /** Crash cases: attempts may be `interrupted` (a lease expired) and be re-sent. */
  allowInterrupted?: boolean;
  /** What the receivers' 429 answers ask for (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** Milliseconds of slack for clock rounding in the spacing checks. */
  slackMs?: number;
}

export interface Accounting {
  problems: string[];
  deliveries: number;
  delivered: number;
  failed: number;
  /** Failed on a 410 answer (the subscription is disabled). */
  gone: number;
  cancelled: number;
  unsettled: number;
  arrivals: number;
  /** Arrivals of a delivery after one the receiver had already taken in (answered 2xx, or meant to but too late). */
  duplicates: number;
  /** Requests of a delivery that arrived while another of the same delivery was open. */
  concurrentDuplicates: number;
  attempts: number;
  errorClasses: Record<string, number>;
  /** Attempts not on record at all, or arrivals not accounted for. */
  lost: number;
  rows: DeliveryRow[];
  attemptRows: AttemptRow[];
}

export function hmacHex(secret: string, body: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

function signatureValid(secret: string, body: Buffer, header: unknown): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
  return timingSafeEqual(Buffer.from(hmacHex(secret, body), 'hex'), Buffer.from(header, 'hex'));
}

const is2xx = (s: number | null | undefined) => typeof s === 'number' && s >= 200 && s <= 299;

export async function readDeliveries(db: Knex, orgId: string): Promise<{ rows: DeliveryRow[]; attempts: AttemptRow[] }> {
  const rows = (await db('webhook_deliveries')
    .where({ org_id: orgId })
    .orderBy('seq')
    .select('id', 'event_id', 'subscription_id', 'event_type', 'body', 'status', 'attempts', 'series_start', 'last_status', 'last_error', 'created_at', 'completed_at')) as DeliveryRow[];
  const attempts = (await db('webhook_delivery_attempts as a')
    .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .where('d.org_id', orgId)
    .orderBy([{ column: 'a.delivery_id' }, { column: 'a.attempt' }])
    .select('a.delivery_id', 'a.attempt', 'a.started_at', 'a.duration_ms', 'a.response_status', 'a.error_class', 'a.worker_id')) as AttemptRow[];
  for (const r of rows) {
    r.attempts = Number(r.attempts);
    r.series_start = Number(r.series_start);
    r.last_status = r.last_status === null ? null : Number(r.last_status);
  }
  for (const a of attempts) {
    a.attempt = Number(a.attempt);
    a.duration_ms = a.duration_ms === null ? null : Number(a.duration_ms);
    a.response_status = a.response_status === null ? null : Number(a.response_status);
  }
  return { rows, attempts };
}

/** Deliveries of an organization still queued (pending, or sending under a lease). */
export async function unsettledCount(db: Knex, orgId: string): Promise<number> {
  const row = await db('webhook_deliveries').where({ org_id: orgId }).whereIn('status', ['pending', 'sending']).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/**
 * Settled: nothing queued, and every attempt made is on record. (A delivery cancelled while
 * an attempt of it is in flight is final at once; that attempt is recorded when it ends.)
 */
export async function settled(db: Knex, orgId: string): Promise<boolean> {
  if ((await unsettledCount(db, orgId)) > 0) return false;
  const made = await db('webhook_deliveries').where({ org_id: orgId }).sum({ n: 'attempts' }).first();
  const recorded = await db('webhook_delivery_attempts as a').join('webhook_deliveries as d', 'd.id', 'a.delivery_id').where('d.org_id', orgId).count({ n: '*' }).first();
  return Number(made?.n ?? 0) === Number(recorded?.n ?? 0);
}

export async function account(db: Knex, orgId: string, subscriptions: SubscriptionUnderTest[], options: AccountingOptions): Promise<Accounting> {
  const slack = options.slackMs ?? 15;
  const { rows, attempts } = await readDeliveries(db, orgId);
  const subscriptionStatus = new Map<string, { status: string; revoked_at: string | null }>();
  for (const s of (await db('webhook_subscriptions').where({ org_id: orgId }).select('id', 'status', 'revoked_at')) as Array<{ id: string; status: string; revoked_at: string | null }>) {
    subscriptionStatus.set(s.id, s);
  }
  const attemptsOf = new Map<string, AttemptRow[]>();
  for (const a of attempts) attemptsOf.set(a.delivery_id, [...(attemptsOf.get(a.delivery_id) ?? []), a]);
  const bySubscription = new Map(subscriptions.map((s) => [s.id, s]));
  const arrivalsOf = new Map<string, Array<ArrivalLike & { at: string }>>();
  const result: Accounting = {
    problems: [], deliveries: rows.length, delivered: 0, failed: 0, gone: 0, cancelled: 0, unsettled: 0, arrivals: 0,
    duplicates: 0, concurrentDuplicates: 0, attempts: attempts.length, errorClasses: {}, lost: 0, rows, attemptRows: attempts,
  };
  const problem = (text: string) => result.problems.push(text);
  for (const a of attempts) result.errorClasses[a.error_class ?? 'ok'] = (result.errorClasses[a.error_class ?? 'ok'] ?? 0) + 1;

  const deliveryIds = new Set(rows.map((r) => r.id));
  for (const s of subscriptions) {
    for (const arrival of s.arrivals()) {
      result.arrivals++;
      const list = arrivalsOf.get(arrival.deliveryId) ?? [];
      list.push({ ...arrival, at: s.id });
      arrivalsOf.set(arrival.deliveryId, list);
      if (!deliveryIds.has(arrival.deliveryId)) {
        result.lost++;
        problem(`subscription ${s.id} received delivery ${arrival.deliveryId}, which is not on record for the organization`);
      }
      if (arrival.concurrentSameDelivery > 0) {
        result.concurrentDuplicates++;
        problem(`delivery ${arrival.deliveryId} attempt ${arrival.attempt} arrived while ${arrival.concurrentSameDelivery} other request(s) of it were still open`);
      }
    }
  }

  for (const d of rows) {
    const where = `delivery ${d.id} (${d.status}, ${d.attempts} attempt(s))`;
    const subscription = bySubscription.get(d.subscription_id);
    if (!subscription) {
      problem(`${where}: belongs to subscription ${d.subscription_id}, unknown to the test`);
      continue;
    }
    const sub = subscriptionStatus.get(d.subscription_id);
    const tries = attemptsOf.get(d.id) ?? [];
    const arrived = (arrivalsOf.get(d.id) ?? []).slice().sort((a, b) => a.arrivedAt - b.arrivedAt);
    for (const r of arrived) if (r.at !== d.subscription_id) problem(`${where}: attempt ${r.attempt} arrived at subscription ${r.at}'s receiver`);

    // Settled, and settled for a reason.
    const last = tries[tries.length - 1];
    switch (d.status) {
      case 'delivered':
        result.delivered++;
        if (!last || last.error_class !== null || !is2xx(last.response_status)) problem(`${where}: delivered, but its last attempt is ${JSON.stringify(last)}`);
        else if (tries.slice(0, -1).some((a) => a.error_class === null)) problem(`${where}: an attempt before the last one succeeded already`);
        else if (!arrived.some((r) => r.attempt === last.attempt && is2xx(r.answered))) {
          result.lost++;
          problem(`${where}: delivered, but the receiver never answered 2xx to attempt ${last.attempt}`);
        }
        break;
      case 'failed':
        result.failed++;
        if (last?.response_status === 410) {
          result.gone++;
          if (sub?.status !== 'disabled') problem(`${where}: failed on 410, but the subscription is ${sub?.status}`);
        } else if (tries.length !== options.schedule.length + 1 + d.series_start) {
          problem(`${where}: failed after ${tries.length} attempt(s); the schedule allows ${options.schedule.length + 1}`);
        }
        if (tries.some((a) => a.error_class === null)) problem(`${where}: failed, yet an attempt succeeded`);
        break;
      case 'cancelled':
        result.cancelled++;
        if (sub?.status !== 'disabled' && sub?.status !== 'revoked') problem(`${where}: cancelled, but its subscription is ${sub?.status}`);
        break;
      default:
        result.unsettled++;
        result.lost++;
        problem(`${where}: never settled`);
    }

    // Attempts 1..n without gaps, in order, never overlapping, spaced by the schedule.
    const numbers = tries.map((a) => a.attempt);
    const expected = Array.from({ length: d.attempts }, (_, i) => i + 1);
    if (JSON.stringify(numbers) !== JSON.stringify(expected)) problem(`${where}: attempts on record ${JSON.stringify(numbers)}, expected ${JSON.stringify(expected)}`);
    for (let i = 1; i < tries.length; i++) {
      const before = tries[i - 1]!;
      const now = tries[i]!;
      const beforeStart = Date.parse(before.started_at);
      const start = Date.parse(now.started_at);
      if (start < beforeStart) problem(`${where}: attempt ${now.attempt} started before attempt ${before.attempt}`);
      if (before.error_class === 'interrupted') {
        if (!options.allowInterrupted) problem(`${where}: attempt ${before.attempt} was interrupted (a lease expired) in a run without crashes`);
        continue;
      }
      // Released by its worker, due at once: at a graceful stop, or unsent because its claim's
      // lease had no room left for an attempt (delivery-worker.ts). No schedule applies.
      if (before.error_class === 'aborted') continue;
      if (before.duration_ms === null) continue;
      const ended = beforeStart + before.duration_ms;
      if (start < ended - slack) problem(`${where}: attempt ${now.attempt} started ${ended - start} ms before attempt ${before.attempt} ended`);
      const step = options.schedule[before.attempt - d.series_start - 1];
      if (step !== undefined) {
        const minimum = before.response_status === 429 ? Math.max(step * 800, options.retryAfterMs ?? 0) : step * 800;
        if (start - ended < minimum - slack) problem(`${where}: attempt ${now.attempt} came ${start - ended} ms after attempt ${before.attempt} ended; at least ${minimum} ms were due`);
      }
    }

    // What the database says of each attempt is what the receiver saw.
    for (const a of tries) {
      const seen = arrived.filter((r) => r.attempt === a.attempt);
      if (seen.length > 1) problem(`${where}: attempt ${a.attempt} arrived ${seen.length} times`);
      const r = seen[0];
      if (a.response_status !== null) {
        if (!r) problem(`${where}: attempt ${a.attempt} recorded status ${a.response_status}, but the receiver never got it`);
        else if (r.answered !== a.response_status) problem(`${where}: attempt ${a.attempt} recorded status ${a.response_status}; the receiver answered ${r.answered ?? 'nothing'}`);
      }
      if (a.error_class === 'connection_refused' && r) problem(`${where}: attempt ${a.attempt} recorded as refused, but it arrived`);
      if (a.error_class === 'interrupted' && !options.allowInterrupted) problem(`${where}: attempt ${a.attempt} interrupted in a run without crashes`);
    }
    for (const r of arrived) {
      const a = tries.find((t) => t.attempt === r.attempt);
      if (!a) {
        result.lost++;
        problem(`${where}: attempt ${r.attempt} arrived but is not on record`);
        continue;
      }
      if (r.answered !== undefined) {
        if (a.response_status !== r.answered && a.error_class !== 'timeout' && a.error_class !== 'interrupted') {
          problem(`${where}: the receiver answered ${r.answered} to attempt ${r.attempt}; recorded ${a.response_status ?? '-'} ${a.error_class ?? 'ok'}`);
        }
      } else if (!['timeout', 'connection_reset', 'network', 'interrupted', 'aborted'].includes(a.error_class ?? 'ok')) {
        problem(`${where}: attempt ${r.attempt} got no answer, yet is recorded as ${a.response_status ?? '-'} ${a.error_class ?? 'ok'}`);
      }
    }

    // Every arrival: signed over the raw bytes, same bytes and same delivery id every time.
    const stored = Buffer.from(d.body, 'utf8');
    let accepted = false;
    let previousAttempt = 0;
    for (const r of arrived) {
      if (!r.body.equals(stored)) problem(`${where}: attempt ${r.attempt} carried other bytes than the stored body`);
      if (!signatureValid(subscription.secret, r.body, r.headers['x-service-signature'])) problem(`${where}: attempt ${r.attempt} has no valid signature`);
      if (r.headers['x-service-delivery-id'] !== d.id) problem(`${where}: attempt ${r.attempt} carried delivery id ${String(r.headers['x-service-delivery-id'])}`);
      if (r.headers['x-service-event-type'] !== d.event_type) problem(`${where}: attempt ${r.attempt} carried event type ${String(r.headers['x-service-event-type'])}`);
      try {
        const body = JSON.parse(r.body.toString('utf8'));
        if (body.delivery_id !== d.id || body.event_id !== d.event_id || body.event_type !== d.event_type) problem(`${where}: body names ${body.delivery_id}/${body.event_id}/${body.event_type}`);
      } catch {
        problem(`${where}: attempt ${r.attempt} body is not JSON`);
      }
      if (r.attempt <= previousAttempt) problem(`${where}: attempt ${r.attempt} arrived after attempt ${previousAttempt}`);
      previousAttempt = r.attempt;
      if (accepted) result.duplicates++;
      if (r.accepted ?? is2xx(r.answered)) accepted = true;
    }
  }
  return result;
}

/** Adds b into a (figures summed over runs). */
export function addCounts(a: Record<string, number>, b: Record<string, number>): void {
  for (const [k, v] of Object.entries(b)) a[k] = (a[k] ?? 0) + v;
}

/** What is not settled yet, for a failure message: queued deliveries and unrecorded attempts. */
export async function describeUnsettled(db: Knex, orgId: string): Promise<string> {
  const queued = (await db('webhook_deliveries as d')
    .join('webhook_subscriptions as s', 's.id', 'd.subscription_id')
    .where('d.org_id', orgId)
    .whereIn('d.status', ['pending', 'sending'])
    .select('d.id', 'd.status', 'd.attempts', 'd.due_at', 'd.created_at', 's.status as subscription_status', 's.revoked_at')) as Array<Record<string, unknown>>;
  const unrecorded = (await db('webhook_deliveries as d')
    .leftJoin('webhook_delivery_attempts as a', 'a.delivery_id', 'd.id')
    .where('d.org_id', orgId)
    .groupBy('d.id', 'd.status', 'd.attempts')
    .havingRaw('count(a.attempt) <> d.attempts')
    .select('d.id', 'd.status', 'd.attempts', db.raw('count(a.attempt) as recorded'))) as Array<Record<string, unknown>>;
  return [
    `${queued.length} queued: ${queued.slice(0, 10).map((q) => JSON.stringify(q)).join('\n  ')}`,
    `${unrecorded.length} with attempts not on record: ${unrecorded.slice(0, 10).map((q) => JSON.stringify(q)).join('\n  ')}`,
  ].join('\n');
}

/** Waits until settled(); on timeout, fails with what is still unsettled. */
export async function waitSettled(db: Knex, orgId: string, timeoutMs: number, extra: () => Promise<boolean> | boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await settled(db, orgId)) && (await extra())) return;
    if (Date.now() > deadline) throw new Error(`deliveries not settled after ${timeoutMs} ms:\n${await describeUnsettled(db, orgId)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
