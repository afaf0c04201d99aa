// Heartbeats of FHIR Subscriptions (backport-heartbeat-period): a `heartbeat` notification is
// queued when nothing was queued for the subscription for a whole period, once its handshake
// was delivered. Swept by every instance (webhooks.ts); the subscription's row is locked
// while deciding (PostgreSQL), so two instances do not both queue one.
import type { Knex } from 'knex';
import { isPostgres } from '../../db/database.js';
import { notifyDeliveriesQueued } from '../delivery-wakeup.js';
import { FHIR_KIND, queueLifecycleNotification, settingsOf } from './fhir-notifications.js';
import type { FhirSubscriptionRow } from './fhir-subscription-store.js';

/** How often the sweep looks (a heartbeat is late by at most this much). */
export const HEARTBEAT_SWEEP_MS = 1000;

const LAST_QUEUED = '(SELECT d.created_at FROM webhook_deliveries d WHERE d.subscription_id = s.id ORDER BY d.seq DESC LIMIT 1)';
const HANDSHAKE_DELIVERED = "EXISTS (SELECT 1 FROM webhook_deliveries h WHERE h.subscription_id = s.id AND h.notification_type = 'handshake' AND h.status = 'delivered')";

/** Queues the heartbeats due at `now`; their subscriptions' ids. */
export async function queueHeartbeats(db: Knex, now = Date.now()): Promise<string[]> {
  const candidates = (await db('webhook_subscriptions as s')
    .where({ 's.kind': FHIR_KIND, 's.status': 'active' })
    .whereRaw(HANDSHAKE_DELIVERED)
    .select('s.id', 's.fhir_settings', db.raw(`${LAST_QUEUED} AS last_queued`))) as Array<{ id: string; fhir_settings: string; last_queued: string | null }>;
  const due = candidates.filter((row) => {
    const period = settingsOf(row).heartbeatPeriod;
    return period !== null && row.last_queued !== null && now - Date.parse(row.last_queued) >= period * 1000;
  });
  const queued: string[] = [];
  for (const candidate of due) {
    const sent = await db.transaction(async (trx) => {
      let locking = trx('webhook_subscriptions as s').where({ 's.id': candidate.id, 's.status': 'active' }).join('clients as c', 'c.id', 's.client_pk').select('s.*', 'c.purpose');
      if (isPostgres(trx)) locking = locking.forUpdate('s');
      const row = (await locking.first()) as (FhirSubscriptionRow & { purpose: string }) | undefined;
      if (!row) return false;
      // Another instance (or an event) queued something meanwhile: not due any more.
      const last = (await trx('webhook_deliveries').where({ subscription_id: row.id }).orderBy('seq', 'desc').first('created_at')) as { created_at: string } | undefined;
      if (last && now - Date.parse(last.created_at) < settingsOf(row).heartbeatPeriod! * 1000) return false;
      await queueLifecycleNotification(trx, row, 'heartbeat', row.purpose);
      await notifyDeliveriesQueued(trx);
      return true;
    });
    if (sent) queued.push(candidate.id);
  }
  return queued;
}
