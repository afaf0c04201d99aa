// SSRF table: with WEBHOOK_ALLOW_PRIVATE_TARGETS off, every callback URL below is refused by
// the real registration endpoint (400 callback_url_not_allowed, each answer checked against
// the contract by call()). DNS is simulated (an injected resolver that knows only the names
// of this file, so no query leaves the process). Then the same guard at attempt time: a
// subscription already stored with a loopback target (registered while the override was on,
// say) and a DNS-rebinding name (public at registration, loopback at attempt) are refused at
// every attempt, recorded as ssrf_blocked, and nothing reaches the trap listening there. A
// redirect to 127.0.0.1 is never followed. With the override on, the loopback receiver is
// accepted and delivered to, so the table is not refusing everything.
import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { call } from '../../support/http.js';
import { findClient } from '../../../server/src/auth/clients.js';
import { createSubscription } from '../../../server/src/webhooks/subscriptions.js';
import { attemptsOf, listDeliveries } from '../../../server/src/webhooks/delivery-store.js';
import type { HostResolver, ResolvedAddress } from '../../../server/src/webhooks/ssrf-guard.js';
import { startReceiver, waitFor, type Receiver } from '../../../server/test/webhooks/support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from '../../../server/test/webhooks/support/webhook-service.js';
import { webhookFigures } from './support/figures.js';

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

/** A simulated DNS knowing only these names; anything else does not resolve. */
function simulatedDns(records: Record<string, string[]>) {
  const lookups: string[] = [];
  const resolve: HostResolver = async (host) => {
    lookups.push(host);
    const answers = records[host.toLowerCase()];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) satisfies ResolvedAddress);
  };
  return { records, lookups, resolve };
}

