// The delivery worker inside the server process. It claims due deliveries (leases, see
// delivery-claims.ts), sends each one as its own task, and records every attempt. Its work
// runs in cycles, one at a time, each one transaction: record the outcomes of the attempts
// finished since the last cycle, then claim for the free slots.
// Finished attempts start a cycle; under load the batches grow with the load (records and
// claims wait for a quarter of the slots, at most MAX_OUTCOME_WAIT_MS for a record). The
// worker also runs when woken (an event queued in this process, a NOTIFY from another),
// which claims at once, and otherwise on a timer: at the next due retry or lease expiry, at
// most one poll interval away. Global concurrency bounds this worker's in-flight
// attempts; the per-subscription cap is applied in the claim, so a slow receiver only ever
// holds its own few slots.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { MIN_LEASE_ROOM_MS, type WebhookConfig } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import { nextDueAt, recordAndClaim, recordAttempt, type ClaimedDelivery, type CycleResult, type DeliveryTransition, type FinishedAttempt, type RecordedAttempt } from './delivery-claims.js';
import { sendAttempt, type AttemptResult } from './delivery-sender.js';
import { PinnedConnections } from './pinned-connections.js';
import { signDelivery } from './delivery-signer.js';
import { signingSecretsAt } from './secret-rotation.js';
import { decideAfterAttempt } from './retry-policy.js';
import { fhirChannelRequest } from './fhir/fhir-channel.js';
import { FHIR_KIND } from './fhir/fhir-notifications.js';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';
import type { HostResolver } from './ssrf-guard.js';
import type { SubscriptionHealth } from './subscription-health.js';
import { stopSignal } from './stop-signal.js';

export interface DeliveryWorkerDeps {
  db: Knex;
  config: WebhookConfig;
  cipher: SigningSecretCipher;
  resolve: HostResolver;
  logger: Logger;
  random?: () => number;
  metrics?: DeliveryMetrics;
  /** Notes each attempt's outcome for the auto-disable (subscription-health.ts). */
  health?: SubscriptionHealth;
}

/** Counts each recorded attempt (server/src/metrics). */
export interface DeliveryMetrics {
  deliveryAttempt(outcome: string, errorClass: string | null): void;
}

/**
 * The longest a finished attempt waits to be recorded with the next claim: its delivery
 * shows as sending, and holds its slot and its subscription's cap, until then.
 */
const MAX_OUTCOME_WAIT_MS = 50;
/** What a claim's lease must still hold beyond the request timeout for its attempt to be sent (half the least room config allows). */
const LEASE_SAFETY_MS = MIN_LEASE_ROOM_MS / 2;

/** A finished attempt waiting for the next cycle to record it. */
interface Finished extends FinishedAttempt {
  result: AttemptResult;
  recorded(): void;
}

