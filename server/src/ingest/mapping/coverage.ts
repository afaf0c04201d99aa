// FHIR R4 Coverage -> coverage row. The payor is kept by name (the contract answers
// `Organization/<payer name>`): its display, or the id of an `Organization/...` reference.
import type { EventType } from '../../webhooks/event-types.js';
import { bounded, fullDate, issue, mapped, object, oneOf, text, type Columns, type ResourceMapping } from './resource-mapping.js';

const STATUSES = ['active', 'cancelled', 'draft', 'entered-in-error'] as const;
/** The columns whose change is a coverage.updated event (status, payor, period, subscriberId, order). */
const EVENT_COLUMNS = ['status', 'payor_name', 'subscriber_id', 'period_start', 'coverage_order'];

function payorName(payor: unknown): string {
  const first = Array.isArray(payor) ? object(payor[0]) : undefined;
  const name = text(first?.display) ?? text(first?.reference)?.replace(/^Organization\//, '');
  if (!name) issue('required', 'Coverage.payor[0] needs a display or an Organization reference', 'Coverage.payor[0]');
  return bounded(name, 200, 'Coverage.payor[0]');
}

export const coverageMapping: ResourceMapping = {
  type: 'Coverage',
  table: 'coverage',
  residentElement: 'beneficiary',
  toColumns: (resource) =>
    mapped(() => {
      const subscriberId = text(resource.subscriberId);
      if (!subscriberId) issue('required', 'Coverage.subscriberId is required', 'Coverage.subscriberId');
      const order = resource.order ?? 1;
      if (!Number.isInteger(order) || (order as number) < 1) issue('value', 'Coverage.order must be a positive integer', 'Coverage.order');
      return {
        status: oneOf(resource.status, STATUSES, 'Coverage.status'),
        payor_name: payorName(resource.payor),
        subscriber_id: bounded(subscriberId, 64, 'Coverage.subscriberId'),
        period_start: fullDate(object(resource.period)?.start, 'Coverage.period.start'),
        coverage_order: order as number,
      };
    }),
  events(before: Columns | undefined, after: Columns): EventType[] {
    const changed = !before || EVENT_COLUMNS.some((column) => before[column] !== after[column]);
    return changed ? ['coverage.updated'] : [];
  },
};
