// The delivery worker inside the server process. It claims due deliveries (leases, see
// delivery-claims.ts), sends each one as its own task, and records every attempt. It runs
// when woken (an event queued in this process, a NOTIFY from another) and otherwise on a
// timer: at the next due retry or lease expiry, at most one poll interval away. Global
// concurrency bounds this worker's in-flight attempts; the per-subscription cap is applied
// in the claim, so a slow receiver only ever holds its own few slots.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { WebhookConfig } from '../config/config.js';
import type { Logger } from '../logging/logger.js';
import { claimDueDeliveries, nextDueAt, recordAttempt, type ClaimedDelivery, type DeliveryTransition } from './delivery-claims.js';
import { sendAttempt, type AttemptResult } from './delivery-sender.js';
import { PinnedConnections } from './pinned-connections.js';
import { signDelivery } from './delivery-signer.js';
import { signingSecretsAt } from './secret-rotation.js';
import { decideAfterAttempt } from './retry-policy.js';
import type { SigningSecretCipher } from './signing-secret-crypto.js';
import type { HostResolver } from './ssrf-guard.js';

export interface DeliveryWorkerDeps {
  db: Knex;
  config: WebhookConfig;
  cipher: SigningSecretCipher;
  resolve: HostResolver;
  logger: Logger;
  random?: () => number;
  metrics?: DeliveryMetrics;
}

/** Counts each recorded attempt (server/src/metrics). */
export interface DeliveryMetrics {
  deliveryAttempt(outcome: string, errorClass: string | null): void;
}

export class DeliveryWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private running = false;
  private claiming: Promise<void> | undefined;
  private claimAgain = false;
  private timer: NodeJS.Timeout | undefined;
  /** Keep-alive connections per (subscription, vetted address), reused across attempts. */
  private readonly connections = new PinnedConnections();

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  start(): void {
    this.running = true;
    this.wake();
  }

  /** Look for due deliveries now. Cheap to call often: concurrent calls coalesce. */
  wake(): void {
    if (!this.running) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.claimLoop().finally(() => {
      this.claiming = undefined;
      if (this.claimAgain && this.running) this.wake();
    });
  }

  get activeAttempts(): number {
    return this.inFlight.size;
  }

  private async claimLoop(): Promise<void> {
    const { db, config, logger } = this.deps;
    clearTimeout(this.timer);
    try {
      do {
        this.claimAgain = false;
        const room = config.concurrency - this.inFlight.size;
        if (room <= 0) break;
        const claimed = await claimDueDeliveries(db, { limit: room, perSubscription: config.perSubscriptionConcurrency, leaseMs: config.leaseMs });
        for (const claim of claimed) this.dispatch(claim);
        // A full batch suggests more is due; a short one means the rest waits (or is capped).
        if (claimed.length === room) this.claimAgain = true;
      } while (this.claimAgain && this.running);
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'webhook delivery claim failed; retrying at the next poll');
    }
    if (this.running) await this.scheduleNextLook();
  }

  private async scheduleNextLook(): Promise<void> {
    const { db, config } = this.deps;
    let delay = config.pollIntervalMs;
    try {
      const due = await nextDueAt(db);
      // Something already due but not claimable (capped) waits for a completion or a poll.
      if (due !== null && due > Date.now()) delay = Math.min(delay, due - Date.now() + 5);
    } catch {
      // the poll interval it is
    }
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }

  private dispatch(claim: ClaimedDelivery): void {
    const controller = new AbortController();
    const done = this.attempt(claim, controller.signal)
      .catch((error: Error) => this.deps.logger.error({ err: error.message, delivery_id: claim.id }, 'webhook delivery attempt could not be recorded; its lease will expire and it will be retried'))
      .finally(() => {
        this.inFlight.delete(claim.id);
        // A claim reads the whole due queue (to stay fair between subscriptions), so under a
        // backlog claim in batches: when a quarter of the slots are free, or all are. New
        // events wake the worker themselves, and the poll timer backs this up.
        const free = this.deps.config.concurrency - this.inFlight.size;
        if (free >= Math.max(1, Math.floor(this.deps.config.concurrency / 4)) || this.inFlight.size === 0) this.wake();
      });
    this.inFlight.set(claim.id, { controller, done });
  }

  private async attempt(claim: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const { db, config, cipher, resolve, logger } = this.deps;
    const startedAt = Date.now();
    let result: AttemptResult;
    try {
      const secrets = signingSecretsAt(cipher, claim, startedAt);
      const signed = signDelivery({ body: claim.body, secrets, deliveryId: claim.id, eventType: claim.eventType, attempt: claim.attempt, at: startedAt });
      result = await sendAttempt({
        url: claim.callbackUrl,
        body: signed.body,
        headers: signed.headers as unknown as Record<string, string>,
        timeoutMs: config.requestTimeoutMs,
        allowPrivateTargets: config.allowPrivateTargets,
        resolve,
        signal,
        connections: { pools: this.connections, subscriptionId: claim.subscriptionId },
      });
    } catch (error) {
      // Only our own failures reach here (sendAttempt classifies network ones).
      logger.error({ err: (error as Error).message, delivery_id: claim.id }, 'webhook delivery could not be prepared');
      result = { status: null, errorClass: 'internal', durationMs: Date.now() - startedAt, host: '' };
    }
    const transition: DeliveryTransition =
      result.errorClass === 'aborted' ? { kind: 'released' } : decideAfterAttempt(result, claim.attemptInSeries, config.retrySchedule, Date.now(), this.deps.random);
    const stillMine = await recordAttempt(db, claim, { startedAt, durationMs: result.durationMs, status: result.status, errorClass: result.errorClass, workerId: this.id }, transition);
    this.deps.metrics?.deliveryAttempt(transition.kind, result.errorClass);
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
    await this.claiming;
    const pending = [...this.inFlight.values()];
    if (pending.length === 0) return this.connections.close();
    // Finishing beats aborting: an aborted attempt may have reached the receiver and will
    // be sent again. But a stop must not wait out a slow receiver's full timeout.
    const grace = Math.min(this.deps.config.shutdownGraceMs, this.deps.config.requestTimeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all(pending.map((p) => p.done));
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, grace)))]);
    clearTimeout(timer);
    for (const p of this.inFlight.values()) p.controller.abort();
    await all;
    this.connections.close();
  }
}
