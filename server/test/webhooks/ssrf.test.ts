// SSRF through the API: without WEBHOOK_ALLOW_PRIVATE_TARGETS every non-public callback is
// refused at registration, and a host that starts resolving privately after registration
// (DNS rebinding) is refused again at attempt time, before any connection. Deliveries
// connect to the address that was vetted, keeping the callback's Host header.
import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { attemptsOf, listDeliveries } from '../../src/webhooks/delivery-store.js';
import { systemResolver, type HostResolver, type ResolvedAddress } from '../../src/webhooks/ssrf-guard.js';
import { startReceiver, waitFor, type Receiver } from './support/receiver.js';
import { startWebhookService, type Tenant, type WebhookTestService } from './support/webhook-service.js';

/** A simulated DNS: names the test controls, the system resolver for the rest (localhost). */
function simulatedDns(records: Record<string, string>): { resolve: HostResolver; records: Record<string, string>; lookups: string[] } {
  const lookups: string[] = [];
  return {
    records,
    lookups,
    resolve: async (host) => {
      lookups.push(host);
      const address = records[host];
      if (address === undefined) {
        if (host.endsWith('.example') || host.endsWith('.test')) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        return systemResolver(host);
      }
      return [{ address, family: address.includes(':') ? 6 : 4 } satisfies ResolvedAddress];
    },
  };
}

