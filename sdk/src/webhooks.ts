// Management of an organization's webhook subscriptions (scope webhooks.manage).
// Receiving deliveries is @ofctx/verifier's job.
import type { Client } from 'openapi-fetch';
import { assertId } from './arguments.js';
import type { DeliveryHeaders, EventType, EventTypeInfo, WebhookSecretRotation, WebhookSubscription, WebhookSubscriptionCreated } from './contract-types.js';
import type { components, paths } from './generated/openapi.js';
import { type CallOptions, PagedList } from './pagination.js';
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
