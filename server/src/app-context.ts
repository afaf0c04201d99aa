// What request handlers need from the running service, built once at start-up.
import type { Knex } from 'knex';
import type { Config } from './config/config.js';
import type { Logger } from './logging/logger.js';
import type { AccessTokens } from './auth/access-tokens.js';
import type { TokenRateLimiter } from './auth/token-rate-limiter.js';
import type { AuditTrail } from './audit/audit-trail.js';
import type { Webhooks } from './webhooks/webhooks.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import type { AssertionDeps } from './auth/client-assertion.js';
import type { BulkExportWorker } from './bulk/export-worker.js';
import type { InFlightRequests } from './http/in-flight-requests.js';
import type { MessageStore } from './messages/message-store.js';

export interface AppContext {
  config: Config;
  db: Knex;
  logger: Logger;
  tokens: AccessTokens;
  tokenRateLimiter: TokenRateLimiter;
  audit: AuditTrail;
  webhooks: Webhooks;
  /** Counters and histograms behind /metrics. */
  metrics: ServiceMetrics;
  /** Every inbound message with its outcome (server/src/messages). */
  messages: MessageStore;
  /** private_key_jwt: the database, the credentials' key sets and the jti replay guard. */
  clientAssertions: AssertionDeps;
  /** Runs $export jobs; a kick-off wakes it. */
  bulkExports: Pick<BulkExportWorker, 'wake'>;
  /** False once shutdown has begun: /readyz then answers 503. */
  accepting: boolean;
  /** The requests being handled: stopping waits for them before the database closes. */
  inFlight: InFlightRequests;
}
