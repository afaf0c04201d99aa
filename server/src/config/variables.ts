// The catalogue of environment variables the service reads: name, the default as operators
// see it, what it means, and the group it is listed under. config.ts reads only names
// declared here (its readers take a `VariableName`), and docs/operators/configuration.md's
// tables are generated from this list (`npm run -s generate:config-docs`; CI checks drift).
// Meanings are Markdown; links are relative to docs/operators/.

export interface ConfigVariable {
  readonly name: string;
  readonly group: ConfigGroup;
  /** The default as shown to operators (Markdown): a value in backticks, or words such as "off". */
  readonly default: string;
  readonly meaning: string;
}

export const CONFIG_GROUPS = [
  'Service',
  'Tokens and quotas',
  'Webhooks',
  'Ingestion',
  'Operators console',
  'Metrics',
  'Retention',
  'Bulk Data export',
  'HL7 v2 over MLLP',
  'Real-time eligibility',
] as const;
export type ConfigGroup = (typeof CONFIG_GROUPS)[number];

export const CONFIG_VARIABLES = [
  // ---- Service ---------------------------------------------------------------------------
  { name: 'DATABASE_URL', group: 'Service', default: '`sqlite:./data/ofctx.db`', meaning: '`sqlite:PATH` (embedded) or `postgres://user@host:5432/db` (production, several instances)' },
  { name: 'PORT', group: 'Service', default: '`8080`', meaning: 'the port the service listens on' },
  { name: 'HOST', group: 'Service', default: '`0.0.0.0`', meaning: 'the address the service listens on' },
  { name: 'LOG_LEVEL', group: 'Service', default: '`info`', meaning: 'pino level; logs are JSON lines without secrets, tokens, URLs or patient data' },
  { name: 'TRUST_PROXY', group: 'Service', default: 'off', meaning: 'take the client IP from `X-Forwarded-For` (only behind your own proxy)' },
  { name: 'PUBLIC_BASE_URL', group: 'Service', default: 'the URL a request reached', meaning: 'the public origin partners call (behind a proxy), e.g. `https://api.example.com`: the SMART configuration\'s `token_endpoint` and the only `aud` accepted in client assertions' },

  // ---- Tokens and quotas ---------------------------------------------------------------------
  { name: 'TOKEN_RATE_LIMIT', group: 'Tokens and quotas', default: '`30`', meaning: 'token requests allowed per client IP per window; shared by all instances on PostgreSQL' },
  { name: 'TOKEN_RATE_LIMIT_WINDOW', group: 'Tokens and quotas', default: '`60`', meaning: 'the token rate limit\'s window, in seconds' },
  { name: 'TOKEN_CACHE_TTL_MS', group: 'Tokens and quotas', default: '`2000` (max 5000)', meaning: 'how long a token check may be served from memory' },
  { name: 'CLIENT_QUOTA_RATE', group: 'Tokens and quotas', default: '`50`', meaning: 'each credential\'s request quota: units a second, unless `ops client update --quota-rate` gives it its own ([quotas](../quotas.md))' },
  { name: 'CLIENT_QUOTA_BURST', group: 'Tokens and quotas', default: '`1000`', meaning: 'each credential\'s request quota: units at once, unless `ops client update --quota-burst` gives it its own ([quotas](../quotas.md))' },
  { name: 'CLIENT_QUOTA_SYNC_MS', group: 'Tokens and quotas', default: '`1000`', meaning: 'PostgreSQL: how often instances share what they admitted (the quota\'s error bound across instances)' },

  // ---- Webhooks ------------------------------------------------------------------------------
  { name: 'WEBHOOK_ENCRYPTION_KEY', group: 'Webhooks', default: 'generated beside the SQLite file', meaning: 'base64 of 32 bytes (`openssl rand -base64 32`): the AES-256-GCM key of signing secrets, clearinghouse passwords and stored messages at rest. **Required on PostgreSQL**, the same for every instance' },
  { name: 'WEBHOOK_ENCRYPTION_KEY_PREVIOUS', group: 'Webhooks', default: 'unset', meaning: 'during a [key rotation](keys.md#rotating-the-webhook-encryption-key) only: the key being retired, which still decrypts (never encrypts)' },
  { name: 'WEBHOOK_RETRY_SCHEDULE', group: 'Webhooks', default: '`5,300,1800,7200,18000,36000,36000`', meaning: 'seconds before each retry (±20 % jitter); after the last, a delivery is `failed`' },
  { name: 'WEBHOOK_TIMEOUT_MS', group: 'Webhooks', default: '`15000`', meaning: 'how long a receiver has to answer' },
  { name: 'WEBHOOK_LEASE_MS', group: 'Webhooks', default: 'timeout + 15 s', meaning: 'how long a claimed delivery is held before another worker may take it (after a crash); at least `WEBHOOK_TIMEOUT_MS` + 500 ms. A claim is sent only while its lease still holds a whole attempt; one that waited longer (a slow claim, a stalled process) is handed back unsent and claimed afresh' },
  { name: 'WEBHOOK_CONCURRENCY', group: 'Webhooks', default: '`32`', meaning: 'deliveries in flight per process' },
  { name: 'WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY', group: 'Webhooks', default: '`4`', meaning: 'deliveries in flight per subscription, across all workers' },
  { name: 'WEBHOOK_POLL_INTERVAL_MS', group: 'Webhooks', default: '`1000`', meaning: 'fallback polling; enqueues wake workers at once (in-process, and LISTEN/NOTIFY on PostgreSQL)' },
  { name: 'WEBHOOK_SHUTDOWN_GRACE_MS', group: 'Webhooks', default: '`5000`', meaning: 'on SIGTERM, how long in-flight deliveries may finish before they are released for retry' },
  { name: 'WEBHOOK_WORKER', group: 'Webhooks', default: 'on', meaning: '`0` runs no delivery worker in this process' },
  { name: 'WEBHOOK_SECRET_OVERLAP_S', group: 'Webhooks', default: '`86400`', meaning: 'after a signing-secret rotation, how long the old secret keeps signing beside the new one (`0`: no overlap)' },
  { name: 'WEBHOOK_DISABLE_AFTER_HOURS', group: 'Webhooks', default: '`120`', meaning: 'a subscription whose every attempt failed for this long is disabled (`disabled_reason: failing`)' },
  { name: 'WEBHOOK_ALLOW_PRIVATE_TARGETS', group: 'Webhooks', default: 'off', meaning: '**development only**: allows `http://` and loopback/private callback URLs and JWKS URLs (logged loudly at start)' },

  // ---- Ingestion -----------------------------------------------------------------------------
  { name: 'INGEST_MAX_BUNDLE_BYTES', group: 'Ingestion', default: '`8388608` (8 MiB)', meaning: 'the largest FHIR Bundle the ingest endpoint reads (`413` beyond); NDJSON is streamed, without a limit' },

  // ---- Operators console ---------------------------------------------------------------------
  { name: 'CONSOLE_SESSION_HOURS', group: 'Operators console', default: '`8`', meaning: 'an operators\' console session ends this long after sign-in' },
  { name: 'CONSOLE_IDLE_MINUTES', group: 'Operators console', default: '`30`', meaning: '...or after this long without a request' },

  // ---- Metrics -------------------------------------------------------------------------------
  { name: 'METRICS_TOKEN', group: 'Metrics', default: 'unset (off)', meaning: 'serves [`/metrics`](metrics.md) on the API port to `Authorization: Bearer <METRICS_TOKEN>` (at least 32 characters: `openssl rand -hex 32`)' },
  { name: 'METRICS_PORT', group: 'Metrics', default: 'unset (off)', meaning: 'serves `/metrics` on a listener of its own that answers nothing else (and wants the token too when `METRICS_TOKEN` is set)' },
  { name: 'METRICS_HOST', group: 'Metrics', default: '`HOST`', meaning: 'the address of the `METRICS_PORT` listener' },

  // ---- Retention -----------------------------------------------------------------------------
  { name: 'AUDIT_RETENTION_DAYS', group: 'Retention', default: '`2190` (six years)', meaning: 'audit rows older than this are purged' },
  { name: 'DELIVERY_RETENTION_DAYS', group: 'Retention', default: '`30`', meaning: 'webhook history older than this is purged: attempts, finished deliveries (with their bodies). Queued deliveries are never purged' },
  { name: 'EVENT_RETENTION_DAYS', group: 'Retention', default: '`30`', meaning: 'the event log keeps events this long; older ones are purged once no delivery refers to them' },
  { name: 'MESSAGE_RETENTION_DAYS', group: 'Retention', default: '`30`', meaning: 'the [message store](message-store.md) keeps every inbound message (its content is patient data) this long' },
  { name: 'RETENTION_INTERVAL_MINUTES', group: 'Retention', default: '`60`', meaning: 'how often each instance purges in the background (`0`: never; `ops purge` still works)' },
  { name: 'RETENTION_BATCH_SIZE', group: 'Retention', default: '`500`', meaning: 'rows per delete statement of the purge' },

  // ---- Bulk Data export ----------------------------------------------------------------------
  { name: 'BULK_EXPORT_DIR', group: 'Bulk Data export', default: '`exports/` beside the SQLite file', meaning: 'where [`$export`](../partners/bulk-export.md) files are written (folders 0700, files 0600). **Required on PostgreSQL** for `$export` (a folder every instance shares)' },
  { name: 'BULK_EXPORT_TTL_HOURS', group: 'Bulk Data export', default: '`24`', meaning: 'how long a finished export\'s files stay downloadable; then the retention purge removes the job and its files' },
  { name: 'BULK_EXPORT_MAX_JOBS_PER_CLIENT', group: 'Bulk Data export', default: '`2`', meaning: 'exports a client may have queued or running at once; more answer `429` with `Retry-After`' },
  { name: 'BULK_EXPORT_PAGE_SIZE', group: 'Bulk Data export', default: '`1000`', meaning: 'resources per step of a job' },
  { name: 'BULK_EXPORT_POLL_INTERVAL_MS', group: 'Bulk Data export', default: '`1000`', meaning: 'how often the export worker looks for jobs' },
  { name: 'BULK_EXPORT_LEASE_MS', group: 'Bulk Data export', default: '`30000`', meaning: 'how long a job\'s claim lasts without progress before another instance takes it over' },
  { name: 'BULK_EXPORT_WORKER', group: 'Bulk Data export', default: 'on', meaning: '`0` runs no export worker in this process' },

  // ---- HL7 v2 over MLLP ----------------------------------------------------------------------
  { name: 'MLLP_PORT', group: 'HL7 v2 over MLLP', default: 'off', meaning: 'the MLLP listener\'s port (`0`: any free port)' },
  { name: 'MLLP_HOST', group: 'HL7 v2 over MLLP', default: '`127.0.0.1`', meaning: 'where it listens: loopback by default, because MLLP has no authentication' },
  { name: 'MLLP_ALLOWED_SOURCES', group: 'HL7 v2 over MLLP', default: 'any', meaning: 'comma-separated addresses and networks (`10.20.0.0/16,192.168.1.7`); others are closed before a byte is read' },
  { name: 'MLLP_TLS_CERT', group: 'HL7 v2 over MLLP', default: 'off', meaning: 'PEM file, with `MLLP_TLS_KEY`: the listener speaks MLLP over TLS with your certificate' },
  { name: 'MLLP_TLS_KEY', group: 'HL7 v2 over MLLP', default: 'off', meaning: 'PEM file: the private key of `MLLP_TLS_CERT`' },
  { name: 'MLLP_TLS_CA', group: 'HL7 v2 over MLLP', default: 'off', meaning: 'PEM file: senders must present a client certificate it signed (mutual TLS)' },
  { name: 'MLLP_MAX_MESSAGE_BYTES', group: 'HL7 v2 over MLLP', default: '`1048576`', meaning: 'larger frames are NAKed `AR` and skipped' },
  { name: 'MLLP_IDLE_TIMEOUT_MS', group: 'HL7 v2 over MLLP', default: '`300000`', meaning: 'idle connections are closed' },
  { name: 'MLLP_MAX_CONNECTIONS', group: 'HL7 v2 over MLLP', default: '`64`', meaning: 'connections beyond the maximum are refused' },
  { name: 'MLLP_FIRST_BYTE_TIMEOUT_MS', group: 'HL7 v2 over MLLP', default: '`5000`', meaning: 'a connection that has not sent its first byte this long after it opened (with TLS: handshake included) is closed; `0` turns it off' },
  { name: 'MLLP_MAX_CONNECTIONS_PER_SOURCE', group: 'HL7 v2 over MLLP', default: '`16`', meaning: 'open connections one source address may hold; more are refused' },
  { name: 'MLLP_SOURCE_FACILITIES', group: 'HL7 v2 over MLLP', default: 'none', meaning: 'comma-separated `<address or network>=<facility HL7 code>` (`10.20.4.9=MAPLE`): a source bound to exactly one facility; its messages that name no facility (no PV1-3.4, no MSH-4) are applied there' },
  { name: 'MLLP_RESERVED_SOURCES', group: 'HL7 v2 over MLLP', default: 'none', meaning: 'comma-separated addresses and networks of the engines you know: they keep a share of `MLLP_MAX_CONNECTIONS`' },
  { name: 'MLLP_RESERVED_CONNECTIONS', group: 'HL7 v2 over MLLP', default: 'half of `MLLP_MAX_CONNECTIONS`', meaning: 'with `MLLP_RESERVED_SOURCES`: how many connections only those sources may use; all other sources together hold at most the rest' },

  // ---- Real-time eligibility (docs/eligibility.md) -------------------------------------------
  { name: 'ELIGIBILITY_WORKER', group: 'Real-time eligibility', default: 'on', meaning: '`0` runs no eligibility worker in this process (another instance, or `ops eligibility check`, asks)' },
  { name: 'ELIGIBILITY_RECHECK_DAYS', group: 'Real-time eligibility', default: '`30`', meaning: 'how often an active Coverage is asked about again ([real-time eligibility](../eligibility.md))' },
  { name: 'ELIGIBILITY_TIMEOUT_MS', group: 'Real-time eligibility', default: '`20000`', meaning: 'how long the clearinghouse has to answer (CORE 156: 20 s)' },
  { name: 'ELIGIBILITY_LEASE_MS', group: 'Real-time eligibility', default: 'timeout + 15 s', meaning: 'how long a claimed check is held before another worker may take it (after a crash); longer than `ELIGIBILITY_TIMEOUT_MS`' },
  { name: 'ELIGIBILITY_CONCURRENCY', group: 'Real-time eligibility', default: '`16`', meaning: 'exchanges at once in one instance (each connection also has its `--concurrency`)' },
  { name: 'ELIGIBILITY_POLL_INTERVAL_MS', group: 'Real-time eligibility', default: '`1000`', meaning: 'how often the worker looks for due checks' },
  { name: 'ELIGIBILITY_RETRY_BASE_MS', group: 'Real-time eligibility', default: '`30000`', meaning: 'retried exchanges wait this long first, doubling (with jitter)' },
  { name: 'ELIGIBILITY_RETRY_MAX_MS', group: 'Real-time eligibility', default: '`1800000`', meaning: '...up to this long; at least `ELIGIBILITY_RETRY_BASE_MS`' },
  { name: 'ELIGIBILITY_BREAKER_FAILURES', group: 'Real-time eligibility', default: '`5`', meaning: 'consecutive transport failures after which a connection is paused (circuit breaker)' },
  { name: 'ELIGIBILITY_BREAKER_PAUSE_MS', group: 'Real-time eligibility', default: '`60000`', meaning: 'how long the breaker pauses a connection, doubling while it keeps failing (up to `ELIGIBILITY_RETRY_MAX_MS`)' },
  { name: 'ELIGIBILITY_CONTROL_NUMBER_BLOCK', group: 'Real-time eligibility', default: '`32`', meaning: 'interchange control numbers (ISA13) an instance takes from the database at a time: unique across instances, increasing within each; `1` makes them increase across instances, at a statement per exchange' },
  { name: 'ELIGIBILITY_CA_FILE', group: 'Real-time eligibility', default: 'unset', meaning: 'extra trusted certificate authorities (PEM) for the clearinghouse\'s TLS' },
] as const satisfies readonly ConfigVariable[];

/** A variable the service may read: config.ts's readers accept only these names. */
export type VariableName = (typeof CONFIG_VARIABLES)[number]['name'];

/** The environment as config.ts sees it: only declared variables can be named. */
export type ConfigEnv = { readonly [name in VariableName]?: string | undefined };
