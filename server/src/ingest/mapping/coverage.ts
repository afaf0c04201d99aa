// FHIR R4 Coverage -> coverage row. The payor is kept by name (the contract answers
// `Organization/<payer name>`): its display, or the id of an `Organization/...` reference;
// its identifier's value, when it has one, beside it (a 271 or a payer-scoped partner
// names the payer by either).
import type { EventType } from '../../webhooks/event-types.js';
import { bounded, fullDate, instant, issue, mapped, object, oneOf, text, type Columns, type ResourceMapping } from './resource-mapping.js';

const STATUSES = ['active', 'cancelled', 'draft', 'entered-in-error'] as const;
/** The columns whose change is a coverage.updated event (status, payor, period, subscriberId, order). */
const EVENT_COLUMNS = ['status', 'payor_name', 'payor_id', 'subscriber_id', 'period_start', 'period_end', 'coverage_order'];

/** period.end is a dateTime in R4: a date, or the date part of a date-time (in its own zone). */
function periodEnd(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string' && value.length > 10 && value[10] === 'T') {
    instant(value, 'Coverage.period.end');
    return fullDate(value.slice(0, 10), 'Coverage.period.end');
  }
  return fullDate(value, 'Coverage.period.end');
}

function payorId(payor: unknown): string | null {
  const first = Array.isArray(payor) ? object(payor[0]) : undefined;
  const value = text(object(first?.identifier)?.value);
  return value === undefined ? null : bounded(value, 200, 'Coverage.payor[0].identifier.value');
}

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
        period_end: periodEnd(object(resource.period)?.end),
        payor_id: payorId(resource.payor),
        coverage_order: order as number,
      };
    }),
  events(before: Columns | undefined, after: Columns): EventType[] {
    const changed = !before || EVENT_COLUMNS.some((column) => before[column] !== after[column]);
    return changed ? ['coverage.updated'] : [];
  },
};
