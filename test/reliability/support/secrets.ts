// Every secret the suite's own activity produced: client secrets (from seeding), access
// tokens and webhook signing secrets (harvested from every answer the suite receives).
// The secrets-at-rest test searches the database and the logs for each of them.
export type SecretKind = 'client_secret' | 'access_token' | 'signing_secret' | 'metrics_token';

const secrets = new Map<string, SecretKind>();

export function rememberSecret(kind: SecretKind, value: unknown): void {
  if (typeof value === 'string' && value.length >= 16) secrets.set(value, kind);
}

/** Takes the secrets out of a token answer or a webhook registration answer. */
export function harvestSecrets(body: unknown): void {
  if (!body || typeof body !== 'object') return;
  const b = body as { access_token?: unknown; data?: { signing_secret?: unknown } | null };
  rememberSecret('access_token', b.access_token);
  if (b.data && typeof b.data === 'object') rememberSecret('signing_secret', b.data.signing_secret);
}

export function rememberedSecrets(): Array<{ kind: SecretKind; value: string }> {
  return [...secrets].map(([value, kind]) => ({ kind, value }));
}
