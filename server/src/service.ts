// Starts and stops the whole service: database and migrations, the API, the HTTP listener
// and background work. Used by main.ts, the tests and the benchmarks alike.
import { ClientKeySets } from './auth/client-keys.js';
import { AssertionReplayGuard } from './auth/assertion-replay.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Config } from './config/config.js';
import { isPostgres, openDatabase } from './db/database.js';
import { filesOpenToOthers, sqliteFiles } from './db/private-files.js';
import { migrateToLatest } from './db/migrate.js';
import { startWalCheckpointer } from './db/wal-checkpointer.js';
import { createLogger, type Logger } from './logging/logger.js';
import { AccessTokens } from './auth/access-tokens.js';
import { TokenRateLimiter } from './auth/token-rate-limiter.js';
import { decoyHash } from './auth/secret-hash.js';
import { AuditTrail } from './audit/audit-trail.js';
import { DisclosureIndexer } from './audit/disclosure-index.js';
import { createApiBackend } from './api-backend.js';
import { createKoaApp } from './app.js';
import { answerMalformedRequests } from './http/malformed-request.js';
import { HARD_MAX_HEADER_BYTES } from './http/header-size.js';
import { operations } from './operations.js';
import type { AppContext } from './app-context.js';
import { Webhooks, type WebhooksOptions } from './webhooks/webhooks.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { startMetricsListener } from './http/metrics-endpoint.js';
import { RetentionPurger } from './retention/retention-purger.js';
import { HistoryPartitionKeeper } from './db/history-partition-keeper.js';
import { MllpListener } from './hl7/mllp-listener.js';
import { MessageStore } from './messages/message-store.js';
import { BulkExportWorker } from './bulk/export-worker.js';
import { InFlightRequests } from './http/in-flight-requests.js';
import { readFileSync } from 'node:fs';
import { EligibilityWorker } from './eligibility/eligibility-worker.js';
import { queueDepth } from './eligibility/check-queue.js';
import { ClientQuotas } from './quotas/client-quotas.js';
import { QuotaReconciler } from './quotas/quota-reconciler.js';
import { startQuotaReports } from './quotas/quota-reports.js';

export interface RunningService {
  url: string;
  port: number;
  app: AppContext;
  server: Server;
  /** The webhooks subsystem: emitEvent for in-process callers and tests. */
  webhooks: Webhooks;
  /** The dedicated metrics listener's port, when METRICS_PORT is set. */
  metricsPort: number | undefined;
  /** The HL7 v2 MLLP listener, when MLLP_PORT is set. */
  mllp: MllpListener | undefined;
  /** Asks payers about Coverages (X12 270 over CAQH CORE). */
  eligibility: EligibilityWorker;
  close(): Promise<void>;
}

const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

