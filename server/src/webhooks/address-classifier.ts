// Classifies an IP address as public or as one of the ranges a webhook must never reach:
// loopback, private, link-local, CGNAT, unique-local, multicast, unspecified, broadcast,
// reserved (documentation, benchmarking, IETF special purpose, outside global unicast) and
// cloud metadata endpoints. IPv6 forms that embed an IPv4 address (IPv4-mapped,
// IPv4-compatible, NAT64, 6to4) are judged by the address they embed. Pure and
// table-driven: CIDR matching on integers, no string prefix tricks.
import { isIP } from 'node:net';

export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'unique_local'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'metadata';

export interface AddressClassification {
  /** The address in canonical text form. */
  address: string;
  family: 4 | 6;
  category: AddressCategory;
  /** True only for public addresses. */
  allowed: boolean;
}

type Range<N> = { base: N; bits: number; category: Exclude<AddressCategory, 'public'> };

// ---- IPv4 ----

/**
 * Parses an IPv4 literal the way WHATWG URLs and inet_aton do: one to four dot-separated
 * parts, each decimal, octal (leading 0) or hex (0x); the last part fills the remaining
 * bytes. So 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 are all 127.0.0.1. Null when the
 * text is not such a literal (then it is a host name).
 */
export function parseIpv4(text: string): number | null {
  const parts = text.endsWith('.') ? text.slice(0, -1).split('.') : text.split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
}

function ipv4Text(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

function v4(cidr: string, category: Range<number>['category']): Range<number> {
  const [base, bits] = cidr.split('/');
  return { base: parseIpv4(base!)!, bits: Number(bits), category };
}

// First match wins: exact addresses before the ranges that contain them.
const IPV4_RANGES: Range<number>[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack instance metadata
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud metadata
  v4('168.63.129.16/32', 'metadata'), // Azure platform (wireserver)
  v4('192.0.0.192/32', 'metadata'), // Oracle Cloud metadata
  v4('255.255.255.255/32', 'broadcast'),
  v4('0.0.0.0/8', 'unspecified'), // "this network"; 0.0.0.0 reaches the local host
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link_local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'reserved'), // TEST-NET-1
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'reserved'), // TEST-NET-2
  v4('203.0.113.0/24', 'reserved'), // TEST-NET-3
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // class E
];

function classifyIpv4(value: number): AddressCategory {
  for (const range of IPV4_RANGES) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(value / size) === Math.floor(range.base / size)) return range.category;
  }
  return 'public';
}

// ---- IPv6 ----

/** 128-bit value of an IPv6 literal (zone id and brackets removed), or null. */
export function parseIpv6(text: string): bigint | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(address) !== 6) return null;
  let head = address;
  let tail = '';
  const gap = address.indexOf('::');
  if (gap >= 0) {
    head = address.slice(0, gap);
    tail = address.slice(gap + 2);
  }
  const groups = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (group.includes('.')) {
        const embedded = parseIpv4(group)!;
        return [embedded >>> 16, embedded & 0xffff];
      }
      return [parseInt(group, 16)];
    });
  };
  const first = groups(head);
  const last = groups(tail);
  const all = gap >= 0 ? [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last] : first;
  if (all.length !== 8) return null;
  return all.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
}

function ipv6Text(value: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((value >> BigInt(i * 16)) & 0xffffn).toString(16));
  // Compress the longest run of zero groups (RFC 5952).
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}

function v6(cidr: string, category: Range<bigint>['category']): Range<bigint> {
  const [base, bits] = cidr.split('/');
  return { base: parseIpv6(base!)!, bits: Number(bits), category };
}

function inRange6(value: bigint, base: bigint, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === base >> shift;
}

// Forms that carry an IPv4 address in their low 32 bits (6to4 carries it in bits 16-47).
const EMBEDDED_IPV4: Array<{ base: bigint; bits: number; extract(value: bigint): number }> = [
  { base: parseIpv6('::ffff:0:0')!, bits: 96, extract: (v) => Number(v & 0xffffffffn) }, // IPv4-mapped
  { base: parseIpv6('64:ff9b::')!, bits: 96, extract: (v) => Number(v & 0xffffffffn) }, // NAT64 well-known prefix
  { base: parseIpv6('2002::')!, bits: 16, extract: (v) => Number((v >> 80n) & 0xffffffffn) }, // 6to4
];
const IPV4_COMPATIBLE = { base: 0n, bits: 96 }; // ::a.b.c.d, deprecated but still routed by some stacks

const IPV6_RANGES: Range<bigint>[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('fd00:ec2::254/128', 'metadata'), // AWS instance metadata over IPv6
  v6('64:ff9b:1::/48', 'reserved'), // local-use NAT64
  v6('100::/64', 'reserved'), // discard-only
  v6('2001:db8::/32', 'reserved'), // documentation
  v6('2001::/23', 'reserved'), // IETF protocol assignments, including Teredo
  v6('fc00::/7', 'unique_local'),
  v6('fe80::/10', 'link_local'),
  v6('fec0::/10', 'reserved'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];
const GLOBAL_UNICAST = v6('2000::/3', 'reserved');

function classifyIpv6(value: bigint): AddressCategory {
  for (const range of IPV6_RANGES.slice(0, 3)) if (inRange6(value, range.base, range.bits)) return range.category;
  for (const form of EMBEDDED_IPV4) {
    if (inRange6(value, form.base, form.bits)) return classifyIpv4(form.extract(value));
  }
  if (inRange6(value, IPV4_COMPATIBLE.base, IPV4_COMPATIBLE.bits)) return classifyIpv4(Number(value & 0xffffffffn));
  for (const range of IPV6_RANGES.slice(3)) if (inRange6(value, range.base, range.bits)) return range.category;
  return inRange6(value, GLOBAL_UNICAST.base, GLOBAL_UNICAST.bits) ? 'public' : 'reserved';
}

/**
 * Classifies an IP literal (IPv4 in any inet_aton form, IPv6 with or without brackets).
 * Null when the text is not an IP address at all (it is then a host name to resolve).
 */
export function classifyAddress(text: string): AddressClassification | null {
  const ipv4 = parseIpv4(text);
  if (ipv4 !== null) {
    const category = classifyIpv4(ipv4);
    return { address: ipv4Text(ipv4), family: 4, category, allowed: category === 'public' };
  }
  const ipv6 = parseIpv6(text);
  if (ipv6 !== null) {
    const category = classifyIpv6(ipv6);
    return { address: ipv6Text(ipv6), family: 6, category, allowed: category === 'public' };
  }
  return null;
}
