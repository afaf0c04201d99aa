// Signing secrets are never readable in clear: not in the database (the SQLite file and its
// WAL, byte by byte, or every webhook row on PostgreSQL), not in the service's logs, even
// after registering, testing and delivering.
import { expect } from 'chai';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { call } from '../../../test/support/http.js';
import { sqlitePath } from '../../src/config/config.js';
import { developmentKeyPath } from '../../src/config/development-key-path.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type WebhookTestService } from './support/webhook-service.js';

describe('webhook signing secrets at rest and in logs', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  const secrets: string[] = [];

  before(async () => {
    // On SQLite without WEBHOOK_ENCRYPTION_KEY: the development key file is used.
    const sqlite = !process.env.TEST_DATABASE || process.env.TEST_DATABASE === 'sqlite';
    service = await startWebhookService({ env: sqlite ? { WEBHOOK_ENCRYPTION_KEY: '' } : {} });
    receiver = await startReceiver();
    const tenant = await service.tenant();
    for (let i = 0; i < 3; i++) secrets.push((await service.subscribe(tenant, receiver.url)).signing_secret);
    const [first] = (await call(service.baseUrl, 'GET', `/api/v1/ofctx/${tenant.orgId}/webhooks`, { token: tenant.token })).body.data;
    await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${first.id}/test`, { token: tenant.token, json: { event_type: 'resident.admitted' } });
    // A rotation: the new secret, and the old one kept for the overlap, are both at rest now.
    const rotated = await call(service.baseUrl, 'POST', `/api/v1/ofctx/${tenant.orgId}/webhooks/${first.id}/rotate-secret`, { token: tenant.token });
    secrets.push(rotated.body.data.signing_secret);
    await service.emit(tenant);
    await waitFor('three deliveries', () => receiver.received.length >= 3);
    // An attempt is logged once its outcome is recorded, with the worker's next cycle.
    await waitFor('the attempts logged', () => service.logs().includes('webhook delivery attempt'));
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  /** Each secret whole, its random part alone, and its Standard Webhooks (whsec_) form. */
  const needles = () => secrets.flatMap((s) => [s, s.slice('ofx_whs_'.length), Buffer.from(s).toString('base64')]);

  it('does not hold any secret in clear in the database', async function () {
    const file = sqlitePath(service.config.databaseUrl);
    if (file) {
      // Everything SQLite wrote: the database file, its write-ahead log and shared memory.
      const bytes = Buffer.concat(['', '-wal', '-shm'].filter((suffix) => existsSync(file + suffix)).map((suffix) => readFileSync(file + suffix)));
      expect(bytes.length).to.be.greaterThan(0);
      for (const needle of needles()) {
        expect(bytes.includes(Buffer.from(needle, 'utf8')), 'secret found in the SQLite files').to.equal(false);
        expect(bytes.includes(Buffer.from(needle, 'utf16le')), 'secret found in the SQLite files (UTF-16)').to.equal(false);
      }
      // The development key lives beside the database, readable by its owner only.
      expect(statSync(developmentKeyPath(file)).mode & 0o777).to.equal(0o600);
    } else {
      const db = service.running.app.db;
      const rows = [];
      for (const table of ['webhook_subscriptions', 'webhook_events', 'webhook_deliveries', 'webhook_delivery_attempts', 'audit_events']) rows.push(...(await db(table).select('*')));
      const text = JSON.stringify(rows);
      expect(text).to.include('v1:'); // the encrypted form is there
      for (const needle of needles()) expect(text.includes(needle), 'secret found in PostgreSQL rows').to.equal(false);
    }
    const stored = await service.running.app.db('webhook_subscriptions').pluck('signing_secret_encrypted');
    expect(stored).to.have.length(3);
    for (const value of stored) expect(value).to.match(/^v1:/);
    const previous = (await service.running.app.db('webhook_subscriptions').pluck('previous_signing_secret_encrypted')).filter(Boolean);
    expect(previous).to.have.length(1);
    expect(previous[0]).to.match(/^v1:/);
  });

  it('never writes a secret to the logs', () => {
    const logs = service.logs();
    expect(logs).to.include('webhook subscription registered');
    expect(logs).to.include('webhook delivery attempt');
    for (const needle of needles()) expect(logs.includes(needle), 'secret found in the logs').to.equal(false);
    // Delivery logs name the host only, never the callback path or the body.
    expect(logs).to.not.include('/hooks/ofctx');
    expect(logs).to.not.include('"api_version"');
  });
});
