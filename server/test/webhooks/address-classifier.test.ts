// The SSRF classifier, table-driven: every range a webhook must never reach, the IPv6 forms
// that embed an IPv4 address, the odd IPv4 spellings, and callback URLs through the guard
// (with a simulated resolver for host names).
import { expect } from 'chai';
import { classifyAddress, type AddressCategory } from '../../src/webhooks/address-classifier.js';
import { vetCallbackTarget, type HostResolver, type ResolvedAddress } from '../../src/webhooks/ssrf-guard.js';

const ADDRESSES: Array<[address: string, category: AddressCategory]> = [
  // IPv4
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', 'public'],
  ['192.168.1.10', 'private'],
  ['169.254.1.1', 'link_local'],
  ['169.254.169.254', 'metadata'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['100.128.0.1', 'public'],
  ['0.0.0.0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.251', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['203.0.113.7', 'reserved'],
  ['8.8.8.8', 'public'],
  ['93.184.216.34', 'public'],
  // IPv4, spelled the ways inet_aton and WHATWG URLs accept
  ['2130706433', 'loopback'], // decimal
  ['0177.0.0.1', 'loopback'], // octal
  ['0x7f.1', 'loopback'], // hex, short
  ['127.1', 'loopback'], // short
  ['0x0a.0.0.1', 'private'],
  ['3232235777', 'private'], // 192.168.1.1
  // IPv6
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf:ffff::1', 'link_local'],
  ['fc00::1', 'unique_local'],
  ['fd12:3456:789a::1', 'unique_local'],
  ['fd00:ec2::254', 'metadata'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['fec0::1', 'reserved'],
  ['4000::1', 'reserved'], // outside global unicast
  ['2606:4700:4700::1111', 'public'],
  // IPv6 that embeds IPv4: judged by the embedded address
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:8.8.8.8', 'public'],
  ['::127.0.0.1', 'loopback'], // IPv4-compatible
  ['::7f00:1', 'loopback'],
  ['64:ff9b::10.0.0.1', 'private'], // NAT64 of a private address
  ['64:ff9b::a9fe:a9fe', 'metadata'], // NAT64 of 169.254.169.254
  ['64:ff9b::808:808', 'public'], // NAT64 of 8.8.8.8
  ['64:ff9b:1::1', 'reserved'], // local-use NAT64
  ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
  ['2002:c0a8:101::1', 'private'], // 6to4 of 192.168.1.1
];

describe('the SSRF address classifier', () => {
  for (const [address, category] of ADDRESSES) {
    it(`${address} is ${category}`, () => {
      const verdict = classifyAddress(address);
      expect(verdict, address).to.not.equal(null);
      expect(verdict!.category).to.equal(category);
      expect(verdict!.allowed).to.equal(category === 'public');
    });
  }

  it('normalizes what it classifies', () => {
    expect(classifyAddress('0177.0.0.1')!.address).to.equal('127.0.0.1');
    expect(classifyAddress('::ffff:127.0.0.1')!.address).to.equal('::ffff:7f00:1');
    expect(classifyAddress('2001:0db8:0000:0000:0000:0000:0000:0001')!.address).to.equal('2001:db8::1');
  });

  it('treats host names and malformed numbers as not-an-address (they are resolved, then classified)', () => {
    for (const text of ['partner.example', 'localhost', '1.2.3.4.5', '256.1.1.1', '0x1g.0.0.1', '12:34', '']) {
      expect(classifyAddress(text), text).to.equal(null);
    }
  });
});

describe('the SSRF guard on callback URLs', () => {
  const dns: Record<string, ResolvedAddress[]> = {
    'partner.example': [{ address: '93.184.216.34', family: 4 }],
    'internal.partner.example': [{ address: '10.20.30.40', family: 4 }],
    'mixed.partner.example': [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    'v6.partner.example': [{ address: '::ffff:169.254.169.254', family: 6 }],
  };
  const resolve: HostResolver = async (host) => {
    const answer = dns[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
  const strict = { allowPrivateTargets: false, resolve };

  const URLS: Array<[url: string, verdict: 'allowed' | 'ssrf_blocked' | 'dns' | 'invalid_url']> = [
    ['https://partner.example/hooks', 'allowed'],
    ['https://93.184.216.34/hooks', 'allowed'],
    ['http://partner.example/hooks', 'ssrf_blocked'], // not https
    ['https://internal.partner.example/hooks', 'ssrf_blocked'], // name resolving to a private address
    ['https://mixed.partner.example/hooks', 'ssrf_blocked'], // any private answer is enough
    ['https://v6.partner.example/hooks', 'ssrf_blocked'],
    ['https://127.0.0.1/hooks', 'ssrf_blocked'],
    ['https://2130706433/hooks', 'ssrf_blocked'], // decimal 127.0.0.1
    ['https://0177.0.0.1/hooks', 'ssrf_blocked'], // octal
    ['https://0x7f.1/hooks', 'ssrf_blocked'], // hex, short
    ['https://127.1/hooks', 'ssrf_blocked'],
    ['https://[::1]/hooks', 'ssrf_blocked'],
    ['https://[::ffff:127.0.0.1]/hooks', 'ssrf_blocked'],
    ['https://[::ffff:7f00:1]/hooks', 'ssrf_blocked'],
    ['https://[fd00:ec2::254]/latest/meta-data', 'ssrf_blocked'],
    ['https://169.254.169.254/latest/meta-data', 'ssrf_blocked'],
    ['https://100.64.1.1/hooks', 'ssrf_blocked'],
    ['https://0.0.0.0/hooks', 'ssrf_blocked'],
    ['https://nowhere.partner.example/hooks', 'dns'],
    ['https://user:secret@partner.example/hooks', 'invalid_url'],
    ['not a url', 'invalid_url'],
  ];
  for (const [url, expected] of URLS) {
    it(`${url}: ${expected}`, async () => {
      const verdict = await vetCallbackTarget(url, strict);
      expect(verdict.allowed ? 'allowed' : verdict.errorClass).to.equal(expected);
    });
  }

  it('resolves localhost through the system resolver and refuses it', async () => {
    const { systemResolver } = await import('../../src/webhooks/ssrf-guard.js');
    const verdict = await vetCallbackTarget('https://localhost:8443/hooks', { allowPrivateTargets: false, resolve: systemResolver });
    expect(verdict).to.include({ allowed: false, errorClass: 'ssrf_blocked', category: 'loopback' });
  });

  it('hands back the vetted address to connect to', async () => {
    const verdict = await vetCallbackTarget('https://partner.example:8443/hooks', strict);
    expect(verdict.allowed && verdict.address).to.deep.equal({ address: '93.184.216.34', family: 4 });
  });

  it('with WEBHOOK_ALLOW_PRIVATE_TARGETS allows http and private addresses (development only)', async () => {
    const verdict = await vetCallbackTarget('http://internal.partner.example/hooks', { allowPrivateTargets: true, resolve });
    expect(verdict.allowed).to.equal(true);
  });
});
