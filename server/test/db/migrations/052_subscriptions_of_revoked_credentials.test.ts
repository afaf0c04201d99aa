// Migration 052: subscriptions whose owning credential had been revoked said `active` and were
// sent nothing; they become `disabled` (credential_revoked), their queue cancelled, and those
// of active credentials are left alone.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { freshKnexForSuite } from '../../../../test/support/database.js';
import { migrationsUpTo } from '../../../../test/support/migrations-up-to.js';
import { createFacility, createOrganization } from '../../../src/organizations/organizations.js';
import { createClient } from '../../../src/auth/clients.js';
import * as subscriptionsOfRevokedCredentials from '../../../src/db/migrations/052_subscriptions_of_revoked_credentials.js';

describe('subscriptions of revoked credentials (migration 052)', function () {
  this.timeout(60_000);
  // A database as the version before 052 left it.
  const knex = freshKnexForSuite(async (db) => {
    await db.migrate.latest({ migrationSource: migrationsUpTo('051_token_rate_limits') });
  });
  let db: Knex;
  before(() => {
    db = knex();
  });

  it('disables the active subscriptions of a revoked credential, cancelling their queue, and leaves the others', async () => {
    const org = await createOrganization(db, 'Migrated Org');
    const facility = await createFacility(db, org.id, 'Migrated Facility');
    const credential = async (name: string) => (await db('clients').where({ client_id: (await createClient(db, { orgId: org.id, facilityIds: [facility.id], scopes: ['webhooks.manage'], name })).client_id }).first('id')).id as string;
    const [kept, gone] = [await credential('still active'), await credential('revoked before 052')];
    // Revoked as the version before 052 did: the credential alone.
    await db('clients').where({ id: gone }).update({ status: 'revoked', revoked_at: '2026-10-01T00:00:00.000Z' });
    const subscription = async (clientPk: string, status: string) => {
      const id = randomUUID();
      await db('webhook_subscriptions').insert({ id, org_id: org.id, client_pk: clientPk, callback_url: 'https://hooks.example/in', event_types: '["resident.admitted"]', signing_secret_encrypted: 'v1:x', status, created_at: '2026-09-01T00:00:00.000Z' });
      return id;
    };
    const [live, orphaned, alreadyRevoked] = [await subscription(kept, 'active'), await subscription(gone, 'active'), await subscription(gone, 'revoked')];
    const delivery = async (subscriptionId: string, status: string) => {
      const id = randomUUID();
      await db('webhook_deliveries').insert({ id, subscription_id: subscriptionId, org_id: org.id, event_type: 'resident.admitted', body: '{}', status, attempts: 0, due_at: '2026-10-02T00:00:00.000Z', created_at: '2026-10-02T00:00:00.000Z' });
      return id;
    };
    const [queuedLive, queuedOrphaned, failedOrphaned] = [await delivery(live, 'pending'), await delivery(orphaned, 'pending'), await delivery(orphaned, 'failed')];

    await subscriptionsOfRevokedCredentials.up(db);

    const row = async (id: string) => db('webhook_subscriptions').where({ id }).first('status', 'disabled_reason', 'revoked_at');
    expect(await row(orphaned)).to.deep.equal({ status: 'disabled', disabled_reason: 'credential_revoked', revoked_at: '2026-10-01T00:00:00.000Z' });
    expect(await row(live)).to.deep.equal({ status: 'active', disabled_reason: null, revoked_at: null });
    expect((await row(alreadyRevoked))!.status).to.equal('revoked');
    const statusOf = async (id: string) => (await db('webhook_deliveries').where({ id }).first('status')).status;
    expect([await statusOf(queuedLive), await statusOf(queuedOrphaned), await statusOf(failedOrphaned)]).to.deep.equal(['pending', 'cancelled', 'failed']);
  });
});
