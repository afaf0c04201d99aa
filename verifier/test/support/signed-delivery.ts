// Building deliveries the way ofctx sends them, signed with node:crypto directly so that the
// tests of the verifier do not lean on the verifier's own `sign`.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

export const secret = `ofx_whs_${randomBytes(32).toString('base64url')}`;

export function hmacHex(body: string | Uint8Array, key: string = secret): string {
  return createHmac('sha256', key).update(body).digest('hex');
}

export interface SignedDelivery {
  body: string;
  deliveryId: string;
  headers: Record<string, string>;
}

/** A resident.admitted delivery and the headers of its first attempt, sent at `sentAt` (ms). */
export function signedDelivery(options: { key?: string; sentAt?: number } = {}): SignedDelivery {
  const deliveryId = randomUUID();
  const body = JSON.stringify({
    api_version: 'v1',
    event_type: 'resident.admitted',
    event_id: randomUUID(),
    delivery_id: deliveryId,
    occurred_at: new Date().toISOString(),
    data: { org_id: randomUUID(), facility_id: randomUUID(), resident_id: randomUUID() },
  });
  return {
    body,
    deliveryId,
    headers: {
      'Content-Type': 'application/json',
      'X-Service-Signature': hmacHex(body, options.key ?? secret),
      'X-Service-Delivery-Id': deliveryId,
      'X-Service-Event-Type': 'resident.admitted',
      'X-Service-Attempt': '1',
      'X-Service-Timestamp': String(Math.floor((options.sentAt ?? Date.now()) / 1000)),
    },
  };
}
