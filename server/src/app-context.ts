// What request handlers need from the running service, built once at start-up, and the
// operation request they are handed with it. It names the domain's services, so it sits with
// the domain layer (.dependency-cruiser.cjs), above http, which carries it without knowing it.
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
import type { ClientQuotas } from './quotas/client-quotas.js';
import type { MessageStore } from './messages/message-store.js';
import type { Principal } from './auth/principal.js';
import type { OperationHandler as HttpOperationHandler, OperationRequest as HttpOperationRequest, PublicOperationHandler as HttpPublicOperationHandler, PublicOperationRequest as HttpPublicOperationRequest } from './http/operation.js';

export interface AppContext {
  config: Config;
  db: Knex;
  logger: Logger;
  tokens: AccessTokens;
  tokenRateLimiter: TokenRateLimiter;
  /** Each credential's request quota (token buckets; shared across instances on PostgreSQL). */
  quotas: ClientQuotas;
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
  /** The MLLP connections open on this instance by source address (none without a listener). */
  mllpConnections?: () => Array<{ source: string; open: number }>;
}

/** A secured operation's request as the domain's handlers get it: this context and the caller. */
export type OperationRequest = HttpOperationRequest<AppContext, Principal>;
/** A public operation's request (the token endpoint, the probes, the console's pages). */
export type PublicOperationRequest = HttpPublicOperationRequest<AppContext>;
export type OperationHandler = HttpOperationHandler<AppContext, Principal>;
export type PublicOperationHandler = HttpPublicOperationHandler<AppContext>;
