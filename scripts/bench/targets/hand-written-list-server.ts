// The honest ceiling of the coverage list: the same work as the service, written by hand
// with no framework. node:http, and better-sqlite3 prepared statements (or `pg` named
// statements on PostgreSQL). Per request it: looks up the bearer token (SHA-256, cached for
// the service's default TTL, with the credential's status and granted facilities), checks
// the scope, organization and facility, reads the facility's count and the page of 50,
// takes the request from the credential's quota (a token bucket per client, in memory: one
// instance; answered in the same RateLimit fields), writes one durable audit row naming the
// residents shown, for the accounting of disclosures
// (its own commit, before answering; the index by resident is caught up once a second with
// the service's SQL, audit/disclosure-index.ts), and answers the same
// bytes with the same headers as the service. No contract validation, no routing table.
// It is plain, straightforward code, not a copy of the service's tricks: the service reads
// page 1 and its count in one statement, group-commits audit rows and serializes the page
// once; this server does each the obvious way (docs/benchmarks.md says so with the figures).
//   node hand-written-list-server.ts DATABASE_URL PORT
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { sqliteDriver } from '../../../server/src/db/sqlite-driver.js';
import pg from 'pg';
import { loadConfig, sqlitePath } from '../../../server/src/config/config.js';
import { toCoverage, type CoverageRow } from '../../../server/src/resources/fhir-coverage.js';
import { seqNext } from '../../../server/src/resources/sync-pages.js';
import { digestTag } from '../../../server/src/http/conditional-get.js';
import { TokenBucket } from '../../../server/src/quotas/token-bucket.js';
import { quotaFields } from '../../../server/src/quotas/quota-admission.js';
import { INDEX_BATCH_MAX_ROWS, POSTGRES_BATCH, timedIndexBatchSize, SQLITE_BOUNDS_OF_BATCH, SQLITE_DEQUEUE, SQLITE_GROUPS, SQLITE_INDEX } from '../../../server/src/audit/disclosure-index.js';

const [databaseUrl, port] = process.argv.slice(2);
const TOKEN_CACHE_TTL_MS = loadConfig({}).tokenCacheTtlMs;
/** Each credential's request quota, as the service is configured (the benchmark sets it for both). */
const QUOTA = loadConfig(process.env).clientQuota;
const buckets = new Map<string, TokenBucket>();
const LIST = /^\/api\/v1\/ofctx\/([0-9a-f-]{36})\/([0-9a-f-]{36})\/coverage$/;

// int8 (count(*)) as a number, as the service has it.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

type Row = Record<string, unknown>;
interface Store {
  token(hash: string): Promise<{ row: Row | undefined; facilities: string[] }>;
  counts(facilityId: string): Promise<Row | undefined>;
  page(facilityId: string, limit: number): Promise<Row[]>;
  /** The request's audit row, with the residents it disclosed, one commit. */
  audit(params: unknown[]): Promise<void>;
  /** Moves queued audit rows into the disclosure index; returns how many it took. */
  indexDisclosures(limit: number): Promise<number>;
}

const TOKEN_SQL =
  'select t.client_pk, t.scopes, t.facility_ids, t.expires_at, c.client_id, c.org_id, c.status, c.purpose from access_tokens t join clients c on c.id = t.client_pk where t.token_hash = ? limit 1';
const FACILITIES_SQL = 'select facility_id from client_facilities where client_pk = ?';
const COUNTS_SQL = "select total from facility_resource_counts where resource = 'coverage' and facility_id = ? limit 1";
const PAGE_SQL = 'select * from coverage where facility_id = ? and seq > 0 order by seq limit ?';
const AUDIT_SQL =
  'insert into audit_events (at, request_id, client_id, org_id, facility_id, operation, status, resource_ids, result_count, purpose, disclosures) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

