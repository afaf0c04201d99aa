// The webhooks subsystem as the service holds it: the signing-secret cipher, the resolver
// used to vet callback hosts, the delivery worker and its PostgreSQL wake-ups, and
// emitEvent for in-process callers (which also wakes this process's worker at once).
import type { Knex } from 'knex';
import type { Config } from '../config/config.js';
import { isPostgres } from '../db/database.js';
import type { Logger } from '../logging/logger.js';
import { DeliveryWorker } from './delivery-worker.js';
import { PostgresWakeupListener, wakeOnSqliteEnqueue } from './delivery-wakeup.js';
import { emitEvent, type EmittedEvent, type EventInput } from './event-outbox.js';
import { loadSigningSecretCipher, type SigningSecretCipher } from '../db/signing-secret-crypto.js';
import { systemResolver, type HostResolver } from './ssrf-guard.js';
import type { DeliveryMetrics } from './delivery-worker.js';
import { disableFailingSubscriptions, SubscriptionHealth, sweepIntervalMs } from './subscription-health.js';
import { HEARTBEAT_SWEEP_MS, queueHeartbeats } from './fhir/heartbeats.js';

export interface WebhooksOptions {
  /** Replaces DNS resolution of callback hosts (tests simulate DNS with it). */
  resolveHost?: HostResolver;
  /** Replaces Math.random for retry jitter. */
  random?: () => number;
  /** Counts delivery attempts by outcome (/metrics). */
  metrics?: DeliveryMetrics;
}

export class Webhooks {
  private worker: DeliveryWorker | undefined;
  private listener: PostgresWakeupListener | undefined;
  private stopWaking: (() => void) | undefined;
  private health: SubscriptionHealth | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeats: Promise<void> | undefined;

  private constructor(
    private readonly db: Knex,
    readonly config: Config,
    readonly cipher: SigningSecretCipher,
    readonly resolveHost: HostResolver,
    private readonly logger: Logger,
    private readonly random: (() => number) | undefined,
    private readonly metrics: DeliveryMetrics | undefined,
  ) {}

  /** Loads the encryption key; throws (the service refuses to start) when there is none on PostgreSQL. */
  static create(config: Config, db: Knex, logger: Logger, options: WebhooksOptions = {}): Webhooks {
    const { cipher, loaded: key } = loadSigningSecretCipher(config.databaseUrl, config.webhooks.encryptionKey, config.webhooks.previousEncryptionKey);
    logger.info({ key_source: key.source, ...(key.file ? { key_file: key.file } : {}), rotating: cipher.rotating }, 'webhook signing secrets are encrypted at rest');
    if (cipher.rotating) logger.warn('WEBHOOK_ENCRYPTION_KEY_PREVIOUS is set: run `npm run -s ops -- keys rotate`, then remove it');
    if (config.webhooks.allowPrivateTargets) {
      logger.warn(
        'WEBHOOK_ALLOW_PRIVATE_TARGETS is ON: webhooks may be sent over plain http and to loopback, private and metadata addresses. ' +
          'Never enable this in production.',
      );
    }
    return new Webhooks(db, config, cipher, options.resolveHost ?? systemResolver, logger, options.random, options.metrics);
  }

  /** Starts the delivery worker (unless WEBHOOK_WORKER=0) and, on PostgreSQL, its LISTEN. */
  async start(): Promise<void> {
    if (!this.config.webhooks.workerEnabled) {
      this.logger.info('webhook delivery worker disabled (WEBHOOK_WORKER=0)');
      return;
    }
    this.health = new SubscriptionHealth(this.db, this.logger);
    const worker = new DeliveryWorker({
      db: this.db,
      config: this.config.webhooks,
      cipher: this.cipher,
      resolve: this.resolveHost,
      logger: this.logger,
      random: this.random,
      metrics: this.metrics,
      health: this.health,
    });
    this.worker = worker;
    if (isPostgres(this.db)) {
      this.listener = new PostgresWakeupListener(this.config.databaseUrl, () => worker.wake(), this.logger);
      await this.listener.start();
    } else {
      this.stopWaking = wakeOnSqliteEnqueue(() => worker.wake());
    }
    worker.start();
    this.scheduleSweep();
    this.scheduleHeartbeats();
    this.logger.info({ worker_id: worker.id, concurrency: this.config.webhooks.concurrency }, 'webhook delivery worker started');
  }

  /** Stops the worker; call before the database closes. */
  async stop(): Promise<void> {
    clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
    clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    await this.heartbeats;
    this.stopWaking?.();
    await this.listener?.stop();
    await this.worker?.stop();
    await this.sweeping;
    await this.health?.settled();
  }

  /** Disables now the subscriptions failing for longer than WEBHOOK_DISABLE_AFTER_HOURS (the sweep's work); their ids. */
  async disableFailingSubscriptions(now?: number): Promise<string[]> {
    await this.health?.settled();
    const disabled = await disableFailingSubscriptions(this.db, this.config.webhooks.disableAfterHours, now);
    for (const id of disabled) {
      this.logger.warn({ subscription_id: id, disable_after_hours: this.config.webhooks.disableAfterHours }, 'webhook subscription disabled: every attempt failed for the whole window');
    }
    return disabled;
  }

  /** FHIR Subscriptions' heartbeats (fhir/heartbeats.ts), looked for every HEARTBEAT_SWEEP_MS. */
  private scheduleHeartbeats(): void {
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeats = queueHeartbeats(this.db)
        .then((queued) => {
          if (queued.length > 0) this.worker?.wake();
        })
        .catch((error: Error) => this.logger.warn({ err: error }, 'FHIR subscription heartbeats could not be queued; retrying at the next sweep'))
        .finally(() => {
          this.heartbeats = undefined;
          if (this.heartbeatTimer !== undefined) this.scheduleHeartbeats();
        });
    }, HEARTBEAT_SWEEP_MS);
    this.heartbeatTimer.unref();
  }

  private scheduleSweep(): void {
    this.sweepTimer = setTimeout(() => {
      this.sweeping = this.disableFailingSubscriptions()
        .then(() => undefined)
        .catch((error: Error) => this.logger.warn({ err: error }, 'webhook failure sweep failed; retrying at the next one'))
        .finally(() => {
          this.sweeping = undefined;
          if (this.sweepTimer !== undefined) this.scheduleSweep();
        });
    }, sweepIntervalMs(this.config.webhooks.disableAfterHours));
    this.sweepTimer.unref();
  }

  /**
   * Queues an event's deliveries (one transaction) and wakes this process's worker: on
   * SQLite the enqueue itself does (delivery-wakeup.ts); on PostgreSQL, at once after the
   * commit, without waiting for its own NOTIFY to come back.
   */
  async emitEvent(input: EventInput): Promise<EmittedEvent> {
    const emitted = await emitEvent(this.db, input);
    if (emitted.deliveries > 0 && isPostgres(this.db)) this.worker?.wake();
    return emitted;
  }

  /** Makes the worker look for due deliveries now (after a redelivery, say). */
  wake(): void {
    this.worker?.wake();
  }

  get workerId(): string | undefined {
    return this.worker?.id;
  }
}
