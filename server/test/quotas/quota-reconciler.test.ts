// Instances sharing one PostgreSQL share each client's quota through client_quota_usage: what
// one admitted is debited from the other's bucket at its next reconcile, an instance that
// starts later does not count the others' history, and a report that could not be written is
// sent with the next one. (SQLite: single-instance, no sharing; skipped.)
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { freshKnexForSuite, testDatabaseKind } from '../../../test/support/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createLogger } from '../../src/logging/logger.js';
import { ClientQuotas } from '../../src/quotas/client-quotas.js';
import { QuotaReconciler } from '../../src/quotas/quota-reconciler.js';

describe('the quota reconciler (PostgreSQL)', function () {
  this.timeout(60_000);
  before(function () {
    if (testDatabaseKind !== 'postgres') this.skip();
  });
  const db = freshKnexForSuite(async (knex) => {
    if (testDatabaseKind === 'postgres') await migrateToLatest(knex);
  });
  const logger = createLogger('silent');
  // A frozen clock: no refill, so only the reconciler moves what the buckets hold.
  const frozen = () => 1_000_000;
  const limits = { rate: 1, burst: 10 };
  const instance = () => {
    const quotas = new ClientQuotas(limits, frozen);
    return { quotas, reconciler: new QuotaReconciler(db(), quotas, 60_000, logger) };
  };
  const admitted = (quotas: ClientQuotas, client: string, times: number) => {
    let n = 0;
    for (let i = 0; i < times; i++) if (quotas.admit(client, 'ofx_ci_test', null, 1).allowed) n++;
    return n;
  };

  it("debits what another instance admitted, so together they admit one burst", async () => {
    const client = randomUUID();
    const a = instance();
    const b = instance();
    await a.reconciler.reconcile();
    await b.reconciler.reconcile();
    expect(admitted(a.quotas, client, 7)).to.equal(7);
    await a.reconciler.reconcile();
    await b.reconciler.reconcile();
    expect(admitted(b.quotas, client, 10)).to.equal(3);
    await b.reconciler.reconcile();
    await a.reconciler.reconcile();
    expect(admitted(a.quotas, client, 10)).to.equal(0);
    const rows = await db()('client_quota_usage').where({ client_pk: client }).orderBy('consumed');
    expect(rows.map((r) => Number(r.consumed))).to.deep.equal([3, 7]);
  });

  it("does not count what was reported before it started, but counts what is reported after", async () => {
    const client = randomUUID();
    const a = instance();
    await a.reconciler.reconcile();
    admitted(a.quotas, client, 9);
    await a.reconciler.reconcile();
    // Started after A's report: A's 9 are history to it...
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = instance();
    await late.reconciler.reconcile();
    expect(admitted(late.quotas, client, 1)).to.equal(1);
    // ...but what A admits from now on is debited.
    admitted(a.quotas, client, 1);
    await a.reconciler.reconcile();
    await late.reconciler.reconcile();
    expect(admitted(late.quotas, client, 10)).to.equal(8);
  });

  it('keeps a report that could not be written and sends it with the next one', async () => {
    const client = randomUUID();
    const a = instance();
    await a.reconciler.reconcile();
    admitted(a.quotas, client, 4);
    // A database that answers the clock but loses the report.
    const losing = { raw: (sql: string, bindings?: unknown[]) => (sql.includes('insert into') ? Promise.reject(new Error('connection lost')) : db().raw(sql, bindings as never)) };
    const broken = new QuotaReconciler(losing as never, a.quotas, 60_000, logger);
    await broken.reconcile().then(
      () => expect.fail('should fail'),
      (error: Error) => expect(error.message).to.equal('connection lost'),
    );
    admitted(a.quotas, client, 2);
    await a.reconciler.reconcile();
    const row = await db()('client_quota_usage').where({ client_pk: client, instance_id: a.quotas.instanceId }).first();
    expect(Number(row.consumed)).to.equal(6);
  });
});