export class DeliveryWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Aborts every attempt still in flight when a stop's grace period ends (one for all: an AbortController per attempt cost about 2% of the worker's CPU). */
  private stopping: AbortController;
  private readonly finished: Finished[] = [];
  private running = false;
  private cycling: Promise<void> | undefined;
  private cycleAgain = false;
  /** Set by wake(): new work may be due, so the next cycle claims even for a few free slots. */
  private lookForWork = false;
  private timer: NodeJS.Timeout | undefined;
  /** Runs out MAX_OUTCOME_WAIT_MS after an outcome was left for a later cycle. */
  private recordTimer: NodeJS.Timeout | undefined;
  private recordDue = false;
  /** Keep-alive connections per (subscription, vetted address), reused across attempts. */
  private readonly connections = new PinnedConnections();

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.stopping = stopSignal(deps.config.concurrency);
  }

  start(): void {
    this.running = true;
    if (this.stopping.signal.aborted) this.stopping = stopSignal(this.deps.config.concurrency);
    this.wake();
  }

  /** Look for due deliveries now. Cheap to call often: concurrent calls coalesce. */
  wake(): void {
    if (!this.running) return;
    this.lookForWork = true;
    this.cycle();
  }

  get activeAttempts(): number {
    return this.inFlight.size;
  }

  /** Starts a cycle, or asks the running one for another. Also while stopping, to record the last outcomes. */
  private cycle(): void {
    if (this.cycling) {
      this.cycleAgain = true;
      return;
    }
    this.cycling = this.cycles().finally(() => {
      this.cycling = undefined;
      if (this.cycleAgain) this.cycle();
    });
  }

  private async cycles(): Promise<void> {
    const { db, config, logger } = this.deps;
    clearTimeout(this.timer);
    try {
      do {
        this.cycleAgain = false;
        // A claim probes every active subscription (to stay fair between them): after
        // completions alone, claim in batches (a quarter of the slots free, or all), and
        // record the finished attempts with it, in one go; their slots (and caps) are free
        // once recorded. New work (wake) claims at once, and no outcome waits for long.
        const free = config.concurrency - this.inFlight.size + this.finished.length;
        const claiming = this.running && free > 0 && (this.lookForWork || free >= Math.max(1, Math.floor(config.concurrency / 4)) || this.inFlight.size === this.finished.length);
        if (!claiming && !this.recordDue && this.running) continue;
        if (claiming) this.lookForWork = false;
        const batch = this.takeFinished();
        let cycle: CycleResult;
        try {
          cycle = await recordAndClaim(db, batch, claiming ? { limit: free, perSubscription: config.perSubscriptionConcurrency, leaseMs: config.leaseMs } : undefined);
        } catch (error) {
          this.settle(batch, undefined, error as Error);
          throw error;
        }
        this.settle(batch, cycle.recorded);
        for (const claim of cycle.claimed) this.dispatch(claim);
        // A full batch suggests more is due; a short one means the rest waits (or is capped).
        if (claiming && cycle.claimed.length === free) this.cycleAgain = true;
      } while (this.cycleAgain);
    } catch (error) {
      logger.warn({ err: error }, 'webhook delivery claim failed; retrying at the next poll');
    }
    if (this.running) await this.scheduleNextLook();
  }

  private async scheduleNextLook(): Promise<void> {
    const { db, config } = this.deps;
    let delay = config.pollIntervalMs;
    // With attempts under way, their completions start the next cycle; otherwise look
    // again when the next retry or lease falls due.
    if (this.inFlight.size === 0) {
      try {
        const due = await nextDueAt(db);
        // Something already due but not claimable (capped) waits for a completion or a poll.
        if (due !== null && due > Date.now()) delay = Math.min(delay, due - Date.now() + 5);
      } catch {
        // the poll interval it is
      }
    }
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }

  private dispatch(claim: ClaimedDelivery): void {
    const done = this.attempt(claim, this.stopping.signal)
      .catch((error: Error) => this.deps.logger.error({ err: error, delivery_id: claim.id }, 'webhook delivery attempt could not be recorded; its lease will expire and it will be retried'))
      .finally(() => this.inFlight.delete(claim.id));
    this.inFlight.set(claim.id, done);
  }

  private async attempt(claim: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const { db, config, cipher, resolve, logger } = this.deps;
    const startedAt = Date.now();
    let result: AttemptResult;
    try {
      // A FHIR Subscription's notification goes as it is, with its channel headers (fhir/fhir-channel.ts).
      const fhir = claim.kind === FHIR_KIND ? fhirChannelRequest(cipher, claim, config.requestTimeoutMs) : undefined;
      const timeoutMs = fhir?.timeoutMs ?? config.requestTimeoutMs;
      // A claim that waited (a slow claim transaction, a stalled event loop) may no longer
      // have room in its lease for a whole attempt; sent anyway, it could still be under way
      // when another worker takes the expired lease and sends again, at the same time. Such a
      // claim goes back unsent (released, due at once) and is claimed afresh with a whole lease.
      if (claim.leaseEndsAt - startedAt < timeoutMs + LEASE_SAFETY_MS) {
        result = { status: null, errorClass: 'aborted', durationMs: 0, host: '', detail: 'the lease had no room left for an attempt: released unsent' };
      } else {
        const signed = fhir ?? signDelivery({ body: claim.body, secrets: signingSecretsAt(cipher, claim, startedAt), deliveryId: claim.id, eventType: claim.eventType, attempt: claim.attempt, at: startedAt });
        result = await sendAttempt({
          url: claim.callbackUrl,
          body: signed.body,
          headers: signed.headers as unknown as Record<string, string>,
          timeoutMs,
          allowPrivateTargets: config.allowPrivateTargets,
          resolve,
          signal,
          connections: { pools: this.connections, subscriptionId: claim.subscriptionId },
        });
      }
    } catch (error) {
      // Only our own failures reach here (sendAttempt classifies network ones).
      logger.error({ err: error, delivery_id: claim.id }, 'webhook delivery could not be prepared');
      result = { status: null, errorClass: 'internal', durationMs: Date.now() - startedAt, host: '' };
    }
    const transition: DeliveryTransition =
      result.errorClass === 'aborted' ? { kind: 'released' } : decideAfterAttempt(result, claim.attemptInSeries, config.retrySchedule, Date.now(), this.deps.random);
    // Recorded as started at its claim: the instant a worker taking over an expired lease also
    // records it by (interrupted), so both name the same attempt (delivery-claims.ts).
    const attempt: RecordedAttempt = { startedAt: claim.claimedAt, durationMs: result.durationMs, status: result.status, errorClass: result.errorClass, workerId: this.id };
    if (transition.kind === 'disable') {
      // Rare, and it ends the subscription: recorded at once, in a transaction of its own.
      try {
        this.report(claim, result, transition, await recordAttempt(db, claim, attempt, transition));
      } finally {
        this.inFlight.delete(claim.id);
        this.cycle();
      }
      return;
    }
    await new Promise<void>((recorded) => {
      this.finished.push({ claim, attempt, transition, result, recorded });
      this.recordTimer ??= setTimeout(() => {
        this.recordTimer = undefined;
        this.recordDue = true;
        this.cycle();
      }, MAX_OUTCOME_WAIT_MS).unref();
      this.cycle();
    });
  }

  /** The finished attempts, for this cycle to record. */
  private takeFinished(): Finished[] {
    this.recordDue = false;
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    return this.finished.splice(0);
  }

  /** After a cycle: the recorded attempts' slots are free (their caps were freed in its transaction). */
  private settle(batch: readonly Finished[], mine: Set<string> | undefined, error?: Error): void {
    for (const finished of batch) {
      if (mine) this.report(finished.claim, finished.result, finished.transition, mine.has(finished.claim.id));
      else this.deps.logger.error({ err: error, delivery_id: finished.claim.id }, 'webhook delivery attempt could not be recorded; its lease will expire and it will be retried');
      this.inFlight.delete(finished.claim.id);
      finished.recorded();
    }
  }

  private report(claim: ClaimedDelivery, result: AttemptResult, transition: DeliveryTransition, stillMine: boolean): void {
    const { logger } = this.deps;
    this.deps.metrics?.deliveryAttempt(transition.kind, result.errorClass);
    this.deps.health?.noteAttempt(claim.subscriptionId, result.errorClass, Date.now() - result.durationMs);
    const quiet = stillMine && transition.kind !== 'disable' && transition.kind !== 'failed';
    // The line of every attempt is at info; below that level, not even built.
    if (quiet && !logger.isLevelEnabled('info')) return;
    const log = {
      delivery_id: claim.id,
      subscription_id: claim.subscriptionId,
      event_type: claim.eventType,
      attempt: claim.attempt,
      host: result.host,
      status: result.status,
      error_class: result.errorClass,
      duration_ms: result.durationMs,
      outcome: transition.kind,
      ...(transition.kind === 'retry' ? { retry_in_ms: transition.delayMs } : {}),
      ...(result.detail ? { detail: result.detail } : {}),
    };
    if (!stillMine) logger.warn(log, 'webhook delivery attempt finished after its claim ended (lease expired or subscription ended)');
    else if (transition.kind === 'disable') logger.warn(log, 'webhook receiver answered 410 Gone: subscription disabled');
    else if (transition.kind === 'failed') logger.warn(log, 'webhook delivery failed: retry schedule exhausted');
    else logger.info(log, 'webhook delivery attempt');
  }

  /** Stops claiming; lets in-flight attempts finish briefly, then aborts and releases them. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.cycling;
    const pending = [...this.inFlight.values()];
    if (pending.length === 0) return this.connections.close();
    // Finishing beats aborting: an aborted attempt may have reached the receiver and will
    // be sent again. But a stop must not wait out a slow receiver's full timeout.
    const grace = Math.min(this.deps.config.shutdownGraceMs, this.deps.config.requestTimeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all(pending);
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, grace)))]);
    clearTimeout(timer);
    if (this.inFlight.size > 0) this.stopping.abort();
    await all;
    this.connections.close();
  }
}
