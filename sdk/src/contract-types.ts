// Names for the contract's schemas, so callers write `Patient` rather than
// `components['schemas']['Patient']`. All come from the generated contract: a change to
// openapi/openapi.yaml that breaks a caller breaks the type check here too.
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Patient = Schemas['Patient'];
export type Coverage = Schemas['Coverage'];
export type Observation = Schemas['Observation'];
export type ObservationComponent = Schemas['ObservationComponent'];
export type AllergyIntolerance = Schemas['AllergyIntolerance'];
export type Reference = Schemas['Reference'];
export type Coding = Schemas['Coding'];
export type Quantity = Schemas['Quantity'];
export type Identifier = Schemas['Identifier'];
export type HumanName = Schemas['HumanName'];

export type EventType = Schemas['EventType'];
export type EventTypeInfo = Schemas['EventTypeInfo'];
export type WebhookSubscription = Schemas['WebhookSubscription'];
/** A subscription as registration answers it: the only time `signing_secret` is shown. */
export type WebhookSubscriptionCreated = Schemas['WebhookSubscriptionCreated'];
export type WebhookSecretRotation = Schemas['WebhookSecretRotation'];
export type WebhookSubscriptionStatus = Schemas['WebhookSubscriptionStatus'];
export type DeliveryHeaders = Schemas['DeliveryHeaders'];
/** The body of a webhook delivery (what a receiver parses after verifying the signature). */
export type EventDelivery = Schemas['EventDelivery'];
export type EventData = Schemas['EventData'];
/** An event of the log (client.events(orgId)): its `data` is exactly what its deliveries carried. */
export type Event = Schemas['Event'];
/** A delivery of a subscription with its attempts (client.webhooks(orgId).deliveries). */
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryAttempt = Schemas['WebhookDeliveryAttempt'];
export type WebhookDeliveryStatus = Schemas['WebhookDeliveryStatus'];
export type WebhookAttemptError = Schemas['WebhookAttemptError'];
export type WebhookDisabledReason = Schemas['WebhookDisabledReason'];
export type WebhookRecovery = Schemas['WebhookRecovery'];

/** The `error` object of a failed response's envelope. */
export type ApiErrorBody = Schemas['Error'];
export type ApiErrorCode = Schemas['ErrorCode'];
export type ErrorDetail = Schemas['ErrorDetail'];
/** The token endpoint's RFC 6749 section 5.2 error body. */
export type OAuthErrorBody = Schemas['OAuthError'];
export type OAuthErrorCode = Schemas['OAuthError']['error'];
export type TokenResponse = Schemas['TokenResponse'];

/**
 * The OAuth scopes the API defines (`components.securitySchemes` is not part of the
 * generated types; sdk/test/contract-types.test.ts keeps this list equal to the document's).
 */
export const SCOPES = ['residents.read', 'coverage.read', 'clinical.read', 'webhooks.manage'] as const;
export type Scope = (typeof SCOPES)[number];
