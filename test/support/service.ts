// A real service for a test suite: a fresh database, the full Koa app on a loopback port,
// its logs captured in memory, and helpers to seed tenants and issue credentials.
import { Writable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../server/src/config/config.js';
import { createLogger } from '../../server/src/logging/logger.js';
import { startService, type RunningService } from '../../server/src/service.js';
import type { WebhooksOptions } from '../../server/src/webhooks/webhooks.js';
import { createFacility, createOrganization } from '../../server/src/organizations/organizations.js';
import { createClient, type IssuedClient } from '../../server/src/auth/clients.js';
import { seedFacility, type SeedCounts } from '../../server/src/seed/synthetic-data.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestService {
  baseUrl: string;
  config: Config;
  running: RunningService;
  database: TestDatabase;
  /** Every log line the service wrote, as text. */
  logs(): string;
  close(): Promise<void>;
  seed: {
    org(name?: string): Promise<{ id: string; name: string }>;
    facility(orgId: string, name?: string): Promise<{ id: string; org_id: string; name: string }>;
    client(o: { orgId: string; facilityIds: string[]; scopes: string[]; name?: string }): Promise<IssuedClient>;
    data(o: { orgId: string; facilityId: string; residents: number; vitalRounds?: number }): Promise<SeedCounts>;
  };
}

/** One signing-secret key per test process, so several instances on one database agree. */
export const TEST_WEBHOOK_ENCRYPTION_KEY = randomBytes(32).toString('base64');

export const ALL_SCOPES = ['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage'];

export interface TestServiceOptions {
  env?: Record<string, string>;
  /** A database to use (and not drop); a fresh one otherwise. */
  database?: TestDatabase;
  /** Webhook subsystem options, such as a simulated DNS resolver. */
  webhooks?: WebhooksOptions;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = options.database ?? (await createTestDatabase({ migrated: true }));
  const config = loadConfig({
    DATABASE_URL: database.url,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
    TOKEN_RATE_LIMIT: '1000',
    WEBHOOK_ENCRYPTION_KEY: TEST_WEBHOOK_ENCRYPTION_KEY,
    // PostgreSQL has no SQLite file to put export files beside: one folder per test database,
    // shared by the instances of a test on it.
    ...(database.kind === 'postgres' ? { BULK_EXPORT_DIR: join(tmpdir(), `ofctx-exports-${createHash('sha256').update(database.url).digest('hex').slice(0, 16)}`) } : {}),
    ...options.env,
  });
  let logText = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logText += chunk.toString();
      done();
    },
  });
  const running = await startService(config, { logger: createLogger(config.logLevel, sink), webhooks: options.webhooks ?? {} });
  const db = running.app.db;
  let orgs = 0;
  let seeds = 0;
  return {
    baseUrl: running.url,
    config,
    running,
    database,
    logs: () => logText,
    async close() {
      await running.close();
      if (!options.database) await database.drop();
    },
    seed: {
      org: (name) => createOrganization(db, name ?? `Test Org ${++orgs}`),
      facility: (orgId, name) => createFacility(db, orgId, name ?? 'Test Facility'),
      client: (o) => createClient(db, { orgId: o.orgId, facilityIds: o.facilityIds, scopes: o.scopes, name: o.name ?? 'test client' }),
      data: (o) => seedFacility(db, { ...o, randomSeed: 42 + seeds++ }),
    },
  };
}