// [what, callback URL, the refusal's issue must match]
const REFUSED: Array<[string, string, RegExp]> = [
  ['IPv4 loopback', 'https://127.0.0.1/', /loopback/],
  ['IPv4 loopback, rest of 127/8', 'https://127.255.255.254/hooks', /loopback/],
  ['IPv6 loopback', 'https://[::1]/', /loopback/],
  ['IPv4 unspecified 0.0.0.0', 'https://0.0.0.0/', /unspecified/],
  ['IPv6 unspecified ::', 'https://[::]/', /unspecified/],
  ['private 10/8', 'https://10.0.0.1/', /private/],
  ['private 172.16/12 (low end)', 'https://172.16.0.1/', /private/],
  ['private 172.16/12 (high end)', 'https://172.31.255.254/', /private/],
  ['private 192.168/16', 'https://192.168.1.1/', /private/],
  ['link-local 169.254/16', 'https://169.254.10.20/', /link-local/],
  ['cloud metadata 169.254.169.254', 'https://169.254.169.254/latest/meta-data/', /metadata/],
  ['AWS IPv6 metadata fd00:ec2::254', 'https://[fd00:ec2::254]/latest/meta-data/', /metadata/],
  ['Alibaba metadata 100.100.100.200', 'https://100.100.100.200/latest/meta-data/', /metadata/],
  ['CGNAT 100.64/10 (low end)', 'https://100.64.0.1/', /cgnat/],
  ['CGNAT 100.64/10 (high end)', 'https://100.127.255.254/', /cgnat/],
  ['unique-local fc00::/7 (fc)', 'https://[fc00::1]/', /unique-local/],
  ['unique-local fc00::/7 (fd)', 'https://[fd12:3456::1]/', /unique-local/],
  ['IPv6 link-local fe80::/10', 'https://[fe80::1]/', /link-local/],
  ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/', /loopback/],
  ['IPv4-mapped IPv6 metadata, hex form', 'https://[::ffff:a9fe:a9fe]/', /metadata/],
  ['IPv4-mapped IPv6 private', 'https://[::ffff:10.0.0.1]/', /private/],
  ['NAT64 64:ff9b::/96 embedding 127.0.0.1', 'https://[64:ff9b::7f00:1]/', /loopback/],
  ['6to4 2002::/16 embedding 127.0.0.1', 'https://[2002:7f00:1::1]/', /loopback/],
  ['IPv4-compatible IPv6 ::127.0.0.1', 'https://[::127.0.0.1]/', /loopback/],
  ['decimal 2130706433', 'https://2130706433/', /loopback/],
  ['octal 0177.0.0.1', 'https://0177.0.0.1/', /loopback/],
  ['hex 0x7f.0.0.1', 'https://0x7f.0.0.1/', /loopback/],
  ['short 127.1', 'https://127.1/', /loopback/],
  ['one hex number 0x7f000001', 'https://0x7f000001/', /loopback/],
  ['one octal number 017700000001', 'https://017700000001/', /loopback/],
  ['decimal private 3232235777 (192.168.1.1)', 'https://3232235777/', /private/],
  ['hex metadata 0xa9.0xfe.0xa9.0xfe', 'https://0xa9.0xfe.0xa9.0xfe/', /metadata/],
  ['trailing dot 127.0.0.1.', 'https://127.0.0.1./', /loopback/],
  ['multicast 224/4', 'https://224.0.0.1/', /multicast/],
  ['IPv6 multicast ff02::1', 'https://[ff02::1]/', /multicast/],
  ['broadcast 255.255.255.255', 'https://255.255.255.255/', /broadcast/],
  ['documentation 192.0.2/24', 'https://192.0.2.10/', /reserved/],
  ['plain http to a public name', 'http://partner.example/hooks', /https/],
  ['plain http to a public address', `http://${PUBLIC_V4}/hooks`, /https/],
  ['credentials in the URL before a loopback host', 'https://partner.example@127.0.0.1/', /user name or password/],
  ['name resolving to a private address', 'https://internal.partner.example/hooks', /resolves to a private/],
  ['name resolving to public AND private addresses', 'https://mixed.partner.example/hooks', /resolves to a private/],
  ['name resolving to public AND unique-local IPv6', 'https://mixed6.partner.example/hooks', /resolves to a unique-local/],
  ['localhost', 'https://localhost/hooks', /resolves to a loopback/],
  ['name resolving to the metadata address', 'https://metadata.google.internal/computeMetadata/v1/', /resolves to a metadata/],
  ['wildcard-DNS style name resolving to loopback', 'https://127.0.0.1.nip.io/hooks', /resolves to a loopback/],
  ['name resolving to an IPv4-mapped private address', 'https://v6mapped.partner.example/hooks', /resolves to a private/],
  ['name that does not resolve', 'https://nowhere.partner.example/hooks', /does not resolve/],
];

