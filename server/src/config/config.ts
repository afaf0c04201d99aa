// Service configuration, read once from the environment. Every knob an operator can turn
// is here, with its default, so nothing else reads process.env. A variable is read only by a
// name declared in variables.ts (the catalogue the operators' configuration page is generated
// from): `Env` has no other keys and the readers take a `VariableName`.
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseSourceFacilities } from './mllp-source-facilities.js';
import type { ConfigEnv, VariableName } from './variables.js';

export interface Config {
  /** `sqlite:PATH` or `postgres://...`. */
  databaseUrl: string;
  host: string;
  port: number;
  logLevel: string;
  /** Trust X-Forwarded-For for the client IP (only behind a proxy you control). */
  trustProxy: boolean;
  /** The service's public origin (PUBLIC_BASE_URL), e.g. behind a proxy; the token URL in `aud` is built from it. */
  publicBaseUrl: string | undefined;
  /** Token endpoint: attempts per client IP within `tokenRateLimitWindowSeconds`. */
  tokenRateLimitPoints: number;
  tokenRateLimitWindowSeconds: number;
  /** How long a token lookup may be served from memory; bounds how late a revocation bites. */
  tokenCacheTtlMs: number;
  /** Each credential's request quota, unless `ops client update` gives it its own (server/src/quotas). */
  clientQuota: ClientQuotaConfig;
  /** The largest FHIR Bundle the ingest endpoint reads (NDJSON is streamed, never bounded). */
  ingestMaxBundleBytes: number;
  /** Webhook settings, used by server/src/webhooks. */
  webhooks: WebhookConfig;
  /** /metrics for operators (server/src/metrics). */
  metrics: MetricsConfig;
  /** How long history is kept (server/src/retention). */
  retention: RetentionConfig;
  /** FHIR Bulk Data `$export` (server/src/bulk). */
  bulkExport: BulkExportConfig;
  /** The HL7 v2 MLLP listener (server/src/hl7); off unless MLLP_PORT is set. */
  mllp: MllpConfig | undefined;
  /** Real-time eligibility: X12 270s to the payers over CAQH CORE (server/src/eligibility). */
  eligibility: EligibilityConfig;
  /** The operators' console at /console (server/src/console). */
  console: ConsoleConfig;
}

export interface ConsoleConfig {
  /** A session ends this long after sign-in, whatever its use. */
  sessionHours: number;
  /** ...or after this long without a request. */
  idleMinutes: number;
}

/**
 * 50 units a second (180,000 an hour), 1,000 at once: a partner polling 30 facilities' four
 * lists every five seconds uses 24; a first sync of 50,000 rows in pages of 200 is 1,000 units.
 * GitHub grants 5,000 requests an hour, Stripe 100 reads a second (docs/quotas.md).
 */
export const DEFAULT_CLIENT_QUOTA_RATE = 50;
export const DEFAULT_CLIENT_QUOTA_BURST = 1000;

export interface ClientQuotaConfig {
  /** Units a second (a read or a default page costs 1; docs/quotas.md). */
  rate: number;
  /** Units a credential may spend at once after a quiet spell. */
  burst: number;
  /** PostgreSQL: how often instances share what they admitted (the bound's interval). */
  syncIntervalMs: number;
}

export interface EligibilityConfig {
  workerEnabled: boolean;
  pollIntervalMs: number;
  /** CORE 156: the answer within 20 seconds. */
  timeoutMs: number;
  /** How long a claimed check stays reserved to its worker; longer than the timeout. */
  leaseMs: number;
  /** Exchanges under way at once in one instance (each connection also has its own limit). */
  concurrency: number;
  /** Each Coverage is asked about again this often (spread over the period). */
  recheckDays: number;
  /** Transport failures are retried after this long, doubling up to retryMaxMs, with jitter. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Consecutive transport failures after which a connection is paused (circuit breaker)... */
  breakerFailures: number;
  /** ...for this long, doubling while it keeps failing, up to retryMaxMs. */
  breakerPauseMs: number;
  /** Extra trusted certificate authorities (PEM file) for clearinghouses behind a private CA. */
  caFile: string | undefined;
  /** Interchange control numbers an instance takes from the database at a time (1: increasing across instances). */
  controlNumberBlock: number;
}

