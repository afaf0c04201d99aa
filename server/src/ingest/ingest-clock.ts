// The instant written as `last_updated` by one ingest transaction.
//
// WHY: incremental sync (issue #13) pages each facility by the keyset (last_updated, id) and
// resumes after the last pair it saw. That is only safe if, within a facility, a row
// committed later never gets a last_updated smaller than a row committed earlier; otherwise
// a reader that already passed that instant would never see the row. Wall clocks give no
// such promise (two transactions, two instances, a clock step back). So every ingest
// transaction first upserts its organization's row of ingest_clock: that takes the row's
// lock (PostgreSQL: a row lock held until commit; SQLite: the one writer lock), which
// serializes the organization's ingest transactions from this point to their commit. Under
// that lock the transaction takes max(now, last assigned + 1 ms) and stores it, so each
// committed transaction's instant is strictly greater than every earlier one's. A facility
// belongs to one organization, so the promise holds per facility. All rows of one
// transaction share its instant; the id breaks the tie. The same lock is why two importers
// updating one resident never lose an update or duplicate an event: the second one reads
// the first one's committed rows.
import type { Knex } from 'knex';
import { nowIso } from '../db/clock.js';
import { rawRows } from '../db/database.js';

export async function tickIngestClock(trx: Knex.Transaction, orgId: string, now: number = Date.now()): Promise<string> {
  const result = await trx.raw(
    'INSERT INTO ingest_clock (org_id, last_updated) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_updated = ingest_clock.last_updated RETURNING last_updated',
    [orgId, '1970-01-01T00:00:00.000Z'],
  );
  const rows = rawRows<{ last_updated: string }>(result);
  const last = Date.parse(rows[0]!.last_updated);
  const instant = nowIso(Math.max(now, last + 1));
  await trx('ingest_clock').where({ org_id: orgId }).update({ last_updated: instant });
  return instant;
}
