import { readFileSync } from 'node:fs';
import { fetchJwks, JwksProblem, publicJwksFromFile } from '../../auth/client-keys.js';
import { systemResolver } from '../../webhooks/ssrf-guard.js';
import { createClient, findClient, grantFacilities, listClients, revokeClient, updateClientPolicy, updateClientQuota, type ClientPublicKeys, type ClientRecord } from '../../auth/clients.js';
import type { QuotaOverride } from '../../quotas/client-quotas.js';
import type { QuotaLimits } from '../../quotas/token-bucket.js';
import { DEFAULT_POLICY, isPurposeOfUse, normalisedPayer, PURPOSES_OF_USE, type AccessPolicy } from '../../tenancy/access-policy.js';
import { INGEST_SCOPE, PARTNER_SCOPES, isScope, parseScopes } from '../../tenancy/scopes.js';
import { findOrganization } from '../../organizations/organizations.js';
import { nameOption, required, uuidList, uuidOption, UsageError, type CliContext, type Command, type ParsedArgs } from '../command.js';

export function publicView(client: ClientRecord) {
  const { id: _internal, ...rest } = client;
  return rest;
}

/** The access-policy options of `client create` and `client update`. */
const POLICY_OPTIONS = {
  purpose: { type: 'string' },
  payer: { type: 'string', multiple: true },
  sensitive: { type: 'boolean' },
} as const;

/** --purpose, --payer (repeatable), --sensitive over `base`; --all-payers and --no-sensitive undo the last two. */
function policyOption(args: ParsedArgs, base: AccessPolicy): AccessPolicy {
  const purpose = args.values.purpose;
  if (purpose !== undefined && (typeof purpose !== 'string' || !isPurposeOfUse(purpose.trim().toUpperCase()))) {
    throw new UsageError(`--purpose must be an HL7 v3 PurposeOfUse code: ${PURPOSES_OF_USE.join(' ')}`);
  }
  const given = args.values.payer as unknown as string[] | undefined;
  const payers = given?.map(normalisedPayer);
  if (payers?.some((p) => p === '' || p.length > 200)) throw new UsageError('--payer needs a payer identifier value or name of 1 to 200 characters');
  if (payers && args.values['all-payers']) throw new UsageError('give --payer or --all-payers, not both');
  if (args.values.sensitive && args.values['no-sensitive']) throw new UsageError('give --sensitive or --no-sensitive, not both');
  return {
    purpose: typeof purpose === 'string' ? (purpose.trim().toUpperCase() as AccessPolicy['purpose']) : base.purpose,
    payers: args.values['all-payers'] ? null : payers ? [...new Set(payers)].sort() : base.payers,
    sensitive: args.values.sensitive ? true : args.values['no-sensitive'] ? false : base.sensitive,
  };
}

export function describePolicy(policy: AccessPolicy): string {
  return `purpose ${policy.purpose}; ${policy.payers ? `members of ${policy.payers.join(', ')} only` : 'every resident'}; ${policy.sensitive ? 'restricted records included' : 'no restricted records'}`;
}

