// The service's eligibility worker: takes due checks from the shared queue (check-queue.ts)
// under a lease, asks each payer (eligibility-exchange.ts) through its connection, at most
// ELIGIBILITY_CONCURRENCY at once in this instance and each connection's own --concurrency, and
// records what came of it (exchange-log.ts) with the check's next due time at once
// (exchange-settlement.ts). It claims a quarter of its concurrency ahead, so a freed exchange
// slot starts the next check at once (checks whose answer is being applied no longer count
// against those, up to twice the concurrency held in all); the answers that arrive together
// are applied together (grouped-answers.ts). It looks every ELIGIBILITY_POLL_INTERVAL_MS, and
// again as soon as a batch of claims is free.
//
//   answered (active, inactive, rejected, error not retried)   next ask at the Coverage's
//     or not checkable                                          recheck phase, while it is active
//   retried (timeout, connection, 5xx, AAA 42 resubmit)         due again after a backoff with
//                                                               jitter; the connection's
//                                                               failures count (circuit-breaker.ts)
//   the connection is paused                                    given back, due when it resumes
//   the service stops mid-exchange                              given back, untouched
//
// `ops eligibility check` runs the same worker in its own process for the Coverages it asks
// about (`only`), so a check is made whether or not a service runs, and never by both at once.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { EligibilityConfig } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';
import type { HostResolver } from '../webhooks/ssrf-guard.js';
import { checkableFacilities, claimChecks, leaseCovers, nextRecheck, releaseCheck, renewLease, retryCheck, type ClaimedCheck } from './check-queue.js';
import { recordConnectionAnswer, recordConnectionFailure } from './circuit-breaker.js';
import { ConnectionSlots } from './connection-slots.js';
import { ControlNumbers } from './control-numbers.js';
import { askPayer, type ExchangeResult } from './eligibility-exchange.js';
import { readInquirySubject } from './eligibility-inquiry.js';
import { recordAndSettle } from './exchange-settlement.js';
import { PollingLoop } from '../db/polling-loop.js';
import { PinnedConnections } from '../webhooks/pinned-connections.js';
import { stopSignal } from '../webhooks/stop-signal.js';
import { GroupedAnswers } from './grouped-answers.js';

export interface EligibilityWorkerDeps {
  db: Knex;
  config: EligibilityConfig;
  allowPrivateTargets: boolean;
  cipher: SigningSecretCipher;
  resolve: HostResolver;
  logger: Pick<Logger, 'warn' | 'error' | 'info'>;
  metrics?: ServiceMetrics;
  /** Extra trusted CA certificates (PEM), from ELIGIBILITY_CA_FILE. */
  ca?: string;
  random?: () => number;
}

const DAY_MS = 86_400_000;
const INSTANCE = 'instance';