describe('SSRF protection without WEBHOOK_ALLOW_PRIVATE_TARGETS', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let tenant: Tenant;
  let trap: Server;
  let trapPort: number;
  let connections = 0;
  const dns = simulatedDns({
    'partner.example': '93.184.216.34',
    'internal.partner.example': '10.1.2.3',
    'metadata.partner.example': '169.254.169.254',
    'v6.partner.example': '::ffff:127.0.0.1',
    'rebind.partner.example': '93.184.216.34',
  });

  before(async () => {
    service = await startWebhookService({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' }, resolveHost: dns.resolve });
    tenant = await service.tenant();
    // Anything that reaches loopback would land here.
    trap = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapPort = (trap.address() as AddressInfo).port;
  });
  after(async () => {
    await service?.close();
    await new Promise((resolve) => trap?.close(resolve));
  });

  it('logs no private-targets warning when the override is off', () => {
    expect(service.logs()).to.not.include('WEBHOOK_ALLOW_PRIVATE_TARGETS is ON');
  });

  const REFUSED: Array<[url: string, issue: RegExp]> = [
    ['http://partner.example/hooks', /https/],
    ['https://127.0.0.1/hooks', /loopback/],
    ['https://localhost/hooks', /loopback/],
    ['https://2130706433/hooks', /loopback/],
    ['https://0177.0.0.1/hooks', /loopback/],
    ['https://0x7f.1/hooks', /loopback/],
    ['https://[::1]/hooks', /loopback/],
    ['https://[::ffff:127.0.0.1]/hooks', /loopback/],
    ['https://10.0.0.8/hooks', /private/],
    ['https://192.168.0.1/hooks', /private/],
    ['https://172.20.0.1/hooks', /private/],
    ['https://100.64.0.1/hooks', /cgnat/],
    ['https://169.254.169.254/latest/meta-data/', /metadata/],
    ['https://[fd00:ec2::254]/latest/meta-data/', /metadata/],
    ['https://[fe80::1]/hooks', /link-local/],
    ['https://[fd12::1]/hooks', /unique-local/],
    ['https://0.0.0.0/hooks', /unspecified/],
    ['https://internal.partner.example/hooks', /resolves to a private/],
    ['https://metadata.partner.example/hooks', /resolves to a metadata/],
    ['https://v6.partner.example/hooks', /resolves to a loopback/],
    ['https://nowhere.partner.example/hooks', /does not resolve/],
  ];
  for (const [url, issue] of REFUSED) {
    it(`refuses ${url} at registration: 400 callback_url_not_allowed`, async () => {
      const answer = await service.register(tenant, { callback_url: url, event_types: ['resident.admitted'] });
      expect(answer.status).to.equal(400);
      expect(answer.body.error.code).to.equal('callback_url_not_allowed');
      expect(answer.body.error.details).to.have.length(1);
      expect(answer.body.error.details[0].field).to.equal('body.callback_url');
      expect(answer.body.error.details[0].issue).to.match(issue);
    });
  }

  it('accepts an https URL whose host resolves to public addresses only', async () => {
    const answer = await service.register(tenant, { callback_url: 'https://partner.example/hooks', event_types: ['resident.admitted'] });
    expect(answer.status).to.equal(201);
    // Revoked again so later events do not try to reach the (simulated) public host.
    await service.running.app.db('webhook_subscriptions').where({ id: answer.body.data.id }).update({ status: 'revoked' });
  });

  it('refuses at attempt time a host that started resolving to loopback after registration (DNS rebinding), connecting nowhere', async () => {
    const own = await service.tenant();
    const url = `https://rebind.partner.example:${trapPort}/hooks`;
    const subscription = await service.subscribe(own, url);
    dns.records['rebind.partner.example'] = '127.0.0.1';
    const lookupsBefore = dns.lookups.length;
    await service.emit(own);
    const db = service.running.app.db;
    const [delivery] = await listDeliveries(db, { orgId: own.orgId });
    expect(delivery!.subscription_id).to.equal(subscription.id);
    // Schedule 0,0,0: four attempts, then failed.
    await waitFor('the delivery to fail', async () => (await listDeliveries(db, { orgId: own.orgId, status: 'failed' })).length === 1);
    const attempts = await attemptsOf(db, delivery!.id);
    expect(attempts.map((a) => [a.attempt, a.error_class, a.response_status])).to.deep.equal([
      [1, 'ssrf_blocked', null],
      [2, 'ssrf_blocked', null],
      [3, 'ssrf_blocked', null],
      [4, 'ssrf_blocked', null],
    ]);
    // Resolved afresh at every attempt; never connected.
    expect(dns.lookups.slice(lookupsBefore).filter((h) => h === 'rebind.partner.example')).to.have.length(4);
    expect(connections).to.equal(0);
  });
});

describe('delivery connects to the vetted address', function () {
  this.timeout(30_000);
  let service: WebhookTestService;
  let receiver: Receiver;
  const dns = simulatedDns({ 'hooks.partner.test': '127.0.0.1' });

  before(async () => {
    service = await startWebhookService({ resolveHost: dns.resolve });
    receiver = await startReceiver();
  });
  after(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('logs a loud warning when WEBHOOK_ALLOW_PRIVATE_TARGETS is on', () => {
    expect(service.logs()).to.match(/"level":40.*WEBHOOK_ALLOW_PRIVATE_TARGETS is ON/);
  });

  it("resolves the callback host once per attempt and keeps the URL's Host header", async () => {
    const tenant = await service.tenant();
    await service.subscribe(tenant, `http://hooks.partner.test:${receiver.port}/hooks/ofctx?source=ofctx`);
    await service.emit(tenant);
    const arrived = await waitFor('the delivery', () => receiver.received[0]);
    expect(arrived.headers.host).to.equal(`hooks.partner.test:${receiver.port}`);
    expect(arrived.path).to.equal('/hooks/ofctx?source=ofctx');
    expect(dns.lookups).to.include('hooks.partner.test');
  });

  it('records a name that stopped resolving as a dns failure', async () => {
    const tenant = await service.tenant();
    await service.subscribe(tenant, 'http://gone.partner.test/hooks');
    await service.emit(tenant);
    const db = service.running.app.db;
    const [delivery] = await listDeliveries(db, { orgId: tenant.orgId });
    const attempts = await waitFor('an attempt', async () => (await attemptsOf(db, delivery!.id))[0]);
    expect(attempts.error_class).to.equal('dns');
  });
});