export interface BulkExportConfig {
  /** Where export files are written (0600); undefined on PostgreSQL without BULK_EXPORT_DIR: no export. */
  dir: string | undefined;
  ttlHours: number;
  maxJobsPerClient: number;
  workerEnabled: boolean;
  pollIntervalMs: number;
  leaseMs: number;
  /** Resources read and written per step: memory stays bounded by one page. */
  pageSize: number;
}

/** BULK_EXPORT_DIR, else beside the SQLite file; PostgreSQL instances share no disk, so there it must be set. */
function bulkExportDir(env: Env, databaseUrl: string): string | undefined {
  if (env.BULK_EXPORT_DIR) return resolve(process.env.INIT_CWD ?? process.cwd(), env.BULK_EXPORT_DIR);
  const file = sqlitePath(databaseUrl);
  if (file === null) return undefined;
  return file === ':memory:' ? resolve(tmpdir(), `ofctx-exports-${process.pid}`) : join(dirname(file), 'exports');
}

export interface MllpConfig {
  port: number;
  /** Loopback by default: MLLP has no authentication. */
  host: string;
  /** Addresses and networks (CIDR) allowed to connect; empty: any that reaches the host. */
  allowedSources: string[];
  /** A frame larger than this is NAKed (AR) and skipped. */
  maxMessageBytes: number;
  /** A connection that sends nothing for this long is closed. */
  idleTimeoutMs: number;
  /** A connection whose first byte has not arrived this long after it opened is closed; 0: off. */
  firstByteTimeoutMs: number;
  maxConnections: number;
  /** Open connections one source address may hold. */
  maxConnectionsPerSource: number;
  /** Addresses and networks (CIDR) of the known senders, for whom `reservedConnections` are kept. */
  reservedSources: string[];
  /** Of maxConnections, how many only reservedSources may use. */
  reservedConnections: number;
  /** Sources bound to one facility (by HL7 code): a message naming none is applied there (config/mllp-source-facilities.ts). */
  sourceFacilities: Array<{ source: string; facilityCode: string }>;
  /** PEM files; with caFile, clients must present a certificate it signed. */
  tls: { certFile: string; keyFile: string; caFile?: string } | undefined;
}

export interface MetricsConfig {
  /** A listener of its own serving only /metrics; off (undefined) by default. */
  port: number | undefined;
  host: string;
  /** When set, /metrics on the API port answers to `Authorization: Bearer <token>`. */
  token: string | undefined;
}

export interface RetentionConfig {
  auditDays: number;
  deliveryDays: number;
  /** The event log keeps events at least this long (longer while a delivery of theirs is kept). */
  eventDays: number;
  /** Inbound messages (the message store, with their content: PHI) are kept this long. */
  messageDays: number;
  /** Rows deleted per statement: small, so a purge never holds the writer for long. */
  batchSize: number;
  /** How often the service purges in the background; 0 turns it off (the CLI still purges). */
  intervalMs: number;
}

export interface WebhookConfig {
  /** Seconds between attempts: the n-th entry is the wait before attempt n+1. */
  retrySchedule: number[];
  requestTimeoutMs: number;
  /**
   * How long a claimed delivery stays reserved to its worker. Longer than the request
   * timeout, so only a worker that died loses its claim; then the delivery is claimable again.
   */
  leaseMs: number;
  allowPrivateTargets: boolean;
  /** Base64 AES-256 key for signing secrets at rest; generated beside the SQLite file when absent. */
  encryptionKey: string | undefined;
  /** During a key rotation: the key being retired, still used to decrypt (never to encrypt). */
  previousEncryptionKey: string | undefined;
  workerEnabled: boolean;
  pollIntervalMs: number;
  concurrency: number;
  perSubscriptionConcurrency: number;
  /** On shutdown, how long in-flight attempts may finish before they are aborted and released. */
  shutdownGraceMs: number;
  /** After a secret rotation, how long the replaced secret keeps signing beside the new one. */
  secretOverlapSeconds: number;
  /** A subscription whose every attempt failed for this long is disabled (Svix: five days). */
  disableAfterHours: number;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/ofctx.db';
/** Svix-like: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about 27 h over 8 attempts). */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

type Env = ConfigEnv;

function integer(env: Env, name: VariableName, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function positiveNumber(env: Env, name: VariableName, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number > 0, got "${raw}"`);
  return value;
}

function flag(env: Env, name: VariableName): boolean {
  return ['1', 'true', 'yes'].includes((env[name] ?? '').toLowerCase());
}

export function parseRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE;
  const steps = raw.split(',').map((s) => Number(s.trim()));
  if (steps.some((s) => !Number.isFinite(s) || s < 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds >= 0, got "${raw}"`);
  }
  return steps;
}