/** The wait before attempt `attempts + 1`: doubling from the base, capped, with equal jitter (half fixed, half random). */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export class EligibilityWorker {
  readonly owner = `eligibility-${randomUUID()}`;
  private readonly loop: PollingLoop;
  /** Aborts every exchange in flight at a stop (one listener per exchange under way: at most the concurrency). */
  private readonly stopping: AbortController;
  private readonly slots = new ConnectionSlots();
  /** This instance's exchanges under way, at most ELIGIBILITY_CONCURRENCY (one key: the instance). */
  private readonly exchanges = new ConnectionSlots();
  private readonly inFlight = new Set<Promise<void>>();
  /** Of those, the ones whose round trip has not ended. */
  private unansweredChecks = 0;
  /** Restricts the worker to these Coverages (the CLI's own checks). */
  private only: string[] | undefined;
  /** Kept-alive connections to the clearinghouses, one pool per connection and vetted address. */
  private readonly pools = new PinnedConnections();
  /** The answers that arrive together, applied together (one wait for the organization's ingest lock). */
  private readonly answers: GroupedAnswers;
  /** This process's interchange control numbers, taken a block at a time. */
  private readonly controlNumbers: ControlNumbers;
  /** The facilities that can ask, read at most once per poll interval (a claim after every finished check read them each time). */
  private checkable: { ids: string[]; at: number } | undefined;

  constructor(private readonly deps: EligibilityWorkerDeps) {
    this.stopping = stopSignal(deps.config.concurrency);
    this.answers = new GroupedAnswers(deps.db);
    this.controlNumbers = new ControlNumbers(deps.db, deps.config.controlNumberBlock);
    this.loop = new PollingLoop(
      () => this.cycle().catch((error: Error) => this.deps.logger.warn({ err: error }, 'eligibility worker could not claim checks; trying again')),
      deps.config.pollIntervalMs,
    );
  }

  /**
   * Checks claimed ahead of a free exchange slot (a quarter of the concurrency): they wait in
   * this instance for a slot, so one that frees starts the next check at once instead of after
   * the next claim. Exchanges stay at most ELIGIBILITY_CONCURRENCY (`exchanges`).
   */
  private get claimAhead(): number {
    return Math.max(1, Math.floor(this.deps.config.concurrency / 4));
  }

  /** Claimed checks whose round trip has not ended (waiting for a slot, or exchanging): at most the concurrency and the claims ahead. */
  private get claimLimit(): number {
    return this.deps.config.concurrency + this.claimAhead;
  }

  /**
   * All checks held, their answers being applied included: a bound, so a database slow to take
   * the answers holds the claims back. Answers being applied do not count against the claims
   * ahead: they would use them up, and a freed slot would find no check waiting for it.
   */
  private get holdLimit(): number {
    return 2 * this.deps.config.concurrency + this.claimAhead;
  }

  /** Checks this worker can claim now. */
  private get claimable(): number {
    return Math.min(this.claimLimit - this.unanswered, this.holdLimit - this.inFlight.size);
  }

  private get running(): boolean {
    return this.loop.isRunning;
  }

  start(options: { only?: string[] } = {}): void {
    if (this.running) return;
    this.only = options.only;
    this.loop.start();
  }

  /** Look for due checks now; concurrent calls coalesce. */
  wake(): void {
    this.loop.wake();
  }

  /** Checks claimed by this worker and not yet recorded. */
  get busy(): number {
    return this.inFlight.size;
  }

  /** Checks claimed by this worker whose clearinghouse round trip has not ended. */
  get unanswered(): number {
    return this.unansweredChecks;
  }

  private async cycle(): Promise<void> {
    const free = this.claimable;
    if (free <= 0) return;
    const now = Date.now();
    if (!this.checkable || now - this.checkable.at >= this.deps.config.pollIntervalMs) this.checkable = { ids: await checkableFacilities(this.deps.db), at: now };
    const facilityIds = this.checkable.ids;
    const claimed = await claimChecks(this.deps.db, this.owner, this.deps.config.leaseMs, free, { facilityIds, ...(this.only ? { coverageIds: this.only } : {}) });
    for (const check of claimed) {
      this.unansweredChecks++;
      let waiting = true;
      const answered = () => {
        if (!waiting) return;
        waiting = false;
        this.unansweredChecks--;
        this.claimAgain();
      };
      const work: Promise<void> = this.process(check, answered).finally(() => {
        this.inFlight.delete(work);
        answered();
        this.claimAgain();
      });
      this.inFlight.add(work);
    }
  }

  /** Claims in batches: again once a batch's worth of claims is free (the poll does the rest). */
  private claimAgain(): void {
    if (this.claimable >= this.claimAhead || this.inFlight.size === 0) this.wake();
  }

  /** `answered`: told when the check's round trip has ended (or it ends without one). */
  private async process(check: ClaimedCheck, answered: () => void): Promise<void> {
    const { db, config } = this.deps;
    try {
      const reading = await readInquirySubject(db, check.coverage_id);
      if ('gone' in reading) {
        await db('eligibility_checks').where({ coverage_id: check.coverage_id, lease_owner: this.owner }).delete();
        return;
      }
      if ('notCheckable' in reading) {
        const now = Date.now();
        await recordAndSettle(
          db,
          { orgId: check.org_id, facilityId: reading.facilityId ?? check.facility_id, coverageId: check.coverage_id, trigger: check.trigger, connectionId: null, startedAt: new Date(now).toISOString(), finishedAt: new Date(now).toISOString(), durationMs: 0, outcome: 'not_checkable', retrying: false, coverageStatus: reading.coverageStatus ?? null, detail: reading.notCheckable },
          check,
          this.owner,
          { complete: { outcome: 'not_checkable', next: reading.coverageStatus === 'active' ? nextRecheck(check.coverage_id, config.recheckDays * DAY_MS, now) : null, ...(reading.facilityId ? { facilityId: reading.facilityId } : {}) } },
          now,
        );
        this.deps.metrics?.eligibilityCheck('not_checkable');
        return;
      }
      const { subject } = reading;
      const connection = subject.connection;
      if (connection.paused_until && Date.parse(connection.paused_until) > Date.now()) {
        await releaseCheck(db, check, this.owner, Math.max(Date.parse(connection.paused_until), Date.parse(check.due_at)));
        return;
      }
      await this.exchanges.acquire(INSTANCE, config.concurrency);
      await this.slots.acquire(connection.id, connection.concurrency);
      // The slots count exchanges with the clearinghouse: freed as soon as its round trip is
      // over, while the answer is applied, so the next check's exchange starts meanwhile.
      let held = true;
      const releaseSlots = () => {
        if (!held) return;
        held = false;
        this.slots.release(connection.id);
        this.exchanges.release(INSTANCE);
        answered();
      };
      let result: ExchangeResult;
      try {
        if (!this.running && this.only === undefined) {
          await releaseCheck(db, check, this.owner);
          return;
        }
        if (!leaseCovers(check, config.timeoutMs, config.leaseMs) && !(await renewLease(db, check, this.owner, config.leaseMs))) return;
        result = await askPayer({ cipher: this.deps.cipher, resolve: this.deps.resolve, allowPrivateTargets: this.deps.allowPrivateTargets, timeoutMs: config.timeoutMs, signal: this.stopping.signal, pools: this.pools, controlNumbers: this.controlNumbers, answers: this.answers, onRoundTripDone: releaseSlots, ...(this.deps.ca ? { ca: this.deps.ca } : {}) }, subject);
      } finally {
        releaseSlots();
      }
      if (result.aborted) {
        await releaseCheck(db, check, this.owner);
        return;
      }
      if (result.connectionFailed) {
        const pausedUntil = await recordConnectionFailure(db, connection.id, { failures: config.breakerFailures, pauseMs: config.breakerPauseMs, maxPauseMs: config.retryMaxMs });
        if (pausedUntil) this.deps.logger.warn({ connection_id: connection.id, paused_until: pausedUntil }, 'clearinghouse connection keeps failing: paused; its checks stay queued');
      } else if (result.codes?.error_class === undefined && (connection.failures > 0 || connection.paused_until)) await recordConnectionAnswer(db, connection.id);
      const now = Date.now();
      await recordAndSettle(
        db,
        { ...result, orgId: subject.orgId, facilityId: subject.facilityId, coverageId: subject.coverageId, trigger: check.trigger, connectionId: connection.id, retrying: result.retry },
        check,
        this.owner,
        result.retry
          ? { retry: { at: now + retryDelayMs(check.attempts, config.retryBaseMs, config.retryMaxMs, this.deps.random) } }
          : { complete: { outcome: result.outcome, next: result.coverageStatus === 'active' ? nextRecheck(check.coverage_id, config.recheckDays * DAY_MS, now) : null, facilityId: subject.facilityId } },
        now,
      );
      this.deps.metrics?.eligibilityCheck(result.outcome, result.roundTripMs !== undefined ? result.roundTripMs / 1000 : undefined);
    } catch (error) {
      // The database or a bug, not the payer: nothing about the resident goes to the log.
      this.deps.logger.error({ err: error, coverage_id: check.coverage_id }, 'eligibility check failed; it stays queued and is retried');
      await retryCheck(db, check, this.owner, Date.now() + retryDelayMs(check.attempts, config.retryBaseMs, config.retryMaxMs, this.deps.random)).catch(() => undefined);
    }
  }

  /** Stops claiming, aborts exchanges under way (their checks are given back) and waits for them. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.stopping.abort(new Error('service stopping'));
    await Promise.all([...this.inFlight]);
    this.pools.close();
  }
}
