// @ofctx/sdk: typed client for the ofctx integration API.
export { createClient, type ClientOptions, type OfctxClient } from './client.js';
export {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  errorFromResponse,
  NotFoundError,
  OAuthError,
  OfctxError,
  PermissionError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  ValidationError,
  type ErrorCode,
  type OfctxErrorInit,
  type SdkErrorCode,
} from './errors.js';
export { ResourceCollection, type FacilityClient, type ResidentFilter } from './facility.js';
export { ChangeFeed, type ChangedSinceOptions, type Versioned } from './change-feed.js';
export {
  PagedList,
  type CallOptions,
  type Page,
  type PageInfo,
  type PageOptions,
  type ToArrayOptions,
  type WalkOptions,
} from './pagination.js';
export { WebhooksClient, type DeliveryListOptions, type TestDelivery, type WebhookRegistrationInput } from './webhooks.js';
export { EventLog, EventsClient, type EventLogOptions, type EventPage } from './events.js';
export type { FetchFunction } from './transport.js';
export type { AssertionAlgorithm, PrivateKeyInput } from './client-authentication.js';
export { SDK_VERSION } from './version.js';
export { SCOPES } from './contract-types.js';
export type * from './contract-types.js';
export type { components, paths, operations, webhooks } from './generated/openapi.js';