export async function startService(config: Config, options: { logger?: Logger; db?: Knex; webhooks?: WebhooksOptions } = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const db = options.db ?? openDatabase(config.databaseUrl);
  const metrics = new ServiceMetrics(db);
  // First, before the database is touched: without a usable encryption key for webhook
  // signing secrets the service refuses to start.
  let webhooks: Webhooks;
  try {
    webhooks = Webhooks.create(config, db, logger, { metrics, ...options.webhooks });
  } catch (error) {
    if (!options.db) await db.destroy();
    throw error;
  }
  await migrateToLatest(db);
  // PostgreSQL: the history tables' partitions for now and ahead, and an upgrade's online
  // move to partitions carried on in the background.
  const partitionKeeper = new HistoryPartitionKeeper(db, {
    created: (partitions) => logger.info({ partitions }, 'history partitions created ahead'),
    moved: (table) => logger.info({ table }, 'history table moved to its time partitions'),
    failed: (error) => logger.warn({ err: error }, 'history partition upkeep failed; writes go to the DEFAULT partition meanwhile, and it is retried'),
  });
  await partitionKeeper.start();
  // SQLite checkpoints from a thread of their own, not inside a commit on the event loop.
  const sqliteFile = isPostgres(db) ? null : ((db.client.config.connection as { filename?: string } | undefined)?.filename ?? null);
  if (sqliteFile !== null && sqliteFile !== ':memory:') {
    const open = filesOpenToOthers(sqliteFiles(sqliteFile));
    if (open.length > 0) logger.warn({ files: open }, 'the SQLite database holds patient data and is readable by other users: chmod 600 these files');
  }
  const checkpointer =
    sqliteFile !== null && sqliteFile !== ':memory:'
      ? await startWalCheckpointer(db, sqliteFile, { onFailure: (message) => logger.warn({ err: message }, 'SQLite checkpoint thread failed; checkpointing on commit again') })
      : undefined;
  const closeDatabase = async () => {
    await checkpointer?.stop();
    if (!options.db) await db.destroy();
  };
  // The decoy hash (for unknown clients) is computed in the background: the first token
  // request awaits it if it is not ready yet.
  decoyHash().catch((error: Error) => logger.error({ err: error }, 'could not compute the decoy hash'));
  const tokenRateLimiter = await TokenRateLimiter.create(db, config.tokenRateLimitPoints, config.tokenRateLimitWindowSeconds);
  const bulkExports = new BulkExportWorker(db, config.bulkExport, logger);
  const quotas = new ClientQuotas(config.clientQuota);
  // Several instances share one PostgreSQL: they share each client's quota through it.
  const quotaReconciler = isPostgres(db) ? new QuotaReconciler(db, quotas, config.clientQuota.syncIntervalMs, logger) : undefined;
  const app: AppContext = {
    config,
    db,
    logger,
    tokens: new AccessTokens(db, config.tokenCacheTtlMs),
    tokenRateLimiter,
    quotas,
    audit: new AuditTrail(db),
    webhooks,
    metrics,
    messages: new MessageStore(db, webhooks.cipher, metrics),
    clientAssertions: {
      db,
      // JWKS URLs are fetched under the same address policy (and DNS) as webhook callbacks.
      keys: new ClientKeySets({ allowPrivateTargets: config.webhooks.allowPrivateTargets, resolve: webhooks.resolveHost }),
      replay: new AssertionReplayGuard(db),
    },
    bulkExports,
    accepting: true,
    inFlight: new InFlightRequests(),
  };
  if (config.metrics.token !== undefined || config.metrics.port !== undefined) metrics.collectProcessMetrics();
  const api = await createApiBackend(app, operations);
  const koa = createKoaApp(app, api);
  // Headers over 16 KiB are refused in each operation's own error format (http/header-size.ts).
  const server = createServer({ maxHeaderSize: HARD_MAX_HEADER_BYTES }, koa.callback());
  answerMalformedRequests(server);
  server.keepAliveTimeout = 65_000;
  // A streamed NDJSON import lasts as long as its source (10^6 resources: minutes), so no
  // whole-request deadline (Node's default is 300 s); a client that stops sending is cut by
  // the idle timeout instead, and headers still must arrive within headersTimeout.
  server.requestTimeout = 0;
  server.timeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const housekeeping = setInterval(() => {
    app.tokens.deleteExpired().catch((error: Error) => logger.warn({ err: error }, 'token clean-up failed'));
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  quotaReconciler?.start();
  const stopQuotaReports = startQuotaReports(quotas, logger, metrics);
  let metricsListener: Awaited<ReturnType<typeof startMetricsListener>> | undefined;
  if (config.metrics.port !== undefined) {
    try {
      metricsListener = await startMetricsListener({ ...config.metrics, port: config.metrics.port }, metrics);
    } catch (error) {
      // METRICS_PORT taken, say: stop cleanly rather than leave the API half started.
      clearInterval(housekeeping);
      stopQuotaReports();
      await quotaReconciler?.stop();
      await partitionKeeper.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeDatabase();
      throw error;
    }
    logger.info({ port: metricsListener.port }, 'metrics served on their own port at /metrics');
  }
  const purger = new RetentionPurger(db, config.retention, logger, metrics, config.bulkExport);
  purger.start();
  const disclosureIndexer = new DisclosureIndexer(db, (error) => logger.warn({ err: error }, 'disclosure index catch-up failed; the report still reads the queued rows, and it is retried'));
  app.audit.onDisclosures = () => disclosureIndexer.wake();
  disclosureIndexer.start();
  await webhooks.start();
  bulkExports.start();
  const eligibility = new EligibilityWorker({
    db,
    config: config.eligibility,
    allowPrivateTargets: config.webhooks.allowPrivateTargets,
    cipher: webhooks.cipher,
    resolve: webhooks.resolveHost,
    logger,
    metrics,
    ...(config.eligibility.caFile ? { ca: readFileSync(config.eligibility.caFile, 'utf8') } : {}),
  });
  metrics.registerEligibilityQueue(() => queueDepth(db));
  if (config.eligibility.workerEnabled) eligibility.start();
  let mllp: MllpListener | undefined;
  try {
    mllp = config.mllp ? await MllpListener.start(config.mllp, db, logger, metrics, app.messages) : undefined;
    if (mllp) app.mllpConnections = () => mllp!.openConnections();
  } catch (error) {
    // The MLLP port is taken or a TLS file is unreadable: nothing is left running.
    clearInterval(housekeeping);
    stopQuotaReports();
    await quotaReconciler?.stop();
    await purger.stop();
    await partitionKeeper.stop();
    await disclosureIndexer.stop();
    await bulkExports.stop();
    await eligibility.stop();
    await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), webhooks.stop(), metricsListener?.close()]);
    await closeDatabase();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      app.accepting = false;
      clearInterval(housekeeping);
      await purger.stop();
      await partitionKeeper.stop();
      // Stop accepting, let in-flight requests finish, then drop idle keep-alive sockets.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // The delivery worker records its last attempts, and HL7 messages being applied get
      // their ACK, before the database closes.
      await Promise.all([closed, webhooks.stop(), bulkExports.stop(), eligibility.stop(), metricsListener?.close(), mllp?.close()]);
      // Handlers whose client hung up are not connections any more, but still use the database.
      await app.inFlight.drained();
      // After the last request: what this instance admitted is reported to the others.
      stopQuotaReports();
      await quotaReconciler?.stop();
      // After the last request's audit row: what it disclosed is indexed now or at the next start.
      await disclosureIndexer.stop();
      await closeDatabase();
    })();
    return closing;
  };
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return { url: `http://${host}:${port}`, port, metricsPort: metricsListener?.port, app, server, webhooks, mllp, eligibility, close };
}
