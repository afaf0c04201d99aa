// MLLP settings: off unless MLLP_PORT is set, loopback by default, TLS files in pairs, a bad
// allow-list refused at start, and a listener that cannot start fails the start.
import { expect } from 'chai';
import net from 'node:net';
import { loadConfig } from '../../src/config/config.js';
import { allowList } from '../../src/hl7/mllp-listener.js';
import { startTestService } from '../../../test/support/service.js';

describe('MLLP configuration', function () {
  this.timeout(60_000);

  it('is off without MLLP_PORT and listens on loopback by default', () => {
    expect(loadConfig({}).mllp).to.equal(undefined);
    expect(loadConfig({ MLLP_PORT: '2575' }).mllp).to.deep.include({ port: 2575, host: '127.0.0.1', allowedSources: [], maxMessageBytes: 1024 * 1024, tls: undefined });
    expect(loadConfig({ MLLP_PORT: '2575', MLLP_ALLOWED_SOURCES: ' 10.0.0.0/8, ::1 ' }).mllp!.allowedSources).to.deep.equal(['10.0.0.0/8', '::1']);
  });

  it('refuses TLS settings that do not go together', () => {
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_TLS_CERT: '/c.pem' })).to.throw(/MLLP_TLS_CERT and MLLP_TLS_KEY go together/);
    expect(() => loadConfig({ MLLP_PORT: '2575', MLLP_TLS_CA: '/ca.pem' })).to.throw(/MLLP_TLS_CA needs/);
    expect(loadConfig({ MLLP_PORT: '2575', MLLP_TLS_CERT: '/c.pem', MLLP_TLS_KEY: '/k.pem', MLLP_TLS_CA: '/ca.pem' }).mllp!.tls).to.deep.equal({ certFile: '/c.pem', keyFile: '/k.pem', caFile: '/ca.pem' });
  });

  it('reads the allow-list with node:net BlockList, and refuses what is not an address or network', () => {
    const list = allowList(['10.0.0.0/8', '192.168.1.7', '::1'])!;
    expect(list.check('10.2.3.4', 'ipv4')).to.equal(true);
    expect(list.check('192.168.1.8', 'ipv4')).to.equal(false);
    expect(list.check('::1', 'ipv6')).to.equal(true);
    expect(() => allowList(['ehr.example'])).to.throw(/not an IP address/);
    expect(() => allowList(['10.0.0.0/40'])).to.throw(/bad prefix length/);
    expect(allowList([])).to.equal(undefined);
  });

  it('a service whose MLLP port is taken fails to start with EADDRINUSE', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      let failure: unknown;
      await startTestService({ env: { MLLP_PORT: String(port) } }).catch((error) => (failure = error));
      expect((failure as { code?: string })?.code).to.equal('EADDRINUSE');
    } finally {
      blocker.close();
    }
  });
});
