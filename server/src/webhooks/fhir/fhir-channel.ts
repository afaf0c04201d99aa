// How a FHIR Subscription's notification is sent by the delivery worker (delivery-worker.ts):
// the stored Bundle's bytes as they are, `Content-Type: application/fhir+json`, the
// Subscription's channel.header (decrypted only here, for the attempt), and the
// Subscription's timeout (never longer than the server's). Not signed: FHIR receivers
// authenticate notifications by the headers they asked for (an Authorization, say).
import type { ClaimedDelivery } from '../delivery-claims.js';
import type { SigningSecretCipher } from '../../db/signing-secret-crypto.js';
import { FHIR_JSON } from './backport-subscription.js';
import { settingsOf } from './fhir-notifications.js';

/** channel.header as stored: a JSON array of `Name: value`, encrypted. */
export function encryptHeaders(cipher: SigningSecretCipher, subscriptionId: string, headers: readonly string[]): string | null {
  return headers.length === 0 ? null : cipher.encrypt(JSON.stringify(headers), subscriptionId);
}

export function decryptHeaders(cipher: SigningSecretCipher, subscriptionId: string, stored: string | null): string[] {
  return stored === null ? [] : (JSON.parse(cipher.decrypt(stored, subscriptionId)) as string[]);
}

/** The header names only (what a read shows). */
export function headerNames(cipher: SigningSecretCipher, subscriptionId: string, stored: string | null): string[] {
  return decryptHeaders(cipher, subscriptionId, stored).map((header) => header.slice(0, header.indexOf(':')).trim());
}

export function fhirChannelRequest(cipher: SigningSecretCipher, claim: ClaimedDelivery, serverTimeoutMs: number): { body: Buffer; headers: Record<string, string>; timeoutMs: number } {
  const headers: Record<string, string> = {};
  for (const header of decryptHeaders(cipher, claim.subscriptionId, claim.channelHeadersEncrypted)) {
    const colon = header.indexOf(':');
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  headers['Content-Type'] = `${FHIR_JSON}; charset=utf-8`;
  const settings = settingsOf({ fhir_settings: claim.fhirSettings });
  return { body: Buffer.from(claim.body, 'utf8'), headers, timeoutMs: Math.min(serverTimeoutMs, settings.timeout * 1000) };
}
