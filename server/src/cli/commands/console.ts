// `console link`: a one-time sign-in link to the operators' console for one organization.
// The link is printed once and stored only as a hash; it expires (15 minutes by default) and
// signs in one browser once.
import { userInfo } from 'node:os';
import { createConsoleLink, DEFAULT_LINK_TTL_MS, parseLinkTtl, SIGN_IN_PATH } from '../../console/console-links.js';
import { deleteStaleConsoleRows } from '../../console/console-sessions.js';
import { findOrganization } from '../../organizations/organizations.js';
import type { Config } from '../../config/config.js';
import { uuidOption, UsageError, type Command } from '../command.js';

/** PUBLIC_BASE_URL when set (behind a proxy), else the address the service listens on. */
export function consoleBaseUrl(config: Config): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

function operatorName(given: unknown): string {
  if (typeof given === 'string' && given.trim() !== '') return given.trim().slice(0, 128);
  try {
    return userInfo().username;
  } catch {
    return 'operator';
  }
}

export const consoleLink: Command = {
  name: 'console link',
  summary: "Print a one-time sign-in link to the operators' console of an organization (single use, expiring).",
  usage: 'console link --org ORG [--ttl 15m] [--operator NAME] [--json]',
  options: { org: { type: 'string' }, ttl: { type: 'string' }, operator: { type: 'string' } },
  async run(args, cli) {
    const orgId = uuidOption(args, 'org');
    const ttlText = args.values.ttl as string | undefined;
    const ttlMs = ttlText === undefined ? DEFAULT_LINK_TTL_MS : parseLinkTtl(ttlText);
    if (ttlMs === undefined) throw new UsageError(`--ttl must be a duration such as 15m, 90s or 2h (at most 24h), got "${ttlText}"`);
    const db = await cli.db();
    if (!(await findOrganization(db, orgId))) throw new Error(`no organization ${orgId}`);
    await deleteStaleConsoleRows(db);
    const link = await createConsoleLink(db, { orgId, operator: operatorName(args.values.operator), ttlMs });
    return { url: `${consoleBaseUrl(cli.config)}${SIGN_IN_PATH}?token=${link.token}`, org_id: orgId, expires_at: link.expiresAt };
  },
  format: (r: { url: string; expires_at: string }) => `${r.url}\n(single use; expires ${r.expires_at})`,
};