function sqliteStore(file: string): Store {
  const db = new (sqliteDriver())(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const token = db.prepare(TOKEN_SQL);
  const facilities = db.prepare(FACILITIES_SQL).pluck();
  const counts = db.prepare(COUNTS_SQL);
  const page = db.prepare(PAGE_SQL);
  const audit = db.prepare(AUDIT_SQL);
  const boundsOfBatch = db.prepare(SQLITE_BOUNDS_OF_BATCH);
  const groups = db.prepare(SQLITE_GROUPS);
  const index = db.prepare(SQLITE_INDEX);
  const dequeue = db.prepare(SQLITE_DEQUEUE);
  const indexBatch = db.transaction((limit: number) => {
    const batch = boundsOfBatch.get(limit) as { first: number | null; last: number | null; rows: number };
    if (batch.first === null || batch.last === null) return 0;
    groups.run(batch.last);
    index.run(batch.first, batch.last);
    dequeue.run(batch.last);
    return batch.rows;
  });
  return {
    token: async (hash) => {
      const row = token.get(hash) as Row | undefined;
      return { row, facilities: row ? (facilities.all(row.client_pk) as string[]) : [] };
    },
    counts: async (facilityId) => counts.get(facilityId) as Row | undefined,
    page: async (facilityId, limit) => page.all(facilityId, limit) as Row[],
    audit: async (params) => void audit.run(...params),
    indexDisclosures: async (limit) => indexBatch(limit),
  };
}

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const statement = (name: string, sql: string) => {
    const text = numbered(sql);
    return async (values: unknown[]) => (await pool.query({ name, text, values })).rows as Row[];
  };
  const token = statement('token', TOKEN_SQL);
  const facilities = statement('facilities', FACILITIES_SQL);
  const counts = statement('counts', COUNTS_SQL);
  const page = statement('page', PAGE_SQL);
  const audit = statement('audit', AUDIT_SQL);
  const indexBatch = statement('index_disclosures', POSTGRES_BATCH);
  let resumeAt = 0;
  return {
    token: async (hash) => {
      const [row] = await token([hash]);
      return { row, facilities: row ? (await facilities([row.client_pk])).map((r) => r.facility_id as string) : [] };
    },
    counts: async (facilityId) => (await counts([facilityId]))[0],
    page: (facilityId, limit) => page([facilityId, limit]),
    audit: async (params) => void (await audit(params)),
    // From the first seq of the previous batch, as the service's catch-up (audit/disclosure-index.ts).
    indexDisclosures: async (limit) => {
      const [batch] = await indexBatch([resumeAt, limit]);
      if (batch?.first != null) resumeAt = Math.max(resumeAt, Number(batch.first));
      return Number(batch?.rows ?? 0);
    },
  };
}

const file = sqlitePath(databaseUrl!);
const store = file !== null ? sqliteStore(file) : postgresStore(databaseUrl!);

