// FHIR R4 CoverageEligibilityResponse -> eligibility_responses row: what an X12 271 loop said
// of a Coverage (x12/eligibility-response.ts builds it; no FHIR feed may send one). The
// Coverage it answers and the outcome are columns; the payer, the request it answers, the
// benefit items and the errors are kept as JSON, as the 271 gave them. No event: the
// Coverage's own change is the event (coverage.updated).
import type { EventType } from '../../db/event-types.js';
import { bounded, fullDate, issue, mapped, object, oneOf, text, type ResourceMapping } from './resource-mapping.js';

const WHERE = 'CoverageEligibilityResponse';

function json(value: unknown, where: string, max: number): string | null {
  if (value === undefined) return null;
  return bounded(JSON.stringify(value), max, where);
}

export const coverageEligibilityResponseMapping: ResourceMapping = {
  type: 'CoverageEligibilityResponse',
  table: 'eligibility_responses',
  residentElement: 'patient',
  toColumns: (resource) =>
    mapped(() => {
      const insurance = Array.isArray(resource.insurance) ? object(resource.insurance[0]) : undefined;
      const coverage = /^Coverage\/([0-9a-f-]{36})$/.exec(text(object(insurance?.coverage)?.reference) ?? '');
      if (!insurance || !coverage) issue('required', `${WHERE}.insurance[0].coverage must reference the Coverage answered`, `${WHERE}.insurance[0].coverage`);
      const inforce = insurance.inforce;
      return {
        coverage_id: coverage[1]!,
        created: fullDate(resource.created, `${WHERE}.created`),
        outcome: oneOf(resource.outcome, ['complete', 'error'] as const, `${WHERE}.outcome`),
        disposition: text(resource.disposition) ? bounded(resource.disposition as string, 1000, `${WHERE}.disposition`) : null,
        inforce: typeof inforce === 'boolean' ? inforce : null,
        insurer: json(resource.insurer, `${WHERE}.insurer`, 1000)!,
        request: json(resource.request, `${WHERE}.request`, 1000)!,
        items: json(insurance.item, `${WHERE}.insurance[0].item`, 200_000),
        errors: json(resource.error, `${WHERE}.error`, 20_000),
      };
    }),
  events: (): EventType[] => [],
};
