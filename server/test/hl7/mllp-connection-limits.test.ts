// Connection exhaustion: idle connections from one address (or from many) cannot keep another
// sender out. Sources are distinct loopback addresses (127.0.0.1, 127.0.0.2, ...: all
// loopback on Linux), bound with localAddress.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { adtMessage } from '../../../test/support/adt-messages.js';
import { mllpClient, msa } from '../../../test/support/mllp.js';
import { setFacilityHl7Code } from '../../src/organizations/organizations.js';

interface IdleConnection {
  socket: net.Socket;
  closed: boolean;
}

/** Opens n connections from one source that never send a byte. */
async function idleConnections(port: number, n: number, localAddress: string): Promise<IdleConnection[]> {
  return Promise.all(
    Array.from({ length: n }, () => {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress });
      const idle: IdleConnection = { socket, closed: false };
      socket.on('error', () => {});
      socket.on('close', () => (idle.closed = true));
      return new Promise<IdleConnection>((resolve) => {
        socket.once('connect', () => resolve(idle));
        socket.once('close', () => resolve(idle));
      });
    }),
  );
}

/** Waits until `count` of them are closed by the listener (fails the test after 20 s). */
async function closedCount(idle: IdleConnection[], count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (idle.filter((c) => c.closed).length < count) {
    if (Date.now() > deadline) throw new Error(`only ${idle.filter((c) => c.closed).length} of ${count} connections were closed`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const refused = async (service: TestService, reason: string) => (await service.running.app.metrics.mllpConnectionsRefused.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

describe('MLLP listener: connection limits', function () {
  this.timeout(60_000);
  let seq = 0;
  const started: TestService[] = [];
  const start = async (env: Record<string, string>) => {
    const service = await startTestService({ env: { MLLP_PORT: '0', ...env } });
    started.push(service);
    const org = (await service.seed.org()).id;
    await setFacilityHl7Code(service.running.app.db, (await service.seed.facility(org, 'Maple')).id, 'MAPLE');
    return service;
  };
  const admit = () => adtMessage({ event: 'A01', controlId: `LIM-${++seq}`, mrn: `LIM-${seq}`, facility: 'MAPLE' });
  afterEach(async () => {
    while (started.length > 0) await started.pop()!.close();
  });

  it('100 idle connections from one address hold MLLP_MAX_CONNECTIONS_PER_SOURCE (16 by default) and no more: other senders are answered', async () => {
    const service = await start({ MLLP_FIRST_BYTE_TIMEOUT_MS: '60000' });
    const port = service.running.mllp!.port;
    const flood = await idleConnections(port, 100, '127.0.0.2');
    await closedCount(flood, 84);
    for (const source of ['127.0.0.1', '127.0.0.3']) {
      const sender = await mllpClient(port, { localAddress: source });
      expect(msa(await sender.send(admit())).code, source).to.equal('AA');
      sender.close();
    }
    expect(flood.filter((c) => !c.closed)).to.have.length(16);
    expect(await refused(service, 'source_limit')).to.equal(84);
    // One log line for the 84 refusals (the rest counted in the next one), naming the source, not a byte sent.
    const lines = service.logs().split('\n').filter((l) => l.includes('MLLP connection refused'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include('127.0.0.2').and.include('source_limit');
    for (const c of flood) c.socket.destroy();
  });

  it('closes a connection that sends nothing within MLLP_FIRST_BYTE_TIMEOUT_MS, so idle connections cannot fill MLLP_MAX_CONNECTIONS', async () => {
    const service = await start({ MLLP_FIRST_BYTE_TIMEOUT_MS: '1500', MLLP_MAX_CONNECTIONS: '8', MLLP_MAX_CONNECTIONS_PER_SOURCE: '8' });
    const port = service.running.mllp!.port;
    // A sender that sends at once keeps its connection past the first-byte timeout.
    const early = await mllpClient(port, { localAddress: '127.0.0.1' });
    expect(msa(await early.send(admit())).code).to.equal('AA');
    const flood = await idleConnections(port, 7, '127.0.0.2');
    const full = await idleConnections(port, 1, '127.0.0.3');
    await closedCount(full, 1);
    expect(await refused(service, 'capacity')).to.equal(1);
    await closedCount(flood, 7);
    expect(await refused(service, 'first_byte_timeout')).to.equal(7);
    expect(msa(await early.send(admit())).code).to.equal('AA');
    const later = await mllpClient(port, { localAddress: '127.0.0.3' });
    expect(msa(await later.send(admit())).code).to.equal('AA');
    early.close();
    later.close();
  });

  it('keeps MLLP_RESERVED_CONNECTIONS for MLLP_RESERVED_SOURCES: a flood from many other addresses leaves the known engine its share', async () => {
    const service = await start({
      MLLP_FIRST_BYTE_TIMEOUT_MS: '60000',
      MLLP_MAX_CONNECTIONS: '6',
      MLLP_MAX_CONNECTIONS_PER_SOURCE: '2',
      MLLP_RESERVED_SOURCES: '127.0.0.1',
      MLLP_RESERVED_CONNECTIONS: '2',
    });
    const port = service.running.mllp!.port;
    const flood = (await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((a) => idleConnections(port, 2, a)))).flat();
    await closedCount(flood, 4);
    expect(await refused(service, 'capacity')).to.equal(4);
    const engine = await Promise.all([1, 2].map(() => mllpClient(port, { localAddress: '127.0.0.1' })));
    for (const sender of engine) expect(msa(await sender.send(admit())).code).to.equal('AA');
    // The reserved source is held to its per-source limit too.
    const third = await mllpClient(port, { localAddress: '127.0.0.1' });
    await third.closed();
    expect(await refused(service, 'source_limit')).to.equal(1);
    expect(flood.filter((c) => !c.closed)).to.have.length(4);
    expect((await service.running.app.metrics.mllpConnectionsOpen.get()).values[0]!.value).to.equal(6);
    for (const c of [...engine]) c.close();
    for (const c of flood) c.socket.destroy();
  });

  it('with TLS, the first-byte timeout covers the handshake and the first message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofctx-mllp-limits-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      const service = await start({ MLLP_FIRST_BYTE_TIMEOUT_MS: '300', MLLP_TLS_CERT: join(dir, 'cert.pem'), MLLP_TLS_KEY: join(dir, 'key.pem') });
      const port = service.running.mllp!.port;
      // No handshake at all.
      const silent = await idleConnections(port, 1, '127.0.0.2');
      // A handshake, then nothing.
      const shook = tls.connect({ host: '127.0.0.1', port, ca: readFileSync(join(dir, 'cert.pem')), servername: 'localhost' });
      shook.on('error', () => {});
      await new Promise<void>((resolve) => shook.once('secureConnect', () => resolve()));
      await new Promise<void>((resolve) => shook.once('close', () => resolve()));
      await closedCount(silent, 1);
      expect(await refused(service, 'first_byte_timeout')).to.equal(2);
      const sender = await mllpClient(port, { tls: { ca: readFileSync(join(dir, 'cert.pem')), servername: 'localhost' } });
      expect(msa(await sender.send(admit())).code).to.equal('AA');
      sender.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
