// The summary as a person reads it in a terminal.
import type { FacilitySummaryJson } from './facility-summary.js';

function tally(counts: Record<string, number>, indent = '    '): string[] {
  const entries = Object.entries(counts);
  if (entries.length === 0) return [`${indent}(none)`];
  const width = Math.max(...entries.map(([name]) => name.length));
  return entries.map(([name, count]) => `${indent}${name.padEnd(width)}  ${String(count).padStart(6)}`);
}

export function formatSummary(s: FacilitySummaryJson, elapsedMs: number): string {
  const requests = s.pages.residents + s.pages.coverage + s.pages.observations + s.pages.allergies;
  return [
    `Facility ${s.facilityId} (organization ${s.orgId})`,
    '',
    `Residents: ${s.residents.total} (${s.residents.active} active), ${s.residents.withActiveCoverage} with active coverage, ${s.residents.withoutActiveCoverage} without`,
    `Coverage:  ${s.coverage.total} policies, ${s.coverage.active} active. Active coverage by payer:`,
    ...tally(s.coverage.activeByPayer),
    `Vitals:    ${s.vitals.observations} observations, ${s.vitals.residentsWithVitals} residents with vitals. Residents with a latest reading of:`,
    ...tally(s.vitals.residentsWithLatest),
    `Allergies: ${s.allergies.total} recorded, ${s.allergies.residentsWithAllergies} residents with allergies. By allergen:`,
    ...tally(s.allergies.byAllergen),
    ...(s.recordsOfUnlistedResidents > 0 ? [`Note: ${s.recordsOfUnlistedResidents} records name residents admitted during the sync; run again to include them.`] : []),
    '',
    `Read in ${requests} pages in ${(elapsedMs / 1000).toFixed(1)} s.`,
  ].join('\n');
}
