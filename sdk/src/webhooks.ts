// Management of an organization's webhook subscriptions (scope webhooks.manage).
// Receiving deliveries is @ofctx/verifier's job.
import type { Client } from 'openapi-fetch';
import { assertId } from './arguments.js';
import type {
  DeliveryHeaders,
  EventType,
  EventTypeInfo,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookRecovery,
  WebhookSecretRotation,
  WebhookSubscription,
  WebhookSubscriptionCreated,
} from './contract-types.js';
import { toInstant } from './change-feed.js';
import type { components, paths } from './generated/openapi.js';
import { type CallOptions, type Page, PagedList } from './pagination.js';
import { pageOf, envelopeData } from './response-data.js';

export interface WebhookRegistrationInput {
  /** Absolute https URL whose host resolves only to public addresses. */
  callbackUrl: string;
  eventTypes: EventType[];
  description?: string | undefined;
}

/** A signed test delivery: exactly what a real delivery of that event would carry. */
export interface TestDelivery {
  /** The exact body; its UTF-8 bytes are what is signed. Verify these bytes, not a re-serialization. */
  body: string;
  /** Lowercase hex HMAC-SHA256 of `body`, keyed with the subscription's signing secret. */
  signature: string;
  /** The header that carries the signature (`X-Service-Signature`). */
  signatureHeader: components['schemas']['WebhookTestDelivery']['signature_header'];
  /** Every header the delivery carries, by name. */
  headers: DeliveryHeaders;
}

export interface DeliveryListOptions extends CallOptions {
  /** Only deliveries in this state. */
  status?: WebhookDeliveryStatus | undefined;
  page?: number | undefined;
  /** 1 to 200; default 50. */
  pageSize?: number | undefined;
}

export class WebhooksClient extends PagedList<WebhookSubscription> {
  constructor(
    private readonly raw: Client<paths>,
    readonly orgId: string,
  ) {
    assertId(orgId, 'orgId');
    super(({ page, pageSize, signal }) =>
      pageOf(raw.GET('/api/v1/ofctx/{org_id}/webhooks', { params: { path: { org_id: orgId }, query: { page, page_size: pageSize } }, signal })),
    );
  }

  /**
   * Registers a subscription. The answer holds `signing_secret`, shown this once: store it.
   * Never retried automatically (a retry after a lost answer could register twice);
   * after a ConnectionError, list() to see whether it was created.
   */
  async register(input: WebhookRegistrationInput, options?: CallOptions): Promise<WebhookSubscriptionCreated> {
    const body = {
      callback_url: input.callbackUrl,
      event_types: input.eventTypes,
      ...(input.description === undefined ? {} : { description: input.description }),
    };
    return envelopeData(this.raw.POST('/api/v1/ofctx/{org_id}/webhooks', { params: { path: { org_id: this.orgId } }, body, signal: options?.signal }));
  }

  /** The event types a subscription can name, with their envelope's `api_version`. */
  async eventTypes(options?: CallOptions): Promise<EventTypeInfo[]> {
    return envelopeData(this.raw.GET('/api/v1/ofctx/{org_id}/webhooks/event-types', { params: { path: { org_id: this.orgId } }, signal: options?.signal }));
  }

  /** One subscription: its status and, when disabled, why (`disabled_reason`) and since when it failed (`failing_since`). */
  async get(id: string, options?: CallOptions): Promise<WebhookSubscription> {
    assertId(id, 'id');
    return envelopeData(this.raw.GET('/api/v1/ofctx/{org_id}/webhooks/{id}', { params: { path: { org_id: this.orgId, id } }, signal: options?.signal }));
  }

  /** Turns a disabled subscription active again (not a revoked one); then `recover` what it missed. */
  async enable(id: string, options?: CallOptions): Promise<WebhookSubscription> {
    assertId(id, 'id');
    return envelopeData(this.raw.POST('/api/v1/ofctx/{org_id}/webhooks/{id}/enable', { params: { path: { org_id: this.orgId, id } }, signal: options?.signal }));
  }

  /** A page of the subscription's deliveries, newest first, each with every attempt (status code, duration, error class). */
  async deliveries(id: string, options: DeliveryListOptions = {}): Promise<Page<WebhookDelivery>> {
    assertId(id, 'id');
    const query = {
      ...(options.status === undefined ? {} : { status: options.status }),
      ...(options.page === undefined ? {} : { page: options.page }),
      ...(options.pageSize === undefined ? {} : { page_size: options.pageSize }),
    };
    return pageOf(this.raw.GET('/api/v1/ofctx/{org_id}/webhooks/{id}/deliveries', { params: { path: { org_id: this.orgId, id }, query }, signal: options.signal }));
  }

  /**
   * Sends one delivery again: the same body bytes (same event and delivery id, so your
   * receiver de-duplicates it as usual), a new signature. 409 ConflictError while it is
   * still queued, or when the subscription is not active.
   */
  async redeliver(id: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery> {
    assertId(id, 'id');
    assertId(deliveryId, 'deliveryId');
    return envelopeData(
      this.raw.POST('/api/v1/ofctx/{org_id}/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { org_id: this.orgId, id, delivery_id: deliveryId } }, signal: options?.signal }),
    );
  }

  /** Sends again every failed or cancelled delivery created since `since`; answers how many were queued. */
  async recover(id: string, since: Date | string, options?: CallOptions): Promise<WebhookRecovery> {
    assertId(id, 'id');
    return envelopeData(
      this.raw.POST('/api/v1/ofctx/{org_id}/webhooks/{id}/recover', { params: { path: { org_id: this.orgId, id } }, body: { since: toInstant(since) }, signal: options?.signal }),
    );
  }

  /** Revokes a subscription (pending deliveries are cancelled); answers the revoked record. Revoking twice is harmless. */
  async revoke(id: string, options?: CallOptions): Promise<WebhookSubscription> {
    assertId(id, 'id');
    return envelopeData(this.raw.DELETE('/api/v1/ofctx/{org_id}/webhooks/{id}', { params: { path: { org_id: this.orgId, id } }, signal: options?.signal }));
  }

  /** Builds and signs (without sending) the delivery an event of `eventType` would produce, to check a verifier. */
  async test(id: string, eventType: EventType, options?: CallOptions): Promise<TestDelivery> {
    assertId(id, 'id');
    const { body, signature, signature_header, headers } = await envelopeData(
      this.raw.POST('/api/v1/ofctx/{org_id}/webhooks/{id}/test', {
        params: { path: { org_id: this.orgId, id } },
        body: { event_type: eventType },
        signal: options?.signal,
      }),
    );
    return { body, signature, signatureHeader: signature_header, headers };
  }

  /**
   * Rotates the signing secret. The answer holds the new `signing_secret` (and its
   * `standard_webhooks_secret` form), shown this once; the old secret keeps signing beside
   * it until `previous_secret_expires_at`. Verify with `[newSecret, oldSecret]` meanwhile.
   */
  async rotateSecret(id: string, options?: CallOptions): Promise<WebhookSecretRotation> {
    assertId(id, 'id');
    return envelopeData(this.raw.POST('/api/v1/ofctx/{org_id}/webhooks/{id}/rotate-secret', { params: { path: { org_id: this.orgId, id } }, signal: options?.signal }));
  }
}
