// Which of a subscription's deliveries a caller is shown and may act on. A subscription is the
// organization's, and what was delivered to it was decided by its registering credential's
// facility grants and access policy (event-outbox.ts); another credential of the organization
// that is granted fewer facilities, or whose policy hides a resident (a payer scope, a
// consent denying its purpose, a restricted label it is not cleared for), is shown only the
// deliveries of events in its facilities about residents it may see, and finds no other
// (404), exactly as the event log answers it (tenancy/event-visibility.ts).
import type { Knex } from 'knex';
import type { Caller } from '../tenancy/caller.js';
import { visibilityOf } from '../tenancy/authorize.js';
import { restrictToVisibleResidents } from '../tenancy/event-visibility.js';
import type { RecordFilter } from '../tenancy/record-visibility.js';

export interface DeliveryView {
  /** The facilities whose events it may see; null: every facility of the organization. */
  facilityIds: readonly string[] | null;
  /** The restriction of its access policy; null: the policy hides no resident. */
  visibility: RecordFilter | null;
}

/** The organization's own operators' view (the console): every delivery. */
export const EVERY_DELIVERY: DeliveryView = { facilityIds: null, visibility: null };

/** What the caller may see of its organization's deliveries. */
export async function deliveryViewOf(db: Knex, caller: Caller): Promise<DeliveryView> {
  const [visibility, ungranted] = await Promise.all([
    visibilityOf(db, caller),
    db('facilities').where({ org_id: caller.orgId }).whereNotIn('id', [...caller.facilityIds]).first('id'),
  ]);
  return { facilityIds: ungranted === undefined ? null : [...caller.facilityIds], visibility: visibility.policyHidesNothing ? null : visibility };
}

/** True when the view hides no delivery: queries need not read the events to restrict them. */
export const showsEveryDelivery = (view: DeliveryView): boolean => view.facilityIds === null && view.visibility === null;

/** Restricts `query`, which reads events under `eventAlias`, to the events of deliveries the view shows. */
export function restrictToDeliveryView<Q extends Knex.QueryBuilder>(query: Q, view: DeliveryView, eventAlias: string): Q {
  if (view.facilityIds !== null) query.whereIn(`${eventAlias}.facility_id`, [...view.facilityIds]);
  if (view.visibility !== null) restrictToVisibleResidents(query, view.visibility, eventAlias);
  return query;
}
