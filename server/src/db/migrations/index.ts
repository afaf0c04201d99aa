// The ordered list of migrations. Listed in code (not read from a folder) so they run the
// same under tsx, compiled, and from the ops CLI.
import type { Knex } from 'knex';
import * as core from './001_core.js';
import * as webhooks from './002_webhooks.js';
import * as versionedRecords from './003_versioned_records.js';
import * as ingestion from './004_ingestion.js';
import * as smartAndRotation from './005_smart_and_rotation.js';
import * as retention from './006_retention.js';
import * as feeds from './007_feeds.js';
import * as serviceRequests from './008_service_requests.js';
import * as deliveryClaimIndex from './009_delivery_claim_index.js';
import * as deliveryStatusIndex from './010_delivery_status_index.js';
import * as wholeRecord from './011_whole_record.js';
import * as partnerSelfService from './013_partner_self_service.js';
import * as searchIndex from './015_search_index.js';
import * as requestCategories from './016_request_categories.js';
import * as hl7CodeLength from './017_hl7_code_length.js';
import * as accessPolicy from './018_access_policy.js';
import * as disclosures from './019_disclosures.js';
import * as eligibilityResponses from './020_eligibility_responses.js';
import * as bulkExports from './021_bulk_exports.js';
import * as eligibilityResponseLabels from './023_eligibility_response_labels.js';
import * as payerIndexes from './024_payer_indexes.js';
import * as searchDrivingIndexes from './025_search_driving_indexes.js';
import * as writePathIndexes from './026_write_path_indexes.js';
import * as coveragePayerCounts from './027_coverage_payer_counts.js';
import * as disclosureIndex from './028_disclosure_index.js';
import * as disclosureGroups from './029_disclosure_groups.js';
import * as facilityResourceChanges from './030_facility_resource_changes.js';
import * as auditTexts from './031_audit_texts.js';
import * as coverageDetails from './032_coverage_details.js';
import * as eligibilityChecks from './033_eligibility_checks.js';
import * as diagnosticReports from './035_diagnostic_reports.js';
import * as inboundMessages from './036_inbound_messages.js';
import * as fhirSubscriptions from './037_fhir_subscriptions.js';
import * as clientQuotas from './038_client_quotas.js';
import * as historyPartitions from './039_history_partitions.js';
import * as consoleTables from './040_console.js';
import * as granularScopes from './041_granular_scopes.js';
import * as residentBirthDateOptional from './042_resident_birth_date_optional.js';
import * as deliveryAttemptPartitions from './044_delivery_attempt_partitions.js';
import * as disclosurePartitions from './045_disclosure_partitions.js';
import * as statementCountTriggers from './046_statement_count_triggers.js';
import * as identifierSystemIndex from './047_identifier_system_index.js';
import * as hl7FormerResultKeys from './048_hl7_former_result_keys.js';
import * as disclosureBacklogAt from './049_disclosure_backlog_at.js';
import * as disclosureTexts from './050_disclosure_texts.js';
import * as tokenRateLimits from './051_token_rate_limits.js';
import * as subscriptionsOfRevokedCredentials from './052_subscriptions_of_revoked_credentials.js';

interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
  /** `transaction: false`: the migration runs outside a transaction (an index built CONCURRENTLY). */
  config?: { transaction?: boolean };
}

export const migrations: Array<[name: string, migration: Migration]> = [
  ['001_core', core],
  ['002_webhooks', webhooks],
  ['003_versioned_records', versionedRecords],
  ['004_ingestion', ingestion],
  ['005_smart_and_rotation', smartAndRotation],
  ['006_retention', retention],
  ['007_feeds', feeds],
  ['008_service_requests', serviceRequests],
  ['009_delivery_claim_index', deliveryClaimIndex],
  ['010_delivery_status_index', deliveryStatusIndex],
  ['011_whole_record', wholeRecord],
  ['013_partner_self_service', partnerSelfService],
  ['015_search_index', searchIndex],
  ['016_request_categories', requestCategories],
  ['017_hl7_code_length', hl7CodeLength],
  ['018_access_policy', accessPolicy],
  ['019_disclosures', disclosures],
  ['020_eligibility_responses', eligibilityResponses],
  ['021_bulk_exports', bulkExports],
  ['023_eligibility_response_labels', eligibilityResponseLabels],
  ['024_payer_indexes', payerIndexes],
  ['025_search_driving_indexes', searchDrivingIndexes],
  ['026_write_path_indexes', writePathIndexes],
  ['027_coverage_payer_counts', coveragePayerCounts],
  ['028_disclosure_index', disclosureIndex],
  ['029_disclosure_groups', disclosureGroups],
  ['030_facility_resource_changes', facilityResourceChanges],
  ['031_audit_texts', auditTexts],
  ['032_coverage_details', coverageDetails],
  ['033_eligibility_checks', eligibilityChecks],
  ['035_diagnostic_reports', diagnosticReports],
  ['036_inbound_messages', inboundMessages],
  ['037_fhir_subscriptions', fhirSubscriptions],
  ['038_client_quotas', clientQuotas],
  ['039_history_partitions', historyPartitions],
  ['040_console', consoleTables],
  ['041_granular_scopes', granularScopes],
  ['042_resident_birth_date_optional', residentBirthDateOptional],
  ['044_delivery_attempt_partitions', deliveryAttemptPartitions],
  ['045_disclosure_partitions', disclosurePartitions],
  ['046_statement_count_triggers', statementCountTriggers],
  ['047_identifier_system_index', identifierSystemIndex],
  ['048_hl7_former_result_keys', hl7FormerResultKeys],
  ['049_disclosure_backlog_at', disclosureBacklogAt],
  ['050_disclosure_texts', disclosureTexts],
  ['051_token_rate_limits', tokenRateLimits],
  ['052_subscriptions_of_revoked_credentials', subscriptionsOfRevokedCredentials],
];