export const clientCreate: Command = {
  name: 'client create',
  summary:
    'Issue a machine credential; its secret is shown only in this output. With --jwks FILE or --jwks-url URL it authenticates with ' +
    'signed JWT assertions (SMART Backend Services) and has no secret unless --with-secret.',
  usage:
    'client create --org ORG --facilities F1,F2 --scopes "S1 S2" --name NAME [--purpose CODE] [--payer VALUE]... [--sensitive] ' +
    '[--jwks FILE | --jwks-url URL [--with-secret]] [--json]   (FILE: a JWKS, or a PEM public key; --purpose defaults to HOPERAT)',
  options: {
    ...POLICY_OPTIONS,
    org: { type: 'string' },
    facilities: { type: 'string' },
    scopes: { type: 'string' },
    name: { type: 'string' },
    jwks: { type: 'string' },
    'jwks-url': { type: 'string' },
    'with-secret': { type: 'boolean' },
  },
  async run(args, cli) {
    // Check every argument before touching the database.
    const orgId = uuidOption(args, 'org');
    const facilityIds = uuidList(args, 'facilities');
    const name = nameOption(args, 'name');
    const scopes = parseScopes(required(args, 'scopes').replace(/,/g, ' '));
    const unknown = scopes.filter((s) => !isScope(s) || s === INGEST_SCOPE);
    if (scopes.includes(INGEST_SCOPE)) throw new UsageError(`a partner credential cannot hold ${INGEST_SCOPE}; connect a system of record with "source create"`);
    if (unknown.length) throw new UsageError(`unknown scopes ${unknown.join(', ')}; known: ${PARTNER_SCOPES.join(' ')}`);
    const policy = policyOption(args, DEFAULT_POLICY);
    const keys = await publicKeysOption(args, cli);
    const db = await cli.db();
    if (!(await findOrganization(db, orgId))) throw new UsageError(`no organization ${orgId}`);
    try {
      const created = await createClient(db, { orgId, facilityIds, scopes, name, policy, ...(keys ? { keys, withoutSecret: args.values['with-secret'] !== true } : {}) });
      // The key ids the partner signs with (`kid`), for a registered JWKS.
      const keyIds = keys?.jwks ? (JSON.parse(keys.jwks) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid) : undefined;
      return keyIds ? { ...created, key_ids: keyIds } : created;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  },
  format: (c: { client_id: string; client_secret: string | null; scopes: string[]; facility_ids: string[]; auth_methods: string[]; key_ids?: string[]; policy: AccessPolicy }) =>
    `client_id:     ${c.client_id}\n` +
    (c.client_secret === null ? 'client_secret: (none: authenticates with private_key_jwt only)\n' : `client_secret: ${c.client_secret}\n(shown only now: store it in your secret manager)\n`) +
    `auth methods:  ${c.auth_methods.join(', ')}\n` +
    (c.key_ids ? `key ids (kid): ${c.key_ids.join(', ')}\n` : '') +
    `scopes:        ${c.scopes.join(' ')}\nfacilities:    ${c.facility_ids.join(', ')}\npolicy:        ${describePolicy(c.policy)}`,
};

/** The quota options of `client update`. */
const QUOTA_OPTIONS = {
  'quota-rate': { type: 'string' },
  'quota-burst': { type: 'string' },
  'default-quota': { type: 'boolean' },
} as const;

const POLICY_OPTION_NAMES = ['purpose', 'payer', 'sensitive', 'all-payers', 'no-sensitive'] as const;

/** --quota-rate N (units a second), --quota-burst N (units at once) over `base`; --default-quota clears both. Undefined: none given. */
function quotaOption(args: ParsedArgs, base: QuotaOverride | null): QuotaOverride | undefined {
  const rate = args.values['quota-rate'];
  const burst = args.values['quota-burst'];
  if (args.values['default-quota']) {
    if (rate !== undefined || burst !== undefined) throw new UsageError('give --default-quota or --quota-rate/--quota-burst, not both');
    return { rate: null, burst: null };
  }
  if (rate === undefined && burst === undefined) return undefined;
  const parsedRate = rate === undefined ? (base?.rate ?? null) : Number(rate);
  if (parsedRate !== null && !(Number.isFinite(parsedRate) && parsedRate > 0 && parsedRate <= 1_000_000)) throw new UsageError('--quota-rate is the units a second the credential may use: a number above 0 (a read or a default page costs 1)');
  const parsedBurst = burst === undefined ? (base?.burst ?? null) : Number(burst);
  if (parsedBurst !== null && !(Number.isInteger(parsedBurst) && parsedBurst >= 1 && parsedBurst <= 100_000_000)) throw new UsageError('--quota-burst is the units the credential may use at once: a whole number, 1 or more');
  return { rate: parsedRate, burst: parsedBurst };
}

export function describeQuota(quota: QuotaOverride | null, defaults: QuotaLimits): string {
  const rate = quota?.rate ?? defaults.rate;
  const burst = quota?.burst ?? defaults.burst;
  return `${rate} units/s, burst ${burst}${quota === null ? ' (the default)' : ''}`;
}

export const clientUpdate: Command = {
  name: 'client update',
  summary:
    "Change a credential's request quota (units a second and at once; docs/quotas.md) or a partner credential's access policy (purpose of use, payers, restricted records); its tokens follow within 5 seconds.",
  usage:
    'client update CLIENT_ID [--quota-rate N] [--quota-burst N] | [--default-quota] [--purpose CODE] [--payer VALUE]... | [--all-payers] [--sensitive | --no-sensitive] [--json]',
  options: { ...POLICY_OPTIONS, ...QUOTA_OPTIONS, 'all-payers': { type: 'boolean' }, 'no-sensitive': { type: 'boolean' } },
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    const client = await findClient(db, args.positionals[0]!);
    if (!client) throw new UsageError(`no client ${args.positionals[0]}`);
    const quota = quotaOption(args, client.quota);
    const policyGiven = POLICY_OPTION_NAMES.some((name) => args.values[name] !== undefined);
    try {
      // Only what was asked: a quota alone leaves the policy (an ingest credential has none).
      let updated = client;
      if (policyGiven || quota === undefined) updated = await updateClientPolicy(db, client.client_id, policyOption(args, client.policy));
      if (quota !== undefined) updated = await updateClientQuota(db, client.client_id, quota);
      return { ...publicView(updated), effective_quota: { rate: updated.quota?.rate ?? cli.config.clientQuota.rate, burst: updated.quota?.burst ?? cli.config.clientQuota.burst } };
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  },
  format: (c: { client_id: string; kind: string; policy: AccessPolicy; quota: QuotaOverride | null; effective_quota: QuotaLimits }) =>
    `client ${c.client_id}: ${c.kind === 'partner' ? `${describePolicy(c.policy)}; ` : ''}quota ${describeQuota(c.quota, c.effective_quota)}`,
};

/**
 * --jwks FILE (a JWKS of public keys) or --jwks-url URL (checked like a webhook callback:
 * https and public addresses only, and fetched once now so a wrong URL fails here).
 */
async function publicKeysOption(args: ParsedArgs, cli: CliContext): Promise<ClientPublicKeys | null> {
  const file = args.values.jwks;
  const url = args.values['jwks-url'];
  if (file !== undefined && url !== undefined) throw new UsageError('give --jwks or --jwks-url, not both');
  if (args.values['with-secret'] && file === undefined && url === undefined) throw new UsageError('--with-secret goes with --jwks or --jwks-url');
  try {
    if (typeof file === 'string') {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read --jwks ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      return { jwks: JSON.stringify(await publicJwksFromFile(text)), jwks_url: null };
    }
    if (typeof url === 'string') {
      await fetchJwks(url, { allowPrivateTargets: cli.config.webhooks.allowPrivateTargets, resolve: systemResolver });
      return { jwks: null, jwks_url: url };
    }
  } catch (error) {
    if (error instanceof JwksProblem) throw new UsageError(`${file !== undefined ? '--jwks' : '--jwks-url'}: ${error.message}`);
    throw error;
  }
  return null;
}

export const clientList: Command = {
  name: 'client list',
  summary: "List an organization's credentials (never their secrets).",
  usage: 'client list --org ORG [--json]',
  options: { org: { type: 'string' } },
  async run(args, cli) {
    const clients = await listClients(await cli.db(), uuidOption(args, 'org'));
    return { clients: clients.map(publicView) };
  },
  format: (r: { clients: Array<ReturnType<typeof publicView>> }) =>
    r.clients
      .map(
        (c) =>
          `${c.client_id}  ${c.status.padEnd(8)} ${c.kind.padEnd(8)} ${c.name}  [${c.scopes.join(' ')}]  facilities: ${c.facility_ids.join(',')}  auth: ${c.auth_methods.join(',')}` +
          (c.kind === 'partner' ? `  policy: ${describePolicy(c.policy)}` : '') +
          `  quota: ${c.quota ? `${c.quota.rate ?? 'default'} units/s, burst ${c.quota.burst ?? 'default'}` : 'default'}`,
      )
      .join('\n') || '(no clients)',
};

export const clientRevoke: Command = {
  name: 'client revoke',
  summary: 'Revoke a credential; its tokens stop working within seconds, and the webhook and FHIR subscriptions it owns are disabled (another credential of the organization takes one over by enabling it).',
  usage: 'client revoke CLIENT_ID [--json]',
  options: {},
  positionals: 1,
  async run(args, cli) {
    const revoked = await revokeClient(await cli.db(), args.positionals[0]!);
    if (!revoked) throw new UsageError(`no client ${args.positionals[0]}`);
    return { ...publicView(revoked.client), subscriptions_disabled: revoked.subscriptionsDisabled };
  },
  format: (c: { client_id: string; status: string; subscriptions_disabled: number }) =>
    `client ${c.client_id} is ${c.status}` +
    (c.subscriptions_disabled > 0 ? `\n${c.subscriptions_disabled} subscription(s) it owned are disabled (credential_revoked): another credential of the organization takes one over by enabling it` : ''),
};

export const clientGrant: Command = {
  name: 'client grant',
  summary: "Replace a credential's facility grant.",
  usage: 'client grant CLIENT_ID --facilities F1,F2 [--json]',
  options: { facilities: { type: 'string' } },
  positionals: 1,
  async run(args, cli) {
    const db = await cli.db();
    if (!(await findClient(db, args.positionals[0]!))) throw new UsageError(`no client ${args.positionals[0]}`);
    try {
      return publicView(await grantFacilities(db, args.positionals[0]!, uuidList(args, 'facilities')));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  },
  format: (c: { client_id: string; facility_ids: string[] }) => `client ${c.client_id} is granted ${c.facility_ids.join(', ')}`,
};