// The disclosure index catches up once a second, a batch at a time, its batches sized by time
// on SQLite and of the ceiling on PostgreSQL, as the service's are.
const batchSize = timedIndexBatchSize();
const catchUp = async (): Promise<void> => {
  try {
    for (;;) {
      const limit = file !== null ? batchSize.current : INDEX_BATCH_MAX_ROWS;
      const started = performance.now();
      const rows = await store.indexDisclosures(limit);
      batchSize.observe(rows, limit, performance.now() - started);
      if (rows < limit) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (error) {
    process.stderr.write(`disclosure index: ${(error as Error).message}\n`);
  }
  setTimeout(() => void catchUp(), 1_000).unref();
};
setTimeout(() => void catchUp(), 1_000).unref();

interface Principal {
  clientId: string;
  orgId: string;
  scopes: Set<string>;
  facilityIds: Set<string>;
  expiresAt: number;
  purpose: string;
}
const tokenCache = new Map<string, { principal: Principal | null; loadedAt: number }>();

async function principalOf(token: string): Promise<Principal | null> {
  const hash = createHash('sha256').update(token, 'utf8').digest('hex');
  const now = Date.now();
  let entry = tokenCache.get(hash);
  if (!entry || now - entry.loadedAt > TOKEN_CACHE_TTL_MS) {
    const { row, facilities } = await store.token(hash);
    let principal: Principal | null = null;
    if (row && row.status === 'active') {
      const granted = new Set(facilities);
      principal = {
        clientId: row.client_id as string,
        orgId: row.org_id as string,
        scopes: new Set((row.scopes as string).split(' ')),
        facilityIds: new Set((JSON.parse(row.facility_ids as string) as string[]).filter((id) => granted.has(id))),
        expiresAt: Number(row.expires_at),
        purpose: String(row.purpose ?? 'HOPERAT'),
      };
    }
    entry = { principal, loadedAt: now };
    tokenCache.set(hash, entry);
  }
  return entry.principal && entry.principal.expiresAt > now ? entry.principal : null;
}

function send(res: ServerResponse, status: number, requestId: string, body: string, etag?: string, fields: Record<string, string> = {}): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, {
    'x-request-id': requestId,
    ...fields,
    ...(etag ? { etag } : {}),
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-length': String(bytes.length),
  });
  res.end(bytes);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = randomUUID();
  const url = new URL(req.url ?? '/', 'http://localhost');
  const match = LIST.exec(url.pathname);
  if (req.method !== 'GET' || !match) return send(res, 404, requestId, '{"error":"not found"}');
  const [, orgId, facilityId] = match as unknown as [string, string, string];
  const pageSize = Number(url.searchParams.get('page_size') ?? 50);
  const bearer = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(req.headers.authorization ?? '');
  const principal = bearer ? await principalOf(bearer[1]!) : null;
  if (!principal) return send(res, 401, requestId, '{"error":"invalid_token"}');
  if (!principal.scopes.has('coverage.read') || principal.orgId !== orgId || !principal.facilityIds.has(facilityId)) {
    return send(res, 403, requestId, '{"error":"forbidden"}');
  }
  // The credential's quota: a list page costs 1.
  const now = Date.now();
  let bucket = buckets.get(principal.clientId);
  if (!bucket) buckets.set(principal.clientId, (bucket = new TokenBucket(QUOTA, now)));
  const verdict = bucket.take(1, now);
  const fields = quotaFields(QUOTA, verdict);
  if (!verdict.allowed) return send(res, 429, requestId, '{"error":"rate_limited"}', undefined, { ...fields, 'retry-after': String(verdict.retryAfterSeconds) });
  const counts = await store.counts(facilityId);
  const rows = (await store.page(facilityId, pageSize)) as unknown as CoverageRow[];
  const ids = rows.map((row) => row.id);
  const at = new Date().toISOString();
  const byResident = new Map<string, string[]>();
  for (const row of rows) {
    const resident = (row as unknown as { resident_id: string }).resident_id;
    byResident.set(resident, [...(byResident.get(resident) ?? []), row.id]);
  }
  const disclosures = JSON.stringify({ Coverage: Object.fromEntries(byResident) });
  await store.audit([at, requestId, principal.clientId, orgId, facilityId, 'listCoverage', 200, JSON.stringify(ids), ids.length, principal.purpose, disclosures]);
  // The same answer as the service: the page's keyset cursor and a weak ETag of the body.
  const page = { page: 1, page_size: pageSize, total: Number(counts?.total ?? 0) };
  const next = seqNext('coverage', { facility_id: facilityId }, rows, page);
  const body = { data: rows.map(toCoverage), meta: { page: next === undefined ? page : { ...page, next } }, error: null };
  send(res, 200, requestId, JSON.stringify(body), digestTag(body), fields);
}

const server = createServer((req, res) => {
  req.resume();
  handle(req, res).catch((error: Error) => {
    process.stderr.write(`${error.stack}\n`);
    if (!res.headersSent) send(res, 500, 'error', '{"error":"internal"}');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