describe('SSRF table: callback URLs refused without WEBHOOK_ALLOW_PRIVATE_TARGETS', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let trap: Server;
  let trap6: Server | undefined;
  let trapPort: number;
  let connections = 0;
  const sockets = new Set<Socket>();
  const dns = simulatedDns({
    'partner.example': [PUBLIC_V4],
    'internal.partner.example': ['10.0.0.5'],
    'mixed.partner.example': [PUBLIC_V4, '10.0.0.5'],
    'mixed6.partner.example': [PUBLIC_V6, 'fd00::5'],
    localhost: ['127.0.0.1', '::1'],
    'metadata.google.internal': ['169.254.169.254'],
    '127.0.0.1.nip.io': ['127.0.0.1'],
    'v6mapped.partner.example': ['::ffff:192.168.0.1'],
    'rebind.partner.example': [PUBLIC_V4],
    'loopback.partner.example': ['127.0.0.1'],
  });

  before(async () => {
    service = await startWebhookService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '0', WEBHOOK_RETRY_SCHEDULE: '0,0' }, resolveHost: dns.resolve });
    tenant = await service.tenant();
    // Whatever reaches loopback on the trap's port lands here.
    const onConnection = (socket: Socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.destroy();
    };
    trap = createServer(onConnection);
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapPort = (trap.address() as AddressInfo).port;
    trap6 = createServer(onConnection);
    await new Promise<void>((resolve) => {
      trap6!.once('error', () => {
        trap6 = undefined; // no IPv6 loopback here: [::1] is refused by the kernel anyway
        resolve();
      });
      trap6!.listen(trapPort, '::1', resolve);
    });
  });
  after(async () => {
    await service?.close();
    await new Promise((resolve) => trap?.close(resolve));
    if (trap6) await new Promise((resolve) => trap6!.close(resolve));
  });

  it('runs with the override off (no warning logged)', () => {
    expect(service.config.webhooks.allowPrivateTargets).to.equal(false);
    expect(service.logs()).to.not.include('WEBHOOK_ALLOW_PRIVATE_TARGETS is ON');
  });

  it(`refuses all ${REFUSED.length} callback URLs at registration: 400 callback_url_not_allowed`, async () => {
    const wrong: string[] = [];
    for (const [what, url, issue] of REFUSED) {
      const answer = await service.register(tenant, { callback_url: url, event_types: ['resident.admitted'] });
      const detail = answer.body?.error?.details?.[0];
      const ok = answer.status === 400 && answer.body.error.code === 'callback_url_not_allowed' && detail?.field === 'body.callback_url' && issue.test(detail?.issue ?? '');
      if (ok) webhookFigures.ssrf.refused++;
      else wrong.push(`${what} (${url}): ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    expect(wrong).to.deep.equal([]);
    const stored = await service.running.app.db('webhook_subscriptions').where({ org_id: tenant.orgId }).count({ n: '*' }).first();
    expect(Number(stored?.n)).to.equal(0);
    expect(connections).to.equal(0);
  });

  it('accepts an https URL whose name resolves to public addresses only (the table does not refuse everything)', async () => {
    const own = await service.tenant();
    const answer = await service.register(own, { callback_url: 'https://partner.example/hooks', event_types: ['resident.admitted'] });
    expect(answer.status).to.equal(201);
    const revoked = await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${own.orgId}/webhooks/${answer.body.data.id}`, { token: own.token });
    expect(revoked.body.data.status).to.equal('revoked');
  });

  it('refuses at every attempt a stored subscription whose target is loopback in any form; nothing is sent', async () => {
    // As if registered while the override was on: stored directly, bypassing registration.
    const own = await service.tenant();
    const db = service.running.app.db;
    const clientPk = (await findClient(db, own.client.client_id))!.id;
    const targets = [
      `https://127.0.0.1:${trapPort}/hooks`,
      `https://[::1]:${trapPort}/hooks`,
      `https://[::ffff:127.0.0.1]:${trapPort}/hooks`,
      `https://[::ffff:7f00:1]:${trapPort}/hooks`,
      `https://2130706433:${trapPort}/hooks`,
      `https://0177.0.0.1:${trapPort}/hooks`,
      `https://0x7f.0.0.1:${trapPort}/hooks`,
      `https://127.1:${trapPort}/hooks`,
      `https://0.0.0.0:${trapPort}/hooks`,
      `https://localhost:${trapPort}/hooks`,
      `https://loopback.partner.example:${trapPort}/hooks`,
      `https://127.0.0.1.nip.io:${trapPort}/hooks`,
      `http://loopback.partner.example:${trapPort}/hooks`,
    ];
    for (const url of targets) await createSubscription(db, service.running.webhooks.cipher, { orgId: own.orgId, clientPk, callbackUrl: new URL(url).toString(), eventTypes: ['resident.admitted'] });
    const emitted = await service.emit(own);
    expect(emitted.deliveries).to.equal(targets.length);
    await waitFor('every delivery to fail', async () => (await listDeliveries(db, { orgId: own.orgId, status: 'failed' })).length === targets.length, 15_000);
    for (const delivery of await listDeliveries(db, { orgId: own.orgId })) {
      const attempts = await attemptsOf(db, delivery.id);
      // Schedule 0,0: three attempts, each refused before any connection.
      expect(attempts.map((a) => [a.attempt, a.error_class, a.response_status])).to.deep.equal([
        [1, 'ssrf_blocked', null],
        [2, 'ssrf_blocked', null],
        [3, 'ssrf_blocked', null],
      ]);
      webhookFigures.ssrf.attemptTimeBlocked += attempts.length;
    }
    expect(connections, 'connections that reached the trap').to.equal(0);
  });

  it('refuses DNS rebinding at attempt time: public at registration, loopback at the attempt; recorded ssrf_blocked, nothing sent', async () => {
    const own = await service.tenant();
    const url = `https://rebind.partner.example:${trapPort}/hooks`;
    const subscription = await service.subscribe(own, url);
    dns.records['rebind.partner.example'] = ['127.0.0.1'];
    const lookupsBefore = dns.lookups.filter((h) => h === 'rebind.partner.example').length;
    await service.emit(own);
    const db = service.running.app.db;
    const [delivery] = await listDeliveries(db, { orgId: own.orgId });
    expect(delivery!.subscription_id).to.equal(subscription.id);
    await waitFor('the delivery to fail', async () => (await listDeliveries(db, { orgId: own.orgId, status: 'failed' })).length === 1, 15_000);
    const attempts = await attemptsOf(db, delivery!.id);
    expect(attempts.map((a) => [a.error_class, a.response_status])).to.deep.equal([
      ['ssrf_blocked', null],
      ['ssrf_blocked', null],
      ['ssrf_blocked', null],
    ]);
    // Resolved afresh at each attempt; never connected.
    expect(dns.lookups.filter((h) => h === 'rebind.partner.example').length - lookupsBefore).to.equal(attempts.length);
    expect(connections).to.equal(0);
    webhookFigures.ssrf.rebindingBlocked += attempts.length;
  });
});

