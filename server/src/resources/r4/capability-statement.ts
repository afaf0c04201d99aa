// GET [base]/metadata: the CapabilityStatement of the R4 view, built from R4_TYPES, so it
// lists exactly the types, interactions and search parameters that are served.
import { R4_TYPES } from './r4-types.js';
import { searchParameters, sortKeys } from './search/search-parameters.js';
import { SUBSCRIPTION_PROFILE, TOPIC_CANONICAL_EXTENSION } from '../../webhooks/fhir/backport-subscription.js';
import { SUBSCRIPTION_TOPICS } from '../../webhooks/fhir/subscription-topics.js';

/**
 * FHIR Subscriptions (R5 Backport IG on R4, webhooks/fhir/): the Subscription type with each
 * topic's canonical (capabilitystatement-subscriptiontopic-canonical), and the topics as Basic.
 */
function subscriptionResources() {
  return [
    {
      extension: SUBSCRIPTION_TOPICS.map((topic) => ({ url: TOPIC_CANONICAL_EXTENSION, valueCanonical: topic.url })),
      type: 'Subscription',
      supportedProfile: [SUBSCRIPTION_PROFILE],
      documentation:
        'Topic-based Subscriptions (R5 Backport IG STU 1.1): rest-hook, application/fhir+json, content empty, id-only (default) or full-resource; scope webhooks.manage (system/Subscription.cruds). Delivered with the webhook machinery: retries with backoff, SSRF guard, auto-disable.',
      interaction: [{ code: 'create' }, { code: 'read' }, { code: 'update' }, { code: 'delete' }, { code: 'search-type' }],
      searchParam: [
        { name: 'status', type: 'token', definition: 'http://hl7.org/fhir/SearchParameter/Subscription-status' },
        { name: 'url', type: 'uri', definition: 'http://hl7.org/fhir/SearchParameter/Subscription-url' },
      ],
      operation: [
        { name: 'status', definition: 'http://hl7.org/fhir/uv/subscriptions-backport/OperationDefinition/backport-subscription-status' },
        { name: 'events', definition: 'http://hl7.org/fhir/uv/subscriptions-backport/OperationDefinition/backport-subscription-events' },
      ],
    },
    {
      type: 'Basic',
      documentation: 'The SubscriptionTopics, as the Backport IG describes them for R4 (code SubscriptionTopic, R5 cross-version extensions).',
      interaction: [{ code: 'read' }, { code: 'search-type' }],
      searchParam: [{ name: 'code', type: 'token', definition: 'http://hl7.org/fhir/SearchParameter/Basic-code' }],
    },
  ];
}

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
    implementation: { description: 'ofctx FHIR R4 read-only view of one facility, with topic-based Subscriptions', url: base },
    // Bulk Data Access IG v2.0: $export at the system, Patient and Group (the facility) levels.
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    fhirVersion: FHIR_VERSION,
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read-only records; Subscriptions (R5 Backport IG) are created, updated and deleted. Searches by GET or POST [type]/_search (a form body); pages are followed with the `next` link only; `_count` is 0 to 200 (default 50); `_summary=count` or `_count=0` answers the total alone. A parameter not listed here (or a modifier, `_sort` or `_include` not supported) is ignored and left out of the self link, or refused (400) with `Prefer: handling=strict`.',
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

        })).concat(subscriptionResources() as never[]),
        operation: [
          { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export', documentation: 'GET or POST [base]/$export: every exported type of the facility, as NDJSON.' },
          { name: 'patient-export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export', documentation: 'GET or POST [base]/Patient/$export.' },
          { name: 'group-export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export', documentation: 'GET or POST [base]/Group/{facility_id}/$export: the facility is the Group.' },
        ],
      },
    ],
  };
}
