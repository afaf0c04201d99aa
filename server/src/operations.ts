// Every operation of the contract and the handler that serves it. A test checks that each
// operationId of openapi/openapi.yaml has exactly one handler here.
import type { OperationRegistry } from './api-backend.js';
import { createToken } from './auth/token-endpoint.js';
import { smartConfigurationOperations } from './auth/smart-configuration.js';
import { healthOperations } from './http/health-operations.js';
import { apiReferenceOperations } from './http/api-reference-operations.js';
import { resourceOperations } from './resources/resource-operations.js';
import { webhookOperations } from './webhooks/webhook-operations.js';
import { fhirSubscriptionOperations } from './webhooks/fhir/fhir-subscription-operations.js';
import { deliveryOperations } from './webhooks/delivery-operations.js';
import { eventOperations } from './events/event-operations.js';
import { metricsOperations } from './http/metrics-endpoint.js';
import { ingestOperations } from './ingest/ingest-operations.js';
import { getFhirCapabilityStatement, r4Operations } from './resources/r4/r4-operations.js';
import { x12Operations } from './x12/x12-operations.js';
import { bulkExportOperations } from './bulk/export-operations.js';
import { consoleOperationHandlers } from './console/console-operations.js';
import { consoleSessionOf } from './console/console-requests.js';

export const operations: OperationRegistry = {
  public: { ...healthOperations, ...apiReferenceOperations, ...metricsOperations, ...smartConfigurationOperations, createToken, getFhirCapabilityStatement, ...consoleOperationHandlers },
  secured: { ...resourceOperations, ...webhookOperations, ...deliveryOperations, ...eventOperations, ...ingestOperations, ...r4Operations, ...fhirSubscriptionOperations, ...x12Operations, ...bulkExportOperations },
  consoleSession: consoleSessionOf,
};
