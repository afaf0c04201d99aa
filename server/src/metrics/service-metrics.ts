// What operators see inside the service, in Prometheus' text format (prom-client). One
// registry per running service, so tests can run several in one process. Labels are
// bounded sets only (operation ids, status codes, outcomes, error classes, sources): never
// an id, a URL, a host, a client or anything about a resident, so a scrape can leak nothing
// and the series count cannot grow with traffic.
import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { rawRows } from '../db/database.js';
import { RequestDurationHistogram } from './request-duration-histogram.js';
import { readOncePerScrape } from './read-once-per-scrape.js';

/** Seconds: from a cached token lookup (~1 ms) to a slow page of a large facility. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A label value we accept from a caller: a short snake_case word, nothing else. */
const WORD = /^[a-z][a-z0-9_.]{0,39}$/;

/** Keeps a label to a short word; anything else (an id, a message) becomes `other`. */
export function boundedLabel(value: string | null | undefined): string {
  return value && WORD.test(value) ? value : 'other';
}

export interface IngestCount {
  /** The source of record: `fhir`, `hl7v2`, `x12`... */
  source: string;
  /** What became of the message: `applied`, `unchanged`, `rejected`... */
  outcome: string;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly requestDuration = new RequestDurationHistogram({
    name: 'ofctx_http_request_duration_seconds',
    help: 'API requests by operation (the contract operationId, or "unmatched") and status, with their latency.',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly tokensIssued = new Counter({
    name: 'ofctx_oauth_tokens_issued_total',
    help: 'Access tokens issued by the token endpoint.',
    registers: [this.registry],
  });
  readonly tokensRefused = new Counter({
    name: 'ofctx_oauth_token_refusals_total',
    help: 'Token requests refused, by OAuth error code (invalid_client, invalid_scope, rate_limited...).',
    labelNames: ['error'] as const,
    registers: [this.registry],
  });
  readonly rateLimitRefusals = new Counter({
    name: 'ofctx_rate_limit_refusals_total',
    help: 'Requests answered 429 by a rate limit, by operation.',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  readonly deliveryAttempts = new Counter({
    name: 'ofctx_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry, failed, disable, released) and error class (none on success).',
    labelNames: ['outcome', 'error_class'] as const,
    registers: [this.registry],
  });
  /** The message store (server/src/messages): every inbound message once, by road and status. */
  readonly inboundMessages = new Counter({
    name: 'ofctx_inbound_messages_total',
    help: 'Inbound messages stored, by road (mllp, fhir, ndjson, x12, import) and status (applied, applied_with_warnings, refused, duplicate); a reprocess counts its new outcome.',
    labelNames: ['road', 'status'] as const,
    registers: [this.registry],
  });
  readonly ingestMessages = new Counter({
    name: 'ofctx_ingest_messages_total',
    help: 'Messages from systems of record, by source and outcome.',
    labelNames: ['source', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly mllpConnectionsRefused = new Counter({
    name: 'ofctx_mllp_connections_refused_total',
    help: 'MLLP connections the listener closed before their first message, by reason: source_not_allowed (MLLP_ALLOWED_SOURCES), source_limit (MLLP_MAX_CONNECTIONS_PER_SOURCE), capacity (MLLP_MAX_CONNECTIONS, or the share kept for MLLP_RESERVED_SOURCES), first_byte_timeout (nothing sent within MLLP_FIRST_BYTE_TIMEOUT_MS).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly mllpConnectionsOpen = new Gauge({
    name: 'ofctx_mllp_connections_open',
    help: 'MLLP connections open now (this instance).',
    registers: [this.registry],
  });
  readonly purgedRows = new Counter({
    name: 'ofctx_retention_purged_rows_total',
    help: 'Rows removed by retention, by table.',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });

  readonly eligibilityChecks = new Counter({
    name: 'ofctx_eligibility_checks_total',
    help: 'Eligibility checks (X12 270 to the payer) by outcome: active, inactive, rejected (AAA), error (retried or not), not_checkable.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly eligibilityExchangeDuration = new Histogram({
    name: 'ofctx_eligibility_exchange_duration_seconds',
    help: 'Time from sending a 270 to having its answer (CORE 156: within 20 s), by outcome.',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
    registers: [this.registry],
  });

  /** One check done (eligibility-worker.ts); `seconds` when a 270 was sent. */
  eligibilityCheck(outcome: string, seconds?: number): void {
    this.eligibilityChecks.inc({ outcome: boundedLabel(outcome) });
    if (seconds !== undefined) this.eligibilityExchangeDuration.observe({ outcome: boundedLabel(outcome) }, seconds);
  }

  /** The eligibility queue's gauges, read from the database at each scrape. */
  registerEligibilityQueue(read: () => Promise<{ due: number; oldestAgeSeconds: number }>): void {
    const once = readOncePerScrape(read);
    new Gauge({
      name: 'ofctx_eligibility_checks_queued',
      help: 'Eligibility checks due now and not yet answered, in facilities that can ask (shared queue: take max() across instances).',
      registers: [this.registry],
      async collect() {
        const queue = await once();
        if (queue) this.set(queue.due);
      },
    });
    new Gauge({
      name: 'ofctx_eligibility_oldest_queued_check_age_seconds',
      help: 'How long the oldest due eligibility check has waited since it was requested (0 when none).',
      registers: [this.registry],
      async collect() {
        const queue = await once();
        if (queue) this.set(queue.oldestAgeSeconds);
      },
    });
  }

  /** For the ingestion paths: `metrics.ingest.inc({ source: 'hl7v2', outcome: 'applied' })`. */
  readonly ingest = {
    inc: (count: IngestCount, by = 1) => this.ingestMessages.inc({ source: boundedLabel(count.source), outcome: boundedLabel(count.outcome) }, by),
    /** One import's resources by outcome: `metrics.ingest.record('fhir', { created: 3, unchanged: 1 })`. */
    record: (source: string, outcomes: Record<string, number>) => {
      for (const [outcome, count] of Object.entries(outcomes)) if (count > 0) this.ingest.inc({ source, outcome }, count);
    },
  };

  private defaultsCollected = false;

  /** @param db the database whose delivery queue is measured at each scrape. */
  constructor(db?: Knex) {
    if (db) registerQueueGauges(this.registry, db);
  }

  /** Process metrics (CPU, memory, event loop lag, GC): only when someone can scrape them. */
  collectProcessMetrics(): void {
    if (this.defaultsCollected) return;
    this.defaultsCollected = true;
    collectDefaultMetrics({ register: this.registry, prefix: 'ofctx_' });
  }

  /** Called once per recorded delivery attempt (delivery-worker.ts). */
  deliveryAttempt(outcome: string, errorClass: string | null): void {
    this.deliveryAttempts.inc({ outcome: boundedLabel(outcome), error_class: errorClass === null ? 'none' : boundedLabel(errorClass) });
  }

  async exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

// Per subscription and state, ranges of the claim index (there is no index on status alone
// since migration 010), so the scrape costs the queue's size, not the delivery history's.
const QUEUE_SQL = `
  SELECT status, sum(n) AS n, min(oldest) AS oldest FROM (
    ${['pending', 'sending']
      .map(
        (status) => `SELECT '${status}' AS status,
          (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = '${status}') AS n,
          (SELECT min(d.created_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = '${status}') AS oldest
        FROM webhook_subscriptions s`,
      )
      .join(' UNION ALL ')}
  ) queued GROUP BY status`;

type QueueRow = { status: string; n: number | string; oldest: string | null };

/**
 * The queue as the database holds it, read at scrape time: every instance reports the same
 * shared queue (take max(), not sum(), across instances).
 */
function registerQueueGauges(registry: Registry, db: Knex): void {
  // One query serves the gauges of one scrape.
  const read = readOncePerScrape(async () => {
    const rows = rawRows<QueueRow>(await db.raw(QUEUE_SQL));
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    const oldest = rows.map((r) => r.oldest).filter((o): o is string => !!o).sort()[0];
    return { pending: count('pending'), sending: count('sending'), oldest: oldest ? Math.max(0, (Date.now() - Date.parse(oldest)) / 1000) : 0 };
  });
  new Gauge({
    name: 'ofctx_webhook_deliveries_queued',
    help: 'Webhook deliveries not yet finished, by state: pending (waiting for their attempt) or sending (claimed, in flight).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const queue = await read();
      if (!queue) return;
      this.set({ state: 'pending' }, queue.pending);
      this.set({ state: 'sending' }, queue.sending);
    },
  });
  new Gauge({
    name: 'ofctx_webhook_oldest_queued_delivery_age_seconds',
    help: 'Age of the oldest unfinished webhook delivery (0 when none): how far behind receivers are.',
    registers: [registry],
    async collect() {
      const queue = await read();
      if (queue) this.set(queue.oldest);
    },
  });
}
