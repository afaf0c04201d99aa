// GET [base]/metadata: the CapabilityStatement of the R4 view, built from R4_TYPES, so it
// lists exactly the types, interactions and search parameters that are served.
import { COMMON_SEARCH_PARAMS, R4_TYPES, residentSearchParams } from './r4-types.js';

export const FHIR_VERSION = '4.0.1';
/** When this statement's content last changed (a release date, not the request's). */
const PUBLISHED = '2026-11-23';

export function capabilityStatement(base: string) {
  return {
    resourceType: 'CapabilityStatement' as const,
    status: 'active',
    date: PUBLISHED,
    publisher: 'ofctx',
    kind: 'instance',
    software: { name: 'ofctx' },
    implementation: { description: 'ofctx FHIR R4 read-only view of one facility', url: base },
    fhirVersion: FHIR_VERSION,
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read-only. Search pages are followed with the `next` link only; `_count` is 1 to 200 (default 50). A search parameter not listed here is refused (400), never ignored.',
        security: {
          cors: false,
          service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'OAuth', display: 'OAuth' }] }],
          description: 'OAuth 2.0 client credentials: a bearer token from /api/v1/oauth/token with the scope of each type (residents.read, coverage.read, clinical.read), for this organization and facility.',
        },
        resource: R4_TYPES.map((r4) => ({
          type: r4.type,
          interaction: [{ code: 'read' }, { code: 'search-type' }],
          versioning: 'versioned',
          readHistory: false,
          conditionalRead: 'not-match',
          searchParam: [...COMMON_SEARCH_PARAMS, ...residentSearchParams(r4)],
        })),
      },
    ],
  };
}
