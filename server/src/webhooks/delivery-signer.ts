// Signs a delivery and names its headers. The one code path for real deliveries (the
// sender) and the test operation, so a verifier checked against a test delivery accepts
// real ones. The signature covers the body bytes only: the attempt number and timestamp
// change per attempt while the signed bytes stay the same.
import { createHmac } from 'node:crypto';
import type { components } from '@ofctx/sdk/contract';
import type { EventType } from './event-types.js';

export type DeliveryHeaders = components['schemas']['DeliveryHeaders'];

export const SIGNATURE_HEADER = 'X-Service-Signature';
/** Sent with every delivery (not part of the signed material or of DeliveryHeaders). */
export const USER_AGENT = 'ofctx-webhooks/1.0';

/** Lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the UTF-8 bytes of the secret. */
export function signDeliveryBody(body: Uint8Array | string, signingSecret: string): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return createHmac('sha256', Buffer.from(signingSecret, 'utf8')).update(bytes).digest('hex');
}

export interface SignedDelivery {
  /** The exact bytes sent. */
  body: Buffer;
  signature: string;
  headers: DeliveryHeaders;
}

export function signDelivery(input: {
  body: string;
  signingSecret: string;
  deliveryId: string;
  eventType: EventType;
  attempt: number;
  /** Unix milliseconds of this attempt. */
  at: number;
}): SignedDelivery {
  const body = Buffer.from(input.body, 'utf8');
  const signature = signDeliveryBody(body, input.signingSecret);
  return {
    body,
    signature,
    headers: {
      'Content-Type': 'application/json',
      [SIGNATURE_HEADER]: signature,
      'X-Service-Delivery-Id': input.deliveryId,
      'X-Service-Event-Type': input.eventType,
      'X-Service-Attempt': String(input.attempt),
      'X-Service-Timestamp': String(Math.floor(input.at / 1000)),
    } as DeliveryHeaders,
  };
}
