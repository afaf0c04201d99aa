// Decides whether a callback URL may be called, and at which address. Run at registration
// and again at every attempt: the host is resolved, every address it resolves to must be
// public (address-classifier.ts), and the sender then connects to the vetted address
// itself, so a DNS answer that changes between the check and the connection (rebinding)
// cannot redirect the request. WEBHOOK_ALLOW_PRIVATE_TARGETS turns the address check off
// and allows http, for development and tests only.
import { lookup } from 'node:dns/promises';
import { classifyAddress, type AddressCategory } from './address-classifier.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses. Injectable so tests can simulate DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export type TargetRefusal =
  /** Not an absolute http(s) URL, or one with credentials in it. */
  | { allowed: false; errorClass: 'invalid_url'; reason: string }
  /** Not https, or a non-public address. */
  | { allowed: false; errorClass: 'ssrf_blocked'; reason: string; category?: AddressCategory }
  /** The host does not resolve. */
  | { allowed: false; errorClass: 'dns'; reason: string };

export type TargetVerdict = { allowed: true; url: URL; address: ResolvedAddress } | TargetRefusal;

export interface TargetPolicy {
  allowPrivateTargets: boolean;
  resolve: HostResolver;
}

/** Checks the URL itself, without resolving anything. */
export function checkCallbackUrl(rawUrl: string, allowPrivateTargets: boolean): { ok: true; url: URL } | TargetRefusal {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { allowed: false, errorClass: 'invalid_url', reason: 'is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(allowPrivateTargets && url.protocol === 'http:')) {
    return { allowed: false, errorClass: 'ssrf_blocked', reason: 'must be an https URL' };
  }
  if (url.username !== '' || url.password !== '') {
    return { allowed: false, errorClass: 'invalid_url', reason: 'must not contain a user name or password' };
  }
  if (url.hostname === '') return { allowed: false, errorClass: 'invalid_url', reason: 'has no host' };
  return { ok: true, url };
}

/** The URL's host without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Resolves the callback host and vets every address. Refused when ANY address is not
 * public: a name with one private answer could be steered to it.
 */
export async function vetCallbackTarget(rawUrl: string, policy: TargetPolicy): Promise<TargetVerdict> {
  const checked = checkCallbackUrl(rawUrl, policy.allowPrivateTargets);
  if (!('ok' in checked)) return checked;
  const { url } = checked;
  const host = bareHostname(url);
  const literal = classifyAddress(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: literal.address, family: literal.family }];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      return { allowed: false, errorClass: 'dns', reason: `host does not resolve (${code})` };
    }
    if (addresses.length === 0) return { allowed: false, errorClass: 'dns', reason: 'host does not resolve (no addresses)' };
  }
  if (!policy.allowPrivateTargets) {
    for (const answer of addresses) {
      const verdict = classifyAddress(answer.address);
      if (!verdict || !verdict.allowed) {
        const category = verdict?.category ?? 'reserved';
        return {
          allowed: false,
          errorClass: 'ssrf_blocked',
          reason: literal ? `is a ${category.replace('_', '-')} address` : `host resolves to a ${category.replace('_', '-')} address`,
          category,
        };
      }
    }
  }
  return { allowed: true, url, address: addresses[0]! };
}