/** Lease margin over the request timeout: recording an outcome must fit in it too. */
export const LEASE_MARGIN_MS = 15_000;

/** Interchange control numbers an instance takes at a time (eligibility/control-numbers.ts). */
export const CONTROL_NUMBER_BLOCK = 32;
/** The least a lease may exceed the request timeout by: a claim is sent only with room for its whole attempt (webhooks/delivery-worker.ts). */
export const MIN_LEASE_ROOM_MS = 500;

function leaseMs(env: Env, requestTimeoutMs: number): number {
  const lease = integer(env, 'WEBHOOK_LEASE_MS', requestTimeoutMs + LEASE_MARGIN_MS, 1);
  if (lease < requestTimeoutMs + MIN_LEASE_ROOM_MS) {
    throw new Error(`WEBHOOK_LEASE_MS (${lease}) must be at least WEBHOOK_TIMEOUT_MS (${requestTimeoutMs}) + ${MIN_LEASE_ROOM_MS} ms, or live deliveries would be claimed twice`);
  }
  return lease;
}

/** Shorter tokens are guessable over a scrape interval's worth of attempts. */
export const MIN_METRICS_TOKEN_LENGTH = 32;

function metricsConfig(env: Env, host: string): MetricsConfig {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && token.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters (for example: openssl rand -hex 32)`);
  }
  const port = env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0) : undefined;
  return { port, host: env.METRICS_HOST || host, token };
}

/** Interface engines open a few connections per destination; a host needing more raises it. */
export const DEFAULT_MLLP_MAX_CONNECTIONS_PER_SOURCE = 16;

function mllpConfig(env: Env): MllpConfig | undefined {
  if (env.MLLP_PORT === undefined || env.MLLP_PORT === '') return undefined;
  const certFile = env.MLLP_TLS_CERT || undefined;
  const keyFile = env.MLLP_TLS_KEY || undefined;
  if (Boolean(certFile) !== Boolean(keyFile)) throw new Error('MLLP_TLS_CERT and MLLP_TLS_KEY go together: set both for TLS, or neither');
  if (env.MLLP_TLS_CA && !certFile) throw new Error('MLLP_TLS_CA needs MLLP_TLS_CERT and MLLP_TLS_KEY');
  const list = (name: VariableName) => (env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const maxConnections = integer(env, 'MLLP_MAX_CONNECTIONS', 64, 1);
  const reservedSources = list('MLLP_RESERVED_SOURCES');
  // Half by default: a flood from unknown sources leaves the known engines half the listener.
  const reservedConnections = reservedSources.length === 0 ? 0 : integer(env, 'MLLP_RESERVED_CONNECTIONS', Math.ceil(maxConnections / 2), 1);
  if (reservedSources.length === 0 && env.MLLP_RESERVED_CONNECTIONS) throw new Error('MLLP_RESERVED_CONNECTIONS needs MLLP_RESERVED_SOURCES: the senders the connections are kept for');
  if (reservedConnections > maxConnections) throw new Error(`MLLP_RESERVED_CONNECTIONS (${reservedConnections}) cannot be more than MLLP_MAX_CONNECTIONS (${maxConnections})`);
  const firstByteTimeoutMs = integer(env, 'MLLP_FIRST_BYTE_TIMEOUT_MS', 5000);
  if (firstByteTimeoutMs !== 0 && firstByteTimeoutMs < 100) throw new Error(`MLLP_FIRST_BYTE_TIMEOUT_MS must be 0 (off) or at least 100, got "${env.MLLP_FIRST_BYTE_TIMEOUT_MS}"`);
  return {
    port: integer(env, 'MLLP_PORT', 0),
    host: env.MLLP_HOST || '127.0.0.1',
    allowedSources: list('MLLP_ALLOWED_SOURCES'),
    maxMessageBytes: integer(env, 'MLLP_MAX_MESSAGE_BYTES', 1024 * 1024, 1024),
    idleTimeoutMs: integer(env, 'MLLP_IDLE_TIMEOUT_MS', 5 * 60 * 1000, 1000),
    firstByteTimeoutMs,
    maxConnections,
    maxConnectionsPerSource: integer(env, 'MLLP_MAX_CONNECTIONS_PER_SOURCE', DEFAULT_MLLP_MAX_CONNECTIONS_PER_SOURCE, 1),
    reservedSources,
    reservedConnections,
    sourceFacilities: parseSourceFacilities(list('MLLP_SOURCE_FACILITIES')),
    tls: certFile && keyFile ? { certFile, keyFile, ...(env.MLLP_TLS_CA ? { caFile: env.MLLP_TLS_CA } : {}) } : undefined,
  };
}

function publicBaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`PUBLIC_BASE_URL must be an absolute http(s) URL such as https://api.example.com, got "${raw}"`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new Error(`PUBLIC_BASE_URL must be http(s), got "${raw}"`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): Config {
  const requestTimeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 15000, 1);
  const host = env.HOST || '0.0.0.0';
  return {
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    host,
    port: integer(env, 'PORT', 8080),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: flag(env, 'TRUST_PROXY'),
    publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL),
    tokenRateLimitPoints: integer(env, 'TOKEN_RATE_LIMIT', 30, 1),
    tokenRateLimitWindowSeconds: integer(env, 'TOKEN_RATE_LIMIT_WINDOW', 60, 1),
    tokenCacheTtlMs: Math.min(integer(env, 'TOKEN_CACHE_TTL_MS', 2000), 5000),
    clientQuota: {
      rate: positiveNumber(env, 'CLIENT_QUOTA_RATE', DEFAULT_CLIENT_QUOTA_RATE),
      burst: integer(env, 'CLIENT_QUOTA_BURST', DEFAULT_CLIENT_QUOTA_BURST, 1),
      syncIntervalMs: integer(env, 'CLIENT_QUOTA_SYNC_MS', 1000, 50),
    },
    ingestMaxBundleBytes: integer(env, 'INGEST_MAX_BUNDLE_BYTES', 8 * 1024 * 1024, 1024),
    webhooks: {
      retrySchedule: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
      requestTimeoutMs,
      leaseMs: leaseMs(env, requestTimeoutMs),
      allowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
      encryptionKey: env.WEBHOOK_ENCRYPTION_KEY || undefined,
      previousEncryptionKey: env.WEBHOOK_ENCRYPTION_KEY_PREVIOUS || undefined,
      workerEnabled: env.WEBHOOK_WORKER !== '0',
      pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, 10),
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1),
      perSubscriptionConcurrency: integer(env, 'WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY', 4, 1),
      shutdownGraceMs: integer(env, 'WEBHOOK_SHUTDOWN_GRACE_MS', 5000),
      secretOverlapSeconds: integer(env, 'WEBHOOK_SECRET_OVERLAP_S', 86400),
      // Hours, fractions allowed (tests use seconds' worth).
      disableAfterHours: positiveNumber(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 120),
    },
    metrics: metricsConfig(env, host),
    console: {
      sessionHours: positiveNumber(env, 'CONSOLE_SESSION_HOURS', 8),
      idleMinutes: positiveNumber(env, 'CONSOLE_IDLE_MINUTES', 30),
    },
    retention: {
      // Six years: HIPAA's documentation retention (45 CFR 164.316(b)(2)).
      auditDays: integer(env, 'AUDIT_RETENTION_DAYS', 2190, 1),
      deliveryDays: integer(env, 'DELIVERY_RETENTION_DAYS', 30, 1),
      eventDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1),
      // The message store holds what senders sent (PHI): long enough to find and repair a weekend's refusals, no longer.
      messageDays: integer(env, 'MESSAGE_RETENTION_DAYS', 30, 1),
      batchSize: integer(env, 'RETENTION_BATCH_SIZE', 500, 1),
      intervalMs: integer(env, 'RETENTION_INTERVAL_MINUTES', 60) * 60_000,
    },
    bulkExport: {
      dir: bulkExportDir(env, env.DATABASE_URL || DEFAULT_DATABASE_URL),
      ttlHours: positiveNumber(env, 'BULK_EXPORT_TTL_HOURS', 24),
      maxJobsPerClient: integer(env, 'BULK_EXPORT_MAX_JOBS_PER_CLIENT', 2, 1),
      workerEnabled: env.BULK_EXPORT_WORKER !== '0',
      pollIntervalMs: integer(env, 'BULK_EXPORT_POLL_INTERVAL_MS', 1000, 10),
      leaseMs: integer(env, 'BULK_EXPORT_LEASE_MS', 30_000, 100),
      pageSize: integer(env, 'BULK_EXPORT_PAGE_SIZE', 1000, 1),
    },
    mllp: mllpConfig(env),
    eligibility: eligibilityConfig(env),
  };
}