describe('SSRF table: with WEBHOOK_ALLOW_PRIVATE_TARGETS on', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  let target: Receiver;

  before(async () => {
    // The override on (the starter's default) so the loopback receiver is reachable at all.
    service = await startWebhookService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_RETRY_SCHEDULE: '0,0' } });
    receiver = await startReceiver();
    target = await startReceiver();
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
    await target?.close();
  });

  it('accepts the loopback receiver and delivers to it', async () => {
    const tenant = await service.tenant();
    const answer = await service.register(tenant, { callback_url: receiver.url, event_types: ['resident.admitted'] });
    expect(answer.status).to.equal(201);
    webhookFigures.ssrf.overrideAccepted++;
    const start = receiver.received.length;
    receiver.respond(() => ({ status: 200 }));
    await service.emit(tenant);
    await waitFor('the delivery', () => receiver.received.length > start);
    await call(service.baseUrl, 'DELETE', `/api/v1/ofctx/${tenant.orgId}/webhooks/${answer.body.data.id}`, { token: tenant.token });
  });

  it('never follows a receiver redirect to 127.0.0.1: recorded as a redirect failure, the other server gets nothing', async () => {
    const tenant = await service.tenant();
    await service.subscribe(tenant, receiver.url);
    receiver.respond((_r, i) => ({ status: [302, 307, 301][i % 3]!, headers: { Location: `http://127.0.0.1:${target.port}/internal/admin` } }));
    await service.emit(tenant);
    const db = service.running.app.db;
    const [delivery] = await listDeliveries(db, { orgId: tenant.orgId });
    await waitFor('the delivery to fail', async () => (await listDeliveries(db, { orgId: tenant.orgId, status: 'failed' })).length === 1, 15_000);
    const attempts = await attemptsOf(db, delivery!.id);
    expect(attempts).to.have.length(3);
    for (const a of attempts) {
      expect(a.error_class).to.equal('redirect');
      expect([301, 302, 307]).to.include(a.response_status);
    }
    expect(target.received, 'requests that reached the redirect target').to.have.length(0);
    webhookFigures.ssrf.redirectRefused += attempts.length;
  });
});
