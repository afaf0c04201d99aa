// Retention with the service running: `ops purge --json` (another process) removes audit rows
// past AUDIT_RETENTION_DAYS (and their disclosures, indexed, queued or written before
// migration 028) and webhook history past DELIVERY_RETENTION_DAYS, in batches,
// says what it removed, keeps every queued delivery whatever its age, and the service keeps
// answering meanwhile. The background purger does the same and counts it in /metrics.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { call } from '../../../test/support/http.js';
import { isPostgres } from '../../src/db/database.js';
import { jsonOf, runOps } from '../../../test/support/ops-cli.js';
import { createLogger } from '../../src/logging/logger.js';
import { ServiceMetrics } from '../../src/metrics/service-metrics.js';
import { RetentionPurger } from '../../src/retention/retention-purger.js';
import { indexAllQueuedDisclosures } from '../../src/audit/disclosure-index.js';
import { disclosuresOfResident } from '../../src/audit/disclosures.js';
import { startReceiver, waitFor, type Receiver } from '../webhooks/support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from '../webhooks/support/webhook-service.js';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe('retention', function () {
  this.timeout(60_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  let db: Knex;
  let tenant: Tenant;

  before(async () => {
    service = await startWebhookService();
    receiver = await startReceiver();
    db = service.running.app.db;
    tenant = await service.tenant();
    await service.subscribe(tenant, receiver.url);
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  /** An audit row; one that disclosed a resident's record is queued for the disclosure index. */
  async function auditRow(at: string, residentId?: string): Promise<void> {
    const disclosed = residentId === undefined ? {} : { client_id: 'purge-test-client', resource_ids: JSON.stringify([residentId]), result_count: 1, purpose: 'HOPERAT', disclosures: JSON.stringify({ Patient: { [residentId]: [0] } }) };
    await db('audit_events').insert({ at, request_id: randomUUID(), client_id: null, org_id: tenant.orgId, facility_id: null, operation: 'listResidents', status: 200, resource_ids: null, result_count: 0, ...disclosed });
  }

  /** A disclosure row as migration 019 wrote them, before 028. */
  async function disclosureRowBefore028(at: string, residentId: string): Promise<void> {
    await db('audit_disclosures').insert({ org_id: tenant.orgId, resident_id: residentId, at, request_id: randomUUID(), client_id: 'purge-test-client', purpose: 'HOPERAT', operation: 'listResidents', resource_type: 'Patient', resource_ids: JSON.stringify([residentId]) });
  }

  /** A delivered event, then aged: its event, delivery and attempts dated `days` ago. */
  async function deliveredDaysAgo(days: number): Promise<{ eventId: string; deliveryId: string }> {
    const { event_id: eventId } = await service.emit(tenant);
    const delivery = await waitFor('the delivery', async () => (await db('webhook_deliveries').where({ event_id: eventId, status: 'delivered' }).first('id')) as { id: string } | undefined);
    await db('webhook_events').where({ id: eventId }).update({ created_at: ago(days), occurred_at: ago(days) });
    await db('webhook_deliveries').where({ id: delivery.id }).update({ created_at: ago(days), completed_at: ago(days), last_attempt_at: ago(days) });
    await db('webhook_delivery_attempts').where({ delivery_id: delivery.id }).update({ started_at: ago(days) });
    return { eventId, deliveryId: delivery.id };
  }

  const count = async (table: string, where: Record<string, unknown> = {}) => Number((await db(table).where(where).count({ n: '*' }).first())!.n);

  it('`ops purge --json` removes what is past retention, in batches, while the service answers', async () => {
    const env = { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: service.config.webhooks.encryptionKey!, RETENTION_BATCH_SIZE: '2' };
    await db('audit_events').del();
    await db('audit_disclosure_backlog').del();
    await db('audit_disclosure_index').del();
    await db(isPostgres(db) ? 'audit_disclosure_texts' : 'audit_disclosure_groups').del();
    const oldResident = randomUUID();
    const keptResident = randomUUID();
    // Two old rows that disclosed a resident: one indexed, one still queued.
    for (const days of [2200, 2500]) await auditRow(ago(days), oldResident);
    await indexAllQueuedDisclosures(db);
    for (const days of [3000, 4000]) await auditRow(ago(days));
    await auditRow(ago(1), keptResident);
    await indexAllQueuedDisclosures(db);
    await auditRow(ago(5000), oldResident);
    await auditRow(ago(2000));
    await auditRow(ago(1), keptResident);
    for (const days of [2200, 2300, 3000]) await disclosureRowBefore028(ago(days), oldResident);
    await disclosureRowBefore028(ago(10), keptResident);
    const old = [await deliveredDaysAgo(45), await deliveredDaysAgo(31)];
    const recent = await deliveredDaysAgo(5);
    // A delivery still queued, created long ago (a retry far in the future): never purged.
    const { eventId: queuedEvent, deliveryId: queuedDelivery } = await deliveredDaysAgo(60);
    await db('webhook_deliveries').where({ id: queuedDelivery }).update({ status: 'pending', due_at: new Date(Date.now() + DAY).toISOString(), completed_at: null });
    // Fan-out to no one: an event without deliveries, past retention.
    const lonely = (await service.emit({ ...tenant, facilityId: tenant.otherFacilityId })).event_id;
    await db('webhook_events').where({ id: lonely }).update({ created_at: ago(40) });

    // Eligibility exchanges are kept as long as the audit trail: one past it, one within.
    const exchange = (days: number) => ({ id: randomUUID(), org_id: tenant.orgId, facility_id: tenant.facilityId, coverage_id: randomUUID(), trigger: 'recheck', connection_id: null, started_at: ago(days), finished_at: ago(days), duration_ms: 40, outcome: 'active', retrying: false, coverage_status: 'active', detail: 'active coverage', codes: null, payload_id: null, control_number: null, request_x12: 'ISA*', response_x12: 'ISA*' });
    await db('eligibility_exchanges').insert([exchange(2200), exchange(2000)]);

    // The service keeps answering while the purge runs in another process.
    let answered = 0;
    let purging = true;
    const prober = (async () => {
      while (purging) {
        expect((await call(service.baseUrl, 'GET', '/readyz')).status).to.equal(200);
        answered++;
      }
    })();
    const run = await runOps(['purge', '--json'], env);
    purging = false;
    await prober;
    const report = jsonOf(run);
    expect(answered).to.be.above(0);
    // The queued delivery's old attempt is history and goes; the delivery and its event stay.
    expect(report.removed).to.deep.equal({ audit_events: 5, audit_texts: 0, audit_disclosures: 3, webhook_delivery_attempts: 3, webhook_deliveries: 2, webhook_events: 3, eligibility_exchanges: 1, inbound_messages: 0 });
    expect(await count('eligibility_exchanges')).to.equal(1);
    expect(report.retention_days).to.deep.equal({ audit_events: 2190, webhook_history: 30, webhook_events: 30, inbound_messages: 30 });
    expect(report.batches).to.be.at.least(5); // batches of 2: 3 for the audit rows alone
    expect(Date.parse(report.cutoffs.audit_events)).to.be.closeTo(Date.now() - 2190 * DAY, 60_000);

    expect(await count('audit_events')).to.equal(3);
    // The old rows' disclosures went with them, indexed or queued; the recent ones stay.
    // Index rows pointing only to purged rows are gone (one that also points to a row left
    // goes when that row does; the report never shows a purged row).
    const oldest = Number((await db('audit_events').min({ seq: 'seq' }).first())!.seq);
    if (isPostgres(db)) {
      // By month (migration 045): none of a month wholly past the cut-off is left.
      const month = `${report.cutoffs.audit_events.slice(0, 7)}-01T00:00:00.000Z`;
      expect(Number((await db('audit_disclosure_index').where('month', '<', month).count({ n: '*' }).first())!.n)).to.equal(0);
      expect(Number((await db('audit_disclosure_texts').where('month', '<', month).count({ n: '*' }).first())!.n)).to.equal(0);
    } else {
      expect(Number((await db('audit_disclosure_index').where('last_seq', '<', oldest).count({ n: '*' }).first())!.n)).to.equal(0);
      expect(Number((await db('audit_disclosure_groups').where('last_seq', '<', oldest).count({ n: '*' }).first())!.n)).to.equal(0);
    }
    expect(await count(isPostgres(db) ? 'audit_disclosure_texts' : 'audit_disclosure_groups')).to.be.above(0);
    expect(await count('audit_disclosures', { resident_id: oldResident })).to.equal(0);
    expect(await count('audit_disclosures', { resident_id: keptResident })).to.equal(1);
    const reported = async (residentId: string) => (await disclosuresOfResident(db, { orgId: tenant.orgId, residentId })).map((r) => r.resource_ids);
    expect(await reported(oldResident)).to.deep.equal([]);
    expect(await reported(keptResident)).to.deep.equal([[keptResident], [keptResident], [keptResident]]);
    // A queued row whose audit row was purged is dropped by the catch-up, which indexes the rest.
    await indexAllQueuedDisclosures(db);
    expect(await count('audit_disclosure_backlog')).to.equal(0);
    expect(await reported(oldResident)).to.deep.equal([]);
    expect(await reported(keptResident)).to.deep.equal([[keptResident], [keptResident], [keptResident]]);
    for (const { eventId, deliveryId } of old) {
      expect(await count('webhook_events', { id: eventId })).to.equal(0);
      expect(await count('webhook_deliveries', { id: deliveryId })).to.equal(0);
      expect(await count('webhook_delivery_attempts', { delivery_id: deliveryId })).to.equal(0);
    }
    expect(await count('webhook_deliveries', { id: recent.deliveryId })).to.equal(1);
    expect(await count('webhook_delivery_attempts', { delivery_id: recent.deliveryId })).to.equal(1);
    expect(await count('webhook_deliveries', { id: queuedDelivery, status: 'pending' })).to.equal(1);
    expect(await count('webhook_events', { id: queuedEvent })).to.equal(1);

    // Nothing left to purge: a second run removes nothing.
    const again = jsonOf(await runOps(['purge', '--json'], env));
    expect(again.removed).to.deep.equal({ audit_events: 0, audit_texts: 0, audit_disclosures: 0, webhook_delivery_attempts: 0, webhook_deliveries: 0, webhook_events: 0, eligibility_exchanges: 0, inbound_messages: 0 });
  });

  it('follows AUDIT_RETENTION_DAYS, DELIVERY_RETENTION_DAYS and EVENT_RETENTION_DAYS, and prints a summary without --json', async () => {
    await db('audit_events').del();
    await auditRow(ago(3));
    await auditRow(ago(1));
    await deliveredDaysAgo(3);
    const env = { DATABASE_URL: service.database.url, WEBHOOK_ENCRYPTION_KEY: service.config.webhooks.encryptionKey!, AUDIT_RETENTION_DAYS: '2', DELIVERY_RETENTION_DAYS: '2' };
    const run = await runOps(['purge'], env);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/audit rows before \S+: 1 removed/);
    // This one and the 5-day-old delivery of the test before.
    expect(run.stdout).to.match(/webhook history before \S+: 2 deliveries, 2 attempts removed/);
    // Their events stay in the event log for EVENT_RETENTION_DAYS (30), then go.
    expect(run.stdout).to.match(/events before \S+ that no delivery kept: 0 removed/);
    const events = await runOps(['purge'], { ...env, EVENT_RETENTION_DAYS: '2' });
    expect(events.stdout).to.match(/events before \S+ that no delivery kept: 2 removed/);
    expect(await count('audit_events')).to.equal(1);
  });

  it('refuses a retention that is not a whole number of days', async () => {
    const run = await runOps(['purge', '--json'], { DATABASE_URL: service.database.url, AUDIT_RETENTION_DAYS: '0' });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.match(/AUDIT_RETENTION_DAYS must be an integer >= 1/);
  });

  it('runs in the background of the service, counted in ofctx_retention_purged_rows_total', async () => {
    await db('audit_events').del();
    for (let i = 0; i < 3; i++) await auditRow(ago(2191));
    const metrics = new ServiceMetrics();
    const purger = new RetentionPurger(db, { ...service.config.retention, batchSize: 2 }, createLogger('silent'), metrics);
    await purger.runOnce();
    await purger.stop();
    expect(await count('audit_events')).to.equal(0);
    expect(await metrics.exposition()).to.include('ofctx_retention_purged_rows_total{table="audit_events"} 3');
  });
});