function eligibilityConfig(env: Env): EligibilityConfig {
  const timeoutMs = integer(env, 'ELIGIBILITY_TIMEOUT_MS', 20_000, 1);
  const leaseMs = integer(env, 'ELIGIBILITY_LEASE_MS', timeoutMs + LEASE_MARGIN_MS, 1);
  if (leaseMs <= timeoutMs) throw new Error(`ELIGIBILITY_LEASE_MS (${leaseMs}) must be longer than ELIGIBILITY_TIMEOUT_MS (${timeoutMs}), or a check under way could be taken by another worker`);
  const retryBaseMs = integer(env, 'ELIGIBILITY_RETRY_BASE_MS', 30_000, 1);
  const retryMaxMs = integer(env, 'ELIGIBILITY_RETRY_MAX_MS', 30 * 60_000, 1);
  if (retryMaxMs < retryBaseMs) throw new Error(`ELIGIBILITY_RETRY_MAX_MS (${retryMaxMs}) cannot be less than ELIGIBILITY_RETRY_BASE_MS (${retryBaseMs})`);
  return {
    workerEnabled: env.ELIGIBILITY_WORKER !== '0',
    pollIntervalMs: integer(env, 'ELIGIBILITY_POLL_INTERVAL_MS', 1000, 10),
    timeoutMs,
    leaseMs,
    concurrency: integer(env, 'ELIGIBILITY_CONCURRENCY', 16, 1),
    recheckDays: positiveNumber(env, 'ELIGIBILITY_RECHECK_DAYS', 30),
    retryBaseMs,
    retryMaxMs,
    breakerFailures: integer(env, 'ELIGIBILITY_BREAKER_FAILURES', 5, 1),
    breakerPauseMs: integer(env, 'ELIGIBILITY_BREAKER_PAUSE_MS', 60_000, 1),
    caFile: env.ELIGIBILITY_CA_FILE || undefined,
    controlNumberBlock: integer(env, 'ELIGIBILITY_CONTROL_NUMBER_BLOCK', CONTROL_NUMBER_BLOCK, 1),
  };
}

/** The SQLite file a `sqlite:` URL names, or null for PostgreSQL. */
export function sqlitePath(databaseUrl: string): string | null {
  if (!databaseUrl.startsWith('sqlite:')) return null;
  const path = databaseUrl.slice('sqlite:'.length);
  // `npm run` starts scripts in the workspace folder; INIT_CWD is where the operator typed the
  // command, so relative paths mean the same for `npm start` and `npm run ops`.
  return path === ':memory:' ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}
