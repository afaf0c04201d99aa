// GET [base]/metadata: the CapabilityStatement of the R4 view, built from R4_TYPES, so it
// lists exactly the types, interactions and search parameters that are served.
import { R4_TYPES } from './r4-types.js';
import { searchParameters, sortKeys } from './search/search-parameters.js';

export const FHIR_VERSION = '4.0.1';
/** When this statement's content last changed (a release date, not the request's). */
const PUBLISHED = '2026-11-27';

export function capabilityStatement(base: string) {
  return {
    resourceType: 'CapabilityStatement' as const,
    status: 'active',
    date: PUBLISHED,
    publisher: 'ofctx',
    kind: 'instance',
    software: { name: 'ofctx' },
    implementation: { description: 'ofctx FHIR R4 read-only view of one facility', url: base },
    // Bulk Data Access IG v2.0: $export at the system, Patient and Group (the facility) levels.
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    fhirVersion: FHIR_VERSION,
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read-only. Searches by GET or POST [type]/_search (a form body); pages are followed with the `next` link only; `_count` is 1 to 200 (default 50); `_summary=count` answers the total alone. A parameter not listed here (or a modifier, `_sort` or `_include` not supported) is ignored and left out of the self link, or refused (400) with `Prefer: handling=strict`.',
        security: {
          cors: false,
          service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'OAuth', display: 'OAuth' }] }],
          description: 'OAuth 2.0 client credentials: a bearer token from /api/v1/oauth/token with the scope of each type (residents.read, coverage.read, clinical.read), for this organization and facility.',
        },
        resource: R4_TYPES.map((r4) => ({
          type: r4.type,
          documentation: `\`_sort\` by ${Object.keys(sortKeys(r4.type)).join(', ')} (\`-\` before it for descending).`,
          interaction: [{ code: 'read' }, { code: 'search-type' }],
          searchInclude: [...searchParameters(r4.type).filter((p) => p.target.kind === 'resident').map((p) => `${r4.type}:${p.name}`), ...(r4.type === 'DiagnosticReport' ? ['DiagnosticReport:result'] : [])],
          versioning: 'versioned',
          readHistory: false,
          conditionalRead: 'not-match',
          searchParam: searchParameters(r4.type).map(({ name, type, definition, documentation }) => ({ name, type, definition, documentation })),

        })),
        operation: [
          { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export', documentation: 'GET or POST [base]/$export: every exported type of the facility, as NDJSON.' },
          { name: 'patient-export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export', documentation: 'GET or POST [base]/Patient/$export.' },
          { name: 'group-export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export', documentation: 'GET or POST [base]/Group/{facility_id}/$export: the facility is the Group.' },
        ],
      },
    ],
  };
}
