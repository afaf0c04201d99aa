// Keep-alive connections of the delivery worker: attempts reuse a connection only to the
// address their own vetting approved, the vetting still runs (resolves) at every attempt,
// another vetted address means another connection, and a kept-alive connection the
// receiver closed meanwhile costs no failed attempt.
import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import nock from 'nock';
import { sendAttempt, type AttemptRequest } from '../../src/webhooks/delivery-sender.js';
import { PinnedConnections } from '../../src/webhooks/pinned-connections.js';
import type { HostResolver } from '../../src/webhooks/ssrf-guard.js';

interface Seen {
  /** The local address the receiver was reached at, per request. */
  reachedAt: string;
  socket: Socket;
  host: string | undefined;
}

describe('keep-alive connections pinned to the vetted address', function () {
  this.timeout(10_000);
  let server: Server;
  let port: number;
  const seen: Seen[] = [];
  let dropSecondRequestOnSocket = false;
  const requestsOn = new Map<Socket, number>();
  // The SDK's tests load nock, which replaces node:http's client for the whole process on
  // import and opens a connection per request: real sockets here.
  let nockWasActive = false;

  before(async () => {
    nockWasActive = nock.isActive();
    if (nockWasActive) nock.restore();
    server = createServer((req, res) => {
      const n = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, n);
      // A receiver that closes an idle connection just as it is reused.
      if (dropSecondRequestOnSocket && n === 2) return req.socket.destroy();
      seen.push({ reachedAt: req.socket.localAddress!, socket: req.socket, host: req.headers.host });
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    // 0.0.0.0: reachable at 127.0.0.1 and 127.0.0.2 alike.
    server.listen(0, '0.0.0.0');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    if (nockWasActive) nock.activate();
  });
  beforeEach(() => {
    seen.length = 0;
    dropSecondRequestOnSocket = false;
  });

  function attempt(pools: PinnedConnections, resolve: HostResolver, subscriptionId = 'sub-1'): Promise<Awaited<ReturnType<typeof sendAttempt>>> {
    const request: AttemptRequest = {
      url: `http://hooks.partner.test:${port}/in`,
      body: Buffer.from('{}'),
      headers: { 'Content-Type': 'application/json' },
      timeoutMs: 2000,
      allowPrivateTargets: true,
      resolve,
      connections: { pools, subscriptionId },
    };
    return sendAttempt(request);
  }

  it('reuses one connection for consecutive attempts to the same vetted address, resolving the host at every attempt', async () => {
    const pools = new PinnedConnections();
    const lookups: string[] = [];
    const resolve: HostResolver = async (host) => (lookups.push(host), [{ address: '127.0.0.1', family: 4 }]);
    try {
      for (let i = 0; i < 3; i++) expect((await attempt(pools, resolve)).status).to.equal(204);
      expect(lookups).to.deep.equal(['hooks.partner.test', 'hooks.partner.test', 'hooks.partner.test']);
      expect(new Set(seen.map((s) => s.socket)).size).to.equal(1);
      expect(seen.every((s) => s.reachedAt === '127.0.0.1' && s.host === `hooks.partner.test:${port}`)).to.equal(true);
    } finally {
      pools.close();
    }
  });

  it('opens a new connection, to the new address, when the vetting answers another address', async () => {
    const pools = new PinnedConnections();
    let address = '127.0.0.1';
    const resolve: HostResolver = async () => [{ address, family: 4 }];
    try {
      expect((await attempt(pools, resolve)).status).to.equal(204);
      address = '127.0.0.2';
      expect((await attempt(pools, resolve)).status).to.equal(204);
      expect(seen.map((s) => s.reachedAt)).to.deep.equal(['127.0.0.1', '127.0.0.2']);
      expect(seen[0]!.socket).to.not.equal(seen[1]!.socket);
    } finally {
      pools.close();
    }
  });

  it('keeps the connections of different subscriptions apart', async () => {
    const pools = new PinnedConnections();
    const resolve: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    try {
      await attempt(pools, resolve, 'sub-a');
      await attempt(pools, resolve, 'sub-b');
      expect(seen[0]!.socket).to.not.equal(seen[1]!.socket);
      expect(pools.size).to.equal(2);
    } finally {
      pools.close();
    }
  });

  it('sends again on a fresh connection when a reused one was closed by the receiver, within the same attempt', async () => {
    const pools = new PinnedConnections();
    const resolve: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    try {
      dropSecondRequestOnSocket = true;
      expect((await attempt(pools, resolve)).status).to.equal(204);
      const second = await attempt(pools, resolve);
      expect(second.status).to.equal(204);
      expect(second.errorClass).to.equal(null);
      expect(seen).to.have.length(2);
      expect(seen[0]!.socket).to.not.equal(seen[1]!.socket);
    } finally {
      pools.close();
    }
  });
});
