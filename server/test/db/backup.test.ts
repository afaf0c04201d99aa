// Backups with the service running and writing. SQLite: `ops backup FILE` (another process,
// SQLite's online backup API) makes a whole, verified copy that a service starts from, with
// the development key beside it. PostgreSQL: the command points at pg_dump, and the README's
// pg_dump / pg_restore recipe is run here as written and the service starts from its restore.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sqliteDriver } from '../../src/db/sqlite-driver.js';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../../test/support/database.js';
import { call } from '../../../test/support/http.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { startTestService } from '../../../test/support/service.js';
import { startReceiver, waitFor, type Receiver } from '../webhooks/support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from '../webhooks/support/webhook-service.js';

const run = promisify(execFile);

describe('backups', function () {
  this.timeout(90_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  let tenant: Tenant;
  let folder: string;
  let subscription: { id: string; signing_secret: string };
  const extra: TestDatabase[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'ofctx-backup-'));
    receiver = await startReceiver();
    // Without WEBHOOK_ENCRYPTION_KEY on SQLite: the development key file beside the database.
    service = await startWebhookService({ env: testDatabaseKind === 'sqlite' ? { WEBHOOK_ENCRYPTION_KEY: '' } : {} });
    tenant = await service.tenant();
    subscription = await service.subscribe(tenant, receiver.url);
    await service.seed.data({ orgId: tenant.orgId, facilityId: tenant.facilityId, residents: 5 });
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
    for (const database of extra) await database.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Writes while the backup runs: events (with deliveries) and audited reads. */
  function keepWriting(): () => Promise<number> {
    let writing = true;
    let writes = 0;
    const loop = (async () => {
      while (writing) {
        await service.emit(tenant);
        await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/residents`, { token: tenant.token });
        writes++;
      }
    })();
    return async () => {
      writing = false;
      await loop;
      return writes;
    };
  }

  /** A service started on the copy serves the same residents and signs with the same secret. */
  async function serviceFromCopy(databaseUrl: string, env: Record<string, string>): Promise<void> {
    const restored = await startTestService({ database: { url: databaseUrl, kind: testDatabaseKind, drop: async () => {} }, env: { ...env } });
    try {
      const residents = await call(restored.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/${tenant.facilityId}/residents`, { token: tenant.token });
      expect(residents.status).to.equal(200);
      expect(residents.body.meta.page.total).to.equal(5);
      const before = receiver.received.length;
      await restored.running.webhooks.emitEvent({ orgId: tenant.orgId, facilityId: tenant.facilityId, type: 'resident.admitted', residentId: tenant.facilityId });
      const arrived = await waitFor('a delivery from the restored service', () => receiver.received[before]);
      expect(arrived.headers['x-service-signature']).to.equal(createHmac('sha256', subscription.signing_secret).update(arrived.body).digest('hex'));
    } finally {
      await restored.close();
    }
  }

  if (testDatabaseKind === 'sqlite') {
    it('`ops backup FILE --json` copies the live database, verified, with its development key', async () => {
      const file = join(folder, 'ofctx-backup.db');
      const stop = keepWriting();
      await new Promise((r) => setTimeout(r, 100));
      const result = await runOps(['backup', file, '--json'], { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: '' });
      const writes = await stop();
      const report = jsonOf(result);
      expect(writes).to.be.above(0);
      expect(report).to.include({ file, integrity: 'ok' });
      expect(report.bytes).to.be.above(0);
      expect(report.key_file).to.equal(`${file}.webhook-key`);
      expect(readFileSync(report.key_file, 'utf8')).to.equal(readFileSync(`${service.database.url.slice('sqlite:'.length)}.webhook-key`, 'utf8'));
      // One self-contained file: no write-ahead log needed beside it, nothing partial left.
      expect(existsSync(`${file}-wal`)).to.equal(false);
      expect(readFileSync(file).subarray(0, 16).toString()).to.equal('SQLite format 3\0');
      const copy = new (sqliteDriver())(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).to.equal('ok');
        expect((copy.prepare('select count(*) as n from residents').get() as { n: number }).n).to.equal(5);
      } finally {
        copy.close();
      }
      await serviceFromCopy(`sqlite:${file}`, { WEBHOOK_ENCRYPTION_KEY: '' });
    });

    it('never overwrites a file, and says so', async () => {
      const file = join(folder, 'taken.db');
      writeFileSync(file, 'precious');
      const result = await runOps(['backup', file, '--json'], { DATABASE_URL: service.database.url });
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(/exists: choose another name/);
      expect(readFileSync(file, 'utf8')).to.equal('precious');
    });
  } else {
    it('`ops backup` on PostgreSQL points at pg_dump (exit 1)', async () => {
      const result = await runOps(['backup', join(folder, 'x.dump'), '--json'], { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: service.config.webhooks.encryptionKey! });
      expect(result.code).to.equal(1);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.match(/pg_dump --format=custom/);
    });

    it("the README's pg_dump and pg_restore recipe, run while the service writes, restores a working service", async () => {
      const file = join(folder, 'ofctx.dump');
      const stop = keepWriting();
      await run('pg_dump', ['--format=custom', `--file=${file}`, service.database.url]);
      expect(await stop()).to.be.above(0);
      const target = await createTestDatabase();
      extra.push(target);
      await run('pg_restore', ['--no-owner', `--dbname=${target.url}`, file]);
      await serviceFromCopy(target.url, { WEBHOOK_ENCRYPTION_KEY: service.config.webhooks.encryptionKey! });
    });
  }
});
