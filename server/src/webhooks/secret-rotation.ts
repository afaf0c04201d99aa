// Rotating a subscription's signing secret, and which secrets sign a delivery at a moment.
// The replaced secret stays, encrypted like the current one, until the overlap ends
// (WEBHOOK_SECRET_OVERLAP_S), so receivers can switch without losing a delivery; the
// signer (delivery-signer.ts) decides how each header uses the two. Rotating again during
// an overlap ends that overlap at once: the secret before the last rotation is dropped.
import type { Knex } from 'knex';
import type { components } from '@ofctx/sdk/contract';
import { nowIso } from '../db/clock.js';
import { standardWebhooksSecret, type SigningSecrets } from './delivery-signer.js';
import type { SigningSecretCipher } from '../db/signing-secret-crypto.js';
import { newSigningSecret } from './signing-secret.js';
import type { SubscriptionRow } from './subscriptions.js';

export type WebhookSecretRotation = components['schemas']['WebhookSecretRotation'];

/** The encrypted secret columns of a subscription, as a row or a claim carries them. */
export interface EncryptedSigningSecrets {
  subscriptionId: string;
  signingSecretEncrypted: string;
  previousSigningSecretEncrypted: string | null;
  previousSecretExpiresAt: string | null;
}

/** Decrypts the secrets in force at `at` (Unix ms): the previous one only before its expiry. */
export function signingSecretsAt(cipher: SigningSecretCipher, stored: EncryptedSigningSecrets, at: number): SigningSecrets {
  const current = cipher.decrypt(stored.signingSecretEncrypted, stored.subscriptionId);
  const overlapping = stored.previousSigningSecretEncrypted && stored.previousSecretExpiresAt && Date.parse(stored.previousSecretExpiresAt) > at;
  return { current, previous: overlapping ? cipher.decrypt(stored.previousSigningSecretEncrypted!, stored.subscriptionId) : null };
}

export function encryptedSecretsOf(row: SubscriptionRow): EncryptedSigningSecrets {
  return {
    subscriptionId: row.id,
    signingSecretEncrypted: row.signing_secret_encrypted,
    previousSigningSecretEncrypted: row.previous_signing_secret_encrypted ?? null,
    previousSecretExpiresAt: row.previous_secret_expires_at ?? null,
  };
}

/**
 * Gives an active subscription a new secret and keeps the current one as the previous one
 * for `overlapSeconds` (none when 0). Undefined when the subscription is not active.
 */
export async function rotateSigningSecret(
  db: Knex,
  cipher: SigningSecretCipher,
  subscription: SubscriptionRow,
  overlapSeconds: number,
  at = Date.now(),
): Promise<WebhookSecretRotation | undefined> {
  const signingSecret = newSigningSecret();
  const expiresAt = overlapSeconds > 0 ? nowIso(at + overlapSeconds * 1000) : null;
  // Compare-and-set on the current ciphertext: of two rotations at once, one wins and the
  // other is told to retry, so no answered secret is ever silently discarded.
  const updated = await db('webhook_subscriptions')
    .where({ id: subscription.id, status: 'active', signing_secret_encrypted: subscription.signing_secret_encrypted })
    .update({
      signing_secret_encrypted: cipher.encrypt(signingSecret, subscription.id),
      previous_signing_secret_encrypted: expiresAt ? subscription.signing_secret_encrypted : null,
      previous_secret_expires_at: expiresAt,
    });
  if (updated === 0) return undefined;
  return {
    id: subscription.id,
    signing_secret: signingSecret,
    standard_webhooks_secret: standardWebhooksSecret(signingSecret),
    rotated_at: nowIso(at),
    previous_secret_expires_at: expiresAt,
  };
}
