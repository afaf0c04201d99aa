// Signs a delivery and names its headers. The one code path for real deliveries (the
// sender) and the test operation, so a verifier checked against a test delivery accepts
// real ones. Two schemes, with the same key (the UTF-8 bytes of the signing secret):
// - X-Service-Signature (spec 6.3): hex HMAC-SHA256 of the body bytes only; the attempt
//   number and timestamp change per attempt while the signed bytes stay the same.
// - Standard Webhooks: webhook-signature = `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
//   one entry per secret in force, space-separated.
// During a rotation's overlap both secrets sign: webhook-signature lists the new one, then
// the old one; X-Service-Signature stays the OLD secret's (the one value a spec-6.3
// receiver still holding it compares with) until the overlap ends, then the new one's.
import { createHmac } from 'node:crypto';
import type { components } from '@ofctx/sdk/contract';
import type { EventType } from '../db/event-types.js';

export type DeliveryHeaders = components['schemas']['DeliveryHeaders'];

export const SIGNATURE_HEADER = 'X-Service-Signature';
/** Sent with every delivery (not part of the signed material or of DeliveryHeaders). */
export const USER_AGENT = 'ofctx-webhooks/1.0';

/** The secrets that sign a delivery now: the current one, and the replaced one during an overlap. */
export interface SigningSecrets {
  current: string;
  /** Set only while a rotation's overlap lasts. */
  previous?: string | null | undefined;
}

/** Lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the UTF-8 bytes of the secret. */
export function signDeliveryBody(body: Uint8Array | string, signingSecret: string): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return createHmac('sha256', Buffer.from(signingSecret, 'utf8')).update(bytes).digest('hex');
}

/** One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`. */
export function standardWebhooksSignature(body: Uint8Array, signingSecret: string, id: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', Buffer.from(signingSecret, 'utf8')).update(`${id}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/**
 * The Standard Webhooks form of a signing secret: `whsec_` + base64 of the key bytes (the
 * UTF-8 bytes of the whole `ofx_whs_...` string), so both schemes use one key.
 */
export function standardWebhooksSecret(signingSecret: string): string {
  return `whsec_${Buffer.from(signingSecret, 'utf8').toString('base64')}`;
}

export interface SignedDelivery {
  /** The exact bytes sent. */
  body: Buffer;
  /** The X-Service-Signature value. */
  signature: string;
  headers: DeliveryHeaders;
}

export function signDelivery(input: {
  body: string;
  secrets: SigningSecrets;
  deliveryId: string;
  eventType: EventType;
  attempt: number;
  /** Unix milliseconds of this attempt. */
  at: number;
}): SignedDelivery {
  const body = Buffer.from(input.body, 'utf8');
  const { current, previous } = input.secrets;
  const timestamp = Math.floor(input.at / 1000);
  const signature = signDeliveryBody(body, previous ?? current);
  const inForce = previous ? [current, previous] : [current];
  return {
    body,
    signature,
    headers: {
      'Content-Type': 'application/json',
      [SIGNATURE_HEADER]: signature,
      'X-Service-Delivery-Id': input.deliveryId,
      'X-Service-Event-Type': input.eventType,
      'X-Service-Attempt': String(input.attempt),
      'X-Service-Timestamp': String(timestamp),
      'webhook-id': input.deliveryId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': inForce.map((secret) => standardWebhooksSignature(body, secret, input.deliveryId, timestamp)).join(' '),
    } as DeliveryHeaders,
  };
}
